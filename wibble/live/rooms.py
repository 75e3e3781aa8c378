"""Rooms in play: people join by code, sit or watch, and the host runs matches.

The same shape as ``matches``: a room command goes through the room's own checks
(``wibble.core.room``: host? between matches? seat free?); what changed the room
(its ``version`` grew) is committed to the store with a compare-and-set before
anyone hears of it; presence (who is connected, who is away) is only broadcast.

A room's match is an ordinary match (``Matches``) whose seats act through the
room: its document carries no tokens, and a connection acts as the room seat its
token opened. Seat *i* of the room is seat *i* of its match (the room moves people
up into free seats when a match starts).

Time is wall-clock, like a match's deadlines: an empty room's age is read from the
store after a restart. Every deadline is an entry in the process's ``Timers``:

- ``((code, token), "grace")``: a person's last connection left; when it falls due,
  their seat is away: a turn of theirs in progress passes, a stand-in bot plays
  their turns, and a host hands the room on;
- ``(code, "room-empty")``: nobody is connected; when it falls due the room is
  deleted (its matches stay, with their records);
- ``(code, "room-over")``: the room's match ended; everyone gets the room as it now
  stands (a gone person's seat is free again).

Locks: a room's lock is taken before its match's, never after.
"""

from __future__ import annotations

import hmac
import logging
import random
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from .. import protocol
from ..core import GameDataError, RuleError, WibbleError
from ..core.match import Phase, Seat, Settings
from ..core.room import Room, Rules, is_code, new_code
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
from ..store import StorageError, Store, VersionConflict
from ..wordlists import WordLists
from .budgets import Budgets
from .clients import Client
from .fanout import Fanout
from .matches import LiveMatch, Matches
from .registry import new_token, token_hash, words_for_player
from .timers import Timers

log = logging.getLogger(__name__)

TOUCH_EVERY = 60.0
"""Seconds between notes to the store that a room is in use (its empty time counts from the last)."""
FAILED_JOINS_PER_CONNECTION = 5
"""Failed joins one connection may make a minute, whatever its address's budget."""

_T = TypeVar("_T")


def address_hash(address: str) -> str:
    """What a room remembers of where a removed person played from: never the address itself."""
    return token_hash(f"address:{address}").hex() if address else ""


def room_id(code: str) -> str:
    """Where a room is kept in the store, and the name of its listeners in the fan-out."""
    return f"room:{code}"


@dataclass(eq=False)
class LiveRoom:
    room: Room
    lock: threading.Lock = field(default_factory=threading.Lock)
    match: LiveMatch | None = None
    away: set[str] = field(default_factory=set)
    """Token hashes of people whose grace period ran out (a stand-in plays for them)."""
    touched: float = float("-inf")
    """When the store last heard that the room is in use."""

    @property
    def code(self) -> str:
        return self.room.code

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


