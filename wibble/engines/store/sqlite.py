"""Documents in a SQLite file: the default store, for one server process.

One connection, in WAL mode with ``synchronous=NORMAL``: a commit is a write into
the WAL file with no fsync, so it survives the process being killed (SIGKILL, a
crash) and costs tens of microseconds; only a power cut can lose the last commits.
Commits run inline on the caller's greenlet: at these costs a thread with group
commit would add a hand-off per move and save nothing (docs/benchmarks-log.md,
"Commit latency per word, inline or on a thread").

Another process may hold the write lock (a backup script, a ``sqlite3`` shell in a
transaction). SQLite's busy timeout would wait for it inside the call, and on the
event loop every player would wait with it. So the connection never waits inside
SQLite (``busy_timeout = 0``): an access that finds the file busy is tried again
after a pause taken with ``time.sleep``, which under gevent's monkey-patching yields
to the loop, so only the caller waits; in a plain thread it waits as SQLite's own
busy handler would. After ``BUSY_TIMEOUT_MS`` it gives up (``StorageError``).

Checkpoints, where ``synchronous=NORMAL``'s fsyncs are: SQLite copies the WAL back into
the database inside whichever commit takes the WAL past 1,000 pages, 3-9 ms on the event
loop with every player waiting. A server hands them to a native thread instead
(``defer_checkpoints``, then ``checkpoint`` on that thread, as ``wibble serve`` does);
anything else that opens the store (``wibble copy``, scripts, tests) keeps SQLite's own.

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS[n]`` takes a
database from version ``n`` to ``n + 1``, each in its own transaction.
"""

from __future__ import annotations

