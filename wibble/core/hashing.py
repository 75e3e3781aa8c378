"""Polynomial rolling hashes for telling found words apart quickly.

A word's hash is ``sum(code(ch) * base**(n-1-i)) mod m`` under two independent
primes, each with its own randomly drawn base, so no fixed input can be crafted to
collide (as it can under a power-of-two modulus). Prefix hashes sit on a stack
along the chain, so adding a tile is one multiply-add and backtracking is a pop.
A hash match is only a hint: ``FoundWords`` confirms it by comparing the words.
"""

from __future__ import annotations

import random
from collections.abc import Set
from dataclasses import dataclass
from typing import Any

# Two Mersenne primes: independent moduli, and Python's big ints keep the
# products exact, so nothing wraps silently.
DEFAULT_MODULI: tuple[int, ...] = ((1 << 61) - 1, (1 << 31) - 1)

HashKey = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HashParams:
    """Moduli and one base per modulus."""

    moduli: tuple[int, ...]
    bases: tuple[int, ...]

    @classmethod
    def draw(cls, rng: random.Random, moduli: tuple[int, ...] = DEFAULT_MODULI) -> HashParams:
        """Draw a random base in [2, m - 2] for each modulus."""
        return cls(moduli, tuple(rng.randint(2, m - 2) for m in moduli))

    def extend(self, key: HashKey, ch: str) -> HashKey:
        """The hash of ``text + ch`` given the hash of ``text``."""
        code = ord(ch)
        return tuple((h * b + code) % m for h, b, m in zip(key, self.bases, self.moduli, strict=True))

    @property
    def empty(self) -> HashKey:
        return tuple(0 for _ in self.moduli)

    def of(self, text: str) -> HashKey:
        """The hash of a whole string (what the rolling stack reaches for it)."""
        key = self.empty
        for ch in text:
            key = self.extend(key, ch)
        return key


class RollingHash:
    """Prefix hashes of the current chain, one per tile, on a stack."""

    def __init__(self, params: HashParams) -> None:
        self._params = params
        self._stack: list[HashKey] = [params.empty]

    def push(self, ch: str) -> None:
        self._stack.append(self._params.extend(self._stack[-1], ch))

    def pop(self) -> None:
        if len(self._stack) == 1:
            raise IndexError("pop from an empty rolling hash")
        self._stack.pop()

    def clear(self) -> None:
        del self._stack[1:]

    @property
    def value(self) -> HashKey:
        return self._stack[-1]


class FoundWords:
    """The words found so far in a game: a hash-keyed set confirmed by exact comparison."""

    def __init__(self, params: HashParams) -> None:
        self.params = params
        self._by_key: dict[HashKey, list[str]] = {}
        # [word, points] in the order found, already in the document's form: every commit
        # writes the whole list, and a long game's hundreds of pairs are then one copy,
        # not one new list each. A pair never changes once added.
        self._pairs: list[list[Any]] = []
        # The same words as a plain set: after each refill the board's words are counted
        # less these, and rebuilding it from the pairs cost a pass over every word found.
        self._words: set[str] = set()

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.contains(word, self.params.of(word))

    def __len__(self) -> int:
        return len(self._pairs)

    def contains(self, word: str, key: HashKey) -> bool:
        """Fast path on ``key``; a hit is confirmed against the stored words."""
        bucket = self._by_key.get(key)
        return bucket is not None and word in bucket

    def add(self, word: str, key: HashKey, points: int) -> None:
        self._by_key.setdefault(key, []).append(word)
        self._pairs.append([word, points])
        self._words.add(word)

    @property
    def in_order(self) -> list[tuple[str, int]]:
        """(word, points) in the order they were found."""
        return [(word, points) for word, points in self._pairs]

    @property
    def words(self) -> Set[str]:
        """Every word found, to check a board's words against (read it; never change it)."""
        return self._words

    def to_doc(self) -> list[list[Any]]:
        """[word, points] in the order found, as a game's document holds them (a new list)."""
        return list(self._pairs)
