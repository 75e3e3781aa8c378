"""Turning a stored match document back into a ``Match``, checking every field on the way.

A document that is damaged, or that no longer fits the word list (a letter the list
lost, another list's name), raises ``GameDataError`` naming what is wrong; nothing
in a document is trusted to be the right type or in range.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..board import Board, Pos
from ..chain import Chain
from ..draws import Draws
from ..errors import GameDataError
from ..fields import count_of, field_of
from ..game import board_of
from ..solver import count_words
from ..turns import TICKS_PER_ROUND, TurnOrder, step
from ..wordlist import WordList, digest_in_play
from .settings import LEVELS, MAX_SEATS, Settings
from .state import DOC_FORMAT, Match, Phase, Seat, bot_seed
from .tiles import DL, TL, Specials


def _list_version(doc: Mapping[str, Any], words: WordList, board: Board) -> tuple[str, int]:
    """The list digest the match goes on recording, and its words left: counted again with
    ``words`` if the match was saved with another version of the list."""
    digest, left = digest_in_play(doc.get("wordlist_digest"), words), count_of(doc, "words_left")
    return digest, left if digest == words.digest else count_words(board, words)


def _hinted(doc: Mapping[str, Any], seats: int) -> int | None:
    """The seat that bought a hint of the board this turn, if one did."""
    seat = doc.get("hinted")
    if seat is None:
        return None
    if type(seat) is not int or not 0 <= seat < seats:
        raise GameDataError("field 'hinted' is damaged")
    return seat


def restore(doc: Mapping[str, Any], words: WordList) -> Match:
    """The match ``doc`` describes; ``GameDataError`` if it is damaged or does not fit ``words``."""
    if not isinstance(doc, Mapping):
        raise GameDataError("a match document must be an object")
    if doc.get("format") != DOC_FORMAT or doc.get("kind") != "match":
        raise GameDataError(f"not a match document of format {DOC_FORMAT}")
    if field_of(doc, "wordlist", str) != words.name:
        raise GameDataError(f"the match was played with list {doc['wordlist']!r}, not {words.name!r}")
    try:
        phase = Phase(doc.get("phase"))
        draws = Draws(field_of(doc, "seed", int), count_of(doc, "draws"))
        bot_draws = Draws(bot_seed(draws.seed), count_of(doc, "bot_draws"))
    except ValueError as exc:
        raise GameDataError(str(exc)) from None

    match = Match.__new__(Match)
    match.settings = Settings.from_doc(doc.get("settings"))
    match.words = words = _valued(words, match.settings.values)
    match.min_words = count_of(doc, "min_words")
    match.draws, match.bot_draws = draws, bot_draws
    match.board = board_of(doc, words)
    match.specials = _specials(doc, match.board.size)
    match.digest, match.words_left = _list_version(doc, words, match.board)
    match.seats = _seats(doc, match.settings)
    match.round = count_of(doc, "round")
    match.turn = count_of(doc, "turn")
    match.turn_no = count_of(doc, "turn_no")
    match.phase = phase
    match.deadline = _deadline(doc)
    match.version = count_of(doc, "version")
    match.history = _history(doc, len(match.seats))
    if not 1 <= match.round <= match.settings.rounds or match.turn >= len(match.seats):
        raise GameDataError("the round or the turn is out of range")
    if (phase is Phase.BETWEEN) and match.deadline is None:
        raise GameDataError("a pause between rounds needs a deadline")
    # The heap holds every seat but the one whose turn it is (popped when its turn began).
    match.order = TurnOrder()
    # During the pause between rounds, ``turn`` is only the seat that opens the next one, still in the heap.
    for index, seat in enumerate(match.seats):
        if index != match.turn or phase is not Phase.PLAYING:
            match.order.push(index, seat.key)
    match._solved = None
    match.marks = {}  # (never saved: suggestions are the turn's, as the drag's tiles are)
    match.hinted = _hinted(doc, len(match.seats))
    match._chain = Chain(words)
    chain = field_of(doc, "chain", list)
    if chain and phase is not Phase.PLAYING:
        raise GameDataError("a chain outside a turn")
    for entry in chain:
        pos = _pos(entry, match.board.size, "chain")
        if not match._chain.fits(match.board, pos):
            raise GameDataError("field 'chain' is not a path on the board")
        match._chain.add(match.board, pos)
    return match


def _valued(words: WordList, values: str) -> WordList:
    """``words`` scored by the table the match was played with."""
    try:
        return words.with_values(values)
    except (KeyError, ValueError):
        raise GameDataError(
            f"the match was played with the {values!r} values, which list {words.name!r} lacks"
        ) from None


def _pos(value: Any, size: int, name: str) -> Pos:
    if not (isinstance(value, list) and len(value) >= 2 and all(type(v) is int for v in value[:2])):
        raise GameDataError(f"field {name!r} is damaged")
    pos = Pos(value[0], value[1])
    if not (0 <= pos.row < size and 0 <= pos.col < size):
        raise GameDataError(f"field {name!r} is off the board")
    return pos


def _specials(doc: Mapping[str, Any], size: int) -> Specials:
    specials = Specials()
    mult = doc.get("letter_mult")
    if mult is not None:
        pos = _pos(mult, size, "letter_mult")
        if len(mult) != 3 or mult[2] not in (DL, TL) or type(mult[2]) is not int:
            raise GameDataError("field 'letter_mult' is damaged")
        specials.letter_mult = (pos, mult[2])
    if doc.get("word_mult") is not None:
        specials.word_mult = _pos(doc["word_mult"], size, "word_mult")
    specials.gems = {_pos(entry, size, "gems") for entry in field_of(doc, "gems", list)}
    return specials


def _seats(doc: Mapping[str, Any], settings: Settings) -> list[Any]:
    entries, gem_cap = field_of(doc, "seats", list), settings.gem_cap
    if not 1 <= len(entries) <= MAX_SEATS:
        raise GameDataError("field 'seats' is damaged")
    if settings.teams is not None and len(settings.teams) != len(entries):
        raise GameDataError("field 'settings' names teams for another number of seats")
    seats = []
    for entry in entries:
        if not isinstance(entry, Mapping):
            raise GameDataError("field 'seats' is damaged")
        seat = Seat(
            field_of(entry, "name", str),
            field_of(entry, "kind", str),
            entry.get("level"),
            count_of(entry, "speed"),
            count_of(entry, "score"),
            count_of(entry, "gems"),
            count_of(entry, "key"),
        )
        try:
            step(seat.speed)
        except ValueError:
            raise GameDataError("a seat's speed is damaged") from None
        if seat.kind not in ("human", "bot") or (seat.kind == "bot") != (seat.level in LEVELS):
            raise GameDataError("a seat is neither a human nor a bot of a known level")
        if seat.gems > gem_cap or seat.key > 100 * TICKS_PER_ROUND:
            raise GameDataError("a seat's gems or turn key are out of range")
        seats.append(seat)
    return seats


def _deadline(doc: Mapping[str, Any]) -> float | None:
    value = doc.get("deadline")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise GameDataError("field 'deadline' is damaged")
    return float(value)


def _word_doc(value: Any) -> bool:
    """A played or best word in the history: None, or {word, path, points[, breakdown]}."""
    return value is None or (
        isinstance(value, Mapping)
        and isinstance(value.get("word"), str)
        and type(value.get("points")) is int
        and isinstance(value.get("path"), list)
    )


def _history(doc: Mapping[str, Any], seats: int) -> list[dict[str, Any]]:
    history = field_of(doc, "history", list)
    for turn in history:
        if not (
            isinstance(turn, Mapping)
            and type(turn.get("seat")) is int
            and 0 <= turn["seat"] < seats
            and type(turn.get("round")) is int
            and type(turn.get("turn_no")) is int
            and turn.get("ended") in ("played", "passed", "timed_out")
            and _word_doc(turn.get("played"))
            and _word_doc(turn.get("best"))
        ):
            raise GameDataError("field 'history' is damaged")
    return [dict(turn) for turn in history]
