"""Machine facts and measuring helpers shared by the benches (no Mindnet imports)."""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGES = ("mindnet-desktop", "chromadb", "llama_cpp_python", "numpy", "networkx", "tantivy")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_facts() -> dict[str, Any]:
    """What a reader needs to weigh the figures: cores, CPU, load, Python, versions."""
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "cores": os.cpu_count(),
        "cpu": cpu_model(),
        "load_average": [round(x, 2) for x in load] if load else None,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": versions,
    }


def rss_bytes() -> tuple[int, int]:
    """(current, peak) resident set size of this process (0 where unknown)."""
    now = peak = 0
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) * 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) * 1024
    except OSError:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return now, peak


def process_rss(pid: int) -> int:
    """The resident set size of process `pid` in bytes (0 where unknown)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def percentiles(samples: list[float]) -> dict[str, float]:
    """p50 / p95 / max in milliseconds."""
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }


def cli_command(vault: Path, data: Path, embedder: str, *args: str) -> list[str]:
    """A `mindnet` command in a fresh interpreter, on this source tree."""
    return [
        sys.executable,
        "-m",
        "mindnet_desktop.cli.main",
        "--vault",
        str(vault),
        "--data-dir",
        str(data),
        "--embedder",
        embedder,
        *args,
    ]


def child_env() -> dict[str, str]:
    """The environment of a fresh interpreter that imports this source tree."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def module_json(module: str, *args: str, what: str, offscreen: bool = False) -> Any:
    """`python -m module args` in a fresh interpreter on this source tree (Qt `offscreen`
    unless the environment names a platform): the JSON object it printed last (one line or
    indented); a RuntimeError naming `what` when it fails."""
    env = child_env()
    if offscreen:
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
    command = [sys.executable, "-m", module, *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed: {done.stderr.strip()[-500:]}")
    lines = done.stdout.strip().splitlines()
    first = max((i for i, line in enumerate(lines) if line.startswith("{")), default=None)
    if first is None:
        raise RuntimeError(f"{what} printed no JSON: {done.stdout.strip()[-500:]}")
    return json.loads("\n".join(lines[first:]))


def timed_process(command: list[str]) -> float:
    """Seconds a fresh process takes from spawn to exit (it must succeed)."""
    return timed_output(command)[0]


def timed_output(command: list[str]) -> tuple[float, str]:
    """Seconds a fresh process takes from spawn to exit (it must succeed), and its stdout."""
    env = child_env()
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:6])} … failed: {done.stderr.strip()[-500:]}")
    return seconds, done.stdout


# Runs argv[2:] and writes its peak RSS (KiB) to argv[1]. A process spawned by this one
# would report this one's peak: Linux keeps the high-water mark of the memory it had before
# `exec`, which after `fork` (or `vfork`) is the parent's; spawned by this small
# interpreter, the command's own peak is what is read.
_PEAK_OF = (
    "import resource, subprocess, sys\n"
    "code = subprocess.call(sys.argv[2:])\n"
    "with open(sys.argv[1], 'w') as out:\n"
    "    out.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
    "sys.exit(code)\n"
)


def measured_output(command: list[str]) -> tuple[float, str, int]:
    """Seconds a fresh process takes from spawn to exit (it must succeed; a small
    interpreter's start included), its stdout, and its peak resident set size in bytes as
    `time -v` reads it: the largest of the process and the children it waited for, each
    alone (not their sum); 0 where unknown (no `resource` module: Windows)."""
    try:
        import resource  # noqa: F401 - POSIX only
    except ImportError:
        seconds, out = timed_output(command)
        return seconds, out, 0
    with tempfile.TemporaryDirectory() as scratch:
        peak_file = Path(scratch) / "peak"
        seconds, out = timed_output([sys.executable, "-c", _PEAK_OF, str(peak_file), *command])
        return seconds, out, int(peak_file.read_text(encoding="ascii")) * 1024


def poll(until: Callable[[], bool], timeout: float, interval: float = 0.01) -> bool:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if until():
            return True
        time.sleep(interval)
    return until()
