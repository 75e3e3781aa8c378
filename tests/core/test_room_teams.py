"""A 2v2 room: four seats in two teams (A in seats 0 and 2, B in 1 and 3), kept as they are when a
match starts; every refusal a clear error that changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from wibble.core import RuleError
from wibble.core.room import Room, Rules


def teams_room(*names: str) -> Room:
    room = Room("ABCDEF", Rules(wordlist="en", mode="teams"))
    for seat, name in enumerate(names):
        room.take_seat(seat, name, f"token-{name}", playing=False)
    return room


def refused(room: Room, code: str, action: Callable[[], object]) -> None:
    before = room.to_doc()
    with pytest.raises(RuleError) as caught:
        action()
    assert caught.value.code == code
    assert room.to_doc() == before


def test_a_person_picks_a_team_and_gets_its_free_seat() -> None:
    room = teams_room("Ann")
    assert room.take_seat(None, "Bo", "b", playing=False, team="a") == 2
    assert room.take_seat(None, "Cy", "c", playing=False, team="b") == 1
    assert room.take_seat(None, "Di", "d", playing=False) == 3
    refused(room, "room/full", lambda: room.take_seat(None, "Ed", "e", playing=False))


def test_a_fifth_seat_or_a_full_team_is_refused() -> None:
    room = teams_room("Ann", "Bo", "Cy")
    refused(room, "room/team_full", lambda: room.take_seat(None, "Di", "d", playing=False, team="a"))
    refused(room, "room/team_full", lambda: room.take_seat(4, "Di", "d", playing=False))
    refused(room, "room/team_full", lambda: room.set_seat(0, 5, "easy", None, playing=False))
    assert room.take_seat(None, "Di", "d", playing=False, team="b") == 3


def test_a_team_is_refused_in_a_room_that_plays_no_2v2() -> None:
    room = Room("ABCDEF")
    refused(room, "room/not_teams", lambda: room.take_seat(None, "Ann", "a", playing=False, team="a"))


def test_a_room_turns_2v2_only_with_seats_5_and_6_empty_and_speeds_go_back_to_1() -> None:
    room = Room("ABCDEF", Rules(wordlist="en"))
    room.take_seat(0, "Ann", "a", playing=False)
    room.take_seat(4, "Bo", "b", playing=False)
    room.set_seat(0, 1, "easy", 2, playing=False)
    teams = replace(room.rules, mode="teams")
    refused(room, "room/too_many_for_teams", lambda: room.set_rules(0, teams, playing=False))
    room.leave_seat(4, playing=False)
    room.set_rules(0, teams, playing=False)
    assert [s.speed for s in room.seats if s is not None] == [1, 1]
    refused(room, "room/teams_speed", lambda: room.set_seat(0, 1, None, 3, playing=False))


def test_a_2v2_starts_with_nobody_moving_and_one_person_is_enough() -> None:
    room = teams_room()
    room.take_seat(2, "Ann", "a", playing=False)
    room.take_seat(3, "Bo", "b", playing=False)
    room.leave_seat(3, playing=True)  # gone during the last match: free now
    moved = room.start(2, False, "m1")
    assert moved == {2: 2}
    assert [s and s.name for s in room.seats] == [None, None, "Ann", None, None, None, None, None]
    assert room.host == 2
    assert room.match_id == "m1"
