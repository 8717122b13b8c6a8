"""Node titles that never pile up.

Titles: after each zoom or pan the canvas asks `choose_labels` which
titles fit, in priority order (selected, hovered and its neighbours, then by degree), and a
`LabelLayer` shows those and hides the rest. Labels keep their size on screen, so zooming in
makes room and more of them appear.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

KEY = 0  # QGraphicsItem.data key of ("node" | "edge", id), as in graph_canvas

GAP_PX = 3.0  # between a node's rim and its title, and around each title
CELL_PX = 64  # the grid that makes the overlap test local
Grid = dict[tuple[int, int], list[tuple[float, float, float, float, int]]]
MAX_CANDIDATES = 2500  # beyond, a full view has no room anyway: try the most important ones
# A hovered note with more neighbours in view than this, of whom fewer get a title by the rule
# of the neighbourhood below (a hub: they crowd the view), names up to this many of them
# instead, the most linked that fit first, a title over other neighbours if need be.
CROWDED_NAMES = 12


def choose_labels(
    points: np.ndarray,
    sizes: np.ndarray,
    order: np.ndarray,
    width: float,
    height: float,
    always: frozenset[int] = frozenset(),
    obstacles: Grid | None = None,
    loose: frozenset[int] = frozenset(),
    loose_obstacles: Grid | None = None,
    taken: Sequence[tuple[int, float, float]] = (),
    limit: int = MAX_CANDIDATES,
) -> list[tuple[int, float, float]]:
    """Greedy placement: each label in `order` is kept when its rectangle (right of its
    node, else left, below or above it) lies in the viewport and overlaps neither a label
    kept before nor another node's circle.

    Args:
        points: k x 3 viewport x, y of each node's centre and its radius in pixels.
        sizes: k x 2 width, height of each label in pixels.
        order: Indices into `points`, most important first.
        width: Viewport width in pixels.
        height: Viewport height in pixels.
        always: Nodes whose titles may cover other nodes (the selected and the hovered
            one: the user is looking at them); they still never cover another title.
        obstacles: The nodes' grid from `node_grid` for this view (made when None).
        loose: Nodes whose titles `loose_obstacles` keeps off instead of `obstacles` (a
            hovered note's neighbours: only the neighbourhood, the rest is veiled).
        loose_obstacles: The grid of the nodes that block the `loose` titles.
        taken: Titles kept before, as this returns them: the new ones keep off them.
        limit: Stop once this many titles are kept.

    Returns:
        (index, left, top) of each kept label, in pixels.
    """
    x, y, r = points[:, 0], points[:, 1], points[:, 2]
    nodes = node_grid(points, width, height) if obstacles is None else obstacles
    near = nodes if loose_obstacles is None else loose_obstacles
    grid: Grid = {}  # the titles kept
    for i, dx, dy in taken:
        left, top = x[i] + dx, y[i] + dy
        _add(grid, (left, top, left + sizes[i, 0], top + sizes[i, 1]), -1)
    kept: list[tuple[int, float, float]] = []
    for i in order[:MAX_CANDIDATES].tolist():
        if len(kept) >= limit:
            break
        w, h = sizes[i]
        reach = r[i] + GAP_PX
        # Right of the node, else left of it, below it, above it: the first place free.
        for left, top in (
            (x[i] + reach, y[i] - h / 2),
            (x[i] - reach - w, y[i] - h / 2),
            (x[i] - w / 2, y[i] + reach),
            (x[i] - w / 2, y[i] - reach - h),
        ):
            blocking = near if i in loose else nodes
            box = (left, top, left + w, top + h)
            if _free(grid, blocking, i, box, (width, height), i in always):
                _add(grid, (left, top, left + w, top + h), -1)
                kept.append((i, left - x[i], top - y[i]))
                break
    return kept


def in_view(points: np.ndarray, width: float, height: float) -> np.ndarray:
    """Whether each node's circle (`points`: x, y, radius in pixels) meets the viewport."""
    x, y, r = points[:, 0], points[:, 1], points[:, 2]
    return np.asarray((x + r > 0) & (x - r < width) & (y + r > 0) & (y - r < height))


def node_grid(
    points: np.ndarray, width: float, height: float, only: np.ndarray | None = None
) -> Grid:
    """The nodes in view (of `only`, indices into `points`, when given), by grid cell:
    obstacles to every title but their own."""
    grid: Grid = {}
    x, y, r = points[:, 0], points[:, 1], points[:, 2]
    inside = in_view(points, width, height)
    seen = np.flatnonzero(inside) if only is None else only[inside[only]]
    boxes = np.stack([x - r, y - r, x + r, y + r], axis=1)[seen]
    low, high = boxes[:, :2] // CELL_PX, boxes[:, 2:] // CELL_PX
    one = (low == high).all(axis=1)  # most nodes lie in one cell: grouped by NumPy
    for i in np.flatnonzero(~one).tolist():
        left, top, right, bottom = boxes[i].tolist()
        _add(grid, (left, top, right, bottom), int(seen[i]))
    ones = np.flatnonzero(one)
    if not len(ones):
        return grid
    cells = low[ones].astype(np.int64)
    order = np.lexsort((ones, cells[:, 1], cells[:, 0]))
    ones, cells = ones[order], cells[order]
    starts = np.flatnonzero(np.r_[True, (cells[1:] != cells[:-1]).any(axis=1)])
    rows = [(*box, owner) for box, owner in zip(boxes[ones].tolist(), seen[ones].tolist())]
    for start, end in zip(starts.tolist(), [*starts[1:].tolist(), len(ones)]):
        cell = (int(cells[start, 0]), int(cells[start, 1]))
        grid.setdefault(cell, []).extend(rows[start:end])
    return grid


def _free(
    titles: Grid,
    nodes: Grid,
    i: int,
    box: tuple[float, float, float, float],
    view: tuple[float, float],
    over_nodes: bool = False,
) -> bool:
    """Whether node `i`'s title fits in `box`: in the view, clear of other titles and
    (unless `over_nodes`) of other nodes."""
    left, top, right, bottom = box
    if left < 0 or top < 0 or right > view[0] or bottom > view[1]:
        return False
    padded = (left - GAP_PX, top - GAP_PX, right + GAP_PX, bottom + GAP_PX)
    cells = _cells(left, top, right, bottom)
    if any(_overlaps(padded, other) for cell in cells for other in titles.get(cell, ())):
        return False
    return over_nodes or not any(
        other[4] != i and _overlaps(padded, other)
        for cell in cells
        for other in nodes.get(cell, ())
    )


def _cells(left: float, top: float, right: float, bottom: float) -> list[tuple[int, int]]:
    return [
        (cx, cy)
        for cx in range(int(left // CELL_PX), int(right // CELL_PX) + 1)
        for cy in range(int(top // CELL_PX), int(bottom // CELL_PX) + 1)
    ]


def _add(grid: Grid, box: tuple[float, float, float, float], owner: int) -> None:
    for cell in _cells(*box):
        grid.setdefault(cell, []).append((*box, owner))


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class Title(QGraphicsSimpleTextItem):
    """A node's title on a patch of the view's background, mostly opaque, so that it reads
    over the edges beneath it (a hub's hundreds of edges run under its neighbours' titles)."""

    def __init__(self, text: str, parent: QGraphicsItem, paper: QColor) -> None:
        super().__init__(text, parent)
        self.paper = paper

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        painter.fillRect(self.boundingRect(), self.paper)
        super().paint(painter, option, widget)


class LabelLayer:
    """The title items of one scene, made when first shown (most are never shown)."""

    def __init__(
        self,
        layer: QGraphicsRectItem,
        titles: list[str],
        ink: QBrush,
        paper: QColor | None = None,
    ) -> None:
        self.layer = layer
        self.titles = titles
        self.ink = ink
        self.paper = paper if paper is not None else QColor(0, 0, 0, 0)
        self.font = QFont()
        self._metrics = QFontMetricsF(self.font)
        # Width and height of each title in pixels; a width is measured when its title is
        # first a candidate (NaN until then): a whole vault's 50,000 titles, measured up
        # front, cost ~0.1 s of the first draw, and most are never shown.
        self.sizes = np.full((max(len(titles), 1), 2), np.nan)
        self.sizes[:, 1] = self._metrics.height() if titles else 0.0
        if not titles:
            self.sizes[:, 0] = 0.0
        self.items: dict[int, QGraphicsSimpleTextItem] = {}
        self.shown: set[int] = set()
        self._grid: Grid = {}
        self._grid_key: tuple[object, ...] = ()

    def update(
        self,
        transform: QTransform,
        points: np.ndarray,
        radii: np.ndarray,
        degree: np.ndarray,
        rank: dict[int, int],
        faded: set[int],
        viewport: tuple[float, float],
        among: set[int] | None = None,
        blocking: set[int] | None = None,
    ) -> None:
        """Choose and show the titles for the view's `transform`.

        Args:
            transform: Scene to viewport.
            points: n x 2 scene centres of the nodes.
            radii: Scene radius of each node.
            degree: Each node's edge count (more edges: its title comes first).
            rank: Node index -> priority (0 first) for the few nodes that have one; others 3.
            faded: Nodes whose titles are drawn half transparent.
            viewport: Width and height in pixels.
            among: Only these nodes and the ranked ones may get a title (a hover keeps the
                titles of the last full pass and adds its neighbourhood's: a few dozen
                candidates instead of thousands).
            blocking: The nodes whose circles keep the ranked neighbours' titles off (a
                hover: its neighbourhood; the rest lies under the veil, and a neighbour's
                title may cover it). Every other title keeps off every node. None: every
                title keeps off every node.
        """
        if not len(points):
            self.show([], points, set())
            return
        x, y, t = points[:, 0], points[:, 1], transform
        screen = np.stack(
            [
                t.m11() * x + t.m21() * y + t.m31(),
                t.m12() * x + t.m22() * y + t.m32(),
                radii * t.m11(),
            ],
            axis=1,
        )
        ranks = np.full(len(points), 3)
        for i, value in rank.items():
            ranks[i] = value
        order = np.lexsort((np.arange(len(points)), -degree, ranks))
        if among is not None:
            allowed = np.zeros(len(points), dtype=bool)
            allowed[list(among | set(rank))] = True
            order = order[allowed[order]]
        always = frozenset(i for i, value in rank.items() if value < 2)
        key = (transform.m11(), transform.m22(), transform.m31(), transform.m32(), viewport)
        if key != self._grid_key:  # zoomed or panned: a hover at the same view reuses it
            self._grid, self._grid_key = node_grid(screen, *viewport), key
        loose: frozenset[int] = frozenset()
        near: Grid | None = None
        if blocking is not None:  # the neighbours' titles: only the neighbourhood blocks
            loose = frozenset(i for i, value in rank.items() if value == 2)
            near = node_grid(screen, *viewport, np.array(sorted(blocking), dtype=np.intp))
        self.measure(order[:MAX_CANDIDATES])
        kept = choose_labels(screen, self.sizes, order, *viewport, always, self._grid, loose, near)
        if loose:
            kept = self._name_a_hubs_neighbours(screen, order, viewport, always, loose, kept)
        self.show(kept, points, faded)

    def _name_a_hubs_neighbours(
        self,
        screen: np.ndarray,
        order: np.ndarray,
        viewport: tuple[float, float],
        always: frozenset[int],
        loose: frozenset[int],
        kept: list[tuple[int, float, float]],
    ) -> list[tuple[int, float, float]]:
        """The titles `kept` by the neighbourhood's rule, or for a hub (more than
        CROWDED_NAMES neighbours in view, fewer named) its most linked neighbours in view
        that fit, their titles kept off the other titles and the hovered (and selected)
        note alone, then the veiled titles that still fit by the rule of the full view."""
        inside = in_view(screen, *viewport)
        seen = np.array(sorted(i for i in loose if inside[i]), dtype=np.intp)
        named = sum(1 for i, _, _ in kept if i in loose)
        if len(seen) <= CROWDED_NAMES or named >= CROWDED_NAMES:
            return kept
        neighbours = order[np.isin(order, seen)]
        self.measure(neighbours[:MAX_CANDIDATES])
        first = [label for label in kept if label[0] in always]
        centre = node_grid(screen, *viewport, np.array(sorted(always), dtype=np.intp))
        names = choose_labels(
            screen,
            self.sizes,
            neighbours,
            *viewport,
            obstacles=centre,
            taken=first,
            limit=CROWDED_NAMES,
        )
        if len(names) <= named:
            return kept
        veiled = np.array([i for i, _, _ in kept if i not in loose and i not in always])
        rest = choose_labels(
            screen,
            self.sizes,
            veiled.astype(np.intp),
            *viewport,
            obstacles=self._grid,
            taken=first + names,
        )
        return first + names + rest

    def measure(self, indices: np.ndarray) -> None:
        """Fill in the widths of the titles at `indices` not measured yet."""
        todo = indices[np.isnan(self.sizes[indices, 0])]
        for i in todo.tolist():
            self.sizes[i, 0] = self._metrics.horizontalAdvance(self.titles[i]) + 1

    def show(
        self, kept: list[tuple[int, float, float]], anchors: np.ndarray, faded: set[int]
    ) -> None:
        """Show the `kept` labels at their offsets from their nodes' scene `anchors`, the
        `faded` ones half transparent; hide all others."""
        now = {i for i, _, _ in kept}
        for i in self.shown - now:
            self.items[i].hide()
        for i, dx, dy in kept:
            item = self.items.get(i)
            if item is None:
                item = Title(self.titles[i], self.layer, self.paper)
                item.setFont(self.font)
                item.setBrush(self.ink)
                item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
                item.setPos(float(anchors[i, 0]), float(anchors[i, 1]))
                self.items[i] = item
            # Ignoring the view's transformations, the item's own transform is in pixels.
            item.setTransform(QTransform.fromTranslate(dx, dy))
            item.setOpacity(0.3 if i in faded else 1.0)
            item.show()
        self.shown = now

    def visible(self) -> list[QGraphicsSimpleTextItem]:
        return [self.items[i] for i in sorted(self.shown)]
