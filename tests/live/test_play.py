"""Playing through the live layer: what a player is sent, and that it is only ever what the store holds."""

from __future__ import annotations

import hashlib

from tests.live.players import FlakyStore, Live, LiveFactory, Message, errors
from wibble import protocol
from wibble.core import Game
from wibble.live.credentials import token_hash


def test_a_new_game_is_saved_and_sent_as_a_snapshot(live: Live) -> None:
    player = live.player()

    snapshot = player.new_game(seed=42)

    assert snapshot["seed"] == 42
    assert snapshot["wordlist"] == "en-easy"
    assert (snapshot["phase"], snapshot["version"], snapshot["total"], snapshot["found"]) == (
        "idle",
        0,
        0,
        [],
    )
    assert len(snapshot["board"]) == 5
    assert all(len(row) == 5 for row in snapshot["board"])
    row = live.store.load(snapshot["game_id"])
    assert row is not None
    assert {**row.doc, "tokens": None} == {**player.game.to_doc(), "tokens": None}
    # The store keeps a hash of the token, never the token itself.
    assert row.doc["tokens"] == [hashlib.sha256(snapshot["token"].encode()).hexdigest()]
    assert snapshot["token"] not in str(row.doc)


def test_the_same_seed_deals_the_same_board(live: Live) -> None:
    assert live.player().new_game(seed=5)["board"] == live.player().new_game(seed=5)["board"]


def test_a_word_is_announced_only_once_the_store_holds_it(live: Live) -> None:
    player, watcher = live.player(), live.player()
    snapshot = player.new_game(seed=3)
    watcher.resume(snapshot["game_id"], snapshot["token"])
    stored_when_announced: list[tuple[int, int]] = []

    def check(message: Message) -> None:
        if message["type"] == "word":
            row = live.store.load(snapshot["game_id"])
            assert row is not None
            stored_when_announced.append((len(live.store.moves(snapshot["game_id"])), row.doc["version"]))

    player.on_frame = watcher.on_frame = check
    path = player.a_word()
    player.drag(path)
    frames = player.send(type="release")

    assert [f["type"] for f in frames] == ["word"]  # the word and the refill of its tiles, as one
    assert frames[0]["result"] == "scored"
    assert len(frames[0]["changed"]) == len(path)
    assert stored_when_announced == [(1, 1), (1, 1)]  # for the player and the watcher alike
    assert watcher.frames[-1:] == frames


def test_a_move_the_store_cannot_save_changes_nothing_and_releasing_again_scores(
    make_live: LiveFactory,
) -> None:
    store = FlakyStore()
    live = make_live(store)
    player, watcher = live.player(), live.player()
    snapshot = player.new_game(seed=3)
    watcher.resume(snapshot["game_id"], snapshot["token"])
    path = player.a_word()
    player.drag(path)
    before = player.game.to_doc()
    watched = len(watcher.frames)

    store.failing = True
    failed = player.send(type="release")

    assert errors(failed) == ["server/storage"]
    assert failed[0]["request"] == "release"
    assert player.game.to_doc() == before  # still dragging the same chain: nothing judged, nothing drawn
    assert before["phase"] == "chaining"
    assert len(before["chain"]) == len(path)
    assert len(watcher.frames) == watched  # nobody heard of a word that was not saved
    assert store.moves(snapshot["game_id"]) == []

    store.failing = False
    frames = player.send(type="release")

    assert [f["type"] for f in frames] == ["word"]
    assert frames[0]["result"] == "scored"
    assert frames[0]["version"] == 1
    assert len(store.moves(snapshot["game_id"])) == 1
    row = store.load(snapshot["game_id"])
    assert row is not None
    assert row.doc == {**player.game.to_doc(), "tokens": [token_hash(snapshot["token"]).hex()]}


