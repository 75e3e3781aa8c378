"""What every store engine promises the live layer: documents back as saved, moves in order,
and a compare-and-set on the version so that two writers can never fork a game."""

from __future__ import annotations

import pytest

from tests.engines.conftest import Opener
from tests.engines.games import AB, new_game, play
from wibble.core import Game
from wibble.engines.store import KINDS, AlreadyExists, MemoryStore, Store, VersionConflict

T0 = 1_700_000_000.0


def test_a_created_game_loads_as_it_was_saved(store: Store) -> None:
    doc = new_game(seed=3).to_doc()

    store.create("g1", "game", doc, T0)
    row = store.load("g1")

    assert row is not None
    assert (row.doc_id, row.kind, row.doc) == ("g1", "game", doc)
    assert (row.created, row.updated) == (T0, T0)
    assert Game.from_doc(row.doc, AB).to_doc() == doc
    assert store.moves("g1") == []
    assert store.count() == 1


def test_an_id_in_use_is_refused_and_the_first_document_kept(store: Store) -> None:
    first = new_game(seed=1).to_doc()
    store.create("g1", "game", first, T0)

    with pytest.raises(AlreadyExists):
        store.create("g1", "room", new_game(seed=2).to_doc(), T0 + 1)

    row = store.load("g1")
    assert row is not None
    assert (row.kind, row.doc, row.updated) == ("game", first, T0)
    assert store.count() == 1


def test_every_kind_of_document_comes_back_as_that_kind(store: Store) -> None:
    for kind in KINDS:
        store.create(f"{kind}-1", kind, {"version": 0, "kind": kind}, T0)
    assert [store.load(f"{kind}-1").kind for kind in KINDS] == list(KINDS)  # type: ignore[union-attr]


def test_an_unknown_game_loads_as_none(store: Store) -> None:
    assert store.load("nope") is None
    assert store.moves("nope") == []


def test_changing_a_document_after_saving_or_loading_it_changes_no_stored_game(store: Store) -> None:
    doc = new_game().to_doc()
    store.create("g1", "game", doc, T0)
    saved = dict(doc)

    doc["total"] = 99
    first = store.load("g1")
    assert first is not None
    first.doc["total"] = 77

    again = store.load("g1")
    assert again is not None
    assert again.doc == saved


def test_a_commit_at_the_stored_version_replaces_the_game_and_appends_its_move(store: Store) -> None:
    game = new_game()
    store.create("g1", "game", game.to_doc(), T0)
    [step] = play(game, 1)

    store.commit("g1", step.expected, step.doc, step.move, T0 + 5)

    row = store.load("g1")
    assert row is not None
    assert row.doc == step.doc
    assert row.doc["version"] == 1
    assert (row.created, row.updated) == (T0, T0 + 5)
    assert store.moves("g1") == [step.move]


def test_moves_come_back_oldest_first(store: Store) -> None:
    game = new_game(seed=8)
    store.create("g1", "game", game.to_doc(), T0)
    steps = play(game, 6)

    for n, step in enumerate(steps):
        store.commit("g1", step.expected, step.doc, step.move, T0 + n)

    assert store.moves("g1") == [step.move for step in steps]
    assert [move["version"] for move in store.moves("g1")] == [1, 2, 3, 4, 5, 6]


def test_each_game_keeps_its_own_moves(store: Store) -> None:
    one, other = new_game(seed=1), new_game(seed=2)
    store.create("one", "game", one.to_doc(), T0)
    store.create("other", "game", other.to_doc(), T0)
    [a] = play(one, 1)
    [b, c] = play(other, 2)

    store.commit("one", a.expected, a.doc, a.move, T0)
    store.commit("other", b.expected, b.doc, b.move, T0)
    store.commit("other", c.expected, c.doc, c.move, T0)

    assert store.moves("one") == [a.move]
    assert store.moves("other") == [b.move, c.move]


@pytest.mark.parametrize("expected", [0, 2, 5], ids=["behind", "ahead", "far-ahead"])
def test_a_commit_at_a_stale_version_is_refused_and_changes_nothing(store: Store, expected: int) -> None:
    game = new_game()
    store.create("g1", "game", game.to_doc(), T0)
    first, second = play(game, 2)
    store.commit("g1", first.expected, first.doc, first.move, T0 + 1)  # the game is at version 1

    with pytest.raises(VersionConflict) as refused:
        store.commit("g1", expected, second.doc, second.move, T0 + 2)

    assert refused.value.code == "game/conflict"
    row = store.load("g1")
    assert row is not None
    assert (row.doc, row.updated) == (first.doc, T0 + 1)
    assert store.moves("g1") == [first.move]


def test_a_commit_to_a_game_that_is_not_stored_is_refused(store: Store) -> None:
    [step] = play(new_game(), 1)

    with pytest.raises(VersionConflict):
        store.commit("gone", step.expected, step.doc, step.move, T0)

    assert store.load("gone") is None
    assert store.moves("gone") == []


