"""``words_left`` over the wire, and the host's minimum (``--min-words``, ``WIBBLE_MIN_BOARD_WORDS``).

The words on a board are counted here from the letters a client sees
(``tests.support.find_paths``), independently of the server's solver.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.processes.test_host import run_wibble
from tests.support import Client, LiveServer, shipped_list
from tests.wire import (
    Connect,
    a_word,
    apply_changes,
    new_game,
    play,
    resume_of,
    words_on,
)
from wibble.core import Board, Draws, LetterSampler

StartServer = Callable[..., LiveServer]


def unfound(snapshot: dict[str, Any], found: set[str], name: str = "en") -> int:
    """How many different words the snapshot's board allows that are not in ``found``."""
    return len({word.upper() for word, _ in words_on(snapshot, name)} - found)


def faces(rows: list[list[Any]]) -> list[list[str]]:
    return [[tile["letter"] for tile in row] for row in rows]


def test_the_count_is_the_words_still_to_find_and_follows_every_refill(connect: Connect) -> None:
    client = connect()
    game = new_game(client, seed=2718)
    assert game["words_left"] == unfound(game, set())
    assert game["words_left"] >= 30  # the default minimum

    snapshot, found = game, set[str]()
    for _ in range(3):
        word, path = a_word(snapshot)
        _, judged, board = play(client, path)
        assert judged["result"] == "scored"
        assert board is not None
        found.add(word.upper())
        snapshot = {**snapshot, "board": apply_changes(snapshot, board)}
        assert board["words_left"] == unfound(snapshot, found)
        assert board["words_left"] >= 30

    again = connect().ask(resume_of(game))
    assert faces(again["board"]) == faces(snapshot["board"])
    assert again["words_left"] == board["words_left"]


def test_a_word_found_that_is_still_on_the_board_is_not_counted(connect: Connect) -> None:
    """A scored word leaves the count, even where the board still spells it along another path."""
    client = connect()
    for seed in range(1, 300):
        game = new_game(client, seed=seed)
        paths: dict[str, list[list[tuple[int, int]]]] = {}
        for word, path in words_on(game):
            paths.setdefault(word, []).append(path)
        twice = [
            (word, first)
            for word, options in sorted(paths.items())
            for first in options
            if any(not set(first) & set(other) for other in options)
        ]
        if twice:
            break
    else:
        pytest.fail("no seed with a word on the board twice")
    word, path = twice[0]

    _, _, board = play(client, path)

    assert board is not None
    after = {**game, "board": apply_changes(game, board)}
    assert word in {w for w, _ in words_on(after)}  # still there, along the other path
    assert board["words_left"] == unfound(after, {word.upper()})


def first_draw(seed: int) -> list[list[str]]:
    """The faces of the board a seed draws first from the English list.

    A game's randomness is a ``Draws`` (a seed and a counter, so that it can be saved
    and replayed), the first draws of which fill the first board.
    """
    words = shipped_list("en")
    board = Board.fill(LetterSampler(words.letters), Draws(seed))
    return [[letter.face for letter in row] for row in board.rows()]


def test_min_words_zero_keeps_the_first_board_and_a_high_minimum_draws_again(
    start_server: StartServer,
) -> None:
    high = 250  # more than most English boards allow
    off, strict = start_server("--min-words", "0"), start_server("--min-words", str(high))
    zero_client, strict_client = Client(off.ws_url), Client(strict.ws_url)
    try:
        redrawn = 0
        for seed in range(4):
            kept = new_game(zero_client, seed=seed)
            drawn = new_game(strict_client, seed=seed)
            assert faces(kept["board"]) == first_draw(seed)
            assert kept["words_left"] == unfound(kept, set())
            assert drawn["words_left"] == unfound(drawn, set()) >= high
            if kept["words_left"] < high:
                assert faces(drawn["board"]) != faces(kept["board"])
                redrawn += 1
        assert redrawn >= 1, "these seeds must include a first board below the minimum"
    finally:
        zero_client.close()
        strict_client.close()


def test_a_list_that_cannot_reach_the_minimum_still_plays(start_server: StartServer, tmp_path: Path) -> None:
    # Only X is ever drawn and no word has an X: no board can hold a word.
    (tmp_path / "xs.txt").write_text("abc\n", encoding="utf-8")
    (tmp_path / "xs.toml").write_text(
        "[letters]\na = { weight = 0 }\nb = { weight = 0 }\nc = { weight = 0 }\nx = { weight = 1 }\n",
        encoding="utf-8",
    )
    server = start_server("--words-dir", str(tmp_path), "--min-words", "1000")
    client = Client(server.ws_url)
    try:
        game = new_game(client)
        assert game["words_left"] == 0
        assert {letter for row in faces(game["board"]) for letter in row} == {"X"}
        pressed = client.ask({"type": "press", "row": 0, "col": 0})  # and the game answers moves
        assert pressed["type"] == "chain"
    finally:
        client.close()


@pytest.mark.parametrize("value", ["-1", "abc", "2.5", "true", ""])
def test_a_bad_minimum_is_named_not_a_traceback(value: str) -> None:
    result = run_wibble("serve", "--port", "0", env={"WIBBLE_MIN_BOARD_WORDS": value})
    assert result.returncode == 2
    assert "WIBBLE_MIN_BOARD_WORDS must be a whole number" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("value", ["-1", "many"])
def test_a_bad_min_words_option_is_refused(value: str) -> None:
    result = run_wibble("serve", "--port", "0", "--min-words", value)
    assert result.returncode == 2
    assert "--min-words" in result.stderr
    assert "whole number" in result.stderr
    assert "Traceback" not in result.stderr
