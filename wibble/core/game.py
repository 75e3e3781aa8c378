"""One game of Wibble: a board, a chain being dragged, the words found, the total.

The game is a state machine, idle -> chaining -> clean-up -> idle:

- ``press`` starts a chain on a tile (idle only);
- ``enter`` adds a neighbouring tile, or steps back onto the second-to-last tile
  to undo the last one (chaining only);
- ``cancel`` drops the chain (chaining only);
- ``release`` judges the chain and moves to clean-up; ``clean_up`` replaces the
  tiles of a scored word and returns to idle.

The drag itself (press, enter, undo, adjacency) is a ``Chain`` (``wibble.core.chain``),
the same one a match drags; the game adds its phases, who owns the drag and scoring.

Every board holds at least ``min_words`` words still to find: a new board, or the
new tiles of a refill, are drawn again until it does (see ``MAX_DRAWS``). Only the
count is kept (``words_left``), not the words, so an idle game stays small.

Each method checks everything first and changes state last, so a ``RuleError``
leaves the game exactly as it was. Methods return events (dataclasses) for the
layer above to send.

What is committed and what is ephemeral: a released chain (its verdict, and the
refill of a scored word) changes the game for good, and ``version`` counts exactly
these. A drag in progress (``press``, ``enter``, ``cancel``) changes only the chain,
which is shown to everyone but never saved, so it leaves ``version`` alone; the
layer above saves the game after each release, and a restart loses at most a drag.

A game may be a sprint: a clock of ``sprint`` seconds, whose ``deadline`` (seconds since
the epoch, set by the layer above, which owns the clock) is kept in the document. The
core never reads a clock: ``time_up(now)`` ends the game once ``now`` has passed the
deadline (a committed change: ``version`` grows), and every move after that is refused
with ``game/over``; ``end_early()`` ends it the same way before its deadline (the player
is done). A sprint also keeps ``times``: when each of its words was scored, in seconds
since its clock started, as the layer above stamped them (``release(at=...)``), never as
a client said; ``wibble.core.pace`` judges from them whether a person could have played it.
An untimed game has none of these fields, and its document is as it was.

The whole state is plain data: ``to_doc`` gives a document of JSON types (the
board, the words found, the total, the version, the settings and the position of
the game's ``Draws``), and ``Game.from_doc`` turns it back into a game that goes on
exactly as the original would have, refill for refill.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Set
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from .board import Board, Pos, path_doc
from .chain import Chain, Status
from .draws import Draws
from .errors import GameDataError, RuleError
from .fields import count_of, field_of
from .hashing import DEFAULT_MODULI, FoundWords, HashParams
from .letters import Letter, LetterSampler
from .scoring import ENDLESS_ORDER, Totals, points_of_totals
from .solver import Found, count_words, solve
from .wordlist import WordList, digest_in_play

MAX_DRAWS = 50
"""Draws of a new board, or of a refill's tiles, before settling for the best one seen.

Without a cap, a list whose boards can never hold ``min_words`` words (a tiny custom
list, or a minimum set too high) would draw forever. With the shipped lists and the
server's default minimum of 30, at most about one new board in a hundred is drawn again.
"""

DOC_FORMAT = 1
"""The layout of ``Game.to_doc``; a document of another format is refused, not misread."""


class Phase(Enum):
    IDLE = "idle"
    """No chain: waiting for a press."""
    CHAINING = "chaining"
    """A chain is being dragged."""
    CLEANUP = "cleanup"
    """A chain was released; its word is judged and used tiles await replacement."""
    OVER = "over"
    """A sprint's time is up: nothing more can be played."""


class Result(Enum):
    """The verdict on a released chain."""

    SCORED = "scored"
    NOT_A_WORD = "not_a_word"
    ALREADY_FOUND = "already_found"
    TOO_SHORT = "too_short"


@dataclass(frozen=True, slots=True)
class ChainChanged:
    chain: tuple[Pos, ...]
    word: str
    points: int
    status: Status
    found: bool
    version: int


@dataclass(frozen=True, slots=True)
class WordJudged:
    word: str
    result: Result
    points: int
    total: int
    version: int


@dataclass(frozen=True, slots=True)
class TilesReplaced:
    changed: tuple[tuple[Pos, Letter], ...]
    words_left: int
    version: int


