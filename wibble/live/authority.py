"""The authority: applies a client's command to its game, commits it, then tells everyone.

One ordered checklist for every move, as in boardgame.io's master: the client has a
game; the chain is theirs (or free); the core checks phase and tiles; a release is
committed to the store with a compare-and-set on the game's version; only then do
the listeners hear of it. A refused command leaves the game as it was and is
answered to its sender alone; a commit that fails puts the game back exactly as it
stood before the release (chain and all), so the player can simply let go again.
"""

from __future__ import annotations

import logging

from .. import protocol
from ..core import Event, Game, Move, Phase, RuleError, WordJudged
from ..protocol import (
    Cancel,
    Command,
    Enter,
    MatchCommand,
    NewGame,
    NewMatch,
    Press,
    Release,
    Resume,
    ResumeMatch,
    RoomCommand,
)
from ..store import StorageError, VersionConflict
from .budgets import Budgets
from .clients import Client
from .fanout import Fanout
from .matches import BotPace, Matches
from .registry import LiveGame, Registry
from .rooms import RoomLimits, Rooms
from .timers import Timers

log = logging.getLogger(__name__)


class Authority:
    """Routes each command to the endless game or the match its connection is on."""

    def __init__(
        self,
        registry: Registry,
        budgets: Budgets | None = None,
        pace: BotPace | None = None,
        round_pause: float = 3.0,
        room_limits: RoomLimits | None = None,
    ) -> None:
        self.registry = registry
        self.store = registry.store
        self.fanout: Fanout = registry.fanout
        self.budgets = budgets or Budgets.unlimited(registry.clock)
        # Match deadlines are wall-clock times: they are saved, and must mean the same after a restart.
        self.timers = Timers(registry.wall_clock)
        self.matches: Matches = Matches(
            registry.store,
            registry.wordlists,
            registry.fanout,
            self.timers,
            registry.wall_clock,
            self.budgets,
            pace,
            min_words=registry.min_words,
            idle_timeout=registry.idle_timeout,
            round_pause=round_pause,
            max_matches=registry.max_games,
        )
        self.rooms = Rooms(
            registry.store,
            registry.wordlists,
            registry.fanout,
            self.matches,
            self.timers,
            registry.wall_clock,
            self.budgets,
            room_limits,
            round_pause=round_pause,
        )
        # Whatever a connection opens, it first leaves what it had (which stays saved).
        self.matches.on_attach = self._leave_for_match
        self.rooms.on_attach = self._leave_for_room

    def handle(self, client: Client, command: Command) -> None:
        """Apply one command; a ``WibbleError`` means nothing changed and only ``client`` hears.

        A connection leaves its game or match only once the one it asked for is open:
        a refused ``resume`` or ``new_match`` leaves it where it was.
        """
        opens = isinstance(command, NewGame | Resume | NewMatch | ResumeMatch)
        if isinstance(command, RoomCommand):
            self.rooms.handle(client, command)
            return
        if client.room is not None and not opens:
            self.rooms.move(client, command)
            return
        on_match = client.match is not None and not isinstance(command, NewGame | Resume)
        if isinstance(command, MatchCommand) or on_match:
            self.matches.handle(client, command)
            return
        if isinstance(command, NewGame):
            self.budgets.new_game(client.address)
            live, token = self.registry.create(command.wordlist, command.seed)
            self._attach(client, live, token)
        elif isinstance(command, Resume):
            self.budgets.check_resume(client.address)
            try:
                live = self.registry.open(command.game_id, command.token)
            except RuleError as exc:
                if exc.code in ("game/not_found", "game/bad_token"):
                    self.budgets.failed_resume(client.address)
                raise
            self._attach(client, live, command.token)
        else:
            self._move(client, command)

    def leave(self, client: Client) -> None:
        """Detach ``client`` from its game, match or room (on disconnect)."""
        self.rooms.leave(client)
        self.matches.leave(client)
        self.leave_game(client)

    def _leave_for_match(self, client: Client) -> None:
        self.rooms.leave(client)
        self.leave_game(client)

    def _leave_for_room(self, client: Client) -> None:
        if client.room is None:
            self.matches.leave(client)
        self.leave_game(client)

    def leave_game(self, client: Client) -> None:
        """Detach ``client`` from its endless game (on disconnect, or when it opens another)."""
        live, client.game, client.token = client.game, None, None
        if live is None:
            return
        with live.lock:
            self.fanout.remove(live.game_id, client)
            live.last_active = self.registry.clock()
            if live.game.owner is client:
                self._drop_chain(live)

    # -- the checklist -----------------------------------------------------------------

    def _attach(self, client: Client, live: LiveGame, token: str) -> None:
        self.rooms.leave(client)
        self.matches.leave(client)
        if live is not client.game:
            self.leave_game(client)
        with live.lock:
            if live.game.owner not in (None, client):
                # The same player, back from elsewhere (a phone that changed network
                # leaves its old socket half open for a minute): their new tab plays now.
                self._drop_chain(live)
            self.fanout.add(live.game_id, client)
            client.game, client.token = live, token
            live.last_active = self.registry.clock()
            client.deliver(protocol.encode(protocol.snapshot(live.game, live.game_id, token)))
        try:
            self.store.touch(live.game_id, self.registry.wall_clock())
        except StorageError as exc:  # only the retention clock missed a beat
            log.warning("could not note that game %s was opened: %s", live.game_id, exc.reason)

    def _move(self, client: Client, command: Command) -> None:
        live = client.game
        if live is None:
            raise RuleError("game/none", "no game yet: send new_game or resume first")
        with live.lock:
            game = live.game
            # The connection is the actor: the core checks that only the one that pressed goes on.
            if isinstance(command, Press):
                events = game.press(command.pos, client)
            elif isinstance(command, Enter):
                events = game.enter(command.pos, client)
            elif isinstance(command, Cancel):
                events = game.cancel(client)
            elif isinstance(command, Release):
                events = self._commit_release(live, client)
            else:  # pragma: no cover - parse() returns only the types above
                raise TypeError(command)
            live.last_active = self.registry.clock()
            self._publish(live, events, client, command.seq)

    def _commit_release(self, live: LiveGame, client: Client) -> list[Event]:
        """Judge the chain and refill, and commit both; on a failed commit, undo both."""
        game = live.game
        before = game.to_doc()
        path, expected = game.chain, game.version
        events = game.release(client) + game.clean_up()
        judged = events[0]
        assert isinstance(judged, WordJudged)
        try:
            self.store.commit(
                live.game_id,
                expected,
                game.to_doc(),
                Move.of(path, judged).to_doc(),
                self.registry.wall_clock(),
            )
        except StorageError as exc:
            log.error("could not save a move of game %s: %s", live.game_id, exc.reason)
            live.game = Game.from_doc(before, game.words)
            live.game.owner = client  # the chain is still theirs, to release again (owners are not saved)
            raise
        except VersionConflict:
            # Another process moved this game first: take its version, show everyone.
            log.warning("game %s changed in the store under us; reloading it", live.game_id)
            self._reload(live, before, game)
            raise
        return events

    def _reload(self, live: LiveGame, before: dict[str, object], game: Game) -> None:
        row = self.store.load(live.game_id)
        live.game = Game.from_doc(before if row is None else row.doc, game.words)
        if live.game.phase is Phase.CHAINING:
            live.game.cancel()
        for client in self.fanout.listeners(live.game_id):
            client.deliver(protocol.encode(protocol.snapshot(live.game, live.game_id, client.token or "")))

    def _drop_chain(self, live: LiveGame) -> None:
        if live.game.phase is Phase.CHAINING:
            self._publish(live, live.game.cancel(live.game.owner))

    def _publish(
        self, live: LiveGame, events: list[Event], origin: Client | None = None, seq: int | None = None
    ) -> None:
        letters = live.game.words.letters
        self.fanout.publish(live.game_id, [protocol.event(event, letters) for event in events], origin, seq)
