"""The one way a panel shows what it is doing and what went wrong: a status line that
turns red (and keeps the text selectable, so a message can be copied) on an error."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QLabel, QWidget

ERROR_COLOUR = "#c62828"
ERROR_STYLE = f"color: {ERROR_COLOUR};"


class StatusLabel(QLabel):
    """A status line: `show_text` for progress, `show_error` for a failure."""

    def __init__(self, parent: QWidget | None = None, wrap: bool = False) -> None:
        super().__init__(parent)
        self.setWordWrap(wrap)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error = False

    def show_text(self, text: str) -> None:
        self.error = False
        self.setStyleSheet("")
        self.setText(text)

    def show_error(self, text: str) -> None:
        self.error = True
        self.setStyleSheet(ERROR_STYLE)
        self.setText(text)


class PhaseClock(QObject):
    """Shows what a long job does now in a `StatusLabel` and, from the first second on, how
    long that step has taken ("Reading 5 sources… 12 s"): on a slow machine a step can take
    minutes, and a line that keeps counting says the app is still at work."""

    TICK_MS = 1000

    def __init__(self, label: StatusLabel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.label = label
        self.step = ""
        self._step_started = self._started = time.monotonic()
        self._timer = QTimer(self)
        self._timer.setInterval(self.TICK_MS)
        self._timer.timeout.connect(self._tick)

    def start(self, step: str) -> None:
        """A job begins with `step` (its whole duration counts from here)."""
        self._started = time.monotonic()
        self.show(step)

    def show(self, step: str) -> None:
        """The job moved on to `step`."""
        self.step, self._step_started = step, time.monotonic()
        self.label.show_text(step)
        self._timer.start()

    def stop(self) -> float:
        """The job ended: the clock stops (the label keeps its text); seconds since `start`."""
        self._timer.stop()
        return time.monotonic() - self._started

    @property
    def running(self) -> bool:
        return self._timer.isActive()

    def _tick(self) -> None:
        if self.label.error:  # an error stays as it is
            return
        seconds = int(time.monotonic() - self._step_started)
        self.label.show_text(f"{self.step} {seconds} s" if seconds else self.step)
