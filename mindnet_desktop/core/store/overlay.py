"""The edge overlay: what the user did to edges that no note records.

It holds user-created edges (read-only-vault mode), tombstones of soft-deleted edges (by edge
id and dedup key, so a deletion survives re-imports and restarts) and an append-only audit log
of create / delete / restore events. Files in the data dir: `overlay.json` (written
atomically) and `audit.jsonl`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mindnet_desktop.core.domain import Edge
from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.files import atomic_writer

OVERLAY_SCHEMA = 1


class OverlayError(MindnetError, RuntimeError):
    """The overlay file cannot be read; it is never silently replaced."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Tombstone:
    edge_id: str
    dedup_key: tuple[str, ...]
    deleted_at: str
    link_key: tuple[str, ...] | None = None


def link_key(edge: Edge, occurrence: int = 0) -> tuple[str, ...] | None:
    """The relation a link states, wherever in its note it stands: (note, kind, link, rule,
    which occurrence of that link in the note). A deletion keyed on it survives edits that
    move the link to another chunk, and deleting one copy of a link leaves the others."""
    if edge.provenance not in ("explicit", "rule"):
        return None
    return (edge.note_id, edge.kind, edge.target_ref.casefold(), edge.rule_id, str(occurrence))


def occurrences(edges: list[Edge]) -> dict[str, int]:
    """Edge id -> how many edges of the same link came before it in its note's edges."""
    seen: dict[tuple[str, ...], int] = {}
    result = {}
    for edge in edges:
        key = (edge.note_id, edge.kind, edge.target_ref.casefold(), edge.rule_id)
        result[edge.id] = seen.get(key, 0)
        seen[key] = result[edge.id] + 1
    return result


