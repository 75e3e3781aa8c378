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

The heap is an array written out by hand rather than ``heapq``, because a seat can
leave mid-match (a player disconnects) and must be taken out wherever it sits. A
map from seat to array index finds it at once, and one sift up or down repairs the
heap, so removal is O(log n) rather than a linear search followed by a rebuild.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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


class TurnOrder:
    """The seats still in the match, each once, popped in order of ``(key, nonce)``."""

    __slots__ = ("_heap", "_index")

    def __init__(self, turns: Iterable[Turn] = ()) -> None:
        self._heap: list[Turn] = list(turns)
        self._index: dict[int, int] = {}
        for i, turn in enumerate(self._heap):
            if turn.seat in self._index:
                raise ValueError(f"seat {turn.seat} appears twice")
            self._index[turn.seat] = i
        # Bottom-up heapify: sifting down each parent, last first, costs O(n) in all.
        for i in reversed(range(len(self._heap) // 2)):
            self._sift_down(i)

    def push(self, seat: int, key: int, nonce: int | None = None) -> None:
        """Seat ``seat`` to play at tick ``key``; ``nonce`` defaults to the seat number."""
        if seat in self._index:
            raise ValueError(f"seat {seat} is already waiting for a turn")
        self._heap.append(Turn(key, seat if nonce is None else nonce, seat))
        self._index[seat] = len(self._heap) - 1
        self._sift_up(len(self._heap) - 1)

    def pop(self) -> Turn:
        """The next turn to play, taken out of the order."""
        if not self._heap:
            raise IndexError("pop from an empty TurnOrder")
        return self._take(0)

    def peek(self) -> Turn | None:
        """The next turn to play, left in place; None when no seat is waiting."""
        return self._heap[0] if self._heap else None

    def remove(self, seat: int) -> bool:
        """Take ``seat`` out wherever it is in the order; False if it was not there."""
        i = self._index.get(seat)
        if i is None:
            return False
        self._take(i)
        return True

    def turns(self) -> list[Turn]:
        """Every waiting turn, in the order ``pop`` would hand them out (the heap is untouched)."""
        return sorted(self._heap, key=_rank)

    def __len__(self) -> int:
        return len(self._heap)

    def __contains__(self, seat: object) -> bool:
        return isinstance(seat, int) and seat in self._index

    def __repr__(self) -> str:
        return f"TurnOrder({self.turns()!r})"

    # -- the heap ------------------------------------------------------------------------

    def _take(self, i: int) -> Turn:
        """Remove and return the entry at index ``i``, keeping the heap in order."""
        heap = self._heap
        taken = heap[i]
        del self._index[taken.seat]
        last = heap.pop()
        if i < len(heap):
            # The last entry fills the hole. It came from another branch, so it may belong
            # above the hole as well as below it: try both (at most one of them moves it).
            heap[i] = last
            self._index[last.seat] = i
            self._sift_down(self._sift_up(i))
        return taken

    def _sift_up(self, i: int) -> int:
        """Move the entry at ``i`` up past every parent that ranks after it; return where it stops."""
        heap, index = self._heap, self._index
        moving = heap[i]
        rank = _rank(moving)
        while i > 0:
            parent = (i - 1) // 2
            if _rank(heap[parent]) <= rank:
                break
            heap[i] = heap[parent]
            index[heap[i].seat] = i
            i = parent
        heap[i] = moving
        index[moving.seat] = i
        return i

    def _sift_down(self, i: int) -> None:
        """Move the entry at ``i`` down below every child that ranks before it."""
        heap, index = self._heap, self._index
        size = len(heap)
        moving = heap[i]
        rank = _rank(moving)
        while True:
            child = 2 * i + 1
            if child >= size:
                break
            if child + 1 < size and _rank(heap[child + 1]) < _rank(heap[child]):
                child += 1
            if rank <= _rank(heap[child]):
                break
            heap[i] = heap[child]
            index[heap[i].seat] = i
            i = child
        heap[i] = moving
        index[moving.seat] = i
