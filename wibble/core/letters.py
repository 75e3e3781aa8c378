"""Letters, their scores and weights, and drawing them by weight.

A draw maps one uniform number ``u`` in [0, 1) onto the cumulative distribution of
the weights and finds its letter by binary search (``bisect``), so each draw costs
O(log alphabet) and the randomness is whatever source of uniform numbers the caller injects
(a game's ``Draws``).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import accumulate

from .draws import Uniform


@dataclass(frozen=True, slots=True)
class Letter:
    """One kind of tile: its symbol (lowercase, NFC), points and draw weight."""

    symbol: str
    score: int
    weight: float
    face: str = ""
    """What the tile shows; by default the symbol in upper case (see ``default_face``)."""

    def __post_init__(self) -> None:
        if not self.face:
            object.__setattr__(self, "face", default_face(self.symbol))


def default_face(symbol: str) -> str:
    """The upper-case symbol, or the symbol itself where upper case is two letters (ß -> SS)."""
    upper = symbol.upper()
    return upper if len(upper) == 1 else symbol


def distinct_faces(symbols: Iterable[str]) -> dict[str, str]:
    """A face per symbol such that no two tiles look alike.

    Upper case merges some letters (Turkish i and ı are both I, Greek σ and ς both Σ);
    those keep their lower-case form so a player can tell them apart.
    """
    symbols = list(symbols)
    counts = Counter(default_face(symbol) for symbol in symbols)
    return {s: default_face(s) if counts[default_face(s)] == 1 else s for s in symbols}


class LetterTable:
    """The letters a word list plays with, in a fixed order."""

    def __init__(self, letters: Iterable[Letter]) -> None:
        self._letters = tuple(letters)
        self._by_symbol = {letter.symbol: letter for letter in self._letters}
        if len(self._by_symbol) != len(self._letters):
            raise ValueError("a letter appears twice in the table")
        if not any(letter.weight > 0 for letter in self._letters):
            raise ValueError("at least one letter needs a positive weight")
        if not math.isfinite(sum(letter.weight for letter in self._letters)):
            raise ValueError("the weights add up to more than a number can hold")
        if len({letter.face for letter in self._letters}) != len(self._letters):
            raise ValueError("two letters show the same face")

    def __iter__(self) -> Iterator[Letter]:
        return iter(self._letters)

    def __len__(self) -> int:
        return len(self._letters)

    def __getitem__(self, symbol: str) -> Letter:
        return self._by_symbol[symbol]

    def __contains__(self, symbol: object) -> bool:
        return symbol in self._by_symbol


class LetterSampler:
    """Draws letters in proportion to their weights via a CDF and ``bisect``."""

    def __init__(self, table: LetterTable) -> None:
        # Zero-weight letters are left out, so no interval of width 0 can be hit.
        self._letters = [letter for letter in table if letter.weight > 0]
        self._cumulative = list(accumulate(letter.weight for letter in self._letters))
        self._total = self._cumulative[-1]

    def letter_for(self, u: float) -> Letter:
        """The letter whose CDF interval [lo, hi) holds ``u`` (0 <= u < 1)."""
        if not 0.0 <= u < 1.0:
            raise ValueError(f"u must be in [0, 1), got {u!r}")
        index = bisect_right(self._cumulative, u * self._total)
        # u * total can round up to the total for u just below 1.0; that draw
        # belongs to the last interval, not past the end.
        return self._letters[min(index, len(self._letters) - 1)]

    def draw(self, rng: Uniform) -> Letter:
        return self.letter_for(rng.random())

    def probabilities(self) -> dict[str, float]:
        """Each drawable letter's chance of being drawn."""
        return {letter.symbol: letter.weight / self._total for letter in self._letters}