class EdgeOverlay:
    """User edges, tombstones and the audit log of one data dir."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "overlay.json"
        self.audit_path = data_dir / "audit.jsonl"
        self.user_edges: dict[str, Edge] = {}
        self.tombstones: dict[str, Tombstone] = {}
        self._by_key: dict[tuple[str, ...], Tombstone] = {}
        self._by_link: dict[tuple[str, ...], Tombstone] = {}
        self._load()

    def _load(self) -> None:
        if not self.path.is_file():
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("schema") != OVERLAY_SCHEMA:
                raise ValueError(f"schema {data.get('schema')!r}, expected {OVERLAY_SCHEMA}")
            for raw in data.get("user_edges", []):
                edge = Edge.from_dict(raw)
                self.user_edges[edge.id] = edge
            for raw in data.get("tombstones", []):
                link = raw.get("link_key")
                stone = Tombstone(
                    raw["edge_id"],
                    tuple(raw["dedup_key"]),
                    raw["deleted_at"],
                    tuple(link) if link else None,
                )
                self._index(stone)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise OverlayError(
                f"The edge overlay {self.path} cannot be read ({exc}). It holds your own edges "
                "and deletions, so it is left as it is: repair or move it away, then retry."
            ) from exc

    def _save(self) -> None:
        data = {
            "schema": OVERLAY_SCHEMA,
            "user_edges": [e.to_dict() for e in self.user_edges.values()],
            "tombstones": [
                {
                    "edge_id": t.edge_id,
                    "dedup_key": list(t.dedup_key),
                    "deleted_at": t.deleted_at,
                    "link_key": list(t.link_key) if t.link_key else None,
                }
                for t in self.tombstones.values()
            ],
        }
        with atomic_writer(self.path, text=True) as handle:
            json.dump(data, handle, ensure_ascii=False, indent=1)

    def _index(self, stone: Tombstone) -> None:
        self.tombstones[stone.edge_id] = stone
        self._by_key[stone.dedup_key] = stone
        if stone.link_key:
            self._by_link[stone.link_key] = stone

    def tombstone(self, edge: Edge, occurrence: int = 0) -> Tombstone | None:
        """The tombstone deleting `edge`, if any: links by their link key, other edges
        (structure, user) by id or dedup key."""
        if not self.tombstones:
            return None
        key = link_key(edge, occurrence)
        if key is not None:
            # A link's edge id and dedup key name its chunk; after an edit another copy of
            # the link can sit in that chunk, so only the link key identifies it.
            return self._by_link.get(key)
        return self.tombstones.get(edge.id) or self._by_key.get(tuple(edge.dedup_key))

    def with_tombstones(
        self, edge_lists: Iterable[list[Edge]]
    ) -> list[tuple[Edge, Tombstone | None]]:
        """Every edge of the notes' `edge_lists` and the user's, with the tombstone that
        deletes it (None while active)."""
        pairs: list[tuple[Edge, Tombstone | None]] = []
        for edges in edge_lists:
            seen = occurrences(edges) if self.tombstones else {}
            pairs += [(e, self.tombstone(e, seen.get(e.id, 0))) for e in edges]
        pairs += [(e, self.tombstone(e)) for e in self.user_edges.values()]
        return pairs

    def delete(self, edge: Edge, occurrence: int = 0) -> Tombstone:
        key = link_key(edge, occurrence)
        self._index(Tombstone(edge.id, tuple(edge.dedup_key), now_iso(), key))
        stone = self.tombstones[edge.id]
        self._save()
        self.audit("delete", edge)
        return stone

    def restore(self, edge: Edge, occurrence: int = 0) -> None:
        stone = self.tombstone(edge, occurrence)
        if stone is not None:
            self.tombstones.pop(stone.edge_id, None)
            self._by_key.pop(stone.dedup_key, None)
            if stone.link_key:
                self._by_link.pop(stone.link_key, None)
        self._save()
        self.audit("restore", edge)

    def rename_note(self, old: str, new: str) -> None:
        """Carry deletions and the user's edges over to a note's new id after a rename."""

        def node(node_id: str) -> str:
            head, sep, tail = node_id.rpartition("#")
            if node_id == old:
                return new
            return f"{new}#{tail}" if sep and head == old and tail.isdigit() else node_id

        changed = False
        for stone in list(self.tombstones.values()):
            link = stone.link_key
            if (link and link[0] == old) or any(node(part) != part for part in stone.dedup_key):
                self.tombstones.pop(stone.edge_id)
                self._by_key.pop(stone.dedup_key, None)
                if link:
                    self._by_link.pop(link, None)
                new_link = (new, *link[1:]) if link and link[0] == old else link
                self._index(
                    replace(
                        stone, dedup_key=tuple(node(p) for p in stone.dedup_key), link_key=new_link
                    )
                )
                changed = True
        for edge_id, edge in list(self.user_edges.items()):
            moved = replace(
                edge,
                source_id=node(edge.source_id),
                target_id=node(edge.target_id),
                note_id=node(edge.note_id),
                target_note_id=node(edge.target_note_id) if edge.target_note_id else None,
                target_ref=node(edge.target_ref),
            )
            if moved != edge:
                del self.user_edges[edge_id]
                self.user_edges[moved.id] = moved
                changed = True
        if changed:
            self._save()

    def add_user_edge(self, edge: Edge) -> None:
        self.user_edges[edge.id] = edge
        self._save()
        self.audit("create", edge, stored="overlay")

    def audit(self, event: str, edge: Edge, **extra: Any) -> None:
        """Append one event (`create`, `delete`, `restore`) to the audit log."""
        entry = {
            "time": now_iso(),
            "event": event,
            "edge_id": edge.id,
            "kind": edge.kind,
            "source_id": edge.source_id,
            "target_id": edge.target_id,
            "note_id": edge.note_id,
            "provenance": edge.provenance,
            **extra,
        }
        self.audit_path.parent.mkdir(parents=True, exist_ok=True)
        with self.audit_path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def audit_log(self) -> list[dict[str, Any]]:
        if not self.audit_path.is_file():
            return []
        lines = self.audit_path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]
