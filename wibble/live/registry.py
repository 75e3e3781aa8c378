"""Which games are in memory: created here, loaded from the store on demand, let go when idle.

Memory is a cache of the store, never the only copy: a game leaves memory when
nobody has been connected to it for ``idle_timeout`` seconds, or to make room at
``max_games``, and comes back from the store the next time someone resumes it.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import protocol
from ..core import Draws, Game, GameDataError, HashParams, RuleError, WordList, WordListError
from ..store import Store
from ..wordlists import WordLists
from .fanout import Fanout

log = logging.getLogger(__name__)


def words_for_player(wordlists: WordLists, wordlist: str | None) -> WordList:
    """The list a player asked for by name (None: the default), or a ``RuleError`` they can act on."""
    try:
        return wordlists.get(wordlist)
    except KeyError:
        names = ", ".join(wordlists.names())
        raise RuleError("game/unknown_wordlist", f"no word list named {wordlist!r} (have: {names})") from None
    except WordListError:
        # The detail (file and line) is for the host's log (WordLists wrote it), not for players.
        raise RuleError(
            "game/wordlist_unavailable", f"word list {wordlist!r} cannot be loaded; the server log says why"
        ) from None


def new_token(nbytes: int = 24) -> str:
    """A secret (an id or a token) from the OS: never from an injected, seeded entropy, which a
    test may make guessable."""
    return secrets.token_urlsafe(nbytes)


def token_hash(token: str) -> bytes:
    """What the store keeps instead of a token: a database that leaks lets nobody play."""
    return hashlib.sha256(token.encode()).digest()


@dataclass(eq=False)
class LiveGame:
    """A game in memory, with its lock (the connection dragging its chain is ``game.owner``)."""

    game_id: str
    token_hash: bytes
    game: Game
    last_active: float
    lock: threading.Lock = field(default_factory=threading.Lock)


class Registry:
    """The games in memory, backed by ``store``.

    Every board of its new games allows at least ``min_words`` words still to find
    (as far as the list can: see ``wibble.core.game.MAX_DRAWS``). Only when
    ``max_games`` games are in memory and every one has someone connected does a
    new game get ``server/full``; an unattended game simply leaves memory.
    """

    def __init__(
        self,
        store: Store,
        wordlists: WordLists,
        fanout: Fanout,
        clock: Callable[[], float],
        wall_clock: Callable[[], float],
        idle_timeout: float = 3600.0,
        max_games: int = 10_000,
        entropy: random.Random | None = None,
        min_words: int = 0,
    ) -> None:
        self.store = store
        self.wordlists = wordlists
        self.fanout = fanout
        self.clock = clock
        self.wall_clock = wall_clock
        self.idle_timeout = idle_timeout
        self.max_games = max_games
        self.min_words = min_words
        # Seeds, ids, tokens and hash bases come from the OS's randomness unless a test injects some.
        self._entropy = entropy or random.SystemRandom()
        self._games: dict[str, LiveGame] = {}
        self._lock = threading.Lock()
        self._last_sweep = clock()
        self._logged_unavailable: set[str] = set()

    def __len__(self) -> int:
        return len(self._games)

    def create(self, wordlist: str | None, seed: int | None) -> tuple[LiveGame, str]:
        """A new game, saved before anyone sees it; returns it and its secret token."""
        words = self._words(wordlist)
        if seed is None:
            seed = self._entropy.randrange(protocol.MAX_SEED + 1)
        game = Game(words, Draws(seed), HashParams.draw(self._entropy), min_words=self.min_words)
        game_id, token = self._token(12), self._token(24)
        live = LiveGame(game_id, token_hash(token), game, self.clock())
        self.store.create(game_id, live.token_hash, game.to_doc(), self.wall_clock())
        self._keep(live)
        return live, token

    def open(self, game_id: str, token: str) -> LiveGame:
        """The game ``game_id`` if ``token`` opens it, from memory or else from the store."""
        live = self._games.get(game_id) or self._load(game_id)
        if not hmac.compare_digest(live.token_hash, token_hash(token)):
            raise RuleError("game/bad_token", "that token does not open this game")
        return live

    def forget(self, live: LiveGame) -> None:
        """Let a game go from memory (the store keeps it), e.g. after another process changed it."""
        with self._lock:
            if self._games.get(live.game_id) is live:
                del self._games[live.game_id]

    def sweep(self, force: bool = False) -> int:
        """Let go of games nobody has been connected to for ``idle_timeout``; returns how many."""
        now = self.clock()
        # Scanning every game on every create would be O(games); once in a while is enough.
        if not force and now - self._last_sweep < min(60.0, self.idle_timeout / 2):
            return 0
        self._last_sweep = now
        with self._lock:
            stale = [
                gid
                for gid, live in self._games.items()
                if not self.fanout.count(gid) and now - live.last_active > self.idle_timeout
            ]
            for gid in stale:
                del self._games[gid]
        return len(stale)

    # -- helpers ----------------------------------------------------------------------

    def _token(self, nbytes: int) -> str:
        return new_token(nbytes)

    def _words(self, wordlist: str | None) -> WordList:
        return words_for_player(self.wordlists, wordlist)

    def _load(self, game_id: str) -> LiveGame:
        try:
            row = self.store.load(game_id)
            if row is None or row.doc.get("kind") == "match":
                raise RuleError("game/not_found", "no such game (it may have expired); start a new one")
            name = row.doc.get("wordlist")
            try:
                words = self.wordlists.get(name if isinstance(name, str) else "")
            except KeyError:
                raise GameDataError(f"its word list {name!r} is no longer on this server") from None
            except WordListError as exc:
                raise GameDataError(f"its word list {name!r} cannot be loaded ({exc.message})") from None
            game = Game.from_doc(row.doc, words)
        except GameDataError as exc:
            if game_id not in self._logged_unavailable:
                self._logged_unavailable.add(game_id)
                log.warning("stored game %s cannot be played: %s", game_id, exc.message)
            raise RuleError(
                "game/unavailable", "this saved game cannot be loaded on this server; start a new one"
            ) from None
        live = LiveGame(game_id, row.token_hash, game, self.clock())
        return self._keep(live)

    def _keep(self, live: LiveGame) -> LiveGame:
        """Hold ``live`` in memory (or the copy another greenlet loaded meanwhile)."""
        self.sweep()
        with self._lock:
            held = self._games.get(live.game_id)
            if held is not None:
                return held
            if len(self._games) >= self.max_games and not self._evict_one():
                raise RuleError("server/full", "the server is full of games in play; try again later")
            self._games[live.game_id] = live
        return live

    def _evict_one(self) -> bool:
        unattended = [live for gid, live in self._games.items() if not self.fanout.count(gid)]
        if not unattended:
            return False
        oldest = min(unattended, key=lambda live: live.last_active)
        del self._games[oldest.game_id]
        return True
