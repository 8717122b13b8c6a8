"""Graph view filters (folder, tag, unresolved, orphans, rule-made edges) and communities,
on the imported example vault."""

from __future__ import annotations

from pathlib import Path

from mindnet_desktop.core.graph.slice import GraphSlice, SliceEdge, SliceNode, whole_vault
from mindnet_desktop.core.graph.slice_tools import (
    SliceFilter,
    choices,
    communities,
    filter_slice,
)
from tests.conftest import run_import


def test_folder_and_tag_filters_keep_only_matching_notes(vault: Path, open_mindnet) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    graph = whole_vault(mn.queries)
    folders, tags = choices(graph)
    assert {"Support", "Persönlich/Ziele", "Persönlich"} <= set(folders)
    assert "drucker" in tags
    notes = lambda g: {n for n, node in g.nodes.items() if node.kind == "note"}  # noqa: E731
    support = filter_slice(graph, SliceFilter(folder="Support"))
    in_support = {n for n, r in mn.records.items() if r.note.path.startswith("Support/")}
    assert notes(support) == in_support and "Support/Toner wechseln" in in_support
    assert all(e.source in support.nodes and e.target in support.nodes for e in support.edges)
    personal = filter_slice(graph, SliceFilter(folder="Persönlich"))
    assert "Persönlich/Werte/Neugier" in personal.nodes
    printer = filter_slice(graph, SliceFilter(tag="#Drucker"))
    assert notes(printer) and all("drucker" in printer.nodes[n].tags for n in notes(printer))
    assert notes(printer) < notes(graph)


def test_unresolved_orphans_and_rule_edges() -> None:
    graph = GraphSlice()
    for name in ("a", "b", "c"):
        graph.nodes[name] = SliceNode(name, "note", name, "concept", f"{name}.md")
    graph.nodes["ghost"] = SliceNode("ghost", "unresolved", "ghost")
    graph.edges += [
        SliceEdge("1", "references", "a", "b", "explicit", "explicit:wikilink", 1.0),
        SliceEdge("2", "related_to", "a", "c", "rule", "edge_defaults:concept:related_to", 0.7),
        SliceEdge("3", "references", "b", "ghost", "explicit", "explicit:wikilink", 1.0),
    ]
    assert set(filter_slice(graph, SliceFilter()).nodes) == {"a", "b", "c", "ghost"}
    assert "ghost" not in filter_slice(graph, SliceFilter(hide_unresolved=True)).nodes
    no_rules = filter_slice(graph, SliceFilter(rule_edges=False))
    assert {e.id for e in no_rules.edges} == {"1", "3"} and "c" in no_rules.nodes
    alone = filter_slice(graph, SliceFilter(rule_edges=False, hide_orphans=True))
    assert set(alone.nodes) == {"a", "b", "ghost"}


def test_communities_split_two_cliques_and_are_deterministic() -> None:
    graph = GraphSlice()
    names = [f"{side}{i}" for side in "xy" for i in range(5)]
    for name in names:
        graph.nodes[name] = SliceNode(name, "note", name)
    n = 0
    for side in "xy":
        for i in range(5):
            for j in range(i + 1, 5):
                n += 1
                graph.edges.append(
                    SliceEdge(str(n), "references", f"{side}{i}", f"{side}{j}", "explicit", "", 1.0)
                )
    graph.edges.append(SliceEdge("bridge", "references", "x0", "y0", "explicit", "", 1.0))
    found = communities(graph)
    assert found == communities(graph)
    assert len({found[f"x{i}"] for i in range(5)}) == 1
    assert found["x1"] != found["y1"]


def test_find_node_by_title_alias_start_and_part() -> None:
    from mindnet_desktop.core.graph.slice_tools import find_node

    graph = GraphSlice()
    graph.nodes["a"] = SliceNode("a", "note", "Qdrant Vektordatenbank", aliases=("Qdrant DB",))
    graph.nodes["b"] = SliceNode("b", "note", "Qdrant statt Chroma")
    graph.nodes["x"] = SliceNode("x", "unresolved", "qdrant")
    assert find_node(graph, "qdrant db") == "a"
    assert find_node(graph, "QDRANT STATT chroma") == "b"
    assert find_node(graph, "qdrant") == "a"  # both start so: the first id
    assert find_node(graph, "statt") == "b"
    assert find_node(graph, "nothing") is None and find_node(graph, " ") is None


def test_wikilinks_become_links_to_notes(vault: Path, open_mindnet) -> None:
    from mindnet_desktop.core.service.notes.text import note_markdown, note_of_url, note_url

    mn = open_mindnet(vault)
    run_import(mn)
    text = note_markdown(mn, "Projekte/KI-Projekt Alpha")
    assert "[[" not in text
    assert f"[Local First](<{note_url('Persönlich/Prinzipien/Local First')}>)" in text
    assert (
        f"depends\\_on [Qdrant Vektordatenbank](<{note_url('Wissen/Qdrant Vektordatenbank')}>)"
        in text
    )
    assert note_of_url(note_url("A/B c")) == "A/B c" and note_of_url("https://x") is None
    from mindnet_desktop.core.service.notes.text import linked_markdown

    assert (
        linked_markdown(mn, "x", "[[#Developer commands|developer commands]]")
        == "developer commands"
    )
    assert linked_markdown(mn, "x", "[[Nowhere]] ![[pic.png]]") == "Nowhere *pic.png*"
    in_code = "`[[Nowhere]]` \\[[Nowhere]] %%[[Nowhere]]%%\n\n```\n[[Nowhere]]\n```\n"
    assert linked_markdown(mn, "x", in_code) == in_code
