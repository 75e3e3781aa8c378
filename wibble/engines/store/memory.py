"""Documents in this process's memory only (``--data-dir ""``): the same rules as on disk, nothing survives.

Documents are kept as JSON text, as a database would keep them, so a caller can
never change a stored game by changing a dict it still holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from ... import codec
from .base import KEEP, AlreadyExists, Doc, Due, Row, VersionConflict


@dataclass
class _Entry:
    kind: str
    version: int
    doc: str
    created: float
    updated: float
    due: float | None = None
    moves: list[str] = field(default_factory=list)


class MemoryStore:
    engine = "memory"
    description = "memory only (everything is lost when the server stops)"

    def __init__(self) -> None:
        self._docs: dict[str, _Entry] = {}

    def create(self, doc_id: str, kind: str, doc: Doc, now: float, due: float | None = None) -> None:
        if doc_id in self._docs:
            raise AlreadyExists(doc_id)
        self._docs[doc_id] = _Entry(kind, doc["version"], codec.dumps(doc), now, now, due)

    def load(self, doc_id: str) -> Row | None:
        entry = self._docs.get(doc_id)
        if entry is None:
            return None
        return Row(doc_id, entry.kind, codec.loads(entry.doc), entry.created, entry.updated, entry.due)

    def commit(self, doc_id: str, expected: int, doc: Doc, move: Doc, now: float, due: Due = KEEP) -> None:
        entry = self._docs.get(doc_id)
        if entry is None or entry.version != expected:
            raise VersionConflict(doc_id, expected)
        entry.version, entry.doc, entry.updated = doc["version"], codec.dumps(doc), now
        if due is not KEEP:
            entry.due = due
        entry.moves.append(codec.dumps(move))

    def touch(self, doc_id: str, now: float) -> None:
        entry = self._docs.get(doc_id)
        if entry is not None:
            entry.updated = now

    def moves(self, doc_id: str) -> list[Doc]:
        entry = self._docs.get(doc_id)
        return [] if entry is None else [codec.loads(text) for text in entry.moves]

    def delete(self, doc_id: str) -> None:
        self._docs.pop(doc_id, None)

    def purge(self, before: float, limit: int, prefix: str = "") -> int:
        old = [gid for gid, entry in self._docs.items() if entry.updated < before and gid.startswith(prefix)][
            :limit
        ]
        for gid in old:
            del self._docs[gid]
        return len(old)

    def overdue(self, before: float, limit: int) -> list[tuple[str, str]]:
        due = [
            (e.due, doc_id, e.kind)
            for doc_id, e in self._docs.items()
            if e.due is not None and e.due < before
        ]
        return [(doc_id, kind) for _, doc_id, kind in sorted(due)[:limit]]

    def version(self, doc_id: str) -> int | None:
        entry = self._docs.get(doc_id)
        return None if entry is None else entry.version

    def count(self) -> int:
        return len(self._docs)

    def export(self) -> Iterator[tuple[Row, list[Doc]]]:
        for doc_id in list(self._docs):
            row = self.load(doc_id)
            if row is not None:
                yield row, self.moves(doc_id)

    def import_row(self, row: Row, moves: list[Doc]) -> None:
        if row.doc_id in self._docs:
            raise AlreadyExists(row.doc_id)
        entry = _Entry(row.kind, row.doc["version"], codec.dumps(row.doc), row.created, row.updated, row.due)
        entry.moves = [codec.dumps(move) for move in moves]
        self._docs[row.doc_id] = entry

    def close(self) -> None:
        pass
