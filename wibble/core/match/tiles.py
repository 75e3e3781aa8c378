"""A match's board: letters plus what lies on top of them, built by ordered pipelines of small steps.

On top of the letters (a plain ``Board``) a match has at most one letter
multiplier (DL or TL), at most one 2x word tile (from ``word_mult_from``), and
``gem_tiles`` gems. Every change to the board is one of four pipelines, each a
list of steps run in order on a ``Build``:

- ``NEW_BOARD``: letters by the CDF sampler -> the board-quality check -> the
  multipliers -> the gems -> the wire form;
- ``REFILL`` (a word was played): the used tiles' letters -> quality -> a used
  multiplier moves -> the used gems go and the rest are topped up -> wire;
- ``NEW_ROUND``: both multipliers move -> wire;
- ``SHUFFLE``: the letters change places (Fisher-Yates), nothing else -> wire.

A step is a plain function of the ``Build``, so a pipeline reads as its list of
names and a new rule is a new step in the list, not an edit of the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..board import Board, Pos
from ..draws import Draws
from ..game import MAX_DRAWS
from ..letters import Letter, LetterSampler
from ..scoring import TileValue
from ..shuffle import permutation
from ..solver import count_words
from ..wordlist import WordList
from .settings import Settings

DL, TL = 2, 3
MULT_NAMES = {DL: "DL", TL: "TL"}
WORD_MULT = 2


@dataclass(slots=True)
class Specials:
    """What lies on the board besides letters."""

    letter_mult: tuple[Pos, int] | None = None
    """Where the letter multiplier is, and its factor (2 for DL, 3 for TL)."""
    word_mult: Pos | None = None
    gems: set[Pos] = field(default_factory=set)

    def value(self, pos: Pos, letter: Letter) -> TileValue:
        """The tile as scoring sees it."""
        factor = self.letter_mult[1] if self.letter_mult and self.letter_mult[0] == pos else 1
        return TileValue(letter.score, factor, WORD_MULT if self.word_mult == pos else 1)

    def to_doc(self) -> dict[str, Any]:
        mult = self.letter_mult
        return {
            "letter_mult": None if mult is None else [mult[0].row, mult[0].col, mult[1]],
            "word_mult": None if self.word_mult is None else [self.word_mult.row, self.word_mult.col],
            "gems": sorted([pos.row, pos.col] for pos in self.gems),
        }


def tile_wire(board: Board, specials: Specials, pos: Pos) -> dict[str, Any]:
    """One tile as the protocol sends it: JSON types only."""
    letter = board[pos]
    mult = specials.letter_mult
    return {
        "letter": letter.face,
        "score": letter.score,
        "mult": MULT_NAMES[mult[1]] if mult is not None and mult[0] == pos else None,
        "word_mult": WORD_MULT if specials.word_mult == pos else None,
        "gem": pos in specials.gems,
    }


@dataclass(slots=True)
class Build:
    """One run of a pipeline: its inputs, and what each step leaves for the next."""

    board: Board
    specials: Specials
    words: WordList
    settings: Settings
    rng: Draws
    round: int
    min_words: int = 0
    used: list[Pos] = field(default_factory=list)
    """The tiles to draw again (all of them for a new board)."""
    drawn: list[tuple[Pos, Letter]] = field(default_factory=list)
    words_left: int = 0
    changed: set[Pos] = field(default_factory=set)
    """Every tile whose letter or marks changed: what the wire step sends."""
    wire: list[dict[str, Any]] = field(default_factory=list)


Step = Callable[[Build], None]


def _pick(rng: Draws, candidates: list[Pos]) -> Pos:
    return candidates[min(int(rng.random() * len(candidates)), len(candidates) - 1)]


def _tiles(board: Board) -> list[Pos]:
    return [Pos(row, col) for row in range(board.size) for col in range(board.size)]


def draw_letters(build: Build) -> None:
    """Draw a letter for every used tile from the list's cumulative distribution (binary search)."""
    sampler = LetterSampler(build.words.letters)
    build.drawn = build.board.refill(build.used, sampler, build.rng)
    build.changed.update(pos for pos, _ in build.drawn)


