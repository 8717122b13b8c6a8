"""The knowledge graph: built from the store at start, kept in step per note."""

from __future__ import annotations

from mindnet_desktop.core.graph.knowledge_graph import UNRESOLVED_PREFIX, KnowledgeGraph
from mindnet_desktop.core.models.embedders import HashEmbedder
from tests.conftest import run_import


def test_graph_holds_notes_chunks_and_unresolved_targets(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    g = mn.graph.graph
    kinds = {kind for _, kind in g.nodes(data="kind")}
    assert kinds == {"note", "chunk", "unresolved"}
    assert g.nodes["Projekte/KI-Projekt Alpha"]["type"] == "project"
    assert g.nodes["Projekte/KI-Projekt Alpha#1"]["note_id"] == "Projekte/KI-Projekt Alpha"
    assert g.nodes[UNRESOLVED_PREFIX + "Noch nicht geschrieben"]["kind"] == "unresolved"
    assert g.number_of_edges() == sum(len(r.edges) for r in mn.records.values())
    depends = [
        (u, v, d)
        for u, v, d in g.edges(data=True)
        if d["kind"] == "depends_on"
        and d["rule_id"] == "inline:rel"
        and d["note_id"] == "Projekte/KI-Projekt Alpha"
    ]
    assert [v for _, v, _ in depends] == ["Wissen/Qdrant Vektordatenbank"]
    assert depends[0][0].startswith("Projekte/KI-Projekt Alpha#")


def test_restart_rebuilds_the_same_graph_without_parsing_or_embedding(
    vault, open_mindnet, monkeypatch
):
    mn = open_mindnet(vault)
    run_import(mn)
    live = mn.graph  # kept in step incrementally from here on
    note = vault / "Wissen" / "Embeddings 101.md"
    note.write_text(
        note.read_text(encoding="utf-8") + "\n[[rel:causes Neue Notiz]]\n", encoding="utf-8"
    )
    run_import(mn)
    (vault / "Neue Notiz.md").write_text("# Neue Notiz\nText\n", encoding="utf-8")
    run_import(mn)
    (vault / "Glossar" / "HNSW.md").unlink()
    run_import(mn, sync_deletes=True)
    mn.close()

    import mindnet_desktop.core.ingest.importer as indexer

    monkeypatch.setattr(
        indexer, "parse_markdown", lambda *a, **k: (_ for _ in ()).throw(AssertionError("parsed"))
    )
    embedder = HashEmbedder()
    restarted = open_mindnet(vault, write=False, embedder=embedder)
    assert restarted.graph.signature() == live.signature()
    assert embedder.calls == 0
    assert UNRESOLVED_PREFIX + "HNSW" in restarted.graph.graph


def test_removing_a_note_drops_its_chunks_edges_and_orphans(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    kg = KnowledgeGraph.from_records(mn.records.values())
    journal = mn.records["Journal/2026-11-02"]
    kg.remove_note(journal.note.note_id)
    g = kg.graph
    assert not any(n.startswith("Journal/2026-11-02#") for n in g)
    assert UNRESOLVED_PREFIX + "Noch nicht geschrieben" not in g
    assert not [d for _, _, d in g.edges(data=True) if d["note_id"] == "Journal/2026-11-02"]
