"""Real game documents and moves for the store tests: what the live layer saves, made by playing."""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import product
from typing import Any

from wibble.core import Draws, Game, HashParams, Move, Pos, WordJudged, WordList, build_word_list, solve

AB_WORDS = ["".join(w) for n in (3, 4) for w in product("ab", repeat=n)]
AB = build_word_list(
    "ab", AB_WORDS, {"letters": {"a": {"score": 1, "weight": 1}, "b": {"score": 2, "weight": 1}}}, "ab.toml"
)


@dataclass(frozen=True)
class Step:
    """One committed release: the version it was made at, the document after it, and the move."""

    expected: int
    doc: dict[str, Any]
    move: dict[str, Any]


def new_game(seed: int = 1, words: WordList = AB) -> Game:
    return Game(words, Draws(seed), HashParams.draw(random.Random(seed)))


def play(game: Game, count: int, pick: int = 0) -> list[Step]:
    """Release ``count`` words the board holds (the ``pick``-th best each time), as they are committed."""
    steps = []
    for _ in range(count):
        found = solve(game.board, game.words)
        path: tuple[Pos, ...] = found[pick % len(found)].path
        expected = game.version
        game.press(path[0])
        for pos in path[1:]:
            game.enter(pos)
        judged = game.release()[0]
        game.clean_up()
        assert isinstance(judged, WordJudged)
        steps.append(Step(expected, game.to_doc(), Move.of(path, judged).to_doc()))
    return steps
