"""Random numbers that live in a game's state: a seed and a count of draws so far.

A game's randomness must survive being saved, restored in another process and
replayed from its record. A ``random.Random`` keeps 2.5 KB of Mersenne Twister
state that only ``pickle`` can carry; here the state is two integers. Draw number
``n`` is a keyed hash of ``n`` under the seed (BLAKE2b, 8 bytes out), so any draw
can be recomputed from ``(seed, n)`` alone, and a game restored with its counter
goes on with exactly the draws it would have made.

BLAKE2b is a cryptographic hash, so the draws pass any statistical test a game
could care about, and knowing some draws says nothing useful about the next ones
without the seed (a chosen seed, as in ``?seed=42``, is public by design).
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Protocol

SEED_BYTES = 8
_SCALE = 1.0 / (1 << 53)


class Uniform(Protocol):
    """Anything that draws uniform numbers in [0, 1): ``Draws``, or a ``random.Random`` in tests."""

    def random(self) -> float: ...


class Draws:
    """A counter-based source of uniform numbers in [0, 1).

    ``seed`` (0 .. 2**64 - 1) and ``position`` (how many numbers were drawn) are the
    whole state; ``Draws(seed, position)`` continues exactly where another left off.
    """

    __slots__ = ("_key", "position", "seed")

    def __init__(self, seed: int, position: int = 0) -> None:
        if not 0 <= seed < 1 << (8 * SEED_BYTES):
            raise ValueError(f"seed must be 0 .. 2**64 - 1, not {seed}")
        if not 0 <= position < 1 << 64:
            # A real game makes a few thousand draws; a count past 2**64 is a damaged document.
            raise ValueError(f"position must be 0 .. 2**64 - 1, not {position}")
        self.seed = seed
        self.position = position
        self._key = seed.to_bytes(SEED_BYTES, "big")

    def random(self) -> float:
        """The next number in [0, 1), with 53 random bits (every float a double can hold there)."""
        digest = blake2b(self.position.to_bytes(8, "big"), digest_size=8, key=self._key).digest()
        self.position += 1
        return (int.from_bytes(digest, "big") >> 11) * _SCALE

    def __repr__(self) -> str:
        return f"Draws(seed={self.seed}, position={self.position})"
