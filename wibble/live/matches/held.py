"""A match held in memory, and how it is kept as a document (``documents.Kind``): the match's
``to_doc`` plus its seats' token hashes, its room's code and, on a bot's turn, when the bot is
done thinking (planned in the commit that gave it the turn)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...core import GameDataError, Pos, RuleError, WordListError
from ...core.match import Match, Phase
from ...core.match import restore as restore_match
from ...engines.store import Row
from ...wordlists import WordLists

log = logging.getLogger(__name__)


@dataclass(slots=True)
class BotTurn:
    """A bot's turn in progress: which turn, when it begins its word, whether it shuffled, and the
    path it is dragging. Which turn and when are saved in the match's document with the commit
    that gave the bot its turn, so a process that takes the match over (or this one, restarted)
    goes on at that time; the drag itself is this process's own, begun again by another."""

    turn_no: int
    at: float = 0.0
    """When the bot is done thinking (wall-clock)."""
    shuffled: bool = False
    path: tuple[Pos, ...] = ()
    step: int = 0


@dataclass(eq=False)
class LiveMatch:
    match_id: str
    holders: list[str | None]
    """Per seat: the hash (hex) of the token that acts as it (None for a bot). A room's match takes
    them from the room's seats (``RoomMatches.set_holders``); they are stored only for a match of its own."""
    match: Match
    last_active: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    ended: bool = False
    """The match ended under its lock: its room is told once the lock is let go."""
    bot: BotTurn | None = None
    room: str | None = None
    """The code of the room this match is played in (its seats act through the room, not tokens)."""
    stand_ins: dict[int, str] = field(default_factory=dict)
    """People's seats a bot plays for now (away past the grace period, or gone), with its level."""
    dragger: str | None = None
    """The session that pressed the chain being dragged: only it may go on with it (another tab
    of the same seat gets ``state/not_your_chain``, as in a game). Ephemeral, like the chain."""

    @property
    def doc_id(self) -> str:
        return self.match_id

    @property
    def version(self) -> int:
        return self.match.version


class MatchKind:
    """Matches as documents. ``show(live)`` tells everyone on a match how it stands;
    ``follow(live)`` sets its deadlines from what it now holds."""

    name = "match"

    def __init__(self, show: Callable[[LiveMatch], None], follow: Callable[[LiveMatch], None]) -> None:
        self.show = show
        self.follow = follow

    def dump(self, live: LiveMatch) -> dict[str, Any]:
        doc = live.match.to_doc()
        bot = live.bot
        if bot is not None and bot.turn_no == live.match.turn_no and live.match.phase is Phase.PLAYING:
            doc["bot"] = {"turn_no": bot.turn_no, "at": bot.at}
        if live.room is not None:  # its seats are the room's: their tokens are kept there
            return {**doc, "tokens": [None] * len(live.holders), "room": live.room}
        return {**doc, "tokens": list(live.holders)}

    def restore(self, live: LiveMatch, doc: dict[str, Any]) -> None:
        live.match = restore_match(doc, live.match.words)  # (its bot's turn: see ``Matches.commit``)

    def reloaded(self, live: LiveMatch, doc: dict[str, Any]) -> None:
        live.match = restore_match(without_drag(doc), live.match.words)
        live.bot = bot_of(doc, live.match, None)
        live.dragger = None
        self.show(live)
        self.follow(live)

    def refresh(self, live: LiveMatch, doc: dict[str, Any]) -> None:
        live.match = restore_match(without_drag(doc), live.match.words)
        # The turn moved on elsewhere: a bot's turn goes on at the time its document says (a
        # drag under way here, in the same turn, goes on).
        live.bot = bot_of(doc, live.match, live.bot)
        live.dragger = None
        self.follow(live)

    def due(self, live: LiveMatch) -> None:
        """None: a match nobody is connected to stands still (its turn's end is in its document,
        and runs when someone opens it again), so no process takes it on. One with somebody
        connected is held by their process; a room's match runs while its room is held."""
        return None


def without_drag(doc: dict[str, Any]) -> dict[str, Any]:
    """A stored match as a copy rebuilt from the store takes it: without the drag its document
    may hold (saved with a power used mid-drag, to be put back if that save failed). No tab here
    is dragging it, and a chain no tab owns would refuse the seat's next press (already
    chaining). A drag is ephemeral: one under way on another process goes on there (each of its
    steps is told whole), and one under way here is refused at its next step and begun again."""
    return {**doc, "chain": []}


def load(match_id: str, row: Row | None, wordlists: WordLists, now: float) -> LiveMatch:
    """A stored match as it was saved; ``RuleError`` if there is none, or it cannot be played here."""
    if row is None or row.kind != "match":
        raise RuleError("game/not_found", "no such match (it may have expired); start a new one")
    try:
        name = row.doc.get("wordlist")
        try:
            words = wordlists.get(name if isinstance(name, str) else "")
        except (KeyError, WordListError):
            raise GameDataError(f"its word list {name!r} cannot be loaded here") from None
        match = restore_match(without_drag(row.doc), words)
        bot = bot_of(row.doc, match, None)
        tokens = row.doc.get("tokens", [])
        if len(tokens) != len(match.seats) or not all(h is None or bytes.fromhex(h) for h in tokens):
            raise GameDataError("its seats' tokens are damaged")
        room = row.doc.get("room")
        if not (room is None or isinstance(room, str)):
            raise GameDataError("its room is damaged")
    except (GameDataError, ValueError, TypeError) as exc:
        log.warning("stored match %s cannot be played: %s", match_id, exc)
        raise RuleError("game/unavailable", "this saved match cannot be loaded on this server") from None
    return LiveMatch(match_id, tokens, match, now, room=room, bot=bot)


def bot_of(doc: dict[str, Any], match: Match, current: BotTurn | None) -> BotTurn | None:
    """The bot's turn a match's document plans for its turn now (None: none), unless this process
    has one for that very turn already (its drag may be under way)."""
    if current is not None and current.turn_no == match.turn_no:
        return current
    plan = doc.get("bot")
    if not isinstance(plan, dict) or plan.get("turn_no") != match.turn_no:
        return None
    at = plan.get("at")
    return (
        BotTurn(match.turn_no, float(at))
        if isinstance(at, int | float) and not isinstance(at, bool)
        else None
    )
