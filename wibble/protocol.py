"""The wire format: JSON text frames in, typed commands out; events in, JSON out.

Everything a client may send is checked here before any game sees it, so the
rest of the server only ever handles well-formed commands. See docs/protocol.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .core import (
    ChainChanged,
    Event,
    Game,
    Move,
    Pos,
    ProtocolError,
    TilesReplaced,
    WibbleError,
    WordJudged,
)
from .core.letters import Letter, LetterTable

MAX_FRAME_BYTES = 4096
"""Larger frames are refused with close code 1009 before they are read whole."""

MAX_COORD = 1 << 31
MAX_SEED = (1 << 53) - 1  # JavaScript numbers stay exact up to here
MAX_NAME = 64
MAX_ID = 128


@dataclass(frozen=True, slots=True)
class NewGame:
    wordlist: str | None
    seed: int | None


@dataclass(frozen=True, slots=True)
class Resume:
    game_id: str
    token: str


@dataclass(frozen=True, slots=True)
class Press:
    pos: Pos


@dataclass(frozen=True, slots=True)
class Enter:
    pos: Pos


@dataclass(frozen=True, slots=True)
class Release:
    pass


@dataclass(frozen=True, slots=True)
class Cancel:
    pass


Command = NewGame | Resume | Press | Enter | Release | Cancel


# -- parsing -------------------------------------------------------------------------


def _reject_constant(name: str) -> float:
    raise ProtocolError("protocol/bad_json", f"{name} is not valid JSON")


def parse(frame: str | bytes) -> Command:
    """Turn one frame into a command, or raise ``ProtocolError`` saying what is wrong."""
    if isinstance(frame, bytes | bytearray):
        raise ProtocolError("protocol/binary_frame", "send JSON as text frames, not binary")
    try:
        data = json.loads(frame, parse_constant=_reject_constant)
    except ProtocolError:
        raise
    except RecursionError:
        raise ProtocolError("protocol/bad_json", "JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and ints longer than Python will parse
        raise ProtocolError("protocol/bad_json", f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("protocol/not_object", "a message must be a JSON object with a 'type'")
    if "type" not in data:
        raise ProtocolError("protocol/missing_field", "a message needs a string field 'type'")
    kind = data["type"]
    if not isinstance(kind, str):
        raise ProtocolError("protocol/bad_field", "field 'type' must be a string")
    parser = _PARSERS.get(kind)
    if parser is None:
        known = ", ".join(sorted(_PARSERS))
        raise ProtocolError(
            "protocol/unknown_type", f"unknown message type {kind[:40]!r} (known: {known})"
        ).about(kind[:40])
    try:
        return parser(data)
    except ProtocolError as exc:
        raise exc.about(kind) from None


def request_name(command: Command) -> str:
    """The ``type`` a command arrived as, for an error's ``request`` field."""
    return _NAMES[type(command)]


def _int(data: dict[str, Any], name: str, low: int, high: int, required: bool = True) -> int | None:
    if name not in data or (not required and data[name] is None):
        if required:
            raise ProtocolError("protocol/missing_field", f"field {name!r} is required")
        return None
    value = data[name]
    # bool is a subclass of int in Python; true must not mean row 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError("protocol/bad_field", f"field {name!r} must be a whole number")
    if not low <= value <= high:
        raise ProtocolError("protocol/bad_field", f"field {name!r} is out of range")
    return value


def _str(data: dict[str, Any], name: str, limit: int, required: bool = True) -> str | None:
    if name not in data or (not required and data[name] is None):
        if required:
            raise ProtocolError("protocol/missing_field", f"field {name!r} is required")
        return None
    value = data[name]
    if not isinstance(value, str) or not value or len(value) > limit or not is_text(value):
        raise ProtocolError("protocol/bad_field", f"field {name!r} must be text of 1-{limit} characters")
    return value


def _pos(data: dict[str, Any]) -> Pos:
    row = _int(data, "row", -MAX_COORD, MAX_COORD)
    col = _int(data, "col", -MAX_COORD, MAX_COORD)
    assert row is not None
    assert col is not None
    return Pos(row, col)


