"""Games on the server: who holds which game, and who hears about its changes.

- ``Lobby`` keeps the games by id, creates and resumes them, and forgets idle ones.
- ``Room`` is one game with its secret token, its lock, and its listeners.
- ``Player`` is one connection's view: it turns commands into core calls and
  broadcasts the resulting events to every connection on the same game.

No sockets here: a listener is any callable taking a message dict, so the same
code runs under the websocket handler and in tests.
"""

from __future__ import annotations

import hmac
import random
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import protocol
from .core import Event, Game, HashParams, Phase, RuleError, WordListError
from .protocol import Cancel, Command, Enter, NewGame, Press, Release, Resume
from .wordlists import WordLists

Listener = Callable[[dict[str, Any]], None]


@dataclass(eq=False)
class Room:
    game_id: str
    token: str
    seed: int
    game: Game
    last_active: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    listeners: set[Player] = field(default_factory=set)
    # The connection dragging the current chain: only it may extend, release or
    # cancel it, and if it disconnects mid-drag the chain is cancelled for everyone.
    dragger: Player | None = None

    def snapshot(self) -> dict[str, Any]:
        return protocol.snapshot(self.game, self.game_id, self.token, self.seed)

    def broadcast(self, events: list[Event]) -> None:
        """Send events to every listener; call with ``lock`` held so all see one order."""
        for message in (protocol.event(ev, self.game.words.letters) for ev in events):
            for listener in list(self.listeners):
                listener.send(message)


class Lobby:
    """All games on this server, in bounded memory.

    Every board of its games allows at least ``min_words`` words still to find
    (as far as the list can: see ``wibble.core.game.MAX_DRAWS``).
    A game nobody is connected to is forgotten after ``idle_timeout`` seconds.
    At ``max_games``, the longest-unattended game makes room for a new one, so
    abandoned games can never lock players out; only when every game has a
    player connected does ``new_game`` answer ``server/full``.
    """

    def __init__(
        self,
        wordlists: WordLists,
        clock: Callable[[], float],
        idle_timeout: float = 3600.0,
        max_games: int = 10_000,
        entropy: random.Random | None = None,
        min_words: int = 0,
    ) -> None:
        self.wordlists = wordlists
        self.min_words = min_words
        self.clock = clock
        self.idle_timeout = idle_timeout
        self.max_games = max_games
        # Seeds and hash bases come from here; the OS's randomness unless a test injects one.
        self._entropy = entropy or random.SystemRandom()
        self._rooms: dict[str, Room] = {}
        self._lock = threading.Lock()
        self._last_sweep = clock()

    def __len__(self) -> int:
        return len(self._rooms)

    def create(self, wordlist: str | None, seed: int | None) -> Room:
        try:
            words = self.wordlists.get(wordlist)
        except KeyError:
            names = ", ".join(self.wordlists.names())
            raise RuleError(
                "game/unknown_wordlist", f"no word list named {wordlist!r} (have: {names})"
            ) from None
        except WordListError:
            # The detail (file and line) is for the host's log (WordLists wrote it), not for players.
            raise RuleError(
                "game/wordlist_unavailable",
                f"word list {wordlist!r} cannot be loaded; the server log says why",
            ) from None
        if seed is None:
            seed = self._entropy.randrange(protocol.MAX_SEED + 1)
        game = Game(words, random.Random(seed), HashParams.draw(self._entropy), min_words=self.min_words)
        now = self.clock()
        with self._lock:
            self._sweep(now)
            if len(self._rooms) >= self.max_games and not self._evict_one():
                raise RuleError("server/full", "the server is full of games in play; try again later")
            room = Room(secrets.token_urlsafe(12), secrets.token_urlsafe(24), seed, game, now)
            self._rooms[room.game_id] = room
        return room

    def find(self, game_id: str, token: str) -> Room:
        room = self._rooms.get(game_id)
        if room is None:
            raise RuleError("game/not_found", "no such game (it may have expired); start a new one")
        if not hmac.compare_digest(room.token.encode(), token.encode()):
            raise RuleError("game/bad_token", "that token does not open this game")
        return room

    def discard(self, room: Room) -> None:
        """Forget a game at once if nobody is connected to it."""
        with self._lock:
            if not room.listeners:
                self._rooms.pop(room.game_id, None)

    def _sweep(self, now: float) -> int:
        """Forget games nobody is connected to that have been idle too long; returns how many."""
        # Scanning every game on every create would be O(games); once in a while is enough.
        if now - self._last_sweep < min(60.0, self.idle_timeout / 2):
            return 0
        self._last_sweep = now
        stale = [
            gid
            for gid, room in self._rooms.items()
            if not room.listeners and now - room.last_active > self.idle_timeout
        ]
        for gid in stale:
            del self._rooms[gid]
        return len(stale)

    def _evict_one(self) -> bool:
        unattended = [room for room in self._rooms.values() if not room.listeners]
        if not unattended:
            return False
        # Games nobody has scored in go first, then the longest unattended: a flood of
        # throwaway games should not push out a real player who is just reconnecting.
        oldest = min(unattended, key=lambda room: (room.game.total > 0, room.last_active))
        del self._rooms[oldest.game_id]
        return True


class Player:
    """One connection: at most one game at a time, and a way to send it messages."""

    def __init__(self, lobby: Lobby, send: Listener) -> None:
        self.lobby = lobby
        self.send = send
        self.room: Room | None = None

    def handle(self, command: Command) -> None:
        """Apply one command; a ``WibbleError`` means nothing changed and only this player hears."""
        if isinstance(command, NewGame):
            room = self.lobby.create(command.wordlist, command.seed)
            abandoned = self.room
            self._join(room)
            if abandoned is not None:
                # "New game" means the old one is over, unless another tab still plays it.
                self.lobby.discard(abandoned)
        elif isinstance(command, Resume):
            self._join(self.lobby.find(command.game_id, command.token))
        else:
            self._play(command)

    def leave(self) -> None:
        """Detach from the game (on disconnect or when switching games)."""
        room, self.room = self.room, None
        if room is None:
            return
        with room.lock:
            room.listeners.discard(self)
            room.last_active = self.lobby.clock()
            if room.dragger is self:
                room.dragger = None
                if room.game.phase is Phase.CHAINING:
                    room.broadcast(room.game.cancel())

    def _join(self, room: Room) -> None:
        if room is self.room:
            with room.lock:
                self.send(room.snapshot())
            return
        self.leave()
        with room.lock:
            room.listeners.add(self)
            room.last_active = self.lobby.clock()
            self.room = room
            self.send(room.snapshot())

    def _play(self, command: Command) -> None:
        room = self.room
        if room is None:
            raise RuleError("game/none", "no game yet: send new_game or resume first")
        with room.lock:
            game = room.game
            if isinstance(command, Press):
                events = game.press(command.pos)
                room.dragger = self
            else:
                if game.phase is Phase.CHAINING and room.dragger not in (self, None):
                    raise RuleError("state/not_your_chain", "another tab is dragging a chain on this game")
                if isinstance(command, Enter):
                    events = game.enter(command.pos)
                elif isinstance(command, Cancel):
                    events = game.cancel()
                    room.dragger = None
                elif isinstance(command, Release):
                    # Clean-up follows at once: nothing else can run on this game in between.
                    events = game.release() + game.clean_up()
                    room.dragger = None
                else:  # pragma: no cover - parse() returns only the types above
                    raise TypeError(command)
            room.last_active = self.lobby.clock()
            room.broadcast(events)
