"""Every kind of bad input: refused with the documented code, nothing changes, the line stays open.

Each case runs on its own connection against a game in a known state (a word already
scored, and in most cases a chain being dragged), with a second connection attached
before the drag that hears every broadcast. After the error, the game's record (its
committed state) is compared with the one read before, and the sending connection
proves it is still usable, and its chain intact, with a successful move that the
second connection hears next (so nothing was broadcast in between).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from tests.protocol.bad_frames import CASES, LONG_TYPE, Case, enter, frame_text, press, raw
from tests.support import Client, LiveServer
from tests.wire import (
    Connect,
    a_word,
    assert_no_leak,
    committed_view,
    drag,
    expect_error,
    expect_silence,
    final_of,
    hang_up,
    new_game,
    play,
    record_of,
    resume_of,
    state,
)

SEED = 20_240_601
CHAIN = [(0, 0), (0, 1), (1, 1)]  # the chain being dragged in a row of phase "chaining"


def readable_type(frame: str | bytes) -> str | None:
    """The 'type' a server can read from a frame that is a valid JSON object."""
    if isinstance(frame, bytes):
        return None

    def refuse(name: str) -> None:
        raise ValueError(name)

    try:
        data = json.loads(frame, parse_constant=refuse)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict) and isinstance(data.get("type"), str):
        return data["type"]
    return None


@pytest.fixture(scope="module")
def word_path(server: LiveServer) -> list[tuple[int, int]]:
    client = Client(server.ws_url)
    try:
        return a_word(new_game(client, seed=SEED))[1]
    finally:
        client.close()


@dataclass(frozen=True)
class Known:
    """A game set up for a case, and what was known of it before the bad frame."""

    game: dict[str, Any]
    seen: dict[str, Any]  # the watcher's view: its snapshot, updated by the chain messages it heard
    record: dict[str, Any]  # the committed state, from GET /games/<id>/record


def set_up(
    server: LiveServer, client: Client, watcher: Client, phase: str, word_path: list[tuple[int, int]]
) -> Known | None:
    """A game with one word scored, idle or with ``CHAIN`` being dragged; None for "none".

    ``watcher`` resumes the game before the drag starts (a resume during it would take the
    game over and cancel the chain) and hears the drag.
    """
    if phase == "none":
        return None
    game = new_game(client, seed=SEED)
    _, judged, _ = play(client, word_path)
    assert judged["result"] == "scored"
    seen = state(watcher.ask(resume_of(game)))
    assert seen["phase"] == "idle", seen
    if phase == "chaining":
        chains = drag(client, CHAIN)
        heard = [watcher.recv() for _ in chains]
        assert heard == chains
        last = heard[-1]
        seen.update({key: last[key] for key in ("chain", "word", "points", "status", "already_found")})
        seen["phase"] = "chaining"
        assert last["version"] == seen["version"], (last, seen)  # a drag commits nothing
    record = record_of(server, game)
    assert final_of(record) == committed_view(seen)
    assert [move["result"] for move in record["moves"]] == ["scored"]
    return Known(game, seen, record)


def send(client: Client, frame: str | bytes) -> None:
    if isinstance(frame, bytes):
        client.ws.send_binary(frame)
    else:
        client.ws.send(frame)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_bad_input_is_refused_and_changes_nothing(
    case: Case, server: LiveServer, connect: Connect, word_path: list[tuple[int, int]]
) -> None:
    frame = frame_text(case)
    if isinstance(frame, str):
        assert len(frame.encode()) <= 4096, "frames over 4 KB close the connection; see test_limits"
    client, watcher = connect(), connect()
    known = set_up(server, client, watcher, case.phase, word_path)
    if known is not None:
        assert known.seen["phase"] == case.phase, known.seen

    send(client, frame)
    reply = expect_error(client, set(case.code) if isinstance(case.code, frozenset) else case.code)
    assert set(reply) <= {"type", "code", "message", "request"}, reply
    # One line a person can read, whatever was sent (the list of known types grows with the protocol).
    assert len(reply["message"].split(" (known: ")[0]) < 300, reply
    kind = readable_type(frame)
    if kind is not None:
        assert reply.get("request") == kind[:40], reply
    elif reply["code"] != "protocol/bad_json":
        assert "request" not in reply, reply

    if known is None:
        # Still no game: a move is refused, then a new game starts fine. Replies come in
        # order, so each being the next message also shows the error came exactly once.
        client.send({"type": "cancel"})
        expect_error(client, "game/none")
        assert new_game(client)["phase"] == "idle"
        return
    game, seen = known.game, known.seen
    # Nothing was committed: the record is exactly as it was.
    assert record_of(server, game) == known.record
    # The sender is still attached to the game and plays on, from the chain it had. The
    # watcher hears that move next: had the error, or any other change, been broadcast,
    # it would have been queued for the watcher before this move.
    if case.phase == "chaining":
        moved = client.ask(enter(row=1, col=2))
        assert moved["type"] == "chain", moved
        assert moved["chain"] == [[0, 0], [0, 1], [1, 1], [1, 2]], moved
        assert moved["word"].startswith(seen["word"]), (moved, seen)
    else:
        moved = client.ask(press(row=2, col=2))
        assert moved["type"] == "chain", moved
        assert moved["chain"] == [[2, 2]], moved
    assert moved["version"] == seen["version"], (moved, seen)
    assert watcher.recv() == moved
    # And the whole game is as the watcher knew it, plus that move (asked by the sender,
    # who drags the chain: another connection's resume would take the game over).
    assert state(client.ask(resume_of(game))) == {
        **seen,
        **{key: moved[key] for key in ("chain", "word", "points", "status", "already_found")},
        "phase": "chaining",
    }


def test_the_server_survives_the_whole_table(server: LiveServer, connect: Connect) -> None:
    """All the bad frames again, back to back, then a normal game; no reply is a server error."""
    client, used = connect(), 0
    for case in CASES:
        if used == 60:  # stay under the rate limit (bursts of 80 a connection)
            client, used = connect(), 0
        used += 1
        try:
            send(client, frame_text(case))
            reply = client.recv()
        except Exception:  # a dropped connection is the table test's business; carry on
            hang_up(client)
            client, used = connect(), 0
            continue
        assert reply["type"] == "error", (case.id, reply)
        assert reply["code"] != "server/internal", (case.id, reply)
        assert_no_leak(reply)
    assert server.alive()
    assert new_game(connect(), seed=SEED)["phase"] == "idle"
    assert server.alive()


def test_very_long_type_is_not_echoed_in_full(connect: Connect) -> None:
    client = connect()
    client.send({"type": LONG_TYPE})
    reply = expect_error(client, "protocol/unknown_type")
    assert len(json.dumps(reply)) < 500
    assert reply["request"] == LONG_TYPE[:40]


def test_unknown_extra_fields_are_ignored(connect: Connect) -> None:
    client = connect()
    game = new_game(client, seed=SEED, colour="blue", nested={"deep": [1, 2, {"x": None}]})
    chain = client.ask(press(row=0, col=0, pressure=0.5, button="left", row2=7))
    assert chain["type"] == "chain"
    assert chain["chain"] == [[0, 0]]
    assert client.ask({"type": "cancel", "why": "because"})["chain"] == []
    again = client.ask({**resume_of(game), "extra": True})
    assert again["game_id"] == game["game_id"]


def test_errors_on_a_second_tab_do_not_reach_the_first(connect: Connect) -> None:
    first, second = connect(), connect()
    game = new_game(first, seed=SEED)
    second.ask(resume_of(game))
    for frame in ["{", "[]", json.dumps(press(row=9, col=9)), json.dumps(raw(type="release"))]:
        second.send(frame)
        second.recv()
    expect_silence(first, 0.3)


@pytest.mark.parametrize(
    "fields",
    [
        {"token": "\ud800"},
        {"token": "abc\udfff"},
        {"game_id": "\ud800"},
    ],
    ids=["token-lone-surrogate", "token-trailing-surrogate", "id-lone-surrogate"],
)
def test_resume_with_lone_surrogates_is_refused_cleanly(connect: Connect, fields: dict[str, str]) -> None:
    """JSON may escape half a UTF-16 pair; that is not text, so the field is refused as malformed."""
    client = connect()
    game = new_game(client, seed=SEED)
    probe = connect()
    message = {**resume_of(game), **fields}
    code = "protocol/bad_field"
    probe.send(json.dumps(message))  # json.dumps writes the surrogate as a \ud800 escape
    reply = expect_error(probe, code)
    assert reply["request"] == "resume"
    assert probe.ask(resume_of(game))["game_id"] == game["game_id"]
