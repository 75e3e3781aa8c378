"""Rooms through the live layer, in-process: seats, the host, spectators, away seats, restarts.

Every person is a connection driven as the websocket handler drives it (``Person``); time is
a ``FakeClock`` moved by hand, and a deadline (a grace period, a bot's step, an empty room)
runs only when a test calls ``tick``. No sockets, no sleeps.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.live.players import (
    EMPTY,
    GRACE,
    LIST,
    FakeClock,
    FlakyStore,
    Live,
    Message,
    Person,
    Start,
    errors,
    tick,
    types,
)
from wibble.core.room import CODE_ALPHABET, CODE_LENGTH
from wibble.live.budgets import Limits
from wibble.live.matches import LiveMatch
from wibble.live.rooms import LiveRoom


def person(live: Live, address: str = "192.0.2.1") -> Person:
    player = Person(live.router, address)
    live.players.append(player)
    return player


def create(live: Live, name: str = "Ann", **rules: Any) -> tuple[Person, Message]:
    host = person(live)
    frames = host.send(type="create_room", name=name, rules={"wordlist": LIST, **rules})
    assert types(frames) == ["room"], frames
    return host, frames[0]


def join(live: Live, code: str, name: str, token: str | None = None, address: str = "192.0.2.1") -> Person:
    who = person(live, address)
    message: dict[str, Any] = {"type": "join_room", "code": code, "name": name}
    if token is not None:
        message["token"] = token
    frames = who.send(**message)
    assert frames, "no reply"
    assert frames[0]["type"] == "room", frames
    return who


def sit(who: Person, seat: int) -> Message:
    rooms = [f for f in who.send(type="take_seat", seat=seat) if f["type"] == "room"]
    assert rooms, "no room message"
    assert rooms[-1]["you"] == seat, rooms
    return rooms[-1]


def last(who: Person, kind: str) -> Message:
    return next(f for f in reversed(who.frames) if f["type"] == kind)


def held(live: Live, code: str) -> LiveRoom:
    held = live.router.rooms.docs.get(f"room:{code}")
    assert held is not None
    return held


def match_of(live: Live, code: str) -> LiveMatch:
    match = held(live, code).match
    assert match is not None
    return match


def table(live: Live) -> tuple[str, Person, Person, Person, Person]:
    """Three seats (Ann the host, Bo, Cy) and a spectator (Di), the match started by Ann."""
    ann, room = create(live)
    code = room["code"]
    bo, cy, di = join(live, code, "Bo"), join(live, code, "Cy"), join(live, code, "Di")
    sit(bo, 1)
    sit(cy, 2)
    frames = ann.send(type="start_match")
    assert types(frames) == ["room", "match"], frames
    return code, ann, bo, cy, di


def bo_gone_on_his_turn(live: Live, **rules: Any) -> tuple[str, Person]:
    """Ann hosts and Bo sits; Ann plays the first turn and Bo leaves as his begins. The room's
    code, and Ann."""
    ann, room = create(live, **rules)
    code = room["code"]
    bo = join(live, code, "Bo")
    sit(bo, 1)
    ann.send(type="start_match")
    play_a_word(live, code, ann)
    bo.leave()
    return code, ann


def play_a_word(live: Live, code: str, who: Person) -> Message:
    found = match_of(live, code).match.solve()
    who.drag_path(found[-1].path)
    played = [f for f in who.send(type="release") if f["type"] == "played"]
    assert played, who.frames[-3:]
    return played[0]


# -- making and joining -----------------------------------------------------------------------


def test_a_new_room_has_a_short_code_without_look_alikes_and_its_creator_as_host(start: Start) -> None:
    live = start()
    _, room = create(live)
    assert len(room["code"]) == CODE_LENGTH
    assert set(room["code"]) <= set(CODE_ALPHABET)
    assert not set(room["code"]) & set("0O1IL")
    assert room["you"] == 0
    assert room["host"] == 0
    assert len(room["token"]) >= 22
    assert room["seats"][0]["name"] == "Ann"
    assert room["seats"][1:] == [None] * 7
    assert room["match"] is None
    assert room["spectators"] == 0
    assert room["rules"]["wordlist"] == LIST


def test_the_link_lets_a_friend_watch_and_sit_and_everyone_hears(start: Start) -> None:
    live = start()
    ann, room = create(live)
    bo = join(live, room["code"].lower(), "Bo")  # typed in lower case: still found
    assert bo.frames[0]["you"] is None
    assert "token" not in bo.frames[0]
    assert last(ann, "spectators") == {"type": "spectators", "count": 1}
    seated = sit(bo, 3)
    assert seated["token"]
    assert seated["seats"][3]["name"] == "Bo"
    theirs = last(ann, "room")
    assert theirs["seats"][3]["name"] == "Bo"
    assert theirs["you"] == 0
    assert seated["token"] not in str(theirs)
    assert theirs["token"] == room["token"]


def test_a_wrong_code_is_not_found_and_guessing_is_cut_off(start: Start) -> None:
    live = start()
    create(live)
    guesser = person(live, "198.51.100.9")
    codes = [errors(guesser.send(type="join_room", code="ZZZZZZ", name="Eve")) for _ in range(7)]
    assert codes[:5] == [["room/not_found"]] * 5
    assert codes[5:] == [["limit/joins"]] * 2  # five a minute on one connection
    live.clock.advance(60)
    assert errors(guesser.send(type="join_room", code="ZZZZZZ", name="Eve")) == ["room/not_found"]


def test_guessing_from_many_connections_of_one_address_is_cut_off(start: Start) -> None:
    live = start(limits=Limits(failed_joins_per_minute=3))
    _, room = create(live)
    seen = [
        errors(person(live, "198.51.100.9").send(type="join_room", code="ZZZZZZ", name="E")) for _ in range(4)
    ]
    assert seen == [["room/not_found"]] * 3 + [["limit/joins"]]
    # Even the right code is refused to that address now; another address is not held back.
    assert errors(person(live, "198.51.100.9").send(type="join_room", code=room["code"], name="E")) == [
        "limit/joins"
    ]
    assert not errors(person(live, "198.51.100.10").send(type="join_room", code=room["code"], name="F"))


def test_a_code_alone_never_acts_as_a_seat(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    eve = person(live)
    assert errors(eve.send(type="join_room", code=code, name="Eve", token="x" * 30)) == ["room/bad_token"]
    assert errors(di.send(type="press", row=0, col=0)) == ["room/not_seated"]
    assert errors(di.send(type="pass")) == ["room/not_seated"]


def test_a_full_room_refuses_a_seventh_seat(start: Start) -> None:
    live = start()
    ann, room = create(live)
    for seat in range(1, 6):
        sit(join(live, room["code"], f"P{seat}"), seat)
    late = join(live, room["code"], "Late")
    assert errors(late.send(type="take_seat", seat=2)) == ["room/seat_taken"]
    assert late.frames[0]["seats"][:6].count(None) == 0
    # Seats 7 and 8 are a race's: a match's room is full at six.
    assert errors(late.send(type="take_seat", seat=6)) == ["room/race_seat"]
    assert last(late, "room")["you"] is None


def test_a_race_seats_eight_and_a_match_takes_six_once_seats_7_and_8_are_empty(start: Start) -> None:
    live = start()
    ann, room = create(live, mode="race")
    code = room["code"]
    people = [join(live, code, f"P{seat}") for seat in range(1, 8)]
    for seat, who in enumerate(people, start=1):
        sit(who, seat)
    assert errors(ann.send(type="set_rules", mode="match")) == ["room/too_many_for_match"]
    assert last(ann, "room")["rules"]["mode"] == "race"
    frames = ann.send(type="start_match")
    race = next(f for f in frames if f["type"] == "race")
    assert len(race["runners"]) == 8
    assert errors(join(live, code, "Nine").send(type="take_seat", seat=5)) == ["room/match_running"]


def test_a_room_refuses_when_the_server_is_full_and_closes_none_to_make_space(start: Start) -> None:
    live = start(max_rooms=2)
    create(live)
    create(live)
    late = person(live)
    assert errors(late.send(type="create_room", name="Zed")) == ["server/full"]
    assert len(live.router.rooms) == 2


def test_one_address_cannot_create_rooms_in_a_loop(start: Start) -> None:
    live = start(limits=Limits(rooms_per_minute=2))
    someone = person(live)
    seen = [errors(someone.send(type="create_room", name="Ann")) for _ in range(3)]
    assert seen == [[], [], ["limit/rooms"]]


# -- the host's rules and the match -----------------------------------------------------------


def test_only_the_host_sets_the_rules_and_starts(start: Start) -> None:
    live = start()
    ann, room = create(live)
    bo = join(live, room["code"], "Bo")
    sit(bo, 1)
    assert errors(bo.send(type="set_rules", rounds=2)) == ["room/not_host"]
    assert errors(bo.send(type="start_match")) == ["room/not_host"]
    assert errors(bo.send(type="remove", seat=0)) == ["room/not_host"]
    assert last(ann, "room")["rules"]["rounds"] == 5
    ann.send(type="set_rules", rounds=2, turn_seconds=30, stand_in="hard")
    assert last(bo, "room")["rules"] == {
        "rounds": 2,
        "turn_seconds": 30,
        "wordlist": LIST,
        "stand_in": "hard",
        "values": "spellcast",
        "mode": "match",
        "race_seconds": 120,
    }
    assert errors(ann.send(type="set_rules", wordlist="klingon")) == ["game/unknown_wordlist"]


def test_a_match_needs_two_seats_and_people_move_up_into_free_ones(start: Start) -> None:
    live = start()
    ann, room = create(live)
    assert errors(ann.send(type="start_match")) == ["room/too_few"]
    bo = join(live, room["code"], "Bo")
    sit(bo, 4)
    ann.send(type="set_seat", seat=2, bot="easy")
    ann.send(type="set_seat", seat=4, speed=2)
    frames = ann.send(type="start_match")
    assert types(frames) == ["room", "match"]
    snapshot = frames[0]
    assert [s and s["name"] for s in snapshot["seats"]] == [
        "Ann",
        snapshot["seats"][1]["name"],
        "Bo",
        None,
        None,
        None,
        None,
        None,
    ]
    assert snapshot["seats"][1]["kind"] == "bot"
    assert snapshot["seats"][2]["speed"] == 2
    mine = last(bo, "match")
    assert [seat["connected"] for seat in mine["seats"]] == [True, True, True]  # Ann too, though sent first
    assert mine["you"] == 2
    assert mine["room"] == room["code"]
    assert "token" not in mine
    assert [s["name"] for s in mine["seats"]] == ["Ann", snapshot["seats"][1]["name"], "Bo"]
    assert "seed" not in mine  # it would tell every tile still to come
    assert errors(ann.send(type="set_rules", rounds=3)) == ["room/match_running"]
    assert errors(ann.send(type="start_match")) == ["room/match_running"]


def test_only_the_seat_whose_turn_it_is_moves_and_a_refusal_changes_nothing(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    before = match_of(live, code).match.to_doc()
    assert errors(bo.send(type="press", row=0, col=0)) == ["turn/not_your_turn"]
    assert errors(cy.send(type="shuffle")) == ["turn/not_your_turn"]
    assert errors(di.send(type="press", row=0, col=0)) == ["room/not_seated"]
    assert match_of(live, code).match.to_doc() == before
    played = play_a_word(live, code, ann)
    assert last(di, "played") == played
    assert last(cy, "played") == played
    assert last(bo, "turn")["turn"] == 1


def test_everyone_sees_the_drag_live_and_only_the_payer_sees_a_hint(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    match_of(live, code).match.seats[0].gems = 9
    path = match_of(live, code).match.solve()[0].path
    ann.send(type="press", row=path[0].row, col=path[0].col)
    for other in (bo, cy, di):
        assert last(other, "chain")["chain"] == [[path[0].row, path[0].col]]
    ann.send(type="cancel")
    heard = {who: len(who.frames) for who in (bo, cy, di)}
    assert types(ann.send(type="hint")) == ["hint", "gems"]
    for other, mark in heard.items():
        assert "hint" not in types(other.frames[mark:])
        assert "gems" in types(other.frames[mark:])


# -- nothing lost, nobody locked out ----------------------------------------------------------


def test_a_seat_that_drops_is_held_and_its_token_brings_it_back(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    token = last(bo, "room")["token"]
    play_a_word(live, code, ann)
    bo.leave()
    assert last(ann, "presence") == {"type": "presence", "seat": 1, "connected": False, "away": False}
    tick(live, GRACE - 1)
    back = join(live, code, "Bo", token=token)
    assert [f["type"] for f in back.frames] == ["room", "match"]
    assert back.frames[0]["you"] == 1
    assert back.frames[1]["you"] == 1
    assert back.frames[1]["turn"] == 1
    assert back.frames[1]["version"] == match_of(live, code).match.version
    assert last(ann, "presence")["connected"] is True
    tick(live, 10)  # the grace period would have ended by now: it was stopped
    assert not held(live, code).away
    play_a_word(live, code, back)


def test_a_seat_reopened_in_a_loop_is_settled_once_a_second_past_a_burst(start: Start) -> None:
    """A script that connects Bo's seat and drops it again and again (one message a connection, so
    no connection's message budget is ever spent): the room is saved and told a burst of times,
    then once a second, not at every turn (hostile testing saw 2,937 versions in 5 s)."""
    live = start()
    ann, room = create(live)
    code = room["code"]
    bo = join(live, code, "Bo")
    token = sit(bo, 1)["token"]
    before, heard = held(live, code).room.version, len(ann.frames)
    for _ in range(100):  # all within one instant of the clock
        bo.leave()
        bo = join(live, code, "Bo", token=token)
    flaps = held(live, code).room.version - before
    assert flaps <= 8, flaps  # (SEAT_MOVES at once, then none until a second is up)
    assert len(ann.frames) - heard <= 8
    bo.leave()  # the last word: Bo has gone
    tick(live, 1.5)
    assert last(ann, "presence") == {"type": "presence", "seat": 1, "connected": False, "away": False}
    assert held(live, code).room.seats[1].grace_until is not None  # held for Bo, as any leaving is


def test_an_untimed_turn_passes_when_the_grace_period_ends_and_a_stand_in_plays_on(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    token = last(bo, "room")["token"]
    play_a_word(live, code, ann)
    bo.leave()
    tick(live, GRACE - 0.5)
    assert match_of(live, code).match.turn == 1  # the match waits for Bo...
    tick(live, 0.5)
    assert last(ann, "presence") == {"type": "presence", "seat": 1, "connected": False, "away": True}
    assert last(ann, "turn")["passed"] == "pass"
    assert match_of(live, code).match.turn == 2
    assert live.store.moves(match_of(live, code).match_id)[-1]["action"] == "away"
    play_a_word(live, code, cy)  # round 1 over; round 2 opens with Ann, then the stand-in plays Bo
    play_a_word(live, code, ann)
    tick(live, 0)
    tick(live, 0)
    bo_plays = [f for f in di.frames if f["type"] == "played" and f["seat"] == 1]
    assert bo_plays, "a stand-in played Bo's turn"
    assert join(live, code, "Ed").frames[0]["seats"][1]["away"] is True  # a newcomer sees it too
    back = join(live, code, "Bo", token=token)
    assert back.frames[1]["you"] == 1
    assert 1 not in match_of(live, code).stand_ins
    assert last(ann, "presence") == {"type": "presence", "seat": 1, "connected": True, "away": False}


def test_a_timed_turn_of_an_away_seat_times_out_as_usual(start: Start) -> None:
    live = start()
    code, ann = bo_gone_on_his_turn(live, turn_seconds=30)
    tick(live, 30)
    assert last(ann, "turn")["passed"] == "timeout"
    assert match_of(live, code).match.turn == 0


def test_the_host_role_passes_to_who_sat_first_when_the_host_leaves(start: Start) -> None:
    live = start()
    ann, room = create(live)
    code = room["code"]
    cy, bo = join(live, code, "Cy"), join(live, code, "Bo")
    sit(cy, 4)
    sit(bo, 1)
    ann.send(type="leave_seat")
    assert last(bo, "room")["host"] == 4
    assert errors(ann.send(type="start_match")) == ["room/not_host"]
    assert last(ann, "room")["you"] is None


def test_a_host_away_past_the_grace_period_hands_the_room_on(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    ann.leave()
    tick(live, GRACE)
    assert last(bo, "room")["host"] == 1
    assert errors(bo.send(type="remove", seat=2)) == []


def test_a_host_away_while_nobody_else_was_here_hands_on_when_someone_comes_back(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    bo_token = last(bo, "room")["token"]
    for who in (ann, bo, cy, di):
        who.leave()
    tick(live, GRACE)
    assert held(live, code).room.host == 0  # nobody else here: Ann keeps it
    back = join(live, code, "Bo", token=bo_token)
    assert last(back, "room")["host"] == 1


def test_a_removed_player_watches_and_their_token_opens_nothing(start: Start) -> None:
    live = start()
    ann, room = create(live)
    code = room["code"]
    bo = join(live, code, "Bo")
    token = sit(bo, 1)["token"]
    ann.send(type="remove", seat=1)
    assert "removed" in types(bo.frames)
    assert last(bo, "room")["you"] is None
    assert last(bo, "room")["seats"][1] is None
    assert errors(bo.send(type="leave_seat")) == ["room/not_seated"]
    again = person(live)
    assert errors(again.send(type="join_room", code=code, name="Bo", token=token)) == ["room/removed"]


def bo_removed(start: Start) -> tuple[Live, Person, Person, str]:
    """A room where Ann (the host) removed Bo, who played from another address than hers."""
    live = start()
    ann, room = create(live)
    code = room["code"]
    bo = join(live, code, "Bo", address="198.51.100.7")
    sit(bo, 1)
    ann.send(type="remove", seat=1)
    return live, ann, bo, code


def test_a_removed_player_cannot_sit_down_again_from_where_they_played(start: Start) -> None:
    live, ann, bo, code = bo_removed(start)
    assert errors(bo.send(type="take_seat", seat=1)) == ["room/removed"]
    fresh = join(live, code, "Bo again", address="198.51.100.7")  # a new tab, a new name: still barred
    assert errors(fresh.send(type="take_seat", seat=2)) == ["room/removed"]
    assert fresh.frames[0]["you"] is None  # watching is allowed
    sit(join(live, code, "Cy", address="198.51.100.8"), 1)
    assert "198.51.100.7" not in str(live.store.load(f"room:{code}"))  # only a hash is kept


def test_removing_someone_who_shares_the_hosts_address_closes_no_seat_to_the_others(start: Start) -> None:
    # One household (or everyone on one machine, or behind one proxy): one address for all.
    live = start()
    ann, room = create(live)  # (create's person plays from 192.0.2.1, as join's do by default)
    code = room["code"]
    bo = join(live, code, "Bo")
    sit(bo, 1)
    ann.send(type="remove", seat=1)
    assert errors(bo.send(type="take_seat", seat=1)) == []  # his token is gone; the address is not barred
    assert errors(ann.send(type="remove", seat=1)) == []
    cy = join(live, code, "Cy")
    assert errors(cy.send(type="take_seat", seat=2)) == []  # never removed: she sits
    # The host gets up and sits again: still the room's host, not refused in her own room.
    ann.send(type="leave_seat")
    assert errors(ann.send(type="take_seat", seat=3)) == []


def test_a_removed_player_cannot_take_the_room_while_its_host_gets_up(start: Start) -> None:
    live, ann, bo, code = bo_removed(start)
    ann.send(type="leave_seat")  # the only one seated gets up: nobody hosts for a moment
    assert errors(bo.send(type="take_seat", seat=1)) == ["room/removed"]  # not his to take
    assert errors(ann.send(type="take_seat", seat=0)) == []  # hers, from her own address
    assert held(live, code).room.host == 0


def test_a_player_removed_mid_match_is_played_by_a_stand_in(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    ann.send(type="remove", seat=1)
    assert errors(bo.send(type="press", row=0, col=0)) == ["room/not_seated"]
    play_a_word(live, code, ann)
    tick(live, 0)
    tick(live, 0)
    assert any(f["type"] == "played" and f["seat"] == 1 for f in di.frames)


def test_a_restart_mid_match_brings_back_the_same_turn_and_time_left(start: Start, clock: FakeClock) -> None:
    first = start()
    ann, room = create(first, turn_seconds=60)
    code = room["code"]
    bo = join(first, code, "Bo")
    bo_token = sit(bo, 1)["token"]
    ann.send(type="start_match")
    play_a_word(first, code, ann)
    deadline = match_of(first, code).match.deadline
    version = match_of(first, code).match.version
    clock.advance(7)

    second = start(first.store)  # the process was killed: only the store is left
    back = join(second, code, "Bo", token=bo_token)
    room_again, match = back.frames
    assert room_again["you"] == 1
    assert room_again["code"] == code
    assert match["turn"] == 1
    assert match["version"] == version
    assert match["deadline"] == deadline
    assert match["remaining"] == pytest.approx(60 - 7)
    ann_again = join(second, code, "Ann", token=last(ann, "room")["token"])
    assert ann_again.frames[0]["host"] == 0


def test_an_empty_room_is_deleted_and_its_matches_records_stay(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    match_id = match_of(live, code).match_id
    for who in (ann, bo, cy, di):
        who.leave()
    tick(live, EMPTY)
    assert live.router.rooms.docs.get(f"room:{code}") is None
    assert live.store.load(f"room:{code}") is None
    assert live.store.load(match_id) is not None
    assert errors(person(live).send(type="join_room", code=code, name="Ann")) == ["room/not_found"]


def test_a_room_left_empty_by_a_restart_is_closed_after_the_empty_time(
    start: Start, clock: FakeClock
) -> None:
    first = start()
    ann, room = create(first)
    clock.advance(EMPTY + 1)
    second = start(first.store)
    assert second.router.rooms.deadlines.sweep() == 1
    assert errors(person(second).send(type="join_room", code=room["code"], name="Ann")) == ["room/not_found"]


def test_rematch_keeps_the_room_its_seats_and_host(start: Start) -> None:
    live = start()
    ann, room = create(live, rounds=1)
    code = room["code"]
    bo = join(live, code, "Bo")
    sit(bo, 1)
    assert errors(ann.send(type="rematch")) == ["match/none"]  # nothing played yet to play again
    ann.send(type="start_match")
    play_a_word(live, code, ann)
    play_a_word(live, code, bo)
    assert "match_over" in types(bo.frames)
    assert last(bo, "room")["match"]["phase"] == "over"  # at once, with no timer in between
    first = last(bo, "match")["match_id"]
    assert errors(bo.send(type="rematch")) == ["room/not_host"]
    frames = ann.send(type="rematch")
    assert types(frames) == ["room", "match"]
    assert frames[1]["match_id"] != first
    assert last(bo, "match")["match_id"] == frames[1]["match_id"]
    assert frames[0]["host"] == 0
    assert last(bo, "match")["you"] == 1


def test_a_failed_save_changes_nothing(start: Start) -> None:
    store = FlakyStore()
    live = start(store)
    ann, room = create(live)
    bo = join(live, room["code"], "Bo")
    store.failing = True
    assert errors(bo.send(type="take_seat", seat=1)) == ["server/storage"]
    assert held(live, room["code"]).room.seats[1] is None
    store.failing = False
    sit(bo, 1)


@pytest.mark.parametrize(
    "name",
    ["", "   ", "x" * 21, "a\u200bb", "\u202eevil", "bad\x07", "\u3164", "e\u0301\u0301\u0301\u0301"],
)
def test_a_name_must_be_short_visible_text(start: Start, name: str) -> None:
    live = start()
    assert errors(person(live).send(type="create_room", name=name)) == ["protocol/bad_field"]


def test_a_name_of_markup_is_kept_as_text(start: Start) -> None:
    live = start()
    _, room = create(live, name="<b>x</b>")
    assert room["seats"][0]["name"] == "<b>x</b>"


def test_a_match_ended_by_a_skipped_turn_of_a_person_gone_tells_the_room_at_once(
    start: Start, clock: FakeClock
) -> None:
    live = start()
    code, ann = bo_gone_on_his_turn(live, rounds=1)  # his is the match's last turn
    watcher = join(live, code, "Di")
    tick(live, GRACE)  # his grace period ends (the room's own deadline, under its lock): the turn passes
    assert match_of(live, code).match.phase.name == "OVER"
    assert last(watcher, "room")["match"]["phase"] == "over"
    assert not live.router.timers.when((code, "room-over"))  # no timer was set to hand it on
