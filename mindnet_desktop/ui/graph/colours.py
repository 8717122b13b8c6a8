"""Node colours by type, folder or community, and the legend entries that go with them."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor

from mindnet_desktop.core.graph.slice import GraphSlice
from mindnet_desktop.ui.graph.style import PALETTE, UNRESOLVED, colour_for, group_of

Legend = list[tuple[str, QColor]]


def colours(
    graph: GraphSlice, mode: str, communities: dict[str, int] | None = None
) -> tuple[dict[str, QBrush], Legend, Legend]:
    """Each node's brush, the node groups (sorted, unresolved links last) and the edge kinds
    of `graph` coloured by `mode` ("type", "folder" or "community")."""
    of_node = {
        n: group_of(node, mode, communities or {})
        for n, node in graph.nodes.items()
        if node.kind == "note"
    }
    names = sorted(set(of_node.values()), key=_order)
    if mode == "type":  # the same type keeps its colour in every view
        groups = {name: colour_for(name) for name in names}
    else:  # folders and communities of this view: distinct colours while there are enough
        groups = {name: QColor(PALETTE[i % len(PALETTE)]) for i, name in enumerate(names)}
    # One brush a group, shared (a hub's neighbourhood holds ~15,000 notes at 50,000).
    shared = {name: QBrush(colour) for name, colour in groups.items()}
    unlinked = QBrush(UNRESOLVED)
    brushes = {n: shared[of_node[n]] if n in of_node else unlinked for n in graph.nodes}
    unresolved = len(of_node) < len(graph.nodes)
    legend = list(groups.items())
    if unresolved:
        legend.append(("", UNRESOLVED))  # the view names it (translated)
    kinds = [(kind, colour_for(kind)) for kind in sorted({e.kind for e in graph.edges})]
    return brushes, legend, kinds


def _order(group: str) -> tuple[int, str]:
    """Communities by number (#1, #2, …, #10), everything else by name."""
    if group.startswith("#") and group[1:].isdigit():
        return int(group[1:]), ""
    return 0, group.lower()