import fcntl
import itertools
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from ... import codec
from ...core import GameDataError
from .base import KEEP, KINDS, AlreadyExists, Doc, Due, Row, StorageError, StoreOpenError, VersionConflict
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
    # 3: games, matches and rooms are documents of a kind; a game's token hash moves into its
    #    document (as a match's seats' already are), so the row holds no secret of its own.
    """
    CREATE TABLE documents (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        version INTEGER NOT NULL,
        doc TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO documents (id, kind, version, doc, created, updated)
        SELECT id,
            CASE WHEN NOT json_valid(doc) THEN 'game'
                 WHEN json_extract(doc, '$.kind') IN ('match', 'room') THEN json_extract(doc, '$.kind')
                 ELSE 'game' END,
            version,
            CASE WHEN json_valid(doc) AND json_type(doc) = 'object'
                      AND coalesce(json_extract(doc, '$.kind'), '') NOT IN ('match', 'room')
                      AND typeof(token_hash) = 'blob'
                 THEN json_set(doc, '$.tokens', json_array(lower(hex(token_hash))))
                 ELSE doc END,
            created, updated
        FROM games;
    CREATE TABLE records (
        doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        move TEXT NOT NULL,
        PRIMARY KEY (doc_id, version)
    ) WITHOUT ROWID;
    INSERT INTO records (doc_id, version, move) SELECT game_id, version, move FROM moves;
    DROP TABLE moves;
    DROP TABLE games;
    CREATE INDEX documents_by_updated ON documents(updated);
    """,
    # 4: each document's next deadline beside it, indexed, so that deadlines nobody in memory
    #    handles (after a restart) are found without reading every document. Documents saved
    #    before have none here until their next commit: they are picked up when opened, as before.
    """
    ALTER TABLE documents ADD COLUMN due REAL;
    CREATE INDEX documents_by_due ON documents(due) WHERE due IS NOT NULL;
    """,
    # 5: the retention sweep's index is on the hour of ``updated``, not on ``updated`` itself,
    #    which every commit changes: rewriting that index was 40% of a commit's time. A commit
    #    writes the hour only when it changes (``SqliteStore._hours``).
    """
    ALTER TABLE documents ADD COLUMN hour INTEGER NOT NULL DEFAULT 0;
    UPDATE documents SET hour = CAST(updated / 3600 AS INTEGER);
    DROP INDEX documents_by_updated;
    CREATE INDEX documents_by_hour ON documents(hour);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)

# How long an access waits for a lock held by another process before it is refused.
# Short: the player who moved waits this long for ``server/storage`` (the others do not).
BUSY_TIMEOUT_MS = 200
START_BUSY_TIMEOUT_MS = 2000
# The pauses between tries while the file is busy, the last one repeated: soon at first,
# as most locks are a checkpoint's or another writer's few milliseconds, then every 25 ms
# (about what SQLite's own busy handler does), each try costing microseconds.
BUSY_PAUSES = (0.001, 0.002, 0.005, 0.01, 0.015, 0.025)

# Checkpoints off the loop (``checkpoint``): a RESTART follows the passive copy once the WAL
# holds this many pages (SQLite's own checkpoints come at 1,000), so that the next commit writes
# the WAL from its beginning again; it waits this long at most for the write lock and for
# readers to move on. One that holds the lock longer than RESTART_SLOW_S is logged: the
# commits that met it waited (up to ``BUSY_TIMEOUT_MS``), and the disk is the reason.
RESTART_PAGES = 1000
RESTART_WAIT_MS = 50
RESTART_SLOW_S = 0.1
# With checkpoints deferred, a commit still runs one inline once the WAL holds this many pages
# (40 MB): should the thread stop or fall behind, the WAL stays bounded all the same. And once
# a burst or a long backup has grown the WAL file past WAL_KEEP_BYTES, it is cut back to that
# when it starts again (steady play keeps it at 4-8 MB).
BACKSTOP_PAGES = 10_000
WAL_KEEP_BYTES = 16 * 2**20
# The retention sweep finds old documents by the hour they were last written or opened in
# (``hour``, indexed), then by the exact time (``updated``, not indexed). The hour each
# document was last written with is remembered, for up to HOURS_KEPT documents. One server
# writes a file (another process's writes, ``wibble copy`` say, are rare): a second writer whose
# clock ran ahead could leave a row's hour ahead of its time, which only delays its deletion,
# by as much as the clocks differ, never deletes anything early.
HOUR = 3600
HOURS_KEPT = 100_000


class FolderInUse(Exception):
    """Another process holds a data folder's lock: a server serving games from it, or a copy."""


def lock_folder(folder: Path) -> int | None:
    """Take ``folder``'s lock, held until the descriptor returned is closed: a server holds it for as
    long as it serves games from the folder (``web.serving.hold_folder``), ``wibble copy`` while it
    copies, and a process that dies lets go of it. ``FolderInUse`` if another holds it; None if
    there is nothing to lock (no such folder yet, or a file system without such locks).

    The lock is on the folder itself (``flock``, which SQLite's own locks never meet): nothing is
    written."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise FolderInUse(str(folder)) from None
    except OSError:
        os.close(fd)
        return None
    return fd


def _hour(when: float) -> int:
    return int(when // HOUR)


def _dump(doc: Doc) -> str:
    return codec.dumps(doc)  # json.dumps's compact text (a float may be spelt shorter: 1e16)


def _reason(exc: sqlite3.Error) -> str:
    return str(exc) or type(exc).__name__


def _busy(exc: sqlite3.Error) -> bool:
    """True if ``exc`` says another connection holds a lock: worth trying again shortly."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


