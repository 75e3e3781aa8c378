"""A day's leaderboard through every store engine: saved and loaded as the core wrote it, and
never forked by two processes entering tries at once (compare-and-set on its version)."""

from __future__ import annotations

from datetime import date

import pytest

from tests.engines.conftest import Opener
from wibble.core.daily import Leaderboard, doc_id
from wibble.engines.store import Store, VersionConflict

DAY = date(2026, 11, 24)
T0 = 1_795_000_000.0


def test_a_leaderboard_comes_back_as_it_was_committed(store: Store) -> None:
    board = Leaderboard(DAY)
    board.start("p1", "Ann", "g1", "192.0.2.1", 10)
    store.create(doc_id(DAY), "daily", board.to_doc(), T0)
    board.finish("p1", "g1", 42, 7)
    store.commit(doc_id(DAY), 1, board.to_doc(), {"version": 2}, T0 + 180)

    row = store.load(doc_id(DAY))

    assert row is not None
    assert row.kind == "daily"
    again = Leaderboard.from_doc(row.doc)
    assert again.to_doc() == board.to_doc()
    assert again.view("p1")["you"] == {"rank": 1, "name": "Ann", "score": 42, "words": 7, "ranked": True}


def test_a_leaderboard_stored_before_pace_and_places_reads_and_goes_on(store: Store) -> None:
    """A day's document written by the server before it judged pace and held an address to two
    places: its tries read as ranked, each from an address of its own, and a new one commits."""
    old = {
        "date": DAY.isoformat(),
        "version": 2,
        "scored": 1,
        "entries": {"p1": {"name": "Ann", "game": "g1", "score": 42, "words": 7, "order": 1}},
        "addresses": {"a1": 1},
    }
    store.create(doc_id(DAY), "daily", old, T0)
    row = store.load(doc_id(DAY))
    assert row is not None
    board = Leaderboard.from_doc(row.doc)
    assert board.view("p1")["you"] == {"rank": 1, "name": "Ann", "score": 42, "words": 7, "ranked": True}
    board.start("p2", "Bo", "g2", "192.0.2.2", 10)
    store.commit(doc_id(DAY), 2, board.to_doc(), {"version": 3}, T0 + 1)
    again = Leaderboard.from_doc(store.load(doc_id(DAY)).doc)  # type: ignore[union-attr]
    assert again.to_doc() == board.to_doc()


def test_two_processes_entering_tries_on_the_same_version_cannot_both_commit(open_store: Opener) -> None:
    one, other = open_store(), open_store()
    one.create(doc_id(DAY), "daily", Leaderboard(DAY).to_doc(), T0)
    mine, theirs = (Leaderboard.from_doc(s.load(doc_id(DAY)).doc) for s in (one, other))  # type: ignore[union-attr]
    mine.start("p1", "Ann", "g1", "192.0.2.1", 10)
    theirs.start("p2", "Bo", "g2", "192.0.2.2", 10)

    one.commit(doc_id(DAY), 0, mine.to_doc(), {"version": 1}, T0 + 1)
    with pytest.raises(VersionConflict):
        other.commit(doc_id(DAY), 0, theirs.to_doc(), {"version": 1}, T0 + 1)

    # The loser applies its change to the stored copy and commits that: both tries are kept.
    stored = Leaderboard.from_doc(other.load(doc_id(DAY)).doc)  # type: ignore[union-attr]
    stored.start("p2", "Bo", "g2", "192.0.2.2", 10)
    other.commit(doc_id(DAY), 1, stored.to_doc(), {"version": 2}, T0 + 2)
    final = Leaderboard.from_doc(one.load(doc_id(DAY)).doc)  # type: ignore[union-attr]
    assert final.has_played("p1")
    assert final.has_played("p2")
