"""What a word scores: one function, ``score``, and the ordered modifiers it applies.

A path's points are the result of small modifiers applied one after another to a
running total, in an order that is data (a tuple of names), not code: the letter
multipliers first (each tile's letter score times its DL/TL factor, summed), then
the word multiplier (x2 if the word crosses the 2x tile), then the long-word bonus
(+10 from six tiles up). Applying the bonus after the multiplier is what makes a
long word on the 2x tile worth 2 * letters + 10, not 2 * (letters + 10); swapping
the two names would change that rule and nothing else.

Each modifier reports what it did as a ``Step``, so the page can show why a word
scored what it did, and every scorer in the server (the game, the solver, hints,
bots, the end-of-match best words) calls this one function.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple


@dataclass(frozen=True, slots=True)
class TileValue:
    """What scoring needs to know of one tile of a path."""

    score: int
    letter_mult: int = 1
    """2 on a DL tile, 3 on a TL tile."""
    word_mult: int = 1
    """2 on the 2x tile."""


@dataclass(frozen=True, slots=True)
class Step:
    """One modifier's part in a score: its name, what it added or multiplied, and the total after it."""

    name: str
    points: int
    """The running total after this step."""
    factor: int = 1
    """For a multiplier, what the total was multiplied by."""
    bonus: int = 0
    """For a bonus, what was added."""

    def to_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"step": self.name, "points": self.points}
        if self.factor != 1:
            doc["factor"] = self.factor
        if self.bonus:
            doc["bonus"] = self.bonus
        return doc


@dataclass(frozen=True, slots=True)
class Score:
    points: int
    breakdown: tuple[Step, ...]

    def to_doc(self) -> list[dict[str, Any]]:
        return [step.to_doc() for step in self.breakdown]


Applied = tuple[int, int, int]
"""What a modifier did: the running total after it, the factor it multiplied by, the bonus it added."""


class Totals(NamedTuple):
    """What the modifiers know of a path: what its tiles add up to, and how many there are.

    Every rule so far needs only these, so the solver can rank thousands of candidate
    paths a board by adding up numbers it prepared per tile (``tile_points``), and
    then run the same modifiers as ``score`` on the sums. A modifier that needs more of
    a path (a tile's identity, say) would add a field here.
    """

    letters: int
    """Each tile's letter score times its letter multiplier, summed."""
    word_factor: int
    """The tiles' word multipliers, multiplied together."""
    tiles: int


Modifier = Callable[[Totals, int], Applied | None]
"""Takes the path's totals and the running total; returns what it did, or None if it did not apply.
Plain tuples, not ``Step`` objects: the solver scores thousands of paths a board with these."""


def tile_points(tile: TileValue) -> int:
    """What one tile adds to a path's ``Totals.letters``."""
    return tile.score * tile.letter_mult


def totals_of(tiles: Sequence[TileValue]) -> Totals:
    letters, factor = 0, 1
    for tile in tiles:
        letters += tile.score * tile.letter_mult  # tile_points, inline: every drag step scores its chain
        factor *= tile.word_mult
    return _totals(Totals, (letters, factor, len(tiles)))


# tuple.__new__ with the three numbers: the NamedTuple's own __new__ is a Python function,
# a measurable share of a drag step's cost (benchmarks.instructions).
_totals = tuple.__new__


def letter_multipliers(totals: Totals, points: int) -> Applied:
    """Each tile's letter score times its letter multiplier, summed (always applies: it is the base)."""
    return (points + totals.letters, 1, 0)


def word_multiplier(totals: Totals, points: int) -> Applied | None:
    factor = totals.word_factor
    return (points * factor, factor, 0) if factor != 1 else None


LONG_WORD_TILES = 6
LONG_WORD_BONUS = 10


def long_word_bonus(totals: Totals, points: int) -> Applied | None:
    """A flat bonus from ``LONG_WORD_TILES`` tiles up (tiles, so a two-letter tile counts once)."""
    if totals.tiles < LONG_WORD_TILES:
        return None
    return (points + LONG_WORD_BONUS, 1, LONG_WORD_BONUS)


MODIFIERS: Mapping[str, Modifier] = {
    "letters": letter_multipliers,
    "word_multiplier": word_multiplier,
    "long_word": long_word_bonus,
}

MATCH_ORDER: tuple[str, ...] = ("letters", "word_multiplier", "long_word")
"""A match's scoring, in Spellcast's order."""

ENDLESS_ORDER: tuple[str, ...] = ("letters",)
"""The endless game: the letter scores summed, as every saved game and record was scored."""


def check_order(order: Sequence[str]) -> tuple[str, ...]:
    """``order`` as a tuple, if every name is a known modifier; ValueError otherwise."""
    unknown = [name for name in order if name not in MODIFIERS]
    if unknown or not order or order[0] != "letters":
        raise ValueError(f"a scoring order starts with 'letters' and names only {sorted(MODIFIERS)}")
    return tuple(order)


def score(tiles: Sequence[TileValue], order: Sequence[str] = MATCH_ORDER) -> Score:
    """The points of a path of ``tiles``, with the step each modifier in ``order`` took."""
    points = 0
    steps: list[Step] = []
    totals = totals_of(tiles)
    for name in order:
        applied = MODIFIERS[name](totals, points)
        if applied is not None:
            points, factor, bonus = applied
            steps.append(Step(name, points, factor, bonus))
    return Score(points, tuple(steps))


def points_of(tiles: Sequence[TileValue], order: Sequence[str] = MATCH_ORDER) -> int:
    """``score(tiles, order).points``, by the same modifiers, without building the breakdown."""
    return points_of_totals(totals_of(tiles), order)


def points_of_totals(totals: Totals, order: Sequence[str] = MATCH_ORDER) -> int:
    """The points of any path with these ``totals``: ``score``'s modifiers, without the breakdown."""
    points = 0
    for name in order:
        applied = MODIFIERS[name](totals, points)
        if applied is not None:
            points = applied[0]
    return points
