"""Games in this process's memory only (``--data-dir ""``): the same rules as on disk, nothing survives.

Documents are kept as JSON text, as a database would keep them, so a caller can
never change a stored game by changing a dict it still holds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .base import Doc, GameRow, VersionConflict


@dataclass
class _Entry:
    token_hash: bytes
    version: int
    doc: str
    created: float
    updated: float
    moves: list[str] = field(default_factory=list)


class MemoryStore:
    description = "memory only (games are lost when the server stops)"

    def __init__(self) -> None:
        self._games: dict[str, _Entry] = {}

    def create(self, game_id: str, token_hash: bytes, doc: Doc, now: float) -> None:
        self._games[game_id] = _Entry(token_hash, doc["version"], json.dumps(doc), now, now)

    def load(self, game_id: str) -> GameRow | None:
        entry = self._games.get(game_id)
        if entry is None:
            return None
        return GameRow(game_id, entry.token_hash, json.loads(entry.doc), entry.created, entry.updated)

    def commit(self, game_id: str, expected: int, doc: Doc, move: Doc, now: float) -> None:
        entry = self._games.get(game_id)
        if entry is None or entry.version != expected:
            raise VersionConflict(game_id, expected)
        entry.version, entry.doc, entry.updated = doc["version"], json.dumps(doc), now
        entry.moves.append(json.dumps(move))

    def touch(self, game_id: str, now: float) -> None:
        entry = self._games.get(game_id)
        if entry is not None:
            entry.updated = now

    def moves(self, game_id: str) -> list[Doc]:
        entry = self._games.get(game_id)
        return [] if entry is None else [json.loads(text) for text in entry.moves]

    def delete(self, game_id: str) -> None:
        self._games.pop(game_id, None)

    def purge(self, before: float, limit: int, prefix: str = "") -> int:
        old = [
            gid for gid, entry in self._games.items() if entry.updated < before and gid.startswith(prefix)
        ][:limit]
        for gid in old:
            del self._games[gid]
        return len(old)

    def count(self) -> int:
        return len(self._games)

    def close(self) -> None:
        pass
