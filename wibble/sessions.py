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
from .core import Game, HashParams, RuleError, WordListError
from .protocol import Cancel, Command, Enter, NewGame, Press, Release, Resume
from .wordlists import WordLists

Listener = Callable[[dict[str, Any]], None]


@dataclass
class Room:
    game_id: str
    token: str
    seed: int
    game: Game
    last_active: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    listeners: set[Player] = field(default_factory=set)

    def snapshot(self) -> dict[str, Any]:
        return protocol.snapshot(self.game, self.game_id, self.token, self.seed)


class Lobby:
    """All games on this server, with bounded memory: idle games expire, and there is a cap."""

    def __init__(
        self,
        wordlists: WordLists,
        clock: Callable[[], float],
        idle_timeout: float = 3600.0,
        max_games: int = 10_000,
        entropy: random.Random | None = None,
    ) -> None:
        self.wordlists = wordlists
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
        except WordListError as exc:
            raise RuleError(
                "game/wordlist_unavailable", f"word list {wordlist!r} cannot be loaded: {exc.message}"
            ) from None
        if seed is None:
            seed = self._entropy.randrange(protocol.MAX_SEED + 1)
        game = Game(words, random.Random(seed), HashParams.draw(self._entropy))
        now = self.clock()
        with self._lock:
            self._sweep(now)
            if len(self._rooms) >= self.max_games:
                raise RuleError("server/full", "the server holds as many games as it can; try again later")
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

    def sweep(self) -> int:
        """Forget games nobody is connected to that have been idle too long; returns how many."""
        with self._lock:
            return self._sweep(self.clock(), force=True)

    def _sweep(self, now: float, force: bool = False) -> int:
        # Scanning every game on every create would be O(games); once in a while is enough.
        if not force and now - self._last_sweep < min(60.0, self.idle_timeout / 2):
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


class Player:
    """One connection: at most one game at a time, and a way to send it messages."""

    def __init__(self, lobby: Lobby, send: Listener) -> None:
        self.lobby = lobby
        self.send = send
        self.room: Room | None = None

    def handle(self, command: Command) -> None:
        """Apply one command; a ``WibbleError`` means nothing changed and only this player hears."""
        if isinstance(command, NewGame):
            self._join(self.lobby.create(command.wordlist, command.seed))
        elif isinstance(command, Resume):
            self._join(self.lobby.find(command.game_id, command.token))
        else:
            self._play(command)

    def leave(self) -> None:
        room, self.room = self.room, None
        if room is not None:
            with room.lock:
                room.listeners.discard(self)
                room.last_active = self.lobby.clock()

    def _join(self, room: Room) -> None:
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
            elif isinstance(command, Enter):
                events = game.enter(command.pos)
            elif isinstance(command, Cancel):
                events = game.cancel()
            elif isinstance(command, Release):
                # Clean-up follows at once: nothing else can run on this game in between.
                events = game.release() + game.clean_up()
            else:  # pragma: no cover - parse() returns only the types above
                raise TypeError(command)
            room.last_active = self.lobby.clock()
            for message in map(protocol.event, events):
                for listener in list(room.listeners):
                    listener.send(message)
