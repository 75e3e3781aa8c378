"""The SQLite store as a host meets it: a file that survives restarts, upgrades itself, and says
plainly why it cannot be used; and a move that cannot be saved changes nothing, then saves later."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from tests.engines.games import AB, new_game, play
from wibble.core import Game, GameDataError
from wibble.engines.store import AlreadyExists, SqliteStore, StorageError, StoreOpenError, open_store
from wibble.engines.store import sqlite as sqlite_store
from wibble.engines.store.sqlite import MIGRATIONS, SCHEMA_VERSION

TOKEN = hashlib.sha256(b"token").digest()
T0 = 1_700_000_000.0


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "wibble.db"


@pytest.fixture
def fast_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Give up on a lock at start-up after 0.1 s instead of 2 s: the same path, sooner."""
    monkeypatch.setattr(sqlite_store, "START_BUSY_TIMEOUT_MS", 100)


@contextmanager
def exclusive_lock(path: Path) -> Iterator[None]:
    """Another process holding the database's write lock (a backup tool, a second server)."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


def user_version(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        version: int = db.execute("PRAGMA user_version").fetchone()[0]
    return version


def test_games_and_moves_survive_closing_and_reopening_the_file(db_path: Path) -> None:
    game = new_game(seed=4)
    store = SqliteStore(db_path)
    store.create("g1", "game", game.to_doc(), T0)
    steps = play(game, 3)
    for step in steps:
        store.commit("g1", step.expected, step.doc, step.move, T0)
    store.close()

    reopened = SqliteStore(db_path)
    row, moves = reopened.load("g1"), reopened.moves("g1")
    reopened.close()

    assert row is not None
    assert Game.from_doc(row.doc, AB).to_doc() == game.to_doc()
    assert moves == [step.move for step in steps]


def test_the_database_uses_a_write_ahead_log(db_path: Path) -> None:
    SqliteStore(db_path).close()

    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_new_database_is_made_at_the_current_schema(tmp_path: Path) -> None:
    store = open_store(tmp_path / "new" / "folder")
    store.close()

    assert user_version(tmp_path / "new" / "folder" / "wibble.db") == SCHEMA_VERSION


def test_a_database_from_the_first_schema_is_upgraded_on_open_and_its_games_still_play(db_path: Path) -> None:
    game = new_game(seed=6)
    doc = game.to_doc()
    with sqlite3.connect(db_path) as old:
        old.executescript(MIGRATIONS[0])
        old.execute("PRAGMA user_version = 1")
        old.execute(
            "INSERT INTO games (id, token_hash, version, doc, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
            ("old", TOKEN, doc["version"], json.dumps(doc), T0, T0),
        )
    old.close()

    store = SqliteStore(db_path)
    row = store.load("old")
    [step] = play(game, 1)
    store.commit("old", step.expected, step.doc, step.move, T0 + 1)
    store.close()

    assert user_version(db_path) == SCHEMA_VERSION
    assert row is not None
    # The token's hash moved into the game's document (schema 3): the row keeps no secret.
    assert (row.kind, row.doc["tokens"]) == ("game", [TOKEN.hex()])
    assert Game.from_doc(row.doc, AB).to_doc() == doc
    with closing(sqlite3.connect(db_path)) as db:
        indexes = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "documents_by_hour" in indexes
    assert "documents_by_updated" not in indexes


def test_documents_saved_before_schema_5_are_still_deleted_once_untouched_for_long_enough(
    db_path: Path,
) -> None:
    """The retention sweep looks documents up by their hour (schema 5): the migration gives every
    stored one its hour, so a game untouched since before the upgrade still goes, and only it."""
    doc = new_game().to_doc()
    with sqlite3.connect(db_path) as old:
        old.executescript("".join(MIGRATIONS[:4]))
        old.execute("PRAGMA user_version = 4")
        for doc_id, updated in (("stale", T0), ("recent", T0 + 7200)):
            old.execute(
                "INSERT INTO documents (id, kind, version, doc, created, updated)"
                " VALUES (?, 'game', 0, ?, ?, ?)",
                (doc_id, json.dumps(doc), T0, updated),
            )
    old.close()

    store = SqliteStore(db_path)
    assert hours(db_path) == {"stale": int(T0 // 3600), "recent": int((T0 + 7200) // 3600)}
    assert store.purge(T0 + 3600, limit=10) == 1
    assert store.load("stale") is None
    assert store.load("recent") is not None
    store.close()


def test_a_commit_in_a_new_hour_moves_the_documents_hour_so_the_sweep_keeps_it(db_path: Path) -> None:
    store = SqliteStore(db_path)
    game = new_game()
    store.create("g", "game", game.to_doc(), T0)
    steps = play(game, 2)
    store.commit("g", steps[0].expected, steps[0].doc, steps[0].move, T0 + 10)  # the same hour
    assert hours(db_path) == {"g": int(T0 // 3600)}
    store.commit("g", steps[1].expected, steps[1].doc, steps[1].move, T0 + 2 * 3600)
    assert hours(db_path) == {"g": int((T0 + 2 * 3600) // 3600)}
    assert store.purge(T0 + 3600, limit=10) == 0  # played since: kept
    store.close()


def hours(db_path: Path) -> dict[str, int]:
    """Each stored document's ``hour``, read straight from the file."""
    with closing(sqlite3.connect(db_path)) as db:
        return dict(db.execute("SELECT id, hour FROM documents").fetchall())


