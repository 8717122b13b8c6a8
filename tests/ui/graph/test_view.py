"""The graph view on the imported example vault: what it draws matches the store; filters,
delete / restore from the context menu, creating an edge, tooltips, selection."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QHelpEvent, QPen
from PySide6.QtWidgets import QApplication, QToolTip

from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.ui.graph.view import GraphView
from mindnet_desktop.ui.support.workers import ServiceHost
from tests.conftest import run_import

ROOT = "Projekte/KI-Projekt Alpha"


@pytest.fixture
def view(qtbot, host: ServiceHost) -> Iterator[GraphView]:
    widget = GraphView(host)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    with qtbot.waitSignal(widget.drawn, timeout=30000):
        widget.focus_note(ROOT)
    yield widget
    widget.shutdown()


def on_core(qtbot, host: ServiceHost, fn: Callable[[Mindnet], Any]) -> Any:
    """Run `fn(mindnet)` on the core thread (as the view does) and return its result."""
    job = host.submit(lambda mn, job: fn(mn))
    qtbot.waitUntil(job.is_finished, timeout=30000)
    assert job.error is None, job.error
    return job.result


def redraw(qtbot, view: GraphView, change: Callable[[], Any]) -> None:
    with qtbot.waitSignal(view.drawn, timeout=30000):
        change()


def expected(
    qtbot, host: ServiceHost, kinds: set[str] | None = None, direction: str = "both"
) -> tuple[int, set[str]]:
    """Nodes and edge ids of the root's neighbourhood, straight from the service."""

    def ask(mn: Mindnet) -> tuple[int, set[str]]:
        page = mn.queries.neighbors(ROOT, direction, kinds, page_size=10_000)  # type: ignore[arg-type]
        return page.total + 1, {e["id"] for item in page.items for e in item.edges}

    return on_core(qtbot, host, ask)


def test_draws_as_many_nodes_and_edges_as_the_store_holds(qtbot, view, host) -> None:
    nodes, edges = expected(qtbot, host)
    assert nodes > 5 and len(edges) > 10  # the example vault's hub
    assert view.node_count() == nodes
    assert view.edge_count() == len(edges)
    assert set(view.canvas.edges) == edges
    assert view.root == ROOT


def test_whole_vault_shows_every_note_and_every_edge_between_notes(qtbot, view, host) -> None:
    def ask(mn: Mindnet) -> tuple[set[str], int]:
        between = [
            e for e in mn.edges() if e.target_note_id != e.note_id and e.provenance != "structure"
        ]
        return set(mn.records), len(between)

    notes, edges = on_core(qtbot, host, ask)
    redraw(qtbot, view, lambda: view.controls.focus_box.setCurrentIndex(1))
    drawn_notes = {n for n, node in view.canvas.slice.nodes.items() if node.kind == "note"}
    assert drawn_notes == notes
    assert view.edge_count() == edges


def test_kind_and_direction_filters_change_what_is_drawn(qtbot, view, host) -> None:
    box = view.controls.kind_box
    redraw(qtbot, view, lambda: box.setCurrentIndex(box.findData("references")))
    nodes, edges = expected(qtbot, host, {"references"})
    assert set(view.canvas.edges) == edges
    assert view.node_count() == nodes
    assert {e.kind for e in view.canvas.edge_data.values()} == {"references"}

    direction = view.controls.direction_box
    redraw(qtbot, view, lambda: direction.setCurrentIndex(direction.findData("in")))
    nodes_in, edges_in = expected(qtbot, host, {"references"}, "in")
    assert set(view.canvas.edges) == edges_in
    assert view.node_count() == nodes_in
    assert edges_in != edges
    assert all(e.target == ROOT for e in view.canvas.edge_data.values())


