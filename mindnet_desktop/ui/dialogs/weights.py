"""The retriever weights in the settings dialog: one field per term, "Check search quality…"
(the weights being edited beside the ones in effect, on the user's notes) and "Learn from my
ratings…" (the weights proposed from the thumbs; applied weights show here at once)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QGroupBox, QPushButton, QWidget

from mindnet_desktop.core.config.retriever import TERMS

# Settings → Check search quality: called with the weights being edited and the dialog.
CheckQuality = Callable[[dict[str, float], QWidget], object]
# Settings → Learn from my ratings: called with the dialog and what to call with the weights
# once the user applied them.
Learn = Callable[[QWidget, Callable[[dict[str, float]], None]], object]


class WeightsBox(QGroupBox):
    """The weights of every retriever term, editable.

    Args:
        weights: The weights to show (the ones in effect).
        check_quality: Opens the quality check (None: the button is disabled).
        learn: Opens the ratings dialog to learn weights (None: the button is disabled).
    """

    def __init__(
        self,
        weights: dict[str, float],
        check_quality: CheckQuality | None = None,
        learn: Learn | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(self.tr("Retriever weights"), parent)
        form = QFormLayout(self)
        labels = {
            "semantic": self.tr("Semantic similarity"),
            "lexical": self.tr("Matching terms"),
            "name": self.tr("Named in the question"),
            "coverage": self.tr("Every query word"),
            "feedback": self.tr("Your ratings"),
            "edge": self.tr("Edges"),
            "centrality": self.tr("Centrality"),
            "type": self.tr("Note type"),
            "status": self.tr("Status"),
        }
        self.spins: dict[str, QDoubleSpinBox] = {}
        for term in TERMS:
            spin = QDoubleSpinBox()
            spin.setRange(0.0, 10.0)
            spin.setDecimals(2)
            spin.setSingleStep(0.05)
            self.spins[term] = spin
            form.addRow(labels.get(term, term), spin)
        self._show(weights)
        self.check_quality = QPushButton(self.tr("Check search quality…"))
        self.check_quality.setEnabled(check_quality is not None)
        if check_quality is not None:
            self.check_quality.clicked.connect(lambda: check_quality(self.values(), self.window()))
        form.addRow("", self.check_quality)
        self.learn = QPushButton(self.tr("Learn from my ratings…"))
        self.learn.setToolTip(
            self.tr(
                "Propose weights from your thumbs up and down, starting from the weights in "
                "effect; nothing changes until you apply them, and applied weights replace "
                "edits here"
            )
        )
        self.learn.setEnabled(learn is not None)
        if learn is not None:
            self.learn.clicked.connect(lambda: learn(self.window(), self.show_weights))
        form.addRow("", self.learn)
        self.applied: dict[str, float] | None = None  # weights the user applied from here

    def values(self) -> dict[str, float]:
        out = {}
        for term, spin in self.spins.items():
            exact = self._exact[term]
            shown = round(exact, spin.decimals()) == round(spin.value(), spin.decimals())
            out[term] = round(exact if shown else spin.value(), 4)
        return out

    def _show(self, weights: dict[str, float]) -> None:
        # the weights as given: a field shows two decimals, a learned weight may have four
        # (0.375); a field left as it was gives back the exact weight, not its rounding
        self._exact = {term: float(weights.get(term, 0.0)) for term in TERMS}
        for term, spin in self.spins.items():
            spin.setValue(self._exact[term])

    def show_weights(self, weights: dict[str, float]) -> None:
        """Weights written outside the dialog (learned and applied): shown, and remembered
        so that closing the dialog with OK keeps them rather than writing the old ones."""
        self._show(weights)
        self.applied = self.values()