class Rooms:
    def __init__(
        self,
        store: Store,
        wordlists: WordLists,
        fanout: Fanout,
        matches: Matches,
        timers: Timers,
        clock: Callable[[], float],
        budgets: Budgets,
        limits: RoomLimits | None = None,
        round_pause: float = 3.0,
        entropy: random.Random | None = None,
    ) -> None:
        self.store = store
        self.wordlists = wordlists
        self.fanout = fanout
        self.matches = matches
        self.timers = timers
        self.clock = clock
        self.budgets = budgets
        self.limits = limits or RoomLimits()
        self.round_pause = round_pause
        self._entropy = entropy or random.SystemRandom()
        self._rooms: dict[str, LiveRoom] = {}
        self._lock = threading.Lock()
        self.on_attach: Callable[[Client], None] = lambda client: None
        """Called before a connection enters a room (the authority makes it leave its game or match)."""
        matches.on_over = self._match_over
        timers.route("grace", self._grace_due)
        timers.route("room-empty", self._empty_due)
        timers.route("room-over", self._over_due)

    def __len__(self) -> int:
        return len(self._rooms)

    # -- commands ------------------------------------------------------------------------

    def handle(self, client: Client, command: Command) -> None:
        if isinstance(command, CreateRoom):
            self._create(client, command)
            return
        if isinstance(command, JoinRoom):
            self._join(client, command)
            return
        live = client.room
        if live is None:
            raise RuleError("room/not_in_room", "join a room first (join_room with its code)")
        if isinstance(command, StartMatch | Rematch):
            self._start(client, live)
            return
        with live.lock:
            self._change(client, live, command)
        if isinstance(command, LeaveRoom):
            self.leave(client)

    def _change(self, client: Client, live: LiveRoom, command: Command) -> None:
        """A command that changes the room itself, under its lock."""
        room = live.room
        if isinstance(command, TakeSeat):
            self._take_seat(client, live, command.seat)
        elif isinstance(command, LeaveSeat) or (isinstance(command, LeaveRoom) and client.seat is not None):
            self._leave_seat(client, live)
        elif isinstance(command, SetRules):
            rules = self._rules(room.rules, command.rules)
            self._commit(live, lambda: room.set_rules(client.seat, rules, live.playing), "rules")
            self._tell_all(live)
        elif isinstance(command, SetSeat):
            seat, bot, speed = command.seat, command.bot, command.speed
            self._commit(live, lambda: room.set_seat(client.seat, seat, bot, speed, live.playing), "seat")
            self._tell_all(live)
        elif isinstance(command, Remove):
            self._remove(client, live, command.seat)

    def move(self, client: Client, command: Command) -> None:
        """A match command from a connection in a room: only a seat may move, in the room's match."""
        live = client.room
        assert live is not None
        if isinstance(command, Rematch):
            self._start(client, live)
            return
        if client.seat is None:
            raise RuleError("room/not_seated", "you are watching; take a seat between matches to play")
        if client.match is None:
            raise RuleError("match/none", "the room has no match yet; the host starts one")
        self.matches.move(client, command)

    def leave(self, client: Client) -> None:
        """``client`` leaves its room (it disconnected, or opened something else); its seat is held."""
        live = client.room
        if live is None:
            return
        with live.lock:
            self.fanout.remove(room_id(live.code), client)
            self.matches.unwatch(client)
            seat, client.room, client.seat, client.token = client.seat, None, None, None
            now = self.clock()
            if seat is not None and not self._connected(live, seat):
                held = live.room.seats[seat]
                if held is not None and held.token is not None:
                    self.timers.set(((live.code, held.token), "grace"), now + self.limits.grace)
                self._broadcast(live, self._presence(live, seat))
            elif seat is None:
                self._broadcast(live, {"type": "spectators", "count": self._spectators(live)})
            if not self.fanout.count(room_id(live.code)):
                self.timers.set((live.code, "room-empty"), now + self.limits.empty)
                self._touch(live, force=True)

    # -- creating, joining -------------------------------------------------------------------

    def _create(self, client: Client, command: CreateRoom) -> None:
        with self._lock:
            if len(self._rooms) >= self.limits.max_rooms:
                raise RuleError(
                    "server/full", "the server has as many rooms open as it can hold; try again later"
                )
        self.budgets.new_room(client.address)
        rules = self._rules(Rules(), command.rules)
        if rules.wordlist is None:  # name the list the room plays with, so every page can show it
            rules = replace(rules, wordlist=words_for_player(self.wordlists, None).name)
        token = new_token()
        now = self.clock()
        for _ in range(8):
            code = new_code(self._entropy)
            if code in self._rooms or self.store.load(room_id(code)) is not None:
                continue
            room = Room(code, rules)
            room.take_seat(0, command.name, token_hash(token).hex(), False, address_hash(client.address))
            self.store.create(room_id(code), b"", room.to_doc(), now)
            live = LiveRoom(room)
            with self._lock:
                self._rooms[code] = live
            self._attach(client, live, 0, token, command.name)
            return
        raise RuleError("server/busy", "could not find a free room code; try again")  # pragma: no cover

    def _join(self, client: Client, command: JoinRoom) -> None:
        self.budgets.check_join(client.address)
        if client.failed_joins is not None and client.failed_joins.available() < 1:
            raise RuleError("limit/joins", "too many failed joins on this connection; wait a minute")
        live = self._open(command.code)
        if live is None:
            self._failed_join(client)
            raise RuleError("room/not_found", "no room has that code (it may have closed)")
        seat = None
        if command.token is not None:
            given = token_hash(command.token).hex()
            seat = live.room.seat_of(given)
            if seat is None:
                if any(hmac.compare_digest(given, removed) for removed in live.room.removed):
                    raise RuleError("room/removed", "the host removed you from your seat; you can watch")
                self._failed_join(client)
                raise RuleError("room/bad_token", "that token opens no seat of this room; you can watch")
        self._attach(client, live, seat, command.token if seat is not None else None, command.name)

    def _failed_join(self, client: Client) -> None:
        self.budgets.failed_join(client.address)
        if client.failed_joins is None:
            client.failed_joins = TokenBucket(
                FAILED_JOINS_PER_CONNECTION / 60, FAILED_JOINS_PER_CONNECTION, self.clock
            )
        client.failed_joins.take()

    def _open(self, code: str) -> LiveRoom | None:
        """The room ``code``, from memory or else from the store (its match running again)."""
        live = self._rooms.get(code)
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
        with self._lock:
            live = self._rooms.get(code)
            if live is not None:
                return live  # another greenlet loaded it meanwhile
            live = self._rooms[code] = LiveRoom(room)
        with live.lock:
            if room.match_id is not None:
                try:
                    live.match = self.matches.open_for_room(room.match_id, code)
                except WibbleError:  # server/full: the room is not half open; the next join tries again
                    with self._lock:
                        self._rooms.pop(code, None)
                    raise
            # Nobody is connected to a room just loaded: each person's grace period starts now.
            now = self.clock()
            for seat in room.people():
                token = room.seats[seat].token  # type: ignore[union-attr]
                self.timers.set(((code, token), "grace"), now + self.limits.grace)
            if live.match is not None and live.playing:
                for seat, held in enumerate(room.seats):
                    if held is not None and held.gone:
                        self.matches.set_stand_in(live.match, seat, room.rules.stand_in)
            self.timers.set((code, "room-empty"), now + self.limits.empty)
        self._touch(live, force=True)  # open again: its empty time starts from now in the store too
        return live

    def _attach(self, client: Client, live: LiveRoom, seat: int | None, token: str | None, name: str) -> None:
        self.on_attach(client)
        if client.room is not None:
            self.leave(client)
        with live.lock:
            back = seat is not None and not self._connected(live, seat)
            self.fanout.add(room_id(live.code), client)
            client.room, client.seat, client.token, client.name = live, seat, token, name
            self.timers.cancel((live.code, "room-empty"))
            self._send_room(live, client)
            if seat is None:
                self._broadcast(live, {"type": "spectators", "count": self._spectators(live)}, skip=client)
            elif back:
                self._back(live, seat, client)
            if live.match is not None:
                self.matches.watch(live.match, client)
        self._touch(live)

    def _back(self, live: LiveRoom, seat: int, client: Client) -> None:
        """A person's seat has a connection again: its grace period stops, and so does a stand-in."""
        token = live.room.seats[seat].token  # type: ignore[union-attr]
        self.timers.cancel(((live.code, token), "grace"))
        was_away = token in live.away
        live.away.discard(token or "")
        self._broadcast(live, self._presence(live, seat), skip=client)
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
        if host is None or host.token not in live.away:
            return False
        try:
            return self._commit(live, lambda: room.pass_host(self._present(live)), "host")
        except WibbleError as exc:
            log.warning("room %s: could not hand the host role on (%s)", live.code, exc.code)
            return False

    # -- seats -------------------------------------------------------------------------------

    def _take_seat(self, client: Client, live: LiveRoom, seat: int) -> None:
        if client.seat is not None:
            raise RuleError("room/already_seated", "you already hold a seat")
        token = new_token()
        hashed = token_hash(token).hex()
        where = address_hash(client.address)
        seat = self._commit(
            live, lambda: live.room.take_seat(seat, client.name, hashed, live.playing, where), "sit"
        )
        client.seat, client.token = seat, token
        self._host_here(live)  # an away host hands on to someone here
        self._tell_all(live)
        if live.match is not None:
            self.matches.watch(live.match, client)  # its end screen, now as a seat

    def _leave_seat(self, client: Client, live: LiveRoom) -> None:
        seat = client.seat
        if seat is None:
            raise RuleError("room/not_seated", "you are not in a seat")
        hashed = token_hash(client.token).hex() if client.token else None
        playing = live.playing
        self._commit(live, lambda: live.room.leave_seat(seat, playing, self._present(live)), "leave")
        self._unseat(live, seat, hashed)
        if playing and live.match is not None:
            self.matches.set_stand_in(live.match, seat, live.room.rules.stand_in)
        self._tell_all(live)

    def _remove(self, client: Client, live: LiveRoom, seat: int) -> None:
        room, playing, present = live.room, live.playing, self._present(live)
        removed = [c for c in self._clients(live) if c.seat == seat]
        where = {address_hash(c.address) for c in removed if c.address}
        token = self._commit(live, lambda: room.remove(client.seat, seat, playing, present, where), "remove")
        self._unseat(live, seat, token)
        for other in removed:
            other.deliver(protocol.encode({"type": "removed"}))
        if token is not None and playing and live.match is not None:
            self.matches.set_stand_in(live.match, seat, room.rules.stand_in)
        self._tell_all(live)

    def _unseat(self, live: LiveRoom, seat: int, hashed: str | None) -> None:
        """Every connection of ``seat`` watches from now on; the person's token (its hash ``hashed``)
        opens nothing any more, and its grace period and away mark go."""
        for other in self._clients(live):
            if other.seat == seat:
                other.seat, other.token = None, None
                if live.match is not None:
                    self.matches.watch(live.match, other)
        if hashed is not None:
            self.timers.cancel(((live.code, hashed), "grace"))
            live.away.discard(hashed)

    def _rules(self, rules: Rules, patch: RulesPatch) -> Rules:
        if patch.wordlist is not None:
            words_for_player(self.wordlists, patch.wordlist)  # game/unknown_wordlist, or unavailable
        try:
            return Rules(
                patch.rounds if patch.rounds is not None else rules.rounds,
                rules.turn_seconds if isinstance(patch.turn_seconds, protocol.Unset) else patch.turn_seconds,
                patch.wordlist if patch.wordlist is not None else rules.wordlist,
                patch.stand_in if patch.stand_in is not None else rules.stand_in,
            )
        except ValueError as exc:  # pragma: no cover - the protocol checked every range
            raise RuleError("protocol/bad_field", str(exc)) from None

    # -- matches -----------------------------------------------------------------------------

    def _start(self, client: Client, live: LiveRoom) -> None:
        """The host starts the room's next match (``start_match``, or ``rematch`` once one is over)."""
        with live.lock:
            room = live.room
            words = words_for_player(self.wordlists, room.rules.wordlist)
            match_id = new_token(12)

            def begin() -> tuple[dict[int, int], LiveMatch]:
                moved = room.start(client.seat, live.playing, match_id)  # the room's own checks first
                self.budgets.new_game(client.address)
                seats = [Seat(s.name, s.kind, s.level, s.speed) for s in room.seats if s is not None]
                rules = room.rules
                settings = Settings(
                    rounds=rules.rounds, turn_seconds=rules.turn_seconds, round_pause=self.round_pause
                )
                return moved, self.matches.create_for_room(words, seats, settings, room.code, match_id)

            moved, new = self._commit(live, begin, "start")
            old = live.match
            live.match = self.matches.adopt(new)
            if old is not None:
                self.matches.drop(old.match_id)
            for other in self._clients(live):
                if other.seat is not None:
                    other.seat = moved.get(other.seat)
            for seat, held in enumerate(room.seats):
                if held is not None and held.token in live.away:
                    self.matches.set_stand_in(live.match, seat, room.rules.stand_in)
            self._tell_all(live)
            self.matches.watch(live.match, *self._clients(live))

    def _match_over(self, match: LiveMatch) -> None:
        # Called under the match's lock: the room is told from the timers' loop, under its own.
        if match.room is not None:
            self.timers.set((match.room, "room-over"), self.clock())

    def _over_due(self, key: Hashable) -> None:
        live = self._rooms.get(str(key[0])) if isinstance(key, tuple) else None
        if live is not None:
            with live.lock:
                self._tell_all(live)

    # -- deadlines -----------------------------------------------------------------------------

    def _grace_due(self, key: Hashable) -> None:
        """A person has been away the whole grace period: a stand-in plays for them from now on."""
        if not isinstance(key, tuple) or not isinstance(key[0], tuple):
            return
        code, token = key[0]
        live = self._rooms.get(code)
        if live is None:
            return
        with live.lock:
            room = live.room
            seat = room.seat_of(token)
            if seat is None or self._connected(live, seat):
                return
            live.away.add(token)
            self._broadcast(live, self._presence(live, seat))
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
        live = self._rooms.get(code)
        if live is None:
            return
        with live.lock:
            if self.fanout.count(room_id(code)):
                return
        self._delete(code)

    def _delete(self, code: str) -> None:
        """Close a room: it leaves memory and the store; its matches stay saved, records and all."""
        with self._lock:
            live = self._rooms.pop(code, None)
        if live is not None:
            for held in live.room.seats:
                if held is not None and held.token is not None:
                    self.timers.cancel(((code, held.token), "grace"))
            if live.match is not None:
                self.matches.drop(live.match.match_id)
        self.timers.cancel((code, "room-empty"))
        try:
            self.store.delete(room_id(code))
        except StorageError as exc:
            log.warning("could not delete empty room %s: %s", code, exc.reason)

    def sweep(self, purge_batch: int = 500) -> int:
        """Housekeeping: rooms with people in them are noted as alive in the store, and stored rooms
        nobody has been in for the empty time (left there by a restart) are deleted."""
        with self._lock:
            occupied = [live for code, live in self._rooms.items() if self.fanout.count(room_id(code))]
        for live in occupied:
            self._touch(live, force=True)
        return self.store.purge(self.clock() - self.limits.empty, purge_batch, prefix="room:")

    # -- committing and telling ---------------------------------------------------------------

    def _commit(self, live: LiveRoom, apply: Callable[[], _T], action: str) -> _T:
        """Apply a change to the room; if it changed, save it (compare-and-set) before anyone hears."""
        before, version = live.room.to_doc(), live.room.version
        try:
            result = apply()
            if live.room.version != version:
                self._save(live, version, action)
        except VersionConflict:
            self._reload(live, before)
            raise
        except WibbleError:  # refused, or not saved: the room is as it was
            live.room = Room.from_doc(before)
            raise
        return result

    def _reload(self, live: LiveRoom, before: dict[str, Any]) -> None:
        """Another process changed the room first: take the stored room, and show it to everyone."""
        try:
            row = self.store.load(room_id(live.code))
            live.room = Room.from_doc(before if row is None else row.doc)
        except (GameDataError, StorageError):
            live.room = Room.from_doc(before)
        self._tell_all(live)

    def _save(self, live: LiveRoom, expected: int, action: str) -> None:
        room = live.room
        try:
            self.store.commit(
                room_id(room.code),
                expected,
                room.to_doc(),
                {"version": room.version, "action": action},
                self.clock(),
            )
        except StorageError as exc:
            log.error("could not save a change to room %s: %s", room.code, exc.reason)
            raise
        except VersionConflict:
            log.warning("room %s changed in the store under us", room.code)
            raise

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

    def _clients(self, live: LiveRoom) -> list[Client]:
        return self.fanout.listeners(room_id(live.code))

    def _connected(self, live: LiveRoom, seat: int) -> bool:
        return any(c.seat == seat for c in self._clients(live))

    def _present(self, live: LiveRoom) -> set[int]:
        return {c.seat for c in self._clients(live) if c.seat is not None}

    def _spectators(self, live: LiveRoom) -> int:
        return sum(1 for c in self._clients(live) if c.seat is None)

    def _presence(self, live: LiveRoom, seat: int) -> dict[str, Any]:
        held = live.room.seats[seat]
        away = held is not None and (held.gone or (held.token is not None and held.token in live.away))
        return {"type": "presence", "seat": seat, "connected": self._connected(live, seat), "away": away}

    def _snapshot(self, live: LiveRoom) -> dict[str, Any]:
        room, clients = live.room, self._clients(live)
        seated = {c.seat for c in clients}
        away = [held is not None and held.token in live.away for held in room.seats]
        match = live.match
        return protocol.room_snapshot(
            room,
            None if match is None else match.match,
            None if match is None else match.match_id,
            [i in seated for i in range(len(room.seats))],
            away,
            sum(1 for c in clients if c.seat is None),
            self.limits.grace,
        )

    def _send_room(self, live: LiveRoom, client: Client, snapshot: dict[str, Any] | None = None) -> None:
        snapshot = snapshot or self._snapshot(live)
        client.deliver(
            protocol.encode(protocol.with_reader(snapshot, client.seat, client.token, client.name))
        )

    def _tell_all(self, live: LiveRoom) -> None:
        """The room as it now stands, to each connection in it (each with its own seat and token)."""
        snapshot = self._snapshot(live)
        for client in self._clients(live):
            self._send_room(live, client, snapshot)

    def _broadcast(self, live: LiveRoom, message: dict[str, Any], skip: Client | None = None) -> None:
        frame = protocol.encode(message)
        for client in self._clients(live):
            if client is not skip:
                client.deliver(frame)
