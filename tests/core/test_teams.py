"""A 2v2: four seats in two teams, turns alternating between the teams, the team's total deciding,
and teammates' suggestions that are the turn's alone (never saved)."""

from __future__ import annotations

import json

import pytest

from tests.core.matches import (
    NOW,
    P,
    Recorder,
    humans,
    new_match,
    only,
    pass_round,
    play_best,
    refused,
    saved,
    through_json,
)
from wibble.core import GameDataError
from wibble.core.match import (
    VERSUS,
    Match,
    MatchOver,
    MatchRecord,
    Settings,
    Suggested,
    match_differences,
    replay_match,
    teammates,
)
from wibble.core.match import restore as restore_match


def versus(seed: int = 3, **settings: object) -> Match:
    """A 2v2 of four people (no pause between rounds unless the test asks for one)."""
    return new_match(seed, seats=humans(1, 1, 1, 1), teams=VERSUS, **{"round_pause": 0, **settings})


def test_turns_alternate_between_the_teams_a1_b1_a2_b2_in_every_round() -> None:
    match = versus(rounds=3)
    order = []
    while match.phase.value != "over":
        order.append((match.round, match.turn))
        match.pass_turn(match.turn, NOW)
    assert order == [(r, seat) for r in (1, 2, 3) for seat in (0, 1, 2, 3)]
    assert [VERSUS[seat] for _, seat in order[:4]] == [0, 1, 0, 1]


def test_the_team_with_the_higher_total_wins_and_each_team_shows_its_words() -> None:
    match = versus(rounds=1)
    events = []
    for _ in range(4):
        events += play_best(match) if match.turn in (0, 3) else match.pass_turn(match.turn, NOW)
    summary = only(events, MatchOver).summary
    scores = [seat.score for seat in match.seats]
    a, b = summary["teams"]
    assert (a["name"], a["seats"], a["score"]) == ("A", [0, 2], scores[0] + scores[2])
    assert (b["name"], b["seats"], b["score"]) == ("B", [1, 3], scores[1] + scores[3])
    assert [w["seat"] for w in a["words"]] == [0]
    assert [w["seat"] for w in b["words"]] == [3]
    assert a["words"][0]["word"] == match.history[0]["played"]
    winner = None if a["score"] == b["score"] else int(b["score"] > a["score"])
    assert summary["winner"] == winner
    assert {a["rank"], b["rank"]} == ({1} if winner is None else {1, 2})


def test_equal_totals_are_a_tie() -> None:
    match = versus(rounds=1)
    events = []
    while match.phase.value != "over":
        events += match.pass_turn(match.turn, NOW)
    summary = only(events, MatchOver).summary
    assert summary["winner"] is None
    assert [(t["score"], t["rank"]) for t in summary["teams"]] == [(0, 1), (0, 1)]


def test_a_match_without_teams_has_no_team_fields_and_its_document_reads_as_before() -> None:
    match = new_match(3, round_pause=0, rounds=1)
    doc = match.to_doc()
    assert "teams" not in doc["settings"]
    pass_round(match)
    assert "teams" not in match.summary()
    assert "winner" not in match.summary()
    assert through_json(match).settings.teams is None


def test_a_2v2_document_keeps_its_teams_through_json() -> None:
    match = versus()
    play_best(match)
    again = through_json(match)
    assert again.settings.teams == VERSUS
    assert saved(again) == saved(match)


def test_an_old_document_without_teams_is_a_normal_match() -> None:
    match = new_match(3)
    doc = json.loads(json.dumps(match.to_doc()))
    assert "teams" not in doc["settings"]
    assert restore_match(doc, match.words).settings.teams is None


@pytest.mark.parametrize(
    "teams",
    [[0, 1, 0], [0, 0, 0, 0], [0, 1, 2, 1], [0, 1, True, 1], "0101"],
    ids=["wrong count", "one team", "third team", "a bool", "text"],
)
def test_a_document_with_damaged_teams_is_refused(teams: object) -> None:
    doc = json.loads(json.dumps(versus().to_doc()))
    doc["settings"]["teams"] = teams
    with pytest.raises(GameDataError):
        restore_match(doc, versus().words)


def test_settings_refuse_teams_that_are_not_two() -> None:
    with pytest.raises(ValueError, match="teams"):
        Settings(teams=(0, 0))
    with pytest.raises(ValueError, match="a match with teams"):
        new_match(seats=humans(1, 1), teams=VERSUS)


def test_a_2v2_replays_from_its_record() -> None:
    match = versus(rounds=1)
    rec = Recorder(match)
    rec.play_best()
    for seat in (1, 2):
        rec(seat, "pass", lambda seat=seat: match.pass_turn(seat, NOW))
    rec.play_best()
    record = MatchRecord.from_doc(rec.record())
    assert record.settings.teams == VERSUS
    replayed = replay_match(record, match.words)
    assert match_differences(replayed, record.final) is None
    assert replayed.summary()["teams"] == match.summary()["teams"]


def test_teammates_are_the_seats_of_one_team() -> None:
    assert teammates(VERSUS, 0) == [0, 2]
    assert teammates(VERSUS, 3) == [1, 3]


# -- suggestions ------------------------------------------------------------------------


def test_a_tap_marks_a_tile_for_the_teammate_and_a_second_tap_unmarks_it() -> None:
    match = versus()
    version = match.version
    assert match.suggest(2, P(1, 1)) == [Suggested(2, (P(1, 1),))]
    assert match.suggest(2, P(0, 4), to=0) == [Suggested(2, (P(1, 1), P(0, 4)))]
    assert match.suggest(2, P(1, 1)) == [Suggested(2, (P(0, 4),))]
    assert match.suggest(0, P(2, 2)) == [Suggested(0, (P(2, 2),))]  # the seat playing may mark too
    assert match.suggest(2, None) == [Suggested(2, ())]
    assert match.version == version  # ephemeral: nothing committed
    assert "marks" not in json.dumps(match.to_doc())


def test_marks_are_the_turns_alone() -> None:
    match = versus()
    match.suggest(2, P(1, 1))
    match.pass_turn(0, NOW)
    assert match.marks == {}
    assert match.suggest(3, P(0, 0)) == [Suggested(3, (P(0, 0),))]
    assert through_json(match).marks == {}  # never saved: another process starts with none


@pytest.mark.parametrize(
    ("seat", "pos", "to", "code"),
    [
        (1, P(0, 0), None, "turn/not_your_team"),  # the other team plays now
        (3, P(0, 0), None, "turn/not_your_team"),
        (2, P(0, 0), 1, "match/not_teammate"),  # addressed to the other team
        (2, P(0, 0), 2, "match/not_teammate"),  # to itself
        (2, P(9, 9), None, "move/off_board"),
        (7, P(0, 0), None, "match/bad_seat"),
    ],
)
def test_a_refused_suggestion_changes_nothing(seat: int, pos: P, to: int | None, code: str) -> None:
    match = versus()
    match.suggest(2, P(1, 1))
    with refused(match, code):
        match.suggest(seat, pos, to)
    assert match.marks == {2: (P(1, 1),)}


def test_suggestions_need_a_2v2_and_a_turn_in_play() -> None:
    alone = new_match()
    with refused(alone, "match/not_teams"):
        alone.suggest(0, P(0, 0))
    paused = versus(round_pause=3)
    pass_round(paused)
    with refused(paused, "turn/between_rounds"):
        paused.suggest(0, P(0, 0))
    over = versus(rounds=1)
    pass_round(over)
    with refused(over, "match/over"):
        over.suggest(0, P(0, 0))
