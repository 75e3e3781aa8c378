"""The square board of letter tiles and the geometry of chains on it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .draws import Uniform
from .letters import Letter, LetterSampler

SIZE = 5


@dataclass(frozen=True, slots=True, order=True)
class Pos:
    row: int
    col: int

    def touches(self, other: Pos) -> bool:
        """True for the eight neighbours (and not for the tile itself)."""
        return self != other and abs(self.row - other.row) <= 1 and abs(self.col - other.col) <= 1


def path_doc(path: Iterable[Pos]) -> list[list[int]]:
    """A path as documents, records and messages write it: ``[[row, col], ...]``."""
    return [[pos.row, pos.col] for pos in path]


class Board:
    """A ``size`` x ``size`` grid of letters, filled and refilled by a sampler."""

    def __init__(self, rows: list[list[Letter]]) -> None:
        self.size = len(rows)
        if any(len(row) != self.size for row in rows):
            raise ValueError("a board must be square")
        self._rows = [list(row) for row in rows]

    @classmethod
    def fill(cls, sampler: LetterSampler, rng: Uniform, size: int = SIZE) -> Board:
        """A new board, drawn row by row, left to right."""
        return cls([[sampler.draw(rng) for _ in range(size)] for _ in range(size)])

    def contains(self, pos: Pos) -> bool:
        return 0 <= pos.row < self.size and 0 <= pos.col < self.size

    def __getitem__(self, pos: Pos) -> Letter:
        return self._rows[pos.row][pos.col]

    def rows(self) -> list[list[Letter]]:
        return [list(row) for row in self._rows]

    def refill(
        self, positions: Iterable[Pos], sampler: LetterSampler, rng: Uniform
    ) -> list[tuple[Pos, Letter]]:
        """Replace the tiles at ``positions`` (in board order, so replays match) with new draws."""
        changed = [(pos, sampler.draw(rng)) for pos in sorted(set(positions))]
        self.place(changed)
        return changed

    def place(self, tiles: Iterable[tuple[Pos, Letter]]) -> None:
        """Put each letter on its tile (as when going back to an earlier draw)."""
        for pos, letter in tiles:
            self._rows[pos.row][pos.col] = letter
