"""A real Chroma server for the tests: `chroma run` from the installed chromadb on a free
port of 127.0.0.1 with a temp folder; tests that need it skip, saying why, when it cannot
start."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

START_SECONDS = 90  # a busy 2-core machine starts the server slowly


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def chroma_cli() -> str | None:
    beside = Path(sys.executable).with_name("chroma")
    return str(beside) if beside.is_file() else shutil.which("chroma")


def _answers(url: str) -> bool:
    for path in ("/api/v2/heartbeat", "/api/v1/heartbeat"):
        try:
            with urllib.request.urlopen(url + path, timeout=2) as response:
                if response.status == 200:
                    return True
        except OSError:
            continue
    return False


@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a running Chroma server (stopped after the session)."""
    cli = chroma_cli()
    if cli is None:
        pytest.skip("Chroma server tests: no `chroma` command beside the Python in use")
    folder = tmp_path_factory.mktemp("chroma-server")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = open(folder / "server.log", "wb")  # noqa: SIM115 - closed below
    command = [cli, "run", "--path", str(folder / "db"), "--port", str(port), "--host", "127.0.0.1"]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _answers(url):
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                tail = (folder / "server.log").read_text("utf-8", "replace")[-400:]
                pytest.skip(f"Chroma server tests: `chroma run` did not start: {tail}")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
