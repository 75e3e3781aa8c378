"""The SQLite store's checkpoints taken off the event loop, as ``wibble serve`` runs them: on a
thread of their own, beside commits that never wait for them, with a WAL that stays small, a
database file that holds every commit once they have run, and nothing acknowledged lost to a
SIGKILL."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.engines.games import new_game, play
from tests.support import versions_in_database_file
from wibble.engines.store import SqliteStore, StorageError
from wibble.engines.store import sqlite as sqlite_store

PAGE = 4096
GAMES = 4
T0 = 1_700_000_000.0


@pytest.fixture(scope="module")
def played() -> tuple[dict[str, Any], dict[str, Any]]:
    """A real document and move, committed again and again under new versions (the store reads
    only the version): about 2.7 WAL pages a commit."""
    step = play(new_game(seed=3), 20)[-1]
    return step.doc, step.move


@pytest.fixture
def store(tmp_path: Path, played: tuple[dict[str, Any], dict[str, Any]]) -> Iterator[SqliteStore]:
    doc, _ = played
    store = SqliteStore(tmp_path / "wibble.db")
    for n in range(GAMES):
        store.create(f"g{n}", "game", dict(doc, version=0), T0)
    store.defer_checkpoints()
    yield store
    store.close()


def commit_many(
    store: SqliteStore,
    played: tuple[dict[str, Any], dict[str, Any]],
    count: int,
    after: int = 0,
    per_second: float | None = None,
) -> None:
    """``count`` commits round the games, each one version on from ``after``; at most
    ``per_second`` of them a second, if given."""
    doc, move = played
    started = time.monotonic()
    for n in range(count):
        game, version = f"g{n % GAMES}", after + n // GAMES + 1
        store.commit(game, version - 1, dict(doc, version=version), dict(move, version=version), T0 + n)
        if per_second is not None and (ahead := started + n / per_second - time.monotonic()) > 0:
            time.sleep(ahead)


def wal_pages(store: SqliteStore) -> float:
    return os.path.getsize(f"{store.path}-wal") / PAGE


@contextmanager
def checkpointing(store: SqliteStore) -> Iterator[list[BaseException]]:
    """A native thread running ``store.checkpoint()`` back to back, as the server's does every
    half second; what it raised is in the list."""
    stop, failures = threading.Event(), []

    def run() -> None:
        while True:
            try:
                store.checkpoint()
            except BaseException as exc:  # reported to the test
                failures.append(exc)
            if stop.wait(0.005):
                return

    thread = threading.Thread(target=run)
    thread.start()
    try:
        yield failures
    finally:
        stop.set()
        thread.join()


def test_checkpoints_on_a_thread_keep_the_wal_short_while_every_commit_goes_through(
    store: SqliteStore, played: tuple[dict[str, Any], dict[str, Any]], tmp_path: Path
) -> None:
    commits = 3700  # about 10,000 WAL pages: the backstop's worth, ten times a checkpoint's
    with checkpointing(store) as failures:
        # Three times as fast as 1,000 players commit, and still the WAL starts again and again.
        commit_many(store, played, commits, per_second=1500)
    store.checkpoint()  # the one the server makes half a second later

    assert failures == []
    assert wal_pages(store) <= sqlite_store.BACKSTOP_PAGES / 2
    last = commits // GAMES
    assert versions_in_database_file(store.path, tmp_path / "copy.db") == {
        f"g{n}": last for n in range(GAMES)
    }
    assert [move["version"] for move in store.moves("g0")] == list(range(1, last + 1))


def test_with_checkpoints_deferred_but_never_run_the_wal_still_stops_at_the_backstop(
    store: SqliteStore, played: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    commit_many(store, played, 6300)  # about 17,000 pages: past the backstop

    assert sqlite_store.RESTART_PAGES * 5 < wal_pages(store) <= sqlite_store.BACKSTOP_PAGES + 100


def test_a_reader_holding_old_pages_does_not_stop_commits_and_is_caught_up_after(
    store: SqliteStore,
    played: tuple[dict[str, Any], dict[str, Any]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A backup reading the database holds the pages it started with: a checkpoint copies around
    it and never takes the write lock meanwhile; once it is done, the next one copies the rest."""
    commit_many(store, played, 400)  # every game at version 100
    backup = sqlite3.connect(store.path, isolation_level=None)
    backup.execute("BEGIN")
    assert backup.execute("SELECT count(*) FROM documents").fetchone() == (GAMES,)
    commit_many(store, played, GAMES, after=100)  # the WAL now holds more than the backup reads
    # Any commit that met the write lock would be refused at once: none may.
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT_MS", 0)
    with checkpointing(store) as failures:
        commit_many(store, played, 400 - GAMES, after=101)
    assert failures == []
    assert backup.execute("SELECT max(version) FROM documents").fetchone() == (100,)  # its snapshot

    backup.execute("COMMIT")
    backup.close()
    store.checkpoint()

    assert versions_in_database_file(store.path, tmp_path / "after.db") == {
        f"g{n}": 200 for n in range(GAMES)
    }


KILLED_WRITER = """
import sys, threading
from pathlib import Path
from wibble.engines.store import SqliteStore

store = SqliteStore(Path(sys.argv[1]))
doc = {"version": 0, "text": "x" * 600}
store.create("g", "game", doc, 0.0)
store.defer_checkpoints()

def checkpoints():
    while True:
        store.checkpoint()

threading.Thread(target=checkpoints, daemon=True).start()
for version in range(1, 1_000_000):
    store.commit("g", version - 1, dict(doc, version=version), {"version": version}, 0.0)
    print(version, flush=True)
"""


@pytest.mark.parametrize("seed", [1, 2])
def test_sigkill_during_checkpoints_loses_no_acknowledged_commit(seed: int, tmp_path: Path) -> None:
    """A guard more than a proof: SQLite promises this, and the test holds the store to it with
    checkpoints running back to back on a thread of their own, as nowhere else."""
    path = tmp_path / "wibble.db"
    writer = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None
    acknowledged, stop_after = 0, random.Random(seed).randrange(2000, 6000)
    hung = threading.Timer(60, writer.kill)  # a writer that stops printing ends the loop below
    hung.start()
    for line in writer.stdout:
        acknowledged = int(line)
        if acknowledged >= stop_after:
            break
    hung.cancel()
    os.kill(writer.pid, signal.SIGKILL)
    _, errors = writer.communicate()
    assert acknowledged >= stop_after, f"the writer stopped by itself at {acknowledged}: {errors}"

    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store = SqliteStore(path)
    row = store.load("g")
    assert row is not None
    assert row.doc["version"] >= acknowledged
    assert [move["version"] for move in store.moves("g")] == list(range(1, row.doc["version"] + 1))
    store.close()


def test_a_database_moved_away_is_an_error_for_checkpoints_not_a_new_empty_file(
    store: SqliteStore, tmp_path: Path
) -> None:
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    for name in ("wibble.db", "wibble.db-wal", "wibble.db-shm"):
        (tmp_path / name).rename(moved / name)

    with pytest.raises(StorageError):
        store.checkpoint()
    assert not store.path.exists()