@contextmanager
def _storage_errors() -> Iterator[None]:
    """SQLite's and the system's errors as ``StorageError``: for work that is not tried again
    (checkpoints), where ``_Busy`` has no use."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StorageError(_reason(exc)) from None
    except OSError as exc:
        raise StorageError(exc.strerror or str(exc)) from None


class _Busy(Exception):
    """An access found the file locked and changed nothing; ``_patiently`` tries it again."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class SqliteStore:
    """Documents in ``path`` (a SQLite database, created if missing)."""

    engine = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.description = f"SQLite at {self.path}"
        self._flush: int | None = None  # a descriptor of the file, for checkpoints (defer_checkpoints)
        # One connection serves every caller. Under gevent nothing yields inside a transaction, so
        # this lock is never contended; under a threaded server (`flask run`) it keeps one thread's
        # BEGIN from landing inside another's transaction. Held for one try, never across a pause.
        self._using = threading.Lock()
        self._hours: dict[str, int] = {}
        """The hour each document was last written with here (HOURS_KEPT at most): see ``commit``."""
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
        # From here on nothing waits inside SQLite (on the event loop): ``_patiently`` does.
        db.execute("PRAGMA busy_timeout = 0")

    # -- the Store interface -----------------------------------------------------------

    def create(self, doc_id: str, kind: str, doc: Doc, now: float, due: float | None = None) -> None:
        def insert(db: sqlite3.Connection) -> None:
            # OR IGNORE: an id in use is not a damaged database but a taken name (AlreadyExists).
            cursor = db.execute(
                "INSERT OR IGNORE INTO documents (id, kind, version, doc, created, updated, due, hour)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (doc_id, kind, doc["version"], _dump(doc), now, now, due, _hour(now)),
            )
            if cursor.rowcount != 1:
                raise AlreadyExists(doc_id)

        self._write(insert)
        self._wrote_hour(doc_id, now)

    def load(self, doc_id: str) -> Row | None:
        row = self._read(
            lambda db: db.execute(
                "SELECT kind, doc, created, updated, due FROM documents WHERE id = ?", (doc_id,)
            ).fetchone()
        )
        if row is None:
            return None
        kind, text, created, updated, due = row
        try:
            doc = codec.loads(text)
        except (TypeError, ValueError) as exc:
            raise GameDataError(f"its stored document is not JSON ({exc})") from None
        if not isinstance(doc, dict) or kind not in KINDS:
            raise GameDataError("its stored row is damaged")
        return Row(doc_id, kind, doc, created, updated, due)

    def commit(self, doc_id: str, expected: int, doc: Doc, move: Doc, now: float, due: Due = KEEP) -> None:
        # Only the columns that change are set: an indexed column in the SET rewrites its index.
        hour = _hour(now)
        sets, values = ["version = ?", "doc = ?", "updated = ?"], [doc["version"], _dump(doc), now]
        if self._hours.get(doc_id) != hour:
            sets.append("hour = ?")
            values.append(hour)
        if due is not KEEP:
            sets.append("due = ?")
            values.append(due)
        update = f"UPDATE documents SET {', '.join(sets)} WHERE id = ? AND version = ?"

        def write(db: sqlite3.Connection) -> None:
            cursor = db.execute(update, (*values, doc_id, expected))
            if cursor.rowcount != 1:
                raise VersionConflict(doc_id, expected)
            db.execute(
                "INSERT INTO records (doc_id, version, move) VALUES (?, ?, ?)",
                (doc_id, doc["version"], _dump(move)),
            )

        self._write(write)
        self._wrote_hour(doc_id, now)

    def touch(self, doc_id: str, now: float) -> None:
        self._write(
            lambda db: db.execute(
                "UPDATE documents SET updated = ?, hour = ? WHERE id = ?", (now, _hour(now), doc_id)
            )
        )
        self._wrote_hour(doc_id, now)

    def _wrote_hour(self, doc_id: str, now: float) -> None:
        """Remember the hour ``doc_id`` holds now, so its next commits in that hour leave it be."""
        if len(self._hours) >= HOURS_KEPT:
            self._hours.clear()  # (the documents still played soon write theirs once more)
        self._hours[doc_id] = _hour(now)

    def moves(self, doc_id: str) -> list[Doc]:
        rows = self._read(
            lambda db: db.execute(
                "SELECT move FROM records WHERE doc_id = ? ORDER BY version", (doc_id,)
            ).fetchall()
        )
        try:
            return [codec.loads(text) for (text,) in rows]
        except ValueError as exc:
            raise GameDataError(f"a stored move is not JSON ({exc})") from None

    def delete(self, doc_id: str) -> None:
        self._write(lambda db: db.execute("DELETE FROM documents WHERE id = ?", (doc_id,)))

    def purge(self, before: float, limit: int, prefix: str = "") -> int:
        # A range on the primary key rather than LIKE: "room:" to "room;" is every id with that prefix.
        high = prefix[:-1] + chr(ord(prefix[-1]) + 1) if prefix else None

        def delete(db: sqlite3.Connection) -> int:
            args: tuple[object, ...]
            # The hour's index finds the candidates; the exact time decides.
            if high is None:
                where, args = "hour <= ? AND updated < ?", (_hour(before), before, limit)
            else:
                where = "hour <= ? AND updated < ? AND id >= ? AND id < ?"
                args = (_hour(before), before, prefix, high, limit)
            cursor = db.execute(
                f"DELETE FROM documents WHERE id IN (SELECT id FROM documents WHERE {where} LIMIT ?)", args
            )
            return cursor.rowcount

        return self._write(delete)

    def overdue(self, before: float, limit: int) -> list[tuple[str, str]]:
        rows = self._read(
            lambda db: db.execute(
                "SELECT id, kind FROM documents WHERE due < ? ORDER BY due LIMIT ?", (before, limit)
            ).fetchall()
        )
        return [(str(doc_id), str(kind)) for doc_id, kind in rows]

    def version(self, doc_id: str) -> int | None:
        row = self._read(
            lambda db: db.execute("SELECT version FROM documents WHERE id = ?", (doc_id,)).fetchone()
        )
        return None if row is None else int(row[0])

    def count(self) -> int:
        return int(self._read(lambda db: db.execute("SELECT count(*) FROM documents").fetchone()[0]))

    def export(self) -> Iterator[tuple[Row, list[Doc]]]:
        ids = self._read(
            lambda db: [doc_id for (doc_id,) in db.execute("SELECT id FROM documents ORDER BY id")]
        )
        for doc_id in ids:
            row = self.load(doc_id)
            if row is not None:
                yield row, self.moves(doc_id)

    def import_row(self, row: Row, moves: list[Doc]) -> None:
        def insert(db: sqlite3.Connection) -> None:
            cursor = db.execute(
                "INSERT OR IGNORE INTO documents (id, kind, version, doc, created, updated, due, hour)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.doc_id,
                    row.kind,
                    row.doc["version"],
                    _dump(row.doc),
                    row.created,
                    row.updated,
                    row.due,
                    _hour(row.updated),
                ),
            )
            if cursor.rowcount != 1:
                raise AlreadyExists(row.doc_id)
            db.executemany(
                "INSERT INTO records (doc_id, version, move) VALUES (?, ?, ?)",
                [(row.doc_id, move.get("version", n), _dump(move)) for n, move in enumerate(moves, 1)],
            )

        self._write(insert)

    # -- checkpoints, for a server's native thread ------------------------------------

    def defer_checkpoints(self) -> None:
        """From now on commits leave the checkpoints to ``checkpoint``, which the caller runs
        every so often on a native thread, but for a backstop at ``BACKSTOP_PAGES``."""
        with _storage_errors():
            self._db.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")
            self._db.execute(f"PRAGMA journal_size_limit = {WAL_KEEP_BYTES}")
            if self._flush is None:
                # Closed only after the connection (``close``): closing any descriptor of a file
                # lets go of every POSIX lock this process holds on it, SQLite's included.
                self._flush = os.open(self.path, os.O_RDONLY)

    def checkpoint(self) -> None:
        """Copy the WAL's pages into the database, on a connection of this call's own: for a
        native thread (the GIL is let go inside SQLite), never the event loop.

        First PASSIVE: the copying, while commits go on beside it. It cannot let the WAL start
        again from its beginning under steady play (it copies what was there when it began,
        and a commit always lands meanwhile); nor, then, does it fsync the database file. So
        once the WAL holds ``RESTART_PAGES`` the file is flushed here, and a RESTART follows:
        it holds the write lock only to copy and fsync the few pages that came meanwhile. A
        commit that meets it waits in ``_patiently``, yielding; nobody else waits. Only when
        the passive pass copied everything: if a reader (a backup) still needs older pages,
        a RESTART would hold the lock for nothing.
        """
        with _storage_errors():
            # mode=rw: a database moved away is an error here, not a new empty file.
            db = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?mode=rw",
                uri=True,
                isolation_level=None,
                timeout=RESTART_WAIT_MS / 1000,
            )
            try:
                _, log_frames, checkpointed = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                if log_frames >= RESTART_PAGES and checkpointed == log_frames:
                    if self._flush is not None:
                        os.fdatasync(self._flush)
                    started = time.monotonic()
                    db.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
                    if (held := time.monotonic() - started) > RESTART_SLOW_S:
                        log.warning(
                            "a checkpoint held the database's write lock for %.0f ms: a slow disk?",
                            held * 1000,
                        )
            finally:
                db.close()

    def close(self) -> None:
        """Let go of the file; with checkpoints deferred, only once the last ``checkpoint`` returned."""
        try:
            self._db.execute("PRAGMA optimize")
        except sqlite3.Error:
            pass
        self._db.close()
        if self._flush is not None:
            os.close(self._flush)
            self._flush = None

    # -- helpers ----------------------------------------------------------------------

    def _write(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` in one transaction: all of it is written, or none of it."""
        return self._patiently(lambda: self._transaction(work))

    def _read(self, query: Callable[[sqlite3.Connection], _T]) -> _T:
        def attempt() -> _T:
            try:
                with self._using:
                    return query(self._db)
            except sqlite3.Error as exc:
                raise (_Busy if _busy(exc) else StorageError)(_reason(exc)) from None

        return self._patiently(attempt)

    def _transaction(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """One try at ``work`` in a transaction; ``_Busy`` if the file was locked (nothing written)."""
        with self._using:
            return self._transaction_held(work)

    def _transaction_held(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise (_Busy if _busy(exc) else StorageError)(_reason(exc)) from None
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
                raise (_Busy if _busy(exc) else StorageError)(_reason(exc)) from None
            raise
        return result

    def _patiently(self, attempt: Callable[[], _T]) -> _T:
        """``attempt()``, tried again after a pause while the file is locked, for up to ``BUSY_TIMEOUT_MS``.

        The pause is ``time.sleep`` looked up at each call: once gevent has patched it,
        it hands the loop to every other player; the connection is not inside a
        transaction meanwhile (a busy try rolled back), so others may use it too.
        """
        try:
            return attempt()  # the usual case: no lock in the way, no clock read, no pause
        except _Busy as exc:
            reason = exc.reason
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        pauses = itertools.chain(BUSY_PAUSES, itertools.repeat(BUSY_PAUSES[-1]))
        while (left := deadline - time.monotonic()) > 0:
            time.sleep(min(left, next(pauses)))  # the last try falls on the deadline
            try:
                return attempt()
            except _Busy as exc:
                reason = exc.reason
        raise StorageError(reason)


def migrate(db: sqlite3.Connection, target: int) -> None:
    """Bring the schema up to ``target``, one migration per transaction (logged once, in one line)."""
    started = db.execute("PRAGMA user_version").fetchone()[0]
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
    reached = db.execute("PRAGMA user_version").fetchone()[0]
    if started == 0 and reached > 0:
        log.info("new database, schema version %d", reached)
    elif reached > started:
        log.info("database schema upgraded from version %d to %d", started, reached)


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
