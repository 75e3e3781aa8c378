"""A race's replay and record, built from the stored race and its runners' games once it is over:
every runner's scored words in the order they were found, each on its runner's board just before
it, with the standings after it; refused while the race runs, or when a runner's game is gone."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask

from tests.live.players import Live, Start, tick
from tests.live.test_races import race_over, race_room, score_a_word
from tests.live.test_rooms import last
from wibble.core import RecordError, WibbleError
from wibble.live.race_replay import finished_race, race_record, race_replay
from wibble.web.app import _add_records
from wibble.wordlists import WordLists


def raced(live: Live) -> tuple[str, dict[str, Any]]:
    """A race of Ann, Bo and an easy bot played to its end: its id and its ``race_over``."""
    code, ann, bo, di = race_room(live)
    tick(live, 3)
    score_a_word(ann)
    tick(live, 2)
    score_a_word(bo)
    score_a_word(ann)
    race_over(live)
    over = last(di, "race_over")
    return over["race_id"], over


def replayed(live: Live, race_id: str, wordlists: WordLists) -> dict[str, Any]:
    race = finished_race(live.store, race_id)
    assert race is not None
    return race_replay(live.store, race, wordlists)


def test_a_finished_race_replays_every_runner_s_words_in_the_order_they_were_found(
    start: Start, wordlists: WordLists
) -> None:
    live = start()
    race_id, over = raced(live)
    data = replayed(live, race_id, wordlists)

    assert [r["name"] for r in data["runners"]] == ["Ann", "Bo", "Ada"]
    assert data["board"] == over["board"]  # the board everyone started on
    steps = data["steps"]
    assert [s["at"] for s in steps] == sorted(s["at"] for s in steps)
    assert all(0 <= s["at"] <= data["seconds"] for s in steps)
    assert {s["seat"] for s in steps} == {0, 1, 2}
    first = {}
    scores = {0: 0, 1: 0, 2: 0}
    for step in steps:
        # The path spells the word on the runner's board just before it.
        assert "".join(step["board"][r][c]["letter"] for r, c in step["path"]) == step["word"]
        first.setdefault(step["seat"], step["board"])
        scores[step["seat"]] += step["points"]
        assert step["total"] == scores[step["seat"]]
        standings = step["standings"]
        assert {line["seat"]: line["score"] for line in standings} == scores
        assert [line["score"] for line in standings] == sorted(scores.values(), reverse=True)
    assert all(board == data["board"] for board in first.values())  # each began on the same board
    # The end: the standings and each runner's words are the end screen's.
    results = {r["seat"]: r for r in over["results"]}
    assert [line["seat"] for line in data["final"]["standings"]] == [r["seat"] for r in over["results"]]
    for line in data["final"]["standings"]:
        assert line["score"] == results[line["seat"]]["score"]
    for entry in data["final"]["words"]:
        words = [(w["word"], w["points"]) for w in entry["words"]]
        assert words == [(w["word"], w["points"]) for w in results[entry["seat"]]["words"]]


def test_a_race_s_record_holds_its_runners_game_records_and_never_a_token_or_its_room(start: Start) -> None:
    live = start()
    race_id, _ = raced(live)
    race = finished_race(live.store, race_id)
    assert race is not None
    record = race_record(live.store, race)
    assert record["kind"] == "race"
    assert [g["seat"] for g in record["games"]] == [0, 1, 2]
    assert all(g["record"]["seed"] == record["seed"] for g in record["games"])
    text = json.dumps(record)
    assert "token" not in text
    assert race.room not in text
    assert "room" not in record


def test_a_race_still_running_has_no_replay_yet(start: Start) -> None:
    live = start()
    code, ann, _, _ = race_room(live)
    score_a_word(ann)
    race_id = live.router.rooms.docs.get(f"room:{code}").race.race_id
    with pytest.raises(RecordError) as refused:
        finished_race(live.store, race_id)
    assert refused.value.code == "record/in_progress"
    assert finished_race(live.store, "no-such-race") is None


def test_a_race_whose_runner_s_game_is_gone_or_damaged_is_refused_in_words(
    start: Start, wordlists: WordLists
) -> None:
    live = start()
    race_id, _ = raced(live)
    race = finished_race(live.store, race_id)
    assert race is not None
    bot, bo = race.runners[2], race.runners[1]
    row = live.store.load(bo.game_id)
    assert row is not None
    moves = live.store.moves(bo.game_id)
    live.store.delete(bo.game_id)  # a word without its time, the rest as it was
    live.store.import_row(replace(row, doc={**row.doc, "times": row.doc["times"][:-1]}), moves)
    with pytest.raises(WibbleError) as refused:
        race_replay(live.store, race, wordlists)
    assert refused.value.code == "game/unavailable"
    assert refused.value.message == "Bo's game in this race is damaged"
    live.store.delete(bot.game_id)
    with pytest.raises(WibbleError) as gone:
        race_record(live.store, race)
    assert gone.value.code == "game/unavailable"


def test_a_race_s_replay_and_record_over_http(start: Start, wordlists: WordLists) -> None:
    live = start()
    code, ann, _, _ = race_room(live)
    score_a_word(ann)
    race_id = live.router.rooms.docs.get(f"room:{code}").race.race_id
    app = Flask(__name__)
    _add_records(app, wordlists, live.router)
    client = app.test_client()
    for endpoint in ("replay", "record"):
        running = client.get(f"/games/{race_id}/{endpoint}")
        assert running.status_code == 409
        assert running.get_json()["code"] == "record/in_progress"
    race_over(live)
    response = client.get(f"/games/{race_id}/replay")
    assert response.status_code == 200
    data = response.get_json()
    assert data["kind"] == "race"
    assert data["steps"][0]["seat"] in (0, 2)
    assert client.get(f"/games/{race_id}/record").get_json()["race_id"] == race_id
