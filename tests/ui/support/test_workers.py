"""Jobs run off the GUI thread, report progress, results and errors, and can be cancelled."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.ui.support.workers import Job, ServiceHost, run_pure


def test_generator_job_streams_progress_and_returns_its_value(qtbot) -> None:
    seen: list[object] = []
    threads: set[int] = set()

    def count(job: Job):
        threads.add(threading.get_ident())
        yield from range(3)
        return "done"

    job = run_pure(count)
    job.progress.connect(seen.append)
    with qtbot.waitSignal(job.finished, timeout=5000):
        pass
    qtbot.waitUntil(lambda: len(seen) == 3)
    assert seen == [0, 1, 2]
    assert job.result == "done"
    assert threading.get_ident() not in threads


def test_failure_reaches_the_user_as_a_message(qtbot) -> None:
    """Our errors (and the machine's) read as they are; anything else names its type."""
    from mindnet_desktop.core.ingest.vault import VaultUnavailableError

    def broken(job: Job) -> None:
        raise VaultUnavailableError("The vault folder is gone.")

    def bug(job: Job) -> None:
        raise KeyError("note")

    messages: list[str] = []
    for fn in (broken, bug):
        job = Job(fn)
        job.failed.connect(messages.append)
        job.run()
    qtbot.waitUntil(lambda: len(messages) == 2)
    assert messages == ["The vault folder is gone.", "KeyError: 'note'"]


def test_slots_connected_after_a_quick_job_ended_still_get_its_signals(qtbot) -> None:
    job = run_pure(lambda job: 42)
    assert job.wait(5)  # it ran to the end on its thread before anyone connected
    results: list[object] = []
    job.done.connect(results.append)
    with qtbot.waitSignal(job.finished, timeout=5000):
        pass
    assert results == [42]


def test_cancel_stops_a_generator_between_items(qtbot) -> None:
    produced: list[int] = []

    def endless(job: Job):
        i = 0
        while True:
            produced.append(i)
            if i == 2:
                job.cancel()
            yield i
            i += 1

    job = Job(endless)
    done: list[object] = []
    job.done.connect(done.append)
    job.run()
    assert produced == [0, 1, 2]
    assert done == []  # a cancelled job reports no result


def test_service_host_runs_jobs_in_order_on_one_thread(qtbot, vault: Path, tmp_path: Path) -> None:
    host = ServiceHost(
        lambda: Mindnet(vault, tmp_path / "data", embedder=HashEmbedder(), write=True)
    )
    with qtbot.waitSignal(host.opened, timeout=20000):
        host.open()
    order: list[str] = []
    a = host.submit(lambda mn, job: order.append("a") or threading.get_ident())
    b = host.submit(lambda mn, job: order.append("b") or threading.get_ident())
    # waitUntil, not waitSignal: b may finish before a signal spy could connect.
    qtbot.waitUntil(b.is_finished, timeout=5000)
    assert order == ["a", "b"]
    assert a.result == b.result != threading.get_ident()
    host.close()
    assert host.mindnet is None
    with pytest.raises(RuntimeError):
        host.submit(lambda mn, job: None)