@dataclass(frozen=True, slots=True)
class TimeUp:
    """A sprint's clock ran out: the game is over at ``total`` (its chain, if any, is dropped)."""

    total: int
    version: int
    early: bool = False
    """The player ended it before its deadline (``Game.end_early``)."""


Event = ChainChanged | WordJudged | TilesReplaced | TimeUp

SPRINT_SECONDS = (60, 180, 300)
"""The clocks a sprint may have: 1, 3 or 5 minutes."""

MISSED_SHOWN = 10
"""How many of the best words not found an ended sprint shows."""

# The error code says which phase the game is in, since that is what the client got wrong.
_WRONG_PHASE = {
    Phase.IDLE: "state/not_chaining",
    Phase.CHAINING: "state/already_chaining",
    Phase.CLEANUP: "state/cleaning_up",
    Phase.OVER: "game/over",
}


_Draw = TypeVar("_Draw")


def best_draw(draw: Callable[[], _Draw], count: Callable[[_Draw], int], enough: int) -> tuple[_Draw, int]:
    """Draw until a draw counts at least ``enough``, at most ``MAX_DRAWS`` times.

    Returns that draw, or else the first of the draws with the highest count, and its count.
    """
    best, most = None, -1
    for _ in range(MAX_DRAWS):
        candidate = draw()
        number = count(candidate)
        if number > most:
            best, most = candidate, number
        if number >= enough:
            break
    assert best is not None  # MAX_DRAWS >= 1 and every count is >= 0
    return best, most


