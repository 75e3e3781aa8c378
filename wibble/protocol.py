"""The wire format: JSON text frames in, typed commands out; events in, JSON out.

Everything a client may send is checked here before any game sees it, so the
rest of the server only ever handles well-formed commands. See docs/protocol.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
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
from .core.match import (
    BoardChanged,
    ChainMoved,
    GemsChanged,
    HintGiven,
    Match,
    MatchEvent,
    MatchOver,
    Played,
    TurnChanged,
    WordRefused,
)
from .core.match import Phase as MatchPhase
from .core.solver import Found

MAX_FRAME_BYTES = 4096
"""Larger frames are refused with close code 1009 before they are read whole."""

MAX_COORD = 1 << 31
MAX_SEED = (1 << 53) - 1  # JavaScript numbers stay exact up to here
MAX_NAME = 64
MAX_ID = 128
MAX_SEQ = (1 << 53) - 1
MAX_PLAYER_NAME = 24


@dataclass(frozen=True, slots=True)
class Request:
    """What every command carries: the client's own number for it, echoed in its replies."""

    seq: int | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class NewGame(Request):
    wordlist: str | None
    seed: int | None


@dataclass(frozen=True, slots=True)
class Resume(Request):
    game_id: str
    token: str


@dataclass(frozen=True, slots=True)
class Press(Request):
    pos: Pos


@dataclass(frozen=True, slots=True)
class Enter(Request):
    pos: Pos


@dataclass(frozen=True, slots=True)
class Release(Request):
    pass


@dataclass(frozen=True, slots=True)
class Cancel(Request):
    pass


@dataclass(frozen=True, slots=True)
class BotSpec:
    level: str
    speed: int = 1
    """Turns a round: a host gives a bot speed 2 as a handicap (for the others), and it plays twice."""


@dataclass(frozen=True, slots=True)
class NewMatch(Request):
    wordlist: str | None
    seed: int | None
    rounds: int
    turn_seconds: int | None
    bots: tuple[BotSpec, ...]
    name: str
    speed: int = 1


@dataclass(frozen=True, slots=True)
class ResumeMatch(Request):
    match_id: str
    token: str


@dataclass(frozen=True, slots=True)
class Pass(Request):
    pass


@dataclass(frozen=True, slots=True)
class Shuffle(Request):
    pass


@dataclass(frozen=True, slots=True)
class Swap(Request):
    pos: Pos
    letter: str


@dataclass(frozen=True, slots=True)
class Hint(Request):
    pass


@dataclass(frozen=True, slots=True)
class Extend(Request):
    pass


@dataclass(frozen=True, slots=True)
class Rematch(Request):
    pass


Command = (
    NewGame
    | Resume
    | Press
    | Enter
    | Release
    | Cancel
    | NewMatch
    | ResumeMatch
    | Pass
    | Shuffle
    | Swap
    | Hint
    | Extend
    | Rematch
)
MatchCommand = NewMatch | ResumeMatch | Pass | Shuffle | Swap | Hint | Extend | Rematch
"""Commands that only make sense in a match (the drag commands serve both modes)."""


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
        command = parser(data)
        seq = _int(data, "seq", 0, MAX_SEQ, required=False)
    except ProtocolError as exc:
        raise exc.about(kind) from None
    return command if seq is None else replace(command, seq=seq)


def seq_of(frame: str | bytes) -> int | None:
    """The ``seq`` of a frame that could not be parsed as a command, if it has a valid one (for its error)."""
    try:
        data = json.loads(frame, parse_constant=_reject_constant)
        return _int(data, "seq", 0, MAX_SEQ, required=False) if isinstance(data, dict) else None
    except (ProtocolError, ValueError, RecursionError, TypeError):
        return None


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


def _resume(data: dict[str, Any]) -> Resume | ResumeMatch:
    token = _str(data, "token", MAX_ID)
    assert token is not None
    if "match_id" in data:
        match_id = _str(data, "match_id", MAX_ID)
        assert match_id is not None
        return ResumeMatch(match_id, token)
    game_id = _str(data, "game_id", MAX_ID)
    assert game_id is not None
    return Resume(game_id, token)


LEVELS = ("easy", "medium", "hard")
MAX_BOTS = 5
MAX_SPEED = 4