def test_matches_and_rooms_of_schema_2_keep_their_kind_documents_and_records(db_path: Path) -> None:
    match = {"kind": "match", "version": 2, "tokens": ["ab"], "seed": 1}
    room = {"kind": "room", "version": 1, "code": "ABCDEF"}
    with sqlite3.connect(db_path) as old:
        old.executescript(MIGRATIONS[0] + MIGRATIONS[1])
        old.execute("PRAGMA user_version = 2")
        for doc_id, doc in (("m1", match), ("room:ABCDEF", room)):
            old.execute(
                "INSERT INTO games (id, token_hash, version, doc, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (doc_id, b"", doc["version"], json.dumps(doc), T0, T0),
            )
        old.execute("INSERT INTO moves (game_id, version, move) VALUES ('m1', 1, '{\"seat\": 0}')")
        old.execute("INSERT INTO moves (game_id, version, move) VALUES ('m1', 2, '{\"seat\": 1}')")
    old.close()

    store = SqliteStore(db_path)
    stored = {doc_id: store.load(doc_id) for doc_id in ("m1", "room:ABCDEF")}
    assert {doc_id: (row.kind, row.doc) for doc_id, row in stored.items() if row} == {
        "m1": ("match", match),
        "room:ABCDEF": ("room", room),
    }
    assert store.moves("m1") == [{"seat": 0}, {"seat": 1}]
    store.close()


