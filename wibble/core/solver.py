"""Every word a board allows: a depth-first search over tiles, pruned by the trie.

The search walks the trie's nodes directly as plain dicts (``node.get(letter)``,
``"" in node`` for "a word ends here"), which is the documented ``Node`` contract
of ``wibble.core.dictionary``; going through ``Trie.child``/``Trie.is_word`` would
cost a method call per step, and this loop runs tens of thousands of steps per
board. Nodes may be shared between prefixes, so the search keeps all its state
(the tiles used, the path, the word so far) itself and never writes to a node.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from .board import Board, Pos
from .scoring import ENDLESS_ORDER, TileValue, points_of
from .wordlist import WordList


@dataclass(frozen=True, slots=True)
class Found:
    """A word the board allows, its best score, and a tile path that scores that."""

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


def solve(
    board: Board,
    words: WordList,
    values: Sequence[TileValue] | None = None,
    order: Sequence[str] = ENDLESS_ORDER,
) -> list[Found]:
    """Every word of ``words`` that ``board`` allows, once each, best score first (then alphabetical).

    ``values`` are the tiles as scoring sees them, row by row (by default each
    letter's score, no multipliers), scored by ``wibble.core.scoring.score`` with
    ``order``. A word can often be spelt along several paths; only paths through
    different multiplier tiles can score differently (the letters are the same), so
    the search keeps one path per word and set of multiplier tiles crossed, and
    each word gets the best of those, scored by the one scoring function.
    """
    if values is None:
        values = [TileValue(letter.score) for row in board.rows() for letter in row]
    special = [i for i, v in enumerate(values) if v.letter_mult != 1 or v.word_mult != 1]
    candidates = _search(board, words, paths=True, special=special)
    positions = _positions(board.size)
    best: dict[str, Found] = {}
    for key, indices in candidates.items():
        word = key if isinstance(key, str) else key[0]
        points = points_of([values[i] for i in indices], order)
        held = best.get(word)
        if held is None or points > held.score:
            best[word] = Found(word, points, tuple([positions[i] for i in indices]))
    found = list(best.values())
    found.sort(key=lambda f: (-f.score, f.word))
    return found


def count_words(board: Board, words: WordList, excluding: Container[str] = ()) -> int:
    """How many words ``board`` allows that are not in ``excluding``: ``solve`` without the paths.

    The game counts after every refill, so this skips what a count does not need:
    no path tuples, no ``Found`` objects, hence far less for the garbage collector.
    """
    return sum(1 for word in _search(board, words, paths=False) if word not in excluding)


_NO_PATH: tuple[int, ...] = ()


def _search(
    board: Board, words: WordList, paths: bool, special: Sequence[int] = ()
) -> dict[Any, tuple[int, ...]]:
    """Each word the board allows, with the tile indices of the first path found (if ``paths``).

    With ``special`` tiles (at most a few: the multipliers), a word is kept once per
    set of special tiles its path crosses, keyed ``(word, mask)``; a path crossing
    none is keyed by the word alone, as without ``special``.
    """
    symbols = [letter.symbol for row in board.rows() for letter in row]
    bits = [0] * len(symbols)
    for n, i in enumerate(special):
        bits[i] = 1 << n
    # Per tile, its neighbours with their letters and special bit: one tuple unpack
    # per step instead of further list look-ups. A used-list beats an int bitmask here.
    steps = [tuple((j, symbols[j], bits[j]) for j in near) for near in _neighbours(board.size)]
    shortest = words.min_length - 1  # as a depth: the index of a word's last tile
    used = [False] * len(symbols)
    # path[:depth + 1] is the chain so far; a fixed list written by depth
    # avoids an append and a pop per step.
    path = [0] * len(symbols)
    first_path: dict[Any, tuple[int, ...]] = {}

    def walk(i: int, node: dict[str, Any], word: str, depth: int, mask: int) -> None:
        path[depth] = i
        if "" in node and depth >= shortest:
            key = (word, mask) if mask else word
            if key not in first_path:
                first_path[key] = tuple(path[: depth + 1]) if paths else _NO_PATH
        used[i] = True
        depth += 1
        for j, symbol, bit in steps[i]:
            if not used[j]:
                child = node.get(symbol)
                if child is not None:
                    walk(j, child, word + symbol, depth, mask | bit)  # noqa: F821 (bound until the del below)
        used[i] = False

    root: dict[str, Any] = words.trie.root
    for i, symbol in enumerate(symbols):
        child = root.get(symbol)
        if child is not None:
            walk(i, child, symbol, 0, bits[i])
    # ``walk`` refers to itself, a reference cycle that would keep this search's
    # lists alive until a garbage collection; at a thousand players those
    # collections paused every game for ~100 ms (benchmarks.load). Breaking the
    # cycle frees everything here, by reference counting.
    del walk
    return first_path