class Game:
    """A single game; not thread-safe (the session layer holds its lock)."""

    def __init__(
        self,
        words: WordList,
        draws: Draws,
        hash_params: HashParams,
        size: int = 5,
        min_words: int = 0,
        sprint: int | None = None,
        deadline: float | None = None,
    ) -> None:
        if min_words < 0:
            raise ValueError(f"min_words must be 0 or more, not {min_words}")
        if (sprint is None) != (deadline is None) or (sprint is not None and sprint <= 0):
            raise ValueError("a sprint needs both its length (seconds, above 0) and its deadline")
        self.sprint = sprint
        """The sprint's length in seconds; None: an untimed game, which never ends."""
        self.deadline = deadline
        """When the sprint ends (seconds since the epoch); None if untimed."""
        self.times: list[float] = []
        """A sprint's: when each word in ``found`` was scored, seconds since its clock started (as
        stamped by the layer above; a word released without a time is left out)."""
        self.early = False
        """A sprint the player ended before its deadline (``end_early``)."""
        self.words = words
        self.digest = words.digest
        """The list version the record's moves were judged by (``digest_in_play`` once restored)."""
        self.min_words = min_words
        self.draws = draws
        self._sampler = LetterSampler(words.letters)
        self.found = FoundWords(hash_params)
        # words_left: how many words the board allows that this game has not found yet.
        self.board, self.words_left = best_draw(
            lambda: Board.fill(self._sampler, draws, size),
            lambda board: self._unfound(board, frozenset()),
            min_words,
        )
        self.phase = Phase.IDLE
        self.total = 0
        self.version = 0
        # The drag's rules live in Chain (shared with a match); hashes tell found words apart.
        self._chain = Chain(words, hash_params)
        self._judged: Result | None = None
        self.owner: Hashable = None
        """Who pressed the chain being dragged (the layer above's actor: a connection); never saved."""

    # -- the state as data -------------------------------------------------------

    def to_doc(self) -> dict[str, Any]:
        """The whole game as plain JSON types; ``Game.from_doc`` turns it back into this game."""
        doc = {
            "format": DOC_FORMAT,
            "wordlist": self.words.name,
            "wordlist_digest": self.digest,
            "size": self.board.size,
            "min_words": self.min_words,
            "seed": self.draws.seed,
            "draws": self.draws.position,
            "hash_bases": list(self.found.params.bases),
            "board": "".join(letter.symbol for row in self.board.rows() for letter in row),
            "words_left": self.words_left,
            "found": self.found.to_doc(),
            "total": self.total,
            "version": self.version,
            "phase": self.phase.value,
            "chain": path_doc(self._chain.tiles),
            "judged": None if self._judged is None else self._judged.value,
        }
        if self.sprint is not None:  # an untimed game's document stays exactly as it always was
            doc.update(sprint=self.sprint, deadline=self.deadline, times=list(self.times))
            if self.early:
                doc["early"] = True
        return doc

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any], words: WordList) -> Game:
        """The game a ``to_doc`` document describes, played with ``words``.

        Raises ``GameDataError`` saying what is wrong when the document is damaged or
        does not fit the list (a letter the list no longer has, another list's name).
        """
        return _restore(cls, doc, words)

    # -- what the chain spells -------------------------------------------------

    @property
    def chain(self) -> tuple[Pos, ...]:
        return self._chain.tiles

    @property
    def word(self) -> str:
        return self._chain.word(self.board)

    @property
    def points(self) -> int:
        """What the chain would score: an endless game has no multipliers, so its letter scores summed."""
        return self._points(self._chain.tiles)

    @property
    def status(self) -> Status:
        return self._chain.status

    @property
    def already_found(self) -> bool:
        """True if the chain spells a word found earlier in this game."""
        return self.found.contains(self._chain.word(self.board), self._chain.key)

    # -- the clock --------------------------------------------------------------

    def is_due(self, now: float) -> bool:
        """Whether a sprint's deadline has passed at ``now`` and the game is not over yet."""
        return self.deadline is not None and self.phase is not Phase.OVER and now > self.deadline

    def time_up(self, now: float) -> list[Event]:
        """End a sprint whose deadline has passed at ``now``; anything else changes nothing.

        So a deadline handled twice (two timers, two processes, a timer after a move that
        already ended it) ends the game once. A chain being dragged is dropped unjudged.
        """
        if not self.is_due(now):
            return []
        self._clear_chain()
        self._judged = None
        self.phase = Phase.OVER
        self.version += 1
        return [TimeUp(self.total, self.version)]

    def end_early(self) -> list[Event]:
        """End a sprint now, before its deadline: the player is done. It ends exactly as when its
        clock runs out (a chain being dragged is dropped unjudged; ``version`` grows), and the
        event says it was ended early. Refused: an untimed game (``game/not_sprint``), a game
        already over (``game/over``), a word being cleaned up (``state/cleaning_up``)."""
        if self.sprint is None:
            raise RuleError("game/not_sprint", "only a sprint can be ended early; this game has no clock")
        if self.phase is Phase.OVER:
            raise RuleError("game/over", "this sprint is over already")
        if self.phase is Phase.CLEANUP:
            raise RuleError("state/cleaning_up", "cannot end the sprint while a word is being cleaned up")
        self._clear_chain()
        self._judged = None
        self.phase = Phase.OVER
        self.early = True
        self.version += 1
        return [TimeUp(self.total, self.version, early=True)]

    def missed(self, limit: int = MISSED_SHOWN) -> list[Found]:
        """The best words the board holds that were not found, each with a path that spells it."""
        found = self.found.words
        return [entry for entry in solve(self.board, self.words) if entry.word not in found][:limit]

    # -- events -----------------------------------------------------------------

    def press(self, pos: Pos, actor: Hashable = None) -> list[Event]:
        """Start a chain on ``pos``; only ``actor`` may go on with it (None: whoever comes)."""
        self._require(Phase.IDLE, "press")
        self._chain.press(self.board, pos)  # may refuse: before anything else changes
        self.phase = Phase.CHAINING
        self.owner = actor
        return [self._chain_changed()]

    def enter(self, pos: Pos, actor: Hashable = None) -> list[Event]:
        """Extend the chain to ``pos``, or undo the last tile if ``pos`` is the one before it."""
        self._require(Phase.CHAINING, "enter")
        self._require_owner(actor)
        self._chain.enter(self.board, pos)
        return [self._chain_changed()]

    def cancel(self, actor: Hashable = None) -> list[Event]:
        """Drop the chain without judging it."""
        self._require(Phase.CHAINING, "cancel")
        self._require_owner(actor)
        self._clear_chain()
        self.phase = Phase.IDLE
        return [self._chain_changed()]

    def release(self, actor: Hashable = None, at: float | None = None) -> list[Event]:
        """Judge the chain (a committed change: ``version`` grows); the game waits in clean-up.

        ``at``: when the layer above received it (seconds since the epoch, its own clock); a
        sprint keeps it, as seconds into its clock, for a word that scores (``times``)."""
        self._require(Phase.CHAINING, "release")
        self._require_owner(actor)
        word, key, points = self._chain.word(self.board), self._chain.key, self.points
        if len(word) < self.words.min_length:
            result = Result.TOO_SHORT
        elif self.status is not Status.WORD:
            result = Result.NOT_A_WORD
        elif self.found.contains(word, key):
            result = Result.ALREADY_FOUND
        else:
            result = Result.SCORED
        self.phase = Phase.CLEANUP
        self._judged = result
        self.version += 1
        if result is Result.SCORED:
            self.found.add(word, key, points)
            self.total += points
            if at is not None and self.sprint is not None and self.deadline is not None:
                self.times.append(round(max(0.0, at - (self.deadline - self.sprint)), 3))
        return [WordJudged(word, result, points if result is Result.SCORED else 0, self.total, self.version)]

    def clean_up(self) -> list[Event]:
        """Replace a scored word's tiles, clear the chain and return to idle."""
        self._require(Phase.CLEANUP, "clean_up")
        events: list[Event] = []
        used = list(self._chain.tiles)
        self._clear_chain()
        self.phase = Phase.IDLE
        if self._judged is Result.SCORED:
            changed = self._refill(used)
            events.append(TilesReplaced(tuple(changed), self.words_left, self.version))
        self._judged = None
        return events

    # -- helpers ----------------------------------------------------------------

    def _refill(self, used: list[Pos]) -> list[tuple[Pos, Letter]]:
        """Draw the used tiles again until the board holds ``min_words`` unfound words (or the best try).

        Only the used tiles are ever redrawn: the rest of the board stays as the player saw it.
        """
        found = self.found.words
        changed, self.words_left = best_draw(
            lambda: self.board.refill(used, self._sampler, self.draws),
            lambda _: self._unfound(self.board, found),
            self.min_words,
        )
        self.board.place(changed)  # the best draw may not be the last one
        return changed

    def _unfound(self, board: Board, found: Set[str]) -> int:
        """How many words ``board`` allows that are not in ``found``."""
        # The found words as a plain set, not FoundWords' hashed lookup: hashing each
        # of the board's hundreds of words would cost more than finding them.
        return count_words(board, self.words, found)

    def _require(self, phase: Phase, action: str) -> None:
        if self.phase is Phase.OVER:
            raise RuleError("game/over", f"cannot {action} while over: the sprint's time is up")
        if self.phase is not phase:
            code = _WRONG_PHASE[self.phase]
            raise RuleError(code, f"cannot {action} while {self.phase.value} (needs {phase.value})")

    def _require_owner(self, actor: Hashable) -> None:
        if self.owner is not None and actor != self.owner:
            raise RuleError("state/not_your_chain", "someone else (another tab) is dragging this chain")

    def _points(self, tiles: tuple[Pos, ...]) -> int:
        # The one scoring function's modifiers on the path's totals, as ``solve`` scores: every
        # drag step asks, and building a tile value per tile and a breakdown nobody reads was
        # a tenth of a step's time in the core. An endless tile is its letter's score, unmultiplied.
        board = self.board
        letters = 0
        for pos in tiles:
            letters += board[pos].score
        return points_of_totals(Totals(letters, 1, len(tiles)), ENDLESS_ORDER)

    def _clear_chain(self) -> None:
        self.owner = None
        self._chain.clear()

    def _chain_changed(self) -> ChainChanged:
        chain = self._chain
        tiles, word = chain.tiles, chain.word(self.board)  # each built once for the event, not once per field
        found = self.found.contains(word, chain.key)
        return ChainChanged(tiles, word, self._points(tiles), chain.status, found, self.version)


