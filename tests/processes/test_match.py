"""Matches over a real websocket against a real server: turns, gems, bots, timers, a SIGKILL."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import Client, LiveServer, find_paths, letters_of, messages_in, shipped_list
from tests.wire import expect_error, until

# Bots that think for no time and drag a tile every 10 ms: a test watches a whole turn in a blink.
QUICK_BOTS = {"WIBBLE_BOT_THINK_SECONDS": "0", "WIBBLE_BOT_STEP_SECONDS": "0.01"}
# Bots that think for a minute: the turn stays the bot's while a test pokes at it.
SLOW_BOTS = {"WIBBLE_BOT_THINK_SECONDS": "60", "WIBBLE_BOT_STEP_SECONDS": "0.01"}

Message = dict[str, Any]


@pytest.fixture(scope="module")
def quick() -> Iterator[LiveServer]:
    server = LiveServer("--data-dir", "", env=QUICK_BOTS)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def slow() -> Iterator[LiveServer]:
    server = LiveServer("--data-dir", "", env=SLOW_BOTS)
    yield server
    server.stop()


def new_match(client: Client, **fields: Any) -> Message:
    message = client.ask({"type": "new_match", "bots": [{"level": "easy"}], **fields})
    assert message["type"] == "match", message
    return message


def best_path(match: Message) -> list[tuple[int, int]]:
    """The path of a word over as many gem tiles as any, and long (any word will do: the server scores it)."""
    words = shipped_list(match["wordlist"])
    board = match["board"]
    found = find_paths(letters_of(board), words.trie, words.min_length)
    return max(
        (path for _, path in found), key=lambda path: (sum(board[r][c]["gem"] for r, c in path), len(path))
    )


def play(client: Client, path: list[tuple[int, int]]) -> list[Message]:
    (r, c), *rest = path
    client.send({"type": "press", "row": r, "col": c})
    for r, c in rest:
        client.send({"type": "enter", "row": r, "col": c})
    client.send({"type": "release", "seq": 99})
    return until(client, "turn", lambda m: m.get("seq") == 99)


def test_a_word_scores_with_its_breakdown_and_the_bot_then_plays_its_own(
    quick: LiveServer, clients: Callable[[LiveServer], Client]
) -> None:
    you = clients(quick)
    match = new_match(you, rounds=2)
    assert match["you"] == 0
    assert match["turn"] == 0
    assert match["round"] == 1
    assert [s["kind"] for s in match["seats"]] == ["human", "bot"]
    assert all(
        set(tile) >= {"letter", "score", "mult", "word_mult", "gem"} for row in match["board"] for tile in row
    )

    seen = play(you, best_path(match))
    played = next(m for m in seen if m["type"] == "played")
    assert played["seat"] == 0
    assert played["points"] == played["breakdown"][-1]["points"] > 0
    assert played["breakdown"][0]["step"] == "letters"
    assert seen[-1]["turn"] == 1

    # The bot drags its word tile by tile, everyone sees it, then it plays and the turn comes back.
    bot_turn = until(you, "turn", lambda m: m["turn"] == 0 and m["phase"] == "playing")
    chains = [m for m in bot_turn if m["type"] == "chain" and m["seat"] == 1]
    bot_played = next(m for m in bot_turn if m["type"] == "played")
    assert bot_played["seat"] == 1
    assert [len(m["chain"]) for m in chains] == list(range(1, len(bot_played["path"]) + 1))
    assert chains[-1]["chain"] == bot_played["path"]


def test_moves_out_of_turn_are_refused_and_change_nothing(
    slow: LiveServer, clients: Callable[[LiveServer], Client]
) -> None:
    you = clients(slow)
    new_match(you)
    you.send({"type": "pass"})
    assert until(you, "turn")[-1]["turn"] == 1  # the bot's turn now: it thinks for a minute
    for message in (
        {"type": "press", "row": 0, "col": 0},
        {"type": "pass"},
        {"type": "shuffle"},
        {"type": "swap", "row": 0, "col": 0, "letter": "Q"},
        {"type": "extend"},
    ):
        you.send({**message, "seq": 7})
        error = expect_error(you, "turn/not_your_turn")
        assert error["seq"] == 7
        assert error["request"] == message["type"]
    you.send({"type": "resume", "match_id": "", "token": ""})  # a bad resume is refused too...
    expect_error(you, "protocol/bad_field")


def test_spending_more_gems_than_you_hold_is_refused(
    slow: LiveServer, clients: Callable[[LiveServer], Client]
) -> None:
    you = clients(slow)
    match = new_match(you)
    assert match["seats"][0]["gems"] == 3
    assert match["costs"]["hint"] == 4
    you.send({"type": "hint"})
    expect_error(you, "gems/not_enough")
    you.send({"type": "extend"})
    expect_error(you, "turn/untimed")
    # A shuffle (1 gem) goes through, and the board's letters are the same letters moved about.
    you.send({"type": "shuffle", "seq": 3})
    seen = until(you, "gems", lambda m: m.get("seq") == 3)
    assert seen[-1]["gems"] == 2
    board = next(m for m in seen if m["type"] == "board")
    assert board["reason"] == "shuffle"
    you.send({"type": "swap", "row": 0, "col": 0, "letter": "Z"})
    expect_error(you, "gems/not_enough")


def test_a_hint_answers_the_seat_that_paid_and_takes_four_gems(
    quick: LiveServer, clients: Callable[[LiveServer], Client]
) -> None:
    """Over the wire; that no other seat hears it is shown in-process with two human seats
    (tests/live/test_matches.py), since new_match seats one person."""
    you = clients(quick)
    match = new_match(you, rounds=5)
    # Earn a fourth gem: play words over gem tiles until the seat holds four.
    gems = match["seats"][0]["gems"]
    while gems < 4:
        seen = play(you, best_path(match))
        gems = next(m for m in seen if m["type"] == "gems" and m["seat"] == 0)["gems"]
        until(you, "turn", lambda m: m["turn"] == 0 and m["phase"] == "playing")
        match = you.ask({"type": "resume", "match_id": match["match_id"], "token": match["token"]})
    you.send({"type": "hint", "seq": 5})
    seen = until(you, "gems", lambda m: m.get("seq") == 5)
    hint = next(m for m in seen if m["type"] == "hint")
    assert hint["seq"] == 5
    assert hint["word"]
    assert hint["points"] > 0
    assert len(hint["path"]) >= 2
    gems_after = next(m for m in seen if m["type"] == "gems")
    assert gems_after["gems"] == gems - 4


def test_a_timed_turn_passes_by_itself(quick: LiveServer, clients: Callable[[LiveServer], Client]) -> None:
    you = clients(quick)
    match = new_match(you, turn_seconds=5)
    assert 4 < match["remaining"] <= 5
    assert match["deadline"] is not None
    started = time.monotonic()
    turn = until(you, "turn")[-1]
    assert turn["turn"] == 1
    assert turn["passed"] == "timeout"
    assert 4.5 < time.monotonic() - started < 8


def test_a_match_killed_with_sigkill_resumes_with_its_timer(
    tmp_path: Path, clients: Callable[[LiveServer], Client]
) -> None:
    server = LiveServer("--data-dir", str(tmp_path), env=SLOW_BOTS)
    try:
        you = clients(server)
        match = new_match(you, turn_seconds=600, seed=11)
        you.send({"type": "shuffle", "seq": 1})
        until(you, "gems", lambda m: m.get("seq") == 1)
        server.kill()
    finally:
        server.stop()
    again = LiveServer("--data-dir", str(tmp_path), env=SLOW_BOTS)
    try:
        back = clients(again).ask({"type": "resume", "match_id": match["match_id"], "token": match["token"]})
        assert back["type"] == "match"
        assert back["deadline"] == match["deadline"]  # the same moment, not a fresh 600 s
        assert match["remaining"] - 30 < back["remaining"] < match["remaining"]
        assert back["seats"][0]["gems"] == 2
        assert back["version"] == 1
        assert back["turn"] == 0
        assert back["board"] != match["board"]  # the shuffle was saved
    finally:
        again.stop()


def test_endless_replies_echo_seq_to_the_sender_alone(
    quick: LiveServer, clients: Callable[[LiveServer], Client]
) -> None:
    mine, other = clients(quick), clients(quick)
    game = mine.ask({"type": "new_game", "seed": 3})
    assert other.ask({"type": "resume", "game_id": game["game_id"], "token": game["token"]})["type"] == "game"
    mine.send({"type": "press", "row": 0, "col": 0, "seq": 41})
    assert mine.recv()["seq"] == 41
    assert "seq" not in other.recv()
    mine.send({"type": "enter", "row": 4, "col": 4, "seq": 42})
    assert expect_error(mine, "move/not_adjacent")["seq"] == 42


def test_a_seat_name_must_be_printable(slow: LiveServer, clients: Callable[[LiveServer], Client]) -> None:
    you = clients(slow)
    for name in ("a\u0000b", "\u202eevil", "line\nbreak", "   "):
        you.send({"type": "new_match", "name": name, "bots": []})
        expect_error(you, "protocol/bad_field")
    assert new_match(you, name="  Zoë  ")["seats"][0]["name"] == "Zoë"


def test_a_page_from_before_arrays_gets_each_message_in_a_frame_of_its_own(
    slow: LiveServer, clients: Callable[[LiveServer], Client]
) -> None:
    """Today's page asks for frames that hold several messages (``/ws?frames=array``): a word played
    reaches it as one frame. A tab loaded before the server sent arrays, and still open across the
    restart that brought them, reconnects to ``/ws`` as it always did and would drop an array: it
    gets the same four messages as four frames, each one message, so its board and turn still move."""
    you = clients(slow)
    match = new_match(you, rounds=2)
    old_page = Client(slow.ws_url.split("?")[0])
    try:
        old_page.send({"type": "resume", "match_id": match["match_id"], "token": match["token"]})
        assert old_page.recv()["type"] == "match"
        (r, c), *rest = best_path(match)
        you.send({"type": "press", "row": r, "col": c})
        for r, c in rest:
            you.send({"type": "enter", "row": r, "col": c})
        until(you, "chain", lambda m: len(m["chain"]) == len(rest) + 1)
        until(old_page, "chain", lambda m: len(m["chain"]) == len(rest) + 1)
        you.send({"type": "release", "seq": 5})
        arrays = messages_in(you.ws.recv())
        assert [m["type"] for m in arrays] == ["played", "board", "gems", "turn"]
        assert all(m["seq"] == 5 for m in arrays)
        frames = [old_page.ws.recv() for _ in range(4)]
        assert [json.loads(frame) for frame in frames] == [
            {k: v for k, v in m.items() if k != "seq"} for m in arrays
        ]
    finally:
        old_page.close()
