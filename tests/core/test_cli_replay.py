"""``wibble replay`` on a match's record: a true record is confirmed, a tampered one is reported,
and a match still being played cannot be replayed (its record hides the seed)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.core.matches import NOW, Recorder, every_kind_of_move, humans, new_match
from wibble.cli import main

Run = Callable[[dict[str, Any]], tuple[int, str, str]]


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return every_kind_of_move().record()


@pytest.fixture
def run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    """``wibble replay FILE`` on a record written to a file: the exit code, stdout and stderr."""

    def replay(doc: dict[str, Any]) -> tuple[int, str, str]:
        path = tmp_path / "record.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        code = main(["replay", str(path)])
        out = capsys.readouterr()
        return code, out.out, out.err

    return replay


def test_a_true_match_record_replays_to_its_scores_and_final_state(record: dict[str, Any], run: Run) -> None:
    code, out, err = run(record)

    assert (code, err) == (0, "")
    scores = ", ".join(f"{seat['name']} {seat['score']}" for seat in record["final"]["seats"])
    assert out == f"replayed 9 moves (4 turns): {scores}, same final state as the record\n"


def tampered(record: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    doc = copy.deepcopy(record)
    change(doc)
    return doc


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda doc: doc["moves"][4].update(points=doc["moves"][4]["points"] + 1), "move 5: points was"),
        (lambda doc: doc["moves"][4].update(word="zzz"), "move 5: word was 'zzz'"),
        (lambda doc: doc["moves"].pop(1), "move 2:"),  # the hint left out: the versions no longer follow
        (lambda doc: doc["final"]["seats"][0].update(score=999), "the replay differs: final seats"),
        (lambda doc: doc["final"]["history"][0]["best"].update(points=1), "differs: final history"),
        # Another seed, another board: the powers still work on it, the recorded word does not.
        (lambda doc: doc.update(seed=doc["seed"] + 1), "move 5: its path does not spell a word"),
    ],
)
def test_a_tampered_match_record_is_reported_with_where_it_goes_wrong(
    record: dict[str, Any], run: Run, change: Callable[[dict[str, Any]], None], said: str
) -> None:
    code, out, err = run(tampered(record, change))

    assert (code, out) == (1, "")
    assert err.startswith("wibble: ")
    assert said in err


def test_a_match_still_being_played_is_not_replayed_and_says_why(run: Run) -> None:
    match = new_match(3, seats=humans())
    rec = Recorder(match)
    rec(0, "pass", lambda: match.pass_turn(0, NOW))

    code, out, err = run(rec.record())

    assert (code, out) == (2, "")
    assert "still being played" in err


def test_a_match_record_that_is_not_one_is_refused(record: dict[str, Any], run: Run) -> None:
    code, _, err = run(tampered(record, lambda doc: doc["moves"][0].update(action="teleport")))

    assert code == 2
    assert "not a move of a Wibble match record" in err
