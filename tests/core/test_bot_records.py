"""A match recorded by the bots as they once were still replays and restores exactly.

A match's record keeps each committed move as data: a word's path, a pass, a shuffle, the
next round. Replaying it plays those moves through the match's commands and never asks a
bot what it would do, and a bot's dice come from a stream of their own (``bot_draws``), so
changing how the bots choose cannot change what a recorded match becomes.

``records/bots-before-levels.json`` is such a record, made through the live layer by
``tests/live/match_record.py`` at commit 21b0f2d, before the levels were calibrated: a person
and three bots (easy, medium, hard), two rounds of the ``en-easy`` list.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.core.matches import NOW, drag, only, through_json
from tests.support import shipped_list
from wibble.core import Pos
from wibble.core.match import Match, Phase, Played, Seat, Settings, choose
from wibble.core.match import restore as restore_match

RECORD = Path(__file__).parent / "records" / "bots-before-levels.json"

NOT_REPLAYED = {"bot_draws"}
"""How far the bots' own stream was drawn: a replay plays the recorded moves without asking them."""


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(RECORD.read_text())
    return doc


def begin(record: dict[str, Any]) -> Match:
    """The match as the record says it began: its list (the very same words), seed, seats and settings."""
    words = shipped_list(record["wordlist"]["name"])
    assert words.digest == record["wordlist"]["digest"], "the list changed since the record was made"
    final = record["final"]
    seats = [Seat(s["name"], s["kind"], s["level"], s["speed"]) for s in record["seats"]]
    settings = Settings.from_doc(record["settings"])
    return Match(words, record["seed"], seats, NOW, settings, final["min_words"], final["size"])


def apply(match: Match, move: dict[str, Any]) -> None:
    """One recorded move, through the commands a person's browser (or the live layer's clock) sends."""
    seat, action = move["seat"], move["action"]
    if action == "play":
        path = [Pos(row, col) for row, col in move["path"]]
        drag(match, seat, path)
        played = only(match.release(seat, NOW), Played)
        assert (played.seat, played.word, played.score.points) == (seat, move["word"], move["points"])
    elif action in ("pass", "away"):
        match.pass_turn(seat, NOW)
    elif action == "shuffle":
        match.shuffle(seat)
    elif action == "round":
        assert match.deadline is not None
        match.next_round(match.deadline)
    else:
        raise AssertionError(f"no replay here for a move of kind {action!r}")
    assert match.version == move["version"], move


def comparable(doc: dict[str, Any]) -> dict[str, Any]:
    plain: dict[str, Any] = json.loads(json.dumps(doc))
    return {key: value for key, value in plain.items() if key not in NOT_REPLAYED}


def named(saved: dict[str, Any]) -> dict[str, Any]:
    """A document saved before a match named its value table, as it is once restored: the same,
    with its settings naming the list's classic values, which it was played with."""
    assert "values" not in saved["settings"]
    return {**saved, "settings": {**saved["settings"], "values": "classic"}}


def test_the_record_was_played_by_bots_of_every_level(record: dict[str, Any]) -> None:
    levels = [seat["level"] for seat in record["seats"] if seat["kind"] == "bot"]
    bot_words = [m for m in record["moves"] if m["action"] == "play" and record["seats"][m["seat"]]["level"]]
    assert levels == ["easy", "medium", "hard"]
    assert len(bot_words) == 6
    assert record["final"]["phase"] == "over"


def test_an_old_record_replays_move_by_move_to_its_final_state(record: dict[str, Any]) -> None:
    match = begin(record)

    for move in record["moves"]:
        apply(match, move)

    assert comparable(match.to_doc()) == comparable(named(record["final"]))


def test_an_old_record_replays_the_same_whatever_the_bots_would_choose_now(record: dict[str, Any]) -> None:
    """At each bot's turn the bots of today are asked (and their stream drawn), then the record is played."""
    match = begin(record)
    asked = []
    for move in record["moves"]:
        seat = move["seat"]
        if move["action"] == "play" and match.seats[seat].kind == "bot":
            asked.append((choose(match, seat, shuffled=True).word, move["word"]))
        apply(match, move)

    assert match.bot_draws.position > 0
    assert comparable(match.to_doc()) == comparable(named(record["final"]))
    assert len(asked) == 6
    assert any(now != then for now, then in asked), asked  # today's bots would have played another match


def test_an_old_records_final_state_restores_as_it_was_saved(record: dict[str, Any]) -> None:
    words = shipped_list(record["wordlist"]["name"])

    restored = restore_match(record["final"], words)

    assert json.loads(json.dumps(restored.to_doc())) == named(record["final"])
    assert restored.words.digest == record["final"]["wordlist_digest"]
    assert restored.phase is Phase.OVER
    assert restored.bot_draws.position == record["final"]["bot_draws"]


def test_a_match_saved_halfway_by_the_old_bots_restores_and_todays_bots_finish_it(
    record: dict[str, Any],
) -> None:
    match = begin(record)
    first_round = [move for move in record["moves"] if move["version"] <= 5]  # round 1 and the next round
    for move in first_round:
        apply(match, move)
    match = through_json(match)
    assert match.round == 2
    assert match.phase is Phase.PLAYING

    while match.phase is Phase.PLAYING:
        seat = match.turn
        if match.seats[seat].kind == "human":
            match.pass_turn(seat, NOW)
            continue
        move = choose(match, seat)
        if move.kind == "shuffle":
            match.shuffle(seat)
            move = choose(match, seat, shuffled=True)
        assert move.kind == "play"
        drag(match, seat, move.path)
        assert only(match.release(seat, NOW), Played).score.points == move.points

    assert match.phase is Phase.OVER
    assert len(match.history) == 8
