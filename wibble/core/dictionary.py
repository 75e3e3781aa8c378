"""The dictionary as a trie: is this a word, and can a word start like this.

Nodes are opaque handles; a chain keeps a stack of them, so adding or removing a
tile is one ``child`` step or one pop, O(1) whatever the word's length. The trie is
built once and never changed afterwards, so any number of games can read it at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NewType

Node = NewType("Node", dict[str, Any])

# Letters are non-empty strings, so the empty key can safely mark "a word ends here".
_END = ""


class Trie:
    """A read-only prefix tree over a set of lowercase words."""

    def __init__(self, words: Iterable[str]) -> None:
        root: dict[str, Any] = {}
        count = 0
        for word in words:
            node = root
            for ch in word:
                nxt = node.get(ch)
                if nxt is None:
                    nxt = node[ch] = {}
                node = nxt
            if _END not in node:
                node[_END] = True
                count += 1
        self._root = Node(root)
        self._count = count

    @property
    def root(self) -> Node:
        return self._root

    def __len__(self) -> int:
        return self._count

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
        node: Node | None = self._root
        for ch in text:
            if node is None:
                return None
            node = node.get(ch)
        return node

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        node = self.find(word)
        return node is not None and _END in node

    def has_prefix(self, prefix: str) -> bool:
        """True if at least one word starts with ``prefix`` (or equals it)."""
        return self.find(prefix) is not None
