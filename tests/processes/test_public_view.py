"""What anyone may read without paying or holding a seat, against a real server: a spectator's
snapshot, a match's public record and the health check tell nothing that a hint sells, no
room code and no path on the host's disk."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.support import Client, LiveServer
from tests.wire import until

Message = dict[str, Any]
Clients = Callable[[LiveServer], Client]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # A real SQLite file: the health check must not name where it is.
    server = LiveServer("--data-dir", str(tmp_path_factory.mktemp("data")))
    yield server
    server.stop()


def get_json(server: LiveServer, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return json.loads(response.read())


def last(client: Client, kind: str, where: Callable[[Message], bool] = lambda m: True) -> Message:
    return until(client, kind, where)[-1]


def bests(turns: list[Message]) -> list[Any]:
    return [turn.get("best") for turn in turns]


def test_the_best_word_of_past_turns_stays_hidden_until_the_match_is_over(
    server: LiveServer, clients: Clients
) -> None:
    """The audit: after a pass the board is unchanged, so the best word of the turn just ended
    is exactly what the next seat's 4-gem hint returns; a spectator read it in every snapshot
    and in the record. Now the teaching end screen gets it once the match is over, no sooner."""
    ann, bo = clients(server), clients(server)
    ann.send({"type": "create_room", "name": "Ann", "rules": {"rounds": 1}})
    code = last(ann, "room")["code"]
    bo.send({"type": "join_room", "code": code, "name": "Bo"})
    last(bo, "room")
    bo.send({"type": "take_seat", "seat": 1})
    last(bo, "room", lambda m: m["you"] == 1)
    ann.send({"type": "start_match"})
    match_id = last(ann, "match")["match_id"]
    last(bo, "match")

    ann.send({"type": "pass"})
    last(bo, "turn", lambda m: m["turn"] == 1)  # Bo's turn, on the board Ann passed on

    watcher = clients(server)
    watcher.send({"type": "join_room", "code": code, "name": "Di"})
    snapshot = last(watcher, "match")
    assert snapshot["phase"] == "playing"
    assert [turn["ended"] for turn in snapshot["history"]] == ["passed"]
    assert bests(snapshot["history"]) == [None], snapshot["history"]
    assert "summary" not in snapshot
    record = get_json(server, f"/games/{match_id}/record")
    assert record["final"]["phase"] == "playing"
    assert bests(record["final"]["history"]) == [None], record["final"]["history"]
    assert '"best"' not in json.dumps(record)

    bo.send({"type": "pass"})  # the last turn of the only round: the match is over
    over = last(watcher, "match_over")
    assert all(turn["best"] for turn in over["turns"]), over  # the end screen's "best on the board"
    watcher.send({"type": "join_room", "code": code, "name": "Di"})
    snapshot = last(watcher, "match")
    assert snapshot["phase"] == "over"
    assert bests(snapshot["summary"]["turns"]) == bests(over["turns"])
    assert bests(snapshot["history"]) == bests(over["turns"])
    record = get_json(server, f"/games/{match_id}/record")
    assert [turn["best"]["path"] for turn in record["final"]["history"]] == [
        turn["best"]["path"] for turn in over["turns"]
    ]


def test_a_room_matchs_record_does_not_carry_the_room_code(server: LiveServer, clients: Clients) -> None:
    """A match id may be shared (its record is public); the room code lets anyone in to watch or sit."""
    ann = clients(server)
    ann.send({"type": "create_room", "name": "Ann", "rules": {"rounds": 1}})
    code = last(ann, "room")["code"]
    ann.send({"type": "set_seat", "seat": 1, "bot": "easy"})
    last(ann, "room", lambda m: m["seats"][1] is not None)
    ann.send({"type": "start_match"})
    match = last(ann, "match")
    assert match["room"] == code  # the room's own people are told it, of course

    record = get_json(server, f"/games/{match['match_id']}/record")
    assert record["kind"] == "match"
    assert code not in json.dumps(record), record


def test_the_health_check_does_not_show_where_the_database_is(server: LiveServer) -> None:
    health = get_json(server, "/healthz")
    assert health["ok"] is True
    assert health["store"] == "sqlite"
    assert "/" not in json.dumps(health), health
