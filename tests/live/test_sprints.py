"""Sprints in play: the clock is kept in the game's document and by the process's timers."""

from __future__ import annotations

from tests.live.players import Live, LiveFactory, Player, errors, tick, types
from wibble.core import Phase


def sprint(player: Player, seconds: int = 60, seed: int = 3) -> dict[str, object]:
    [snapshot] = player.send(type="new_game", wordlist="en-easy", seed=seed, sprint=seconds)
    assert snapshot["type"] == "game", snapshot
    return snapshot


def test_a_sprint_says_how_long_it_has_and_an_untimed_game_says_nothing_of_a_clock(live: Live) -> None:
    player = live.player()
    snapshot = sprint(player, 180)
    assert (snapshot["sprint"], snapshot["remaining"]) == (180, 180.0)
    assert snapshot["deadline"] == live.clock.now + 180
    untimed = player.new_game(seed=3)
    assert not {"sprint", "deadline", "remaining"} & set(untimed)


def test_the_clock_ends_the_sprint_and_everyone_on_it_is_told_what_was_missed(live: Live) -> None:
    player = live.player()
    snapshot = sprint(player)
    player.drag(player.a_word())
    player.send(type="release")
    total = player.game.total
    watcher = live.player()
    watcher.resume(str(snapshot["game_id"]), str(snapshot["token"]))

    assert tick(live, 59.0) == 0
    assert tick(live, 2.0) == 1
    over = [frame for frame in watcher.frames if frame["type"] == "over"]
    assert len(over) == 1
    assert player.frames[-1] == over[0]
    assert over[0]["total"] == total
    assert len(over[0]["found"]) == 1
    assert over[0]["missed"]
    assert all(m["word"] != over[0]["found"][0]["word"] for m in over[0]["missed"])
    row = live.store.load(str(snapshot["game_id"]))
    assert row is not None
    assert row.doc["phase"] == "over"
    assert live.store.moves(str(snapshot["game_id"]))[-1] == {"version": 2, "time_up": True, "total": total}


def test_a_move_after_the_deadline_is_refused_even_before_the_timer_runs(live: Live) -> None:
    player = live.player()
    snapshot = sprint(player)
    path = player.a_word()
    player.drag(path[:2])
    live.clock.advance(61.0)  # the timer has not run

    frames = player.send(type="enter", row=path[2].row, col=path[2].col)

    assert types(frames) == ["over", "error"]
    assert errors(frames) == ["game/over"]
    assert player.game.found.in_order == []
    assert live.router.timers.run_due() == 0  # the timer is gone with the game's end
    version = player.game.version
    for message in ({"type": "press", "row": 0, "col": 0}, {"type": "release"}):
        assert errors(player.send(**message)) == ["game/over"]
    assert player.game.version == version
    assert live.store.load(str(snapshot["game_id"])).doc["version"] == version  # type: ignore[union-attr]


def test_a_deadline_handled_twice_ends_the_game_once(live: Live) -> None:
    player = live.player()
    snapshot = sprint(player)
    gid = str(snapshot["game_id"])
    tick(live, 61.0)
    live.router.games._due((gid, "sprint"))  # a second process, or a late timer

    assert types(player.frames).count("over") == 1
    assert len(live.store.moves(gid)) == 1


def test_the_sprint_ends_on_time_after_a_restart(make_live: LiveFactory) -> None:
    first = make_live()
    snapshot = sprint(first.player())
    gid, token = str(snapshot["game_id"]), str(snapshot["token"])

    # The server stops 20 s in and starts again on the same store; the player comes back.
    first.clock.advance(20.0)
    second = make_live(store=first.store)
    player = second.player()
    [again] = player.resume(gid, token)
    assert again["remaining"] == 40.0
    assert again["phase"] == "idle"
    assert tick(second, 41.0) == 1
    assert player.frames[-1]["type"] == "over"
    assert player.game.phase is Phase.OVER


def test_a_sprint_whose_time_ran_out_while_nobody_had_it_open_is_over_when_opened(
    make_live: LiveFactory,
) -> None:
    first = make_live()
    snapshot = sprint(first.player())
    first.clock.advance(300.0)
    second = make_live(store=first.store)

    frames = second.player().resume(str(snapshot["game_id"]), str(snapshot["token"]))

    assert types(frames) == ["game"]  # ended as it was opened: the snapshot says so
    assert frames[-1]["phase"] == "over"
    assert frames[-1]["missed"]


def test_a_sprint_of_another_length_is_refused(live: Live) -> None:
    frames = live.player().send(type="new_game", sprint=120)
    assert errors(frames) == ["protocol/bad_field"]
