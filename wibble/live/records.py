"""A stored game's record, and the frames the replay page draws from it."""

from __future__ import annotations

from typing import Any

from .. import protocol
from ..core import Game, GameDataError, Move, Record, RecordError, RuleError, replay
from ..store import Store
from ..wordlists import WordLists


def record_of(store: Store, game_id: str) -> Record:
    """The record of a stored game; ``RuleError`` game/not_found, or game/unavailable if it is damaged."""
    row = store.load(game_id)
    if row is None:
        raise RuleError("game/not_found", "no such game")
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
