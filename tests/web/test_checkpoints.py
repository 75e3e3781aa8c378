"""``wibble serve``'s checkpoint loop as a host reads its log: a failure said once, however long
it lasts, and its end said once, not a line every half second."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

import gevent
import gevent.event
import pytest

from wibble.engines.store import SqliteStore
from wibble.web.serving import run_checkpoints

FILES = ("wibble.db", "wibble.db-wal", "wibble.db-shm")


class CountedStore(SqliteStore):
    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.checkpoints = 0

    def checkpoint(self) -> None:
        self.checkpoints += 1
        super().checkpoint()


def wait_for(done: Callable[[], bool], seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the checkpoint loop did not get there in time"
        gevent.sleep(0.01)


def test_a_failing_checkpoint_is_logged_once_and_so_is_its_recovery(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="wibble.web.serving")
    store = CountedStore(tmp_path / "wibble.db")
    store.create("g1", "game", {"version": 0}, 0.0)
    stop = gevent.event.Event()
    loop = gevent.spawn(run_checkpoints, store, stop, 0.01)
    wait_for(lambda: store.checkpoints >= 3)

    moved = tmp_path / "moved"
    moved.mkdir()
    for name in FILES:
        (tmp_path / name).rename(moved / name)  # a host's mistake, or a disk that went away
    failed_from = store.checkpoints
    wait_for(lambda: store.checkpoints >= failed_from + 20)
    for name in FILES:
        (moved / name).rename(tmp_path / name)
    wait_for(lambda: any("again" in r.getMessage() for r in caplog.records))
    stop.set()
    loop.join()
    store.close()

    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 2, said
    assert said[0].startswith("could not checkpoint the database: unable to open database file"), said
    assert said[1] == "checkpointing the database again"
