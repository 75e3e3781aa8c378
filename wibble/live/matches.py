"""Matches in play: create and resume them, apply each seat's commands, run bots and timers.

The same shape as an endless game's: a command goes through the
match's own checklist (``wibble.core.match``: over? your turn? can you pay? legal?);
what changed the match for good (its ``version`` grew) is committed to the store
with a compare-and-set before anyone hears of it; a drag is only broadcast. A
refused command is answered to its sender alone.

Seats are seats: each human seat has its own token (only its hash is stored), a
session acts as the seat its token holds, and bots act through the very same
commands, driven by deadlines: a bot "thinks" for a while, then drags its word
tile by tile so that people watch it play. Every deadline (a turn's timer, the
pause between rounds, a bot's next step) is one entry in ``Timers``; when it falls
due the match is asked again under its lock, so a timer that fires just as the
turn ends changes nothing.

A match is stored like a game (same store, same table): its document is the
match's ``to_doc`` plus the seats' token hashes, and, on a bot's turn, when the bot
is done thinking (planned in the commit that gave it the turn). It survives a
restart, its turn timer and its bot's plan included; its bots and timers are
scheduled again when someone resumes it, or on another process that holds it.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .. import protocol
from ..core import GameDataError, Pos, RuleError, WibbleError, WordList, WordListError
from ..core.match import (
    BoardChanged,
    BotMove,
    HintGiven,
    Match,
    MatchEvent,
    MatchOver,
    Phase,
    Played,
    Seat,
    Settings,
    choose,
)
from ..core.match import restore as restore_match
from ..engines.bus import EVERYONE, Audience, all_but, holders_of, only
from ..engines.presence import holders
from ..engines.store import Gone, StorageError, VersionConflict
from ..protocol import (
    Cancel,
    Command,
    Enter,
    Extend,
    Hint,
    NewMatch,
    Pass,
    Press,
    Release,
    Rematch,
    ResumeMatch,
    Shuffle,
    Swap,
)
from .credentials import holder_of, new_token
from .documents import Documents
from .parts import Parts, Service
from .sessions import Credential, Session

log = logging.getLogger(__name__)

BOT_NAMES = ("Ada", "Basil", "Cleo", "Dmitri", "Edda")
BOT_DRAG_TILES = 10
"""A long word's tiles: a bot on a timed turn keeps time for a drag this long."""
RETRY_SECONDS = 1.0
"""How soon a deadline whose commit failed (a full disk, a locked file) is tried again."""


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
    them from the room's seats (``Matches.set_holders``); they are stored only for a match of its own."""
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
    rematch: str | None = None
    """The match this one's ``rematch`` started: a second ``rematch`` joins it rather than fork."""

    @property
    def doc_id(self) -> str:
        return self.match_id

    @property
    def version(self) -> int:
        return self.match.version


