"""Where a click on a source or a citation takes the user: the note in the app, scrolled to
and marked at the sentence the answer rests on (the default), or the note in Obsidian for
those who chose it in the settings (Obsidian cannot mark a sentence)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from mindnet_desktop.core.chat.support import supporting_sentence
from mindnet_desktop.ui.chat.state import Turn
from mindnet_desktop.ui.support.obsidian import obsidian_url


@dataclass(frozen=True)
class Opening:
    """A source to open: its note, the sentence to mark in it and its Obsidian link."""

    note_id: str
    sentence: str
    url: str


def opening(turn: Turn, citation: int) -> Opening | None:
    """How to open source `citation` (1-based) of `turn`; None when there is no such source."""
    result = turn.result
    if result is None or not 1 <= citation <= len(result.sources):
        return None
    hit = result.sources[citation - 1]
    sentence = supporting_sentence(result, citation)
    return Opening(hit.note_id, sentence, obsidian_url(turn.vault_name, hit.path))


def open_in_obsidian(target: Opening) -> bool:
    """Hand the note to Obsidian; False when the system has nothing to open it with."""
    return QDesktopServices.openUrl(QUrl(target.url))
