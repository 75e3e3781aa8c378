"""JSON text frames in, typed commands out: every field checked before any game sees it."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .. import codec
from ..core import SPRINT_SECONDS, ProtocolError
from ..core.match import MAX_ROUNDS, TURN_SECONDS, VALUES
from ..core.room import MODES, RACE_SECONDS
from ..core.wordlist import MAX_WORD_LENGTH, normalise
from .commands import (
    MAX_ID,
    MAX_NAME,
    MAX_ROOM_SEATS,
    MAX_SEED,
    MAX_SEQ,
    MIN_PLAYER_ID,
    UNSET,
    BotSpec,
    Cancel,
    Command,
    CreateRoom,
    Define,
    EndSprint,
    Enter,
    Extend,
    Follow,
    Hint,
    JoinRoom,
    Leaderboard,
    LeaveRoom,
    LeaveSeat,
    NewDaily,
    NewGame,
    NewMatch,
    Pass,
    Ping,
    Press,
    Release,
    Rematch,
    Remove,
    Resume,
    ResumeMatch,
    RulesPatch,
    SetRules,
    SetSeat,
    Shuffle,
    StartMatch,
    Suggest,
    Swap,
    TakeSeat,
    Unset,
)
from .drag import drag_command
from .fields import display_name, int_field, pos_field, reject_constant, text_field

LEVELS = ("easy", "medium", "hard")
MAX_BOTS = 5
MAX_SPEED = 4
MAX_CODE = 16


def parse(frame: str | bytes) -> Command:
    """Turn one frame into a command, or raise ``ProtocolError`` saying what is wrong."""
    if isinstance(frame, bytes | bytearray):
        raise ProtocolError("protocol/binary_frame", "send JSON as text frames, not binary")
    command = drag_command(frame)
    if command is not None:
        return command
    data = codec.fast_loads(frame)
    if data is None:  # not read by msgspec (or null): json says what is wrong, in its own words
        data = _loads(frame)
    if not isinstance(data, dict):
        raise ProtocolError("protocol/not_object", "a message must be a JSON object with a 'type'")
    if "type" not in data:
        raise ProtocolError("protocol/missing_field", "a message needs a string field 'type'")
    kind = data["type"]
    if not isinstance(kind, str):
        raise ProtocolError("protocol/bad_field", "field 'type' must be a string")
    parser = _PARSERS.get(kind)
    if parser is None:
        # The type is echoed cut short: the whole message stays a line a person can read.
        known = ", ".join(sorted(_PARSERS))
        raise ProtocolError(
            "protocol/unknown_type", f"unknown message type {kind[:24]!r} (known: {known})"
        ).about(kind[:40])
    try:
        command = parser(data)
        seq = int_field(data, "seq", 0, MAX_SEQ, required=False)
    except ProtocolError as exc:
        raise exc.about(kind) from None
    return command if seq is None else replace(command, seq=seq)


def _loads(frame: str) -> Any:
    try:
        return json.loads(frame, parse_constant=reject_constant)
    except ProtocolError:
        raise
    except RecursionError:
        raise ProtocolError("protocol/bad_json", "JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and ints longer than Python will parse
        raise ProtocolError("protocol/bad_json", f"not valid JSON: {exc}") from None


def seq_of(frame: str | bytes) -> int | None:
    """The ``seq`` of a frame that could not be parsed as a command, if it has a valid one (for its error)."""
    try:
        data = json.loads(frame, parse_constant=reject_constant)
        return int_field(data, "seq", 0, MAX_SEQ, required=False) if isinstance(data, dict) else None
    except (ProtocolError, ValueError, RecursionError, TypeError):
        return None


def request_name(command: Command) -> str:
    """The ``type`` a command arrived as, for an error's ``request`` field."""
    return _NAMES[type(command)]


def _new_game(data: dict[str, Any]) -> NewGame:
    sprint = int_field(data, "sprint", 1, max(SPRINT_SECONDS), required=False)
    if sprint is not None and sprint not in SPRINT_SECONDS:
        raise ProtocolError("protocol/bad_field", "field 'sprint' must be 60, 180 or 300 (seconds)")
    return NewGame(
        text_field(data, "wordlist", MAX_NAME, required=False),
        int_field(data, "seed", 0, MAX_SEED, required=False),
        sprint,
    )