def test_a_database_from_a_newer_wibble_is_refused_and_left_alone(db_path: Path) -> None:
    SqliteStore(db_path).close()
    with sqlite3.connect(db_path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()

    with pytest.raises(StoreOpenError, match="newer"):
        SqliteStore(db_path)

    assert user_version(db_path) == SCHEMA_VERSION + 1


@pytest.mark.parametrize(
    "content",
    [b"these are my holiday notes, not a database\n" * 100, b"SQLite format 3\x00" + b"\xff" * 4080],
    ids=["text", "damaged-header"],
)
def test_a_file_that_is_not_a_database_is_refused_with_a_one_line_reason(
    db_path: Path, content: bytes
) -> None:
    db_path.write_bytes(content)

    with pytest.raises(StoreOpenError) as refused:
        SqliteStore(db_path)

    message = str(refused.value)
    assert str(db_path) in message
    assert "\n" not in message
    assert db_path.read_bytes() == content  # the host's file is not touched


@pytest.mark.usefixtures("fast_start")
def test_a_database_locked_by_another_process_is_refused_saying_so(db_path: Path) -> None:
    SqliteStore(db_path).close()

    with exclusive_lock(db_path), pytest.raises(StoreOpenError, match="locked"):
        SqliteStore(db_path)


def test_the_start_up_waits_for_a_lock_a_little_while_not_forever() -> None:
    assert 500 <= sqlite_store.START_BUSY_TIMEOUT_MS <= 5000
    assert sqlite_store.BUSY_TIMEOUT_MS <= 500  # the player who moved waits this long to hear it failed


def test_a_commit_while_the_database_is_locked_changes_nothing_and_succeeds_later(
    db_path: Path,
) -> None:
    game = new_game()
    store = SqliteStore(db_path)
    store.create("g1", "game", game.to_doc(), T0)
    first, second = play(game, 2)
    store.commit("g1", first.expected, first.doc, first.move, T0 + 1)

    with exclusive_lock(db_path), pytest.raises(StorageError) as failed:
        store.commit("g1", second.expected, second.doc, second.move, T0 + 2)

    assert failed.value.code == "server/storage"
    row = store.load("g1")
    assert row is not None
    assert (row.doc, row.updated) == (first.doc, T0 + 1)
    assert store.moves("g1") == [first.move]

    store.commit("g1", second.expected, second.doc, second.move, T0 + 3)  # the lock is gone: it saves

    row = store.load("g1")
    assert row is not None
    assert row.doc == second.doc
    assert store.moves("g1") == [first.move, second.move]
    store.close()


def test_a_locked_database_is_waited_for_in_pauses_outside_sqlite_and_reads_go_on(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pauses go through ``time.sleep`` (gevent's, in the server: the loop runs meanwhile);
    # no try may wait inside SQLite, where the whole loop would wait with it.
    game = new_game()
    fresh = game.to_doc()
    store = SqliteStore(db_path)
    store.create("g1", "game", fresh, T0)
    (step,) = play(game, 1)
    pauses: list[float] = []
    slept = 0.0  # as the clock saw it: a loaded machine oversleeps
    real_sleep = time.sleep

    committer = threading.current_thread()

    def sleep(seconds: float) -> None:
        nonlocal slept
        if threading.current_thread() is not committer:  # (another test's thread, winding down)
            real_sleep(seconds)
            return
        pauses.append(seconds)
        before = time.monotonic()
        real_sleep(seconds)
        slept += time.monotonic() - before

    monkeypatch.setattr(sqlite_store.time, "sleep", sleep)
    with exclusive_lock(db_path):
        started = time.monotonic()
        with pytest.raises(StorageError) as failed:
            store.commit("g1", step.expected, step.doc, step.move, T0 + 1)
        waited = time.monotonic() - started
        assert "locked" in failed.value.reason
        row = store.load("g1")  # a reader is not held up by another's write lock (WAL)
        assert (store.count(), store.moves("g1")) == (1, [])

    assert row is not None
    assert row.doc == fresh
    budget = sqlite_store.BUSY_TIMEOUT_MS / 1000
    assert waited >= budget - 0.005  # the whole budget waited for (the last pause falls on its end)
    assert pauses == sorted(pauses[:-1]) + pauses[-1:]  # sooner first, then at most the last step
    # Every try answered at once: SQLite itself never waits (a try that did would wait its busy
    # timeout, the whole budget, outside our pauses). The setting is asked rather than the time
    # the tries took, which a machine busy with other work stretches.
    assert store._db.execute("PRAGMA busy_timeout").fetchone() == (0,)
    assert waited - slept < budget, (waited, slept, pauses)
    store.close()


def test_a_lock_let_go_while_a_commit_waits_for_it_lets_the_commit_through(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game()
    store = SqliteStore(db_path)
    store.create("g1", "game", game.to_doc(), T0)
    (step,) = play(game, 1)
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    pauses: list[float] = []
    committer, real_sleep = threading.current_thread(), time.sleep

    def sleep(seconds: float) -> None:  # the other process finishes during the first pause
        if threading.current_thread() is not committer:  # (another test's thread, winding down)
            real_sleep(seconds)
            return
        pauses.append(seconds)
        if other.in_transaction:
            other.execute("ROLLBACK")

    monkeypatch.setattr(sqlite_store.time, "sleep", sleep)
    try:
        store.commit("g1", step.expected, step.doc, step.move, T0 + 1)
    finally:
        other.close()

    assert pauses == [sqlite_store.BUSY_PAUSES[0]]
    assert store.moves("g1") == [step.move]
    store.close()


def test_a_new_game_while_the_database_is_locked_fails_with_a_storage_error(db_path: Path) -> None:
    store = SqliteStore(db_path)

    with exclusive_lock(db_path), pytest.raises(StorageError):
        store.create("g1", "game", new_game().to_doc(), T0)

    assert store.load("g1") is None
    store.close()


def test_a_second_game_under_a_taken_id_is_refused_and_the_first_kept(db_path: Path) -> None:
    store = SqliteStore(db_path)
    first = new_game(seed=1).to_doc()
    store.create("g1", "game", first, T0)

    with pytest.raises(AlreadyExists):
        store.create("g1", "game", new_game(seed=2).to_doc(), T0)

    row = store.load("g1")
    assert row is not None
    assert row.doc == first
    store.close()


@pytest.mark.parametrize(
    ("column", "value"),
    [("doc", "{not json"), ("doc", "[1, 2, 3]"), ("doc", "null"), ("kind", "12")],
)
def test_a_damaged_row_loads_as_game_data_error(db_path: Path, column: str, value: str) -> None:
    store = SqliteStore(db_path)
    store.create("g1", "game", new_game().to_doc(), T0)
    store.create("g2", "game", new_game(seed=2).to_doc(), T0)
    with sqlite3.connect(db_path) as db:
        db.execute(f"UPDATE documents SET {column} = ? WHERE id = 'g1'", (value,))
    db.close()

    with pytest.raises(GameDataError) as refused:
        store.load("g1")

    assert refused.value.code == "game/unavailable"
    assert store.load("g2") is not None  # the other games are fine
    store.close()


def test_a_damaged_move_reads_as_game_data_error(db_path: Path) -> None:
    game = new_game()
    store = SqliteStore(db_path)
    store.create("g1", "game", game.to_doc(), T0)
    [step] = play(game, 1)
    store.commit("g1", step.expected, step.doc, step.move, T0)
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE records SET move = 'garbage'")
    db.close()

    with pytest.raises(GameDataError):
        store.moves("g1")
    store.close()