def _bots(data: dict[str, Any]) -> tuple[BotSpec, ...]:
    bots = data.get("bots", [])
    if not isinstance(bots, list) or len(bots) > MAX_BOTS:
        raise ProtocolError("protocol/bad_field", f"field 'bots' must be a list of at most {MAX_BOTS}")
    specs = []
    for bot in bots:
        level = bot.get("level", "medium") if isinstance(bot, dict) else None
        if level not in LEVELS:
            raise ProtocolError("protocol/bad_field", 'each bot is {"level": "easy"|"medium"|"hard"}')
        assert isinstance(bot, dict)
        speed = _int(bot, "speed", 1, MAX_SPEED, required=False)
        specs.append(BotSpec(level, 1 if speed is None else speed))
    return tuple(specs)


def _new_match(data: dict[str, Any]) -> NewMatch:
    rounds = _int(data, "rounds", 1, 20, required=False)
    speed = _int(data, "speed", 1, MAX_SPEED, required=False)
    return NewMatch(
        _str(data, "wordlist", MAX_NAME, required=False),
        _int(data, "seed", 0, MAX_SEED, required=False),
        5 if rounds is None else rounds,
        _int(data, "turn_seconds", 5, 600, required=False),
        _bots(data),
        _name(data),
        1 if speed is None else speed,
    )


def _name(data: dict[str, Any]) -> str:
    """A seat's name: printable text (no control or direction-override characters), or "You"."""
    name = _str(data, "name", MAX_PLAYER_NAME, required=False)
    if name is None:
        return "You"
    if not name.isprintable() or not name.strip():
        raise ProtocolError("protocol/bad_field", "field 'name' must be printable text")
    return name.strip()


def _swap(data: dict[str, Any]) -> Swap:
    letter = _str(data, "letter", 8)
    assert letter is not None
    return Swap(_pos(data), letter)


_PARSERS: dict[str, Callable[[dict[str, Any]], Command]] = {
    "new_game": _new_game,
    "resume": _resume,
    "press": lambda data: Press(_pos(data)),
    "enter": lambda data: Enter(_pos(data)),
    "release": lambda data: Release(),
    "cancel": lambda data: Cancel(),
    "new_match": _new_match,
    "pass": lambda data: Pass(),
    "shuffle": lambda data: Shuffle(),
    "swap": _swap,
    "hint": lambda data: Hint(),
    "extend": lambda data: Extend(),
    "rematch": lambda data: Rematch(),
}

