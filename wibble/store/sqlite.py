"""Games in a SQLite file: the default store, for one server process.

One connection, in WAL mode with ``synchronous=NORMAL``: a commit is a write into
the WAL file with no fsync, so it survives the process being killed (SIGKILL, a
crash) and costs tens of microseconds; only a power cut can lose the last commits.
Commits run inline on the caller's greenlet: at these costs a thread with group
commit would add a hand-off per move and save nothing (docs/benchmarks.md).

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS[n]`` takes a
database from version ``n`` to ``n + 1``, each in its own transaction.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..core import GameDataError
from .base import Doc, GameRow, StorageError, StoreOpenError, VersionConflict
from .memory import MemoryStore

log = logging.getLogger(__name__)

FILE_NAME = "wibble.db"

_T = TypeVar("_T")

MIGRATIONS: list[str] = [
    # 1: games as documents (with the version kept beside them for compare-and-set),
    #    and each game's committed moves, which make its record.
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        token_hash BLOB NOT NULL,
        version INTEGER NOT NULL,
        doc TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        move TEXT NOT NULL,
        PRIMARY KEY (game_id, version)
    ) WITHOUT ROWID;
    """,
    # 2: the retention sweep finds old games by an index instead of reading every row.
    """
    CREATE INDEX games_by_updated ON games(updated);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)

# How long a write waits for a lock held by another process. Short: a commit runs
# on the event loop, and every player waits while it does.
BUSY_TIMEOUT_MS = 200
START_BUSY_TIMEOUT_MS = 2000


def _dump(doc: Doc) -> str:
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def _reason(exc: sqlite3.Error) -> str:
    return str(exc) or type(exc).__name__


class SqliteStore:
    """Games in ``path`` (a SQLite database, created if missing)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.description = f"SQLite at {self.path}"
        try:
            self._db = sqlite3.connect(
                self.path,
                isolation_level=None,
                check_same_thread=False,
                timeout=START_BUSY_TIMEOUT_MS / 1000,
            )
        except sqlite3.Error as exc:
            raise StoreOpenError(_start_problem(self.path, exc)) from None
        try:
            self._start()
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreOpenError(_start_problem(self.path, exc)) from None
        except StoreOpenError:
            self._db.close()
            raise

    def _start(self) -> None:
        db = self._db
        found = db.execute("PRAGMA user_version").fetchone()[0]
        if found > SCHEMA_VERSION:
            raise StoreOpenError(
                f"the database {self.path} was written by a newer Wibble (schema {found}; "
                f"this one knows up to {SCHEMA_VERSION}): upgrade Wibble, or use another --data-dir"
            )
        if db.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() != "wal":
            raise StoreOpenError(f"the database {self.path} cannot use a write-ahead log")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        migrate(db, SCHEMA_VERSION)
        # A write now, not at the first player's move: a read-only file, a full disk or
        # a lock held by another process is found at start-up, with a clear message.
        db.execute("BEGIN IMMEDIATE")
        db.execute(f"PRAGMA user_version = {int(SCHEMA_VERSION)}")
        db.execute("COMMIT")
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    # -- the Store interface -----------------------------------------------------------

    def create(self, game_id: str, token_hash: bytes, doc: Doc, now: float) -> None:
        self._write(
            lambda db: db.execute(
                "INSERT INTO games (id, token_hash, version, doc, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, token_hash, doc["version"], _dump(doc), now, now),
            )
        )

    def load(self, game_id: str) -> GameRow | None:
        try:
            row = self._db.execute(
                "SELECT token_hash, doc, created, updated FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        except sqlite3.Error as exc:
            raise StorageError(_reason(exc)) from None
        if row is None:
            return None
        token_hash, text, created, updated = row
        try:
            doc = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise GameDataError(f"its stored document is not JSON ({exc})") from None
        if not isinstance(doc, dict) or not isinstance(token_hash, bytes):
            raise GameDataError("its stored row is damaged")
        return GameRow(game_id, token_hash, doc, created, updated)

    def commit(self, game_id: str, expected: int, doc: Doc, move: Doc, now: float) -> None:
        def write(db: sqlite3.Connection) -> None:
            cursor = db.execute(
                "UPDATE games SET version = ?, doc = ?, updated = ? WHERE id = ? AND version = ?",
                (doc["version"], _dump(doc), now, game_id, expected),
            )
            if cursor.rowcount != 1:
                raise VersionConflict(game_id, expected)
            db.execute(
                "INSERT INTO moves (game_id, version, move) VALUES (?, ?, ?)",
                (game_id, doc["version"], _dump(move)),
            )

        self._write(write)

    def touch(self, game_id: str, now: float) -> None:
        self._write(lambda db: db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id)))

    def moves(self, game_id: str) -> list[Doc]:
        try:
            rows = self._db.execute(
                "SELECT move FROM moves WHERE game_id = ? ORDER BY version", (game_id,)
            ).fetchall()
            return [json.loads(text) for (text,) in rows]
        except sqlite3.Error as exc:
            raise StorageError(_reason(exc)) from None
        except ValueError as exc:
            raise GameDataError(f"a stored move is not JSON ({exc})") from None

    def delete(self, game_id: str) -> None:
        self._write(lambda db: db.execute("DELETE FROM games WHERE id = ?", (game_id,)))

    def purge(self, before: float, limit: int, prefix: str = "") -> int:
        # A range on the primary key rather than LIKE: "room:" to "room;" is every id with that prefix.
        high = prefix[:-1] + chr(ord(prefix[-1]) + 1) if prefix else None

        def delete(db: sqlite3.Connection) -> int:
            args: tuple[object, ...]
            if high is None:
                where, args = "updated < ?", (before, limit)
            else:
                where, args = "updated < ? AND id >= ? AND id < ?", (before, prefix, high, limit)
            cursor = db.execute(
                f"DELETE FROM games WHERE id IN (SELECT id FROM games WHERE {where} LIMIT ?)", args
            )
            return cursor.rowcount

        return self._write(delete)

    def count(self) -> int:
        try:
            return int(self._db.execute("SELECT count(*) FROM games").fetchone()[0])
        except sqlite3.Error as exc:
            raise StorageError(_reason(exc)) from None

    def close(self) -> None:
        try:
            self._db.execute("PRAGMA optimize")
        except sqlite3.Error:
            pass
        self._db.close()

    # -- helpers ----------------------------------------------------------------------

    def _write(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` in one transaction: all of it is written, or none of it."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StorageError(_reason(exc)) from None
        try:
            result = work(db)
            db.execute("COMMIT")
        except BaseException as exc:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite may have rolled back already (a full disk does)
            if isinstance(exc, sqlite3.Error):
                if isinstance(exc, sqlite3.IntegrityError):
                    raise StorageError(f"refused by the database: {_reason(exc)}") from None
                raise StorageError(_reason(exc)) from None
            raise
        return result


def migrate(db: sqlite3.Connection, target: int) -> None:
    """Bring the schema up to ``target``, one migration per transaction."""
    while (current := db.execute("PRAGMA user_version").fetchone()[0]) < target:
        db.execute("BEGIN IMMEDIATE")
        try:
            # Read again under the write lock: another process may have migrated meanwhile.
            current = db.execute("PRAGMA user_version").fetchone()[0]
            if current < target:
                for statement in MIGRATIONS[current].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {int(current) + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        if current < target:
            log.info("database schema upgraded to version %d", current + 1)


def _read_only(path: Path) -> bool:
    """True if the database (or, before it exists, its folder) cannot be written."""
    target = path if path.exists() else path.parent
    try:
        if os.statvfs(target).f_flag & os.ST_RDONLY:
            return True
    except OSError:
        return False
    return not os.access(target, os.W_OK)


def _start_problem(path: Path, exc: sqlite3.Error) -> str:
    reason = _reason(exc)
    lowered = reason.lower()
    if "locked" in lowered or "busy" in lowered:
        return f"the database {path} is locked by another process (is another server using it?)"
    if "readonly" in lowered or "read-only" in lowered or _read_only(path):
        return f"the database {path} is read-only: give the server write access, or use another --data-dir"
    if "full" in lowered:
        return f"the disk holding {path} is full: free some space, or use another --data-dir"
    if "not a database" in lowered or "malformed" in lowered:
        return f"{path} is not a Wibble database, or it is damaged ({reason})"
    return f"cannot use the database {path}: {reason}"


def open_store(data_dir: str | Path | None) -> SqliteStore | MemoryStore:
    """The store for a data folder: SQLite in it (created if missing), or memory only for ``""``."""
    if data_dir is None or str(data_dir) == "":
        return MemoryStore()
    folder = Path(data_dir).expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreOpenError(f"cannot create the data folder {folder}: {exc.strerror or exc}") from None
    return SqliteStore(folder / FILE_NAME)


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/wibble``, else ``~/.local/share/wibble``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "wibble"
