"""One SQLite store used by many threads at once, as `flask run` (a thread per connection) uses it:
every move of every game is saved, none refused, none saved into another thread's transaction."""

from __future__ import annotations

import threading
from pathlib import Path

from tests.engines.games import new_game, play
from wibble.engines.store import SqliteStore


def test_threads_saving_different_games_at_once_all_succeed(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "wibble.db")
    players, moves = 12, 6
    steps = {n: play(new_game(seed=n), moves) for n in range(players)}
    for n in range(players):
        store.create(f"g{n}", "game", new_game(seed=n).to_doc(), 0.0)
    failures: list[BaseException] = []
    start = threading.Barrier(players)

    def save(n: int) -> None:
        start.wait()
        try:
            for step in steps[n]:
                store.commit(f"g{n}", step.expected, step.doc, step.move, 1.0)
                store.load(f"g{n}")  # reads between the others' writes
        except BaseException as exc:  # any refusal is the failure this test is about
            failures.append(exc)

    threads = [threading.Thread(target=save, args=(n,)) for n in range(players)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    try:
        assert failures == []
        reopened = SqliteStore(tmp_path / "wibble.db")
        try:
            for n in range(players):
                row = reopened.load(f"g{n}")
                assert row is not None
                assert row.doc == steps[n][-1].doc  # every move of it, in order
        finally:
            reopened.close()
    finally:
        store.close()
