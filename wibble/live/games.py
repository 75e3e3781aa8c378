"""Endless games in play: created here, loaded from the store on demand, let go when idle, and moved.

Memory is a cache of the store, never the only copy: a game leaves memory when
nobody has been connected to it for ``idle_timeout`` seconds, or to make room at
``max_games``, and comes back from the store the next time someone resumes it.

Every move goes through one ordered checklist, as in boardgame.io's master: the
session is on a game; the chain is its own (or free); the core checks phase and
tiles; a release is committed to the store with a compare-and-set on the game's
version; only then is it published. A refused command leaves the game as it was and
is answered to its sender alone; a commit that fails puts the game back exactly as
it stood before the release (chain and all), so the player can simply let go again.
"""

from __future__ import annotations

import hmac
import logging
import random
import threading
from dataclasses import dataclass, field
from typing import Any

from .. import protocol
from ..core import (
    Draws,
    Event,
    Game,
    GameDataError,
    HashParams,
    Move,
    Phase,
    RuleError,
    WordJudged,
    WordListError,
)
from ..protocol import Cancel, Command, Enter, Press, Release
from ..store import StorageError
from .bus import EVERYONE, Audience, only
from .credentials import new_token, token_hash
from .documents import Documents
from .parts import Parts, Service
from .sessions import Credential, Session

log = logging.getLogger(__name__)


@dataclass(eq=False)
class LiveGame:
    """A game in memory, with its lock (the session dragging its chain is ``game.owner``)."""

    game_id: str
    token_hash: bytes
    game: Game
    last_active: float
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def doc_id(self) -> str:
        return self.game_id

    @property
    def version(self) -> int:
        return self.game.version


