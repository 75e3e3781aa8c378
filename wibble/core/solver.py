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
from functools import cache
from typing import Any, NamedTuple

from .board import Board, Pos
from .scoring import ENDLESS_ORDER, TileValue, Totals, points_of_totals, tile_points
from .wordlist import WordList


class Found(NamedTuple):
    """A word the board allows, its best score, and a tile path that scores that.

    A NamedTuple, immutable and compared by value like a frozen dataclass, because
    ``solve`` builds one per word (hundreds a board): a frozen dataclass's ``__init__``
    sets each field through ``object.__setattr__`` and cost several times as much.
    """

    word: str
    score: int
    path: tuple[Pos, ...]


_found = tuple.__new__


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
    # The modifiers see a path only through its Totals, so each candidate is the sum of
    # numbers prepared per tile, and paths with equal totals (most share a handful)
    # are scored once: the one scoring function, without rebuilding tiles per path.
    letter = [tile_points(v) for v in values].__getitem__
    scored: dict[tuple[int, int, int], int] = {}
    ranked: list[tuple[int, str, list[int]]] = []
    if not special:  # each word found once, crossing no multiplier
        for word, indices in _plain_search(board, words).items():
            totals = (sum(map(letter, indices)), 1, len(indices))
            points = scored.get(totals)
            if points is None:
                scored[totals] = points = points_of_totals(Totals(*totals), order)
            ranked.append((-points, word, indices))
    else:
        factors = [v.word_mult for v in values]
        best: dict[str, tuple[int, list[int]]] = {}
        for key, indices in _search(board, words, special).items():
            if isinstance(key, str):
                word, factor = key, 1
            else:
                word, factor = key[0], 1
                for i in indices:
                    factor *= factors[i]
            totals = (sum(map(letter, indices)), factor, len(indices))
            points = scored.get(totals)
            if points is None:
                scored[totals] = points = points_of_totals(Totals(*totals), order)
            held = best.get(word)
            if held is None or points > held[0]:
                best[word] = (points, indices)
        ranked = [(-points, word, indices) for word, (points, indices) in best.items()]
    # Best first, then alphabetical: plain tuples sort without a key function (words are unique).
    ranked.sort()
    position = _positions(board.size).__getitem__
    # tuple.__new__ straight away: a NamedTuple's own __new__ is one more Python call per word.
    return [
        _found(Found, (word, -negative, tuple(map(position, indices)))) for negative, word, indices in ranked
    ]


def count_words(board: Board, words: WordList, excluding: Container[str] = ()) -> int:
    """How many words ``board`` allows that are not in ``excluding``: ``solve`` without the paths.

    The game counts after every refill, so this skips what a count does not need:
    no paths, no multipliers, no ``Found`` objects, hence far less for the garbage collector.
    """
    if not excluding:
        return len(board_words(board, words))
    return sum(1 for word in board_words(board, words) if word not in excluding)


def board_words(board: Board, words: WordList) -> set[str]:
    """The set of words ``board`` allows: the search of ``solve`` with nothing but the words kept."""
    symbols = [letter.symbol for row in board.rows() for letter in row]
    steps = [tuple([(j, symbols[j]) for j in near]) for near in _neighbours(board.size)]
    shortest = words.min_length - 1  # as a depth: the index of a word's last tile
    used = [False] * len(symbols)
    found: set[str] = set()
    add = found.add

    def walk(i: int, node: dict[str, Any], word: str, depth: int) -> None:
        if depth >= shortest and "" in node:
            add(word)
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
    del walk  # the closure's cycle: see _search
    return found


def _plain_search(board: Board, words: WordList) -> dict[str, list[int]]:
    """``_search`` with no special tiles: each word keyed by itself, without a mask to carry."""
    symbols = [letter.symbol for row in board.rows() for letter in row]
    steps = [tuple([(j, symbols[j]) for j in near]) for near in _neighbours(board.size)]
    shortest = words.min_length - 1
    used = [False] * len(symbols)
    path = [0] * len(symbols)
    first_path: dict[str, list[int]] = {}

    def walk(i: int, node: dict[str, Any], word: str, depth: int) -> None:
        path[depth] = i
        if depth >= shortest and "" in node and word not in first_path:
            first_path[word] = path[: depth + 1]
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
    del walk  # the closure's cycle: see _search
    return first_path


def _search(board: Board, words: WordList, special: Sequence[int] = ()) -> dict[Any, list[int]]:
    """Each word the board allows, with the tile indices of the first path found.

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
    steps = [tuple([(j, symbols[j], bits[j]) for j in near]) for near in _neighbours(board.size)]
    shortest = words.min_length - 1  # as a depth: the index of a word's last tile
    used = [False] * len(symbols)
    # path[:depth + 1] is the chain so far; a fixed list written by depth
    # avoids an append and a pop per step.
    path = [0] * len(symbols)
    first_path: dict[Any, list[int]] = {}

    def walk(i: int, node: dict[str, Any], word: str, depth: int, mask: int) -> None:
        path[depth] = i
        if depth >= shortest and "" in node:
            key = (word, mask) if mask else word
            if key not in first_path:
                first_path[key] = path[: depth + 1]
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