def _player(data: dict[str, Any], required: bool = True) -> str | None:
    return text_field(data, "player", MAX_ID, required=required, least=MIN_PLAYER_ID)


def _new_daily(data: dict[str, Any]) -> NewDaily:
    player = _player(data)
    assert player is not None
    return NewDaily(player, display_name(data))


def _resume(data: dict[str, Any]) -> Resume | ResumeMatch:
    token = text_field(data, "token", MAX_ID)
    assert token is not None
    if "match_id" in data:
        match_id = text_field(data, "match_id", MAX_ID)
        assert match_id is not None
        return ResumeMatch(match_id, token)
    game_id = text_field(data, "game_id", MAX_ID)
    assert game_id is not None
    return Resume(game_id, token)


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
        speed = int_field(bot, "speed", 1, MAX_SPEED, required=False)
        specs.append(BotSpec(level, 1 if speed is None else speed))
    return tuple(specs)


def _values(data: dict[str, Any]) -> str | None:
    values = data.get("values")
    if values is not None and values not in VALUES:
        raise ProtocolError("protocol/bad_field", "field 'values' must be spellcast or classic")
    return values


def _new_match(data: dict[str, Any]) -> NewMatch:
    rounds = int_field(data, "rounds", 1, MAX_ROUNDS, required=False)
    speed = int_field(data, "speed", 1, MAX_SPEED, required=False)
    return NewMatch(
        text_field(data, "wordlist", MAX_NAME, required=False),
        int_field(data, "seed", 0, MAX_SEED, required=False),
        5 if rounds is None else rounds,
        int_field(data, "turn_seconds", *TURN_SECONDS, required=False),
        _bots(data),
        _name(data),
        1 if speed is None else speed,
        _values(data) or "spellcast",
    )


def _name(data: dict[str, Any]) -> str:
    """A match seat's name, read as a room's are (it is shown and recorded the same way), or "You"."""
    if data.get("name") is None:
        return "You"
    return display_name(data)


def _swap(data: dict[str, Any]) -> Swap:
    letter = text_field(data, "letter", 8)
    assert letter is not None
    # In NFC, as the list's letters are: an Ñ typed as N and a combining tilde is the same tile.
    return Swap(pos_field(data), unicodedata.normalize("NFC", letter))


def _rules(data: dict[str, Any]) -> RulesPatch:
    """The rules a message sets; fields it leaves out keep their values."""
    rounds = int_field(data, "rounds", 1, MAX_ROUNDS, required=False)
    turn_seconds: int | None | Unset = UNSET
    if "turn_seconds" in data:
        turn_seconds = int_field(data, "turn_seconds", *TURN_SECONDS, required=False)
    stand_in = data.get("stand_in")
    if stand_in is not None and stand_in not in LEVELS:
        raise ProtocolError("protocol/bad_field", "field 'stand_in' must be easy, medium or hard")
    wordlist = text_field(data, "wordlist", MAX_NAME, required=False)
    mode = data.get("mode")
    if mode is not None and mode not in MODES:
        raise ProtocolError("protocol/bad_field", "field 'mode' must be match, teams or race")
    race_seconds = data.get("race_seconds")
    if race_seconds is not None and (type(race_seconds) is not int or race_seconds not in RACE_SECONDS):
        raise ProtocolError("protocol/bad_field", "field 'race_seconds' must be 60, 120 or 180")
    return RulesPatch(rounds, turn_seconds, wordlist, stand_in, _values(data), mode, race_seconds)


def _create_room(data: dict[str, Any]) -> CreateRoom:
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise ProtocolError("protocol/bad_field", "field 'rules' must be an object")
    return CreateRoom(display_name(data), _rules(rules))


def _join_room(data: dict[str, Any]) -> JoinRoom:
    code = text_field(data, "code", MAX_CODE)
    assert code is not None
    token = text_field(data, "token", MAX_ID, required=False)
    return JoinRoom(code.strip().upper(), display_name(data), token)


def _seat(data: dict[str, Any]) -> int:
    seat = int_field(data, "seat", 0, MAX_ROOM_SEATS - 1)
    assert seat is not None
    return seat


