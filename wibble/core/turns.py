"""Whose turn it is: seats in a min-heap ordered by when each one plays next.

Every seat carries a ``key``, the tick at which it plays next, and the seat with
the smallest key plays first. A round lasts ``TICKS_PER_ROUND`` (12) ticks, and
round ``r`` (counting from 1) holds the keys in ``[(r - 1) * 12, r * 12)``. After
playing, a seat goes back in at ``key + step(speed)``: speed 1 steps 12 ticks and
plays once a round, speed 2 steps 6 and plays twice, speed 3 thrice, speed 4 four
times. Twelve is the smallest number of ticks that 1, 2, 3 and 4 all divide, so
keys stay integers: no float drift, and a seat that plays twice a round lands
exactly on the round's boundary, never a hair before or after it.

Two seats due at the same tick are told apart by a ``nonce``, smaller first (a
match uses the seat index, which is the default), so the order never depends on
how the heap happens to be laid out. Should two entries share key and nonce too,
the seat number settles it: the order is total, and ``turns()`` can promise to be
exactly the order of the pops.

The heap is ``wibble.core.heap.IndexedHeap`` rather than ``heapq``, because a seat
can leave mid-match (a player disconnects) and must be taken out wherever it sits:
its map from seat to array index finds it at once, so removal is O(log n) rather
than a linear search followed by a rebuild.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .heap import IndexedHeap

TICKS_PER_ROUND = 12
SPEEDS = (1, 2, 3, 4)


def step(speed: int) -> int:
    """How many ticks a seat with ``speed`` (1 to 4) moves on after each turn."""
    if isinstance(speed, bool) or not isinstance(speed, int) or speed not in SPEEDS:
        # A bool or a float equal to 2 would pass ``in SPEEDS`` and make keys that are not ints.
        raise ValueError(f"speed must be one of {SPEEDS}, not {speed!r}")
    return TICKS_PER_ROUND // speed


@dataclass(frozen=True, slots=True)
class Turn:
    key: int  # when the seat plays next, in ticks
    nonce: int  # breaks ties between equal keys: smaller plays first
    seat: int


def _rank(turn: Turn) -> tuple[int, int, int]:
    # The seat comes last only so that entries equal in key and nonce still have one fixed order.
    return (turn.key, turn.nonce, turn.seat)


def _seat(turn: Turn) -> int:
    return turn.seat


class TurnOrder:
    """The seats still in the match, each once, popped in order of ``(key, nonce)``."""

    __slots__ = ("_heap",)

    def __init__(self, turns: Iterable[Turn] = ()) -> None:
        turns = list(turns)
        seats = [turn.seat for turn in turns]
        twice = next((seat for seat in seats if seats.count(seat) > 1), None)
        if twice is not None:
            raise ValueError(f"seat {twice} appears twice")
        self._heap: IndexedHeap[int, Turn] = IndexedHeap(_rank, _seat, turns)

    def push(self, seat: int, key: int, nonce: int | None = None) -> None:
        """Seat ``seat`` to play at tick ``key``; ``nonce`` defaults to the seat number."""
        if seat in self._heap:
            raise ValueError(f"seat {seat} is already waiting for a turn")
        self._heap.put(Turn(key, seat if nonce is None else nonce, seat))

    def pop(self) -> Turn:
        """The next turn to play, taken out of the order."""
        if not self._heap:
            raise IndexError("pop from an empty TurnOrder")
        return self._heap.pop()

    def peek(self) -> Turn | None:
        """The next turn to play, left in place; None when no seat is waiting."""
        return self._heap.peek()

    def remove(self, seat: int) -> bool:
        """Take ``seat`` out wherever it is in the order; False if it was not there."""
        return self._heap.take(seat) is not None

    def turns(self) -> list[Turn]:
        """Every waiting turn, in the order ``pop`` would hand them out (the heap is untouched)."""
        return sorted(self._heap.entries(), key=_rank)

    def __len__(self) -> int:
        return len(self._heap)

    def __contains__(self, seat: object) -> bool:
        return isinstance(seat, int) and seat in self._heap

    def __repr__(self) -> str:
        return f"TurnOrder({self.turns()!r})"
