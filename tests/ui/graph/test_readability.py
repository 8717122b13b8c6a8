"""Whole-vault views stay readable: at "fit" zoom no two drawn titles overlap, every node is in
view, the main component fills at least half of it, zooming in shows more titles, and hovering
a node dims what is not its neighbour."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest
from PySide6.QtCore import QPoint, QRectF

from mindnet_desktop.bench.vault_gen import generate_vault
from mindnet_desktop.core.graph.slice import GraphSlice, SliceEdge, SliceNode
from mindnet_desktop.core.ingest.links import extract_links
from mindnet_desktop.ui.graph.canvas import GraphCanvas
from mindnet_desktop.ui.graph.layout import compute_layout
from mindnet_desktop.ui.graph.style import short_title
from mindnet_desktop.ui.graph.view import GraphView


def generated_slice(root: Path) -> GraphSlice:
    """The whole-vault slice of a generated vault, its links resolved by file name (as the
    importer does for these unique names), without the cost of an import."""
    graph = GraphSlice()
    by_name: dict[str, str] = {}
    texts: dict[str, str] = {}
    for path in sorted(root.rglob("*.md")):
        note_id = path.relative_to(root).with_suffix("").as_posix()
        graph.nodes[note_id] = SliceNode(note_id, "note", path.stem, "concept", f"{note_id}.md")
        by_name[path.stem] = note_id
        texts[note_id] = path.read_text(encoding="utf-8")
    for note_id, text in texts.items():
        for n, link in enumerate(extract_links(text)):
            target = by_name.get(link.target)
            if target and target != note_id:
                graph.edges.append(
                    SliceEdge(f"{note_id}:{n}", link.kind, note_id, target, "explicit", "", 1.0)
                )
    return graph


def check_readable(canvas: GraphCanvas) -> None:
    view = QRectF(canvas.viewport().rect())
    labels = [
        item.deviceTransform(canvas.viewportTransform()).mapRect(item.boundingRect())
        for item in canvas.labels.visible()
    ]
    assert len(labels) >= 5, "some titles are drawn at fit zoom"
    for i, a in enumerate(labels):
        assert view.contains(a)
        for b in labels[i + 1 :]:
            assert not a.intersects(b), (a, b)
    boxes = {
        node: canvas.mapFromScene(item.sceneBoundingRect()).boundingRect()
        for node, item in canvas.nodes.items()
    }
    assert all(view.contains(QRectF(box)) for box in boxes.values())
    for label in labels:  # a title covers no node (its own sits just left of it)
        assert not any(
            label.intersects(QRectF(box).adjusted(1, 1, -1, -1)) for box in boxes.values()
        )
    links = nx.Graph((e.source, e.target) for e in canvas.slice.edges)
    main = max(nx.connected_components(links), key=len)
    left = min(boxes[n].left() for n in main)
    right = max(boxes[n].right() for n in main)
    top = min(boxes[n].top() for n in main)
    bottom = max(boxes[n].bottom() for n in main)
    share = max((right - left) / view.width(), (bottom - top) / view.height())
    assert share >= 0.5, share
    before = labelled_share(canvas)
    canvas.zoom_by(2.5)
    canvas.update_labels()
    after = labelled_share(canvas)
    assert after > before or after == 1.0, "zooming in shows more titles"


def labelled_share(canvas: GraphCanvas) -> float:
    """Titles drawn per node in view."""
    view = QRectF(canvas.viewport().rect())
    inside = [
        n for n, item in canvas.nodes.items()
        if view.contains(QRectF(canvas.mapFromScene(item.sceneBoundingRect()).boundingRect()))
    ]  # fmt: skip
    return len(canvas.labels.visible()) / max(1, len(inside))


@pytest.fixture
def canvas(qtbot) -> Iterator[GraphCanvas]:
    widget = GraphCanvas()
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget


def test_a_generated_1000_note_vault_is_readable_at_fit_zoom(qtbot, canvas, tmp_path) -> None:
    graph = generated_slice(generate_vault(tmp_path / "vault", 1000))
    # obsidian-hub's ~2 links a note, a quarter of them to a few hubs
    assert len(graph.nodes) == 1000 and len(graph.edges) > 1800
    graph.nodes["loose"] = SliceNode("loose", "note", "A loose note", "concept", "loose.md")
    positions = compute_layout(list(graph.nodes), [(e.source, e.target) for e in graph.edges])
    canvas.show_slice(graph, positions)
    canvas.fit()
    check_readable(canvas)


def hover(qtbot, canvas: GraphCanvas, node: str) -> None:
    pos = canvas.viewport_pos("node", node)
    qtbot.mouseMove(canvas.viewport(), pos)
    qtbot.waitUntil(lambda: canvas.hover_node == node, timeout=5000)


def test_the_example_vault_is_readable_and_hover_dims_the_rest(qtbot, host) -> None:
    view = GraphView(host)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    qtbot.waitExposed(view)
    with qtbot.waitSignal(view.drawn, timeout=30000):
        view.controls.focus_box.setCurrentIndex(1)  # whole vault
    canvas = view.canvas
    view.canvas.fit()
    check_readable(canvas)
    canvas.fit()
    hub = max(canvas.nodes, key=lambda n: len(canvas.neighbourhood(n)))
    near = canvas.neighbourhood(hub)
    far = [n for n in canvas.nodes if n not in near]
    assert len(near) > 2 and far
    hover(qtbot, canvas, hub)
    assert all(canvas.node_opacity(n) == 1.0 for n in near)
    assert all(canvas.node_opacity(n) < 0.5 for n in far)
    near_titles = {short_title(canvas.slice.nodes[n].title) for n in near}
    shown = canvas.labels.visible()
    assert any(i.text() in near_titles for i in shown)
    assert all((i.opacity() == 1.0) == (i.text() in near_titles) for i in shown)
    qtbot.mouseMove(canvas.viewport(), canvas.viewport().rect().bottomRight() - QPoint(2, 2))
    qtbot.waitUntil(lambda: canvas.hover_node == "", timeout=5000)
    assert all(canvas.node_opacity(n) == 1.0 for n in far)
    view.shutdown()
