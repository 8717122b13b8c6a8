"""How the graph is drawn: colours by type and kind, pens by provenance, edge geometry
(straight, or curved apart when two notes link both ways)."""

from __future__ import annotations

import functools
import math
import zlib

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen

from mindnet_desktop.core.graph.slice import SliceEdge, SliceNode

RADIUS = 9.0
ARROW, ARROW_ANGLE = 7.0, 0.45  # length and half-angle of the arrow head
PALETTE = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#2f4b7c", "#a05195", "#d45087", "#665191", "#00a6a6", "#8cd17d", "#f1ce63",
]  # fmt: skip
UNRESOLVED = QColor("#b0b0b0")


@functools.cache
def colour_for(name: str) -> QColor:
    """A stable colour for a note type or an edge kind."""
    return QColor(PALETTE[zlib.crc32(name.encode("utf-8")) % len(PALETTE)])


@functools.cache
def _brush(kind: str, type_: str) -> QBrush:
    return QBrush(UNRESOLVED if kind != "note" else colour_for(type_ or "default"))


def node_brush(node: SliceNode) -> QBrush:
    return _brush(node.kind, node.type)


def edge_pen(edge: SliceEdge) -> QPen:
    """Colour by kind; dashed when a rule made it; faded when deleted."""
    return pen_for(*pen_key(edge))


def pen_key(edge: SliceEdge) -> tuple[str, bool, bool]:
    """What an edge's pen depends on: its kind, whether a rule made it, whether deleted."""
    return edge.kind, edge.provenance == "rule", edge.deleted


@functools.cache
def pen_for(kind: str, rule: bool, deleted: bool) -> QPen:
    """The pen of an edge of `kind`, made by a rule or not, deleted or not (one per key)."""
    colour = QColor(colour_for(kind))
    if deleted:
        colour.setAlpha(70)
    pen = QPen(colour, 1.6)
    pen.setCosmetic(True)
    if rule:
        pen.setStyle(Qt.PenStyle.DashLine)
    return pen


def node_radius(degree: int) -> float:
    """Bigger for notes with more links (like Obsidian), growing slowly so hubs stay round
    dots, not discs."""
    return RADIUS * min(2.2, 0.7 + 0.25 * math.sqrt(degree))


def group_of(node: SliceNode, mode: str, communities: dict[str, int]) -> str:
    """The colour group of a node: its type, its top folder, or its community."""
    if node.kind != "note":
        return ""
    if mode == "folder":
        return node.path.split("/", 1)[0] if "/" in node.path else "/"
    if mode == "community":
        return f"#{communities[node.id] + 1}" if node.id in communities else "-"
    return node.type or "default"


def edge_geometry(
    ends: np.ndarray, bends: np.ndarray, radii: np.ndarray | None = None
) -> np.ndarray:
    """Points of every edge at once: start, control, end, and the two ends of the arrow head.

    Args:
        ends: m x 4 node centres (ax, ay, bx, by).
        bends: How far each edge curves sideways (0: straight; parallel edges fan out).
        radii: m x 2 radii of the two end nodes (default `RADIUS`), where the line starts
            and ends.

    Returns:
        m x 10: start, control, end, arrow left, arrow right (x, y each).
    """
    a, b = ends[:, :2], ends[:, 2:]
    unit = _unit(b - a)
    if radii is None:
        radii = np.full((len(ends), 2), RADIUS)
    start, end = a + unit * radii[:, :1], b - unit * radii[:, 1:]
    normal = np.stack([-unit[:, 1], unit[:, 0]], axis=1)
    control = (start + end) / 2 + normal * bends[:, None]
    tangent = _unit(end - control)
    cos, sin = math.cos(ARROW_ANGLE), math.sin(ARROW_ANGLE)
    tx, ty = tangent[:, 0], tangent[:, 1]
    left = end - ARROW * np.stack([tx * cos - ty * sin, tx * sin + ty * cos], axis=1)
    right = end - ARROW * np.stack([tx * cos + ty * sin, -tx * sin + ty * cos], axis=1)
    return np.hstack([start, control, end, left, right])


def _unit(vectors: np.ndarray) -> np.ndarray:
    length = np.hypot(vectors[:, 0], vectors[:, 1])
    length[length == 0] = 1.0
    return vectors / length[:, None]


def edge_path(points: list[float], curved: bool) -> QPainterPath:
    """One edge's path from its `edge_geometry` row: the line, then an open "V" arrow head
    (no fill needed)."""
    sx, sy, cx, cy, ex, ey, lx, ly, rx, ry = points
    path = QPainterPath()
    path.moveTo(sx, sy)
    if curved:
        path.quadTo(cx, cy, ex, ey)
    else:
        path.lineTo(ex, ey)
    path.moveTo(lx, ly)
    path.lineTo(ex, ey)
    path.lineTo(rx, ry)
    return path


def short_title(title: str, limit: int = 28) -> str:
    return title if len(title) <= limit else title[: limit - 1] + "…"
