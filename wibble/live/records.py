"""A stored game's record, and the frames the replay page draws from it."""

from __future__ import annotations

from typing import Any

from .. import protocol
from ..core import Game, GameDataError, Move, Record, RecordError, RuleError, replay
from ..store import Store
from ..wordlists import WordLists

MATCH_RECORD_FORMAT = 1


def match_record(store: Store, match_id: str) -> dict[str, Any] | None:
    """A stored match's record (seed, list, settings, seats, every committed move, the match now),
    never its tokens; None if ``match_id`` is not a match. Matches have no replay page yet."""
    row = store.load(match_id)
    if row is None or row.kind != "match":
        return None
    # Until the match is over, its seed and draw counts stay secret: with them, anyone could
    # work out every tile still to come. The room code never leaves the room: a match id may
    # be shared, while the code lets anyone in to watch or take a free seat.
    over = row.doc.get("phase") == "over"
    hidden = {"tokens", "room"} if over else {"tokens", "room", "seed", "draws", "bot_draws"}
    doc = {key: value for key, value in row.doc.items() if key not in hidden}
    if not over and isinstance(doc.get("history"), list):
        # Each turn's best word waits for the end too: after a pass or a timeout the board
        # has not changed, so it is exactly what the next seat's hint sells.
        doc["history"] = [
            {key: value for key, value in turn.items() if key != "best"} if isinstance(turn, dict) else turn
            for turn in doc["history"]
        ]
    return {
        "format": MATCH_RECORD_FORMAT,
        "kind": "match",
        "match_id": match_id,
        "seed": doc.get("seed"),
        "wordlist": {"name": doc.get("wordlist"), "digest": doc.get("wordlist_digest")},
        "settings": doc.get("settings"),
        "seats": [
            {key: seat.get(key) for key in ("name", "kind", "level", "speed")}
            for seat in doc.get("seats", [])
            if isinstance(seat, dict)
        ],
        "moves": store.moves(match_id),
        "final": doc,
    }


def record_of(store: Store, game_id: str) -> Record:
    """The record of a stored game; ``RuleError`` game/not_found, or game/unavailable if it is damaged."""
    row = store.load(game_id)
    if row is None:
        raise RuleError("game/not_found", "no such game")
    if row.kind == "room":
        raise RuleError("game/not_found", "no such game")
    if row.kind == "match":
        raise RuleError("record/match", "this is a match: /games/<id>/record has its record; no replay yet")
    try:
        return Record.of(game_id, row.doc, store.moves(game_id))
    except (GameDataError, RecordError):
        raise RuleError("game/unavailable", "this game's record is damaged") from None


def replay_frames(record: Record, wordlists: WordLists) -> dict[str, Any]:
    """The board before every move and the move itself, as the replay page shows them.

    Replays the record with the server's list, so ``RecordError`` if the list changed
    or the replay does not reproduce the record; ``KeyError`` if the list is gone.
    """
    words = wordlists.get(record.wordlist)
    frames: list[dict[str, Any]] = []

    def keep(game: Game, move: Move) -> None:
        frames.append({"board": protocol.board(game), "move": protocol.move(move, words.letters)})

    game = replay(record, words, keep)
    return {
        "game_id": record.game_id,
        "wordlist": words.name,
        "wordlist_title": words.title,
        "seed": record.seed,
        "frames": frames,
        "final": {"board": protocol.board(game), "total": game.total},
    }