_NAMES: dict[type, str] = {
    NewGame: "new_game",
    Resume: "resume",
    ResumeMatch: "resume",
    Press: "press",
    Enter: "enter",
    Release: "release",
    Cancel: "cancel",
    NewMatch: "new_match",
    Pass: "pass",
    Shuffle: "shuffle",
    Swap: "swap",
    Hint: "hint",
    Extend: "extend",
    Rematch: "rematch",
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


def error(exc: WibbleError, seq: int | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "error", "code": exc.code, "message": exc.message}
    if exc.request is not None:
        message["request"] = exc.request
    if seq is not None:
        message["seq"] = seq
    return message


# -- matches ----------------------------------------------------------------------------


def _found(found: Found | None, letters: LetterTable) -> dict[str, Any] | None:
    if found is None:
        return None
    return {"word": _faces(found.word, letters), "path": _chain(found.path), "points": found.score}


def _turn_doc(turn: dict[str, Any] | None, letters: LetterTable) -> dict[str, Any] | None:
    """A played or best word from a match's history, its word as the tiles read."""
    if turn is None:
        return None
    return {**turn, "word": _faces(turn["word"], letters)}


def match_summary(summary: dict[str, Any], letters: LetterTable) -> dict[str, Any]:
    return {
        "ranking": summary["ranking"],
        "best_words": [
            {"seat": entry["seat"], "word": _turn_doc(entry["word"], letters)}
            for entry in summary["best_words"]
        ],
        "turns": [
            {**turn, "played": _turn_doc(turn["played"], letters), "best": _turn_doc(turn["best"], letters)}
            for turn in summary["turns"]
        ],
    }


def _remaining(deadline: float | None, now: float) -> float | None:
    return None if deadline is None else round(max(0.0, deadline - now), 3)


def match_snapshot(
    match: Match, match_id: str, token: str, you: int, connected: list[bool], now: float
) -> dict[str, Any]:
    """The full ``match`` message for seat ``you``: everything needed to draw the match from scratch."""
    words = match.words
    letters = words.letters
    chain = match.chain
    moved = match.chain_moved()
    settings = match.settings
    message: dict[str, Any] = {
        "type": "match",
        "match_id": match_id,
        "token": token,
        "you": you,
        "seed": match.draws.seed,
        "wordlist": words.name,
        "wordlist_title": words.title,
        "language": words.language,
        "min_length": words.min_length,
        "letters": {letter.face: {"score": letter.score, "weight": letter.weight} for letter in letters},
        "size": match.board.size,
        "seats": [
            {
                "name": seat.name,
                "kind": seat.kind,
                "level": seat.level,
                "score": seat.score,
                "gems": seat.gems,
                "speed": seat.speed,
                "connected": seat.kind == "bot" or connected[i],
            }
            for i, seat in enumerate(match.seats)
        ],
        "round": match.round,
        "rounds": settings.rounds,
        "turn": match.turn,
        "turn_no": match.turn_no,
        "deadline": match.deadline,
        "remaining": _remaining(match.deadline, now),
        "phase": match.phase.value,
        "board": match.tiles(),
        "chain": _chain(chain),
        "word": _faces(moved.word, letters),
        "points": moved.points,
        "status": moved.status,
        "words_left": match.words_left,
        "history": [
            {**turn, "played": _turn_doc(turn["played"], letters), "best": _turn_doc(turn["best"], letters)}
            for turn in match.history
        ],
        "costs": {
            "shuffle": settings.costs.shuffle,
            "swap": settings.costs.swap,
            "hint": settings.costs.hint,
            "extend": settings.costs.extend,
        },
        "gem_cap": settings.gem_cap,
        "settings": {
            "rounds": settings.rounds,
            "turn_seconds": settings.turn_seconds,
            "extend_seconds": settings.extend_seconds,
            "scoring": list(settings.scoring),
        },
        "version": match.version,
    }
    if match.phase is MatchPhase.OVER:
        message["summary"] = match_summary(match.summary(), letters)
    return message


def match_event(ev: MatchEvent, letters: LetterTable, now: float) -> dict[str, Any]:
    """The message for one event of a match played with ``letters``."""
    if isinstance(ev, ChainMoved):
        return {
            "type": "chain",
            "seat": ev.seat,
            "chain": _chain(ev.chain),
            "word": _faces(ev.word, letters),
            "points": ev.points,
            "status": ev.status,
        }
    if isinstance(ev, Played):
        return {
            "type": "played",
            "seat": ev.seat,
            "word": _faces(ev.word, letters),
            "path": _chain(ev.path),
            "points": ev.score.points,
            "breakdown": ev.score.to_doc(),
            "gems_earned": ev.gems_earned,
            "score": ev.total,
            "version": ev.version,
        }
    if isinstance(ev, WordRefused):
        return {"type": "word", "seat": ev.seat, "word": _faces(ev.word, letters), "result": ev.result}
    if isinstance(ev, BoardChanged):
        return {
            "type": "board",
            "changed": list(ev.changed),
            "reason": ev.reason,
            "words_left": ev.words_left,
            "version": ev.version,
        }
    if isinstance(ev, GemsChanged):
        return {"type": "gems", "seat": ev.seat, "gems": ev.gems}
    if isinstance(ev, TurnChanged):
        return {
            "type": "turn",
            "turn": ev.turn,
            "round": ev.round,
            "turn_no": ev.turn_no,
            "deadline": ev.deadline,
            "remaining": _remaining(ev.deadline, now),
            "phase": ev.phase,
            "passed": ev.passed,
            "version": ev.version,
        }
    if isinstance(ev, HintGiven):
        return {"type": "hint", **(_found(ev.found, letters) or {"word": None, "path": [], "points": 0})}
    if isinstance(ev, MatchOver):
        return {"type": "match_over", **match_summary(ev.summary, letters), "version": ev.version}
    raise TypeError(f"no message for {ev!r}")
