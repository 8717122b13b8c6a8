"""The lexical term: BM25 kept in step with the store, candidates from both signals, reasons,
per-note results."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.store.chroma import ChromaStore
from tests.conftest import run_import


def lexical_notes(mn, query: str, n: int = 10) -> list[str]:
    found = mn.store.lexical.search(query, n)
    return list(dict.fromkeys(cid.split("#")[0] for cid, _ in found))


def note_id(mn, title: str) -> str:
    return mn.find_note(title).note.note_id


def test_the_lexical_index_follows_edits_renames_and_deletes(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    assert mn.store.lexical.count() == mn.store.counts()["chunks"]
    toner = vault / "Support" / "Toner wechseln.md"
    toner_id = note_id(mn, "Toner wechseln")
    assert toner_id in lexical_notes(mn, "Tonerkassette")

    # An edit: the new word is found, the old text is gone, other notes are untouched.
    before = {n: len(mn.store.lexical.search(n, 50)) for n in ("Qdrant",)}
    toner.write_text("# Toner wechseln\nDer Quokkatoner kommt aus Fach 9.\n", encoding="utf-8")
    run_import(mn)
    assert lexical_notes(mn, "Quokkatoner") == [toner_id]
    assert toner_id not in lexical_notes(mn, "Tonerkassette")
    assert {n: len(mn.store.lexical.search(n, 50)) for n in before} == before
    assert mn.store.lexical.count() == mn.store.counts()["chunks"]

    # A rename: the postings move to the new note id.
    toner.rename(toner.with_name("Toner tauschen.md"))
    run_import(mn)
    renamed = note_id(mn, "Toner tauschen")
    assert lexical_notes(mn, "Quokkatoner") == [renamed]

    # A delete: nothing of the note stays findable.
    (vault / "Support" / "Toner tauschen.md").unlink()
    run_import(mn, sync_deletes=True)
    assert lexical_notes(mn, "Quokkatoner") == []
    assert mn.store.lexical.count() == mn.store.counts()["chunks"]


def test_a_missing_lexical_index_is_rebuilt_from_the_store_once(vault, open_mindnet, tmp_path):
    mn = open_mindnet(vault)
    run_import(mn)
    expected = lexical_notes(mn, "Papierstau Fach")
    chunks = mn.store.counts()["chunks"]
    mn.close()
    shutil.rmtree(tmp_path / "data" / "lexical")
    again = open_mindnet(vault)
    assert again.store.lexical.count() == chunks
    assert lexical_notes(again, "Papierstau Fach") == expected
    # A reader never rebuilds (it is not the writer) but searches what the writer keeps.
    again.close()
    reader = ChromaStore(tmp_path / "data", again.embedder, writable=False)
    assert reader.lexical.count() == chunks
    reader.close()


def write_config(tmp_path: Path, **overrides: object) -> Path:
    from mindnet_desktop.core.config.type_registry import bundled_config_dir

    config = tmp_path / "config"
    shutil.copytree(bundled_config_dir(), config)
    text = (config / "retriever.yaml").read_text(encoding="utf-8")
    for key, value in overrides.items():
        lines = [
            f"{key}: {value}" if line.startswith(f"{key}:") else line for line in text.splitlines()
        ]
        text = "\n".join(lines) + "\n"
    (config / "retriever.yaml").write_text(text, encoding="utf-8")
    return config


def test_a_note_only_the_lexical_signal_finds_can_rank_first(vault, open_mindnet, tmp_path):
    (vault / "Wissen" / "Okapi.md").write_text(
        "# Okapi\nDas Xylokarpfen-Verfahren ordnet Treffer nach Termhäufigkeit.\n",
        encoding="utf-8",
    )
    query = "Wie funktioniert das Xylokarpfen-Verfahren?"
    mn = open_mindnet(vault, config_dir=write_config(tmp_path, candidate_pool=5, k=5))
    run_import(mn)
    okapi = note_id(mn, "Okapi")
    vector = mn.embedder.embed_query([query])[0]
    semantic = {row.note_id for row, _ in mn.store.nearest_chunks(vector, 5)}
    assert okapi not in semantic  # the semantic pool alone would miss it

    # With the default weights it joins the candidates and is ranked with every term ...
    hits = hybrid_search(mn, query, log=False).hits
    found = next(h for h in hits if h.note_id == okapi)
    lexical = next(t for t in found.score_breakdown if t["term"] == "lexical")
    assert lexical["raw"] == 1.0 and lexical["contribution"] > 0
    assert found.score == sum(t["contribution"] for t in found.score_breakdown)
    assert any("Xylokarpfen-Verfahren" in r for r in found.reasons)

    # ... and where the lexical term weighs more, it wins.
    mn.close()
    config = write_config(tmp_path / "heavy", candidate_pool=5, k=5)
    text = (config / "retriever.yaml").read_text(encoding="utf-8")
    text = text.replace("  lexical: 0.10", "  lexical: 0.80")
    (config / "retriever.yaml").write_text(text, encoding="utf-8")
    heavy = open_mindnet(vault, config_dir=config)
    assert hybrid_search(heavy, query, log=False).hits[0].note_id == okapi


def test_reasons_name_the_terms_found_in_the_title(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    hits = hybrid_search(mn, "Qdrant Vektordatenbank", log=False, language="de").hits
    titled = [h for h in hits if h.title == "Qdrant Vektordatenbank"]
    assert all(0.0 <= h.similarity <= 1.0 for h in hits)
    assert titled
    assert "Begriffe im Titel: Qdrant, Vektordatenbank" in titled[0].reasons
    english = hybrid_search(mn, "Qdrant Vektordatenbank", log=False, language="en").hits
    assert any("Terms in the title: Qdrant, Vektordatenbank" in h.reasons for h in english)


def test_per_note_mode_returns_distinct_notes(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    query = "LaserJet 500 Papierstau Toner Fach"
    chunks = hybrid_search(mn, query, k=10, log=False).hits
    assert len({h.note_id for h in chunks}) < len(chunks)  # the same note more than once
    notes = hybrid_search(mn, query, k=10, log=False, per_note=True).hits
    ids = [h.note_id for h in notes]
    assert len(ids) == len(set(ids)) == 10
    # each note's hit is its best chunk: the first chunk of that note in chunk mode
    best = {}
    for hit in chunks:
        best.setdefault(hit.note_id, hit.node_id)
    for hit in notes:
        if hit.note_id in best:
            assert hit.node_id == best[hit.note_id]


def test_daily_notes_with_the_same_heading_do_not_crowd_out_the_answer(tmp_path, open_mindnet):
    vault = tmp_path / "v"
    (vault / "Journal").mkdir(parents=True)
    for day in range(1, 13):
        (vault / "Journal" / f"2026-11-{day:02d}.md").write_text(
            f"# 2026-11-{day:02d}\n## Meetings\nKurz abgestimmt, nichts Neues.\n"
            "## Aufgaben\nPost erledigt.\n",
            encoding="utf-8",
        )
    (vault / "Planung.md").write_text(
        "# Planung 2027\n## Ergebnisse\nIn den Meetings haben wir die Offline-Suche beschlossen.\n",
        encoding="utf-8",
    )
    mn = open_mindnet(vault)
    run_import(mn)
    hits = hybrid_search(mn, "Was wurde in den Meetings beschlossen?", log=False, per_note=True)
    assert hits.hits[0].note_id == note_id(mn, "Planung 2027")


def test_a_crash_between_the_two_writes_is_repaired_on_the_next_start(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    toner = vault / "Support" / "Toner wechseln.md"
    text = toner.read_text(encoding="utf-8")
    toner.write_text(text.replace("Tonerkassette", "Quokkakassette"), encoding="utf-8")

    def crash(*args, **kwargs):
        raise RuntimeError("power cut")

    mn.store.lexical.replace = crash  # Chroma is written, the lexical index is not
    with pytest.raises(RuntimeError, match="power cut"):
        run_import(mn)
    mn.close()
    again = open_mindnet(vault)
    run_import(again)  # the note is unchanged for the importer now
    assert note_id(again, "Toner wechseln") in lexical_notes(again, "Quokkakassette")
    assert not (again.store.lexical.pending_marker).exists()


def test_a_reader_of_an_index_without_lexical_postings_changes_nothing(
    vault, open_mindnet, tmp_path
):
    mn = open_mindnet(vault)
    run_import(mn)
    mn.close()
    shutil.rmtree(tmp_path / "data" / "lexical")
    reader = ChromaStore(tmp_path / "data", mn.embedder, writable=False)
    assert reader.lexical.missing and reader.lexical.search("Papierstau", 5) == []
    assert not (tmp_path / "data" / "lexical").exists()
    reader.close()


def test_the_lexical_candidates_keep_to_the_type_and_root_filters(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    query = "Papierstau Toner Qdrant HNSW"  # terms of many notes of many types
    typed = hybrid_search(mn, query, k=50, types=["glossary"], log=False).hits
    assert typed and {h.type for h in typed} == {"glossary"}
    root = note_id(mn, "LaserJet 500")
    allowed = set(mn.searcher.neighbourhood(root, 1))
    rooted = hybrid_search(mn, query, k=50, root=root, depth=1, log=False).hits
    assert rooted and {h.note_id for h in rooted} <= allowed


def test_stop_and_question_words_are_not_query_terms(tmp_path: Path) -> None:
    """BM25 must not reward a chunk for "wurde" or "how": they say nothing of the topic."""
    from mindnet_desktop.core.store.lexical import LexicalIndex

    index = LexicalIndex(tmp_path / "lex", writable=True)
    terms = index.terms("Warum wurde das Budget gekürzt? Wie viel? Why how many Cloud-Datenbanken")
    for lang in ("de", "en"):
        assert not {"warum", "wurd", "wurde", "wie", "viel", "why", "whi", "how", "mani"} & set(
            terms[lang]
        ), terms[lang]
        assert "cloud" in terms[lang] and any(t.startswith("datenbank") for t in terms[lang])
    index.close()


def test_reasons_never_name_a_stop_word(vault, open_mindnet) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    fields = {"text": "Das Budget wurde um 20 Prozent gekürzt, weil die Cloud zu teuer war."}
    found = mn.store.matched_terms("Warum wurde das Budget gekürzt?", fields)
    assert found == {"text": ["Budget", "gekürzt"]}


def test_coverage_is_the_share_of_query_words_a_chunk_holds(vault, open_mindnet) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    toner = [c.chunk_id for c in mn.chunks("Support/Toner wechseln")]
    jam = [c.chunk_id for c in mn.chunks("Support/Papierstau beheben")]
    got = mn.store.term_coverage("Wie wechsle ich die Tonerkassette? Papierstau", toner + jam)
    assert set(got) <= set(toner + jam) and got
    assert all(0 < share <= 1 for share in got.values())
    # "Wie", "ich", "die" are stop words: three words count; the jam note holds one.
    assert max(got[c] for c in jam if c in got) == pytest.approx(1 / 3)
    assert mn.store.term_coverage("und oder aber", toner) == {}  # nothing but stop words


def test_chunks_carry_their_notes_names_and_headings_on_both_sides(vault, open_mindnet) -> None:
    """A chunk is found by its note's title, alias and heading although its own text never
    says them: the embedded text and the lexical fields both carry that context."""
    from mindnet_desktop.core.domain import Chunk, Note
    from mindnet_desktop.core.ingest.embedding import embedding_text
    from mindnet_desktop.core.store.chroma_codec import lexical_doc

    note = Note("N", "N.md", "Drucker Handbuch", "source", "", "h", aliases=("LJ500",))
    chunk = Chunk("N", 2, "Die Walze reinigen.", heading_path=("Wartung", "Walze", "Reinigen"))
    embedded = embedding_text(note, chunk)
    assert embedded.startswith("Drucker Handbuch (LJ500) > Walze > Reinigen\n")
    mn = open_mindnet(vault)
    run_import(mn)
    record = mn.records["Produkte/LaserJet 500"]
    doc = lexical_doc(record, mn.chunks("Produkte/LaserJet 500")[-1])
    assert "LaserJet 500" in doc.name and "LJ500" in doc.name and doc.heading
    found = mn.store.lexical_search("LJ500", 20)
    assert {cid.rsplit("#", 1)[0] for cid, _ in found} >= {"Produkte/LaserJet 500"}


def test_a_failed_commit_at_close_still_frees_the_index_for_the_next_writer(tmp_path, monkeypatch):
    """Guards: closing after a failed commit (a full disk) drops the tantivy writer, so the
    next writer in the same process can open the index. Shown to fail when `close` lets the
    commit's error skip dropping the writer: the second open then reports the index as
    "open for writing in another process"."""
    import errno

    from mindnet_desktop.core.store.lexical import LexicalIndex

    index = LexicalIndex(tmp_path / "lexical", writable=True)
    index.clear()  # something to commit

    def full(self: LexicalIndex) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(LexicalIndex, "commit", full)
        with pytest.raises(OSError, match="No space"):
            index.close()
    again = LexicalIndex(tmp_path / "lexical", writable=True)  # the lock was released
    again.close()
