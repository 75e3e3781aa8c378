"""A room as a plain document: its checks, who becomes host, moving up at a start, and restoring."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from wibble.core import GameDataError, RuleError
from wibble.core.room import CODE_ALPHABET, Room, Rules, Settled, is_code, new_code, settle


def room_with(*names: str) -> Room:
    room = Room("ABCDEF", Rules(wordlist="en"))
    for seat, name in enumerate(names):
        room.take_seat(seat, name, f"token-{name}", playing=False)
    return room


def refused(code: str, action: Any) -> None:
    with pytest.raises(RuleError) as caught:
        action()
    assert caught.value.code == code


def test_codes_come_from_the_alphabet_without_look_alikes() -> None:
    codes = {new_code(random.Random(seed)) for seed in range(200)}
    assert len(codes) == 200
    assert all(is_code(code) and set(code) <= set(CODE_ALPHABET) for code in codes)
    assert not set("".join(codes)) & set("01OIL")
    assert not is_code("ABCDE0")


def test_the_first_to_sit_hosts_and_a_refused_command_changes_nothing() -> None:
    room = room_with("Ann", "Bo")
    assert room.host == 0
    before = room.to_doc()
    refused("room/seat_taken", lambda: room.take_seat(1, "Cy", "token-cy", playing=False))
    refused("room/not_host", lambda: room.set_rules(1, Rules(rounds=2), playing=False))
    refused("room/match_running", lambda: room.set_rules(0, Rules(rounds=2), playing=True))
    refused("room/match_running", lambda: room.take_seat(2, "Cy", "token-cy", playing=True))
    refused("room/too_few", lambda: room_with("Ann").start(0, False, "m1"))
    assert room.to_doc() == before


def test_a_name_someone_in_the_room_goes_by_already_gets_a_number() -> None:
    room = room_with("Ann", "ann")
    room.take_seat(2, "ANN", "token-third", playing=False)
    room.set_seat(0, 3, "easy", None, playing=False)
    bot = room.seats[3]
    assert bot is not None
    room.take_seat(4, bot.name, "token-twin", playing=False)
    room.take_seat(5, "W" * 20, "token-w1", playing=False)
    room.leave_seat(0, playing=False)
    room.take_seat(0, "W" * 20, "token-w2", playing=False)

    names = [seat.name if seat is not None else None for seat in room.seats]
    assert names[1:5] == ["ann 2", "ANN 3", bot.name, f"{bot.name} 2"]
    assert (names[5], names[0]) == ("W" * 20, "W" * 18 + " 2")  # (still 20 characters at most)


def test_a_full_room_has_no_free_seat() -> None:
    room = room_with("A", "B", "C", "D", "E", "F")
    refused("room/full", lambda: room.take_seat(None, "G", "token-g", playing=False))


def test_people_move_up_into_free_seats_when_a_match_starts() -> None:
    room = Room("ABCDEF")
    room.take_seat(2, "Ann", "a", playing=False)
    room.set_seat(2, 4, "hard", None, playing=False)
    room.take_seat(5, "Bo", "b", playing=False)
    moved = room.start(2, False, "m1")
    assert moved == {2: 0, 4: 1, 5: 2}
    assert [s and s.name for s in room.seats][:3] == ["Ann", "Ada", "Bo"]
    assert room.host == 0
    assert room.match_id == "m1"


def test_the_host_role_passes_to_who_sat_first_preferring_who_is_here() -> None:
    room = Room("ABCDEF")
    for seat, name in ((0, "Ann"), (4, "Cy"), (1, "Bo")):
        room.take_seat(seat, name, f"token-{name}", playing=False)
    room.leave_seat(0, playing=False, present={1})
    assert room.host == 1  # Cy sat before Bo, but only Bo is here
    room.take_seat(0, "Di", "token-Di", playing=False)
    assert not room.hand_on(present={1})  # Bo is here, and first of those here: Bo keeps it
    assert room.hand_on(present={4, 0})  # Bo gone for good: Cy sat first of those here
    assert room.host == 4


def test_a_person_who_leaves_mid_match_is_gone_and_their_seat_frees_after() -> None:
    room = room_with("Ann", "Bo", "Cy")
    room.leave_seat(1, playing=True)
    gone = room.seats[1]
    assert gone is not None
    assert gone.gone
    assert gone.token is None
    assert room.holder(1, playing=True) is gone
    assert room.holder(1, playing=False) is None
    assert room.filled(playing=False) == [0, 2]
    room.take_seat(3, "Bo", "token-bo-again", playing=False)  # between matches: Bo is nobody's now
    seat = room.seats[3]
    assert seat is not None
    assert seat.name == "Bo"


def test_a_bot_is_never_named_as_a_person_is_in_any_case() -> None:
    room = room_with("ada")
    room.set_seat(0, 1, "easy", None, playing=False)
    bot = room.seats[1]
    assert bot is not None
    assert bot.name.casefold() != "ada"


def test_a_removed_token_is_remembered_and_a_bot_stays_until_the_match_ends() -> None:
    room = room_with("Ann", "Bo")
    room.set_seat(0, 2, "easy", None, playing=False)
    assert room.remove(0, 1, playing=False) == "token-Bo"
    assert "token-Bo" in room.removed
    refused("room/match_running", lambda: room.remove(0, 2, playing=True))
    refused("room/not_host", lambda: room.remove(2, 0, playing=False))


def test_a_room_survives_its_document_through_json() -> None:
    room = room_with("Ann", "Bo")
    room.set_seat(0, 3, "medium", 2, playing=False)
    room.leave_seat(1, playing=True)
    room.set_rules(0, Rules(mode="race", race_seconds=60), playing=False)
    doc = json.loads(json.dumps(room.to_doc()))
    assert Room.from_doc(doc).to_doc() == room.to_doc()


def test_a_room_saved_before_modes_plays_matches() -> None:
    doc = room_with("Ann", "Bo").to_doc()
    for name in ("mode", "race_seconds"):
        del doc["rules"][name]
    rules = Room.from_doc(doc).rules
    assert (rules.mode, rules.race_seconds) == ("match", 120)


@pytest.mark.parametrize(
    "damage",
    [
        {"kind": "match"},
        {"format": 99},
        {"seats": [None] * 5},
        {"host": 4},
        {"host": True},
        {"rules": {"rounds": 0, "turn_seconds": None, "wordlist": None, "stand_in": "easy"}},
        {"rules": {"rounds": 3, "turn_seconds": "30", "wordlist": None, "stand_in": "easy"}},
        {"rules": {"rounds": 3, "turn_seconds": None, "wordlist": None, "stand_in": "godlike"}},
        {"rules": {**Rules().to_doc(), "mode": "war"}},
        {"rules": {**Rules().to_doc(), "race_seconds": 9}},
        {"removed": [1]},
        {"joins": -1},
        {"match_id": 7},
        {"barred": "x"},
        {"empty_since": "yesterday"},
        {"empty_since": -5},
        {"empty_since": float("nan")},
    ],
)
def test_a_damaged_room_is_refused(damage: dict[str, Any]) -> None:
    doc = {**room_with("Ann", "Bo").to_doc(), **damage}
    with pytest.raises(GameDataError):
        Room.from_doc(doc)


@pytest.mark.parametrize(
    "seat",
    [
        {"kind": "alien"},
        {"kind": "bot", "level": None},
        {"speed": 9},
        {"speed": True},
        {"gone": "no"},
        {"token": 5},
        {"where": 5},
        {"name": None},
        {"grace_until": "soon"},
        {"grace_until": True},
        {"away": 1},
    ],
)
def test_a_damaged_seat_is_refused(seat: dict[str, Any]) -> None:
    doc = room_with("Ann", "Bo").to_doc()
    doc["seats"][1] = {**doc["seats"][1], **seat}
    with pytest.raises(GameDataError):
        Room.from_doc(doc)


def test_a_seats_grace_period_and_away_mark_are_in_the_document_and_each_step_happens_once() -> None:
    room = room_with("Ann", "Bo")
    assert room.left("token-Bo", 1_120.0)
    assert not room.left("token-Bo", 9_999.0)  # held already: the first deadline stands
    assert room.due() == {"token-Bo": 1_120.0}
    again = Room.from_doc(json.loads(json.dumps(room.to_doc())))
    assert again.due() == {"token-Bo": 1_120.0}

    version = room.version
    assert not room.grace_over("token-Bo", 1_119.9)  # too early: nothing changes
    assert room.grace_over("token-Bo", 1_120.0)
    assert not room.grace_over("token-Bo", 1_121.0)  # handled twice: nothing more
    assert room.version == version + 1
    assert (room.away(), room.due()) == ({"token-Bo"}, {})
    assert not room.left("token-Bo", 2_000.0)  # an away seat is not held again
    assert room.back("token-Bo")  # they were away: a stand-in must stop
    assert not room.back("token-Bo")
    assert room.away() == set()
    assert not room.left("nobody", 1.0)


def test_an_empty_room_knows_since_when() -> None:
    room = room_with("Ann")
    assert room.emptied(50.0)
    assert not room.emptied(60.0)
    assert Room.from_doc(room.to_doc()).empty_since == 50.0
    assert room.occupied()
    assert not room.occupied()
    assert room.empty_since is None


def test_a_room_saved_before_deadlines_were_data_still_opens() -> None:
    doc = room_with("Ann", "Bo").to_doc()
    del doc["empty_since"]
    for seat in doc["seats"][:2]:
        del seat["grace_until"], seat["away"]
    room = Room.from_doc(doc)
    assert (room.empty_since, room.due(), room.away()) == (None, {}, set())


# -- what follows from who is connected (``settle``) ---------------------------------------------

NOW, GRACE = 1_000.0, 120.0
ANN, BO, CY = "token-Ann", "token-Bo", "token-Cy"


def settled(room: Room, here: set[str], anyone: bool | None = None, now: float = NOW) -> Settled:
    """``settle`` on ``room``, checking that it changes nothing itself."""
    before = room.to_doc()
    change = settle(room, here, bool(here) if anyone is None else anyone, now, GRACE)
    assert room.to_doc() == before
    return change


def test_a_person_connected_nowhere_has_their_seat_held_once() -> None:
    room = room_with("Ann", "Bo")
    change = settled(room, {ANN})
    assert (change.held, change.until, change.back, change.away) == ((1,), NOW + GRACE, (), ())
    room.apply(change)
    assert room.seats[1].grace_until == NOW + GRACE  # type: ignore[union-attr]
    assert not settled(room, {ANN}, now=NOW + 5).changed  # held already: the deadline stays


def test_a_held_seat_runs_out_into_away_and_its_person_comes_back() -> None:
    room = room_with("Ann", "Bo")
    room.apply(settled(room, {ANN}))
    assert not settled(room, {ANN}, now=NOW + GRACE - 1).changed
    gone = settled(room, {ANN}, now=NOW + GRACE)
    assert gone.away == (1,)
    room.apply(gone)
    assert room.away() == {BO}
    assert not settled(room, {ANN}, now=NOW + 999).changed  # away stays away
    back = settled(room, {ANN, BO}, now=NOW + 999)
    assert (back.back, back.returned) == ((1,), (1,))
    room.apply(back)
    assert room.away() == set()
    assert room.due() == {}


def test_back_within_the_grace_period_is_not_a_return_from_away() -> None:
    room = room_with("Ann", "Bo")
    room.apply(settled(room, {ANN}))
    back = settled(room, {ANN, BO}, now=NOW + 3)
    assert (back.back, back.returned) == ((1,), ())


def test_an_away_host_hands_on_to_the_earliest_seated_person_here() -> None:
    room = room_with("Ann", "Bo", "Cy")
    room.apply(settled(room, {BO, CY}))  # Ann's seat is held...
    change = settled(
        room, {CY, BO}, now=NOW + GRACE
    )  # ...then she is away, in the same change as the hand-on
    assert (change.away, change.host) == ((0,), 1)
    room.apply(change)
    assert room.host == 1


def test_an_away_host_keeps_the_room_while_nobody_else_is_here_and_a_returning_one_keeps_it() -> None:
    room = room_with("Ann", "Bo")
    room.apply(settled(room, set(), anyone=False))
    room.apply(settled(room, set(), anyone=False, now=NOW + GRACE))
    assert room.away() == {ANN, BO}
    assert room.host == 0
    assert settled(room, {BO}, now=NOW + GRACE + 1).host == 1  # Bo is here: he hosts
    assert settled(room, {ANN, BO}, now=NOW + GRACE + 1).host is None  # Ann is back too: she stays


def test_a_room_nobody_is_in_stands_empty_and_anyone_at_all_fills_it() -> None:
    room = room_with("Ann")
    empty = settled(room, set(), anyone=False)
    assert (empty.emptied, empty.occupied) == (True, False)
    room.apply(empty)
    assert room.empty_since == NOW
    assert not settled(room, set(), anyone=False, now=NOW + 5).emptied  # since then, not since now
    watcher = settled(room, set(), anyone=True, now=NOW + 5)  # a spectator: the room is in use
    assert watcher.occupied
    room.apply(watcher)
    assert room.empty_since is None


def test_applying_a_change_counts_one_version_a_step_and_nothing_for_no_change() -> None:
    room = room_with("Ann", "Bo")
    version = room.version
    assert not room.apply(settled(room, {ANN, BO}))
    assert room.version == version
    assert room.apply(settled(room, set(), anyone=False))  # Ann and Bo held, the room empty
    assert room.version == version + 3
    assert Room.from_doc(json.loads(json.dumps(room.to_doc()))).to_doc() == room.to_doc()


def test_a_room_saved_with_six_seats_has_eight_and_plays_as_before() -> None:
    doc = room_with("Ann", "Bo").to_doc()
    doc["seats"] = doc["seats"][:6]  # as a room was saved before races seated eight
    room = Room.from_doc(doc)
    assert len(room.seats) == 8
    assert [s and s.name for s in room.seats[:2]] == ["Ann", "Bo"]
    refused("room/race_seat", lambda: room.take_seat(6, "Cy", "c" * 64, playing=False))
