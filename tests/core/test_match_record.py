"""A match's record played again from its seed: every kind of move, and every way a record can lie.

The records here are made as the server makes them (``tests.core.matches.Recorder``), so
the replay is checked against the real format.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tests.core.matches import NOW, Recorder, every_kind_of_move, humans, new_match
from tests.support import shipped_list
from wibble.core import Pos, RecordError
from wibble.core.match import (
    Match,
    MatchEvent,
    MatchMove,
    MatchRecord,
    Seat,
    choose,
    match_differences,
    replay_match,
    restore,
)
from wibble.core.wordlist import CHANGED_IN_PLAY


@pytest.fixture(scope="module")
def played() -> tuple[Match, dict[str, Any]]:
    rec = every_kind_of_move()
    return rec.match, rec.record()


def test_every_kind_of_move_replays_to_the_recorded_final_state(played: tuple[Match, dict[str, Any]]) -> None:
    original, doc = played
    record = MatchRecord.from_doc(doc)
    actions = [move.action for move in record.moves]
    assert actions == ["shuffle", "hint", "extend", "swap", "play", "pass", "round", "timeout", "away"]
    seen: list[tuple[int, str]] = []

    again = replay_match(
        record, shipped_list("en"), lambda match, move: seen.append((match.version, move.action))
    )

    assert match_differences(again, record.final) is None
    assert seen == [(version, action) for version, action in enumerate(actions)]  # each seen before it
    assert [seat.score for seat in again.seats] == [seat.score for seat in original.seats]
    assert again.history == json.loads(json.dumps(original.history))
    assert again.history[0]["played"]["points"] > 0


def test_a_swap_is_recorded_with_its_tile_and_the_letter_it_shows(
    played: tuple[Match, dict[str, Any]],
) -> None:
    _, doc = played
    [swap] = [move for move in doc["moves"] if move["action"] == "swap"]
    assert (swap["row"], swap["col"]) == (0, 0)
    assert swap["letter"] in ("a", "e")


def edited(doc: dict[str, Any], number: int, **fields: Any) -> MatchRecord:
    """The record with move ``number`` (from 1) changed."""
    changed = copy.deepcopy(doc)
    changed["moves"][number - 1].update(fields)
    return MatchRecord.from_doc(changed)


def mismatch(record: MatchRecord) -> RecordError:
    with pytest.raises(RecordError) as caught:
        replay_match(record, shipped_list("en"))
    assert caught.value.code == "record/mismatch"
    return caught.value


@pytest.mark.parametrize(
    ("field", "value"),
    [("points", 999), ("word", "zzz"), ("path", [[0, 0], [4, 4]]), ("version", 77)],
)
def test_a_tampered_word_is_caught_at_its_move(
    played: tuple[Match, dict[str, Any]], field: str, value: Any
) -> None:
    _, doc = played
    error = mismatch(edited(doc, 5, **{field: value}))
    assert error.move == 5


def test_a_swap_to_another_letter_or_a_move_left_out_is_caught(played: tuple[Match, dict[str, Any]]) -> None:
    _, doc = played
    swap = doc["moves"][3]
    other = "b" if swap["letter"] != "b" else "c"
    # Any letter may be swapped in, and the word after it does not cross that tile: every move
    # replays, but the board the match ends on is not the recorded one.
    assert [0, 0] not in doc["moves"][4]["path"]
    record = edited(doc, 4, letter=other)
    difference = match_differences(replay_match(record, shipped_list("en")), record.final)
    assert difference is not None
    assert difference.startswith("final board")
    dropped = copy.deepcopy(doc)
    del dropped["moves"][5]  # the pass: the next move is the clock's, before the round is over
    assert mismatch(MatchRecord.from_doc(dropped)).move == 6


def test_a_move_by_a_seat_whose_turn_it_was_not_is_caught(played: tuple[Match, dict[str, Any]]) -> None:
    _, doc = played
    error = mismatch(edited(doc, 6, seat=0))
    assert error.move == 6
    assert "it is Ada's turn" in error.message


def test_a_tampered_final_state_is_a_difference(played: tuple[Match, dict[str, Any]]) -> None:
    _, doc = played
    changed = copy.deepcopy(doc)
    changed["final"]["seats"][1]["score"] += 5
    record = MatchRecord.from_doc(changed)
    difference = match_differences(replay_match(record, shipped_list("en")), record.final)
    assert difference is not None
    assert difference.startswith("final seats")


def test_a_match_still_being_played_has_no_seed_in_its_record_and_cannot_be_replayed() -> None:
    match = new_match(3, seats=humans())
    rec = Recorder(match)
    rec(0, "pass", lambda: match.pass_turn(0, NOW))
    doc = rec.record()
    assert doc["seed"] is None
    record = MatchRecord.from_doc(doc)
    assert not record.over
    with pytest.raises(RecordError) as caught:
        replay_match(record, shipped_list("en"))
    assert caught.value.code == "record/in_progress"


def test_a_record_played_with_another_version_of_the_list_is_refused(
    played: tuple[Match, dict[str, Any]],
) -> None:
    _, doc = played
    changed = copy.deepcopy(doc)
    changed["wordlist"]["digest"] = "0" * 64
    with pytest.raises(RecordError) as caught:
        replay_match(MatchRecord.from_doc(changed), shipped_list("en"))
    assert caught.value.code == "record/wordlist_changed"


@pytest.mark.parametrize(
    "damage",
    [
        lambda doc: doc.update(kind="game"),
        lambda doc: doc.update(format=2),
        lambda doc: doc.update(seed="42"),
        lambda doc: doc["moves"][0].update(action="teleport"),
        lambda doc: doc["moves"][6].update(seat=1),  # the clock's move, said to be a seat's
        lambda doc: doc["moves"][4].update(path=[["0", 0]]),
        lambda doc: doc["seats"].clear(),
        lambda doc: doc["settings"].update(rounds=0),
    ],
)
def test_what_is_not_a_match_record_is_refused_as_invalid(
    played: tuple[Match, dict[str, Any]], damage: Callable[[dict[str, Any]], None]
) -> None:
    _, doc = played
    changed = copy.deepcopy(doc)
    damage(changed)
    with pytest.raises(RecordError) as caught:
        MatchRecord.from_doc(changed)
    assert caught.value.code == "record/invalid"


def test_a_swap_recorded_before_swaps_named_their_tile_cannot_be_replayed(
    played: tuple[Match, dict[str, Any]],
) -> None:
    _, doc = played
    changed = copy.deepcopy(doc)
    for key in ("row", "col", "letter"):
        del changed["moves"][3][key]
    with pytest.raises(RecordError) as caught:
        MatchRecord.from_doc(changed)
    assert caught.value.code == "record/incomplete"
    assert caught.value.move == 4


def test_a_bots_own_draws_are_not_compared_nor_needed() -> None:
    """Bots' choices come from draws of their own, which a replay (playing their recorded paths)
    never makes: the final state matches all the same."""
    match = new_match(5, seats=[Seat("Ann", "human"), Seat("Ada", "bot", "easy")], rounds=1)
    rec = Recorder(match)
    rec.play_best()
    move = choose(match, 1)  # draws from bot_draws, as the live layer's bot does
    assert move.kind == "play"

    def bot() -> list[MatchEvent]:
        events = match.press(1, move.path[0])
        for pos in move.path[1:]:
            events += match.enter(1, pos)
        return events + match.release(1, NOW)

    rec(1, "play", bot)
    doc = rec.record()
    assert doc["final"]["bot_draws"] > 0
    record = MatchRecord.from_doc(doc)
    again = replay_match(record, shipped_list("en"))
    assert again.bot_draws.position == 0
    assert match_differences(again, record.final) is None


def test_a_move_read_from_a_record_keeps_what_a_replay_needs() -> None:
    move = MatchMove.from_doc(
        {"version": 3, "seat": 1, "action": "swap", "row": 2, "col": 4, "letter": "q"}, 1
    )
    assert move.swap == (Pos(2, 4), "q")
    clock = MatchMove.from_doc({"version": 4, "seat": None, "action": "timeout"}, 2)
    assert (clock.seat, clock.action) == (None, "timeout")


def test_a_match_resumed_after_its_list_changed_is_refused_by_every_version_of_the_list() -> None:
    words = shipped_list("en")
    match = new_match(3, seats=humans())
    edited = replace(words, digest="0" * 64)  # the same list, as after a host's edit of its file

    resumed = restore(match.to_doc(), edited)

    assert resumed.to_doc()["wordlist_digest"] == CHANGED_IN_PLAY
    assert restore(match.to_doc(), words).to_doc()["wordlist_digest"] == match.to_doc()["wordlist_digest"]
    rec = every_kind_of_move()
    doc = rec.record()
    doc["wordlist"]["digest"] = CHANGED_IN_PLAY
    with pytest.raises(RecordError) as caught:
        replay_match(MatchRecord.from_doc(doc), words)
    assert caught.value.code == "record/wordlist_changed"
    assert "changed while the match was being played" in caught.value.message
