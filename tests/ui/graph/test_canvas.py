"""The canvas at scale: a large graph hides its edges while zooming and shows them again;
the benchmark runs and reports its numbers."""

from __future__ import annotations

import json

import numpy as np
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QMouseEvent
from PySide6.QtWidgets import QApplication

from mindnet_desktop.core.graph.slice import GraphSlice, SliceEdge, SliceNode
from mindnet_desktop.ui.bench import graph as bench_graph
from mindnet_desktop.ui.bench.graph import synthetic_slice
from mindnet_desktop.ui.graph.canvas import HIDE_EDGES_WHILE_MOVING, GraphCanvas
from mindnet_desktop.ui.graph.labels import CELL_PX, CROWDED_NAMES, node_grid
from mindnet_desktop.ui.graph.layout import Positions, compute_layout
from mindnet_desktop.ui.graph.scene import parallel_bends


def layout(graph: GraphSlice) -> Positions:
    return compute_layout(list(graph.nodes), [(e.source, e.target) for e in graph.edges])


def test_large_graph_hides_edges_only_while_zooming(qtbot) -> None:
    graph = synthetic_slice(1200, 3.0)
    assert len(graph.edges) > HIDE_EDGES_WHILE_MOVING
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(800, 600)
    canvas.show()
    canvas.show_slice(
        graph, compute_layout(list(graph.nodes), [(e.source, e.target) for e in graph.edges])
    )
    assert (len(canvas.nodes), len(canvas.edges)) == (len(graph.nodes), len(graph.edges))
    before = canvas.transform().m11()
    canvas.zoom_by(1.25)
    assert canvas.transform().m11() > before
    assert not canvas.settled()
    qtbot.waitUntil(canvas.settled, timeout=5000)

    canvas.zoom_by(3.0)
    qtbot.waitUntil(canvas.settled, timeout=5000)
    bar = canvas.horizontalScrollBar()
    start = bar.value()
    middle = canvas.viewport().rect().center()
    qtbot.mousePress(canvas.viewport(), Qt.MouseButton.LeftButton, pos=middle)
    drag = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(middle.x() + 60, middle.y()),
        canvas.viewport().mapToGlobal(QPointF(middle.x() + 60, middle.y())),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(canvas.viewport(), drag)
    assert bar.value() != start  # dragging pans
    assert not canvas.settled()
    qtbot.mouseRelease(canvas.viewport(), Qt.MouseButton.LeftButton, pos=middle)
    qtbot.waitUntil(canvas.settled, timeout=5000)


def test_small_graph_keeps_its_edges_while_zooming(qtbot) -> None:
    graph = synthetic_slice(50, 2.0)
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.show_slice(
        graph, compute_layout(list(graph.nodes), [(e.source, e.target) for e in graph.edges])
    )
    canvas.zoom_by(1.25)
    assert canvas.settled()


