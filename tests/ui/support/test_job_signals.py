"""Job signals reach receivers connected after submit, and the Qt binding keeps refcounts."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal

from mindnet_desktop.ui.support.workers import Job, run_pure


def test_receivers_connected_after_the_job_finished_still_get_its_signals(qtbot) -> None:
    job = run_pure(lambda job: 42)
    assert job.wait(5)  # done on the worker thread before anything is connected
    got: list[object] = []
    job.done.connect(got.append)
    job.finished.connect(lambda: got.append("finished"))
    qtbot.waitUntil(lambda: len(got) == 2, timeout=5000)
    assert got == [42, "finished"]
    assert job not in Job._live  # released once `finished` was delivered


def test_report_emits_progress_on_the_gui_thread(qtbot) -> None:
    def work(job: Job) -> str:
        for i in range(3):
            job.report(i)
        return "ok"

    seen: list[object] = []
    job = run_pure(work)
    job.progress.connect(seen.append)
    qtbot.waitUntil(lambda: seen == [0, 1, 2] and job.result == "ok", timeout=5000)


def test_signal_emit_keeps_reference_counts() -> None:
    """PySide6 6.12.0 drops a reference to True on every Signal.emit() (Python 3.11): the
    app then aborts after a few hundred signals ("bool_dealloc: deallocating True").
    pyproject.toml excludes that version; this test catches a binding with the bug."""

    class Emitter(QObject):
        ping = Signal()

    emitter = Emitter()
    emitter.ping.connect(lambda: None)
    before = sys.getrefcount(True)
    for _ in range(50):
        emitter.ping.emit()
    assert sys.getrefcount(True) > before - 25, "this PySide6 build leaks refs on emit()"
