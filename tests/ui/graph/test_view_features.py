"""The graph view like Obsidian's: search centres a note, folder / tag / rule / unresolved
filters, positions kept when a note is added, colour groups with their legend, double-click
opens the local view, the note pane renders Markdown with links to notes, and the related
list links a note with one click."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QTextBlockFormat

from mindnet_desktop.core.service.notes.text import note_url
from mindnet_desktop.ui.graph.layout import SPACING
from mindnet_desktop.ui.graph.view import GraphView
from mindnet_desktop.ui.support.workers import ServiceHost
from tests.conftest import run_import
from tests.ui.graph.test_view import on_core, redraw

ALPHA = "Projekte/KI-Projekt Alpha"


@pytest.fixture
def whole(qtbot, host: ServiceHost) -> Iterator[GraphView]:
    """The whole-vault view of the example vault."""
    view = GraphView(host)
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    qtbot.waitExposed(view)
    redraw(qtbot, view, lambda: view.controls.focus_box.setCurrentIndex(1))
    yield view
    view.shutdown()


def notes(view: GraphView) -> set[str]:
    return {n for n, node in view.canvas.slice.nodes.items() if node.kind == "note"}


def test_search_by_alias_selects_and_centres_the_note(qtbot, whole) -> None:
    canvas = whole.canvas
    target = "Wissen/Qdrant Vektordatenbank"
    assert canvas.viewport_pos("node", target) != canvas.viewport().rect().center()
    whole.controls.search_edit.setText("qdrant db")  # an alias, other case
    whole.controls.search_edit.returnPressed.emit()
    assert whole.selected == target
    at, middle = canvas.viewport_pos("node", target), canvas.viewport().rect().center()
    assert abs(at.x() - middle.x()) <= 2 and abs(at.y() - middle.y()) <= 2
    assert canvas.transform().m11() >= 1.0
    assert target in {i.text() for i in canvas.labels.visible()} or any(
        i.text().startswith("Qdrant Vektor") for i in canvas.labels.visible()
    )
    whole.controls.search_edit.setText("wechseln")  # a part of a title
    whole.controls.search_edit.returnPressed.emit()
    assert whole.selected == "Support/Toner wechseln"


def test_folder_tag_rule_and_unresolved_filters(qtbot, whole) -> None:
    everything = notes(whole)
    controls = whole.controls
    box = controls.folder_box
    redraw(qtbot, whole, lambda: box.setCurrentIndex(box.findData("Support")))
    shown = notes(whole)
    assert shown and shown < everything and all(n.startswith("Support/") for n in shown)
    redraw(qtbot, whole, lambda: box.setCurrentIndex(0))
    tags = controls.tag_box
    redraw(qtbot, whole, lambda: tags.setCurrentIndex(tags.findData("drucker")))
    tagged = notes(whole)
    assert tagged and tagged < everything
    assert all("drucker" in whole.canvas.slice.nodes[n].tags for n in tagged)
    redraw(qtbot, whole, lambda: tags.setCurrentIndex(0))
    assert notes(whole) == everything
    assert any(e.provenance == "rule" for e in whole.canvas.edge_data.values())
    redraw(qtbot, whole, lambda: controls.rule_check.setChecked(False))
    assert all(e.provenance != "rule" for e in whole.canvas.edge_data.values())
    assert any(n.kind == "unresolved" for n in whole.canvas.slice.nodes.values())
    redraw(qtbot, whole, lambda: controls.unresolved_check.setChecked(False))
    assert all(n.kind == "note" for n in whole.canvas.slice.nodes.values())
    loose = [n for n in whole.canvas.nodes if not whole.canvas.neighbourhood(n) - {n}]
    assert loose, "without rule edges some notes have no link"
    redraw(qtbot, whole, lambda: controls.orphans_check.setChecked(False))
    assert not set(loose) & set(whole.canvas.nodes)


def test_adding_a_note_keeps_every_position(qtbot, whole, host, vault) -> None:
    before = {n: whole.canvas.position(n) for n in whole.canvas.nodes}
    whole.canvas.zoom_by(1.5)
    view_before = whole.canvas.transform()
    friends = ["Wissen/Embeddings 101", "Glossar/HNSW"]
    (vault / "Wissen" / "Neue Notiz.md").write_text(
        "# Neue Notiz\n\nSiehe [[Embeddings 101]] und [[HNSW]].\n", encoding="utf-8"
    )
    on_core(qtbot, host, run_import)
    redraw(qtbot, whole, whole.reload)
    new = "Wissen/Neue Notiz"
    assert new in whole.canvas.nodes
    assert all(whole.canvas.position(n) == p for n, p in before.items())
    assert whole.canvas.transform() == view_before  # no refit: nothing jumps on screen
    centre = [sum(getattr(before[f], k)() for f in friends) / 2 for k in ("x", "y")]
    at = whole.canvas.position(new)
    assert math.dist((at.x(), at.y()), centre) < 3 * SPACING


def test_colour_by_folder_and_community_follows_in_the_legend(qtbot, whole) -> None:
    legend = whole.side.legend

    def entries() -> list[str]:
        return [legend.item(i).text() for i in range(legend.count())]

    assert "project" in entries()
    colour = whole.controls.colour_box
    colour.setCurrentIndex(colour.findData("folder"))
    assert "Projekte" in entries() and "project" not in entries()
    colour.setCurrentIndex(colour.findData("community"))
    qtbot.waitUntil(lambda: "#1" in entries(), timeout=15000)
    groups = {whole.canvas.nodes[n].brush().color().name() for n in notes(whole)}
    assert len(groups) >= 2


def test_double_click_opens_the_local_view(qtbot, whole) -> None:
    pos = whole.canvas.viewport_pos("node", ALPHA)
    with qtbot.waitSignal(whole.drawn, timeout=30000):
        qtbot.mouseDClick(whole.canvas.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert not whole.controls.whole_vault()
    assert whole.canvas.slice.root == ALPHA


def test_the_note_pane_renders_markdown_with_links_to_notes(qtbot, whole) -> None:
    whole.select_node(ALPHA)
    preview = whole.side.preview
    qtbot.waitUntil(lambda: "Architektur" in preview.toPlainText(), timeout=15000)
    text = preview.toPlainText()
    assert "[[" not in text and "## " not in text and "**" not in text
    assert "Local First" in text
    levels = []
    block = preview.document().begin()
    while block.isValid():
        levels.append(QTextBlockFormat(block.blockFormat()).headingLevel())
        block = block.next()
    assert 2 in levels  # "## Ziel" is a heading, not text
    html = preview.toHtml()
    assert 'href="mindnet-note:' in html
    preview.anchorClicked.emit(QUrl(note_url("Wissen/Embeddings 101")))
    assert whole.selected == "Wissen/Embeddings 101"
    qtbot.waitUntil(lambda: "Embedding" in whole.side.title.text(), timeout=15000)


def test_related_list_links_a_note_with_one_click(qtbot, whole, host) -> None:
    source = "Produkte/LaserJet 500"
    with qtbot.waitSignal(whole.related.shown, timeout=30000):
        whole.select_node(source)
    rows = whole.side.related
    assert rows.count() > 0
    listed = [rows.item(i).data(Qt.ItemDataRole.UserRole) for i in range(rows.count())]

    def joined(mn) -> set[str]:  # noqa: ANN001
        return {e.target_note_id for e in mn.edges() if e.note_id == source} | {
            e.note_id for e in mn.edges() if e.target_note_id == source
        }

    assert not set(listed) & on_core(qtbot, host, joined)
    assert rows.item(0).toolTip()  # the reasons
    first = listed[0]
    with qtbot.waitSignal(whole.related.shown, timeout=30000):
        whole.side.link_button.click()
    assert first in on_core(qtbot, host, joined)
    assert first not in [rows.item(i).data(Qt.ItemDataRole.UserRole) for i in range(rows.count())]
    path = on_core(qtbot, host, lambda mn: mn.vault / mn.records[source].note.path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert sum("[!edge] related_to:" in line for line in lines) == 1


def test_community_colours_arrive_after_a_reload_that_kept_the_scene(
    qtbot, whole, monkeypatch
) -> None:
    """The communities belong to the drawn slice: a reload that keeps it (a save) while they
    are computed must not drop them."""
    import threading

    from mindnet_desktop.ui.graph import ops

    legend, go = whole.side.legend, threading.Event()
    slow = ops.find_communities

    def held(*args, **kwargs):
        go.wait(30)
        return slow(*args, **kwargs)

    monkeypatch.setattr(ops, "find_communities", held)
    scene = whole.canvas.scene()
    colour = whole.controls.colour_box
    colour.setCurrentIndex(colour.findData("community"))
    redraw(qtbot, whole, whole.reload)
    assert whole.canvas.scene() is scene
    go.set()
    entries = lambda: [legend.item(i).text() for i in range(legend.count())]  # noqa: E731
    qtbot.waitUntil(lambda: "#1" in entries(), timeout=15000)