def test_bench_reports_draw_and_frame_times(capsys) -> None:
    assert bench_graph.main(["--nodes", "300", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["nodes"] == 300 and report["edges"] > 0
    assert report["drawn_s"] > 0 and report["frame_ms"]["pan_median"] > 0


def test_keys_zoom_and_fit(qtbot) -> None:
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(600, 400)
    graph = synthetic_slice(200, 2.0)
    canvas.show_slice(graph, layout(graph))
    canvas.fit()
    fitted = canvas.transform().m11()
    qtbot.keyClick(canvas, Qt.Key.Key_Plus)
    assert canvas.transform().m11() > fitted
    qtbot.keyClick(canvas, Qt.Key.Key_0)
    assert canvas.transform().m11() == fitted
    qtbot.keyClick(canvas, Qt.Key.Key_Minus)
    assert canvas.transform().m11() < fitted


def test_a_graph_past_the_batch_size_paints_its_edges_as_one_item(qtbot, monkeypatch) -> None:
    """Guards the whole-vault view of a large vault: past `BATCH_EDGES_FROM` edges one item
    paints them all (lines where the edges run), while a hovered note's edges are still
    drawn on top as items and an edge still has a place (shown to fail by painting
    nothing, or by an `EdgeItems` that loses edges)."""
    from PySide6.QtGui import QColor, QImage, QPainter

    from mindnet_desktop.ui.graph import scene as scene_module
    from mindnet_desktop.ui.graph.scene import EdgeBatch

    graph = synthetic_slice(300, 3.0)
    positions = layout(graph)

    def painted(canvas: GraphCanvas) -> QImage:
        canvas.labels.layer.hide()
        for item in canvas.nodes.values():
            item.hide()  # the edges alone
        image = QImage(canvas.viewport().size(), QImage.Format.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        canvas.render(painter)
        painter.end()
        return image

    def ink(image: QImage) -> int:
        return sum(
            image.pixelColor(x, y) != QColor("white")
            for x in range(0, image.width(), 3)
            for y in range(0, image.height(), 3)
        )

    canvases = []
    for batch_from in (10**9, 100):
        monkeypatch.setattr(scene_module, "BATCH_EDGES_FROM", batch_from)
        canvas = GraphCanvas()
        qtbot.addWidget(canvas)
        canvas.resize(600, 400)
        canvas.show()
        canvas.show_slice(graph, positions)
        canvas.fit()
        canvas.settle_now()
        canvases.append(canvas)
    items, batched = canvases
    batches = [i for i in batched.scene().items() if isinstance(i, EdgeBatch)]
    assert len(batches) == 1 and isinstance(items.edges, dict)
    assert set(batched.edges) == set(items.edges) == {e.id for e in graph.edges}
    edge = graph.edges[0]
    assert batched.viewport_pos("edge", edge.id) == items.viewport_pos("edge", edge.id)
    assert batched.edges[edge.id].scene() is None  # made when asked, never in the scene
    lines, one = ink(painted(items)), ink(painted(batched))
    assert one > 0.5 * lines > 0  # the same lines, without arrow heads
    hub = max(graph.nodes, key=lambda n: len(batched._adjacent[n]))
    batched.highlight(hub)
    assert len(batched._focus.layer.childItems()) >= len(batched._adjacent[hub])


def test_a_hovered_hub_of_a_large_graph_is_painted_by_two_items_not_copied(
    qtbot, monkeypatch
) -> None:
    """Past `FOCUS_ITEMS_UP_TO` edges a hovered note's edges and neighbours are painted by one
    item each (a 50,000-note vault's busiest note: 23,900 edges, 0.9–1.3 s a hover as
    copies): the hub's lines and its neighbours' circles where the copies are, while a
    neighbour can still be pointed at, and the next hover of an ordinary note copies again
    (shown to fail by leaving out either item, by painting other rows' edges, or by giving
    the items a key that hides the nodes under them)."""
    from PySide6.QtCore import QLineF
    from PySide6.QtGui import QColor, QImage, QPainter

    from mindnet_desktop.ui.graph import canvas as canvas_module
    from mindnet_desktop.ui.graph import scene as scene_module
    from mindnet_desktop.ui.graph.focus import DiscBatch
    from mindnet_desktop.ui.graph.scene import EdgeBatch

    graph = synthetic_slice(300, 3.0)
    positions = layout(graph)
    monkeypatch.setattr(scene_module, "BATCH_EDGES_FROM", 100)

    def focus_ink(canvas: GraphCanvas) -> int:
        """Pixels the hover layer alone paints."""
        canvas.labels.layer.hide()
        canvas._veil.hide()
        canvas._edge_layer.hide()
        for item in canvas.nodes.values():
            item.hide()
        image = QImage(canvas.viewport().size(), QImage.Format.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        canvas.render(painter)
        painter.end()
        return sum(
            image.pixelColor(x, y) != QColor("white")
            for x in range(0, image.width(), 2)
            for y in range(0, image.height(), 2)
        )

    canvases = []
    for _ in range(2):
        canvas = GraphCanvas()
        qtbot.addWidget(canvas)
        canvas.resize(600, 400)
        canvas.show()
        canvas.show_slice(graph, positions)
        canvas.fit()
        canvas.settle_now()
        canvases.append(canvas)
    copied, painted = canvases
    hub = max(graph.nodes, key=lambda n: len(painted._adjacent[n]))
    degree = len(painted._adjacent[hub])
    assert degree > 5
    for canvas, up_to in zip(canvases, (10**9, 5)):
        monkeypatch.setattr(canvas_module, "FOCUS_ITEMS_UP_TO", up_to)
        canvas.highlight(hub)
    children = painted._focus.layer.childItems()
    assert sorted(type(item).__name__ for item in children) == ["DiscBatch", "EdgeBatch"]
    edges = next(item for item in children if isinstance(item, EdgeBatch))
    sizes = [len(lines) for _, lines, _, _ in edges._groups]
    assert sum(sizes) == degree
    assert sizes == sorted(sizes, reverse=True)  # the rarer kinds drawn over the common one
    assert len(copied._focus.layer.childItems()) == degree + len(copied.neighbourhood(hub))
    near = painted.neighbourhood(hub)
    assert painted._focus.nodes == copied._focus.nodes == near
    assert any(painted.node_opacity(n) < 1.0 for n in graph.nodes if n not in near)
    centre = painted.position(hub)
    radius = float(painted._radii[painted._index_of[hub]])
    for _, lines, _, _ in edges._groups:  # every line leaves the hub's rim
        for line in lines:
            gap = min(QLineF(line.p1(), centre).length(), QLineF(line.p2(), centre).length())
            assert gap <= radius + 0.5
    discs = next(item for item in children if isinstance(item, DiscBatch))
    drawn = {
        (round(r.center().x(), 3), round(r.center().y(), 3))
        for *_, rs, _ in discs._groups
        for r in rs
    }
    where = {(round(painted.position(n).x(), 3), round(painted.position(n).y(), 3)) for n in near}
    assert drawn == where
    neighbour = next(n for n in sorted(near) if n != hub)
    assert painted.hit(painted.viewport_pos("node", neighbour)) == ("node", neighbour)
    ours, theirs = focus_ink(painted), focus_ink(copied)
    assert ours > 0.7 * theirs > 0  # the same circles and lines, without arrow heads
    small = min(near - {hub}, key=lambda n: len(painted._adjacent[n]))
    painted.highlight(small)  # from the hub to an ordinary note: copies again, nothing left
    kids = painted._focus.layer.childItems()
    assert not any(isinstance(item, (EdgeBatch, DiscBatch)) for item in kids)
    assert len(kids) == len(painted._adjacent[small]) + len(painted.neighbourhood(small))
    painted.highlight("")
    assert painted._focus.layer.childItems() == [] and painted._focus.nodes == set()


def test_degrees_bends_and_adjacency_are_those_of_the_edge_by_edge_rule(qtbot) -> None:
    """The scene's numpy forms (degree by counting, bends of parallel edges, the lazy
    adjacency and edge index) give what the plain loop over the edges gives."""
    graph = synthetic_slice(300, 3.0)
    first, second = graph.edges[0], graph.edges[1]
    graph.edges += [  # parallel edges both ways, and a loop drawn twice
        first._replace(id="p1"),
        first._replace(id="p2"),
        first._replace(id="p3", source=first.target, target=first.source),
        second._replace(id="l1", target=second.source),
        second._replace(id="l2", target=second.source),
    ]
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.show_slice(graph, layout(graph))

    ids = list(graph.nodes)
    adjacent: dict[str, list[str]] = {node: [] for node in ids}
    seen: dict[tuple[str, str], int] = {}
    bends = []
    for edge in graph.edges:
        adjacent[edge.source].append(edge.id)
        if edge.target != edge.source:
            adjacent[edge.target].append(edge.id)
        nth = seen[edge.source, edge.target] = seen.get((edge.source, edge.target), -1) + 1
        bends.append(0.0 if nth == 0 else 14.0 * ((nth + 1) // 2) * (1 if nth % 2 else -1))
    graph_ends = {edge.id: (edge.source, edge.target) for edge in graph.edges}
    index = {node: i for i, node in enumerate(ids)}
    a = np.array([index[e.source] for e in graph.edges])
    b = np.array([index[e.target] for e in graph.edges])
    assert parallel_bends(a, b, len(ids)).tolist() == bends
    assert sorted(set(bends)) == [-14.0, 0.0, 14.0]
    assert {node: canvas._adjacent[node] for node in ids} == adjacent
    ends = {n: {n} | {x for e in adjacent[n] for x in graph_ends[e]} for n in ids}
    assert {node: set(canvas._adjacent.neighbours(node)) for node in ids} == ends
    assert all(canvas.neighbourhood(node) == ends[node] for node in ids)
    assert canvas.degree.tolist() == [len(adjacent[node]) for node in ids]
    assert all(canvas.edge_data[edge.id] == edge for edge in graph.edges)
    assert set(canvas.edge_data) == {edge.id for edge in graph.edges}


def test_title_widths_are_measured_when_first_candidates(qtbot) -> None:
    graph = synthetic_slice(400, 2.0)
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(800, 600)
    canvas.show()
    canvas.show_slice(graph, layout(graph))
    canvas.update_labels()
    labels = canvas.labels
    assert labels.shown  # some titles fit
    metrics = QFontMetricsF(labels.font)
    for i in labels.shown:
        assert labels.sizes[i, 0] == metrics.horizontalAdvance(labels.titles[i]) + 1


def test_the_nodes_grid_holds_each_node_in_every_cell_its_circle_meets() -> None:
    rng = np.random.default_rng(3)
    points = np.column_stack(
        [rng.uniform(-50, 850, 3000), rng.uniform(-50, 650, 3000), rng.uniform(0.1, 90, 3000)]
    )
    grid = node_grid(points, 800, 600)
    expected: dict[tuple[int, int], set[tuple[float, ...]]] = {}
    for i, (x, y, r) in enumerate(points.tolist()):
        if x + r > 0 and x - r < 800 and y + r > 0 and y - r < 600:
            for cx in range(int((x - r) // CELL_PX), int((x + r) // CELL_PX) + 1):
                for cy in range(int((y - r) // CELL_PX), int((y + r) // CELL_PX) + 1):
                    expected.setdefault((cx, cy), set()).add((x - r, y - r, x + r, y + r, i))
    assert {cell: set(rows) for cell, rows in grid.items()} == expected
    assert sum(len(rows) for rows in grid.values()) == sum(len(v) for v in expected.values())


def test_a_hovered_notes_neighbours_get_titles_over_the_veiled_notes_only(qtbot) -> None:
    """Each neighbour of the hub is boxed in by unlinked notes on all four sides, so no title
    fits by the rule of the full view; hovering the hub, the neighbours' titles may cover
    those veiled notes, never a note of the neighbourhood nor another title."""
    nodes = {"hub": SliceNode("hub", "note", "Hub", "concept", "hub.md")}
    edges, positions = [], {"hub": (0.0, 0.0)}
    for k in range(8):
        angle = 2 * np.pi * k / 8
        cx, cy = 260 * np.cos(angle), 260 * np.sin(angle)
        name = f"n{k}"
        nodes[name] = SliceNode(name, "note", f"Neighbour {k}", "concept", f"{name}.md")
        edges.append(SliceEdge(f"e{k}", "related_to", "hub", name, "explicit", "", 1.0))
        positions[name] = (cx, cy)
        for j, (dx, dy) in enumerate(((34, 0), (-34, 0), (0, 22), (0, -22))):
            far = f"f{k}-{j}"
            nodes[far] = SliceNode(far, "note", f"Far {k}-{j}", "concept", f"{far}.md")
            positions[far] = (cx + dx, cy + dy)
    graph = GraphSlice(nodes, edges)
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(900, 700)
    canvas.show()
    qtbot.waitExposed(canvas)
    canvas.show_slice(graph, positions)
    canvas.fit()
    canvas.update_labels()
    neighbours = {f"Neighbour {k}" for k in range(8)}
    assert not {i.text() for i in canvas.labels.visible()} & neighbours  # boxed in
    canvas.highlight("hub")
    shown = canvas.labels.visible()
    assert {i.text() for i in shown} & neighbours

    def box(item) -> QRectF:
        return item.deviceTransform(canvas.viewportTransform()).mapRect(item.boundingRect())

    near = canvas.neighbourhood("hub")
    circles = {
        n: QRectF(canvas.mapFromScene(canvas.nodes[n].sceneBoundingRect()).boundingRect())
        for n in near
    }
    for item in shown:
        own = next((n for n in near if graph.nodes[n].title == item.text()), None)
        assert not any(
            box(item).intersects(c.adjusted(1, 1, -1, -1)) for n, c in circles.items() if n != own
        )
    boxes = [box(i) for i in shown]
    assert not any(a.intersects(b) for k, a in enumerate(boxes) for b in boxes[k + 1 :])
    canvas.highlight("")
    assert not {i.text() for i in canvas.labels.visible()} & neighbours


def test_a_hovered_hub_names_its_most_linked_neighbours_over_the_others(qtbot) -> None:
    """A hub's neighbours cover the view above y = 580 in a grid 15 px apart, so by the
    neighbourhood's rule (no title over a note of it) none of them gets a title; one more
    neighbour and three unlinked notes lie in the free band below. Hovered, the hub names
    12 neighbours, the most linked first: the one in the band (named by the rule too, once)
    and 11 in the grid, one of them beside the hub, whose title goes where it covers no hub.
    No title covers another, and the unlinked notes keep theirs (shown to fail without the
    hub pass, with titles allowed over the hub, with the rule's titles kept twice, and
    without placing the unlinked notes' titles again). Title sizes are fixed: no font."""
    from PySide6.QtGui import QBrush, QColor, QTransform
    from PySide6.QtWidgets import QGraphicsRectItem

    from mindnet_desktop.ui.graph.labels import LabelLayer

    width, height = 900, 700
    grid = [(x, y) for x in range(7, width, 15) for y in range(7, 580, 15)]
    band, veiled = (250.0, 640.0), [(100.0, 640.0), (450.0, 640.0), (700.0, 640.0)]
    points = np.array([(450.0, 345.0), *grid, band, *veiled])  # the hub first
    first_veiled = len(points) - 3
    radii = np.full(len(points), 6.0)
    radii[0] = 8.0
    spread = [(x, y) for x in (97, 307, 502, 697) for y in (97, 307, 502)][:10]
    linked = [1 + grid.index(p) for p in [*spread, (427, 337)]]  # the last left of the hub
    degree = np.ones(len(points))
    degree[0], degree[linked], degree[first_veiled - 1] = len(grid), 5.0, 6.0
    titles = ["Hub", *(f"Neighbour {k}" for k in range(len(grid) + 1)), "A", "B", "C"]
    labels = LabelLayer(QGraphicsRectItem(), titles, QBrush(QColor("black")))
    labels.sizes[:] = (80.0, 14.0)
    labels.sizes[0] = (460.0, 14.0)  # the hub's title fits only below it: its right is free
    shown: list[list[tuple[int, float, float]]] = []
    real_show = labels.show
    labels.show = lambda kept, *a: shown.append(kept) or real_show(kept, *a)  # type: ignore[method-assign]
    rank = {0: 1} | dict.fromkeys(range(1, first_veiled), 2)
    near = set(range(first_veiled))
    labels.update(QTransform(), points, radii, degree, rank, set(), (width, height), None, near)
    kept = shown[-1]
    assert len(kept) == len({i for i, _, _ in kept})  # no title twice
    named = {titles[i] for i in labels.shown if i in near} - {"Hub"}
    assert named == {titles[i] for i in [*linked, first_veiled - 1]}, named
    assert len(named) == CROWDED_NAMES
    assert {"A", "B", "C"} <= {titles[i] for i in labels.shown}

    boxes = {
        i: QRectF(points[i][0] + dx, points[i][1] + dy, *labels.sizes[i]) for i, dx, dy in kept
    }
    hub = QRectF(450 - 8, 345 - 8, 16, 16)
    assert not any(box.intersects(hub) for i, box in boxes.items() if i != 0)
    every = list(boxes.values())
    assert not any(a.intersects(b) for k, a in enumerate(every) for b in every[k + 1 :])


def test_a_hub_zoomed_in_on_a_few_neighbours_keeps_the_neighbourhoods_rule(qtbot) -> None:
    """Only the neighbours in view count: a hub of 40 neighbours, 5 of them in view, one
    boxed in by the other 4, keeps the rule: the boxed-in one gets no title over the others
    (shown to fail by counting every neighbour, in view or not)."""
    from PySide6.QtGui import QBrush, QColor, QTransform
    from PySide6.QtWidgets import QGraphicsRectItem

    from mindnet_desktop.ui.graph.labels import LabelLayer

    boxed = (450.0, 500.0)  # short titles ("N0"): a neighbour 26 px away blocks each place
    around = [(boxed[0] + dx, boxed[1] + dy) for dx, dy in ((26, 0), (-26, 0), (0, 26), (0, -26))]
    outside = [(-500.0 - 30 * k, 100.0) for k in range(35)]
    points = np.array([(400.0, 200.0), boxed, *around, *outside])  # the hub first
    radii = np.full(len(points), 5.0)
    degree = np.ones(len(points))
    degree[1] = 3.0  # the boxed-in neighbour comes first
    titles = ["Hub", *(f"N{k}" for k in range(len(points) - 1))]
    labels = LabelLayer(QGraphicsRectItem(), titles, QBrush(QColor("black")))
    labels.sizes[:] = (17.0, 14.0)  # fixed: no font
    shown: list[list[tuple[int, float, float]]] = []
    real_show = labels.show
    labels.show = lambda kept, *a: shown.append(kept) or real_show(kept, *a)  # type: ignore[method-assign]
    rank = {0: 1} | dict.fromkeys(range(1, len(points)), 2)
    everyone = set(range(len(points)))
    labels.update(QTransform(), points, radii, degree, rank, set(), (900, 700), None, everyone)
    assert 1 not in labels.shown and labels.shown & {2, 3, 4, 5}  # the others are named
    for i, dx, dy in shown[-1]:
        title = QRectF(points[i][0] + dx, points[i][1] + dy, 17, 14)
        for j, (x, y) in enumerate(points[:6].tolist()):
            if j != i:
                assert not title.intersects(QRectF(x - 5, y - 5, 10, 10)), (titles[i], j)


def test_a_title_is_drawn_on_the_views_background_over_the_edges_beneath(qtbot) -> None:
    """A title lies on a patch of the background colour (mostly opaque), so it reads over a
    hub's edges (shown to fail by painting no patch: the corner stays black)."""
    from PySide6.QtGui import QBrush, QColor, QImage, QPainter
    from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsScene

    from mindnet_desktop.ui.graph.labels import LabelLayer

    scene = QGraphicsScene()
    scene.addRect(0, 0, 200, 60, brush=QBrush(QColor("black")))  # where edges run dark
    layer = QGraphicsRectItem()
    scene.addItem(layer)
    labels = LabelLayer(layer, ["Wwwwww"], QBrush(QColor("black")), QColor(255, 255, 255, 200))
    labels.show([(0, 10.0, 10.0)], np.array([[0.0, 0.0]]), set())
    image = QImage(200, 60, QImage.Format.Format_RGB32)
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, 200, 60), QRectF(0, 0, 200, 60))
    painter.end()
    corner = image.pixelColor(11, 11)  # the title's top left: above its letters
    assert corner.lightness() > 180, corner.name()  # 200/255 white over black
    assert image.pixelColor(150, 50).lightness() < 20  # beside the title: the dark stays
