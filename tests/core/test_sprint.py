"""A sprint: an endless game with a clock. The core reads no clock; ``now`` is passed in."""

from __future__ import annotations

import json
import random

import pytest

from tests.core.test_record import AB, release
from wibble.core import (
    Draws,
    Game,
    GameDataError,
    HashParams,
    Phase,
    Pos,
    Record,
    RecordError,
    RuleError,
    TimeUp,
    differences,
    replay,
    solve,
)

START = 1_000_000.0


def sprint(seconds: int = 60, seed: int = 4) -> Game:
    return Game(
        AB, Draws(seed), HashParams.draw(random.Random(seed)), sprint=seconds, deadline=START + seconds
    )


def test_a_sprint_goes_on_until_its_deadline_and_then_ends_once() -> None:
    game = sprint()
    assert game.time_up(START + 30) == []
    assert game.time_up(START + 60) == []  # at the very instant, it still counts
    assert game.time_up(START + 60.5) == [TimeUp(0, 1)]
    assert game.phase is Phase.OVER
    assert game.time_up(START + 61) == []  # a deadline handled twice changes nothing
    assert game.version == 1


def test_every_move_after_the_end_is_refused_as_game_over_and_changes_nothing() -> None:
    game = sprint()
    path = solve(game.board, AB)[0].path
    release(game, path)
    game.time_up(START + 61)
    doc = game.to_doc()
    moves = (
        lambda: game.press(Pos(0, 0)),
        lambda: game.enter(Pos(0, 1)),
        game.release,
        game.cancel,
        game.clean_up,
    )
    for move in moves:
        with pytest.raises(RuleError) as refused:
            move()
        assert refused.value.code == "game/over"
    assert game.to_doc() == doc


def test_the_end_drops_a_chain_being_dragged_unjudged() -> None:
    game = sprint()
    game.press(Pos(0, 0))
    game.enter(Pos(0, 1))
    [ended] = game.time_up(START + 61)
    assert ended == TimeUp(0, 1)
    assert game.chain == ()
    assert game.found.in_order == []


def test_an_untimed_game_never_ends_and_its_document_is_as_it_always_was() -> None:
    game = Game(AB, Draws(4), HashParams.draw(random.Random(4)))
    assert game.time_up(float("inf")) == []
    assert "sprint" not in game.to_doc()
    assert "deadline" not in game.to_doc()


def test_a_sprints_document_keeps_its_clock_and_its_end() -> None:
    game = sprint(180)
    doc = json.loads(json.dumps(game.to_doc()))
    assert (doc["sprint"], doc["deadline"]) == (180, START + 180)
    again = Game.from_doc(doc, AB)
    assert again.time_up(START + 181) == [TimeUp(0, 1)]
    over = Game.from_doc(json.loads(json.dumps(again.to_doc())), AB)
    assert over.phase is Phase.OVER
    with pytest.raises(RuleError, match="over"):
        over.press(Pos(0, 0))


@pytest.mark.parametrize(
    "change", [{"sprint": 0}, {"deadline": "soon"}, {"sprint": None}, {"sprint": 60, "deadline": None}]
)
def test_a_damaged_clock_is_refused(change: dict[str, object]) -> None:
    doc = {**sprint().to_doc(), **change}
    with pytest.raises(GameDataError):
        Game.from_doc(doc, AB)


def test_an_untimed_game_cannot_be_stored_as_over() -> None:
    doc = {**Game(AB, Draws(4), HashParams.draw(random.Random(4))).to_doc(), "phase": "over"}
    with pytest.raises(GameDataError):
        Game.from_doc(doc, AB)


def test_the_words_missed_are_the_best_ones_not_found_each_with_a_path_that_spells_them() -> None:
    game = sprint()
    best = solve(game.board, AB)
    release(game, best[0].path)
    game.time_up(START + 61)
    missed = game.missed(5)
    found = {word for word, _ in game.found.in_order}
    assert missed == [entry for entry in solve(game.board, AB) if entry.word not in found][:5]
    for entry in missed:
        assert "".join(game.board[pos].symbol for pos in entry.path) == entry.word