def check_quality(build: Build) -> None:
    """Draw the used tiles again until the board allows ``min_words`` words (or keep MAX_DRAWS' best)."""
    best, most = list(build.drawn), count_words(build.board, build.words)
    tries = 1
    while most < build.min_words and tries < MAX_DRAWS:
        draw_letters(build)
        tries += 1
        number = count_words(build.board, build.words)
        if number > most:
            best, most = list(build.drawn), number
    build.board.place(best)
    build.drawn, build.words_left = best, most


def _move_letter_mult(build: Build) -> None:
    specials = build.specials
    old = specials.letter_mult[0] if specials.letter_mult else None
    factor = TL if build.rng.random() < build.settings.triple_chance else DL
    taken = {old, specials.word_mult}
    pos = _pick(build.rng, [p for p in _tiles(build.board) if p not in taken])
    specials.letter_mult = (pos, factor)
    build.changed.update(p for p in (old, pos) if p is not None)


def _move_word_mult(build: Build) -> None:
    specials = build.specials
    if build.round < build.settings.word_mult_from:
        return
    old = specials.word_mult
    letter_pos = specials.letter_mult[0] if specials.letter_mult else None
    pos = _pick(build.rng, [p for p in _tiles(build.board) if p not in (old, letter_pos)])
    specials.word_mult = pos
    build.changed.update(p for p in (old, pos) if p is not None)


def place_multipliers(build: Build) -> None:
    """Move both multipliers to new tiles (a new board, a new round)."""
    _move_letter_mult(build)
    _move_word_mult(build)


def move_used_multipliers(build: Build) -> None:
    """A multiplier the word used moves elsewhere; one it did not use stays."""
    specials = build.specials
    used = set(build.used)
    if specials.letter_mult is not None and specials.letter_mult[0] in used:
        _move_letter_mult(build)
    if specials.word_mult is not None and specials.word_mult in used:
        _move_word_mult(build)


def top_up_gems(build: Build) -> None:
    """Gems on used tiles were collected; place new ones on free tiles until there are ``gem_tiles``."""
    gems = build.specials.gems
    collected = gems.intersection(build.used)
    gems.difference_update(collected)
    build.changed.update(collected)
    free = [p for p in _tiles(build.board) if p not in gems]
    while len(gems) < build.settings.gem_tiles and free:
        pos = _pick(build.rng, free)
        free.remove(pos)
        gems.add(pos)
        build.changed.add(pos)


def shuffle_letters(build: Build) -> None:
    """Fisher-Yates over the letters; multipliers and gems stay where they are."""
    tiles = _tiles(build.board)
    letters = [build.board[pos] for pos in tiles]
    order = permutation(len(tiles), build.rng)
    build.board.place((pos, letters[order[i]]) for i, pos in enumerate(tiles))
    build.changed.update(pos for i, pos in enumerate(tiles) if order[i] != i)
    build.words_left = count_words(build.board, build.words)


def to_wire(build: Build) -> None:
    """The changed tiles as the protocol sends them, in board order."""
    build.wire = [
        {"row": pos.row, "col": pos.col, **tile_wire(build.board, build.specials, pos)}
        for pos in sorted(build.changed)
    ]


NEW_BOARD: list[Step] = [draw_letters, check_quality, place_multipliers, top_up_gems, to_wire]
REFILL: list[Step] = [draw_letters, check_quality, move_used_multipliers, top_up_gems, to_wire]
NEW_ROUND: list[Step] = [place_multipliers, to_wire]
SHUFFLE: list[Step] = [shuffle_letters, to_wire]


def run(pipeline: list[Step], build: Build) -> Build:
    for step in pipeline:
        step(build)
    return build


def new_board(
    words: WordList, settings: Settings, rng: Draws, min_words: int, size: int = 5
) -> tuple[Board, Specials, int]:
    """A match's first board: letters, quality, multipliers (round 1), gems."""
    sampler = LetterSampler(words.letters)
    board = Board([[sampler.letter_for(0.0)] * size for _ in range(size)])  # every tile is drawn below
    build = Build(board, Specials(), words, settings, rng, round=1, min_words=min_words, used=_tiles(board))
    run(NEW_BOARD, build)
    return board, build.specials, build.words_left
