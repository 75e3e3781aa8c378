"""The dictionary as a minimised trie (a DAWG): is this a word, can a word start like this.

A plain trie spends a node on every prefix of every word: 390,000 nodes for the
173,000 English words, 1.1 million for Spanish. Most of them end the same way
(-ing, -ed, -ción, -aríamos), so here every group of identical subtrees is stored
once and shared: 54,000 nodes for English and 48,000 for Spanish, about 10 MB each.
Sharing is invisible to readers; it is why a node can never carry data of its own.

Nodes are plain ``dict`` objects mapping a one-letter string to the next node, with
the key ``""`` present where a word ends. That is a contract, not an accident: a
chain keeps a stack of nodes, so adding or removing a tile is one ``child`` step or
one pop, O(1) whatever the word's length, and the solver walks the dicts directly
because a C-level ``dict.get`` per tile is the fastest step Python has. Nothing
changes a node after it is built, so any number of games read the same trie at once
without locks.

``to_bytes`` and ``from_bytes`` give the compiled form that ``wibble.cache`` keeps on
disk: loading it takes milliseconds where building from the word list takes most of a
second.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NewType

Node = NewType("Node", dict[str, Any])

# Letters are non-empty strings, so the empty key can safely mark "a word ends here".
_END = ""

# The compiled form: MAGIC, a header line, then a SHA-256 of the payload, then the payload.
# The header names the Python and marshal versions because marshal's format is only
# promised to one Python version; a file from another is rebuilt, never guessed at.
MAGIC = b"WIBBLE-DAWG\n"
# Cache files are keyed by the list's bytes only, so bump FORMAT whenever the same bytes
# would give another trie: a change here, or in how wordlist.parse_words reads a list.
FORMAT = 1
_HEADER = f"{FORMAT} {sys.version_info[0]}.{sys.version_info[1]} {marshal.version}\n".encode()
_DIGEST_SIZE = 32


class Trie:
    """A read-only minimised prefix tree over a set of lowercase words."""

    def __init__(self, words: Iterable[str]) -> None:
        unique = sorted(set(words))
        self._root = _build(unique)
        self._count = len(unique)
        # How often each letter appears across the words: word lists derive tile
        # scores and weights from it, and it is kept so a cached trie needs no words.
        self._letter_counts: dict[str, int] = dict(Counter("".join(unique)))

    @classmethod
    def _from_parts(cls, root: Node, count: int, letter_counts: dict[str, int]) -> Trie:
        trie = cls.__new__(cls)
        trie._root, trie._count, trie._letter_counts = root, count, letter_counts
        return trie

    @property
    def root(self) -> Node:
        return self._root

    def __len__(self) -> int:
        return self._count

    @property
    def letter_counts(self) -> Mapping[str, int]:
        """Occurrences of each letter over all the words (``"ana"`` counts two a's)."""
        return self._letter_counts

    @staticmethod
    def child(node: Node, letter: str) -> Node | None:
        """The node reached from ``node`` by ``letter``, or None if no word continues so."""
        return node.get(letter)

    @staticmethod
    def is_word(node: Node) -> bool:
        return _END in node

    @staticmethod
    def has_children(node: Node) -> bool:
        """True if some longer word continues past this node."""
        return len(node) > (1 if _END in node else 0)

    def find(self, text: str) -> Node | None:
        """The node for ``text`` as a prefix, or None if no word starts so."""
        node = self._root
        for ch in text:
            nxt = node.get(ch)
            if nxt is None:
                return None
            node = nxt
        return node

    # The two lookups below repeat find's loop rather than call it: a call per lookup
    # is a third of their cost (benchmarks.dictionary).

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        node: Any = self._root  # a Node, then None once no word continues
        for ch in word:
            node = node.get(ch)
            if node is None:
                return False
        return _END in node

    def has_prefix(self, prefix: str) -> bool:
        """True if at least one word starts with ``prefix`` (or equals it)."""
        node: Any = self._root  # a Node, then None once no word continues
        for ch in prefix:
            node = node.get(ch)
            if node is None:
                return False
        return True

    def __iter__(self) -> Iterator[str]:
        """Every word, in code-point order."""
        stack: list[tuple[str, Node]] = [("", self._root)]
        while stack:
            prefix, node = stack.pop()
            if _END in node:
                yield prefix
            stack.extend((prefix + ch, node[ch]) for ch in sorted(node, reverse=True) if ch)

    def node_count(self) -> int:
        """Distinct nodes, each shared one counted once (a plain trie would have one per prefix)."""
        seen: set[int] = set()
        stack = [self._root]
        while stack:
            node = stack.pop()
            if id(node) not in seen:
                seen.add(id(node))
                stack.extend(child for key, child in node.items() if key)
        return len(seen)

    # -- the compiled form -------------------------------------------------------

    def to_bytes(self) -> bytes:
        # marshal keeps shared objects shared (format 3 and up), so the DAWG stays a DAWG on disk.
        payload = marshal.dumps((self._count, self._letter_counts, self._root), 4)
        return MAGIC + _HEADER + hashlib.sha256(payload).digest() + payload

    @classmethod
    def from_bytes(cls, data: bytes) -> Trie:
        """The trie ``to_bytes`` wrote; ValueError if the bytes are not exactly that."""
        start = len(MAGIC) + len(_HEADER)
        if not data.startswith(MAGIC):
            raise ValueError("not a compiled word list")
        if data[len(MAGIC) : start] != _HEADER:
            raise ValueError("compiled by another version of Wibble or Python")
        digest, payload = data[start : start + _DIGEST_SIZE], data[start + _DIGEST_SIZE :]
        # Checked before marshal sees a byte: marshal is not meant for damaged input.
        if len(digest) != _DIGEST_SIZE or hashlib.sha256(payload).digest() != digest:
            raise ValueError("damaged (checksum mismatch)")
        try:
            parts = marshal.loads(payload)
        except (EOFError, ValueError, TypeError) as exc:
            raise ValueError(f"unreadable ({exc})") from None
        if not (
            isinstance(parts, tuple)
            and len(parts) == 3
            and isinstance(parts[0], int)
            and isinstance(parts[1], dict)
            and isinstance(parts[2], dict)
        ):
            raise ValueError("not a compiled word list")
        return cls._from_parts(Node(parts[2]), parts[0], parts[1])


def _build(words: list[str]) -> Node:
    """The minimal DAWG of ``words`` (sorted, unique), built in one pass.

    Daciuk et al.'s incremental algorithm: words arrive in order, so once the next
    word leaves the current one's path, the nodes below the fork are final. Each is
    then replaced by an equal node already built, if any; equality is judged by a
    signature (ends a word?, then each letter with its child's identity), which is
    exact because every child was itself deduplicated first.
    """
    register: dict[tuple[Any, ...], dict[str, Any]] = {}
    # The path of the word being added: its nodes and the signatures they are growing.
    nodes: list[dict[str, Any]] = [{}]
    signatures: list[list[Any]] = [[]]
    previous = ""

    def freeze_below(depth: int) -> None:
        for level in range(len(nodes) - 1, depth, -1):
            node, signature = nodes.pop(), signatures.pop()
            key = tuple(signature)
            shared = register.get(key)
            if shared is None:
                register[key] = shared = node
            letter = previous[level - 1]
            nodes[-1][letter] = shared
            signatures[-1] += (letter, id(shared))

    for word in words:
        common = 0
        for a, b in zip(word, previous, strict=False):
            if a != b:
                break
            common += 1
        freeze_below(common)
        previous = word
        for _ in word[common:]:
            nodes.append({})
            signatures.append([])
        nodes[-1][_END] = True
        signatures[-1].append(True)
    freeze_below(0)
    return Node(nodes[0])
