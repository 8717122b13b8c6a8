"""Known-item probes built from the user's own vault, cached in its data dir.

For up to n sampled notes (a seeded hash order over the notes with enough prose, so the same
vault gives the same sample), a sentence probe and, with a chat model, a question probe
(`probe_text.py` makes their text). Each probe's gold is the note it came from. The user's
rated questions join them as probes too: a question's ▲ sources are its gold.

The probes are kept in `probes.json` in the data dir, per note with the note's content hash:
a note that changed gets new probes, a deleted note's are dropped, the rest cost nothing on
the next run. They are never sent anywhere; `forget_probes` removes them.

The work is split so that the app can keep the slow part off its service thread:
`plan_probes` reads the index (fast), `write_questions` only talks to the chat model, and
`build_probes` / `load_or_build_probes` do both for the CLI and `mindnet tune`.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from mindnet_desktop.core.chat.grounding import detect_language
from mindnet_desktop.core.domain import IndexProgress, drain
from mindnet_desktop.core.files import write_atomic
from mindnet_desktop.core.service.quality import probe_text as text

if TYPE_CHECKING:
    from mindnet_desktop.core.domain import Chunk
    from mindnet_desktop.core.store.protocol import NoteRecord
    from mindnet_desktop.core.store.query_log import QueryLog

PROBES_FILE = "probes.json"
INDEX_PREFIX = "probe-"  # comparison indexes of other embedders: `<data dir>/probe-<name>`
VERSION = 1  # of the file and of the way probes are made: another version builds anew
SEED = 17
KINDS = ("sentence", "question", "rated")
QUESTION_TOKENS = 48
MIN_PASSAGE = 20  # words of prose a chunk needs to be asked about


class ChatModel(Protocol):
    """What probing needs of the chat model (`LlamaChat`)."""

    name: str

    def complete(self, messages: list[dict[str, str]], max_tokens: int = 8) -> str: ...


class ProbedVault(Protocol):
    """What probing reads of an open vault (`Mindnet`): its notes and their chunks, the
    user's ratings in the query log, the data dir that keeps the probes."""

    @property
    def vault(self) -> Path: ...

    @property
    def data_dir(self) -> Path: ...

    @property
    def records(self) -> dict[str, NoteRecord]: ...

    @property
    def query_log(self) -> QueryLog: ...

    def chunks(self, note_id: str) -> list[Chunk]: ...

    def has_note(self, note_id: str) -> bool: ...


@dataclass(frozen=True)
class Probe:
    """A query whose right answer is known.

    Attributes:
        kind: `sentence`, `question` (written by the chat model) or `rated` (the user's).
        text: The query.
        gold: The note ids that answer it.
        lang: `de` or `en` (of the note it was made from).
        query_ids: A rated question's logged queries: their ratings do not count when it
            is ranked (leave one out).
    """

    kind: str
    text: str
    gold: tuple[str, ...]
    lang: str = ""
    query_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Target:
    """A sampled note with what its probes are made from (no index needed any more)."""

    note_id: str
    content_hash: str
    title: str
    words: frozenset[str]
    lang: str
    passage: str


@dataclass
class ProbePlan:
    """The probes of the sampled notes: what the cache holds, and what is still to ask."""

    path: Path
    vault: str
    notes: dict[str, dict[str, Any]]  # note id -> cache entry (also of notes not sampled)
    sampled: list[str]
    to_ask: list[Target] = field(default_factory=list)
    asked: int = 0
    seconds: float = 0.0  # spent by the chat model on the `asked` questions

    def probes(self, kinds: tuple[str, ...] = ("sentence", "question")) -> list[Probe]:
        """The ready probes of the sampled notes, sentence probes first."""
        out = []
        for kind in ("sentence", "question"):
            if kind not in kinds:
                continue
            for note_id in self.sampled:
                entry = self.notes[note_id].get(kind) or {}
                if entry.get("text"):
                    out.append(Probe(kind, entry["text"], (note_id,), self.notes[note_id]["lang"]))
        return out

    def save(self) -> None:
        data = {"version": VERSION, "seed": SEED, "vault": self.vault, "notes": self.notes}
        write_atomic(self.path, json.dumps(data, ensure_ascii=False, indent=1))

    def record(self, target: Target, question: str | None, model: str, seconds: float) -> None:
        """Keep the model's question for `target` (None: it gave none worth asking; kept
        too, so the next run does not ask again)."""
        entry = self.notes[target.note_id]
        entry["question"] = {"text": question or "", "model": model, "seconds": round(seconds, 2)}
        self.asked += 1
        self.seconds += seconds


def probes_path(mn: ProbedVault) -> Path:
    return mn.data_dir / PROBES_FILE