# -- restoring a game from its document ----------------------------------------------


def _restore(cls: type[Game], doc: Mapping[str, Any], words: WordList) -> Game:
    if not isinstance(doc, Mapping):
        raise GameDataError("a game document must be an object")
    if doc.get("format") != DOC_FORMAT:
        raise GameDataError(f"document format {doc.get('format')!r} is not {DOC_FORMAT}")
    if field_of(doc, "wordlist", str) != words.name:
        raise GameDataError(f"the game was played with list {doc['wordlist']!r}, not {words.name!r}")
    params = HashParams(DEFAULT_MODULI, _bases(doc))
    try:
        phase = Phase(doc.get("phase"))
        judged = None if doc.get("judged") is None else Result(doc["judged"])
        draws = Draws(field_of(doc, "seed", int), count_of(doc, "draws"))
    except ValueError as exc:
        raise GameDataError(str(exc)) from None

    game = cls.__new__(cls)
    game.words = words
    game.digest = digest_in_play(doc.get("wordlist_digest"), words)
    game.min_words = count_of(doc, "min_words")
    game.draws = draws
    game._sampler = LetterSampler(words.letters)
    game.found = _found(doc, params)
    game.board = board_of(doc, words)
    game.words_left = count_of(doc, "words_left")
    game.total = count_of(doc, "total")
    game.version = count_of(doc, "version")
    game.phase = phase
    game._judged = judged
    game.owner = None
    game.sprint, game.deadline = _sprint(doc)
    game.times, game.early = _times(doc, game.sprint, len(game.found)), doc.get("early") is True
    game._chain = Chain(words, params)
    chain = field_of(doc, "chain", list)
    idle = phase in (Phase.IDLE, Phase.OVER)
    if idle != (not chain) or (phase is Phase.CLEANUP) != (judged is not None):
        raise GameDataError(f"the chain does not fit the phase {phase.value!r}")
    for step in chain:
        game._chain.add(game.board, _chain_step(step, game))
    if game.digest != words.digest:  # saved with another version of the list: count with this one
        game.words_left = game._unfound(game.board, game.found.words)
    return game