TEAMS = ("a", "b")


def _take_seat(data: dict[str, Any]) -> TakeSeat:
    """A seat by its number, or (in a 2v2 room) by its team: one or the other."""
    team = data.get("team")
    if team is None:
        return TakeSeat(_seat(data))
    if team not in TEAMS:
        raise ProtocolError("protocol/bad_field", 'field \'team\' must be "a" or "b"')
    if data.get("seat") is not None:
        raise ProtocolError("protocol/bad_field", "take_seat names a seat or a team, not both")
    return TakeSeat(None, team)


def _suggest(data: dict[str, Any]) -> Suggest:
    """A tile (``row`` and ``col``) to mark or unmark, or neither: clear every mark."""
    to = int_field(data, "to", 0, MAX_ROOM_SEATS - 1, required=False)
    if data.get("row") is None and data.get("col") is None:
        return Suggest(None, to)
    return Suggest(pos_field(data), to)


def _set_seat(data: dict[str, Any]) -> SetSeat:
    bot = data.get("bot")
    if bot is not None and bot not in LEVELS:
        raise ProtocolError("protocol/bad_field", "field 'bot' must be easy, medium or hard")
    speed = int_field(data, "speed", 1, MAX_SPEED, required=False)
    if bot is None and speed is None:
        raise ProtocolError("protocol/missing_field", "set_seat needs 'bot' or 'speed'")
    return SetSeat(_seat(data), bot, speed)


def _define(data: dict[str, Any]) -> Define:
    text = text_field(data, "word", 4 * MAX_WORD_LENGTH)
    assert text is not None
    word = normalise(text)
    if not (word.isalpha() and len(word) <= MAX_WORD_LENGTH):
        raise ProtocolError("protocol/bad_field", f"field 'word' must be 1-{MAX_WORD_LENGTH} letters")
    return Define(word, text_field(data, "wordlist", MAX_NAME, required=False))


_PARSERS: dict[str, Callable[[dict[str, Any]], Command]] = {
    "new_game": _new_game,
    "new_daily": _new_daily,
    "leaderboard": lambda data: Leaderboard(_player(data, required=False)),
    "define": _define,
    "ping": lambda data: Ping(),
    "resume": _resume,
    "press": lambda data: Press(pos_field(data)),
    "enter": lambda data: Enter(pos_field(data)),
    "release": lambda data: Release(),
    "cancel": lambda data: Cancel(),
    "done": lambda data: EndSprint(),
    "new_match": _new_match,
    "pass": lambda data: Pass(),
    "shuffle": lambda data: Shuffle(),
    "swap": _swap,
    "hint": lambda data: Hint(),
    "extend": lambda data: Extend(),
    "rematch": lambda data: Rematch(),
    "create_room": _create_room,
    "join_room": _join_room,
    "take_seat": _take_seat,
    "suggest": _suggest,
    "follow": lambda data: Follow(_seat(data)),
    "leave_seat": lambda data: LeaveSeat(),
    "leave_room": lambda data: LeaveRoom(),
    "set_rules": lambda data: SetRules(_rules(data)),
    "set_seat": _set_seat,
    "remove": lambda data: Remove(_seat(data)),
    "start_match": lambda data: StartMatch(),
}

_NAMES: dict[type, str] = {
    NewGame: "new_game",
    NewDaily: "new_daily",
    Leaderboard: "leaderboard",
    Define: "define",
    Ping: "ping",
    Resume: "resume",
    ResumeMatch: "resume",
    Press: "press",
    Enter: "enter",
    Release: "release",
    Cancel: "cancel",
    EndSprint: "done",
    NewMatch: "new_match",
    Pass: "pass",
    Shuffle: "shuffle",
    Swap: "swap",
    Hint: "hint",
    Extend: "extend",
    Rematch: "rematch",
    CreateRoom: "create_room",
    JoinRoom: "join_room",
    TakeSeat: "take_seat",
    Suggest: "suggest",
    Follow: "follow",
    LeaveSeat: "leave_seat",
    LeaveRoom: "leave_room",
    SetRules: "set_rules",
    SetSeat: "set_seat",
    Remove: "remove",
    StartMatch: "start_match",
}
