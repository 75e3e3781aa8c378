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

from .heap import IndexedHeap

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class _Entry(Generic[K]):
    when: float
    seq: int  # when it was set, among all sets: the tie-break for equal times
    key: K


def _rank(entry: _Entry[K]) -> tuple[float, int]:
    return (entry.when, entry.seq)


def _key(entry: _Entry[K]) -> K:
    return entry.key


class Scheduler(Generic[K]):
    """Deadlines by key: at most one per key, the earliest always at hand."""

    __slots__ = ("_heap", "_seq")

    def __init__(self) -> None:
        self._heap: IndexedHeap[K, _Entry[K]] = IndexedHeap(_rank, _key)
        self._seq = 0

    def set(self, key: K, when: float) -> None:
        """Make ``key`` fall due at ``when``: a new deadline, or an existing one moved either way."""
        if math.isnan(when):
            # NaN compares false with everything and would quietly break the heap's order.
            raise ValueError(f"deadline for {key!r} is not a number")
        # A fresh sequence number even when moving: a reset deadline queues behind others set earlier.
        self._heap.put(_Entry(when, self._seq, key))
        self._seq += 1

    def cancel(self, key: K) -> bool:
        """Take away ``key``'s deadline; False if it had none."""
        return self._heap.take(key) is not None

    def when(self, key: K) -> float | None:
        """When ``key`` falls due, or None if it has no deadline."""
        entry = self._heap.get(key)
        return None if entry is None else entry.when

    def peek(self) -> tuple[K, float] | None:
        """The earliest deadline, left in place; None when there is none."""
        head = self._heap.peek()
        return None if head is None else (head.key, head.when)

    def due(self, now: float) -> list[K]:
        """Take out every key due by ``now`` (``when <= now``), earliest first."""
        fired: list[K] = []
        while (head := self._heap.peek()) is not None and head.when <= now:
            fired.append(self._heap.pop().key)
        return fired

    def __len__(self) -> int:
        return len(self._heap)

    def __contains__(self, key: object) -> bool:
        return key in self._heap

    def __repr__(self) -> str:
        ordered = sorted(self._heap.entries(), key=_rank)
        return f"Scheduler({[(e.key, e.when) for e in ordered]!r})"
