"""Events in, JSON out: the endless game's messages, errors, and the encoder every message goes through."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import codec
from ..core import (
    ChainChanged,
    Event,
    Game,
    Move,
    Phase,
    TilesReplaced,
    TimeUp,
    WibbleError,
    WordJudged,
    path_doc,
)
from ..core.letters import Letter, LetterTable


def encode(message: dict[str, Any] | list[dict[str, Any]]) -> str:
    # msgspec refuses half a surrogate pair (a client's text echoed back) rather than write
    # text that is not UTF-8; the fallback then escapes every non-ASCII character.
    return codec.dumps(message, ascii_fallback=True)


def frame(messages: Sequence[dict[str, Any]]) -> str:
    """The one frame that carries ``messages`` to a connection: a message alone as its object,
    several (what one change did, in order) as an array of them."""
    return encode(messages[0] if len(messages) == 1 else list(messages))


def _tile(letter: Letter) -> dict[str, Any]:
    return {"letter": letter.face, "score": letter.score}


def _faces(word: str, letters: LetterTable) -> str:
    """A word as its tiles show it (upper case, except letters that would look alike)."""
    return "".join(letters[ch].face if ch in letters else ch.upper() for ch in word)


def board(game: Game) -> list[list[dict[str, Any]]]:
    """The board as rows of ``{letter, score}`` tiles."""
    return [[_tile(letter) for letter in row] for row in game.board.rows()]


def move(move: Move, letters: LetterTable) -> dict[str, Any]:
    """A committed move as the record and the replay page show it (the word as its tiles read)."""
    return {**move.to_doc(), "word": _faces(move.word, letters)}


def snapshot(game: Game, game_id: str, token: str, now: float | None = None) -> dict[str, Any]:
    """The full ``game`` message: everything a client needs to draw the game from scratch.

    A sprint's adds its clock (``sprint``, ``deadline`` and, given ``now``, the seconds
    ``remaining``), and once over the best words that were missed (as ``over`` does)."""
    words = game.words
    message = {
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
        "chain": path_doc(game.chain),
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
    if game.sprint is not None:
        message.update(sprint=game.sprint, deadline=game.deadline)
        if now is not None and game.deadline is not None:
            message["remaining"] = round(max(0.0, game.deadline - now), 3)
        if game.phase is Phase.OVER:
            message.update(missed=missed(game), early=game.early)
    return message


def missed(game: Game) -> list[dict[str, Any]]:
    """The best words the board held that were not found, with a path each, as ``over`` lists them."""
    letters = game.words.letters
    return [
        {"word": _faces(entry.word, letters), "points": entry.score, "path": path_doc(entry.path)}
        for entry in game.missed()
    ]


def over(game: Game) -> dict[str, Any]:
    """The ``over`` message: a sprint's time is up; its score, its words and the best ones missed."""
    letters = game.words.letters
    return {
        "type": "over",
        "total": game.total,
        "found": [{"word": _faces(word, letters), "points": points} for word, points in game.found.in_order],
        "missed": missed(game),
        "version": game.version,
        "early": game.early,
    }


def event(ev: Event, letters: LetterTable) -> dict[str, Any]:
    """The message for one core event of a game played with ``letters``."""
    if isinstance(ev, ChainChanged):
        return {
            "type": "chain",
            "chain": path_doc(ev.chain),
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
    if isinstance(ev, TimeUp):  # the live layer sends ``over`` (it needs the whole game) instead
        return {"type": "over", "total": ev.total, "version": ev.version}
    raise TypeError(f"no message for {ev!r}")


def messages(game: Game, events: Sequence[Event]) -> list[dict[str, Any]]:
    """The messages of one move's events: one an event, except that a scored word and the refill
    of its tiles go as one ``word`` message (with the refill's ``changed`` and ``words_left``), so
    that a release costs its player one message, not two; a sprint's end is the whole ``over``."""
    letters = game.words.letters
    out: list[dict[str, Any]] = []
    for ev in events:
        if isinstance(ev, TimeUp):
            out.append(over(game))
        elif isinstance(ev, TilesReplaced) and out and out[-1]["type"] == "word":
            refill = event(ev, letters)
            out[-1].update(changed=refill["changed"], words_left=refill["words_left"])
        else:
            out.append(event(ev, letters))
    return out


def error(exc: WibbleError, seq: int | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "error", "code": exc.code, "message": exc.message}
    if exc.request is not None:
        message["request"] = exc.request
    if seq is not None:
        message["seq"] = seq
    return message
