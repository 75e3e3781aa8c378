"""A match's record played again: the same rules, from the same seed, move by move.

A match is determined by its word list, seed, settings and seats, and by its
committed moves in order (``/games/<id>/record``): each is one change that moved
the match's ``version`` (a word played, a pass, a power, a turn timing out, a new
round). ``replay_match`` builds the match afresh and applies every move through
the very commands the live layer called, checking at each that the version, and
for a word its text and points, come out as recorded; ``match_differences``
then compares where the replay ends with the record's ``final`` state.

Bots are not asked again: the record keeps the paths they played, so their own
draws (``bot_draws``) are the one count a replay cannot reproduce, and is not
compared. Time comes in as data, as it does in play: the replay's clock starts
at 0 and jumps to a deadline when the record says the clock ended a turn or
a pause.

A record of a match still being played has no seed (it would tell every tile to
come), so it cannot be replayed until the match is over: ``record/in_progress``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..board import Pos
from ..errors import GameDataError, WibbleError
from ..record import MAX_SIZE, RecordError, check_list, shown
from ..wordlist import CLASSIC, WordList
from .settings import MAX_SEATS, Settings
from .state import Match, MatchEvent, Phase, Played, Seat

MATCH_RECORD_FORMAT = 1

SEAT_ACTIONS = ("play", "pass", "away", "shuffle", "swap", "hint", "extend")
"""Moves a seat makes on its turn ("away": a room passed the turn of someone gone too long)."""
CLOCK_ACTIONS = ("timeout", "round")
"""Moves the clock makes: a turn's time ran out, the pause between rounds ended."""
ENDS_TURN = ("play", "pass", "away", "timeout")
"""The moves that end a turn (each adds one entry to the match's history)."""

COMPARED = (
    "seed",
    "settings",
    "board",
    "letter_mult",
    "word_mult",
    "gems",
    "words_left",
    "seats",
    "round",
    "turn",
    "turn_no",
    "phase",
    "history",
    "version",
    "draws",
)
"""What a replay must reproduce of the record's final state (not the deadline, a time of day,
nor the bots' own draws, which a replay does not make)."""


@dataclass(frozen=True, slots=True)
class MatchMove:
    """One committed move of a match's record."""

    version: int
    """The match's version after it."""
    seat: int | None
    """Who made it (None: the clock)."""
    action: str
    word: str | None = None
    points: int | None = None
    path: tuple[Pos, ...] = ()
    swap: tuple[Pos, str] | None = None
    """A swap's tile and the letter (the list's symbol) it shows after."""

    @classmethod
    def from_doc(cls, doc: Any, index: int) -> MatchMove:
        try:
            action, version, seat = doc["action"], doc["version"], doc["seat"]
            if action not in SEAT_ACTIONS + CLOCK_ACTIONS or type(version) is not int:
                raise TypeError
            if (action in CLOCK_ACTIONS) != (seat is None) or not (seat is None or type(seat) is int):
                raise TypeError
            if action == "play":
                path = tuple(Pos(r, c) for r, c in doc["path"])
                if not all(type(n) is int for pos in path for n in (pos.row, pos.col)):
                    raise TypeError
                if type(doc["points"]) is not int:
                    raise TypeError
                if not isinstance(doc["word"], str):
                    raise TypeError
                return cls(version, seat, action, doc["word"], doc["points"], path)
            if action == "swap":
                if not all(key in doc for key in ("row", "col", "letter")):
                    raise RecordError(
                        "record/incomplete",
                        "a swap recorded without its tile and letter (the record of a match played "
                        "before swaps were recorded in full) cannot be replayed",
                        index,
                    )
                row, col, letter = doc["row"], doc["col"], doc["letter"]
                if type(row) is not int or type(col) is not int or not isinstance(letter, str):
                    raise TypeError
                return cls(version, seat, action, swap=(Pos(row, col), letter))
            return cls(version, seat, action)
        except (KeyError, TypeError, ValueError):
            raise RecordError("record/invalid", "not a move of a Wibble match record", index) from None


@dataclass(frozen=True)
class MatchRecord:
    match_id: str
    wordlist: str
    wordlist_digest: str
    seed: int | None
    """None while the match is being played: the record keeps it secret until the end."""
    size: int
    min_words: int
    settings: Settings
    seats: tuple[Seat, ...]
    """Each seat as it sat down: name, kind, level, speed (scores and gems start afresh)."""
    moves: tuple[MatchMove, ...]
    final: dict[str, Any]

    @property
    def over(self) -> bool:
        return self.final.get("phase") == Phase.OVER.value

    @classmethod
    def from_doc(cls, doc: Any) -> MatchRecord:
        """A match record read from JSON (``/games/<id>/record``); ``RecordError`` if it is not one."""
        try:
            if doc["kind"] != "match":
                raise TypeError
            if doc["format"] != MATCH_RECORD_FORMAT:
                raise RecordError(
                    "record/invalid", f"match record format {doc['format']!r} is not {MATCH_RECORD_FORMAT}"
                )
            wordlist, final = doc["wordlist"], doc["final"]
            texts = [doc["match_id"], wordlist["name"], wordlist["digest"]]
            if not all(isinstance(t, str) for t in texts) or not isinstance(final, dict):
                raise TypeError
            seed, size, min_words = doc["seed"], final["size"], final["min_words"]
            if seed is not None and not (type(seed) is int and 0 <= seed < 1 << 64):
                raise TypeError
            if not (type(size) is int and 1 <= size <= MAX_SIZE):
                raise TypeError
            if not (type(min_words) is int and min_words >= 0):
                raise TypeError
            settings = Settings.from_doc(doc["settings"])
            seats = tuple(_seat(entry) for entry in doc["seats"])
            if not 1 <= len(seats) <= MAX_SEATS:
                raise TypeError
            moves = tuple(MatchMove.from_doc(move, i + 1) for i, move in enumerate(doc["moves"]))
        except (KeyError, TypeError, IndexError, GameDataError):
            raise RecordError("record/invalid", "this is not a Wibble match record") from None
        return cls(texts[0], texts[1], texts[2], seed, size, min_words, settings, seats, moves, final)


