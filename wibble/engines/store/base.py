"""The interface every store engine offers, and the errors it raises."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final, Protocol

from ...core import WibbleError

Doc = dict[str, Any]


class StorageError(WibbleError):
    """A read or write failed (disk full, database locked or read-only, file damaged).

    Nothing was changed: a failed commit leaves the stored game as it was.
    """

    def __init__(self, reason: str) -> None:
        # (Said of reads too: a resume or a join while the store is away. Nothing changed either way.)
        super().__init__(
            "server/storage", "the server could not reach its saved games; nothing changed, try again"
        )
        self.reason = reason


class VersionConflict(WibbleError):
    """A commit expected the game at one version, but the store holds another: someone else wrote first."""

    def __init__(self, game_id: str, expected: int) -> None:
        super().__init__(
            "game/conflict", "the game changed elsewhere while you moved; it is shown as it stands now"
        )
        self.game_id = game_id
        self.expected = expected


class Gone(WibbleError):
    """A document held in memory is no longer in the store (a Redis restarted empty, say): it cannot
    be saved again, and the player is told so rather than that it changed elsewhere."""

    def __init__(self, kind: str, doc_id: str) -> None:
        super().__init__(
            "game/gone",
            f"the server no longer has this {kind} (its storage lost it); start a new one",
        )
        self.doc_id = doc_id


class AlreadyExists(WibbleError):
    """A document was created under an id that another already has: nothing was written."""

    def __init__(self, doc_id: str) -> None:
        super().__init__("server/busy", "the server could not start that; try again")
        self.doc_id = doc_id


class Keep(enum.Enum):
    KEEP = "keep"
    """A commit's ``due`` when the change left the document's next deadline where it was."""


KEEP: Final = Keep.KEEP

Due = float | None | Keep
"""A document's next deadline as a commit gives it: a time, None (none), or ``KEEP``."""


class StoreOpenError(Exception):
    """The store cannot be used at all (start-up); the message is one line for the host."""


KINDS = ("game", "match", "room", "daily", "race")
"""The kinds of document a store holds ("daily": a day's leaderboard; "race": a room's race)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One stored document: its kind, the document itself, and when it was made and last touched.

    Whatever secrets a document has (its seats' token hashes) are inside it, for the layer
    that knows what they mean: a store knows ids, kinds, versions and times only."""

    doc_id: str
    kind: str
    doc: Doc
    created: float
    updated: float
    due: float | None = None
    """The document's next deadline (a turn's end, a grace period's), if it has one."""


class Store(Protocol):
    """What the live layer needs of a store. Times are seconds since the epoch, passed in by the caller."""

    engine: str
    """Which engine ("sqlite", "memory"): what /healthz tells anyone who asks."""
    description: str
    """Where the documents are, for the host's own eyes ("SQLite at ~/.local/share/wibble/wibble.db")."""

    def create(self, doc_id: str, kind: str, doc: Doc, now: float, due: float | None = None) -> None:
        """Save a new document (at ``doc["version"]``) of ``kind`` (one of ``KINDS``), only if no
        document has that id: else ``AlreadyExists``, and nothing was written. ``due``: its next
        deadline, kept in an index that ``overdue`` reads."""

    def load(self, doc_id: str) -> Row | None:
        """The stored document, or None if there is none. A damaged row raises ``GameDataError``."""

    def commit(self, doc_id: str, expected: int, doc: Doc, move: Doc, now: float, due: Due = KEEP) -> None:
        """Replace the document if the stored one is at version ``expected``, and append ``move``;
        ``due`` is its next deadline from now on (``KEEP``: the one it had).

        Both or neither: raises ``VersionConflict`` (someone else wrote first) or
        ``StorageError``, and then nothing was written.
        """

    def touch(self, doc_id: str, now: float) -> None:
        """Note that the document was opened (it is kept ``retention`` from the last touch)."""

    def moves(self, doc_id: str) -> list[Doc]:
        """The document's committed moves (its record), oldest first."""

    def delete(self, doc_id: str) -> None:
        """Delete one document and its moves (a room that stood empty); nothing if there is none."""

    def purge(self, before: float, limit: int, prefix: str = "") -> int:
        """Delete up to ``limit`` documents whose id starts with ``prefix`` and that were last
        touched before ``before``; returns how many."""

    def overdue(self, before: float, limit: int) -> list[tuple[str, str]]:
        """Up to ``limit`` documents whose next deadline is before ``before``, earliest first, as
        (id, kind): deadlines that no process in memory handled (it died, or restarted), for any
        process to load and handle. A deleted document has none."""

    def version(self, doc_id: str) -> int | None:
        """The stored document's version (None: there is none), without reading the document: how a
        process asks cheaply whether its copy is behind."""

    def count(self) -> int:
        """How many documents are stored."""

    def export(self) -> Iterator[tuple[Row, list[Doc]]]:
        """Every stored document with its record (``wibble copy``), in no particular order."""

    def import_row(self, row: Row, moves: list[Doc]) -> None:
        """Store ``row`` and its record exactly (times included), only if its id is free: else
        ``AlreadyExists``, and nothing was written."""

    def close(self) -> None:
        """Finish writing and let go of files."""