@dataclass(frozen=True)
class BotPace:
    """How long a bot thinks before its word (a range, seconds) and how long each tile of its drag takes."""

    think: tuple[float, float] = (1.5, 3.0)
    step: float = 0.25


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
    ) -> None:
        super().__init__(parts)
        # A match's times are all saved (deadlines, last use): wall-clock, to mean the same after a restart.
        self.clock = clock = parts.wall_clock
        self.round_pause = round_pause
        self.pace = pace or BotPace()
        self.min_words = min_words
        self._entropy = entropy or random.SystemRandom()
        # A room's match stays in memory while its room is open (the room lets it go).
        self.docs: Documents[LiveMatch] = Documents(
            self,
            parts.store,
            parts.presence,
            clock,
            clock,
            max_matches,
            "the server is full of matches in play; try again later",
            idle_timeout,
            evictable=lambda live: live.room is None,
        )
        self.docs.on_drop = self._forget_deadlines
        timers = parts.timers
        self.on_over: Callable[[LiveMatch], None] = lambda live: None
        """Called once a room's match is over, just after its lock is let go: the room shows it
        (under the room's lock, which is taken before a match's, never after)."""
        timers.route("clock", self._due)
        timers.route("bot", self._due)

    def __len__(self) -> int:
        return len(self.docs)

    def get(self, match_id: str | None) -> LiveMatch | None:
        """The match if it is in memory."""
        return self.docs.get(match_id)

    # -- the document's kind (see ``documents.Kind``) ---------------------------------------

    name = "match"

    def dump(self, live: LiveMatch) -> dict[str, Any]:
        doc = live.match.to_doc()
        bot = live.bot
        if bot is not None and bot.turn_no == live.match.turn_no and live.match.phase is Phase.PLAYING:
            doc["bot"] = {"turn_no": bot.turn_no, "at": bot.at}
        if live.room is not None:  # its seats are the room's: their tokens are kept there
            return {**doc, "tokens": [None] * len(live.holders), "room": live.room}
        return {**doc, "tokens": list(live.holders)}

    def restore(self, live: LiveMatch, doc: dict[str, Any]) -> None:
        live.match = restore_match(doc, live.match.words)  # (its bot's turn: see ``_commit``)

    def reloaded(self, live: LiveMatch, doc: dict[str, Any]) -> None:
        live.match = restore_match(doc, live.match.words)
        live.bot = _bot_of(doc, live.match, None)
        self._send_snapshot(live, EVERYONE)
        self._schedule(live)

    def refresh(self, live: LiveMatch, doc: dict[str, Any]) -> None:
        live.match = restore_match(doc, live.match.words)
        # The turn moved on elsewhere: a bot's turn goes on at the time its document says (a
        # drag under way here, in the same turn, goes on).
        live.bot = _bot_of(doc, live.match, live.bot)
        live.dragger = None
        self._schedule(live)

    def due(self, live: LiveMatch) -> None:
        """None: a match nobody is connected to stands still (its turn's end is in its document,
        and runs when someone opens it again), so no process takes it on. One with somebody
        connected is held by their process; a room's match runs while its room is held."""
        return None

    # -- commands ------------------------------------------------------------------------

    def create(self, command: NewMatch, address: str) -> tuple[LiveMatch, str]:
        """A new match of one person against bots, saved; returns it and the person's token."""
        return self._create(command, address)

    def resume(self, command: ResumeMatch, address: str) -> tuple[LiveMatch, str]:
        """The match ``command`` names, if its token opens a seat of it."""
        live = self.budgets.resuming(address, lambda: self._open(command.match_id, command.token))
        return live, command.token

    def handle(self, session: Session, command: Command) -> None:
        """A command from a session on a match of its own (``rematch``, or a move)."""
        if isinstance(command, Rematch):
            self._rematch(session)
        else:
            self._move(session, command)

    def leave(self, session: Session) -> None:
        """``session`` leaves its match (it disconnected, or opened something else); the others hear
        if that leaves its seat with nobody connected."""
        detached = self._detach(session)
        if detached is None:
            return
        live, seat = detached
        mid = live.match_id
        with self._holding(live):
            if seat is not None and not self._seat_connected(live, seat):
                self.bus.publish(mid, [protocol.presence(seat, False)])
            abandoned = live.room is None and not self.presence.count(mid)
        if abandoned:
            # Nobody is here to play or watch: the match stands still, at no cost, until someone
            # resumes it. It is saved as it stands (a bot's drag half done is simply begun again),
            # and a turn whose time runs out meanwhile is over when it comes back, as the rules say.
            self.docs.drop(mid)

    def _drop_chain(self, live: LiveMatch, seat: int | None, dragger: str | None) -> None:
        """The session ``dragger`` goes (or another tab of its seat takes over): the chain it was
        dragging on ``seat``'s turn is dropped, so nobody is left with a chain no tab may finish."""
        if dragger is None or live.dragger != dragger:
            return
        match = live.match
        live.dragger = None
        if seat is not None and match.chain and match.phase is Phase.PLAYING and match.turn == seat:
            if live.bot is None:  # (a stand-in's own drag is the stand-in's)
                self._publish(live, match.cancel(seat))

    def seat_of(self, session: Session, live: LiveMatch) -> int | None:
        """The seat ``session``'s token holds in ``live`` (None: it watches)."""
        holder = session.holder(live.match_id)
        return live.holders.index(holder) if holder is not None and holder in live.holders else None

    def _subscribe(self, session: Session, live: LiveMatch) -> None:
        session.match = live.match_id
        self.bus.subscribe(live.match_id, session)
        self.presence.join(live.match_id, session.id, session.holder(live.match_id))

    def _unsubscribe(self, session: Session, mid: str) -> None:
        session.match = None
        session.credentials.pop(mid, None)
        self.bus.unsubscribe(mid, session)
        self.presence.leave(mid, session.id)

    # -- a room's match: its seats act through the room ----------------------------------------

    def create_for_room(
        self, words: WordList, seats: list[Seat], settings: Settings, code: str, match_id: str
    ) -> LiveMatch:
        """A room's new match, saved but not yet running: ``adopt`` it once the room has committed it."""
        seed = self._entropy.randrange(protocol.MAX_SEED + 1)
        match = Match(words, seed, seats, self.clock(), settings, min_words=self.min_words)
        live = LiveMatch(match_id, [None] * len(seats), match, self.clock(), room=code)
        self._plan_bot(live)
        self.docs.save_new(live)
        return live

    def adopt(self, live: LiveMatch) -> LiveMatch:
        """Run a room's match: keep it in memory and set its deadlines."""
        live = self.docs.keep(live)
        with self._holding(live):
            self._schedule(live)
        return live

    def open_for_room(self, match_id: str, code: str) -> LiveMatch | None:
        """A room's match, from memory or the store (then running again); None if it is gone or damaged."""
        live = self.docs.get(match_id)
        if live is not None:
            return live
        try:
            live = self._load(match_id)
        except RuleError:
            return None
        if live.room != code:
            return None
        return self.adopt(live)

    def watch(self, live: LiveMatch, *sessions: Session) -> None:
        """Put a room's sessions on its match, each as the seat its room token holds (or watching).

        All of them listen before any snapshot goes out, so that each shows everyone connected."""
        for session in sessions:
            if session.match is not None and session.match != live.match_id:
                self.unwatch(session)
        with self._holding(live):
            for session in sessions:
                self._subscribe(session, live)
                if live.dragger not in (None, session.id):  # the seat's new tab plays now
                    self._drop_chain(live, self.seat_of(session, live), live.dragger)
            live.last_active = self.clock()
            if len(sessions) == 1:
                self._send_snapshot(live, only(sessions[0].id))
            elif sessions:
                self._send_snapshot(live, EVERYONE)

    def unwatch(self, session: Session) -> None:
        """A room's session stops watching its match (quietly: the room tells who is here)."""
        self._detach(session)

    def _detach(self, session: Session) -> tuple[LiveMatch, int | None] | None:
        """``session`` stops listening to its match; a chain it was dragging goes with it. Returns
        the match (if in memory) and the seat the session held."""
        mid = session.match
        if mid is None:
            return None
        live = self.docs.get(mid)
        seat = None if live is None else self.seat_of(session, live)
        self._unsubscribe(session, mid)
        if live is None:
            return None
        with self._holding(live):
            live.last_active = self.clock()
            self._drop_chain(live, seat, session.id)
        return live, seat

    def set_holders(self, live: LiveMatch, seats: list[str | None], tell: Audience | None = None) -> None:
        """A room's seats changed hands: who acts as each seat of its match from now on. ``tell``: the
        sessions whose seat changed get the match again, as they now read it."""
        with self._holding(live):
            live.holders = list(seats[: len(live.match.seats)])
            if tell is not None:
                self._send_snapshot(live, tell)

    def move(self, session: Session, command: Command) -> None:
        """A move from a room's seat (the room has checked that the session holds one)."""
        self._move(session, command)

    def set_stand_in(self, live: LiveMatch, seat: int, level: str | None) -> None:
        """A bot of ``level`` plays ``seat`` from now on (None: its person is back, and the bot
        stops at once, dropping a chain it was dragging for them)."""
        with self._holding(live):
            match = live.match
            if level is not None:
                live.stand_ins[seat] = level
                if match.phase is Phase.PLAYING and match.turn == seat and match.chain and live.bot is None:
                    self._publish(live, match.cancel(seat))  # the person's own drag, left half done
            elif live.stand_ins.pop(seat, None) is not None and live.match.turn == seat:
                live.bot = None
                if live.match.phase is Phase.PLAYING and live.match.chain:
                    self._publish(live, live.match.cancel(seat))
            self._schedule(live)

    def skip_turn(self, live: LiveMatch, seat: int) -> None:
        """``seat``'s person is away past the grace period: the turn they hold now passes."""
        with self._holding(live):
            match, now = live.match, self.clock()
            if match.phase is Phase.PLAYING and match.turn == seat:
                if match.chain:
                    self._publish(live, match.cancel(seat))  # everyone stops seeing the half-dragged word
                self._publish(live, self._commit(live, lambda: match.pass_turn(seat, now), seat, "away"))
            self._schedule(live)

    def _move(self, session: Session, command: Command) -> None:
        live = self.get(session.match)
        if live is None and session.match is not None:
            raise Gone("match", session.match)  # it left memory with a session on it: the store lost it
        seat = None if live is None else self.seat_of(session, live)
        if live is None or seat is None:
            raise RuleError("match/none", "no match yet: send new_match or resume one first")
        with self._holding(live):
            now = self.clock()
            # A deadline that has passed is applied first, even if its timer has not run yet:
            # a turn that is over can be neither played nor extended. (At the very instant of
            # the deadline the player's move still counts; the timer then finds the turn over.)
            if live.match.deadline is not None and now > live.match.deadline:
                self._publish(live, self._clock_due(live, now))
                self._schedule(live)
            match = live.match
            if (
                isinstance(command, Enter | Cancel | Release)
                and match.chain
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
            else:
                events = self._commit(
                    live, lambda: self._committed(match, seat, command, now), seat, _ACTIONS[type(command)]
                )
            live.last_active = now
            self._publish(live, events, session.id, command.seq)
            self._schedule(live)

    def _committed(self, match: Match, seat: int, command: Command, now: float) -> list[MatchEvent]:
        if isinstance(command, Release):
            return match.release(seat, now)
        if isinstance(command, Pass):
            return match.pass_turn(seat, now)
        if isinstance(command, Shuffle):
            return match.shuffle(seat)
        if isinstance(command, Swap):
            letters = match.words.letters
            symbol = next(
                (letter.symbol for letter in letters if letter.face == command.letter), command.letter
            )
            return match.swap(seat, command.pos, symbol)
        if isinstance(command, Hint):
            return match.hint(seat)
        if isinstance(command, Extend):
            return match.extend(seat)
        raise TypeError(command)  # pragma: no cover - handle() routes only match commands here

    # -- committing ------------------------------------------------------------------------

    def _commit(
        self, live: LiveMatch, apply: Callable[[], list[MatchEvent]], seat: int | None, action: str
    ) -> list[MatchEvent]:
        """Apply a command that may change the match for good; if it did, save it before anyone hears.

        A failed save puts the match back exactly as it was, chain and all.
        """

        def applied() -> list[MatchEvent]:
            events = apply()
            self._plan_bot(live)  # a turn this gives a bot is planned in the very same document
            return events

        bot = live.bot
        try:
            return self.docs.commit(live, applied, lambda events: _move_doc(live.match, seat, action, events))
        except VersionConflict:
            raise  # (the match is as another process left it, its bot's turn with it)
        except WibbleError:
            live.bot = bot  # nothing changed: a bot's drag under way goes on (its release is retried)
            raise

    # -- deadlines and bots ----------------------------------------------------------------

    def _schedule(self, live: LiveMatch) -> None:
        """Set this match's deadlines to what its state says: the turn timer or round pause, and its bot."""
        match, mid = live.match, live.match_id
        if match.phase is not Phase.OVER and match.deadline is not None:
            self.timers.set((mid, "clock"), match.deadline)
        else:
            self.timers.cancel((mid, "clock"))
        if not self._plan_bot(live) or live.bot is None:
            self.timers.cancel((mid, "bot"))
        elif self.timers.when((mid, "bot")) is None:  # (not while its drag is under way)
            self.timers.set((mid, "bot"), live.bot.at)

    def _plan_bot(self, live: LiveMatch) -> bool:
        """Whether a bot (or a stand-in) plays this turn; if so, and it has no plan for this turn
        yet, it gets one: when it is done thinking. Called as a commit gives it the turn, so that
        its document says when."""
        match = live.match
        bot_turn = match.phase is Phase.PLAYING and (
            match.seats[match.turn].kind == "bot" or match.turn in live.stand_ins
        )
        if not bot_turn:
            live.bot = None
        elif live.bot is None or live.bot.turn_no != match.turn_no:
            live.bot = BotTurn(match.turn_no, self.clock() + self._think(match))
        return bot_turn

    def _think(self, match: Match) -> float:
        """How long a bot thinks: the pace's range, but never so long its drag would miss the turn's end."""
        low, high = self.pace.think
        think = low + (high - low) * self._entropy.random()
        if match.deadline is not None:
            drag = BOT_DRAG_TILES * self._step(match)
            think = min(think, max(0.0, (match.deadline - self.clock()) / 2 - drag))
        return think

    def _step(self, match: Match) -> float:
        """Seconds per tile of a bot's drag, shortened on a timed turn so the word lands in time."""
        if match.deadline is None:
            return self.pace.step
        left = match.deadline - self.clock()
        return max(0.0, min(self.pace.step, left / (2 * BOT_DRAG_TILES)))

    def _due(self, key: Hashable) -> None:
        if not (isinstance(key, tuple) and len(key) == 2):
            return
        mid, kind = str(key[0]), str(key[1])
        live = self.docs.get(mid)
        if live is None:
            return
        with self._holding(live):
            now = self.clock()
            try:
                if kind == "clock":
                    self._publish(live, self._clock_due(live, now))
                elif kind == "bot":
                    self._bot_step(live, now)
            except StorageError as exc:
                # The store failed (the match is as it was): try the same deadline again shortly,
                # rather than leave a turn open past its time or a bot frozen mid-turn.
                log.warning("match %s: a %s deadline failed (%s); trying again soon", mid, kind, exc.reason)
                self.timers.set(key, now + RETRY_SECONDS)
                return
            except WibbleError as exc:
                # Another process moved the match (it was reloaded) or the move no longer fits:
                # start the turn's bot afresh from the match as it now stands.
                log.warning("match %s: a %s deadline was overtaken (%s)", mid, kind, exc.code)
                live.bot = None
            self._schedule(live)

    def _clock_due(self, live: LiveMatch, now: float) -> list[MatchEvent]:
        """A turn's time is up, or the pause between rounds is over (if so by ``now``; else nothing)."""
        match = live.match
        if match.phase is Phase.PLAYING:
            turn_no = match.turn_no
            return self._commit(live, lambda: match.timeout(turn_no, now), None, "timeout")
        return self._commit(live, lambda: match.next_round(now), None, "round")

    def _bot_step(self, live: LiveMatch, now: float) -> None:
        """One step of a bot's turn: decide (maybe shuffle first), then press, enter..., release."""
        match, bot = live.match, live.bot
        if bot is None or bot.turn_no != match.turn_no or match.phase is not Phase.PLAYING:
            return
        seat = match.turn
        if not bot.path:
            move: BotMove = choose(match, seat, bot.shuffled, level=live.stand_ins.get(seat))
            if move.kind == "shuffle":
                bot.shuffled, bot.at = True, now + self._think(match) / 2  # (saved with the shuffle)
                self._publish(live, self._commit(live, lambda: match.shuffle(seat), seat, "shuffle"))
                self.timers.set((live.match_id, "bot"), bot.at)
                return
            if move.kind == "pass":
                self._publish(live, self._commit(live, lambda: match.pass_turn(seat, now), seat, "pass"))
                return
            bot.path = move.path
        if bot.step < len(bot.path):
            pos = bot.path[bot.step]
            events = match.press(seat, pos) if bot.step == 0 else match.enter(seat, pos)
            bot.step += 1
            self._publish(live, events)
            self.timers.set((live.match_id, "bot"), now + self._step(match))
            return
        events = self._commit(live, lambda: match.release(seat, now), seat, "play")
        if live.bot is bot:  # only now: if the commit failed, the retry releases the same chain again
            live.bot = None  # (and unless the commit planned the next bot's turn)
        self._publish(live, events)

    # -- creating, opening, attaching ------------------------------------------------------

    def _create(self, command: NewMatch, address: str) -> tuple[LiveMatch, str]:
        words = self.wordlists.for_player(command.wordlist)
        self.docs.make_room()  # every refusal before the address's budget is spent
        self.budgets.new_game(address)
        seats = [Seat(command.name, "human", speed=command.speed)]
        seats += [Seat(BOT_NAMES[i], "bot", bot.level, bot.speed) for i, bot in enumerate(command.bots)]
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
    ) -> tuple[LiveMatch, str]:
        if seed is None:
            seed = self._entropy.randrange(protocol.MAX_SEED + 1)
        match = Match(words, seed, seats, self.clock(), settings, min_words=self.min_words)
        token = new_token()
        if tokens is None:
            tokens = [holder_of(token) if seat.kind == "human" else None for seat in seats]
        mid = new_token(12)
        live = LiveMatch(mid, tokens, match, self.clock())
        self._plan_bot(live)
        return self.docs.create(live), token

    def _open(self, match_id: str, token: str) -> LiveMatch:
        """The match if ``token`` opens one of its seats; a match loaded from the store is kept (and its
        timers and bots go on) only once the token is right, so a wrong token starts nothing."""
        live = self.docs.get(match_id)
        loaded = live is None
        if live is None:
            live = self._load(match_id)
        if live.room is not None or holder_of(token) not in live.holders:
            raise RuleError("game/bad_token", "that token does not open this match")
        if loaded:
            live = self.docs.keep(live)
            with self._holding(live):
                self._schedule(live)  # its timer and its bot go on where they were
        return live

    def _load(self, match_id: str) -> LiveMatch:
        row = self.store.load(match_id)
        if row is None or row.kind != "match":
            raise RuleError("game/not_found", "no such match (it may have expired); start a new one")
        try:
            name = row.doc.get("wordlist")
            try:
                words = self.wordlists.get(name if isinstance(name, str) else "")
            except (KeyError, WordListError):
                raise GameDataError(f"its word list {name!r} cannot be loaded here") from None
            match = restore_match(row.doc, words)
            bot = _bot_of(row.doc, match, None)
            tokens = row.doc.get("tokens", [])
            if len(tokens) != len(match.seats) or not all(h is None or bytes.fromhex(h) for h in tokens):
                raise GameDataError("its seats' tokens are damaged")
            room = row.doc.get("room")
            if not (room is None or isinstance(room, str)):
                raise GameDataError("its room is damaged")
        except (GameDataError, ValueError, TypeError) as exc:
            log.warning("stored match %s cannot be played: %s", match_id, exc)
            raise RuleError("game/unavailable", "this saved match cannot be loaded on this server") from None
        return LiveMatch(match_id, tokens, match, self.clock(), room=room, bot=bot)

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
        with self._holding(live):
            was_connected = self._seat_connected(live, seat)
            if live.dragger != session.id:
                # The same person, back from elsewhere (a phone that changed network leaves its old
                # socket half open for a while): their new tab plays now, as in a game.
                self._drop_chain(live, seat, live.dragger)
            session.credentials[live.match_id] = Credential.of(token)
            self._subscribe(session, live)
            live.last_active = self.clock()
            self._send_snapshot(live, only(session.id))
            if not was_connected:
                self.bus.publish(live.match_id, [protocol.presence(seat, True)], all_but(session.id))
            self._schedule(live)
        try:
            self.store.touch(live.match_id, self.clock())  # kept RETENTION_DAYS from the last opening
        except StorageError as exc:
            log.warning("could not note that match %s was opened: %s", live.match_id, exc.reason)

    def _rematch(self, session: Session) -> None:
        live = self.get(session.match)
        token = None if live is None else session.credential(live.match_id).token
        if live is None or token is None or self.seat_of(session, live) is None:
            raise RuleError("match/none", "no match to play again")
        with self._holding(live):  # held throughout: two tabs asking at once get one rematch, not two
            old = live.match
            if old.phase is not Phase.OVER:
                raise RuleError("match/not_over", "the match is still being played")
            started = None if live.rematch is None else self.docs.get(live.rematch)
            if started is None and live.rematch is not None:
                started = self._load(live.rematch)  # (it left memory meanwhile: it is saved)
            if started is None:
                seats = [Seat(s.name, s.kind, s.level, s.speed) for s in old.seats]
                self.docs.make_room()
                self.budgets.new_game(session.address)
                started, _ = self._start(old.words, seats, old.settings, None, list(live.holders))
                live.rematch = started.match_id
                # Everyone else on the old match can follow with their own token.
                self.bus.publish(live.match_id, [protocol.rematch(started.match_id)], all_but(session.id))
            else:
                started = self.docs.keep(started)
        self.attach(session, started, token)

    # -- telling people ----------------------------------------------------------------------

    def _seat_connected(self, live: LiveMatch, seat: int) -> bool:
        holder = live.holders[seat]
        return holder is not None and holder in holders(self.presence, live.match_id)

    def _send_snapshot(self, live: LiveMatch, audience: Audience) -> None:
        here = holders(self.presence, live.match_id)
        connected = [holder is not None and holder in here for holder in live.holders]
        message = protocol.match_snapshot(
            live.match, live.match_id, None, None, connected, self.clock(), room=live.room
        )
        self.bus.publish(live.match_id, [protocol.personal(message, live.holders)], audience)

    def _publish(
        self, live: LiveMatch, events: list[MatchEvent], origin: str | None = None, seq: int | None = None
    ) -> None:
        """Publish each event to everyone on the match (a hint to its seat alone); ``origin`` gets ``seq``."""
        letters, now = live.match.words.letters, self.clock()
        for event in events:
            message = protocol.match_event(event, letters, now)
            if isinstance(event, HintGiven):
                self.bus.publish(live.match_id, [message], holders_of(live.holders[event.seat]), origin, seq)
            else:
                self.bus.publish(live.match_id, [message], EVERYONE, origin, seq)
            if isinstance(event, MatchOver) and live.room is not None:
                live.ended = True  # told to the room by ``_holding``, once the match's lock is let go

    @contextmanager
    def _holding(self, live: LiveMatch) -> Iterator[None]:
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

    def drop(self, mid: str) -> None:
        """A room closed: its match leaves memory (it stays saved, with its record)."""
        self.docs.drop(mid)

    def _forget_deadlines(self, live: LiveMatch) -> None:
        self.timers.cancel((live.match_id, "clock"))
        self.timers.cancel((live.match_id, "bot"))


_ACTIONS: dict[type, str] = {
    Release: "play",
    Pass: "pass",
    Shuffle: "shuffle",
    Swap: "swap",
    Hint: "hint",
    Extend: "extend",
}


def _move_doc(match: Match, seat: int | None, action: str, events: list[MatchEvent]) -> dict[str, Any]:
    """What the record keeps of a committed change: its version, who (None: the clock), and what."""
    doc: dict[str, Any] = {"version": match.version, "seat": seat, "action": action}
    played = next((e for e in events if isinstance(e, Played)), None)
    if played is not None:
        doc.update(word=played.word, points=played.score.points, path=[[p.row, p.col] for p in played.path])
    swapped = next((e for e in events if isinstance(e, BoardChanged) and e.reason == "swap"), None)
    if swapped is not None:
        # Which tile became which letter: without it a replay could not follow the board past a swap.
        row, col = swapped.changed[0]["row"], swapped.changed[0]["col"]
        doc.update(row=row, col=col, letter=match.board[Pos(row, col)].symbol)
    return doc


def _bot_of(doc: dict[str, Any], match: Match, current: BotTurn | None) -> BotTurn | None:
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
