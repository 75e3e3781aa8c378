"""Copying every document, with its record, from one store to another (``wibble copy``).

A host moving from one process with SQLite to several with Redis copies their data
first, and back again if they return. A document whose id the destination already has
is left as it was there (counted, never overwritten), so a copy can be run again after
an interruption.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .base import AlreadyExists, Store


@dataclass
class Copied:
    kinds: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    skipped: int = 0
    """Documents the destination already had (left as they were)."""

    def __str__(self) -> str:
        total = sum(self.kinds.values())
        parts = ", ".join(
            f"{n} {kind if n == 1 else _PLURALS.get(kind, kind + 's')}"
            for kind, n in sorted(self.kinds.items())
        )
        text = f"copied {total} document{'' if total == 1 else 's'}" + (f" ({parts})" if parts else "")
        text += f" and {self.moves} recorded move{'' if self.moves == 1 else 's'}"
        if self.skipped:
            text += f"; {self.skipped} already there, left as they were"
        return text


_PLURALS = {"match": "matches", "daily": "dailies"}


def copy_documents(source: Store, destination: Store) -> Copied:
    copied = Copied()
    for row, moves in source.export():
        try:
            destination.import_row(row, moves)
        except AlreadyExists:
            copied.skipped += 1
            continue
        copied.kinds[row.kind] += 1
        copied.moves += len(moves)
    return copied
