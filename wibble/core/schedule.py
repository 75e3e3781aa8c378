"""Every deadline of a match in one priority queue: a binary heap plus a position map.

A shared board has many clocks at once: the current turn's time limit, each
disconnected player's grace period, the end of the round. Rather than a timer per
clock, the server keeps one ``Scheduler`` and, whenever it wakes, asks which
deadlines have passed. The earliest deadline is at the top of a binary min-heap,
so ``peek`` says when to wake next.

Deadlines move all the time. A bonus extends a turn (the deadline goes later), a
turn that ends early takes its deadline away (a removal), a player who comes back
cancels their grace period. The usual ``heapq`` answer is lazy deletion: push a new
entry and mark the old one stale, to be skipped when it surfaces. That leaves dead
entries in the heap, makes ``len`` and ``peek`` lie until they are swept out, and
lets a heap grow without bound when one deadline is pushed back again and again.
Here a map from key to array index finds an entry at once, so moving it (up or
down) or taking it out is one O(log n) sift, and the heap holds exactly the live
deadlines.

There is no clock in here: times are plain numbers handed in by the caller (seconds
from whatever origin it likes), so the queue is as testable and replayable as the
rest of ``wibble.core``. Deadlines at the same time fall due in the order they were
set, by a sequence number each ``set`` takes, so the result never depends on the
heap's layout.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class _Entry(Generic[K]):
    when: float
    seq: int  # when it was set, among all sets: the tie-break for equal times
    key: K

    def before(self, other: _Entry[K]) -> bool:
        return (self.when, self.seq) < (other.when, other.seq)


class Scheduler(Generic[K]):
    """Deadlines by key: at most one per key, the earliest always at hand."""

    __slots__ = ("_heap", "_index", "_seq")

    def __init__(self) -> None:
        self._heap: list[_Entry[K]] = []
        self._index: dict[K, int] = {}
        self._seq = 0

    def set(self, key: K, when: float) -> None:
        """Make ``key`` fall due at ``when``: a new deadline, or an existing one moved either way."""
        if math.isnan(when):
            # NaN compares false with everything and would quietly break the heap's order.
            raise ValueError(f"deadline for {key!r} is not a number")
        # A fresh sequence number even when moving: a reset deadline queues behind others set earlier.
        entry = _Entry(when, self._seq, key)
        self._seq += 1
        i = self._index.get(key)
        if i is None:
            self._heap.append(entry)
            i = len(self._heap) - 1
        else:
            self._heap[i] = entry
        self._index[key] = i
        self._sift_down(self._sift_up(i))

    def cancel(self, key: K) -> bool:
        """Take away ``key``'s deadline; False if it had none."""
        i = self._index.get(key)
        if i is None:
            return False
        self._take(i)
        return True

    def when(self, key: K) -> float | None:
        """When ``key`` falls due, or None if it has no deadline."""
        i = self._index.get(key)
        return None if i is None else self._heap[i].when

    def peek(self) -> tuple[K, float] | None:
        """The earliest deadline, left in place; None when there is none."""
        if not self._heap:
            return None
        head = self._heap[0]
        return (head.key, head.when)

    def due(self, now: float) -> list[K]:
        """Take out every key due by ``now`` (``when <= now``), earliest first."""
        fired: list[K] = []
        while self._heap and self._heap[0].when <= now:
            fired.append(self._take(0).key)
        return fired

    def __len__(self) -> int:
        return len(self._heap)

    def __contains__(self, key: object) -> bool:
        try:
            return key in self._index
        except TypeError:  # an unhashable object is never a key
            return False

    def __repr__(self) -> str:
        ordered = sorted(self._heap, key=lambda e: (e.when, e.seq))
        return f"Scheduler({[(e.key, e.when) for e in ordered]!r})"

    # -- the heap ------------------------------------------------------------------------

    def _take(self, i: int) -> _Entry[K]:
        """Remove and return the entry at index ``i``, keeping the heap in order."""
        heap = self._heap
        taken = heap[i]
        del self._index[taken.key]
        last = heap.pop()
        if i < len(heap):
            # The last entry fills the hole; coming from another branch, it may need to go up or down.
            heap[i] = last
            self._index[last.key] = i
            self._sift_down(self._sift_up(i))
        return taken

    def _sift_up(self, i: int) -> int:
        """Move the entry at ``i`` up past every later parent; return where it stops."""
        heap, index = self._heap, self._index
        moving = heap[i]
        while i > 0:
            parent = (i - 1) // 2
            if not moving.before(heap[parent]):
                break
            heap[i] = heap[parent]
            index[heap[i].key] = i
            i = parent
        heap[i] = moving
        index[moving.key] = i
        return i

    def _sift_down(self, i: int) -> None:
        """Move the entry at ``i`` down below every earlier child."""
        heap, index = self._heap, self._index
        size = len(heap)
        moving = heap[i]
        while True:
            child = 2 * i + 1
            if child >= size:
                break
            if child + 1 < size and heap[child + 1].before(heap[child]):
                child += 1
            if not heap[child].before(moving):
                break
            heap[i] = heap[child]
            index[heap[i].key] = i
            i = child
        heap[i] = moving
        index[moving.key] = i