def _load(path: Path, vault: str) -> dict[str, dict[str, Any]]:
    """The cached entries, or none when the file is missing, damaged, of another version or
    of another vault."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if (
        not isinstance(data, dict)
        or data.get("version") != VERSION
        or data.get("seed") != SEED
        or data.get("vault") != vault
        or not isinstance(data.get("notes"), dict)
    ):
        return {}
    return {k: v for k, v in data["notes"].items() if isinstance(v, dict) and "hash" in v}


def plan_probes(mn: ProbedVault, n: int = 100, questions: bool = True) -> ProbePlan:
    """Sample up to `n` notes with enough prose, reuse the cached probes of those unchanged,
    make the sentence probes of the others, and list the notes whose question is still to
    ask (with `questions`). Cache entries of changed or deleted notes are dropped."""
    if n < 1:
        raise ValueError("the number of probed notes must be at least 1")
    vault = str(mn.vault)
    records = mn.records
    cached = {
        note_id: entry
        for note_id, entry in _load(probes_path(mn), vault).items()
        if note_id in records and records[note_id].note.content_hash == entry["hash"]
    }
    eligible = [
        note_id
        for note_id, record in records.items()
        if note_id in cached or text.prose_word_count(record.note.body) >= text.MIN_NOTE_WORDS
    ]
    sampled = text.stable_order(eligible, SEED)[:n]
    plan = ProbePlan(probes_path(mn), vault, cached, sampled)
    for note_id in sampled:
        note = records[note_id].note
        entry = cached.get(note_id)
        if entry is not None and not (questions and "question" not in entry):
            continue
        words = text.title_words([note.title, note.name, *note.aliases])
        chunks = [c.text for c in mn.chunks(note_id)]
        if entry is None:
            sentence = text.sentence_probe(chunks, words, SEED, note_id)
            entry = {
                "hash": note.content_hash,
                "lang": detect_language(note.body, "en"),
                "sentence": {"text": sentence or ""},
            }
            cached[note_id] = entry
        passages = [p for p in map(text.passage, chunks) if text.word_count(p) >= MIN_PASSAGE]
        if questions and "question" not in entry and passages:
            passage = passages[text.pick(len(passages), SEED, f"question:{note_id}")]
            lang = entry["lang"]
            plan.to_ask.append(Target(note_id, note.content_hash, note.title, words, lang, passage))
    return plan


def write_questions(
    plan: ProbePlan, llm: ChatModel, cancel: Callable[[], bool] | None = None
) -> Generator[IndexProgress, None, ProbePlan]:
    """Ask the chat model for the questions `plan` still lacks, one note at a time (the
    cache is saved after each, so a cancel keeps what was asked). Uses no index: the app
    runs it beside its service thread."""
    total = len(plan.to_ask)
    for done, target in enumerate(list(plan.to_ask), start=1):
        if cancel is not None and cancel():
            break
        started = time.perf_counter()
        answer = llm.complete(
            text.question_messages(target.passage, target.title, target.lang),
            max_tokens=QUESTION_TOKENS,
        )
        question = text.parse_question(answer, target.words)
        plan.record(target, question, llm.name, time.perf_counter() - started)
        plan.to_ask.remove(target)
        plan.save()
        yield IndexProgress(done, total, target.note_id, "probe")
    return plan


def build_probes(
    mn: ProbedVault,
    n: int = 100,
    llm: ChatModel | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Generator[IndexProgress, None, ProbePlan]:
    """`plan_probes`, then the missing questions from `llm` (None: sentence probes only),
    then the cache saved. The plan's `probes()` are the probes."""
    plan = plan_probes(mn, n, questions=llm is not None)
    plan.save()
    if llm is not None:
        yield from write_questions(plan, llm, cancel)
    return plan


def load_or_build_probes(
    mn: ProbedVault, n: int = 100, llm: ChatModel | None = None
) -> list[Probe]:
    """The sentence probes (and with `llm` the question probes) of up to `n` notes, built
    where the cache lacks them, plus the user's rated questions."""
    plan = drain(build_probes(mn, n, llm))
    kinds = ("sentence", "question") if llm is not None else ("sentence",)
    return plan.probes(kinds) + rated_probes(mn)


def rated_probes(mn: ProbedVault) -> list[Probe]:
    """The user's rated questions: each question with a ▲ source that is still in the
    index, the ▲ notes as its gold (in the order rated), the ids of the queries it was
    rated in as `query_ids` (left out when it is ranked)."""
    gold: dict[str, list[str]] = {}
    ids: dict[str, set[str]] = {}
    for entry in mn.query_log.standing():
        note_id, question = entry.get("note_id"), str(entry.get("query") or "").strip()
        if question:
            ids.setdefault(question, set()).add(str(entry.get("query_id")))
        if entry.get("rating") != "up" or not (note_id and question and mn.has_note(note_id)):
            continue
        if note_id not in gold.setdefault(question, []):
            gold[question].append(note_id)
    return [
        Probe("rated", q, tuple(notes), detect_language(q, "en"), tuple(sorted(ids[q])))
        for q, notes in gold.items()
    ]


def _count(path: Path) -> int:
    """The probes a cache file holds (0 when it is unreadable)."""
    try:
        notes = json.loads(path.read_text(encoding="utf-8")).get("notes")
    except (OSError, ValueError, AttributeError):
        return 0
    if not isinstance(notes, dict):
        return 0
    entries = [e for e in notes.values() if isinstance(e, dict)]
    return sum(1 for e in entries for k in ("sentence", "question") if (e.get(k) or {}).get("text"))


def forget_probes(data_dir: Path) -> dict[str, Any]:
    """Remove the cached probes and the comparison indexes (`probe-<embedder>`) of a data
    dir; what was removed (the number of probes, the index folders)."""
    path = data_dir / PROBES_FILE
    count = _count(path) if path.is_file() else 0
    path.unlink(missing_ok=True)
    indexes = []
    for index in sorted(data_dir.glob(f"{INDEX_PREFIX}*")):
        if index.is_dir():
            shutil.rmtree(index)
            indexes.append(index.name)
    return {"probes": count, "indexes": indexes}
