"""What the graph view does with a slice besides drawing it: Obsidian-like filters (folder,
tag, unresolved links, notes without links, rule-made edges), the choices those filters
offer, and communities (NetworkX's Louvain) to colour by."""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from mindnet_desktop.core.graph.slice import GraphSlice, SliceNode


@dataclass(frozen=True)
class SliceFilter:
    """Which notes and edges a view shows; the defaults show everything."""

    folder: str = ""  # a folder path: notes in it or below it
    tag: str = ""  # notes with this tag (or a nested tag below it, `tag/...`)
    hide_unresolved: bool = False
    hide_orphans: bool = False  # notes without a shown edge
    rule_edges: bool = True  # edges a rule made (edge_defaults)


def top_folder(node: SliceNode) -> str:
    """The first folder of a note's path ("/" at the vault's top)."""
    return node.path.split("/", 1)[0] if "/" in node.path else "/"


def in_folder(node: SliceNode, folder: str) -> bool:
    if folder == "/":
        return "/" not in node.path
    return node.path.startswith(folder.rstrip("/") + "/")


def has_tag(node: SliceNode, tag: str) -> bool:
    tag = tag.lstrip("#").lower()
    return any(t.lower() == tag or t.lower().startswith(tag + "/") for t in node.tags)


def filter_slice(graph: GraphSlice, rules: SliceFilter) -> GraphSlice:
    """The part of `graph` that `rules` lets through; the root always stays.

    An unresolved link target stays (unless hidden) when a shown note links to it: it has
    no folder or tag of its own.
    """

    def keep(node: SliceNode) -> bool:
        if node.id == graph.root:
            return True
        if node.kind != "note":
            return not rules.hide_unresolved
        if rules.folder and not in_folder(node, rules.folder):
            return False
        return not rules.tag or has_tag(node, rules.tag)

    nodes = {node_id: node for node_id, node in graph.nodes.items() if keep(node)}
    edges = [
        edge
        for edge in graph.edges
        if edge.source in nodes
        and edge.target in nodes
        and (rules.rule_edges or edge.provenance != "rule")
    ]
    linked = {edge.source for edge in edges} | {edge.target for edge in edges}
    for node_id in [n for n, node in nodes.items() if node.kind != "note"]:
        if node_id not in linked and node_id != graph.root:
            del nodes[node_id]  # an unresolved target none of the shown notes links to
    if rules.hide_orphans:
        nodes = {n: node for n, node in nodes.items() if n in linked or n == graph.root}
    return GraphSlice(nodes, edges, graph.root)


def choices(graph: GraphSlice) -> tuple[list[str], list[str]]:
    """The folders (every level) and tags of the notes in `graph`, sorted."""
    folders: set[str] = set()
    tags: set[str] = set()
    for node in graph.nodes.values():
        if node.kind != "note":
            continue
        parts = node.path.split("/")[:-1]
        folders.update("/".join(parts[: i + 1]) for i in range(len(parts)))
        tags.update(node.tags)
    return sorted(folders, key=str.lower), sorted(tags, key=str.lower)


def communities(graph: GraphSlice, seed: int = 7) -> dict[str, int]:
    """Louvain communities of the notes (edges undirected, each pair once), numbered from 0
    by size; deterministic for a seed."""
    undirected = nx.Graph()
    undirected.add_nodes_from(n for n, node in graph.nodes.items() if node.kind == "note")
    undirected.add_edges_from(
        (e.source, e.target)
        for e in graph.edges
        if e.source != e.target and e.source in undirected and e.target in undirected
    )
    found = nx.community.louvain_communities(undirected, seed=seed)
    ordered = sorted(found, key=lambda c: (-len(c), min(c)))
    return {node: i for i, members in enumerate(ordered) for node in members}


def find_node(graph: GraphSlice, text: str) -> str | None:
    """The note whose title or alias is `text` (case ignored), else the first (by id) whose
    title or alias starts with it, else one that contains it; None when none does."""
    wanted = text.strip().casefold()
    if not wanted:
        return None
    notes = [n for n in graph.nodes.values() if n.kind == "note"]
    for test in (str.__eq__, str.startswith, str.__contains__):
        found = sorted(
            n.id for n in notes if any(test(x.casefold(), wanted) for x in (n.title, *n.aliases))
        )
        if found:
            return found[0]
    return None