def _sprint(doc: Mapping[str, Any]) -> tuple[int | None, float | None]:
    """A sprint's length and deadline; (None, None) for an untimed game (every older document)."""
    sprint, deadline = doc.get("sprint"), doc.get("deadline")
    if sprint is None and deadline is None:
        if doc.get("phase") == Phase.OVER.value:
            raise GameDataError("an untimed game cannot be over")
        return None, None
    if not (type(sprint) is int and sprint > 0 and isinstance(deadline, int | float)):
        raise GameDataError("fields 'sprint' and 'deadline' are damaged")
    return sprint, float(deadline)


def _times(doc: Mapping[str, Any], sprint: int | None, found: int) -> list[float]:
    """A sprint's scoring times (at most one for each of its ``found`` words); none for an untimed
    game, or a sprint saved before they were kept."""
    times = doc.get("times")
    if sprint is None or times is None:
        return []
    if not (
        isinstance(times, list)
        and len(times) <= found
        and all(isinstance(t, int | float) and type(t) is not bool and t >= 0 for t in times)
    ):
        raise GameDataError("field 'times' is damaged")
    return [float(t) for t in times]


def _bases(doc: Mapping[str, Any]) -> tuple[int, ...]:
    bases = field_of(doc, "hash_bases", list)
    if len(bases) != len(DEFAULT_MODULI) or not all(
        type(b) is int and 2 <= b <= m - 2 for b, m in zip(bases, DEFAULT_MODULI, strict=False)
    ):
        raise GameDataError("field 'hash_bases' is damaged")
    return tuple(bases)


def board_of(doc: Mapping[str, Any], words: WordList) -> Board:
    size = count_of(doc, "size")
    symbols: str = field_of(doc, "board", str)
    if size < 1 or len(symbols) != size * size:
        raise GameDataError(f"the board has {len(symbols)} tiles, not {size}x{size}")
    missing = sorted({symbol for symbol in symbols if symbol not in words.letters})
    if missing:
        raise GameDataError(f"the board has letters the list {words.name!r} no longer has: {missing}")
    letters = [words.letters[symbol] for symbol in symbols]
    return Board([letters[row * size : (row + 1) * size] for row in range(size)])


def _found(doc: Mapping[str, Any], params: HashParams) -> FoundWords:
    found = FoundWords(params)
    for entry in field_of(doc, "found", list):
        if not (
            isinstance(entry, list)
            and len(entry) == 2
            and isinstance(entry[0], str)
            and type(entry[1]) is int
        ):
            raise GameDataError("field 'found' is damaged")
        found.add(entry[0], params.of(entry[0]), entry[1])
    return found


def _chain_step(step: Any, game: Game) -> Pos:
    if not (isinstance(step, list) and len(step) == 2 and all(type(v) is int for v in step)):
        raise GameDataError("field 'chain' is damaged")
    pos = Pos(step[0], step[1])
    if not game._chain.fits(game.board, pos):
        raise GameDataError("field 'chain' is not a path on the board")
    return pos
