"""Rooms in play: people join by code, sit or watch, and the host runs matches.

The same shape as ``matches``: a room command goes through the room's own checks
(``wibble.core.room``: host? between matches? seat free?); what changed the room
(its ``version`` grew) is committed to the store with a compare-and-set before
anyone hears of it; presence (who is connected, who is away) is only broadcast.

A room's match is an ordinary match (``Matches``) whose seats act through the
room: its document carries no tokens, and a session acts as the room seat its
token holds, looked up in the room's document at each command. Seat *i* of the
room is seat *i* of its match (the room moves people up into free seats when a
match starts); nobody's session is rewritten when seats move. Who is here is asked
of the presence service.

Time is wall-clock, like a match's deadlines: an empty room's age is read from the
store after a restart. Every deadline is an entry in the process's ``Timers``:

- ``((code, token), "grace")``: a person's last connection left; when it falls due,
  their seat is away: a turn of theirs in progress passes, a stand-in bot plays
  their turns, and a host hands the room on;
- ``(code, "room-empty")``: nobody is connected; when it falls due the room is
  deleted (its matches stay, with their records);
When a room's match ends, everyone gets the room as it now stands (its rematch), told
as the match's lock is let go (``Matches.on_over``).

Locks: a room's lock is taken before its match's, never after.
"""

from __future__ import annotations

import hmac
import logging
import random
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, TypeVar

from .. import protocol
from ..core import GameDataError, RuleError, WibbleError
from ..core.match import Phase, Seat, Settings
from ..core.room import Room, Rules, is_code, new_code
from ..engines.bus import EVERYONE, Audience, all_but, holders_of, only
from ..engines.presence import holders
from ..engines.store import AlreadyExists, StorageError
from ..protocol import (
    Command,
    CreateRoom,
    JoinRoom,
    LeaveRoom,
    LeaveSeat,
    Rematch,
    Remove,
    RulesPatch,
    SetRules,
    SetSeat,
    StartMatch,
    TakeSeat,
)
from ..ratelimit import TokenBucket
from .credentials import address_hash, holder_of, new_token
from .documents import Documents
from .matches import LiveMatch, Matches
from .parts import Parts, Service
from .sessions import Credential, Session

log = logging.getLogger(__name__)

TOUCH_EVERY = 60.0
"""Seconds between notes to the store that a room is in use (its empty time counts from the last)."""
FAILED_JOINS_PER_CONNECTION = 5
"""Failed joins one connection may make a minute, whatever its address's budget."""
CROWD_EVERY = 1.0
"""Seconds between two counts of a room's watchers: a wave of joins and leaves is told as one
count a second, however many come and go (the first change is told at once)."""

_T = TypeVar("_T")
Reply = tuple[str, int | None] | None
"""The session a message answers, and the ``seq`` of its command (None: nobody's command)."""


def room_id(code: str) -> str:
    """Where a room is kept in the store, and its topic on the bus."""
    return f"room:{code}"


@dataclass(eq=False)
class LiveRoom:
    room: Room
    lock: threading.RLock = field(default_factory=threading.RLock)
    """Re-entrant: a room's command may end its match, whose end the room then tells under it."""
    match: LiveMatch | None = None
    graced: set[str] = field(default_factory=set)
    """The token hashes whose grace deadline is set in this process's timers (an index of the
    document's ``grace_until``s, rebuilt from it after every change)."""
    touched: float = float("-inf")
    """When the store last heard that the room is in use."""
    last_active: float = 0.0
    """Unused: a room leaves memory when it has stood empty, not when idle."""
    crowd_told: float = float("-inf")
    """When everyone was last told how many watch (see ``CROWD_EVERY``)."""

    @property
    def code(self) -> str:
        return self.room.code

    @property
    def doc_id(self) -> str:
        return room_id(self.room.code)

    @property
    def version(self) -> int:
        return self.room.version

    @property
    def away(self) -> set[str]:
        """Token hashes of people whose grace period ran out (a stand-in plays for them)."""
        return self.room.away()

    @property
    def playing(self) -> bool:
        return self.match is not None and self.match.match.phase is not Phase.OVER


@dataclass(frozen=True)
class RoomLimits:
    grace: float = 120.0
    """Seconds a person's seat is held for them after their last connection leaves."""
    empty: float = 1800.0
    """Seconds a room with nobody connected is kept."""
    max_rooms: int = 1000
    max_spectators: int = 200
    """People watching one room at once (its seats do not count)."""
    spectators_per_address: int = 10
    """People watching one room from one address at once."""


