"""The chain being dragged across the board, and the rules of dragging it, for every mode.

A chain starts with a press on any tile; each ``enter`` adds a tile that touches the
last one (the eight neighbours: across, down and diagonal) and is not in the chain
yet; entering the tile before the last steps back, undoing the last step, so a
player corrects a drag by dragging back along it. ``clear`` drops it.

The endless game and a match both drag one of these: what differs between them
(whose turn it is, the phase, how a word scores) stays in the mode, which checks
its own rules first and then hands the step to the chain. As in python-chess,
whose variants share one board and override hooks, the rules of the drag are
written once, here, so the two modes cannot drift apart.

Along the chain it keeps a stack of trie nodes, and, when given hash parameters,
of prefix hashes: each step costs one trie step and one hash step whatever the
word's length, and stepping back is a pop.

A refused step raises ``RuleError`` with the protocol's code and message
(docs/protocol.md) and leaves the chain exactly as it was.
"""

from __future__ import annotations

from enum import Enum

from .board import Board, Pos
from .dictionary import Node
from .errors import RuleError
from .hashing import HashKey, HashParams, RollingHash
from .wordlist import WordList


class Status(Enum):
    """What the chain spells so far."""

    WORD = "word"
    """A word of at least the list's minimum length: releasing would score (if new)."""
    PREFIX = "prefix"
    """Not a scoring word yet, but some longer word starts like this."""
    NONE = "none"
    """A dead end: no word starts like this."""


def off_board(board: Board, pos: Pos) -> RuleError:
    """The refusal of a tile outside ``board``."""
    last = board.size - 1
    return RuleError("move/off_board", f"tile ({pos.row}, {pos.col}) is off the board (0-{last} each way)")


def require_on_board(board: Board, pos: Pos) -> None:
    """Refuse ``pos`` if it lies outside ``board`` (a match's swap names a tile too)."""
    if not board.contains(pos):
        raise off_board(board, pos)


class Chain:
    """The tiles of one drag, spelling a word of ``words``; empty until pressed.

    The board is an argument of every step rather than part of the chain: a mode may
    put a new board under an idle game (tests do), and each step reads the letters
    as they are then. A letter that changes under a chain in progress (a match's
    swap) is followed by ``respell``.
    """

    __slots__ = ("_hash", "_nodes", "_tiles", "_words")

    def __init__(self, words: WordList, hash_params: HashParams | None = None) -> None:
        self._words = words
        self._tiles: list[Pos] = []
        # _nodes[i] is the trie node after i tiles (None once no word starts so): the root first.
        self._nodes: list[Node | None] = [words.trie.root]
        # Only a mode that tells found words apart (the endless game) pays for the hashes.
        self._hash = None if hash_params is None else RollingHash(hash_params)

    # -- what the chain is and spells ----------------------------------------------------

    @property
    def tiles(self) -> tuple[Pos, ...]:
        return tuple(self._tiles)

    def __len__(self) -> int:
        return len(self._tiles)

    def __bool__(self) -> bool:
        return bool(self._tiles)

    def word(self, board: Board) -> str:
        """What the chain spells on ``board``."""
        return "".join(board[pos].symbol for pos in self._tiles)

    @property
    def node(self) -> Node | None:
        """The trie node the chain ends on; None once no word starts like the chain."""
        return self._nodes[-1]

    @property
    def key(self) -> HashKey:
        """The hash of the word (what ``FoundWords`` is keyed by); needs hash parameters."""
        if self._hash is None:
            raise ValueError("this chain keeps no hashes")
        return self._hash.value

    @property
    def status(self) -> Status:
        node, trie = self._nodes[-1], self._words.trie
        if node is None or not self._tiles:
            return Status.NONE
        if trie.is_word(node) and len(self._tiles) >= self._words.min_length:
            return Status.WORD
        return Status.PREFIX if trie.has_children(node) else Status.NONE

    def fits(self, board: Board, pos: Pos) -> bool:
        """True if ``pos`` could be the chain's next tile: on the board, not used yet, touching the last."""
        tiles = self._tiles
        return board.contains(pos) and pos not in tiles and (not tiles or tiles[-1].touches(pos))

    # -- the drag --------------------------------------------------------------------------

    def require(self, started: bool, action: str) -> None:
        """Refuse ``action`` unless the chain is started (``started``) or empty (not ``started``)."""
        if bool(self._tiles) != started:
            code = "state/not_chaining" if started else "state/already_chaining"
            raise RuleError(code, f"cannot {action} {'without' if started else 'during'} a chain")

    def press(self, board: Board, pos: Pos) -> None:
        """Start the chain on ``pos``: any tile of the board."""
        self.require(False, "press")
        if not board.contains(pos):
            raise off_board(board, pos)
        self.add(board, pos)

    def enter(self, board: Board, pos: Pos) -> None:
        """Add ``pos``, a neighbour of the last tile not in the chain yet; or undo the last
        step if ``pos`` is the tile before it (the player dragged back)."""
        tiles = self._tiles
        if not tiles:
            self.require(True, "enter")
        # Checked inline, not through require_on_board: one call less on every step of every drag.
        if not board.contains(pos):
            raise off_board(board, pos)
        if len(tiles) >= 2 and pos == tiles[-2]:
            self.undo()
            return
        if pos in tiles:
            raise RuleError("move/repeated_tile", f"tile ({pos.row}, {pos.col}) is already in the chain")
        last = tiles[-1]
        if not last.touches(pos):
            raise RuleError(
                "move/not_adjacent",
                f"tile ({pos.row}, {pos.col}) does not touch the last tile ({last.row}, {last.col})",
            )
        self.add(board, pos)

    def add(self, board: Board, pos: Pos) -> None:
        """Append ``pos`` unchecked: for a mode that has checked it (``fits``), as a restore does."""
        symbol = board[pos].symbol
        node = self._nodes[-1]
        self._nodes.append(None if node is None else self._words.trie.child(node, symbol))
        if self._hash is not None:
            self._hash.push(symbol)
        self._tiles.append(pos)

    def undo(self) -> None:
        """Take the last tile off."""
        self._tiles.pop()
        self._nodes.pop()
        if self._hash is not None:
            self._hash.pop()

    def clear(self) -> None:
        """Drop every tile: a cancel, a release, or a turn that ended mid-drag."""
        self._tiles.clear()
        del self._nodes[1:]
        if self._hash is not None:
            self._hash.clear()

    def respell(self, board: Board) -> None:
        """Walk the same tiles again after a letter under the chain changed (a match's swap)."""
        tiles = list(self._tiles)
        self.clear()
        for pos in tiles:
            self.add(board, pos)
