"""An endless game held in memory, and how it is kept as a document (``documents.Kind``): the
game's ``to_doc`` plus its token's hash and, for a daily board's game, which day it is."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...core import Game, GameDataError, Phase, WordListError
from ...engines.store import Row
from ...wordlists import WordLists


@dataclass(eq=False)
class LiveGame:
    """A game in memory, with its lock (the session dragging its chain is ``game.owner``)."""

    game_id: str
    token_hash: bytes
    game: Game
    last_active: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    daily: dict[str, Any] | None = None
    """A daily board's game: its ``date``, ``day``, ``player`` (the hash of the player's id) and
    whether it is ``scored`` (the player's one attempt of the day) or a replay; None otherwise."""
    race: dict[str, Any] | None = None
    """A race runner's game: its ``race_id``, ``room`` code and ``seat``; None otherwise. Nobody holds
    its own token: the runner plays it through the room's seat."""

    @property
    def doc_id(self) -> str:
        return self.game_id

    @property
    def version(self) -> int:
        return self.game.version


class GameKind:
    """Games as documents. ``show(live)`` tells everyone on a game how it stands; ``follow(live)``
    sets its sprint's deadline from what it now holds."""

    name = "game"

    def __init__(self, show: Callable[[LiveGame], None], follow: Callable[[LiveGame], None]) -> None:
        self.show = show
        self.follow = follow

    def dump(self, live: LiveGame) -> dict[str, Any]:
        # The token's hash is kept with the game, as a match keeps its seats'.
        doc = {**live.game.to_doc(), "tokens": [live.token_hash.hex()]}
        if live.daily is not None:
            doc["daily"] = live.daily
        if live.race is not None:
            doc["race"] = live.race
        return doc

    def restore(self, live: LiveGame, doc: dict[str, Any]) -> None:
        live.game = Game.from_doc(doc, live.game.words)

    def reloaded(self, live: LiveGame, doc: dict[str, Any]) -> None:
        live.game = Game.from_doc(doc, live.game.words)
        if live.game.phase is Phase.CHAINING:
            live.game.cancel()
        self.show(live)
        self.follow(live)

    def due(self, live: LiveGame) -> float | None:
        """A sprint's end, until it is over (an untimed game has no deadline). Indexed by the store
        so that a sprint whose process died, or that nobody reopened after a restart, still ends
        on time, taken on by any process (``Games.adopt``): a daily board's score is entered then."""
        game = live.game
        return game.deadline if game.phase is not Phase.OVER else None

    def refresh(self, live: LiveGame, doc: dict[str, Any]) -> None:
        owner = live.game.owner
        live.game = Game.from_doc(doc, live.game.words)
        if live.game.phase is Phase.CHAINING:  # a chain is never stored; one dragged here goes on
            live.game.owner = owner
        self.follow(live)


def load(game_id: str, row: Row, wordlists: WordLists, now: float) -> LiveGame:
    """A stored game as it was saved; ``GameDataError`` if it cannot be played here."""
    tokens = row.doc.get("tokens")
    if not (isinstance(tokens, list) and len(tokens) == 1 and isinstance(tokens[0], str)):
        raise GameDataError("its token is damaged")
    try:
        hashed = bytes.fromhex(tokens[0])
    except ValueError:
        raise GameDataError("its token is damaged") from None
    name = row.doc.get("wordlist")
    try:
        words = wordlists.get(name if isinstance(name, str) else "")
    except KeyError:
        raise GameDataError(f"its word list {name!r} is no longer on this server") from None
    except WordListError as exc:
        raise GameDataError(f"its word list {name!r} cannot be loaded ({exc.message})") from None
    game = Game.from_doc(row.doc, words)
    daily, race = row.doc.get("daily"), row.doc.get("race")
    return LiveGame(
        game_id,
        hashed,
        game,
        now,
        daily=daily if isinstance(daily, dict) else None,
        race=race if isinstance(race, dict) else None,
    )
