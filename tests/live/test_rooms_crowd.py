"""A crowd in a room costs the people in it one count a second, and nobody can flood a room
by joining it again and again (issue 18's "two spectator tabs disconnect everyone")."""

from __future__ import annotations

from tests.live.players import FakeClock, errors, tick, types
from tests.live.test_rooms import Start, create, held, join, person
from wibble.live.budgets import Limits
from wibble.live.rooms import CROWD_EVERY


def counts(frames: list[dict[str, object]]) -> list[object]:
    return [f["count"] for f in frames if f["type"] == "spectators"]


def test_a_wave_of_watchers_is_told_once_at_once_then_once_a_second(start: Start, clock: FakeClock) -> None:
    live = start()
    ann, room = create(live)
    before = len(ann.frames)
    watchers = [join(live, room["code"], f"W{n}", address=f"192.0.2.{n}") for n in range(1, 41)]

    assert counts(ann.frames[before:]) == [1]  # the first arrival at once, the rest wait
    clock.advance(CROWD_EVERY)
    live.router.timers.run_due()
    assert counts(ann.frames[before:]) == [1, 40]  # then the whole crowd in one message
    for watcher in watchers[:10]:
        watcher.leave()
    tick(live, CROWD_EVERY)
    assert counts(ann.frames[before:]) == [1, 40, 30]  # ten leaving within the second: one count
    # And the room as the host gets it afresh counts the same thirty.
    [again] = ann.send(type="join_room", code=room["code"], name="Ann", token=room["token"])
    assert again["spectators"] == 30


def test_joining_the_same_room_again_and_again_tells_nobody_else_anything(start: Start) -> None:
    live = start()
    ann, room = create(live)
    bo = join(live, room["code"], "Bo")
    quiet = len(ann.frames)

    for _ in range(80):  # the whole burst a connection may send
        frames = bo.send(type="join_room", code=room["code"], name="Bo")
        assert types(frames) == ["room"]

    assert ann.frames[quiet:] == []
    again = ann.send(type="join_room", code=room["code"], name="Ann", token=room["token"])
    assert types(again) == ["room"]  # a seat's own re-join tells only itself
    assert again[0]["you"] == 0


def test_a_room_takes_so_many_watchers_and_so_many_from_one_address(start: Start) -> None:
    live = start(max_spectators=3, spectators_per_address=2)
    ann, room = create(live)
    join(live, room["code"], "A", address="198.51.100.1")
    join(live, room["code"], "B", address="198.51.100.1")
    third = person(live, "198.51.100.1")
    refused = third.send(type="join_room", code=room["code"], name="C")
    assert [f.get("code") for f in refused] == ["room/crowded"]
    join(live, room["code"], "D", address="203.0.113.5")
    fourth = person(live, "203.0.113.9")
    assert [f.get("code") for f in fourth.send(type="join_room", code=room["code"], name="E")] == [
        "room/crowded"
    ]
    # A seat's token always gets its person back in, however full the stands are.
    back = person(live, "203.0.113.9")
    assert types(back.send(type="join_room", code=room["code"], name="Ann", token=room["token"])) == ["room"]


def test_at_max_rooms_a_new_room_takes_the_place_of_one_nobody_but_its_creator_sat_in(
    start: Start, clock: FakeClock
) -> None:
    live = start(max_rooms=3)
    left = []
    for n in range(3):  # the audit's trick: create a room from each address and leave at once
        maker, room = create(live, f"M{n}")
        maker.leave()
        left.append(room["code"])
        clock.advance(1)

    ann, mine = create(live, "Ann")  # the server was full: the longest-empty lonely room closed
    assert mine["you"] == 0
    assert live.store.load(f"room:{left[0]}") is None
    assert [live.router.rooms.docs.get(f"room:{code}") is not None for code in left] == [False, True, True]


def test_a_refused_new_room_closes_no_lonely_room_to_make_space(start: Start, clock: FakeClock) -> None:
    live = start(max_rooms=2, limits=Limits(rooms_per_minute=2))
    maker, lonely = create(live, "Mo")
    maker.leave()
    create(live, "Cy")
    clock.advance(1)

    late = person(live, "198.51.100.30")
    bad_list = late.send(type="create_room", name="Di", rules={"wordlist": "no-such-list"})
    assert errors(bad_list) == ["game/unknown_wordlist"]
    spent = person(live, "192.0.2.1")  # Mo's and Cy's address: its two rooms a minute are spent
    assert errors(spent.send(type="create_room", name="Ed")) == ["limit/rooms"]
    assert live.store.load(f"room:{lonely['code']}") is not None  # still there, for Mo to come back to
    assert types(late.send(type="create_room", name="Di")) == ["room"]  # a room that can open closes it
    assert live.store.load(f"room:{lonely['code']}") is None


def test_a_room_friends_played_in_is_kept_while_they_may_be_coming_back(
    start: Start, clock: FakeClock
) -> None:
    live = start(max_rooms=2)
    ann, friends = create(live, "Ann")
    bo = join(live, friends["code"], "Bo")
    bo.send(type="take_seat", seat=1)
    ann.leave()
    bo.leave()  # everyone reloads, say
    busy, _ = create(live, "Cy")  # in use: never closed

    late = person(live, "198.51.100.20")
    assert [f.get("code") for f in late.send(type="create_room", name="Di")] == ["server/full"]
    clock.advance(120)  # a whole grace period empty: they are not just reloading
    assert types(late.send(type="create_room", name="Di")) == ["room"]
    assert live.store.load(f"room:{friends['code']}") is None
    assert busy.session.room is not None


def test_a_room_command_is_answered_with_its_seq_to_its_sender_alone(start: Start) -> None:
    live = start()
    ann, room = create(live)
    bo = join(live, room["code"], "Bo")
    heard = len(ann.frames)

    [seated] = [f for f in bo.send(type="take_seat", seat=2, seq=41) if f["type"] == "room"]
    assert (seated["you"], seated["seq"]) == (2, 41)
    assert "seq" not in ann.frames[-1]
    assert len(ann.frames) > heard
    [rules] = [f for f in ann.send(type="set_rules", rounds=3, seq=7) if f["type"] == "room"]
    assert rules["seq"] == 7
    assert "seq" not in bo.frames[-1]
    [joined] = person(live).send(type="join_room", code=room["code"], name="Cy", seq=3)
    assert joined["seq"] == 3
    # Rules as they are already: answered to the host, and nothing saved or told to anyone else.
    version, heard = held(live, room["code"]).room.version, len(bo.frames)
    [same] = ann.send(type="set_rules", rounds=3, seq=8)
    assert (same["type"], same["seq"]) == ("room", 8)
    assert (held(live, room["code"]).room.version, len(bo.frames)) == (version, heard)


def test_resuming_a_rooms_id_as_a_game_says_no_such_game_as_for_any_id(start: Start) -> None:
    live = start()
    _, room = create(live)
    prober = person(live)
    real = prober.send(type="resume", game_id=f"room:{room['code']}", token="x" * 30)
    made_up = prober.send(type="resume", game_id="room:ZZZZZZ", token="x" * 30)
    assert [f.get("code") for f in real] == [f.get("code") for f in made_up] == ["game/not_found"]
