"""The snapshots a fresh reader reads (records, graph, chunk snapshot, note index) written by
a child process, so that the app keeps them in step with its imports as `mindnet import`
and `watch` do, without its window waiting.

Written in the app's process, they cost ~1.8 s of CPU at 6,500 notes after every quiet
period (pickling 33 MB of records and a 119,159-edge graph, 23,578 chunk rows, the note
index's rows), with the GIL held up to ~45 ms at a time. The child has a GIL of its own: the
app only lists what changed (`unsaved.py`) and reads the changed notes' chunks (a few
milliseconds); the child patches the records snapshot with them, builds the graph from the
records, updates the chunk snapshot by the changed notes and writes the note index. When the
snapshots on disk do not follow (`since` None, or a file out of step) it reads the store
instead (Chroma, read-only, as any reader does).

Frames as in `import_child`: parent -> child the `SnapshotRequest`; child -> parent
`("done", written)` or `("error", message)`. The child needs nothing else of its parent and
writes nothing it was not asked to: every file is replaced atomically and carries the
signature it was taken at, and the child writes none once the manifest moved on.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.models.embed_worker import receive_frame, run_child, send_frame
from mindnet_desktop.core.service.vault.unsaved import Unsaved

if TYPE_CHECKING:
    from mindnet_desktop.core.models.embedders import Embedder
    from mindnet_desktop.core.service.vault.mindnet import Mindnet
    from mindnet_desktop.core.store.chroma import ChromaStore
    from mindnet_desktop.core.store.chunk_snapshot import Page

CHILD_NICENESS = 5  # below the app and its imports: the snapshots can wait
EMPTY_PAGE: Page = ([], [], [], [])


class SnapshotChildError(MindnetError):
    """The child writing the snapshots failed (its message says why) or died."""


@dataclass
class SnapshotRequest:
    """What the child writes, at which signatures, from what.

    Attributes:
        signatures: The manifest's (records', graph's) when the changes were taken.
        unsaved: The changes since the snapshots on disk (`since`).
        chunks: The stored chunks of the changed notes (ids, metadatas, documents, vectors).
        chunk_snapshot: Keep the chunk snapshot too (not for a store on a Chroma server).
    """

    vault: Path
    data_dir: Path
    embedder: Embedder  # pickled with its settings, not its loaded model
    signatures: tuple[str | None, str | None]
    unsaved: Unsaved
    chunks: Page
    chunk_snapshot: bool = True


def snapshot_request(mn: Mindnet) -> SnapshotRequest | None:
    """What the snapshots of `mn` owe the index (None: nothing), taken on its thread; the
    caller reports the write with `mn.state.written(ok)`."""
    taken = mn.state.take_unsaved()
    if taken is None:
        return None
    signatures, unsaved = taken
    try:
        local = mn.store.server is None
        live = sorted(n for n, record in unsaved.changed.items() if record is not None)
        wanted = local and unsaved.since is not None and live
        chunks = mn.store.chunks_of_notes(live) if wanted else EMPTY_PAGE
    except BaseException:
        mn.state.written(False)
        raise
    return SnapshotRequest(mn.vault, mn.data_dir, mn.embedder, signatures, unsaved, chunks, local)


class _Chunks:
    """The chunk source of `update_chunk_snapshot`: the chunks the parent sent for the changed
    notes; Chroma (opened read-only when first needed) for all of them."""

    server = None

    def __init__(self, request: SnapshotRequest) -> None:
        self.request = request
        self._store: ChromaStore | None = None

    def store(self) -> ChromaStore:
        if self._store is None:
            from mindnet_desktop.core.store.chroma import ChromaStore

            self._store = ChromaStore(self.request.data_dir, self.request.embedder, False)
        return self._store

    def chunks_of_notes(self, note_ids: list[str]) -> Page:
        ids, metas, documents, vectors = self.request.chunks
        wanted = set(note_ids)
        rows = [i for i, meta in enumerate(metas) if meta["note_id"] in wanted]
        return (
            [ids[i] for i in rows],
            [metas[i] for i in rows],
            [documents[i] for i in rows],
            [vectors[i] for i in rows],
        )

    def chunk_pages(self) -> Any:
        return self.store().chunk_pages()

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


def write_snapshots(request: SnapshotRequest) -> bool:
    """Bring the snapshots in step with `request` (what the child runs); whether it did
    (False: the manifest moved on meanwhile; the next request writes them)."""
    from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
    from mindnet_desktop.core.graph.note_index import write_note_index
    from mindnet_desktop.core.graph.snapshot import Snapshots
    from mindnet_desktop.core.store.chunk_snapshot import update_chunk_snapshot
    from mindnet_desktop.core.store.overlay import EdgeOverlay

    snapshots = Snapshots(request.data_dir)
    if snapshots.signatures() != request.signatures:
        return False
    unsaved, (records_signature, graph_signature) = request.unsaved, request.signatures
    chunks = _Chunks(request)
    try:
        old = snapshots.load_records(unsaved.since) if unsaved.since is not None else None
        records = unsaved.patch(old) if old is not None else None
        if records is None:  # not followed by the changes: read from the store
            records = chunks.store().note_records()
            unsaved = Unsaved(None)
        graph = KnowledgeGraph.from_records(records.values(), EdgeOverlay(request.data_dir))
        if snapshots.signatures() != request.signatures:
            return False  # an import or an edge moved on while these were read
        if request.chunk_snapshot:
            name, changed = request.embedder.name, set(unsaved.changed)
            since = unsaved.since
            update_chunk_snapshot(request.data_dir, chunks, since, records_signature, name, changed)
        snapshots.save_records(records, records_signature)
        snapshots.save_graph(graph, graph_signature)
        write_note_index(request.data_dir, records, graph, graph_signature)
    finally:
        chunks.close()
    return True


def write_in_child(request: SnapshotRequest) -> bool:
    """`write_snapshots(request)` in a child process (waits for it); in this process when
    there is no interpreter to start (a frozen app)."""
    if getattr(sys, "frozen", False):
        return write_snapshots(request)
    package_root = str(Path(__file__).resolve().parents[4])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (package_root, env.get("PYTHONPATH"))))
    process = subprocess.Popen(
        [sys.executable, "-m", __name__], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
    )
    try:
        send_frame(process.stdin, request)
        process.stdin.close()  # type: ignore[union-attr]
        try:
            kind, payload = receive_frame(process.stdout)
        except (EOFError, OSError):
            process.wait()
            raise SnapshotChildError(
                f"The snapshot process stopped unexpectedly (exit code {process.returncode})."
            ) from None
    finally:
        with contextlib.suppress(OSError):
            process.stdout.close()  # type: ignore[union-attr]
        process.wait()
    if kind != "done":
        raise SnapshotChildError(payload)
    return bool(payload)


def serve(inbox: Any, outbox: Any) -> None:
    """The child: read the request, write the snapshots, say whether it did."""
    reply: tuple[str, Any]
    try:
        reply = ("done", write_snapshots(receive_frame(inbox)))
    except Exception as exc:  # the parent raises it as a SnapshotChildError
        traceback.print_exc()
        reply = ("error", f"Saving the snapshots failed: {type(exc).__name__}: {exc}")
    with contextlib.suppress(OSError):
        send_frame(outbox, reply)


if __name__ == "__main__":
    run_child(serve, CHILD_NICENESS)
