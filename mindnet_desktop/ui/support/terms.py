"""The names of the retriever's score terms as a person reads them (tooltips, the ratings'
proposed weights)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate


def term_label(term: str) -> str:
    """The translated name of a score term (`semantic`, `edge`, …)."""
    labels = {
        "semantic": translate("Terms", "semantic similarity"),
        "lexical": translate("Terms", "matching terms"),
        "name": translate("Terms", "named in the question"),
        "edge": translate("Terms", "edges"),
        "centrality": translate("Terms", "centrality"),
        "type": translate("Terms", "type weight"),
        "status": translate("Terms", "status"),
        "coverage": translate("Terms", "every query word"),
        "feedback": translate("Terms", "your ratings"),
    }
    return labels.get(term, term)
