"""Matches in play: create and resume them, apply each seat's commands, run bots and timers.

The same shape as the endless game's ``Authority``: a command goes through the
match's own checklist (``wibble.core.match``: over? your turn? can you pay? legal?);
what changed the match for good (its ``version`` grew) is committed to the store
with a compare-and-set before anyone hears of it; a drag is only broadcast. A
refused command is answered to its sender alone.

Seats are seats: each human seat has its own token (only its hash is stored), a
connection acts as the seat its token opened, and bots act through the very same
commands, driven by deadlines: a bot "thinks" for a while, then drags its word
tile by tile so that people watch it play. Every deadline (a turn's timer, the
pause between rounds, a bot's next step) is one entry in ``Timers``; when it falls
due the match is asked again under its lock, so a timer that fires just as the
turn ends changes nothing.

A match is stored like a game (same store, same table): its document is the
match's ``to_doc`` plus the seats' token hashes. It survives a restart, its turn
timer included (the deadline is in the document); its bots and timers are
scheduled again when someone resumes it.
"""

from __future__ import annotations

import hmac
import logging
import random
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from .. import protocol
from ..core import GameDataError, Pos, RuleError, WibbleError, WordList, WordListError
from ..core.match import (
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
from ..store import StorageError, Store, VersionConflict
from ..wordlists import WordLists
from .budgets import Budgets
from .clients import Client
from .fanout import Fanout
from .registry import new_token, token_hash, words_for_player
from .timers import Timers

log = logging.getLogger(__name__)

BOT_NAMES = ("Ada", "Basil", "Cleo", "Dmitri", "Edda")
BOT_DRAG_TILES = 10
"""A long word's tiles: a bot on a timed turn keeps time for a drag this long."""
RETRY_SECONDS = 1.0
"""How soon a deadline whose commit failed (a full disk, a locked file) is tried again."""


@dataclass(slots=True)
class BotTurn:
    """A bot's turn in progress: which turn, whether it shuffled, and the path it is dragging."""

    turn_no: int
    shuffled: bool = False
    path: tuple[Pos, ...] = ()
    step: int = 0


@dataclass(eq=False)
class LiveMatch:
    match_id: str
    token_hashes: list[bytes | None]
    """Per seat: the SHA-256 of its token (None for a bot)."""
    match: Match
    last_active: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    bot: BotTurn | None = None
    room: str | None = None
    """The code of the room this match is played in (its seats act through the room, not tokens)."""
    stand_ins: dict[int, str] = field(default_factory=dict)
    """People's seats a bot plays for now (away past the grace period, or gone), with its level."""


@dataclass(frozen=True)
class BotPace:
    """How long a bot thinks before its word (a range, seconds) and how long each tile of its drag takes."""

    think: tuple[float, float] = (1.5, 3.0)
    step: float = 0.25


class Matches:
    def __init__(
        self,
        store: Store,
        wordlists: WordLists,
        fanout: Fanout,
        timers: Timers,
        clock: Callable[[], float],
        budgets: Budgets,
        pace: BotPace | None = None,
        min_words: int = 0,
        entropy: random.Random | None = None,
        idle_timeout: float = 3600.0,
        round_pause: float = 3.0,
        max_matches: int = 10_000,
    ) -> None:
        self.store = store
        self.round_pause = round_pause
        self.wordlists = wordlists
        self.fanout = fanout
        self.timers = timers
        self.clock = clock
        self.budgets = budgets
        self.pace = pace or BotPace()
        self.min_words = min_words
        self.idle_timeout = idle_timeout
        self._entropy = entropy or random.SystemRandom()
        self._matches: dict[str, LiveMatch] = {}
        self._lock = threading.Lock()
        self.max_matches = max_matches
        self.on_attach: Callable[[Client], None] = lambda client: None
        """Called just before a connection joins a match (the authority makes it leave its game)."""
        self.on_over: Callable[[LiveMatch], None] = lambda live: None
        """Called (under the match's lock) once a room's match is over: the room shows it."""
        timers.route("clock", self._due)
        timers.route("bot", self._due)

    def __len__(self) -> int:
        return len(self._matches)

    # -- commands ------------------------------------------------------------------------

    def handle(self, client: Client, command: Command) -> None:
        if isinstance(command, NewMatch):
            self.budgets.new_game(client.address)
            live, token = self._create(command)
            self._attach(client, live, token, 0)
        elif isinstance(command, ResumeMatch):
            self.budgets.check_resume(client.address)
            try:
                live, seat = self._open(command.match_id, command.token)
            except RuleError as exc:
                if exc.code in ("game/not_found", "game/bad_token"):
                    self.budgets.failed_resume(client.address)
                raise
            self._attach(client, live, command.token, seat)
        elif isinstance(command, Rematch):
            self._rematch(client)
        else:
            self._move(client, command)

    def leave(self, client: Client) -> None:
        live, seat = client.match, client.seat
        client.match, client.seat = None, None
        if live is None or seat is None:
            return
        with live.lock:
            self.fanout.remove(live.match_id, client)
            live.last_active = self.clock()
            if not self._seat_connected(live, seat):
                self._broadcast(live, [{"type": "presence", "seat": seat, "connected": False}])

    # -- a room's match: its seats act through the room ----------------------------------------

    def create_for_room(
        self, words: WordList, seats: list[Seat], settings: Settings, code: str, match_id: str
    ) -> LiveMatch:
        """A room's new match, saved but not yet running: ``adopt`` it once the room has committed it."""
        seed = self._entropy.randrange(protocol.MAX_SEED + 1)
        match = Match(words, seed, seats, self.clock(), settings, min_words=self.min_words)
        live = LiveMatch(match_id, [None] * len(seats), match, self.clock(), room=code)
        with self._lock:
            self._make_room()
        self.store.create(match_id, b"", self._doc(live), self.clock())
        return live

    def adopt(self, live: LiveMatch) -> LiveMatch:
        """Run a room's match: keep it in memory and set its deadlines."""
        live = self._keep(live)
        with live.lock:
            self._schedule(live)
        return live

    def open_for_room(self, match_id: str, code: str) -> LiveMatch | None:
        """A room's match, from memory or the store (then running again); None if it is gone or damaged."""
        live = self._matches.get(match_id)
        if live is not None:
            return live
        try:
            live = self._load(match_id)
        except RuleError:
            return None
        if live.room != code:
            return None
        return self.adopt(live)

    def watch(self, live: LiveMatch, *clients: Client) -> None:
        """Put a room's connections on its match, each as the seat ``client.seat`` (None: a spectator).

        All of them listen before any snapshot goes out, so that each shows everyone connected."""
        for client in clients:
            if client.match is not None and client.match is not live:
                self.unwatch(client)
        with live.lock:
            for client in clients:
                self.fanout.add(live.match_id, client)
                client.match = live
            live.last_active = self.clock()
            for client in clients:
                self._send_snapshot(live, client)

    def unwatch(self, client: Client) -> None:
        live, client.match = client.match, None
        if live is not None:
            with live.lock:
                self.fanout.remove(live.match_id, client)
                live.last_active = self.clock()

    def move(self, client: Client, command: Command) -> None:
        """A move from a room's seat (the room has checked that the connection holds one)."""
        self._move(client, command)

    def set_stand_in(self, live: LiveMatch, seat: int, level: str | None) -> None:
        """A bot of ``level`` plays ``seat`` from now on (None: its person is back, and the bot
        stops at once, dropping a chain it was dragging for them)."""
        with live.lock:
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
        with live.lock:
            match, now = live.match, self.clock()
            if match.phase is Phase.PLAYING and match.turn == seat:
                if match.chain:
                    self._publish(live, match.cancel(seat))  # everyone stops seeing the half-dragged word
                self._publish(live, self._commit(live, lambda: match.pass_turn(seat, now), seat, "away"))
            self._schedule(live)

    def _move(self, client: Client, command: Command) -> None:
        live, seat = client.match, client.seat
        if live is None or seat is None:
            raise RuleError("match/none", "no match yet: send new_match or resume one first")
        with live.lock:
            now = self.clock()
            # A deadline that has passed is applied first, even if its timer has not run yet:
            # a turn that is over can be neither played nor extended. (At the very instant of
            # the deadline the player's move still counts; the timer then finds the turn over.)
            if live.match.deadline is not None and now > live.match.deadline:
                self._publish(live, self._clock_due(live, now))
                self._schedule(live)
            match = live.match
            if isinstance(command, Press):
                events = match.press(seat, command.pos)
            elif isinstance(command, Enter):
                events = match.enter(seat, command.pos)
            elif isinstance(command, Cancel):
                events = match.cancel(seat)
            else:
                events = self._commit(
                    live, lambda: self._committed(match, seat, command, now), seat, _ACTIONS[type(command)]
                )
            live.last_active = now
            self._publish(live, events, client, command.seq)
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
        match = live.match
        before, version = self._doc(live), match.version
        events = apply()
        if match.version == version:
            return events  # refused as a word, or nothing to do: nothing to save
        try:
            self.store.commit(
                live.match_id, version, self._doc(live), _move_doc(match, seat, action, events), self.clock()
            )
        except StorageError as exc:
            log.error("could not save a move of match %s: %s", live.match_id, exc.reason)
            live.match = Match.from_doc(before, match.words)
            raise
        except VersionConflict:
            log.warning("match %s changed in the store under us; reloading it", live.match_id)
            row = self.store.load(live.match_id)
            live.match = Match.from_doc(before if row is None else row.doc, match.words)
            live.bot = None
            for client in self.fanout.listeners(live.match_id):
                self._send_snapshot(live, client)
            self._schedule(live)
            raise
        return events

    def _doc(self, live: LiveMatch) -> dict[str, Any]:
        doc = {**live.match.to_doc(), "tokens": [None if h is None else h.hex() for h in live.token_hashes]}
        if live.room is not None:
            doc["room"] = live.room
        return doc

    # -- deadlines and bots ----------------------------------------------------------------

    def _schedule(self, live: LiveMatch) -> None:
        """Set this match's deadlines to what its state says: the turn timer or round pause, and its bot."""
        match, mid = live.match, live.match_id
        if match.phase is not Phase.OVER and match.deadline is not None:
            self.timers.set((mid, "clock"), match.deadline)
        else:
            self.timers.cancel((mid, "clock"))
        bot_turn = match.phase is Phase.PLAYING and (
            match.seats[match.turn].kind == "bot" or match.turn in live.stand_ins
        )
        if not bot_turn:
            live.bot = None
            self.timers.cancel((mid, "bot"))
        elif live.bot is None or live.bot.turn_no != match.turn_no:
            live.bot = BotTurn(match.turn_no)
            self.timers.set((mid, "bot"), self.clock() + self._think(match))

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
        live = self._matches.get(mid)
        if live is None:
            return
        with live.lock:
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
                bot.shuffled = True
                self._publish(live, self._commit(live, lambda: match.shuffle(seat), seat, "shuffle"))
                self.timers.set((live.match_id, "bot"), now + self._think(match) / 2)
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
        live.bot = None  # only now: if the commit failed, the retry releases the same chain again
        self._publish(live, events)

    # -- creating, opening, attaching ------------------------------------------------------

    def _create(self, command: NewMatch) -> tuple[LiveMatch, str]:
        words = words_for_player(self.wordlists, command.wordlist)
        seats = [Seat(command.name, "human", speed=command.speed)]
        seats += [Seat(BOT_NAMES[i], "bot", bot.level, bot.speed) for i, bot in enumerate(command.bots)]
        settings = Settings(
            rounds=command.rounds, turn_seconds=command.turn_seconds, round_pause=self.round_pause
        )
        return self._start(words, seats, settings, command.seed, None)

    def _start(
        self,
        words: WordList,
        seats: list[Seat],
        settings: Settings,
        seed: int | None,
        tokens: list[bytes | None] | None,
    ) -> tuple[LiveMatch, str]:
        if seed is None:
            seed = self._entropy.randrange(protocol.MAX_SEED + 1)
        match = Match(words, seed, seats, self.clock(), settings, min_words=self.min_words)
        token = new_token()
        if tokens is None:
            tokens = [token_hash(token) if seat.kind == "human" else None for seat in seats]
        mid = new_token(12)
        live = LiveMatch(mid, tokens, match, self.clock())
        first = next((h for h in tokens if h is not None), b"")
        with self._lock:
            self._make_room()  # before saving: a refused match leaves nothing in the store
        self.store.create(mid, first, self._doc(live), self.clock())
        return self._keep(live), token

    def _open(self, match_id: str, token: str) -> tuple[LiveMatch, int]:
        """The match and the seat ``token`` opens; a match loaded from the store is kept (and its timers
        and bots go on) only once the token is right, so a wrong token starts nothing."""
        live = self._matches.get(match_id)
        loaded = live is None
        if live is None:
            live = self._load(match_id)
        given = token_hash(token)
        seat = next(
            (
                i
                for i, held in enumerate(live.token_hashes)
                if held is not None and hmac.compare_digest(held, given)
            ),
            None,
        )
        if seat is None:
            raise RuleError("game/bad_token", "that token does not open this match")
        if loaded:
            live = self._keep(live)
            with live.lock:
                self._schedule(live)  # its timer and its bot go on where they were
        return live, seat

    def _load(self, match_id: str) -> LiveMatch:
        row = self.store.load(match_id)
        if row is None or row.doc.get("kind") != "match":
            raise RuleError("game/not_found", "no such match (it may have expired); start a new one")
        try:
            name = row.doc.get("wordlist")
            try:
                words = self.wordlists.get(name if isinstance(name, str) else "")
            except (KeyError, WordListError):
                raise GameDataError(f"its word list {name!r} cannot be loaded here") from None
            match = Match.from_doc(row.doc, words)
            tokens = [None if h is None else bytes.fromhex(h) for h in row.doc.get("tokens", [])]
            if len(tokens) != len(match.seats):
                raise GameDataError("its seats' tokens are damaged")
            room = row.doc.get("room")
            if not (room is None or isinstance(room, str)):
                raise GameDataError("its room is damaged")
        except (GameDataError, ValueError, TypeError) as exc:
            log.warning("stored match %s cannot be played: %s", match_id, exc)
            raise RuleError("game/unavailable", "this saved match cannot be loaded on this server") from None
        return LiveMatch(match_id, tokens, match, self.clock(), room=room)

    def _keep(self, live: LiveMatch) -> LiveMatch:
        """Hold ``live`` in memory (or the copy another greenlet loaded meanwhile), making room if need be."""
        with self._lock:
            held = self._matches.get(live.match_id)
            if held is not None:
                return held
            self._make_room()
            self._matches[live.match_id] = live
        return live

    def _make_room(self) -> None:
        """At ``max_matches``, the longest-unattended match leaves memory; ``server/full`` if none can.

        Idle matches are let go by housekeeping (``sweep``), not here: a scan of every
        match on every new one would cost O(matches) on the path of a player's message.
        """
        if len(self._matches) >= self.max_matches and not self._evict_one():
            raise RuleError("server/full", "the server is full of matches in play; try again later")

    def _attach(self, client: Client, live: LiveMatch, token: str, seat: int) -> None:
        self.on_attach(client)
        if client.match is not live or client.seat != seat:
            self.leave(client)  # its old seat may now have nobody connected: the others hear so
        with live.lock:
            was_connected = self._seat_connected(live, seat)
            self.fanout.add(live.match_id, client)
            client.match, client.seat, client.token = live, seat, token
            live.last_active = self.clock()
            self._send_snapshot(live, client)
            if not was_connected:
                self._broadcast(live, [{"type": "presence", "seat": seat, "connected": True}], skip=client)
            self._schedule(live)
        try:
            self.store.touch(live.match_id, self.clock())  # kept RETENTION_DAYS from the last opening
        except StorageError as exc:
            log.warning("could not note that match %s was opened: %s", live.match_id, exc.reason)

    def _rematch(self, client: Client) -> None:
        live, seat = client.match, client.seat
        if live is None or seat is None or client.token is None:
            raise RuleError("match/none", "no match to play again")
        with live.lock:
            old = live.match
            if old.phase is not Phase.OVER:
                raise RuleError("match/not_over", "the match is still being played")
            seats = [Seat(s.name, s.kind, s.level, s.speed) for s in old.seats]
            tokens = list(live.token_hashes)
        self.budgets.new_game(client.address)
        new, _ = self._start(old.words, seats, old.settings, None, tokens)
        with live.lock:
            # Everyone else on the old match can follow with their own token.
            self._broadcast(live, [{"type": "rematch", "match_id": new.match_id}], skip=client)
        self._attach(client, new, client.token, seat)

    # -- telling people ----------------------------------------------------------------------

    def _seat_connected(self, live: LiveMatch, seat: int) -> bool:
        return any(c.seat == seat for c in self.fanout.listeners(live.match_id))

    def _send_snapshot(self, live: LiveMatch, client: Client) -> None:
        connected = [self._seat_connected(live, i) for i in range(len(live.match.seats))]
        you: int | None = client.seat or 0
        token: str | None = client.token or ""
        if live.room is not None:  # a room's seat acts through the room; its token is the room's
            you, token = client.seat, None
        message = protocol.match_snapshot(
            live.match, live.match_id, token, you, connected, self.clock(), room=live.room
        )
        client.deliver(protocol.encode(message))

    def _broadcast(self, live: LiveMatch, messages: list[dict[str, Any]], skip: Client | None = None) -> None:
        frames = [protocol.encode(m) for m in messages]
        for client in self.fanout.listeners(live.match_id):
            if client is not skip:
                for frame in frames:
                    client.deliver(frame)

    def _publish(
        self, live: LiveMatch, events: list[MatchEvent], origin: Client | None = None, seq: int | None = None
    ) -> None:
        """Send each event to everyone on the match (a hint to its seat only); ``seq`` to ``origin`` only."""
        letters, now = live.match.words.letters, self.clock()
        listeners = self.fanout.listeners(live.match_id)
        for event in events:
            message = protocol.match_event(event, letters, now)
            audience = (
                [c for c in listeners if c.seat == event.seat] if isinstance(event, HintGiven) else listeners
            )
            frame = protocol.encode(message)
            for client in audience:
                if client is origin and seq is not None:
                    client.deliver(protocol.encode({**message, "seq": seq}))
                else:
                    client.deliver(frame)
            if isinstance(event, MatchOver) and live.room is not None:
                self.on_over(live)

    def sweep(self) -> None:
        """Let idle matches leave memory (housekeeping calls this now and then)."""
        with self._lock:
            self._sweep()

    def _sweep(self) -> None:
        """Let matches nobody has been on for ``idle_timeout`` leave memory (they stay in the store).

        A timed match goes too: its deadline is in its document, and the next ``resume``
        picks it up where it stopped. ``last_active`` counts people only, not timers.
        """
        now = self.clock()
        stale = [
            mid
            for mid, live in self._matches.items()
            if live.room is None and not self.fanout.count(mid) and now - live.last_active > self.idle_timeout
        ]
        for mid in stale:
            self._drop(mid)

    def _evict_one(self) -> bool:
        """Make room: the match nobody is on that was left longest ago leaves memory."""
        unattended = [
            live for mid, live in self._matches.items() if live.room is None and not self.fanout.count(mid)
        ]
        if not unattended:
            return False
        self._drop(min(unattended, key=lambda live: live.last_active).match_id)
        return True

    def drop(self, mid: str) -> None:
        """A room closed: its match leaves memory (it stays saved, with its record)."""
        with self._lock:
            if mid in self._matches:
                self._drop(mid)

    def _drop(self, mid: str) -> None:
        self.timers.cancel((mid, "clock"))
        self.timers.cancel((mid, "bot"))
        del self._matches[mid]


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
    return doc
