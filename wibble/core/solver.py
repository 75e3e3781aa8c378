"""Every word a board allows: a depth-first search over tiles, pruned by the trie.

The search walks the trie's nodes directly as plain dicts (``node.get(letter)``,
``"" in node`` for "a word ends here"), which is the documented ``Node`` contract
of ``wibble.core.dictionary``; going through ``Trie.child``/``Trie.is_word`` would
cost a method call per step, and this loop runs tens of thousands of steps per
board. Nodes may be shared between prefixes, so the search keeps all its state
(the tiles used, the path, the word so far) itself and never writes to a node.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from functools import cache
from typing import Any

from .board import Board, Pos
from .wordlist import WordList


@dataclass(frozen=True, slots=True)
class Found:
    """A word the board allows, what the game would award for it, and one tile path that spells it."""

    word: str
    score: int
    path: tuple[Pos, ...]


@cache
def _neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """For each tile index (row * size + col), the indices of its up to eight neighbours."""
    return tuple(
        tuple(
            r * size + c
            for r in range(max(0, row - 1), min(size, row + 2))
            for c in range(max(0, col - 1), min(size, col + 2))
            if (r, c) != (row, col)
        )
        for row in range(size)
        for col in range(size)
    )


@cache
def _positions(size: int) -> tuple[Pos, ...]:
    """``Pos`` per tile index; shared, since building thousands of frozen dataclasses per board is slow."""
    return tuple(Pos(row, col) for row in range(size) for col in range(size))


def solve(board: Board, words: WordList) -> list[Found]:
    """Every word of ``words`` that ``board`` allows, once each, best score first (then alphabetical)."""
    tiles = [letter for row in board.rows() for letter in row]
    first_path = _search(board, words, paths=True)
    scores = [letter.score for letter in tiles]
    positions = _positions(board.size)
    found = [
        Found(word, sum([scores[i] for i in indices]), tuple([positions[i] for i in indices]))
        for word, indices in first_path.items()
    ]
    found.sort(key=lambda f: (-f.score, f.word))
    return found


def count_words(board: Board, words: WordList, excluding: Container[str] = ()) -> int:
    """How many words ``board`` allows that are not in ``excluding``: ``solve`` without the paths.

    The game counts after every refill, so this skips what a count does not need:
    no path tuples, no ``Found`` objects, hence far less for the garbage collector.
    """
    return sum(1 for word in _search(board, words, paths=False) if word not in excluding)


_NO_PATH: tuple[int, ...] = ()


def _search(board: Board, words: WordList, paths: bool) -> dict[str, tuple[int, ...]]:
    """Each word the board allows, with the tile indices of the first path found (if ``paths``)."""
    symbols = [letter.symbol for row in board.rows() for letter in row]
    # Per tile, its neighbours with their letters: one tuple unpack per step
    # instead of a second list look-up. A used-list beats an int bitmask here.
    steps = [tuple((j, symbols[j]) for j in near) for near in _neighbours(board.size)]
    shortest = words.min_length - 1  # as a depth: the index of a word's last tile
    used = [False] * len(symbols)
    # path[:depth + 1] is the chain so far; a fixed list written by depth
    # avoids an append and a pop per step.
    path = [0] * len(symbols)
    first_path: dict[str, tuple[int, ...]] = {}

    def walk(i: int, node: dict[str, Any], word: str, depth: int) -> None:
        path[depth] = i
        if "" in node and depth >= shortest and word not in first_path:
            first_path[word] = tuple(path[: depth + 1]) if paths else _NO_PATH
        used[i] = True
        depth += 1
        for j, symbol in steps[i]:
            if not used[j]:
                child = node.get(symbol)
                if child is not None:
                    walk(j, child, word + symbol, depth)  # noqa: F821 (bound until the del below)
        used[i] = False

    root: dict[str, Any] = words.trie.root
    for i, symbol in enumerate(symbols):
        child = root.get(symbol)
        if child is not None:
            walk(i, child, symbol, 0)
    # ``walk`` refers to itself, a reference cycle that would keep this search's
    # lists alive until a garbage collection; at a thousand players those
    # collections paused every game for ~100 ms (benchmarks.load). Breaking the
    # cycle frees everything here, by reference counting.
    del walk
    return first_path
