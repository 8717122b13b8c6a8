"""Text the chat panel shows: explanation tooltips, answers with clickable citations,
intent badges and Obsidian links. Plain functions over core dataclasses, testable alone."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Sequence

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextDocument, QTextFragment

from mindnet_desktop.core.chat.align import CITATION as ALIGN_CITATION  # as claims leave them out
from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.chat.support import alignment_of
from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.ui.chat.state import Turn
from mindnet_desktop.ui.support.i18n import fill
from mindnet_desktop.ui.support.status_label import ERROR_STYLE
from mindnet_desktop.ui.support.terms import term_label

CITATION = re.compile(r"\[(\d+)\]")
CITE_HREF = re.compile(r"^cite:(\d+)/(\d+)$")
SOURCES_HREF = re.compile(r"^sources:(\d+)$")
EVIDENCE_HREF = re.compile(r"^evidence:(\d+)/(\d+)$")
UNFOUNDED_HREF = re.compile(r"^unfounded:(\d+)/(\d+)$")
UNFOUNDED_COLOR = "#c0392b"
LIST_MARK = re.compile(r"^(?:[-*+]|\d+[.)])\s+")  # a list item's marker, not its words
translate = QCoreApplication.translate


def intent_text(routing: Routing) -> str:
    """`FACT · keywords`: the intent and where it came from."""
    sources = {
        "keyword": translate("ChatText", "keywords"),
        "embedding": translate("ChatText", "examples"),
        "model": translate("ChatText", "model"),
        "default": translate("ChatText", "default"),
    }
    return f"{routing.intent} · {sources.get(routing.source, routing.source)}"


def intent_tooltip(routing: Routing) -> str:
    if routing.matched:
        words = ", ".join(routing.matched)
        return fill(translate("ChatText", "Intent %1, matched keywords: %2"), routing.intent, words)
    if routing.source == "model":
        return fill(translate("ChatText", "Intent %1, chosen by the chat model"), routing.intent)
    if routing.source == "embedding":
        return fill(
            translate("ChatText", "Intent %1, closest to the example questions of that intent"),
            routing.intent,
        )
    return fill(
        translate("ChatText", "Intent %1 (default: neither keywords nor examples decided)"),
        routing.intent,
    )


EXCERPT_CHARS = 700  # of what the model read, in a tooltip


def explanation_html(
    hit: ScoredHit, citation: int | None = None, excerpt: str | None = None
) -> str:
    """The tooltip of a source or a citation: title, reasons, the score breakdown (raw,
    weight and contribution of every term) and, when the model read only an `excerpt` of
    the source, that excerpt."""
    head = html.escape(hit.title)
    if citation is not None:
        head = f"[{citation}] {head}"
    parts = [f"<b>{head}</b> <i>({html.escape(hit.type)})</i>"]
    if hit.injected:
        injected = html.escape(translate("ChatText", "Injected for a decision"))
        parts.append(f"<p><i>{injected}</i></p>")
    if hit.reasons:
        items = "".join(f"<li>{html.escape(r)}</li>" for r in hit.reasons)
        reasons = html.escape(translate("ChatText", "Reasons"))
        parts.append(f"<p><b>{reasons}</b></p><ul>{items}</ul>")
    if hit.score_breakdown:
        head_row = "".join(
            f"<th align='left'>{html.escape(h)}</th>"
            for h in (
                translate("ChatText", "Term"),
                translate("ChatText", "Raw"),
                translate("ChatText", "Weight"),
                translate("ChatText", "Contribution"),
            )
        )
        rows = "".join(
            "<tr>"
            f"<td>{html.escape(term_label(str(t['term'])))}</td>"
            f"<td align='right'>{float(t['raw']):.3f}</td>"
            f"<td align='right'>{float(t['weight']):g}</td>"
            f"<td align='right'>{float(t['contribution']):.3f}</td>"
            "</tr>"
            for t in hit.score_breakdown
        )
        score = html.escape(translate("ChatText", "Score"))
        total = (
            f"<tr><td><b>{score}</b></td><td></td><td></td>"
            f"<td align='right'><b>{hit.score:.3f}</b></td></tr>"
        )
        parts.append(f"<table cellspacing='4'><tr>{head_row}</tr>{rows}{total}</table>")
    if excerpt:
        read = html.escape(translate("ChatText", "What the answer read of it"))
        text = excerpt if len(excerpt) <= EXCERPT_CHARS else excerpt[:EXCERPT_CHARS] + " …"
        parts.append(f"<p><b>{read}</b></p><p>{html.escape(text)}</p>".replace("\n", "<br>"))
    return "".join(parts)


def excerpt_of(turn: Turn, citation: int) -> str | None:
    """What the answer of `turn` read of source `citation` (None: the whole source)."""
    excerpts = turn.result.excerpts if turn.result is not None else None
    return excerpts[citation - 1] if excerpts and 1 <= citation <= len(excerpts) else None


def citation_html(found: tuple[Turn, ScoredHit, int] | None) -> str | None:
    """The tooltip of a citation link (None: it names no source)."""
    if found is None:
        return None
    turn, hit, citation = found
    tip = explanation_html(hit, citation, excerpt_of(turn, citation))
    support = alignment_of(turn.result.alignments if turn.result is not None else [], citation)
    if support is not None:  # the sentence of the source that the answer's sentence rests on
        head = html.escape(translate("ChatText", "Supports the answer's sentence"))
        said = html.escape(" ".join(support.support.split()))
        if support.action == "replaced":  # the model cited another source: say so
            was = " ".join(f"[{n}]" for n in support.cited)
            note = fill(
                translate("ChatText", "Cited [%1] instead of %2: that source does not say it."),
                citation,
                was,
            )
            tip = f"<p><i>{html.escape(note)}</i></p><p><b>{head}</b><br>“{said}”</p>{tip}"
        else:
            tip = f"<p><b>{head}</b><br>“{said}”</p>{tip}"
    return tip


def _short(sentence: str, limit: int = 140) -> str:
    text = " ".join(CITATION.sub("", sentence).split()).rstrip(" .")
    return text if len(text) <= limit else text[:limit] + " …"


def doubts_html(turn: Turn) -> str:
    """A line per citation the check found its source may not back (a number not in it,
    hardly a shared word, no such source), and one naming the figures no source holds: the
    answer's claim is the user's to verify."""
    checks = turn.result.citation_checks if turn.result is not None else []
    lines = []
    for check in checks:
        if check.supported:
            continue
        sentence = _short(check.sentence)
        text = fill(
            translate("ChatText", "Check this: source [%1] may not say “%2”."),
            check.citation,
            sentence,
        )
        lines.append(f'<p style="{ERROR_STYLE}"><small>⚠ {html.escape(text)}</small></p>')
    figures = turn.result.unsupported_figures if turn.result is not None else []
    if figures:
        text = fill(
            translate(
                "ChatText",
                "Not in your notes: %1 is in none of the sources; the model may have made it up.",
            ),
            ", ".join(f"“{f}”" for f in figures),
        )
        lines.append(f'<p style="{ERROR_STYLE}"><small>⚠ {html.escape(text)}</small></p>')
    draft = turn.result.draft_answer if turn.result is not None else None
    # A withheld answer's claims are quoted once, in the draft's line below.
    alignments = turn.result.alignments if turn.result is not None and not draft else []
    for a in alignments:
        sentence = _short(a.sentence)
        if a.action == "unsupported":
            text = fill(translate("ChatText", "Not found in your notes: “%1”."), sentence)
            lines.append(f'<p style="{ERROR_STYLE}"><small>⚠ {html.escape(text)}</small></p>')
        elif a.action == "replaced":
            was = " ".join(f"[{n}]" for n in a.cited)
            text = fill(
                translate("ChatText", "Cited [%1] instead of %2: that source says “%3”."),
                a.source,
                was,
                _short(a.support),
            )
            lines.append(f"<p><small>ℹ {html.escape(text)}</small></p>")
    if draft:
        draft = draft if len(draft) <= 300 else draft[:300] + " …"
        text = fill(
            translate(
                "ChatText",
                "A check found that your notes do not state the model's answer, so it was "
                "withheld: “%1”",
            ),
            " ".join(draft.split()),
        )
        lines.append(f'<p style="{ERROR_STYLE}"><small>⚠ {html.escape(text)}</small></p>')
    return "".join(lines)


def claim_spans(answer: str, claims: Sequence[str]) -> list[tuple[int, int, int]]:
    """(start, end, k) in `answer` of each claim `k` found in it: a claim is an answer
    sentence with its citations left out (an `Alignment.sentence`), so they are skipped
    while matching; claims not found as written are left out."""
    kept, where = [], []  # the answer without its citations, and each kept char's position
    last = 0
    for match in ALIGN_CITATION.finditer(answer):
        kept.append(answer[last : match.start()])
        where.extend(range(last, match.start()))
        last = match.end()
    kept.append(answer[last:])
    where.extend(range(last, len(answer)))
    plain = "".join(kept)
    spans = []
    for k, claim in enumerate(claims):
        at = plain.find(claim) if claim else -1
        if at >= 0:
            spans.append((where[at], where[at + len(claim) - 1] + 1, k))
    return sorted(spans)


def linked_answer_html(answer: str, turn: int, sources: int, unfounded: Sequence[str] = ()) -> str:
    """The answer as HTML: each [n] that names one of the `sources` becomes a link
    `cite:<turn>/<n>`; each sentence of `unfounded` (claims no source supports) becomes an
    anchor `unfounded:<turn>/<k>` (underlined dotted by `underline_unfounded`, its tooltip
    says it is not in the notes); line breaks stay."""
    spans = claim_spans(answer, unfounded)

    def text(start: int, end: int) -> str:
        """answer[start:end], the parts inside an unfounded claim as its anchor."""
        out, at = [], start
        for first, last, k in spans:
            first, last = max(first, start), min(last, end)
            if first >= last:
                continue
            out.append(html.escape(answer[at:first]))
            out.append(
                f'<a href="unfounded:{turn}/{k}" style="color:palette(text); '
                f'text-decoration:none">{html.escape(answer[first:last])}</a>'
            )
            at = last
        out.append(html.escape(answer[at:end]))
        return "".join(out)

    out, last = [], 0
    for match in CITATION.finditer(answer):
        out.append(text(last, match.start()))
        n = int(match.group(1))
        if 1 <= n <= sources:
            out.append(f'<a href="cite:{turn}/{n}">[{n}]</a>')
        else:
            out.append(html.escape(match.group()))
        last = match.end()
    out.append(text(last, len(answer)))
    return "".join(out).replace("\n", "<br>")


def unfounded_claims(turn: Turn) -> list[str]:
    """The sentences of `turn`'s answer that no source supports."""
    alignments = turn.result.alignments if turn.result is not None else []
    return [a.sentence for a in alignments if a.action == "unsupported"]