class Rooms(Service):
    def __init__(
        self,
        parts: Parts,
        matches: Matches,
        limits: RoomLimits | None = None,
        round_pause: float = 3.0,
        entropy: random.Random | None = None,
    ) -> None:
        super().__init__(parts)
        self.matches = matches
        self.clock = clock = parts.wall_clock  # an empty room's age is read from the store after a restart
        self.limits = limits or RoomLimits()
        self.round_pause = round_pause
        self._entropy = entropy or random.SystemRandom()
        # Rooms are never let go to make room: one open stays until it stands empty. The cap on
        # new rooms is checked as one is created, so a stored room can always open again.
        self.docs: Documents[LiveRoom] = Documents(
            self, parts.store, parts.presence, clock, clock, float("inf"), "", evictable=lambda live: False
        )
        timers = parts.timers
        self._local: dict[str, dict[str, Session]] = {}
        """This process's sessions in each room: the ones it moves onto the room's next match."""
        matches.on_over = self._match_over
        self.docs.adopt = lambda doc_id: self._open(doc_id.removeprefix("room:"))
        timers.route("grace", self._grace_due)
        timers.route("room-empty", self._empty_due)
        timers.route("room-crowd", self._crowd_due)

    def __len__(self) -> int:
        return len(self.docs)

    def get(self, session: Session) -> LiveRoom | None:
        """The room ``session`` is in, if any."""
        return self.docs.get(session.room)

    # -- the document's kind (see ``documents.Kind``) ---------------------------------------

    name = "room"

    def dump(self, live: LiveRoom) -> dict[str, Any]:
        return live.room.to_doc()

    def restore(self, live: LiveRoom, doc: dict[str, Any]) -> None:
        live.room = Room.from_doc(doc)

    def reloaded(self, live: LiveRoom, doc: dict[str, Any]) -> None:
        self._take(live, doc)
        self._tell_all(live)

    def due(self, live: LiveRoom) -> float | None:
        """The first grace period to run out, or when the room, standing empty, closes."""
        room = live.room
        times = list(room.due().values())
        if room.empty_since is not None:
            times.append(room.empty_since + self.limits.empty)
        return min(times, default=None)

    def refresh(self, live: LiveRoom, doc: dict[str, Any]) -> None:
        self._take(live, doc)
        match_id = live.room.match_id
        if match_id is not None and (live.match is None or live.match.match_id != match_id):
            # A match started elsewhere: this process's sessions in the room watch it too.
            started = self.matches.open_for_room(match_id, live.code)
            if started is not None:
                if live.match is not None:  # the room's last match leaves memory here too (it is saved)
                    self.matches.drop(live.match.match_id)
                live.match = started
                self.matches.set_holders(started, self._holders(live))
                self.matches.watch(started, *self._local.get(live.code, {}).values())
        elif live.match is not None:
            self.matches.set_holders(live.match, self._holders(live))

    def _take(self, live: LiveRoom, doc: dict[str, Any]) -> None:
        """``live`` becomes ``doc`` (another process changed it): its deadlines follow the document,
        and so do the stand-ins of people who became away, or came back, meanwhile."""
        before = live.away
        live.room = Room.from_doc(doc)
        self._schedule(live)
        if live.match is not None and live.playing:
            for token in before ^ live.away:
                seat = live.room.seat_of(token)
                if seat is not None:
                    level = live.room.rules.stand_in if token in live.away else None
                    self.matches.set_stand_in(live.match, seat, level)

    def seat_of(self, session: Session, live: LiveRoom) -> int | None:
        """The seat ``session``'s token holds in the room (None: it watches)."""
        holder = session.holder(room_id(live.code))
        return None if holder is None else live.room.seat_of(holder)

    # -- commands ------------------------------------------------------------------------

    def handle(self, session: Session, command: Command) -> None:
        if isinstance(command, CreateRoom):
            self._create(session, command)
            return
        if isinstance(command, JoinRoom):
            self._join(session, command)
            return
        live = self.get(session)
        if live is None:
            raise RuleError("room/not_in_room", "join a room first (join_room with its code)")
        if isinstance(command, StartMatch | Rematch):
            self._start(session, live, command.seq)
            return
        with live.lock:
            self._change(session, live, command)
        if isinstance(command, LeaveRoom):
            self.leave(session)

    def _change(self, session: Session, live: LiveRoom, command: Command) -> None:
        """A command that changes the room itself, under its lock."""
        room, by, reply = live.room, self.seat_of(session, live), (session.id, command.seq)
        if isinstance(command, TakeSeat):
            self._take_seat(session, live, command.seat, reply)
        elif isinstance(command, LeaveSeat) or (isinstance(command, LeaveRoom) and by is not None):
            self._leave_seat(session, live, reply)
        elif isinstance(command, SetRules):
            rules = self._rules(room.rules, command.rules)
            self._commit(live, lambda: room.set_rules(by, rules, live.playing), "rules")
            self._tell_all(live, reply)
        elif isinstance(command, SetSeat):
            seat, bot, speed = command.seat, command.bot, command.speed
            self._commit(live, lambda: room.set_seat(by, seat, bot, speed, live.playing), "seat")
            self._tell_all(live, reply)
        elif isinstance(command, Remove):
            self._remove(session, live, command.seat, reply)

    def move(self, session: Session, command: Command) -> None:
        """A match command from a session in a room: only a seat may move, in the room's match."""
        live = self.get(session)
        if live is None:
            raise RuleError("room/not_in_room", "join a room first (join_room with its code)")
        if isinstance(command, Rematch):
            self._start(session, live, command.seq)
            return
        if self.seat_of(session, live) is None:
            raise RuleError("room/not_seated", "you are watching; take a seat between matches to play")
        if session.match is None:
            raise RuleError("match/none", "the room has no match yet; the host starts one")
        self.matches.move(session, command)

    def leave(self, session: Session) -> None:
        """``session`` leaves its room (it disconnected, or opened something else); its seat is held."""
        live = self.get(session)
        if live is None:
            if session.room is not None:  # (its room left memory under it: let go of what it had)
                self.matches.unwatch(session)
                self.bus.unsubscribe(session.room, session)
                self.presence.leave(session.room, session.id)
                session.credentials.pop(session.room, None)
                session.room = None
            return
        topic = room_id(live.code)
        with live.lock:
            seat = self.seat_of(session, live)
            self.matches.unwatch(session)
            self.bus.unsubscribe(topic, session)
            self.presence.leave(topic, session.id)
            self._local.get(live.code, {}).pop(session.id, None)
            session.room = None
            session.credentials.pop(topic, None)
            now = self.clock()
            if seat is not None and not self._connected(live, seat):
                held = live.room.seats[seat]
                if held is not None and held.token is not None:
                    token = held.token
                    self._note(live, lambda: live.room.left(token, now + self.limits.grace), "left")
                self._publish(live, self._presence(live, seat))
            elif seat is None:
                self._crowd(live)
            if not self.presence.count(topic):
                self._local.pop(live.code, None)
                # (``live.room``, not a name for it: a note that met another process's commit
                # put the stored room in its place)
                self._note(live, lambda: live.room.emptied(now), "empty")
                self._touch(live, force=True)

    # -- creating, joining -------------------------------------------------------------------

    def create(self, session: Session, command: CreateRoom) -> tuple[LiveRoom, str]:
        """A new room, saved, with ``session``'s person in seat 0 as its host; returns it and their
        token (the router then attaches the session)."""
        if len(self.docs) >= self.limits.max_rooms and not self._close_an_empty_room():
            raise RuleError(
                "server/full", "the server has as many rooms open as it can hold; try again later"
            )
        rules = self._rules(Rules(), command.rules)
        if rules.wordlist is None:  # name the list the room plays with, so every page can show it
            rules = replace(rules, wordlist=self.wordlists.for_player(None).name)
        self.budgets.new_room(session.address)  # only once nothing else can refuse the room
        token = new_token()
        for _ in range(8):
            room = Room(new_code(self._entropy), rules)
            room.take_seat(0, command.name, holder_of(token), False, address_hash(session.address))
            try:
                return self.docs.create(LiveRoom(room)), token
            except AlreadyExists:  # the store allocates codes: a code in use is simply drawn again
                continue
        raise RuleError("server/busy", "could not find a free room code; try again")  # pragma: no cover

    def _close_an_empty_room(self) -> bool:
        """Every room is open and someone wants a new one: the room that has stood empty longest
        closes early, if only its creator ever sat in it, or if it has been empty for a whole
        grace period (its people are not just reloading). Rooms in use are never closed.
        Returns whether one closed."""
        now, lonely, deserted = self.clock(), [], []
        for live in self.docs:
            empty_since = live.room.empty_since
            if empty_since is None:
                continue  # someone is in it
            if live.room.joins <= 1:
                lonely.append((empty_since, live.code))
            elif now - empty_since >= self.limits.grace:
                deserted.append((empty_since, live.code))
        candidates = lonely or deserted
        if not candidates:
            return False
        self._delete(min(candidates)[1])
        return True

    def join(self, session: Session, command: JoinRoom) -> tuple[LiveRoom, str | None]:
        """The room ``command`` names and the seat token it brings (None: it will watch); the router
        then attaches the session. Nothing changes for a join that is refused."""
        self.budgets.check_join(session.address)
        if session.failed_joins is not None and session.failed_joins.available() < 1:
            raise RuleError("limit/joins", "too many failed joins on this connection; wait a minute")
        live = self._open(command.code)
        if live is None:
            self._failed_join(session)
            raise RuleError("room/not_found", "no room has that code (it may have closed)")
        if command.token is None:
            self._check_crowd(session, live)
            return live, None
        given = holder_of(command.token)
        if live.room.seat_of(given) is None:
            if any(hmac.compare_digest(given, removed) for removed in live.room.removed):
                raise RuleError("room/removed", "the host removed you from your seat; you can watch")
            self._failed_join(session)
            raise RuleError("room/bad_token", "that token opens no seat of this room; you can watch")
        return live, command.token

    def _create(self, session: Session, command: CreateRoom) -> None:
        live, token = self.create(session, command)
        self.attach(session, live, token, command.name, command.seq)

    def _join(self, session: Session, command: JoinRoom) -> None:
        live, token = self.join(session, command)
        self.attach(session, live, token, command.name, command.seq)

    def _failed_join(self, session: Session) -> None:
        self.budgets.failed_join(session.address)
        if session.failed_joins is None:
            session.failed_joins = TokenBucket(
                FAILED_JOINS_PER_CONNECTION / 60, FAILED_JOINS_PER_CONNECTION, self.clock
            )
        session.failed_joins.take()

    def _open(self, code: str) -> LiveRoom | None:
        """The room ``code``, from memory or else from the store (its match running again)."""
        live = self.docs.get(room_id(code))
        if live is not None or not is_code(code):
            return live
        row = self.store.load(room_id(code))
        if row is None:
            return None
        if self.clock() - row.updated > self.limits.empty:
            self._delete(code)  # it stood empty too long: closed, though housekeeping had not got to it
            return None
        try:
            room = Room.from_doc(row.doc)
        except GameDataError as exc:
            log.warning("stored room %s cannot be opened: %s", code, exc)
            return None
        fresh = LiveRoom(room)
        live = self.docs.keep(fresh)
        if live is not fresh:
            return live  # another greenlet loaded it meanwhile
        with live.lock:
            self._open_match(live)
            self._loaded(live)
        self._touch(live, force=True)  # open again: its empty time starts from now in the store too
        return live

    def _loaded(self, live: LiveRoom) -> None:
        """A room just loaded here: nobody is connected to it on this process (with several, some may
        be on another). Each person connected nowhere whose seat is not held for them yet is held
        from now (one connected when the last process died); the others keep the deadline their
        document has; with nobody anywhere, the room is empty, since now if not before. Then its
        timers follow its document, and the stand-ins its away seats need play."""
        room, now, here = live.room, self.clock(), self._here(live)

        def nobody_here() -> None:
            for seat in room.people():
                token = room.seats[seat].token or ""  # type: ignore[union-attr]
                if token not in here:
                    room.left(token, now + self.limits.grace)
            if not self.presence.count(live.doc_id):
                room.emptied(now)

        self._note(live, nobody_here, "loaded")
        self._schedule(live)
        if live.match is not None and live.playing:
            for seat, held in enumerate(room.seats):
                if held is not None and (held.gone or held.away):
                    self.matches.set_stand_in(live.match, seat, room.rules.stand_in)

    def _open_match(self, live: LiveRoom) -> None:
        """A room just loaded from the store: its match runs again, its seats held by the room's."""
        if live.room.match_id is None:
            return
        try:
            live.match = self.matches.open_for_room(live.room.match_id, live.code)
        except WibbleError:  # server/full: the room is not half open; the next join tries again
            self.docs.drop(live.doc_id)
            raise
        if live.match is not None:
            self.matches.set_holders(live.match, self._holders(live))

    def attach(
        self, session: Session, live: LiveRoom, token: str | None, name: str, seq: int | None = None
    ) -> None:
        """``session`` is in the room from now on, acting with ``token`` (None: watching); the room
        it gets answers the command with ``seq``."""
        topic = room_id(live.code)
        credential = Credential.of(token, name)
        if session.room == topic and session.holder(topic) == credential.holder:
            self._refresh(session, live, credential, seq)
            return
        if session.room is not None:
            self.leave(session)
        with live.lock:
            seat = None if credential.holder is None else live.room.seat_of(credential.holder)
            back = seat is not None and not self._connected(live, seat)
            session.room, session.credentials[topic] = topic, credential
            self.bus.subscribe(topic, session)
            self.presence.join(topic, session.id, credential.holder)
            self._local.setdefault(live.code, {})[session.id] = session
            self._note(live, live.room.occupied, "occupied")
            self._send_room(live, only(session.id), (session.id, seq))
            if seat is None:
                self._crowd(live)
            elif back:
                self._back(live, seat, session)
            if live.match is not None:
                self.matches.watch(live.match, session)
        self._touch(live)

    def _refresh(self, session: Session, live: LiveRoom, credential: Credential, seq: int | None) -> None:
        """The same connection joins the room it is in, as the same seat (or watching again): it
        gets the room and its match afresh, and nobody else hears a thing. A client repeating
        ``join_room`` costs the others nothing."""
        with live.lock:
            session.credentials[room_id(live.code)] = credential
            self._send_room(live, only(session.id), (session.id, seq))
            if live.match is not None:
                self.matches.watch(live.match, session)

    def _check_crowd(self, session: Session, live: LiveRoom) -> None:
        """Refuse one more watcher past the room's cap, or past the cap for one address."""
        if session.room == room_id(live.code):
            return  # already here: it takes no new place
        if self._spectators(live) >= self.limits.max_spectators:
            raise RuleError("room/crowded", "this room has as many people watching as it can take")
        if session.address:
            topic = room_id(live.code)
            mine = sum(
                1
                for other in self._local.get(live.code, {}).values()
                if other.address == session.address
                and self.seat_of(other, live) is None
                and other.room == topic
            )
            if mine >= self.limits.spectators_per_address:
                raise RuleError("room/crowded", "too many people watch this room from your address")

    def _crowd(self, live: LiveRoom) -> None:
        """The number watching changed: tell everyone now, or at most once per ``CROWD_EVERY``."""
        now = self.clock()
        if now - live.crowd_told >= CROWD_EVERY:
            live.crowd_told = now
            self._publish(live, protocol.spectators(self._spectators(live)))
        else:
            key = (live.code, "room-crowd")
            if self.timers.when(key) is None:
                self.timers.set(key, live.crowd_told + CROWD_EVERY)

    def _crowd_due(self, key: Hashable) -> None:
        live = self.docs.get(room_id(str(key[0]))) if isinstance(key, tuple) else None
        if live is not None:
            with live.lock:
                self._crowd(live)

    def _back(self, live: LiveRoom, seat: int, session: Session) -> None:
        """A person's seat has a connection again: its grace period stops, and so does a stand-in."""
        token = live.room.seats[seat].token or ""  # type: ignore[union-attr]
        was_away = self._note(live, lambda: live.room.back(token), "back", False)
        self._publish(live, self._presence(live, seat), all_but(session.id))
        if was_away and live.match is not None:
            self.matches.set_stand_in(live.match, seat, None)
        if self._host_here(live):
            self._tell_all(live)

    def _host_here(self, live: LiveRoom) -> bool:
        """A host who stayed away past the grace period while nobody else was here keeps the room only
        until someone is: then it passes on, so that the people here can play. True if it did (the
        caller tells everyone)."""
        room = live.room
        host = None if room.host is None else room.seats[room.host]
        if host is None or not host.away:
            return False
        try:
            return self._commit(live, lambda: room.pass_host(self._present(live)), "host")
        except WibbleError as exc:
            log.warning("room %s: could not hand the host role on (%s)", live.code, exc.code)
            return False

    # -- seats -------------------------------------------------------------------------------

    def _take_seat(self, session: Session, live: LiveRoom, seat: int, reply: Reply) -> None:
        topic = room_id(live.code)
        if self.seat_of(session, live) is not None:
            raise RuleError("room/already_seated", "you already hold a seat")
        token = new_token()
        name = session.credential(topic).name
        credential = Credential.of(token, name)
        where = address_hash(session.address)
        seat = self._commit(
            live, lambda: live.room.take_seat(seat, name, credential.holder or "", live.playing, where), "sit"
        )
        session.credentials[topic] = credential
        self.presence.join(topic, session.id, credential.holder)
        self._host_here(live)  # an away host hands on to someone here
        self._tell_all(live, reply)
        if live.match is not None:
            self.matches.set_holders(live.match, self._holders(live))
            self.matches.watch(live.match, session)  # its end screen, now as a seat

    def _leave_seat(self, session: Session, live: LiveRoom, reply: Reply) -> None:
        topic = room_id(live.code)
        seat = self.seat_of(session, live)
        if seat is None:
            raise RuleError("room/not_seated", "you are not in a seat")
        hashed = session.holder(topic)
        playing = live.playing
        self._commit(live, lambda: live.room.leave_seat(seat, playing, self._present(live)), "leave")
        session.credentials[topic] = Credential.of(None, session.credential(topic).name)
        self.presence.join(topic, session.id, None)
        self._unseat(live, seat, hashed)
        if live.match is not None:  # it watches from now on: its match as a spectator sees it
            self.matches.watch(live.match, session)
        if playing and live.match is not None:
            self.matches.set_stand_in(live.match, seat, live.room.rules.stand_in)
        self._tell_all(live, reply)

    def _remove(self, session: Session, live: LiveRoom, seat: int, reply: Reply) -> None:
        room, playing, present = live.room, live.playing, self._present(live)
        target = room.seats[seat]
        removed = target.token if target is not None else None
        # The addresses the person plays from now, as well as the one they sat down from.
        where = {
            address_hash(other.address)
            for other in self._local.get(live.code, {}).values()
            if other.address and removed is not None and other.holder(room_id(live.code)) == removed
        }
        by = self.seat_of(session, live)
        token = self._commit(live, lambda: room.remove(by, seat, playing, present, where), "remove")
        self._unseat(live, seat, token)
        if token is not None:
            self._publish(live, protocol.removed(), holders_of(token))
        if token is not None and playing and live.match is not None:
            self.matches.set_stand_in(live.match, seat, room.rules.stand_in)
        self._tell_all(live, reply)

    def _unseat(self, live: LiveRoom, seat: int, hashed: str | None) -> None:
        """The person whose token hash is ``hashed`` no longer holds ``seat``: their token opens
        nothing any more, their grace period and away mark go, and every session of theirs gets
        the match again, now as a spectator."""
        if live.match is not None:
            tell = holders_of(hashed) if hashed is not None else None
            self.matches.set_holders(live.match, self._holders(live), tell)
        self._schedule(live)  # (a grace period of theirs goes with their seat)

    def _rules(self, rules: Rules, patch: RulesPatch) -> Rules:
        if patch.wordlist is not None:
            self.wordlists.for_player(patch.wordlist)  # game/unknown_wordlist, or unavailable
        try:
            return Rules(
                patch.rounds if patch.rounds is not None else rules.rounds,
                rules.turn_seconds if isinstance(patch.turn_seconds, protocol.Unset) else patch.turn_seconds,
                patch.wordlist if patch.wordlist is not None else rules.wordlist,
                patch.stand_in if patch.stand_in is not None else rules.stand_in,
                patch.values if patch.values is not None else rules.values,
            )
        except ValueError as exc:  # pragma: no cover - the protocol checked every range
            raise RuleError("protocol/bad_field", str(exc)) from None

    # -- matches -----------------------------------------------------------------------------

    def _start(self, session: Session, live: LiveRoom, seq: int | None) -> None:
        """The host starts the room's next match (``start_match``, or ``rematch`` once one is over)."""
        with live.lock:
            room = live.room
            by = self.seat_of(session, live)
            words = self.wordlists.for_player(room.rules.wordlist)
            match_id = new_token(12)

            def begin() -> LiveMatch:
                room.start(by, live.playing, match_id)  # the room's own checks first
                self.matches.docs.make_room()
                self.budgets.new_game(session.address)
                seats = [Seat(s.name, s.kind, s.level, s.speed) for s in room.seats if s is not None]
                rules = room.rules
                settings = Settings(
                    rounds=rules.rounds,
                    turn_seconds=rules.turn_seconds,
                    round_pause=self.round_pause,
                    values=rules.values,
                )
                return self.matches.create_for_room(words, seats, settings, room.code, match_id)

            new = self._commit(live, begin, "start")
            old = live.match
            new.holders = self._holders(live)[: len(new.match.seats)]
            live.match = self.matches.adopt(new)
            if old is not None:
                self.matches.drop(old.match_id)
            for seat, held in enumerate(room.seats):
                if held is not None and held.away:
                    self.matches.set_stand_in(live.match, seat, room.rules.stand_in)
            self._tell_all(live, (session.id, seq))
            self.matches.watch(live.match, *self._local.get(live.code, {}).values())

    def _match_over(self, match: LiveMatch) -> None:
        """The room's match ended: everyone gets the room as it now stands (its rematch button).
        Called once the match's lock is let go; the room's may be held already, by the room's own
        command that ended the match (a skipped turn): it is taken again, not waited for."""
        live = self.docs.get(room_id(match.room)) if match.room is not None else None
        if live is not None:
            with live.lock:
                self._tell_all(live)

    # -- deadlines -----------------------------------------------------------------------------

    def _grace_due(self, key: Hashable) -> None:
        """A person has been away the whole grace period: a stand-in plays for them from now on."""
        if not isinstance(key, tuple) or not isinstance(key[0], tuple):
            return
        code, token = key[0]
        live = self.docs.get(room_id(code))
        if live is None:
            return
        with live.lock:
            room = live.room
            seat = room.seat_of(token)
            if seat is None:
                return
            if self._connected(live, seat):  # back on another process, which could not say so yet
                self._note(live, lambda: room.back(token), "back")
                return
            if not self._note(live, lambda: room.grace_over(token, self.clock()), "away", False):
                return  # not yet (it was held longer meanwhile), or handled already
            self._publish(live, self._presence(live, seat))
            if self._host_here(live):
                self._tell_all(live)
            if live.match is not None and live.playing:
                try:
                    self.matches.skip_turn(live.match, seat)
                except WibbleError as exc:
                    log.warning("room %s: could not pass an away seat's turn (%s)", code, exc.code)
                self.matches.set_stand_in(live.match, seat, room.rules.stand_in)

    def _empty_due(self, key: Hashable) -> None:
        code = str(key[0]) if isinstance(key, tuple) else ""
        live = self.docs.get(room_id(code))
        if live is None:
            return
        with live.lock:
            if self.presence.count(room_id(code)):
                self._note(live, live.room.occupied, "occupied")
                return
            since = live.room.empty_since
            if since is None or self.clock() < since + self.limits.empty:
                return  # someone came and went meanwhile: its new deadline is set
        self._delete(code)

    def _delete(self, code: str) -> None:
        """Close a room: it leaves memory and the store; its matches stay saved, records and all."""
        live = self.docs.get(room_id(code))
        self.docs.drop(room_id(code))
        if live is not None:
            for held in live.room.seats:
                if held is not None and held.token is not None:
                    self.timers.cancel(((code, held.token), "grace"))
            if live.match is not None:
                self.matches.drop(live.match.match_id)
        self.timers.cancel((code, "room-empty"))
        self.timers.cancel((code, "room-crowd"))
        try:
            self.docs.delete(room_id(code))  # (from other processes' memory too)
        except StorageError as exc:
            log.warning("could not delete empty room %s: %s", code, exc.reason)

    def notice_absent(self) -> int:
        """Bring every room's grace periods in line with who is connected anywhere: a person
        connected nowhere whose seat is not held for them yet is held from now, and one connected
        whose document still holds (or marks away) their seat is back. Returns how many changed.

        A person who leaves starts their own grace period, on the process they left. One whose
        process died never leaves: their presence runs out with that process, and this (run
        once another process is seen to have died, ``Router.notice_departed``, and at every
        housekeeping pass) is where their grace period starts."""
        return sum(self._reconcile(live) for live in self.docs)

    def _reconcile(self, live: LiveRoom) -> int:
        changed = 0
        with live.lock:
            here = self._here(live)
            for seat in live.room.people():
                held = live.room.seats[seat]
                if held is None or held.token is None:  # (people() holds only seats with a token)
                    continue
                if held.token in here and (held.away or held.grace_until is not None):
                    was_away = self._note(live, partial(live.room.back, held.token), "back", False)
                    if was_away and live.match is not None:
                        self.matches.set_stand_in(live.match, seat, None)
                elif held.token in here or not self._note(
                    live, partial(live.room.left, held.token, self.clock() + self.limits.grace), "left", False
                ):
                    continue
                self._publish(live, self._presence(live, seat))
                changed += 1
            if not self.presence.count(live.doc_id) and live.room.empty_since is None:
                changed += bool(self._note(live, partial(live.room.emptied, self.clock()), "empty", False))
        return changed

    def sweep(self, purge_batch: int = 500) -> int:
        """Housekeeping: rooms with people in them are noted as alive in the store, and stored rooms
        nobody has been in for the empty time (left there by a restart) are deleted."""
        occupied = [live for live in self.docs if self.presence.count(live.doc_id)]
        for live in occupied:
            self._touch(live, force=True)
        self.notice_absent()
        return self.store.purge(self.clock() - self.limits.empty, purge_batch, prefix="room:")

    # -- committing and telling ---------------------------------------------------------------

    def _commit(self, live: LiveRoom, apply: Callable[[], _T], action: str) -> _T:
        """Apply a change to the room; if it changed, save it (compare-and-set) before anyone hears.
        The room's deadlines then follow what its document says."""
        result = self.docs.commit(live, apply, lambda _: {"version": live.room.version, "action": action})
        self._schedule(live)
        return result

    def _note(self, live: LiveRoom, apply: Callable[[], _T], action: str, failed: Any = None) -> _T | Any:
        """Commit a change that follows from who is connected (nobody waits for its answer): if it
        cannot be saved, say so in the log and return ``failed``; housekeeping tries again."""
        try:
            return self._commit(live, apply, action)
        except WibbleError as exc:
            log.warning("room %s: could not note %r (%s)", live.code, action, exc.code)
            return failed

    def _schedule(self, live: LiveRoom) -> None:
        """Set the room's deadlines to what its document says (the timers are an index of it):
        each held seat's grace period, and the end of an empty room."""
        code, due = live.code, live.room.due()
        for token in live.graced - due.keys():
            self.timers.cancel(((code, token), "grace"))
        for token, until in due.items():
            self.timers.set(((code, token), "grace"), until)
        live.graced = set(due)
        since = live.room.empty_since
        if since is None:
            self.timers.cancel((code, "room-empty"))
        else:
            self.timers.set((code, "room-empty"), since + self.limits.empty)

    def _touch(self, live: LiveRoom, force: bool = False) -> None:
        """Note in the store that the room is in use (at most once a minute: joins can come fast)."""
        now = self.clock()
        if not force and now - live.touched < TOUCH_EVERY:
            return
        live.touched = now
        try:
            self.store.touch(room_id(live.code), now)
        except StorageError as exc:
            log.warning("could not note that room %s is in use: %s", live.code, exc.reason)

    def _holders(self, live: LiveRoom) -> list[str | None]:
        """Each seat's token hash (None: empty, a bot, or a person gone)."""
        return [None if held is None else held.token for held in live.room.seats]

    def _here(self, live: LiveRoom) -> set[str]:
        return holders(self.presence, room_id(live.code))

    def _connected(self, live: LiveRoom, seat: int) -> bool:
        held = live.room.seats[seat]
        return held is not None and held.token is not None and held.token in self._here(live)

    def _present(self, live: LiveRoom) -> set[int]:
        here = self._here(live)
        return {i for i, held in enumerate(live.room.seats) if held is not None and held.token in here}

    def _spectators(self, live: LiveRoom) -> int:
        seated = {holder for holder in self._holders(live) if holder is not None}
        members = self.presence.members(room_id(live.code)).values()
        return sum(1 for holder in members if holder is None or holder not in seated)

    def _presence(self, live: LiveRoom, seat: int) -> dict[str, Any]:
        held = live.room.seats[seat]
        away = held is not None and (held.gone or held.away)
        return protocol.presence(seat, self._connected(live, seat), away)

    def _snapshot(self, live: LiveRoom) -> dict[str, Any]:
        room, here = live.room, self._here(live)
        away = [held is not None and held.away for held in room.seats]
        match = live.match
        snapshot = protocol.room_snapshot(
            room,
            None if match is None else match.match,
            None if match is None else match.match_id,
            [held is not None and held.token in here for held in room.seats],
            away,
            self._spectators(live),
            self.limits.grace,
        )
        return protocol.personal(snapshot, self._holders(live))

    def _send_room(self, live: LiveRoom, audience: Audience, reply: Reply = None) -> None:
        origin, seq = reply or (None, None)
        self.bus.publish(room_id(live.code), [self._snapshot(live)], audience, origin, seq)

    def _tell_all(self, live: LiveRoom, reply: Reply = None) -> None:
        """The room as it now stands, to each session in it (each reads its own seat and token);
        ``reply``: the session whose command this answers, and its ``seq``."""
        self._send_room(live, EVERYONE, reply)

    def _publish(self, live: LiveRoom, message: dict[str, Any], audience: Audience = EVERYONE) -> None:
        self.bus.publish(room_id(live.code), [message], audience)