def test_a_sprints_record_replays_to_its_end() -> None:
    game = sprint()
    moves = [release(game, solve(game.board, AB)[0].path) for _ in range(3)]
    [ended] = game.time_up(START + 61)
    assert isinstance(ended, TimeUp)
    stored = [m.to_doc() for m in moves] + [{"version": ended.version, "time_up": True, "total": ended.total}]
    record = Record.of("s1", game.to_doc(), stored)
    assert record.sprint == 60
    again = replay(Record.from_doc(json.loads(json.dumps(record.to_doc()))), AB)
    assert again.phase is Phase.OVER
    assert differences(again, record.final) is None


def test_a_record_whose_clock_ran_out_at_another_score_fails_its_replay() -> None:
    game = sprint()
    moves = [release(game, solve(game.board, AB)[0].path)]
    game.time_up(START + 61)
    stored = [m.to_doc() for m in moves] + [{"version": 2, "time_up": True, "total": 999}]
    with pytest.raises(RecordError) as failed:
        replay(Record.of("s1", game.to_doc(), stored), AB)
    assert (failed.value.code, failed.value.move) == ("record/mismatch", 2)


def test_an_untimed_record_cannot_end_on_a_clock() -> None:
    game = Game(AB, Draws(4), HashParams.draw(random.Random(4)))
    with pytest.raises(RecordError):
        Record.of("g1", game.to_doc(), [{"version": 1, "time_up": True, "total": 0}])


def test_a_sprint_ended_early_ends_as_when_its_clock_runs_out_and_replays_to_that_end() -> None:
    game = sprint()
    moves = [release(game, solve(game.board, AB)[0].path)]
    game.press(Pos(0, 0))  # a chain being dragged is dropped unjudged, as at the deadline
    [ended] = game.end_early()
    assert ended == TimeUp(game.total, 2, early=True)
    assert (game.phase, game.chain, game.early) == (Phase.OVER, (), True)
    with pytest.raises(RuleError, match="over"):
        game.press(Pos(0, 0))
    assert game.time_up(START + 61) == []  # its deadline, later, changes nothing
    doc = json.loads(json.dumps(game.to_doc()))
    assert doc["early"] is True
    assert Game.from_doc(doc, AB).early is True
    stored = [m.to_doc() for m in moves] + [
        {"version": 2, "time_up": True, "total": game.total, "early": True}
    ]
    record = Record.from_doc(json.loads(json.dumps(Record.of("s1", doc, stored).to_doc())))
    assert record.moves[-1].to_doc()["early"] is True
    assert differences(replay(record, AB), record.final) is None


def test_ending_early_is_refused_for_an_untimed_game_and_an_ended_sprint_and_changes_nothing() -> None:
    untimed = Game(AB, Draws(4), HashParams.draw(random.Random(4)))
    over = sprint()
    over.time_up(START + 61)
    for game, code in ((untimed, "game/not_sprint"), (over, "game/over")):
        doc = game.to_doc()
        with pytest.raises(RuleError) as refused:
            game.end_early()
        assert refused.value.code == code
        assert game.to_doc() == doc


def test_a_sprint_keeps_when_each_word_scored_as_the_layer_above_stamped_it() -> None:
    game = sprint()
    paths = [entry.path for entry in solve(game.board, AB)]
    game.press(paths[0][0])
    for pos in paths[0][1:]:
        game.enter(pos)
    game.release(at=START + 2.5)
    game.clean_up()
    release(game, solve(game.board, AB)[0].path)  # released without a time (a replay): none kept
    assert game.times == [2.5]
    doc = json.loads(json.dumps(game.to_doc()))
    assert Game.from_doc(doc, AB).times == [2.5]
    del doc["times"]  # a sprint saved before times were kept
    assert Game.from_doc(doc, AB).times == []
    for damaged in ([-1], [1.0, 2.0, 3.0], "soon"):  # a time before the start, more times than words
        with pytest.raises(GameDataError):
            Game.from_doc({**doc, "times": damaged}, AB)