class Games(Service):
    """The endless games in memory, backed by ``store``.

    Every board of its new games allows at least ``min_words`` words still to find
    (as far as the list can: see ``wibble.core.game.MAX_DRAWS``). Only when
    ``max_games`` games are in memory and every one has someone connected does a
    new game get ``server/full``; an unattended game simply leaves memory.
    """

    def __init__(
        self,
        parts: Parts,
        idle_timeout: float = 3600.0,
        max_games: int = 10_000,
        entropy: random.Random | None = None,
        min_words: int = 0,
    ) -> None:
        super().__init__(parts)
        self.clock = clock = parts.clock
        self.wall_clock = wall_clock = parts.wall_clock
        self.idle_timeout = idle_timeout
        self.min_words = min_words
        # Seeds and hash bases come from the OS's randomness unless a test injects some.
        self._entropy = entropy or random.SystemRandom()
        self.docs: Documents[LiveGame] = Documents(
            self,
            parts.store,
            parts.presence,
            clock,
            wall_clock,
            max_games,
            "the server is full of games in play; try again later",
            idle_timeout,
        )
        self._last_sweep = clock()
        self._logged_unavailable: set[str] = set()

    def __len__(self) -> int:
        return len(self.docs)

    def get(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory."""
        return self.docs.get(game_id)

    # -- the document's kind (see ``documents.Kind``) ---------------------------------------

    name = "game"

    def dump(self, live: LiveGame) -> dict[str, Any]:
        # The token's hash is kept with the game, as a match keeps its seats'.
        return {**live.game.to_doc(), "tokens": [live.token_hash.hex()]}

    def restore(self, live: LiveGame, doc: dict[str, Any]) -> None:
        live.game = Game.from_doc(doc, live.game.words)

    def reloaded(self, live: LiveGame, doc: dict[str, Any]) -> None:
        live.game = Game.from_doc(doc, live.game.words)
        if live.game.phase is Phase.CHAINING:
            live.game.cancel()
        self._publish_snapshot(live, EVERYONE)

    def due(self, live: LiveGame) -> float | None:
        return None  # an endless game has no deadline

    def refresh(self, live: LiveGame, doc: dict[str, Any]) -> None:
        owner = live.game.owner
        live.game = Game.from_doc(doc, live.game.words)
        if live.game.phase is Phase.CHAINING:  # a chain is never stored; one dragged here goes on
            live.game.owner = owner

    def create(self, wordlist: str | None, seed: int | None, address: str) -> tuple[LiveGame, str]:
        """A new game, saved before anyone sees it; returns it and its secret token.

        Everything that can refuse it is asked before ``address``'s budget is spent on it."""
        words = self.wordlists.for_player(wordlist)
        self.sweep()
        self.docs.make_room()
        self.budgets.new_game(address)
        if seed is None:
            seed = self._entropy.randrange(protocol.MAX_SEED + 1)
        game = Game(words, Draws(seed), HashParams.draw(self._entropy), min_words=self.min_words)
        game_id, token = new_token(12), new_token(24)
        live = LiveGame(game_id, token_hash(token), game, self.clock())
        return self.docs.create(live), token

    def open(self, game_id: str, token: str) -> LiveGame:
        """The game ``game_id`` if ``token`` opens it, from memory or else from the store."""
        live = self.docs.get(game_id) or self._load(game_id)
        if not hmac.compare_digest(live.token_hash, token_hash(token)):
            raise RuleError("game/bad_token", "that token does not open this game")
        return live

    def sweep(self, force: bool = False) -> int:
        """Let go of games nobody has been connected to for ``idle_timeout``; returns how many."""
        now = self.clock()
        # Scanning every game on every create would be O(games); once in a while is enough.
        if not force and now - self._last_sweep < min(60.0, self.idle_timeout / 2):
            return 0
        self._last_sweep = now
        return self.docs.sweep()

    # -- sessions ----------------------------------------------------------------------

    def attach(self, session: Session, live: LiveGame, token: str) -> None:
        """``session`` plays ``live`` from now on (the router has made it leave what it had)."""
        gid = live.game_id
        credential = Credential.of(token)
        with live.lock:
            if live.game.owner not in (None, session.id):
                # The same player, back from elsewhere (a phone that changed network
                # leaves its old socket half open for a minute): their new tab plays now.
                self._drop_chain(live)
            session.game, session.credentials[gid] = gid, credential
            self.bus.subscribe(gid, session)
            self.presence.join(gid, session.id, credential.holder)
            live.last_active = self.clock()
            self._publish_snapshot(live, only(session.id))
        self.docs.touch(live)

    def leave(self, session: Session) -> None:
        """``session`` leaves its game (on disconnect, or when it opens something else)."""
        gid, session.game = session.game, None
        if gid is None:
            return
        session.credentials.pop(gid, None)
        live = self.docs.get(gid)
        self.bus.unsubscribe(gid, session)
        self.presence.leave(gid, session.id)
        if live is None:
            return
        with live.lock:
            live.last_active = self.clock()
            if live.game.owner == session.id:
                self._drop_chain(live)

    def move(self, session: Session, command: Command) -> None:
        gid = session.game
        live = self.docs.get(gid)
        if live is None:
            raise RuleError("game/none", "no game yet: send new_game or resume first")
        with live.lock:
            game = live.game
            # The session is the actor: the core checks that only the one that pressed goes on.
            if isinstance(command, Press):
                events = game.press(command.pos, session.id)
            elif isinstance(command, Enter):
                events = game.enter(command.pos, session.id)
            elif isinstance(command, Cancel):
                events = game.cancel(session.id)
            elif isinstance(command, Release):
                events = self._commit_release(live, session.id)
            else:  # pragma: no cover - the router sends only the types above
                raise TypeError(command)
            live.last_active = self.clock()
            self._publish(live, events, session.id, command.seq)

    # -- committing ----------------------------------------------------------------------

    def _commit_release(self, live: LiveGame, actor: str) -> list[Event]:
        """Judge the chain and refill, and commit both; on a failed commit, undo both."""
        game = live.game
        path = game.chain

        def record(events: list[Event]) -> dict[str, Any]:
            judged = events[0]
            assert isinstance(judged, WordJudged)
            return Move.of(path, judged).to_doc()

        try:
            return self.docs.commit(live, lambda: game.release(actor) + game.clean_up(), record)
        except StorageError:
            live.game.owner = actor  # the chain is still theirs, to release again (owners are not saved)
            raise

    def _drop_chain(self, live: LiveGame) -> None:
        if live.game.phase is Phase.CHAINING:
            self._publish(live, live.game.cancel(live.game.owner))

    def _publish(
        self, live: LiveGame, events: list[Event], origin: str | None = None, seq: int | None = None
    ) -> None:
        letters = live.game.words.letters
        self.bus.publish(
            live.game_id, [protocol.event(event, letters) for event in events], EVERYONE, origin, seq
        )

    def _publish_snapshot(self, live: LiveGame, audience: Audience) -> None:
        snapshot = protocol.snapshot(live.game, live.game_id, "")
        self.bus.publish(live.game_id, [protocol.personal(snapshot, [live.token_hash.hex()])], audience)

    # -- memory --------------------------------------------------------------------------

    def _load(self, game_id: str) -> LiveGame:
        try:
            row = self.store.load(game_id)
            if row is None or row.kind != "game":
                raise RuleError("game/not_found", "no such game (it may have expired); start a new one")
            tokens = row.doc.get("tokens")
            if not (isinstance(tokens, list) and len(tokens) == 1 and isinstance(tokens[0], str)):
                raise GameDataError("its token is damaged")
            try:
                hashed = bytes.fromhex(tokens[0])
            except ValueError:
                raise GameDataError("its token is damaged") from None
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
        self.sweep()
        return self.docs.keep(LiveGame(game_id, hashed, game, self.clock()))
