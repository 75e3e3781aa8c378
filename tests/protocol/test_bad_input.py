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
CHAIN = [(0, 0), (0, 1), (1, 1)]  # the chain being dragged in "chaining" cases


@dataclass(frozen=True)
class Case:
    id: str
    frame: str | bytes | dict[str, Any]
    code: str | frozenset[str]
    phase: str = "chaining"  # "none" (no game yet), "idle" or "chaining"


def raw(**fields: Any) -> dict[str, Any]:
    return fields


def press(**fields: Any) -> dict[str, Any]:
    return {"type": "press", **fields}


def enter(**fields: Any) -> dict[str, Any]:
    return {"type": "enter", **fields}


NESTED = "[" * 2000 + "]" * 2000
LONG_TYPE = "x" * 4000
# A 'type' that is not a string: the table says "a required field (or type) is missing"
# for missing_field and "wrong type" for bad_field; either reading is accepted here.
TYPE_NOT_TEXT = frozenset({"protocol/missing_field", "protocol/bad_field"})

CASES = [
    # -- not JSON at all -----------------------------------------------------------
    Case("malformed", "{", "protocol/bad_json"),
    Case("truncated", '{"type": "press", "row": 0,', "protocol/bad_json"),
    Case("single-quotes", "{'type': 'press', 'row': 0, 'col': 0}", "protocol/bad_json"),
    Case("trailing-garbage", '{"type": "cancel"} x', "protocol/bad_json"),
    Case("two-objects", '{"type": "cancel"}{"type": "cancel"}', "protocol/bad_json"),
    Case("NaN", "NaN", "protocol/bad_json"),
    Case("Infinity", "Infinity", "protocol/bad_json"),
    Case("-Infinity", "-Infinity", "protocol/bad_json"),
    Case("NaN-row", '{"type": "enter", "row": NaN, "col": 0}', "protocol/bad_json"),
    Case("Infinity-col", '{"type": "enter", "row": 0, "col": Infinity}', "protocol/bad_json"),
    Case("NaN-seed", '{"type": "new_game", "seed": NaN}', "protocol/bad_json"),
    Case("empty-frame", "", "protocol/bad_json"),
    Case("whitespace-frame", "  \n\t ", "protocol/bad_json"),
    Case("byte-order-mark", '\ufeff{"type": "cancel"}', "protocol/bad_json"),
    Case("nested-list", NESTED, "protocol/bad_json"),
    Case("unclosed-nesting", "[" * 3000, "protocol/bad_json"),
    Case(
        "nested-in-object", '{"type": "enter", "row": ' + "[" * 1990 + "]" * 1990 + "}", "protocol/bad_json"
    ),
    # -- JSON, but not an object ---------------------------------------------------------
    Case("list", "[]", "protocol/not_object"),
    Case("list-of-message", '[{"type": "cancel"}]', "protocol/not_object"),
    Case("number", "1", "protocol/not_object"),
    Case("float", "1.5", "protocol/not_object"),
    Case("string", '"cancel"', "protocol/not_object"),
    Case("null", "null", "protocol/not_object"),
    Case("true", "true", "protocol/not_object"),
    # -- the type ---------------------------------------------------------------------
    Case("no-type", raw(row=1, col=1), "protocol/missing_field"),
    Case("empty-object", "{}", "protocol/missing_field"),
    Case("type-null", raw(type=None), TYPE_NOT_TEXT),
    Case("type-number", raw(type=1), TYPE_NOT_TEXT),
    Case("type-bool", raw(type=True), TYPE_NOT_TEXT),
    Case("type-list", raw(type=["cancel"]), TYPE_NOT_TEXT),
    Case("type-object", raw(type={"name": "cancel"}), TYPE_NOT_TEXT),
    Case("unknown-type", raw(type="fly"), "protocol/unknown_type"),
    Case("empty-type", raw(type=""), "protocol/unknown_type"),
    Case("type-wrong-case", raw(type="CANCEL"), "protocol/unknown_type"),
    Case("type-with-space", raw(type="cancel "), "protocol/unknown_type"),
    Case("type-dunder", raw(type="__class__"), "protocol/unknown_type"),
    Case("server-message-type", raw(type="game"), "protocol/unknown_type"),
    Case("very-long-type", raw(type=LONG_TYPE), "protocol/unknown_type"),
    Case("non-ascii-type", raw(type="ñandú"), "protocol/unknown_type"),
    Case("lone-surrogate-type", '{"type": "\\ud800"}', "protocol/unknown_type"),
    # -- row and col ------------------------------------------------------------------
    Case("press-no-row", press(col=0), "protocol/missing_field", "idle"),
    Case("press-no-col", press(row=0), "protocol/missing_field", "idle"),
    Case("press-no-fields", press(), "protocol/missing_field", "idle"),
    Case("enter-no-row", enter(col=2), "protocol/missing_field"),
    Case("enter-no-col", enter(row=2), "protocol/missing_field"),
    Case("row-true", enter(row=True, col=1), "protocol/bad_field"),
    Case("col-false", enter(row=1, col=False), "protocol/bad_field"),
    Case("press-row-true", press(row=True, col=0), "protocol/bad_field", "idle"),
    Case("row-1.0", enter(row=1.0, col=2), "protocol/bad_field"),
    Case("col-2.0", enter(row=1, col=2.0), "protocol/bad_field"),
    Case("row-1.5", enter(row=1.5, col=2), "protocol/bad_field"),
    Case("row-exponent", '{"type": "enter", "row": 1e0, "col": 2}', "protocol/bad_field"),
    Case("row-1e400", '{"type": "enter", "row": 1e400, "col": 2}', "protocol/bad_field"),
    Case("row-string", enter(row="1", col=2), "protocol/bad_field"),
    Case("row-null", enter(row=None, col=2), "protocol/bad_field"),
    Case("row-list", enter(row=[1], col=2), "protocol/bad_field"),
    Case("row-object", enter(row={"v": 1}, col=2), "protocol/bad_field"),
    Case("row-10**30", enter(row=10**30, col=2), "protocol/bad_field"),
    Case("row--10**30", enter(row=-(10**30), col=2), "protocol/bad_field"),
    Case("row-2**31+1", enter(row=2**31 + 1, col=2), "protocol/bad_field"),
    Case("row-4000-digits", '{"type": "enter", "row": ' + "9" * 4000 + ', "col": 2}', "protocol/bad_field"),
    Case("press-col-10**30", press(row=0, col=10**30), "protocol/bad_field", "idle"),
    # -- off the board ------------------------------------------------------------------
    Case("press-row--1", press(row=-1, col=0), "move/off_board", "idle"),
    Case("press-col--1", press(row=0, col=-1), "move/off_board", "idle"),
    Case("press-row-5", press(row=5, col=0), "move/off_board", "idle"),
    Case("press-col-5", press(row=0, col=5), "move/off_board", "idle"),
    Case("press-row-2**31", press(row=2**31, col=0), "move/off_board", "idle"),
    Case("press-row--2**31", press(row=-(2**31), col=0), "move/off_board", "idle"),
    Case("enter-row-2", enter(row=2, col=5), "move/off_board"),
    Case("enter-row--1", enter(row=-1, col=1), "move/off_board"),
    Case("enter-both-5", enter(row=5, col=5), "move/off_board"),
    # -- against the rules ----------------------------------------------------------
    Case("not-adjacent", enter(row=3, col=3), "move/not_adjacent"),
    Case("not-adjacent-same-row", enter(row=1, col=3), "move/not_adjacent"),
    Case("repeated-first-tile", enter(row=0, col=0), "move/repeated_tile"),
    Case("repeated-last-tile", enter(row=1, col=1), "move/repeated_tile"),
    Case("enter-while-idle", enter(row=0, col=0), "state/not_chaining", "idle"),
    Case("release-while-idle", raw(type="release"), "state/not_chaining", "idle"),
    Case("cancel-while-idle", raw(type="cancel"), "state/not_chaining", "idle"),
    Case("press-while-chaining", press(row=4, col=4), "state/already_chaining"),
    Case("press-on-chain-while-chaining", press(row=0, col=0), "state/already_chaining"),
    # -- no game yet ------------------------------------------------------------------
    Case("press-before-game", press(row=0, col=0), "game/none", "none"),
    Case("enter-before-game", enter(row=0, col=0), "game/none", "none"),
    Case("release-before-game", raw(type="release"), "game/none", "none"),
    Case("cancel-before-game", raw(type="cancel"), "game/none", "none"),
    Case("bad-json-before-game", "{", "protocol/bad_json", "none"),
    Case("bad-field-before-game", press(row=True, col=0), "protocol/bad_field", "none"),
    # -- new_game -------------------------------------------------------------------------
    Case("wordlist-unknown", raw(type="new_game", wordlist="klingon"), "game/unknown_wordlist"),
    Case("wordlist-parent-dir", raw(type="new_game", wordlist="../en"), "game/unknown_wordlist"),
    Case("wordlist-with-suffix", raw(type="new_game", wordlist="en.txt"), "game/unknown_wordlist"),
    Case("wordlist-settings", raw(type="new_game", wordlist="en.toml"), "game/unknown_wordlist"),
    Case("wordlist-licenses", raw(type="new_game", wordlist="licenses"), "game/unknown_wordlist"),
    Case("wordlist-upper", raw(type="new_game", wordlist="EN"), "game/unknown_wordlist"),
    Case("wordlist-unknown-no-game", raw(type="new_game", wordlist="xx"), "game/unknown_wordlist", "none"),
    Case("wordlist-empty", raw(type="new_game", wordlist=""), "protocol/bad_field"),
    Case("wordlist-number", raw(type="new_game", wordlist=5), "protocol/bad_field"),
    Case("wordlist-bool", raw(type="new_game", wordlist=True), "protocol/bad_field"),
    Case("wordlist-list", raw(type="new_game", wordlist=["en"]), "protocol/bad_field"),
    Case("wordlist-65-chars", raw(type="new_game", wordlist="e" * 65), "protocol/bad_field"),
    Case("seed-string", raw(type="new_game", seed="1"), "protocol/bad_field"),
    Case("seed-negative", raw(type="new_game", seed=-1), "protocol/bad_field"),
    Case("seed-2**53", raw(type="new_game", seed=2**53), "protocol/bad_field"),
    Case("seed-10**30", raw(type="new_game", seed=10**30), "protocol/bad_field"),
    Case("seed-1.5", raw(type="new_game", seed=1.5), "protocol/bad_field"),
    Case("seed-1.0", raw(type="new_game", seed=1.0), "protocol/bad_field"),
    Case("seed-true", raw(type="new_game", seed=True), "protocol/bad_field"),
    Case("seed-list", raw(type="new_game", seed=[1]), "protocol/bad_field"),
    Case("seed-bad-no-game", raw(type="new_game", seed=-5), "protocol/bad_field", "none"),
    # -- resume ---------------------------------------------------------------------------
    Case("resume-no-fields", raw(type="resume"), "protocol/missing_field"),
    Case("resume-no-token", raw(type="resume", game_id="abc"), "protocol/missing_field"),
    Case("resume-no-id", raw(type="resume", token="abc"), "protocol/missing_field"),
    Case("resume-id-number", raw(type="resume", game_id=5, token="abc"), "protocol/bad_field"),
    Case("resume-token-null", raw(type="resume", game_id="abc", token=None), "protocol/bad_field"),
    Case("resume-token-list", raw(type="resume", game_id="abc", token=["abc"]), "protocol/bad_field"),
    Case("resume-token-object", raw(type="resume", game_id="abc", token={}), "protocol/bad_field"),
    Case("resume-id-bool", raw(type="resume", game_id=True, token="abc"), "protocol/bad_field"),
    Case("resume-id-empty", raw(type="resume", game_id="", token="abc"), "protocol/bad_field"),
    Case("resume-id-129-chars", raw(type="resume", game_id="a" * 129, token="abc"), "protocol/bad_field"),
    Case("resume-token-huge", raw(type="resume", game_id="abc", token="t" * 3000), "protocol/bad_field"),
    Case("resume-unknown-id", raw(type="resume", game_id="nope", token="nope"), "game/not_found"),
    Case("resume-unknown-no-game", raw(type="resume", game_id="x", token="y"), "game/not_found", "none"),
    # -- binary frames ----------------------------------------------------------------------
    Case("binary", b"\x00\x01\x02", "protocol/binary_frame"),
    Case("binary-json", b'{"type": "cancel"}', "protocol/binary_frame"),
    Case("binary-empty", b"", "protocol/binary_frame"),
    Case("binary-before-game", b'{"type": "new_game"}', "protocol/binary_frame", "none"),
]


def frame_text(case: Case) -> str | bytes:
    if isinstance(case.frame, dict):
        return json.dumps(case.frame)
    return case.frame


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
    assert len(reply["message"]) < 300, reply
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