def test_delete_from_the_context_menu_hides_the_edge_and_restore_brings_it_back(
    qtbot, view, host
) -> None:
    edge_id = sorted(view.canvas.edges)[0]
    before = view.edge_count()
    menu = view.menu_for("edge", edge_id)
    redraw(qtbot, view, view.action(menu, "Delete edge").trigger)
    assert edge_id not in view.canvas.edges
    assert view.edge_count() == before - 1
    assert on_core(qtbot, host, lambda mn: edge_id not in {e.id for e in mn.edges()})

    redraw(qtbot, view, lambda: view.controls.deleted_check.setChecked(True))
    assert view.canvas.edge_data[edge_id].deleted
    assert view.canvas.edges[edge_id].pen().color().alpha() < 255  # drawn faded
    menu = view.menu_for("edge", edge_id)
    assert [a.text() for a in menu.actions()] == ["Restore edge"]
    redraw(qtbot, view, view.action(menu, "Restore edge").trigger)
    redraw(qtbot, view, lambda: view.controls.deleted_check.setChecked(False))
    assert edge_id in view.canvas.edges
    assert not view.canvas.edge_data[edge_id].deleted
    assert view.edge_count() == before


def test_creating_an_edge_through_the_ui_adds_it(qtbot, view, host) -> None:
    target = sorted(n for n in view.canvas.slice.nodes if n != ROOT)[0]
    assert not any(
        e.source == ROOT and e.target == target and e.kind == "causes"
        for e in view.canvas.edge_data.values()
    )
    view.action(view.menu_for("node", ROOT), "Start edge from here").trigger()
    connect = view.action(view.menu_for("node", target), "Connect to here")
    assert connect.isEnabled()
    connect.trigger()
    side = view.side
    side.kind_box.setCurrentText("causes")
    assert side.create_button.isEnabled()
    redraw(qtbot, view, lambda: qtbot.mouseClick(side.create_button, Qt.MouseButton.LeftButton))
    made = [
        e
        for e in view.canvas.edge_data.values()
        if e.source == ROOT and e.target == target and e.kind == "causes"
    ]
    assert len(made) == 1
    stored = on_core(qtbot, host, lambda mn: {e.id: e for e in mn.edges()}.get(made[0].id))
    assert stored is not None and stored.kind == "causes"
    nodes, edges = expected(qtbot, host)
    assert set(view.canvas.edges) == edges


def shown_tooltip(qtbot, view: GraphView, role: str, item_id: str) -> str:
    """Ask the canvas for the tooltip at the item, as Qt does when the mouse rests there."""
    viewport = view.canvas.viewport()
    pos = view.canvas.viewport_pos(role, item_id)
    assert view.canvas.hit(pos) == (role, item_id)
    QApplication.sendEvent(
        viewport, QHelpEvent(QEvent.Type.ToolTip, pos, viewport.mapToGlobal(pos))
    )
    qtbot.waitUntil(QToolTip.isVisible, timeout=5000)
    return QToolTip.text()


def test_tooltips_name_type_provenance_and_rule(qtbot, view, host) -> None:
    node = view.canvas.slice.nodes[ROOT]
    tip = shown_tooltip(qtbot, view, "node", ROOT)
    assert node.type == "project" and "project" in tip and node.path in tip
    rule = next(e for e in view.canvas.edge_data.values() if e.provenance == "rule")
    item = view.canvas.edges[rule.id]
    tip = view.canvas.tooltip("edge", rule.id)
    assert rule.rule_id.startswith("edge_defaults:")
    assert "Provenance: rule" in tip and rule.rule_id in tip
    assert f"{rule.confidence:.2f}" in tip
    assert item.pen().style() == Qt.PenStyle.DashLine
    explicit = next(e for e in view.canvas.edge_data.values() if e.provenance == "explicit")
    assert view.canvas.edges[explicit.id].pen().style() == Qt.PenStyle.SolidLine
    assert isinstance(item.pen(), QPen)


def test_clicking_a_node_selects_it_and_lists_its_neighbours(qtbot, view, host) -> None:
    other = sorted(
        n for n, node in view.canvas.slice.nodes.items() if n != ROOT and node.kind == "note"
    )[0]
    pos = view.canvas.viewport_pos("node", other)
    with qtbot.waitSignal(view.note_selected, timeout=5000) as blocker:
        qtbot.mouseClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert blocker.args == [other]
    total = on_core(qtbot, host, lambda mn: mn.queries.neighbors(other, "both").total)
    qtbot.waitUntil(lambda: view.side.neighbours.count() == total, timeout=10000)
    title = view.canvas.slice.nodes[other].title
    qtbot.waitUntil(lambda: view.side.title.text().startswith(title), timeout=10000)


