"""Copying every document, with its record, from one store to another (``wibble copy``).

A host moving from one process with SQLite to several with Redis copies their data
first, and back again if they return. A copy can be run again, after an interruption or
after the source played on: a document the destination already has is

- left as it is when it is the same (the same version and content);
- replaced when the destination's is an earlier state of the source's (a lower version, its
  record the start of the source's): the source played on since the last copy, and those
  moves must not be lost. Only a game's or a match's record says what each move was; a room's,
  a race's or a daily board's records only that something changed, so two histories of those
  cannot be told apart, and such a document is named and left instead;
- left as it is, and named, when the two went different ways (the destination played on
  since the copy, or both did): no copy can tell which moves to keep, so the host decides.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .base import AlreadyExists, Doc, Row, Store

SHOWN = 10
"""Documents named in the report when some could not be copied (their ids; the rest counted)."""


@dataclass
class Copied:
    kinds: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    skipped: int = 0
    """Documents the destination already had, the same (left as they were)."""
    replaced: int = 0
    """Documents the destination had at an earlier state: replaced by the source's (counted in ``kinds``)."""
    differing: list[str] = field(default_factory=list)
    """Documents the destination had otherwise (newer there, or gone its own way): left, by id."""

    def __str__(self) -> str:
        total = sum(self.kinds.values())
        parts = ", ".join(
            f"{n} {kind if n == 1 else _PLURALS.get(kind, kind + 's')}"
            for kind, n in sorted(self.kinds.items())
        )
        text = f"copied {total} document{'' if total == 1 else 's'}" + (f" ({parts})" if parts else "")
        text += f" and {self.moves} recorded move{'' if self.moves == 1 else 's'}"
        if self.replaced:
            text += f"; {self.replaced} of them replaced an earlier copy there"
        if self.skipped:
            text += f"; {self.skipped} already there, the same, left as they were"
        if self.differing:
            shown = ", ".join(self.differing[:SHOWN]) + (", ..." if len(self.differing) > SHOWN else "")
            text += (
                f"; {len(self.differing)} NOT copied: the destination's differs, played on there since"
                f" an earlier copy (left as it is there; delete it there to copy the source's): {shown}"
            )
        return text


_PLURALS = {"match": "matches", "daily": "dailies"}
_RECORDED = frozenset({"game", "match"})
"""Kinds whose record holds each move whole, so that an earlier state's record is the start of a later's."""


def copy_documents(source: Store, destination: Store) -> Copied:
    copied = Copied()
    for row, moves in source.export():
        try:
            destination.import_row(row, moves)
        except AlreadyExists:
            there = destination.load(row.doc_id)
            if there is None:  # deleted there meanwhile: copy it after all
                try:
                    destination.import_row(row, moves)
                except AlreadyExists:  # and made again meanwhile: someone plays there
                    copied.differing.append(row.doc_id)
                    continue
            elif there.doc == row.doc:
                copied.skipped += 1
                continue
            elif _earlier(there, destination.moves(row.doc_id), row, moves):
                destination.delete(row.doc_id)
                destination.import_row(row, moves)
                copied.replaced += 1
            else:
                copied.differing.append(row.doc_id)
                continue
        copied.kinds[row.kind] += 1
        copied.moves += len(moves)
    return copied


def _earlier(there: Row, there_moves: list[Doc], row: Row, moves: list[Doc]) -> bool:
    """Whether ``there`` (with its record) is an earlier state of ``row``: the same document (made
    at the same moment: another with the same id, a room's code drawn twice, was not), at a lower
    version, every move it recorded the same as the source's, in the same order."""
    version, source_version = there.doc.get("version"), row.doc.get("version")
    if not isinstance(version, int) or not isinstance(source_version, int) or version >= source_version:
        return False
    if there.created != row.created or there.kind != row.kind or row.kind not in _RECORDED:
        return False
    return len(there_moves) <= len(moves) and there_moves == moves[: len(there_moves)]