def test_two_writers_that_loaded_the_same_version_cannot_fork_the_game(open_store: Opener) -> None:
    here, there = open_store(), open_store()
    game = new_game(seed=5)
    here.create("g1", "game", game.to_doc(), T0)
    loaded_here, loaded_there = here.load("g1"), there.load("g1")
    assert loaded_here is not None
    assert loaded_there is not None
    # Each writer plays its own (different) word on the game as it loaded it.
    [mine] = play(Game.from_doc(loaded_here.doc, AB), 1, pick=0)
    [theirs] = play(Game.from_doc(loaded_there.doc, AB), 1, pick=1)
    assert mine.move["word"] != theirs.move["word"]

    here.commit("g1", mine.expected, mine.doc, mine.move, T0 + 1)
    with pytest.raises(VersionConflict):
        there.commit("g1", theirs.expected, theirs.doc, theirs.move, T0 + 2)

    for store in (here, there):
        row = store.load("g1")
        assert row is not None
        assert row.doc == mine.doc
        assert store.moves("g1") == [mine.move]


def test_touch_moves_the_last_use_forward_and_keeps_the_game(store: Store) -> None:
    doc = new_game().to_doc()
    store.create("g1", "game", doc, T0)

    store.touch("g1", T0 + 100)
    store.touch("nope", T0 + 100)  # a game purged meanwhile: nothing to note

    row = store.load("g1")
    assert row is not None
    assert (row.doc, row.created, row.updated) == (doc, T0, T0 + 100)
    assert store.count() == 1


def test_purge_deletes_only_games_last_used_before_the_cut(store: Store) -> None:
    game = new_game()
    for n, when in enumerate([T0, T0 + 10, T0 + 20, T0 + 30]):
        store.create(f"g{n}", "game", game.to_doc(), when)
    store.touch("g0", T0 + 40)  # opened again lately: kept
    [step] = play(game, 1)
    store.commit("g1", step.expected, step.doc, step.move, T0 + 50)  # played lately: kept

    deleted = store.purge(T0 + 30, limit=100)

    assert deleted == 1
    assert store.load("g2") is None
    assert store.moves("g2") == []
    assert [store.load(g) is not None for g in ("g0", "g1", "g3")] == [True, True, True]
    assert store.moves("g1") == [step.move]
    assert store.count() == 3


def test_purge_deletes_at_most_its_limit_and_the_rest_go_in_later_rounds(store: Store) -> None:
    game = new_game()
    for n in range(7):
        store.create(f"g{n}", "game", game.to_doc(), T0 + n)
    store.create("new", "game", game.to_doc(), T0 + 100)

    rounds = [store.purge(T0 + 50, limit=3) for _ in range(4)]

    assert rounds == [3, 3, 1, 0]
    assert store.count() == 1
    assert store.load("new") is not None


def test_a_purged_games_moves_go_with_it(store: Store) -> None:
    game = new_game()
    store.create("g1", "game", game.to_doc(), T0)
    for step in play(game, 3):
        store.commit("g1", step.expected, step.doc, step.move, T0)

    assert store.purge(T0 + 1, limit=10) == 1

    assert store.moves("g1") == []
    store.create("g1", "game", new_game(seed=2).to_doc(), T0 + 2)  # the id may come back, with no past
    assert store.moves("g1") == []


def test_every_document_and_its_record_copy_to_another_engine_and_back_exactly(store: Store) -> None:
    from wibble.engines.store import MemoryStore
    from wibble.engines.store.copy import copy_documents

    game = new_game(seed=5)
    store.create("g1", "game", game.to_doc(), T0)
    for step in play(game, 3):
        store.commit("g1", step.expected, step.doc, step.move, T0 + 5)
    store.create("room:ABC", "room", {"version": 0, "kind": "room"}, T0 + 1)
    originals = sorted(((row, moves) for row, moves in store.export()), key=lambda item: item[0].doc_id)

    elsewhere = MemoryStore()
    assert str(copy_documents(store, elsewhere)).startswith("copied 2 documents (1 game, 1 room)")
    assert sorted(elsewhere.export(), key=lambda item: item[0].doc_id) == originals

    for doc_id in ("g1", "room:ABC"):
        store.delete(doc_id)
    store.create("g1", "game", new_game(seed=9).to_doc(), T0 + 9)  # another document by that id...
    again = copy_documents(elsewhere, store)
    assert again.differing == ["g1"]  # ...is left as it is, and named
    assert "1 NOT copied" in str(again)
    assert store.load("g1").doc == new_game(seed=9).to_doc()  # type: ignore[union-attr]
    assert store.load("room:ABC") == originals[1][0]