def _seat(entry: Any) -> Seat:
    name, kind, level, speed = entry["name"], entry["kind"], entry["level"], entry["speed"]
    if not isinstance(name, str) or kind not in ("human", "bot") or type(speed) is not int:
        raise TypeError
    if not (level is None or isinstance(level, str)):
        raise TypeError
    return Seat(name, kind, level, speed)


def replay_match(
    record: MatchRecord, words: WordList, each: Callable[[Match, MatchMove], None] | None = None
) -> Match:
    """Play ``record`` again with ``words``; ``each(match, move)`` sees the match before every move.

    Raises ``RecordError``: ``record/in_progress`` if the record has no seed yet,
    ``record/wordlist_changed`` if the list is not the one the match was played with,
    ``record/mismatch`` (naming the move and how) if a move does not come out as recorded.
    """
    if record.seed is None:
        raise RecordError(
            "record/in_progress",
            "this match is still being played: its record keeps the seed secret until it is over",
        )
    try:
        words = words.with_values(record.settings.values)
    except (KeyError, ValueError):
        raise RecordError(
            "record/wordlist_changed",
            f"the match was played with the {record.settings.values!r} values, "
            f"which this version of the list {words.name!r} lacks; "
            "replaying it would not reproduce the match",
        ) from None
    check_list("match", record.wordlist, record.wordlist_digest, words)
    now = 0.0
    try:
        seats = [Seat(s.name, s.kind, s.level, s.speed) for s in record.seats]
        match = Match(words, record.seed, seats, now, record.settings, record.min_words, record.size)
    except ValueError as exc:
        raise RecordError("record/invalid", str(exc)) from None
    for number, move in enumerate(record.moves, start=1):
        if each is not None:
            each(match, move)
        if move.action in CLOCK_ACTIONS and match.deadline is not None:
            now = max(now, match.deadline)  # the clock ran on to the deadline it says fell due
        try:
            events = _apply(match, move, now)
        except WibbleError as exc:
            raise RecordError(
                "record/mismatch", f"the {move.action} cannot be made ({exc.message})", number
            ) from None
        _check(match, move, events, number)
    return match


def _apply(match: Match, move: MatchMove, now: float) -> list[MatchEvent]:
    seat = move.seat if move.seat is not None else match.turn
    action = move.action
    if action == "play":
        if not move.path:
            raise RecordError("record/mismatch", "a word with no tiles")
        events = match.press(seat, move.path[0])
        for pos in move.path[1:]:
            events += match.enter(seat, pos)
        return events + match.release(seat, now)
    if action in ("pass", "away"):
        return match.pass_turn(seat, now)
    if action == "timeout":
        return match.timeout(match.turn_no, now)
    if action == "round":
        return match.next_round(now)
    if action == "shuffle":
        return match.shuffle(seat)
    if action == "swap":
        assert move.swap is not None
        return match.swap(seat, *move.swap)
    if action == "hint":
        return match.hint(seat)
    return match.extend(seat)


def _check(match: Match, move: MatchMove, events: list[MatchEvent], number: int) -> None:
    if move.action == "play":
        played = next((e for e in events if isinstance(e, Played)), None)
        if played is None:
            raise RecordError("record/mismatch", "its path does not spell a word", number)
        checked = (("word", move.word, played.word), ("points", move.points, played.score.points))
        for name, want, have in checked:
            if want != have:
                raise RecordError(
                    "record/mismatch", f"{name} was {shown(want)} but the replay gives {shown(have)}", number
                )
    if match.version != move.version:
        raise RecordError(
            "record/mismatch", f"version was {move.version} but the replay gives {match.version}", number
        )


def match_differences(match: Match, final: Mapping[str, Any]) -> str | None:
    """The first way ``match`` differs from a record's final state, or None if it matches."""
    doc = match.to_doc()
    for name in COMPARED:
        if name not in final:
            return f"final {name}: missing from the record"
        recorded = final[name]
        if name == "settings" and isinstance(recorded, Mapping) and "values" not in recorded:
            recorded = {**recorded, "values": CLASSIC}  # saved before a match named its values
        if doc[name] != recorded:
            return f"final {name}: recorded {recorded!r}, replay gives {doc[name]!r}"
    return None