def _new_game(data: dict[str, Any]) -> NewGame:
    return NewGame(
        _str(data, "wordlist", MAX_NAME, required=False), _int(data, "seed", 0, MAX_SEED, required=False)
    )


def _resume(data: dict[str, Any]) -> Resume:
    game_id = _str(data, "game_id", MAX_ID)
    token = _str(data, "token", MAX_ID)
    assert game_id is not None
    assert token is not None
    return Resume(game_id, token)


_PARSERS: dict[str, Callable[[dict[str, Any]], Command]] = {
    "new_game": _new_game,
    "resume": _resume,
    "press": lambda data: Press(_pos(data)),
    "enter": lambda data: Enter(_pos(data)),
    "release": lambda data: Release(),
    "cancel": lambda data: Cancel(),
}

_NAMES: dict[type, str] = {
    NewGame: "new_game",
    Resume: "resume",
    Press: "press",
    Enter: "enter",
    Release: "release",
    Cancel: "cancel",
}


# -- encoding -------------------------------------------------------------------------


def encode(message: dict[str, Any]) -> str:
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # half a surrogate pair echoed back: escape it instead
            text = json.dumps(message, separators=(",", ":"))
    return text


def is_text(value: str) -> bool:
    """False for strings holding half a UTF-16 surrogate pair (JSON can escape one; UTF-8 cannot)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _tile(letter: Letter) -> dict[str, Any]:
    return {"letter": letter.face, "score": letter.score}


def _faces(word: str, letters: LetterTable) -> str:
    """A word as its tiles show it (upper case, except letters that would look alike)."""
    return "".join(letters[ch].face if ch in letters else ch.upper() for ch in word)


def _chain(chain: tuple[Pos, ...]) -> list[list[int]]:
    return [[pos.row, pos.col] for pos in chain]


def board(game: Game) -> list[list[dict[str, Any]]]:
    """The board as rows of ``{letter, score}`` tiles."""
    return [[_tile(letter) for letter in row] for row in game.board.rows()]


def move(move: Move, letters: LetterTable) -> dict[str, Any]:
    """A committed move as the record and the replay page show it (the word as its tiles read)."""
    return {**move.to_doc(), "word": _faces(move.word, letters)}


def snapshot(game: Game, game_id: str, token: str) -> dict[str, Any]:
    """The full ``game`` message: everything a client needs to draw the game from scratch."""
    words = game.words
    return {
        "type": "game",
        "game_id": game_id,
        "token": token,
        "seed": game.draws.seed,
        "wordlist": words.name,
        "wordlist_title": words.title,
        "language": words.language,
        "min_length": words.min_length,
        "letters": {
            letter.face: {"score": letter.score, "weight": letter.weight} for letter in words.letters
        },
        "size": game.board.size,
        "board": board(game),
        "phase": game.phase.value,
        "chain": _chain(game.chain),
        "word": _faces(game.word, words.letters),
        "points": game.points,
        "status": game.status.value,
        "already_found": game.already_found,
        "total": game.total,
        "found": [
            {"word": _faces(word, words.letters), "points": points} for word, points in game.found.in_order
        ],
        "words_left": game.words_left,
        "version": game.version,
    }


def event(ev: Event, letters: LetterTable) -> dict[str, Any]:
    """The message for one core event of a game played with ``letters``."""
    if isinstance(ev, ChainChanged):
        return {
            "type": "chain",
            "chain": _chain(ev.chain),
            "word": _faces(ev.word, letters),
            "points": ev.points,
            "status": ev.status.value,
            "already_found": ev.found,
            "version": ev.version,
        }
    if isinstance(ev, WordJudged):
        return {
            "type": "word",
            "word": _faces(ev.word, letters),
            "result": ev.result.value,
            "points": ev.points,
            "total": ev.total,
            "version": ev.version,
        }
    if isinstance(ev, TilesReplaced):
        return {
            "type": "board",
            "changed": [{"row": p.row, "col": p.col, **_tile(letter)} for p, letter in ev.changed],
            "words_left": ev.words_left,
            "version": ev.version,
        }
    raise TypeError(f"no message for {ev!r}")


def error(exc: WibbleError) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "error", "code": exc.code, "message": exc.message}
    if exc.request is not None:
        message["request"] = exc.request
    return message