def test_hovering_an_edge_shows_its_kind(qtbot, view) -> None:
    canvas = view.canvas
    for edge_id, edge in canvas.edge_data.items():
        pos = canvas.viewport_pos("edge", edge_id)
        if canvas.hit(pos) == ("edge", edge_id):
            qtbot.mouseMove(canvas.viewport(), pos)
            qtbot.waitUntil(lambda: canvas.hover_text() != "", timeout=5000)
            assert canvas.hover_text() == canvas.edge_data[canvas.hit(pos)[1]].kind
            assert edge.kind
            return
    pytest.fail("no edge could be hovered")


def test_a_failed_action_reaches_the_user(qtbot, view) -> None:
    with qtbot.waitSignal(view.error, timeout=10000) as blocker:
        view.delete_edge("e_0000000000000000")
    assert "unknown edge id" in blocker.args[0]
    assert "unknown edge id" in view.controls.status.text()
    assert "c62828" in view.controls.status.styleSheet()


def test_shutdown_drops_late_results(qtbot, view, host) -> None:
    before = view.edge_count()
    box = view.controls.kind_box
    box.blockSignals(True)
    box.setCurrentIndex(box.findData("references"))  # would draw fewer edges
    box.blockSignals(False)
    view.reload()
    view.shutdown()
    ready = threading.Event()
    job = host.submit(lambda mn, job: ready.wait(10))  # runs after the view's jobs
    with qtbot.waitSignal(job.finished, timeout=30000):  # queued after their results
        ready.set()
    assert view.edge_count() == before


def test_a_filter_change_keeps_the_notes_where_they_were(qtbot, view) -> None:
    before = {n: view.canvas.position(n) for n in view.canvas.nodes}
    rare = Counter(e.kind for e in view.canvas.edge_data.values()).most_common()[-1][0]
    box = view.controls.kind_box
    redraw(qtbot, view, lambda: box.setCurrentIndex(box.findData(rare)))
    assert view.node_count() < len(before)
    assert all(view.canvas.position(n) == before[n] for n in view.canvas.nodes)


def test_in_read_only_vault_mode_a_new_edge_goes_to_the_overlay(
    qtbot, vault: Path, tmp_path: Path
) -> None:
    def opener() -> Mindnet:
        mn = Mindnet(
            vault, tmp_path / "ro", embedder=HashEmbedder(), write=True, read_only_vault=True
        )
        run_import(mn)
        return mn

    service = ServiceHost(opener)
    with qtbot.waitSignal(service.opened, timeout=60000):
        service.open()
    widget = GraphView(service)
    qtbot.addWidget(widget)
    try:
        with qtbot.waitSignal(widget.drawn, timeout=30000):
            widget.focus_note(ROOT)
        note = vault / widget.canvas.slice.nodes[ROOT].path
        text = note.read_bytes()
        target = sorted(n for n in widget.canvas.slice.nodes if n != ROOT)[-1]
        widget.set_edge_source(ROOT)
        widget.set_edge_target(target)
        widget.side.kind_box.setCurrentText("similar_to")
        redraw(qtbot, widget, widget.side.create_button.click)
        made = widget.canvas.edge_data[widget.last_created or ""]
        assert (made.source, made.target, made.kind) == (ROOT, target, "similar_to")
        assert made.provenance == "user"
        assert "user" in widget.canvas.tooltip("edge", made.id)
        assert note.read_bytes() == text  # the note was not written
    finally:
        widget.shutdown()
        service.close()


def test_depth_two_draws_what_a_traversal_reaches(qtbot, view, host) -> None:
    direction = view.controls.direction_box
    redraw(qtbot, view, lambda: direction.setCurrentIndex(direction.findData("out")))
    one = view.node_count()
    redraw(qtbot, view, lambda: view.controls.depth_spin.setValue(2))
    reached = on_core(qtbot, host, lambda mn: {n for n, _, _ in mn.queries.traverse(ROOT, 2)})
    assert set(view.canvas.nodes) == reached
    assert len(reached) > one


