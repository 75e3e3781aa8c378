"""The board search: every word a board allows, by a depth-first walk over tiles pruned by the trie.

Two implementations with the same results in the same order:

- the compiled one (``wibble/core/_walk.c``), built by ``pip install`` wherever a C
  compiler is: the trie copied once into flat arrays, a step a bit test and an array
  read. The game counts every word on the board after each refill, and in Python that
  count was 40% of a saturated server's CPU (docs/benchmarks-log.md, "Close to the floor");
- the Python one below, the reference: it runs where the extension was not built (or
  cannot take a list: more than 64 letters, boards over 8 x 8), and the tests check the
  compiled walk against it on random boards of every shipped list. It is one walk for
  every use, kept plain rather than fast: the compiled walk is the fast one.

The Python walk reads the trie's nodes directly as plain dicts (``node.get(letter)``,
``"" in node`` for "a word ends here"), which is the documented ``Node`` contract of
``wibble.core.dictionary``; going through ``Trie.child``/``Trie.is_word`` would cost
a method call per step. Nodes may be shared between prefixes, so a search keeps all
its state (the tiles used, the path, the word so far) itself and never writes to a node.

Tiles are numbered row by row (``row * size + col``); a path is a list of tile numbers.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from functools import cache
from typing import Any

from .board import Board
from .dictionary import Trie
from .wordlist import WordList

try:
    from . import _walk  # type: ignore[attr-defined]
except ImportError:  # built without a C compiler: every search runs in Python
    _walk = None

# Each trie's compiled copy, made at its first search and dropped with the trie.
_compiled: weakref.WeakKeyDictionary[Trie, Any] = weakref.WeakKeyDictionary()
_REFUSED = object()  # the compiled walk cannot take this trie: search it in Python


def compiled() -> bool:
    """True if the compiled search was built (``wibble serve`` says so when it is not)."""
    return _walk is not None


def _compiled_trie(trie: Trie) -> Any:
    """The trie's compiled copy, or ``_REFUSED``."""
    found = _compiled.get(trie)
    if found is None:
        try:
            found = _walk.compile(trie.root)
        except ValueError:  # too many letters for one bitmask: the Python walk takes any list
            found = _REFUSED
        _compiled[trie] = found
    return found


def _symbols(board: Board) -> list[str]:
    return [letter.symbol for row in board.rows() for letter in row]


def words(board: Board, wordlist: WordList) -> set[str]:
    """Every word ``board`` allows."""
    symbols, shortest = _symbols(board), wordlist.min_length - 1  # as a depth: a word's last tile
    trie = _compiled_for(board, wordlist)
    if trie is not None:
        found: set[str] = _walk.words(trie, symbols, board.size, shortest)
        return found
    return set(python_paths(symbols, board.size, wordlist.trie.root, shortest))


def count(board: Board, wordlist: WordList, excluding: AbstractSet[str] = frozenset()) -> int:
    """How many words ``board`` allows that are not in ``excluding``: ``len(words(...) - excluding)``,
    compiled without a string for each word."""
    symbols, shortest = _symbols(board), wordlist.min_length - 1
    trie = _compiled_for(board, wordlist)
    if trie is not None:
        counted: int = _walk.count(trie, symbols, board.size, shortest, excluding)
        return counted
    found = set(python_paths(symbols, board.size, wordlist.trie.root, shortest))
    return len(found) - len(found.intersection(excluding)) if excluding else len(found)


def paths(board: Board, wordlist: WordList, special: Sequence[int] = ()) -> dict[Any, list[int]]:
    """Each word ``board`` allows, with the tiles of the first path the walk finds for it.

    With ``special`` tiles (at most 16 for the compiled walk: the multipliers), a word is
    kept once per set of special tiles its path crosses, keyed ``(word, bits)``, bit ``n``
    for ``special[n]``; a path crossing none is keyed by the word alone, as without ``special``.
    """
    symbols, shortest = _symbols(board), wordlist.min_length - 1
    trie = _compiled_for(board, wordlist, special)
    if trie is not None:
        found: dict[Any, list[int]] = _walk.paths(trie, symbols, board.size, shortest, special)
        return found
    return python_paths(symbols, board.size, wordlist.trie.root, shortest, special)


Group = tuple[int, int, int, str, int, list[int]]
"""(letters, factor, tiles, word, place, path): see ``groups``."""


def groups(
    board: Board, wordlist: WordList, special: Sequence[int], points: Sequence[int], factors: Sequence[int]
) -> list[Group]:
    """The paths ``paths`` keeps, grouped by what scoring sees of them: a path's letters (the
    sum of ``points`` along it), factor (the product of ``factors``) and tiles (how many).

    One entry per group, in no particular order: its totals, then the least word (in ``str``
    order) with a kept path of these totals, that path, and its place in ``paths``' order.
    Every path with the same totals scores the same, so the best word of a board is found by
    scoring each group once (``solver.best``) rather than every word it allows.
    """
    symbols, shortest = _symbols(board), wordlist.min_length - 1
    trie = _compiled_for(board, wordlist, special)
    if trie is not None:
        try:
            found: list[Group] = _walk.groups(trie, symbols, board.size, shortest, special, points, factors)
            return found
        except OverflowError:  # totals past 64 bits (no shipped rule comes near): Python's ints
            pass
    return python_groups(
        python_paths(symbols, board.size, wordlist.trie.root, shortest, special), points, factors
    )


def python_groups(
    first_paths: dict[Any, list[int]], points: Sequence[int], factors: Sequence[int]
) -> list[Group]:
    """``groups`` from ``paths``' result: the reference the compiled walk is tested against."""
    held: dict[tuple[int, int, int], tuple[str, int, list[int]]] = {}
    for place, (key, indices) in enumerate(first_paths.items()):
        word = key if isinstance(key, str) else key[0]
        factor = 1
        for i in indices:
            factor *= factors[i]
        totals = (sum(points[i] for i in indices), factor, len(indices))
        least = held.get(totals)
        if least is None or word < least[0]:
            held[totals] = (word, place, indices)
    return [(*totals, word, place, indices) for totals, (word, place, indices) in held.items()]


def _compiled_for(board: Board, wordlist: WordList, special: Sequence[int] = ()) -> Any:
    """The list's compiled trie if the compiled walk can search ``board`` with it (and its
    ``special`` tiles), else None."""
    # The tiles used are one 64-bit mask; special tiles crossed, the low 16 bits of a key.
    if _walk is None or board.size > 8 or len(special) > 16:
        return None
    trie = _compiled_trie(wordlist.trie)
    return None if trie is _REFUSED else trie


@cache
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """For each tile number, the numbers of its up to eight neighbours (the walk's order)."""
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


# -- the Python walk ------------------------------------------------------------------


def python_paths(
    symbols: list[str], size: int, root: dict[str, Any], shortest: int, special: Sequence[int] = ()
) -> dict[Any, list[int]]:
    """Each word the board allows, with the tile indices of the first path found.

    With ``special`` tiles (at most a few: the multipliers), a word is kept once per
    set of special tiles its path crosses, keyed ``(word, mask)``; a path crossing
    none is keyed by the word alone, as without ``special``.
    """
    bits = [0] * len(symbols)
    for n, i in enumerate(special):
        bits[i] = 1 << n
    # Per tile, its neighbours with their letters and special bit: one tuple unpack
    # per step instead of further list look-ups. A used-list beats an int bitmask here.
    steps = [tuple([(j, symbols[j], bits[j]) for j in near]) for near in neighbours(size)]
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
