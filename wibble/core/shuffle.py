"""Shuffling with a game's own draws: the Fisher–Yates shuffle, done the uniform way.

Walking ``i`` from the last index down to 1 and swapping item ``i`` with an item
``j`` drawn uniformly from ``0 .. i`` (``i`` itself included) makes each of the
``n!`` orders exactly as likely as the others: the first step picks the last item
from ``n`` choices, the next from ``n - 1``, and so on, ``n!`` equally likely paths
that each end in a different order.

The easy slip is to draw ``j`` from ``0 .. i - 1`` (``int(random * i)``). That is
Sattolo's algorithm: it only ever makes a single cycle through all the items, so no
item can stay where it was and only ``(n - 1)!`` of the orders can come out. For a
"shuffle the board" power-up that would mean a tile never keeps its square, which
players notice.

Randomness comes from a ``Uniform`` (a game's ``Draws``) rather than the global
``random``, so a shuffle replays from the game's seed. Shuffling ``n`` items uses
exactly ``n - 1`` draws (none for 0 or 1 items), which a replay counts on. Scaling a
53-bit draw to ``0 .. i`` is off from uniform by at most about ``i / 2**53``, far
below anything a game or a test could see.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from .draws import Uniform

T = TypeVar("T")


def shuffle(items: MutableSequence[T], rng: Uniform) -> None:
    """Put ``items`` in a uniformly random order, in place, with ``len(items) - 1`` draws."""
    for i in range(len(items) - 1, 0, -1):
        # ``rng.random() < 1`` keeps j <= i in exact arithmetic; the clamp guards against a
        # product rounded up to i + 1, or a source that returns 1.0 when it should not.
        j = min(int(rng.random() * (i + 1)), i)
        items[i], items[j] = items[j], items[i]


def permutation(n: int, rng: Uniform) -> list[int]:
    """A uniformly random order of ``range(n)``."""
    if n < 0:
        raise ValueError(f"cannot permute {n} items")
    order = list(range(n))
    shuffle(order, rng)
    return order