def test_an_edit_that_leaves_the_graph_as_it_was_keeps_the_scene(
    qtbot, view, host, vault: Path
) -> None:
    """After a save the view reads the graph again; a text edit keeps the scene (and the
    window is not held to rebuild it), a new link redraws it."""
    scene, counts = view.canvas.scene(), (view.node_count(), view.edge_count())
    note = vault / f"{ROOT}.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nEin Satz mehr.\n", encoding="utf-8")
    assert on_core(qtbot, host, lambda mn: run_import(mn).summary.changed) == 1
    redraw(qtbot, view, view.reload)
    assert view.canvas.scene() is scene
    assert (view.node_count(), view.edge_count()) == counts
    assert view.controls.status.text() == f"{counts[0]} notes, {counts[1]} edges"

    notes = on_core(qtbot, host, lambda mn: sorted(mn.records))
    other = next(n for n in notes if n not in view.canvas.nodes)
    note.write_text(note.read_text(encoding="utf-8") + f"\n[[{other}]]\n", encoding="utf-8")
    assert on_core(qtbot, host, lambda mn: run_import(mn).summary.changed) == 1
    redraw(qtbot, view, view.reload)
    assert view.canvas.scene() is not scene
    assert other in view.canvas.nodes
    assert view.node_count() == counts[0] + 1


def test_same_picture_ignores_the_order_and_sees_any_change() -> None:
    from mindnet_desktop.core.graph.slice import GraphSlice, SliceEdge, SliceNode
    from mindnet_desktop.ui.graph.ops import same_picture

    def picture(edges: list[SliceEdge], title: str = "B") -> GraphSlice:
        nodes = {"a": SliceNode("a", "note", "A"), "b": SliceNode("b", "note", title)}
        return GraphSlice(nodes, edges, "a")

    one = SliceEdge("e1", "references", "a", "b", "explicit", "explicit:wikilink", 1.0)
    two = SliceEdge("e2", "related_to", "b", "a", "rule", "edge_defaults:x", 0.7)
    assert same_picture(picture([one, two]), picture([two, one]))
    assert not same_picture(picture([one, two]), picture([one, two], title="B2"))
    assert not same_picture(picture([one, two]), picture([one, two._replace(confidence=0.5)]))
    assert not same_picture(picture([one, two]), picture([one]))
    assert not same_picture(picture([one, one]), picture([one, two]))
    moved = picture([one, two])
    moved.root = "b"
    assert not same_picture(picture([one, two]), moved)


def test_the_reload_bench_keeps_the_scene_only_where_it_says(
    qtbot, vault: Path, open_mindnet, tmp_path: Path
) -> None:
    from mindnet_desktop.ui.bench.reload import run

    mn = open_mindnet(vault)
    run_import(mn)
    mn.close()
    report = run(str(vault), str(tmp_path / "data"), "hash", times=2)
    assert report["nodes"] > 10 and report["edges"] > 10
    assert report["kept"]["scene_kept"] == [True, True]
    assert report["rebuilt"]["scene_kept"] == [False, False]
    assert all(s > 0 for s in report["kept"]["seconds"] + report["rebuilt"]["seconds"])


def test_the_selected_notes_text_follows_a_save(qtbot, view, host, vault: Path) -> None:
    """A note selected in the view (not its root) shows its new text after a save."""
    other = sorted(n for n, node in view.canvas.slice.nodes.items() if n != ROOT and node.path)[0]
    title = view.canvas.slice.nodes[other].title
    view.select_node(other)
    qtbot.waitUntil(lambda: view.side.title.text().startswith(title + "\n"), timeout=30000)
    assert "Zebrastreifen" not in view.side.preview.toPlainText()
    note = vault / view.canvas.slice.nodes[other].path
    note.write_text(note.read_text(encoding="utf-8") + "\nZebrastreifen am Abend.\n", "utf-8")
    assert on_core(qtbot, host, lambda mn: run_import(mn).summary.changed) == 1
    redraw(qtbot, view, view.reload)
    qtbot.waitUntil(lambda: "Zebrastreifen" in view.side.preview.toPlainText(), timeout=30000)
    assert view.selected == other