def anchors(document: QTextDocument, prefix: str) -> Iterator[QTextFragment]:
    """The text fragments of `document` inside an anchor whose href starts with `prefix`,
    in order."""
    block = document.begin()
    while block.isValid():
        for part in block:
            fragment = part.fragment()
            if fragment.charFormat().anchorHref().startswith(prefix):
                yield fragment
        block = block.next()


def underline_unfounded(document: QTextDocument) -> None:
    """Underline every `unfounded:` anchor of `document` with a dotted red line (Qt's HTML
    has no dotted underline: it is set on the laid-out text)."""
    mark = QTextCharFormat()
    mark.setFontUnderline(True)
    mark.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
    mark.setUnderlineColor(QColor(UNFOUNDED_COLOR))
    for fragment in list(anchors(document, "unfounded:")):  # listed before the formats change
        cursor = QTextCursor(document)
        cursor.setPosition(fragment.position())
        cursor.setPosition(fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(mark)


def unfounded_tooltip(href: str) -> str | None:
    """The tooltip of an unfounded claim's anchor (None: `href` is not one)."""
    if not UNFOUNDED_HREF.match(href):
        return None
    head = html.escape(translate("ChatText", "Not found in your notes"))
    body = html.escape(
        translate(
            "ChatText",
            "None of the sources says this: the model may have added it. Check it before "
            "you rely on it.",
        )
    )
    return f"<p><b>{head}</b><br>{body}</p>"


def evidence_html(turn: Turn, i: int) -> str:
    """ "From your notes": the evidence sentences of turn `i`, each a link that opens its
    note at the sentence, with its citation (a link to its source, the source's explanation
    as tooltip); empty without evidence."""
    if turn.result is None or not turn.result.evidence:
        return ""
    if turn.result.not_found:  # withheld, or nothing close enough: only the closest
        head = html.escape(translate("ChatPanel", "Closest in your notes"))
    else:
        head = html.escape(translate("ChatPanel", "From your notes"))
    lines = "".join(
        f'<p style="margin-left:12px"><a href="evidence:{i}/{k}" '
        f'style="color:palette(text); text-decoration:none">'
        f"“{html.escape(LIST_MARK.sub('', ' '.join(e.sentence.split())))}”</a> "
        f'<a href="cite:{i}/{e.citation}">[{e.citation}]</a></p>'
        for k, e in enumerate(turn.result.evidence)
    )
    return f"<p><small><b>{head}</b></small></p>{lines}"


def transcript_html(turns: list[Turn], sources_label: Callable[[int], str]) -> str:
    """The conversation: each question, and its answer with linked citations, the intent,
    a link to its sources and a mark when it was stopped or failed. A running answer is
    plain text: the stream is appended to its last paragraph.

    Args:
        turns: The panel's turns.
        sources_label: "Sources (n)" for n sources, from the panel (pyside6-lupdate finds
            plural forms only in `self.tr` calls).
    """
    you = html.escape(translate("ChatPanel", "You"))
    name = html.escape(translate("ChatPanel", "Mindnet"))
    stopped = html.escape(translate("ChatPanel", "stopped"))
    parts = []
    for i, turn in enumerate(turns):
        parts.append(f"<p><b>{you}:</b> {html.escape(turn.question)}</p><p><b>{name}:</b></p>")
        parts.append(evidence_html(turn, i))  # before the answer: it is there before the model
        if turn.state == "running":
            parts.append(f"<p>{html.escape(turn.answer)}</p>")
            continue
        sources = len(turn.result.sources) if turn.result else 0
        if turn.answer:
            linked = linked_answer_html(turn.answer, i, sources, unfounded_claims(turn))
            parts.append(f"<p>{linked}</p>")
            parts.append(doubts_html(turn))
        if turn.error:
            parts.append(f'<p style="{ERROR_STYLE}">⚠ {html.escape(turn.error)}</p>')
        meta = []
        if turn.result is not None:
            meta.append(html.escape(intent_text(turn.result.routing)))
            if sources:
                link = html.escape(sources_label(sources))
                meta.append(f'<a href="sources:{i}">{link}</a>')
        if turn.state == "stopped":
            meta.append(f"<i>{stopped}</i>")
        if meta:
            parts.append(f"<p><small>{' · '.join(meta)}</small></p>")
        parts.append("<hr>")
    return "".join(parts)


def parse_evidence(href: str) -> tuple[int, int] | None:
    """(turn, evidence index) of an `evidence:<turn>/<k>` link, else None."""
    match = EVIDENCE_HREF.match(href)
    return (int(match.group(1)), int(match.group(2))) if match else None


def parse_citation(href: str) -> tuple[int, int] | None:
    """(turn, n) of a `cite:<turn>/<n>` link, else None."""
    match = CITE_HREF.match(href)
    return (int(match.group(1)), int(match.group(2))) if match else None
