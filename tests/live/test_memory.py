"""Memory is a cache of the store: games leave it when idle or to make room, and come back as they were."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.live.players import LIST, FakeClock, Live, LiveFactory, Message, errors
from tests.support import WORDS
from wibble.live.credentials import token_hash
from wibble.wordlists import WordLists

IDLE = 600.0


def played_and_left(live: Live, seed: int = 3) -> Message:
    """A game with a word scored, then its player gone; returns the snapshot a resume gives now."""
    player = live.player()
    snapshot = player.new_game(seed=seed)
    player.drag(player.a_word())
    player.send(type="release")
    player.leave()
    [again] = live.player().resume(snapshot["game_id"], snapshot["token"])
    live.players[-1].leave()
    assert again["version"] == 1
    return again


def test_an_idle_game_leaves_memory_and_resumes_from_the_store_as_it_was(
    make_live: LiveFactory, clock: FakeClock
) -> None:
    live = make_live(idle_timeout=IDLE)
    before = played_and_left(live)
    assert len(live.router.games) == 1

    clock.advance(IDLE + 1)
    assert live.router.games.sweep() == 1

    assert len(live.router.games) == 0
    [after] = live.player().resume(before["game_id"], before["token"])
    assert after == before
    assert len(live.router.games) == 1


def test_a_game_is_not_let_go_before_its_idle_timeout(make_live: LiveFactory, clock: FakeClock) -> None:
    live = make_live(idle_timeout=IDLE)
    played_and_left(live)

    clock.advance(IDLE - 1)

    assert live.router.games.sweep(force=True) == 0
    assert len(live.router.games) == 1


def test_a_game_someone_is_connected_to_stays_in_memory_however_long(
    make_live: LiveFactory, clock: FakeClock
) -> None:
    live = make_live(idle_timeout=IDLE)
    live.player().new_game()

    clock.advance(IDLE * 10)

    assert live.router.games.sweep(force=True) == 0
    assert len(live.router.games) == 1


def test_idle_games_are_let_go_as_new_ones_arrive_without_a_housekeeper(
    make_live: LiveFactory, clock: FakeClock
) -> None:
    live = make_live(idle_timeout=IDLE)
    old = live.player()
    old.new_game(seed=1)
    old.leave()

    clock.advance(IDLE + 1)
    live.player().new_game(seed=2)

    assert len(live.router.games) == 1


def test_at_the_cap_an_unattended_game_makes_room_and_still_resumes(make_live: LiveFactory) -> None:
    live = make_live(max_games=2)
    before = played_and_left(live, seed=1)
    live.player().new_game(seed=2)  # someone stays on this one

    third = live.player()
    third.new_game(seed=3)  # the unattended game leaves memory for it

    assert len(live.router.games) == 2
    third.leave()
    [after] = live.player().resume(before["game_id"], before["token"])
    assert after == before
    assert len(live.router.games) == 2


def test_at_the_cap_with_everyone_playing_a_new_game_is_refused_and_nobody_loses_theirs(
    make_live: LiveFactory,
) -> None:
    live = make_live(max_games=2)
    one, two = live.player(), live.player()
    one.new_game(seed=1)
    two.new_game(seed=2)

    frames = live.player().send(type="new_game", wordlist=LIST, seed=3)

    assert errors(frames) == ["server/full"]
    assert len(live.router.games) == 2
    one.drag(one.a_word())
    assert one.send(type="release")[0]["result"] == "scored"


def test_a_game_whose_list_is_gone_is_unavailable_and_the_others_still_load(
    make_live: LiveFactory, tmp_path: Path
) -> None:
    """A server restarted with a folder that no longer has a game's list."""
    before_dir, after_dir = tmp_path / "before", tmp_path / "after"
    for folder in (before_dir, after_dir):
        folder.mkdir()
        for suffix in (".txt", ".toml"):
            shutil.copy(WORDS / f"{LIST}{suffix}", folder / f"{LIST}{suffix}")
    (before_dir / "pets.txt").write_text("cat\ndog\nrat\ntoad\ngoat\n", encoding="utf-8")
    first = make_live(wordlists=WordLists(before_dir))
    kept = first.player().new_game(seed=1, wordlist=LIST)
    lost = first.player().new_game(seed=2, wordlist="pets")

    restarted = make_live(first.store, wordlists=WordLists(after_dir))
    player = restarted.player()

    assert errors(player.resume(lost["game_id"], lost["token"])) == ["game/unavailable"]
    [snapshot] = player.resume(kept["game_id"], kept["token"])
    assert snapshot == kept
    assert errors(restarted.player().resume(lost["game_id"], lost["token"])) == ["game/unavailable"]


def test_a_game_whose_stored_document_is_damaged_is_unavailable_and_the_others_still_load(
    live: Live,
) -> None:
    fine = live.player().new_game(seed=2)
    row = live.store.load(fine["game_id"])
    assert row is not None
    doc = {**row.doc, "board": "?" * 25, "tokens": [token_hash("secret").hex()]}
    live.store.create("damaged", "game", doc, 0.0)

    assert errors(live.player().resume("damaged", "secret")) == ["game/unavailable"]
    assert errors(live.player().resume("damaged", "secret")) == ["game/unavailable"]
    [snapshot] = live.player().resume(fine["game_id"], fine["token"])
    assert snapshot == fine
