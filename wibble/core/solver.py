"""Every word a board allows, scored and ranked (``solve``), the best alone (``best``), or just
counted (``count_words``).

The walk over the board itself is ``wibble.core.search`` (compiled where it was built);
this module turns the paths it finds into scores with the one scoring function.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from functools import cache
from typing import NamedTuple

from . import search
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
    special, points, factors = _per_tile(board, values)
    # The modifiers see a path only through its Totals, so each candidate is the sum of
    # numbers prepared per tile, and paths with equal totals (most share a handful)
    # are scored once: the one scoring function, without rebuilding tiles per path.
    letter = points.__getitem__
    scored: dict[tuple[int, int, int], int] = {}
    ranked: list[tuple[int, str, list[int]]] = []
    if not special:  # each word found once, crossing no multiplier
        for word, indices in search.paths(board, words).items():
            totals = (sum(map(letter, indices)), 1, len(indices))
            score = scored.get(totals)
            if score is None:
                scored[totals] = score = points_of_totals(Totals(*totals), order)
            ranked.append((-score, word, indices))
    else:
        best_path: dict[str, tuple[int, list[int]]] = {}  # each word's best points and path
        for key, indices in search.paths(board, words, special).items():
            if isinstance(key, str):
                word, factor = key, 1
            else:
                word, factor = key[0], 1
                for i in indices:
                    factor *= factors[i]
            totals = (sum(map(letter, indices)), factor, len(indices))
            score = scored.get(totals)
            if score is None:
                scored[totals] = score = points_of_totals(Totals(*totals), order)
            held = best_path.get(word)
            if held is None or score > held[0]:
                best_path[word] = (score, indices)
        ranked = [(-score, word, indices) for word, (score, indices) in best_path.items()]
    # Best first, then alphabetical: plain tuples sort without a key function (words are unique).
    ranked.sort()
    position = _positions(board.size).__getitem__
    # tuple.__new__ straight away: a NamedTuple's own __new__ is one more Python call per word.
    return [
        _found(Found, (word, -negative, tuple(map(position, indices)))) for negative, word, indices in ranked
    ]


def best(
    board: Board,
    words: WordList,
    values: Sequence[TileValue] | None = None,
    order: Sequence[str] = ENDLESS_ORDER,
) -> Found | None:
    """``solve(...)[0]`` (None on a board without a word), found by scoring each distinct set of
    totals once: a match asks for the turn's best word at every release.

    Paths with equal ``Totals`` score the same, so the search groups them (``search.groups``:
    each group's least word, its path and that path's place in the walk). The best group's
    least word is the best word: any word in a group scoring the most scores the most, so
    none sorts before it. Among one word's groups with equal points the earliest place wins,
    the path ``solve`` keeps for it.
    """
    top: tuple[int, str, int, list[int]] | None = None
    for letters, factor, tiles, word, place, indices in search.groups(
        board, words, *_per_tile(board, values)
    ):
        entry = (-points_of_totals(Totals(letters, factor, tiles), order), word, place, indices)
        if top is None or entry[:3] < top[:3]:
            top = entry
    if top is None:
        return None
    position = _positions(board.size).__getitem__
    return Found(top[1], -top[0], tuple(map(position, top[3])))


def _per_tile(board: Board, values: Sequence[TileValue] | None) -> tuple[list[int], list[int], list[int]]:
    """What the search needs of ``values`` (by default each letter's score): the multiplier
    tiles' indices, and each tile's points (``tile_points``) and word factor, row by row."""
    if values is None:
        values = [TileValue(letter.score) for row in board.rows() for letter in row]
    special = [i for i, v in enumerate(values) if v.letter_mult != 1 or v.word_mult != 1]
    return special, [tile_points(v) for v in values], [v.word_mult for v in values]


def count_words(board: Board, words: WordList, excluding: AbstractSet[str] = frozenset()) -> int:
    """How many words ``board`` allows that are not in ``excluding``: ``solve`` without the paths.

    The game counts after every refill, so this skips what a count does not need:
    no paths, no multipliers, no ``Found`` objects, and (compiled) not even the words themselves.
    """
    return search.count(board, words, excluding)
