"""A binary min-heap with a position map: any entry found by its id, moved or taken out in O(log n).

Both of the game's priority queues are this: turn order (seats by when they play
next) and the scheduler (deadlines by when they fall due). ``heapq`` can only push
and pop; a seat that leaves mid-match, or a deadline that moves, would have to be
found by a linear search or left behind as a stale entry. Here a map from each
entry's id to its index in the array finds it at once, and one sift up and one
sift down (at most one of which moves anything) repair the heap.

Entries are ordered by ``rank(entry)``, smaller first; a rank should be total (a
tie-breaker last), so the order never depends on how the array happens to be laid out.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

I = TypeVar("I", bound=Hashable)  # noqa: E741 - the conventional name for an id type
E = TypeVar("E")


class IndexedHeap(Generic[I, E]):
    __slots__ = ("_heap", "_id", "_index", "_rank")

    def __init__(self, rank: Callable[[E], Any], id_of: Callable[[E], I], entries: Iterable[E] = ()) -> None:
        self._rank = rank
        self._id = id_of
        self._heap: list[E] = list(entries)
        self._index: dict[I, int] = {}
        for i, entry in enumerate(self._heap):
            if id_of(entry) in self._index:
                raise ValueError(f"{id_of(entry)!r} appears twice")
            self._index[id_of(entry)] = i
        # Bottom-up heapify: sifting down each parent, last first, costs O(n) in all.
        for i in reversed(range(len(self._heap) // 2)):
            self._sift_down(i)

    def put(self, entry: E) -> None:
        """Add ``entry``, or put it in place of the entry with the same id (moving it either way)."""
        i = self._index.get(self._id(entry))
        if i is None:
            self._heap.append(entry)
            i = len(self._heap) - 1
        else:
            self._heap[i] = entry
        self._index[self._id(entry)] = i
        self._sift_down(self._sift_up(i))

    def get(self, entry_id: I) -> E | None:
        i = self._index.get(entry_id)
        return None if i is None else self._heap[i]

    def take(self, entry_id: I) -> E | None:
        """Take out the entry with this id, wherever it is; None if there is none."""
        i = self._index.get(entry_id)
        return None if i is None else self._take(i)

    def peek(self) -> E | None:
        return self._heap[0] if self._heap else None

    def pop(self) -> E:
        if not self._heap:
            raise IndexError("pop from an empty heap")
        return self._take(0)

    def entries(self) -> list[E]:
        """Every entry, in no particular order."""
        return list(self._heap)

    def __len__(self) -> int:
        return len(self._heap)

    def __contains__(self, entry_id: object) -> bool:
        try:
            return entry_id in self._index
        except TypeError:  # an unhashable object is never an id
            return False

    def _take(self, i: int) -> E:
        heap = self._heap
        taken = heap[i]
        del self._index[self._id(taken)]
        last = heap.pop()
        if i < len(heap):
            # The last entry fills the hole. It came from another branch, so it may belong
            # above the hole as well as below it: try both (at most one of them moves it).
            heap[i] = last
            self._index[self._id(last)] = i
            self._sift_down(self._sift_up(i))
        return taken

    def _sift_up(self, i: int) -> int:
        """Move the entry at ``i`` up past every parent that ranks after it; return where it stops."""
        heap, index, rank, id_of = self._heap, self._index, self._rank, self._id
        moving = heap[i]
        mine = rank(moving)
        while i > 0:
            parent = (i - 1) // 2
            if not mine < rank(heap[parent]):
                break
            heap[i] = heap[parent]
            index[id_of(heap[i])] = i
            i = parent
        heap[i] = moving
        index[id_of(moving)] = i
        return i

    def _sift_down(self, i: int) -> None:
        """Move the entry at ``i`` down below every child that ranks before it."""
        heap, index, rank, id_of = self._heap, self._index, self._rank, self._id
        size = len(heap)
        moving = heap[i]
        mine = rank(moving)
        while True:
            child = 2 * i + 1
            if child >= size:
                break
            if child + 1 < size and rank(heap[child + 1]) < rank(heap[child]):
                child += 1
            if not rank(heap[child]) < mine:
                break
            heap[i] = heap[child]
            index[id_of(heap[i])] = i
            i = child
        heap[i] = moving
        index[id_of(moving)] = i