def test_copying_again_brings_the_moves_played_since_and_keeps_what_was_played_only_there(
    store: Store,
) -> None:
    from wibble.engines.store import MemoryStore
    from wibble.engines.store.copy import copy_documents

    game = new_game(seed=5)
    store.create("g1", "game", game.to_doc(), T0)
    steps = play(game, 4)
    for step in steps[:3]:
        store.commit("g1", step.expected, step.doc, step.move, T0 + 5)
    elsewhere = MemoryStore()
    assert copy_documents(store, elsewhere).kinds["game"] == 1
    assert str(copy_documents(store, elsewhere)).endswith("1 already there, the same, left as they were")

    # The source plays on (a host who copied, started the old server again, then copied again):
    # the word played since is not lost.
    store.commit("g1", steps[3].expected, steps[3].doc, steps[3].move, T0 + 6)
    again = copy_documents(store, elsewhere)
    assert (again.replaced, again.differing) == (1, [])
    assert elsewhere.load("g1").doc == steps[3].doc  # type: ignore[union-attr]
    assert elsewhere.moves("g1") == store.moves("g1")

    # Played on at the destination instead: never overwritten by the source's older state.
    other = new_game(seed=5)
    elsewhere.commit("g1", steps[3].doc["version"], other.to_doc() | {"version": 5}, {"version": 5}, T0 + 7)
    back = copy_documents(store, elsewhere)
    assert back.differing == ["g1"]
    assert elsewhere.load("g1").doc["version"] == 5  # type: ignore[union-attr]

    # A room (or a race, or a daily board) records only that something changed: whether the
    # destination's went another way cannot be told, so it is named and left, never replaced.
    store.create("room:ABC", "room", {"version": 0, "kind": "room"}, T0)
    copy_documents(store, elsewhere)
    elsewhere.commit("room:ABC", 0, {"version": 1, "kind": "room", "seat": "Cy"}, {"version": 1}, T0 + 8)
    store.commit("room:ABC", 0, {"version": 1, "kind": "room", "seat": "Di"}, {"version": 1}, T0 + 8)
    store.commit("room:ABC", 1, {"version": 2, "kind": "room", "seat": "Ed"}, {"version": 2}, T0 + 9)
    rooms = copy_documents(store, elsewhere)
    assert "room:ABC" in rooms.differing
    assert elsewhere.load("room:ABC").doc["seat"] == "Cy"  # type: ignore[union-attr]


def test_a_documents_version_is_read_without_the_document(store: Store) -> None:
    game = new_game(seed=6)
    store.create("g1", "game", game.to_doc(), T0)
    assert store.version("g1") == 0
    [step] = play(game, 1)
    store.commit("g1", step.expected, step.doc, step.move, T0 + 1)
    assert store.version("g1") == step.doc["version"] == 1
    assert store.version("nope") is None


# -- each document's next deadline, and the index of those nobody handled --------------------


def test_documents_whose_deadline_has_passed_are_found_earliest_first(store: Store) -> None:
    store.create("m-late", "match", {"version": 0}, T0, due=T0 + 30)
    store.create("room:ABCD", "room", {"version": 0}, T0, due=T0 + 10)
    store.create("g-none", "game", {"version": 0}, T0)

    assert store.overdue(T0 + 5, 10) == []
    assert store.overdue(T0 + 20, 10) == [("room:ABCD", "room")]
    assert store.overdue(T0 + 40, 10) == [("room:ABCD", "room"), ("m-late", "match")]
    assert store.overdue(T0 + 40, 1) == [("room:ABCD", "room")]
    assert store.load("m-late").due == T0 + 30  # type: ignore[union-attr]


def test_a_commit_moves_keeps_or_clears_the_next_deadline(store: Store) -> None:
    store.create("m1", "match", {"version": 0}, T0, due=T0 + 10)

    store.commit("m1", 0, {"version": 1}, {"n": 1}, T0 + 1, due=T0 + 100)  # the next turn's end
    assert store.overdue(T0 + 50, 10) == []
    store.commit("m1", 1, {"version": 2}, {"n": 2}, T0 + 2)  # a word that left the clock alone
    assert store.overdue(T0 + 150, 10) == [("m1", "match")]
    store.commit("m1", 2, {"version": 3}, {"n": 3}, T0 + 3, due=None)  # the match is over
    assert store.overdue(T0 + 1_000, 10) == []
    assert store.load("m1").due is None  # type: ignore[union-attr]


def test_a_refused_commit_leaves_the_deadline_as_it_was(store: Store) -> None:
    store.create("m1", "match", {"version": 0}, T0, due=T0 + 10)
    with pytest.raises(VersionConflict):
        store.commit("m1", 5, {"version": 6}, {"n": 6}, T0 + 1, due=None)
    assert store.overdue(T0 + 20, 10) == [("m1", "match")]


def test_a_deleted_or_purged_document_has_no_deadline_left(store: Store) -> None:
    store.create("room:AAAA", "room", {"version": 0}, T0, due=T0 + 10)
    store.create("room:BBBB", "room", {"version": 0}, T0, due=T0 + 10)
    store.delete("room:AAAA")
    store.purge(T0 + 1, 10, prefix="room:")
    assert store.overdue(T0 + 20, 10) == []


def test_a_copied_document_keeps_its_deadline(store: Store) -> None:
    source, back = MemoryStore(), MemoryStore()
    source.create("m1", "match", {"version": 0}, T0, due=T0 + 10)
    for row, moves in source.export():
        store.import_row(row, moves)
    for row, moves in store.export():
        back.import_row(row, moves)
    assert store.overdue(T0 + 20, 10) == back.overdue(T0 + 20, 10) == [("m1", "match")]
