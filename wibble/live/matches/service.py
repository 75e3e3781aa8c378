"""The matches service: create and resume a match, attach and detach its sessions, apply each
seat's commands (committed, then told), and tell its people."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ... import protocol
from ...core import RuleError, WibbleError, WordList
from ...core.match import Match, MatchEvent, MatchOver, Phase, Seat, Settings
from ...core.names import bot_names
from ...engines.bus import EVERYONE, Audience, Message, all_but, only
from ...engines.presence import holders
from ...engines.store import AlreadyExists, Gone, StorageError, VersionConflict
from ...protocol import (
    Cancel,
    Command,
    Enter,
    NewMatch,
    Press,
    Release,
    Rematch,
    ResumeMatch,
    Suggest,
)
from ..credentials import holder_of, new_token, rematch_id
from ..documents import Documents
from ..parts import Parts, Service
from ..sessions import Credential, Session
from .bots import BotPace, Bots
from .deadlines import Deadlines
from .held import LiveMatch, MatchKind, load
from .moves import ACTIONS, apply, move_doc
from .teams import audience

log = logging.getLogger(__name__)


class Matches(Service):
    def __init__(
        self,
        parts: Parts,
        pace: BotPace | None = None,
        min_words: int = 0,
        entropy: random.Random | None = None,
        idle_timeout: float = 3600.0,
        round_pause: float = 3.0,
        max_matches: int = 10_000,
        on_over: Callable[[LiveMatch], None] = lambda live: None,
    ) -> None:
        super().__init__(parts)
        # A match's times are all saved (deadlines, last use): wall-clock, to mean the same after a restart.
        self.wall_clock = wall_clock = parts.wall_clock
        self.round_pause = round_pause
        self.min_words = min_words
        self.entropy = entropy or random.SystemRandom()
        self.on_over = on_over
        """Called once a room's match is over, just after its lock is let go: the room shows it
        (under the room's lock, which is taken before a match's, never after)."""
        self.bots = Bots(pace or BotPace(), self.entropy, wall_clock, parts.timers, self.commit, self.publish)
        self.deadlines = Deadlines(
            parts.timers, self.bots, wall_clock, self.get, self.holding, self.commit, self.publish
        )
        # A room's match stays in memory while its room is open (the room lets it go).
        self.docs: Documents[LiveMatch] = Documents(
            MatchKind(lambda live: self.send_snapshot(live, EVERYONE), self.deadlines.schedule),
            parts.store,
            parts.presence,
            wall_clock,
            wall_clock,
            max_matches,
            "the server is full of matches in play; try again later",
            idle_timeout,
            evictable=lambda live: live.room is None,
            on_drop=self.deadlines.forget,
            doorbell=parts.doorbell,
            rechecks=parts.rechecks,
        )

    def __len__(self) -> int:
        return len(self.docs)

    def get(self, match_id: str | None) -> LiveMatch | None:
        """The match if it is in memory."""
        return self.docs.get(match_id)

    # -- a match of one's own: create, resume, rematch ---------------------------------------

    def create(self, command: NewMatch, address: str) -> tuple[LiveMatch, str]:
        """A new match of one person against bots, saved; returns it and the person's token."""
        words = self.wordlists.for_player(command.wordlist)
        self.docs.make_space()  # every refusal before the address's budget is spent
        self.budgets.new_game(address)
        seats = [Seat(command.name, "human", speed=command.speed)]
        names = bot_names([command.name])  # (the player's own name is the player's)
        seats += [Seat(next(names), "bot", bot.level, bot.speed) for bot in command.bots]
        settings = Settings(
            rounds=command.rounds,
            turn_seconds=command.turn_seconds,
            round_pause=self.round_pause,
            values=command.values,
        )
        return self._start(words, seats, settings, command.seed, None)

    def _start(
        self,
        words: WordList,
        seats: list[Seat],
        settings: Settings,
        seed: int | None,
        tokens: list[str | None] | None,
        match_id: str | None = None,
    ) -> tuple[LiveMatch, str]:
        if seed is None:
            seed = self.entropy.randrange(protocol.MAX_SEED + 1)
        match = Match(words, seed, seats, self.wall_clock(), settings, min_words=self.min_words)
        token = new_token()
        if tokens is None:
            tokens = [holder_of(token) if seat.kind == "human" else None for seat in seats]
        mid = match_id or new_token(12)
        live = LiveMatch(mid, tokens, match, self.wall_clock())
        self.bots.plan(live)
        return self.docs.create(live), token

    def resume(self, command: ResumeMatch, address: str) -> tuple[LiveMatch, str]:
        """The match ``command`` names, if its token opens a seat of it; a match loaded from the
        store is kept (and its timers and bots go on) only once the token is right, so a wrong
        token starts nothing."""

        def opened() -> LiveMatch:
            live = self.docs.get(command.match_id)
            loaded = live is None
            if live is None:
                live = self.load(command.match_id)
            if live.room is not None or holder_of(command.token) not in live.holders:
                raise RuleError("game/bad_token", "that token does not open this match")
            if loaded:
                live = self.docs.keep(live)
                with self.holding(live):
                    self.deadlines.schedule(live)  # its timer and its bot go on where they were
            return live

        return self.budgets.resuming(address, opened), command.token

    def load(self, match_id: str) -> LiveMatch:
        return load(match_id, self.store.load(match_id), self.wordlists, self.wall_clock())

    def handle(self, session: Session, command: Command) -> None:
        """A command from a session on a match of its own (``rematch``, or a move)."""
        if isinstance(command, Rematch):
            self._rematch(session)
        else:
            self.move(session, command)

    def _rematch(self, session: Session) -> None:
        live = self.get(session.match)
        token = None if live is None else session.credential(live.match_id).token
        if live is None or token is None or self.seat_of(session, live) is None:
            raise RuleError("match/none", "no match to play again")
        with self.holding(live):  # held throughout: two tabs asking at once get one rematch, not two
            old = live.match
            if old.phase is not Phase.OVER:
                raise RuleError("match/not_over", "the match is still being played")
            # Its id is the old one's own (``rematch_id``): a rematch asked on another process, or
            # after a restart, finds the one already started, in memory or in the store.
            new_id = rematch_id(live.match_id, live.holders)
            started = self.docs.get(new_id) or self._stored(new_id)
            if started is None:
                seats = [Seat(s.name, s.kind, s.level, s.speed) for s in old.seats]
                self.docs.make_space()
                self.budgets.new_game(session.address)
                try:
                    words = self.wordlists.get(old.words.name)  # (its list as it is now, if edited since)
                except (KeyError, WibbleError):  # gone or broken since: the one it was played with
                    words = old.words
                try:
                    started, _ = self._start(words, seats, old.settings, None, list(live.holders), new_id)
                except AlreadyExists:  # another process started it a moment ago: that one is played
                    started = self.load(new_id)
                else:
                    # Everyone else on the old match can follow with their own token.
                    self.bus.publish(live.match_id, [protocol.rematch(new_id)], all_but(session.id))
            started = self.docs.keep(started)
        self.attach(session, started, token)

    def _stored(self, match_id: str) -> LiveMatch | None:
        """The match ``match_id`` from the store, or None if it holds none."""
        try:
            return self.load(match_id)
        except RuleError as exc:
            if exc.code == "game/not_found":
                return None
            raise

    # -- sessions on a match -------------------------------------------------------------------

    def seat_of(self, session: Session, live: LiveMatch) -> int | None:
        """The seat ``session``'s token holds in ``live`` (None: it watches)."""
        holder = session.holder(live.match_id)
        return live.holders.index(holder) if holder is not None and holder in live.holders else None

    def attach(self, session: Session, live: LiveMatch, token: str) -> None:
        """``session`` plays the seat ``token`` holds in ``live`` (the router made it leave what it had)."""
        # (Kept again if it left memory meanwhile: its last connection went while this one yielded.)
        live = self.docs.keep(live)
        holder = holder_of(token)
        seat = live.holders.index(holder)
        if session.match is not None and (
            session.match != live.match_id or session.holder(live.match_id) != holder
        ):
            self.leave(session)  # its old seat may now have nobody connected: the others hear so
        with self.holding(live):
            was_connected = self._seat_connected(live, seat)
            if live.dragger != session.id:
                # The same person, back from elsewhere (a phone that changed network leaves its old
                # socket half open for a while): their new tab plays now, as in a game.
                self.drop_chain(live, seat, live.dragger)
            self.members.enter(session, "match", live.match_id, Credential.of(token))
            live.last_active = self.wall_clock()
            self.send_snapshot(live, only(session.id))
            if not was_connected:
                self.bus.publish(live.match_id, [protocol.presence(seat, True)], all_but(session.id))
            self.deadlines.schedule(live)
        try:
            self.store.touch(live.match_id, self.wall_clock())  # kept RETENTION_DAYS from the last opening
        except StorageError as exc:
            log.warning("could not note that match %s was opened: %s", live.match_id, exc.reason)

    def leave(self, session: Session) -> None:
        """``session`` leaves its match (it disconnected, or opened something else); the others hear
        if that leaves its seat with nobody connected."""
        detached = self.detach(session)
        if detached is None:
            return
        live, seat = detached
        mid = live.match_id
        with self.holding(live):
            if seat is not None and not self._seat_connected(live, seat):
                self.bus.publish(mid, [protocol.presence(seat, False)])
            abandoned = live.room is None and not self.presence.count(mid)
        if abandoned:
            # Nobody is here to play or watch: the match stands still, at no cost, until someone
            # resumes it. It is saved as it stands (a bot's drag half done is simply begun again),
            # and a turn whose time runs out meanwhile is over when it comes back, as the rules say.
            self.docs.drop(mid)

    def detach(self, session: Session) -> tuple[LiveMatch, int | None] | None:
        """``session`` stops listening to its match; a chain it was dragging goes with it. Returns
        the match (if in memory) and the seat the session held."""
        mid = session.match
        if mid is None:
            return None
        live = self.docs.get(mid)
        seat = None if live is None else self.seat_of(session, live)
        self.members.leave(session, "match")
        if live is None:
            return None
        with self.holding(live):
            live.last_active = self.wall_clock()
            self.drop_chain(live, seat, session.id)
        return live, seat

    def drop_chain(self, live: LiveMatch, seat: int | None, dragger: str | None) -> None:
        """The session ``dragger`` goes (or another tab of its seat takes over): the chain it was
        dragging on ``seat``'s turn is dropped, so nobody is left with a chain no tab may finish."""
        if dragger is None or live.dragger != dragger:
            return
        match = live.match
        live.dragger = None
        if seat is not None and match.chain and match.phase is Phase.PLAYING and match.turn == seat:
            if live.bot is None:  # (a stand-in's own drag is the stand-in's)
                self.publish(live, match.cancel(seat))

    # -- moves -----------------------------------------------------------------------------

    def move(self, session: Session, command: Command) -> None:
        """A seat's move (in a room, the room has checked that the session holds a seat)."""
        live = self.get(session.match)
        if live is None and session.match is not None:
            raise Gone("match", session.match)  # it left memory with a session on it: the store lost it
        seat = None if live is None else self.seat_of(session, live)
        if live is None or seat is None:
            raise RuleError("match/none", "no match yet: send new_match or resume one first")
        with self.holding(live):
            now = self.wall_clock()
            # A deadline that has passed is applied first, even if its timer has not run yet:
            # a turn that is over can be neither played nor extended. (At the very instant of
            # the deadline the player's move still counts; the timer then finds the turn over.)
            if live.match.deadline is not None and now > live.match.deadline:
                self.publish(live, self.deadlines.clock_due(live, now))
                self.deadlines.schedule(live)
            match = live.match
            if (
                isinstance(command, Enter | Cancel | Release)
                and match.chain
                and seat == match.turn  # (any other seat is refused for its turn: nothing to learn here)
                and live.dragger not in (None, session.id)
            ):
                raise RuleError("state/not_your_chain", "someone else (another tab) is dragging this chain")
            if isinstance(command, Press):
                events = match.press(seat, command.pos)
                live.dragger = session.id
            elif isinstance(command, Enter):
                events = match.enter(seat, command.pos)
            elif isinstance(command, Cancel):
                events = match.cancel(seat)
            elif isinstance(command, Suggest):  # (ephemeral, as a drag: nothing to commit)
                events = match.suggest(seat, command.pos, command.to)
            else:
                events = self.commit(
                    live, lambda: apply(match, seat, command, now), seat, ACTIONS[type(command)]
                )
            live.last_active = now
            self.publish(live, events, session.id, command.seq)
            self.deadlines.schedule(live)

    def commit(
        self, live: LiveMatch, apply: Callable[[], list[MatchEvent]], seat: int | None, action: str
    ) -> list[MatchEvent]:
        """Apply a command that may change the match for good; if it did, save it before anyone hears.

        A failed save puts the match back exactly as it was, chain and all.
        """

        def applied() -> list[MatchEvent]:
            events = apply()
            self.bots.plan(live)  # a turn this gives a bot is planned in the very same document
            return events

        bot = live.bot
        try:
            return self.docs.commit(live, applied, lambda events: move_doc(live.match, seat, action, events))
        except VersionConflict:
            raise  # (the match is as another process left it, its bot's turn with it)
        except WibbleError:
            live.bot = bot  # nothing changed: a bot's drag under way goes on (its release is retried)
            raise

    # -- telling people ----------------------------------------------------------------------

    def _seat_connected(self, live: LiveMatch, seat: int) -> bool:
        holder = live.holders[seat]
        return holder is not None and holder in holders(self.presence, live.match_id)

    def send_snapshot(self, live: LiveMatch, audience: Audience) -> None:
        here = holders(self.presence, live.match_id)
        connected = [holder is not None and holder in here for holder in live.holders]
        message = protocol.match_snapshot(
            live.match, live.match_id, None, None, connected, self.wall_clock(), room=live.room
        )
        self.bus.publish(live.match_id, [protocol.personal(message, live.holders)], audience)

    def publish(
        self, live: LiveMatch, events: list[MatchEvent], origin: str | None = None, seq: int | None = None
    ) -> None:
        """Publish each event to everyone on the match (a hint to its seat alone; in a 2v2, a drag,
        a refused word, a hint or a suggestion to its team alone); ``origin`` gets ``seq``.

        Events in a row that the same people hear go out together, as one frame to each: a word
        played is its ``played``, the refill's ``board``, the seat's ``gems`` and the next
        ``turn`` in one websocket message, not four."""
        letters, now = live.match.words.letters, self.wall_clock()
        batch: list[Message] = []
        heard = EVERYONE
        for event in events:
            hears = audience(live.match, live.holders, event)
            if batch and hears != heard:
                self.bus.publish(live.match_id, batch, heard, origin, seq)
                batch = []
            batch.append(protocol.match_event(event, letters, now))
            heard = hears
            if isinstance(event, MatchOver) and live.room is not None:
                live.ended = True  # told to the room by ``holding``, once the match's lock is let go
        if batch:
            self.bus.publish(live.match_id, batch, heard, origin, seq)

    @contextmanager
    def holding(self, live: LiveMatch) -> Iterator[None]:
        """The match's lock, for the block; then, if the match ended meanwhile, its room is told."""
        with live.lock:
            yield
        if live.ended:
            live.ended = False
            self.on_over(live)

    def sweep(self) -> None:
        """Let matches nobody has been on for ``idle_timeout`` leave memory (they stay in the store).

        Housekeeping calls this now and then. A timed match goes too: its deadline is in its
        document, and the next ``resume`` picks it up where it stopped.
        """
        self.docs.sweep()
