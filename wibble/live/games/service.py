"""The endless games service: create, open and attach, each move through one checklist, and a
sprint's end."""

from __future__ import annotations

import hmac
import logging
import random
from collections.abc import Callable, Hashable
from typing import Any

from ... import protocol
from ...core import (
    Draws,
    Event,
    Game,
    GameDataError,
    HashParams,
    Move,
    Phase,
    Pos,
    Result,
    RuleError,
    TimeUp,
    TimeUpMove,
    WibbleError,
    WordJudged,
    WordList,
)
from ...core.daily import daily_revealed
from ...engines.bus import EVERYONE, Audience, only
from ...engines.store import Gone, StorageError
from ...protocol import Cancel, Command, EndSprint, Enter, Press, Release
from ..credentials import new_token, token_hash
from ..documents import Documents
from ..parts import Parts, Service
from ..sessions import Credential, Session
from ..timers import RETRY_SECONDS
from .held import GameKind, LiveGame, load

log = logging.getLogger(__name__)

AFTER_DEADLINE = 0.001
"""Seconds after a sprint's deadline its timer ends it."""


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
        on_over: Callable[[LiveGame], None] = lambda live: None,
        on_scored: Callable[[LiveGame], None] = lambda live: None,
    ) -> None:
        super().__init__(parts)
        self.clock = clock = parts.clock
        self.wall_clock = wall_clock = parts.wall_clock
        self.idle_timeout = idle_timeout
        self.min_words = min_words
        # Seeds and hash bases come from the OS's randomness unless a test injects some.
        self._entropy = entropy or random.SystemRandom()
        self.docs: Documents[LiveGame] = Documents(
            GameKind(lambda live: self._publish_snapshot(live, EVERYONE), self._schedule),
            parts.store,
            parts.presence,
            clock,
            wall_clock,
            max_games,
            "the server is full of games in play; try again later",
            idle_timeout,
            on_drop=lambda live: self.timers.cancel((live.game_id, "sprint")),
            adopt=self._adopt,
            doorbell=parts.doorbell,
            rechecks=parts.rechecks,
        )
        self._last_sweep = clock()
        self._logged_unavailable: set[str] = set()
        self.on_over = on_over
        """Called (under the game's lock) once this process committed a sprint's end (the daily
        board records its score)."""
        self.on_scored = on_scored
        """Called (under the game's lock) once a word scored in a race runner's game was committed
        and told (the race's standings move)."""
        self.timers.route("sprint", self._due)

    def __len__(self) -> int:
        return len(self.docs)

    def get(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory."""
        return self.docs.get(game_id)

    def create(
        self,
        wordlist: str | None,
        seed: int | None,
        address: str,
        sprint: int | None = None,
        daily: dict[str, Any] | None = None,
    ) -> tuple[LiveGame, str]:
        """A new game, saved before anyone sees it; returns it and its secret token.

        ``sprint``: seconds on its clock, from now (None: untimed); ``daily``: what makes it a
        daily board's game (see ``LiveGame.daily``). Everything that can refuse it is asked
        before ``address``'s budget is spent on it."""
        words = self.wordlists.for_player(wordlist)
        self.sweep()
        self.docs.make_space()
        self.budgets.new_game(address)
        if seed is None:
            seed = self._entropy.randrange(protocol.MAX_SEED + 1)
        deadline = None if sprint is None else self.wall_clock() + sprint
        game = self._new_game(words, seed, sprint, deadline)
        game_id, token = new_token(12), new_token(24)
        live = self.docs.create(LiveGame(game_id, token_hash(token), game, self.clock(), daily=daily))
        self._schedule(live)
        return live, token

    def create_runner(
        self, words: WordList, seed: int, sprint: int, deadline: float, race: dict[str, Any]
    ) -> LiveGame:
        """A race runner's sprint game, saved: the race's board (``seed``), on the race's clock.
        Its own token is thrown away: the runner plays it through their room seat."""
        game = self._new_game(words, seed, sprint, deadline)
        live = LiveGame(new_token(12), token_hash(new_token(24)), game, self.clock(), race=race)
        self.docs.save_new(live)
        return live

    def _new_game(self, words: WordList, seed: int, sprint: int | None, deadline: float | None) -> Game:
        """A new game of ``seed`` (its hash bases from the OS: they keep found words apart, unguessed)."""
        return Game(
            words,
            Draws(seed),
            HashParams.draw(self._entropy),
            min_words=self.min_words,
            sprint=sprint,
            deadline=deadline,
        )

    def held(self, game_id: str) -> LiveGame:
        """The game ``game_id``, kept in memory here (loaded from the store if it is not yet);
        ``game/not_found`` if it is gone. For a race: its runners' games, opened through the room."""
        live = self.docs.get(game_id)
        if live is not None:
            return live
        live = self.docs.keep(self._load(game_id))
        with live.lock:
            self._schedule(live)
        return live

    def enter(self, session: Session, live: LiveGame) -> None:
        """``session`` is on ``live`` without its token: a race's runner, whose moves the room has
        let through (the drag is the session's, as in any game), or someone following their board.
        It gets the game as it stands."""
        with live.lock:
            if session.game != live.game_id:
                self.leave(session)
                self.members.enter(session, "game", live.game_id, Credential(None, None))
            live.last_active = self.clock()
            self._end_if_due(live)
            self._publish_snapshot(live, only(session.id))

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
            self._end_if_due(live)  # back after the deadline (a restart, a closed tab): it is over
            self._schedule(live)
            self.members.enter(session, "game", gid, credential)
            live.last_active = self.clock()
            self._publish_snapshot(live, only(session.id))
        self.docs.touch(live)

    def leave(self, session: Session) -> None:
        """``session`` leaves its game (on disconnect, or when it opens something else)."""
        gid = self.members.leave(session, "game")
        if gid is None:
            return
        live = self.docs.get(gid)
        if live is None:
            return
        with live.lock:
            live.last_active = self.clock()
            if live.game.owner == session.id:
                self._drop_chain(live)

    def move(self, session: Session, command: Command) -> None:
        live = self._playing(session)
        with live.lock:
            # A deadline that has passed is applied first, even if its timer has not run yet:
            # the game is then over, and the core refuses the move (game/over).
            if live.game.is_due(self.wall_clock()):
                self._finish(live)
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
            if live.race is not None and _scored(events):
                self.on_scored(live)

    def play_path(self, live: LiveGame, path: tuple[Pos, ...], actor: str) -> bool:
        """A race's bot plays ``path`` at once (each step checked as a person's drag is), committed
        and told as a person's release is. Whether it scored; a board it cannot play (a person is
        never on a bot's game, but a stale path is refused by the core) changes nothing."""
        with live.lock:
            if live.game.is_due(self.wall_clock()):
                self._finish(live)
            game = live.game
            if game.phase is not Phase.IDLE or not path:
                return False
            try:
                game.press(path[0], actor)
                for pos in path[1:]:
                    game.enter(pos, actor)
            except RuleError:
                game.cancel(actor)
                return False
            events = self._commit_release(live, actor)
            self._publish(live, events)
            scored = _scored(events)
            if scored:
                self.on_scored(live)
            return scored

    def done(self, session: Session, command: EndSprint) -> None:
        """``done``, "I'm done": end the session's sprint now, exactly as its clock running out would (the
        end committed, ``over`` to everyone on it, then ``on_over``: a daily try is scored).
        Refused, changing nothing: no game (``game/none``), an untimed one (``game/not_sprint``),
        one already over (``game/over``). Only the game this session opened, with its token."""
        if session.room is not None or session.match is not None:
            raise RuleError(
                "game/not_sprint", "done ends a sprint: a match ends with its last round, a race on its clock"
            )
        live = self._playing(session)
        with live.lock:
            if live.game.is_due(self.wall_clock()):
                self._finish(live)  # its clock ran out first: it ends as that, and this is refused
            game = live.game

            def record(events: list[Event]) -> dict[str, Any]:
                ended = events[0]
                assert isinstance(ended, TimeUp)
                return TimeUpMove(ended.version, ended.total, early=True).to_doc()

            events = self.docs.commit(live, game.end_early, record)
            self._schedule(live)  # the deadline is spent: its timer goes
            live.last_active = self.clock()
            self._publish(live, events, session.id, command.seq)
            self.on_over(live)

    def _playing(self, session: Session) -> LiveGame:
        """The game ``session`` is on, in memory."""
        gid = session.game
        live = self.docs.get(gid)
        if live is None:
            if gid is not None:  # it was here, and left memory with a session on it: the store lost it
                raise Gone("game", gid)
            raise RuleError("game/none", "no game yet: send new_game or resume first")
        return live

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
            # A sprint keeps when each of its words scored: this server's time, never a client's.
            now = self.wall_clock()
            return self.docs.commit(live, lambda: game.release(actor, now) + game.clean_up(), record)
        except StorageError:
            live.game.owner = actor  # the chain is still theirs, to release again (owners are not saved)
            raise

    def _time_up(self, live: LiveGame) -> list[Event]:
        """Commit a sprint's end if its deadline has passed (else nothing); call under the lock."""
        game, now = live.game, self.wall_clock()

        def record(events: list[Event]) -> dict[str, Any]:
            ended = events[0]
            assert isinstance(ended, TimeUp)
            return TimeUpMove(ended.version, ended.total).to_doc()

        events = self.docs.commit(live, lambda: game.time_up(now), record)
        if events:
            self._schedule(live)  # the deadline is spent: its timer goes
        return events

    def _finish(self, live: LiveGame) -> None:
        """End a sprint whose deadline has passed, tell everyone on it, then whoever else must know."""
        events = self._time_up(live)
        self._publish(live, events)
        if events:
            self.on_over(live)

    def _end_if_due(self, live: LiveGame) -> None:
        """End a sprint whose deadline passed while nobody had it open; a failure is left to the timer."""
        try:
            if live.game.is_due(self.wall_clock()):
                self._finish(live)
        except WibbleError as exc:
            log.warning("game %s: could not end its sprint yet (%s)", live.game_id, exc.code)

    def _adopt(self, game_id: str) -> None:
        """Hold a sprint whose deadline nobody handled, so that this process's timer ends it."""
        live = self.docs.get(game_id) or self._load(game_id)
        with live.lock:
            self._schedule(live)

    def _schedule(self, live: LiveGame) -> None:
        """Set this game's sprint deadline in the timers, or drop it (untimed, or over)."""
        game, key = live.game, (live.game_id, "sprint")
        if game.deadline is not None and game.phase is not Phase.OVER:
            # Just after it: at the deadline's very instant a word still counts (``Game.is_due``),
            # so a timer run then would end nothing and be set again for the same instant.
            self.timers.set(key, game.deadline + AFTER_DEADLINE)
        else:
            self.timers.cancel(key)

    def _due(self, key: Hashable) -> None:
        """A sprint's deadline fell due: end the game (once, however often this runs)."""
        if not (isinstance(key, tuple) and len(key) == 2):
            return
        live = self.docs.get(str(key[0]))
        if live is None:
            return  # left memory: whoever opens it next finds it over
        with live.lock:
            try:
                self._finish(live)
            except StorageError as exc:
                log.warning(
                    "game %s: its sprint's end could not be saved (%s); trying again",
                    live.game_id,
                    exc.reason,
                )
                self.timers.set(key, self.wall_clock() + RETRY_SECONDS)
                return
            except WibbleError as exc:  # another process ended it (or moved it) first: its copy is here now
                log.warning("game %s: a sprint's end was overtaken (%s)", live.game_id, exc.code)
            self._schedule(live)

    def _drop_chain(self, live: LiveGame) -> None:
        if live.game.phase is Phase.CHAINING:
            self._publish(live, live.game.cancel(live.game.owner))

    def _publish(
        self, live: LiveGame, events: list[Event], origin: str | None = None, seq: int | None = None
    ) -> None:
        self.bus.publish(live.game_id, protocol.messages(live.game, events), EVERYONE, origin, seq)

    def _publish_snapshot(self, live: LiveGame, audience: Audience) -> None:
        snapshot = protocol.snapshot(live.game, live.game_id, "", self.wall_clock())
        if live.daily is not None:  # which day, and whether it counts (never whose it is)
            snapshot["daily"] = {key: live.daily.get(key) for key in ("day", "date", "scored")}
        if live.race is not None:  # a race's: the page shows it in the room, and never resumes it alone
            snapshot["race"] = {key: live.race.get(key) for key in ("race_id", "seat")}
        if live.race is not None and live.game.phase is not Phase.OVER:
            # A board others play too, for places: its seed would tell every refill to come.
            del snapshot["seed"]
        elif live.daily is not None and not daily_revealed(live.daily, live.game.sprint, self.wall_clock()):
            # The day's board, which others play for places until the day's last try has ended
            # (this try's end is not theirs: a finished try resumed must not tell it either).
            del snapshot["seed"]
        self.bus.publish(live.game_id, [protocol.personal(snapshot, [live.token_hash.hex()])], audience)

    # -- memory --------------------------------------------------------------------------

    def _load(self, game_id: str) -> LiveGame:
        row = self.store.load(game_id)
        if row is None or row.kind != "game":
            raise RuleError("game/not_found", "no such game (it may have expired); start a new one")
        try:
            live = load(game_id, row, self.wordlists, self.clock())
        except GameDataError as exc:
            if game_id not in self._logged_unavailable:
                self._logged_unavailable.add(game_id)
                log.warning("stored game %s cannot be played: %s", game_id, exc.message)
            raise RuleError(
                "game/unavailable", "this saved game cannot be loaded on this server; start a new one"
            ) from None
        self.sweep()
        return self.docs.keep(live)


def _scored(events: list[Event]) -> bool:
    """Whether a release's events hold a word that scored."""
    return any(isinstance(e, WordJudged) and e.result is Result.SCORED for e in events)