def test_a_new_game_the_store_cannot_save_is_refused_and_not_kept(make_live: LiveFactory) -> None:
    store = FlakyStore()
    live = make_live(store)
    store.failing = True

    frames = live.player().send(type="new_game", wordlist="en-easy", seed=1)

    assert errors(frames) == ["server/storage"]
    assert len(live.router.games) == 0
    assert store.count() == 0


def test_two_servers_on_one_store_cannot_fork_a_game(make_live: LiveFactory) -> None:
    """As two processes sharing a database: the second to commit is told, and shown the game as stored."""
    here = make_live()
    there = make_live(here.store)
    player = here.player()
    snapshot = player.new_game(seed=3)
    other = there.player()
    other.resume(snapshot["game_id"], snapshot["token"])
    stale_path = other.a_word(skip=1)

    player.drag(player.a_word())
    assert player.send(type="release")[0]["result"] == "scored"
    other.drag(stale_path)
    frames = other.send(type="release")

    assert [f["type"] for f in frames] == ["game", "error"]
    assert errors(frames) == ["game/conflict"]
    stored = here.store.load(snapshot["game_id"])
    assert stored is not None
    assert frames[0]["version"] == stored.doc["version"] == 1
    assert frames[0]["board"] == protocol.board(Game.from_doc(stored.doc, player.game.words))
    assert (
        other.game.to_doc() == Game.from_doc(stored.doc, player.game.words).to_doc() == player.game.to_doc()
    )
    assert len(here.store.moves(snapshot["game_id"])) == 1


def test_resuming_elsewhere_takes_over_the_game_and_cancels_the_old_tabs_chain(live: Live) -> None:
    phone = live.player()
    snapshot = phone.new_game(seed=3)
    path = phone.a_word()
    phone.drag(path[:2])

    laptop = live.player()
    [taken] = laptop.resume(snapshot["game_id"], snapshot["token"])

    assert taken["type"] == "game"
    assert (taken["phase"], taken["chain"]) == ("idle", [])
    assert phone.frames[-1]["type"] == "chain"
    assert phone.frames[-1]["chain"] == []
    assert errors(phone.send(type="enter", row=path[2].row, col=path[2].col)) == ["state/not_chaining"]
    laptop.drag(path)
    assert laptop.send(type="release")[0]["result"] == "scored"
    assert phone.frames[-1]["type"] == "word"  # the old tab still watches


def test_only_the_tab_that_pressed_may_go_on_with_the_chain(live: Live) -> None:
    one = live.player()
    snapshot = one.new_game(seed=3)
    two = live.player()
    two.resume(snapshot["game_id"], snapshot["token"])
    path = one.a_word()
    one.drag(path[:2])

    assert errors(two.send(type="enter", row=path[2].row, col=path[2].col)) == ["state/not_your_chain"]
    assert errors(two.send(type="release")) == ["state/not_your_chain"]
    assert errors(two.send(type="cancel")) == ["state/not_your_chain"]
    assert one.game.chain == tuple(path[:2])
    assert one.send(type="release")[0]["type"] == "word"  # the presser still can


def test_a_tab_that_leaves_mid_drag_frees_the_chain_for_the_others(live: Live) -> None:
    one = live.player()
    snapshot = one.new_game(seed=3)
    two = live.player()
    two.resume(snapshot["game_id"], snapshot["token"])
    path = one.a_word()
    one.drag(path[:2])

    one.leave()

    assert two.frames[-1]["type"] == "chain"
    assert two.frames[-1]["chain"] == []
    two.drag(path)
    assert two.send(type="release")[0]["result"] == "scored"


def test_a_move_before_any_game_is_refused(live: Live) -> None:
    assert errors(live.player().send(type="press", row=0, col=0)) == ["game/none"]


def test_an_unknown_list_is_refused_by_name(live: Live) -> None:
    [error] = live.player().send(type="new_game", wordlist="klingon")

    assert error["code"] == "game/unknown_wordlist"
    assert "en-easy" in error["message"]
