"""What every part of the room service does with a room held here: commit a change and let its
deadlines follow, apply what follows from who is connected, ask who is here, tell everyone.

The service and its parts (``seats``, ``play``, ``deadlines``) each take one ``Keeper``,
which holds the rooms in memory (``docs``) and this process's sessions in each (``local``);
the parts hold nothing of their own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from functools import partial
from typing import Any, TypeVar

from ... import protocol
from ...core import WibbleError
from ...core.room import Settled, settle
from ...engines.bus import EVERYONE, Audience, all_but, only
from ...engines.presence import holders
from ...engines.store import StorageError, VersionConflict
from ...ratelimit import TokenBucket
from ..documents import Documents
from ..matches import RoomMatches
from ..parts import Parts, Service
from ..races import Races
from ..sessions import Session
from .held import LiveRoom, RoomKind, RoomLimits, room_id

log = logging.getLogger(__name__)

SETTLE_TRIES = 3
"""Times a settlement is tried when other processes keep changing the room under it."""
TOUCH_EVERY = 60.0
"""Seconds between notes to the store that a room is in use (its empty time counts from the last)."""
CROWD_EVERY = 1.0
"""Seconds between two counts of a room's watchers: a wave of joins and leaves is told as one
count a second, however many come and go (the first change is told at once)."""

SEAT_MOVES = 6
"""A seat's comings and goings settled at once, in a burst: a person's reloads and lost networks
are always told as they happen."""
SEAT_EVERY = 1.0
"""Past the burst, seconds between two settlings of one seat's coming and going: a seat that
connects and disconnects in a loop (a script reopening its token) is settled, saved and told
once a second, not at every turn of the loop, which grew the room's record by hundreds of moves
a second and told everyone in the room each one."""

_T = TypeVar("_T")
Reply = tuple[str, int | None] | None
"""The session a message answers, and the ``seq`` of its command (None: nobody's command)."""


class Keeper(Service):
    def __init__(
        self,
        parts: Parts,
        matches: RoomMatches,
        races: Races | None,
        limits: RoomLimits,
        adopt: Callable[[str], object],
    ) -> None:
        super().__init__(parts)
        self.matches = matches
        self.races = races
        """None: this server's rooms play matches only (a room set to race is refused)."""
        self.limits = limits
        # Wall-clock: an empty room's age is read from the store after a restart.
        self.wall_clock = wall_clock = parts.wall_clock
        # Rooms are never let go to make room: one open stays until it stands empty. The cap on
        # new rooms is checked as one is created, so a stored room can always open again.
        self.docs: Documents[LiveRoom] = Documents(
            RoomKind(limits, self.follow, self.tell_all),
            parts.store,
            parts.presence,
            wall_clock,
            wall_clock,
            float("inf"),
            "",
            evictable=lambda live: False,
            adopt=adopt,
            doorbell=parts.doorbell,
            rechecks=parts.rechecks,
        )
        self.local: dict[str, dict[str, Session]] = {}
        """This process's sessions in each room: the ones it moves onto the room's next match."""

    def seat_of(self, session: Session, live: LiveRoom) -> int | None:
        """The seat ``session``'s token holds in the room (None: it watches)."""
        holder = session.holder(room_id(live.code))
        return None if holder is None else live.room.seat_of(holder)

    # -- committing ------------------------------------------------------------------------

    def commit(self, live: LiveRoom, apply: Callable[[], _T], action: str) -> _T:
        """Apply a change to the room; if it changed, save it (compare-and-set) before anyone hears.
        The room's deadlines then follow what its document says."""
        result = self.docs.commit(live, apply, lambda _: {"version": live.room.version, "action": action})
        self.schedule(live)
        return result

    def settle(
        self, live: LiveRoom, origin: Session | None = None, also: Collection[int] = (), tell: bool = True
    ) -> Settled:
        """Apply the rules that follow from who is connected (``core.room.settle``) as one commit,
        then tell what changed: each seat whose person left, came back or became away (and
        ``also``, seats whose connection came or went), to everyone but ``origin``; the stand-ins
        that stop; the room itself if its host changed (unless ``tell`` is False: the caller tells
        it); then the turns of seats now away pass and their stand-ins play. Called whenever
        presence changes or a room deadline falls due. Returns what changed."""
        change = self._settled(live)
        audience = EVERYONE if origin is None else all_but(origin.id)
        told = {*change.back, *change.held, *change.away, *also}
        people = live.room.people()  # (in the order they sat down)
        for seat in [*people, *sorted(told - set(people))]:
            if seat in told:
                self.publish(live, self.presence_message(live, seat), audience)
        if live.match is not None:
            for seat in change.returned:
                self.matches.set_stand_in(live.match, seat, None)
        if change.host is not None and tell:
            self.tell_all(live)
        if live.match is not None and live.playing and change.away:
            # The turn held as they became away passes (one turn, however many became away at
            # once: the turns after it are the stand-ins' to play).
            on_turn = live.match.match.turn
            if on_turn in change.away:
                try:
                    self.matches.skip_turn(live.match, on_turn)
                except WibbleError as exc:
                    log.warning("room %s: could not pass an away seat's turn (%s)", live.code, exc.code)
            for seat in change.away:
                self.matches.set_stand_in(live.match, seat, live.room.rules.stand_in)
        return change

    def _settled(self, live: LiveRoom) -> Settled:
        """Commit what follows from who is connected; a room another process changed meanwhile is
        settled again as it now stands. Returns what was committed."""
        for _ in range(SETTLE_TRIES):
            members = self.presence.members(live.doc_id)  # (one read: with Redis, a round trip)
            here = {holder for holder in members.values() if holder is not None}
            change = settle(live.room, here, bool(members), self.wall_clock(), self.limits.grace)
            if not change.changed:
                return change
            try:
                self.commit(live, partial(live.room.apply, change), "presence")
                return change
            except VersionConflict:
                continue  # (the room is now as the store has it)
            except WibbleError as exc:
                log.warning("room %s: could not note who is here (%s)", live.code, exc.code)
                break
        return Settled(change.now, change.until)  # nothing was saved: housekeeping tries again

    def follow(self, live: LiveRoom, away_before: set[str]) -> None:
        """``live`` holds a document another process committed: its deadlines follow it, and so do
        the stand-ins of people who became away, or came back, meanwhile, and the match it plays."""
        self.schedule(live)
        if live.match is not None and live.playing:
            for token in away_before ^ live.away:
                seat = live.room.seat_of(token)
                if seat is not None:
                    level = live.room.rules.stand_in if token in live.away else None
                    self.matches.set_stand_in(live.match, seat, level)
        match_id = live.room.match_id
        if match_id is not None and (live.match is None or live.match.match_id != match_id):
            # A match started elsewhere: this process's sessions in the room watch it too.
            started = self.matches.open(match_id, live.code)
            if started is not None:
                if live.match is not None:  # the room's last match leaves memory here too (it is saved)
                    self.matches.drop(live.match.match_id)
                live.match = started
                self.drop_race(live)
                self.matches.set_holders(started, self.holders(live))
                self.matches.watch(started, *self.local.get(live.code, {}).values())
        elif live.match is not None:
            self.matches.set_holders(live.match, self.holders(live))
        self.follow_race(live)

    def follow_race(self, live: LiveRoom) -> None:
        """The room's race, as its document names it: one started elsewhere is opened here, and this
        process's sessions in the room go on it (each runner onto their own board)."""
        race_id, races = live.room.race_id, self.races
        if races is None or race_id is None or (live.race is not None and live.race.race_id == race_id):
            return
        started = races.open(race_id, live.code)
        if started is None:
            return
        self.drop_race(live)
        if live.match is not None:
            self.matches.drop(live.match.match_id)
            live.match = None
        live.race = started
        self.watch_race(live, *self.local.get(live.code, {}).values())

    def drop_race(self, live: LiveRoom) -> None:
        """The room plays something new: its last race leaves memory here (it stays saved)."""
        if live.race is not None and self.races is not None:
            self.races.drop(live.race.race_id)
            for session in self.local.get(live.code, {}).values():
                self.races.unwatch(session)
        live.race = None

    def watch_race(self, live: LiveRoom, *sessions: Session) -> None:
        """``sessions`` get the room's race, each runner put on their own board."""
        if self.races is None or live.race is None:
            return
        holders = self.holders(live)
        for session in sessions:
            self.races.watch(live.race, session, self.seat_of(session, live), holders)

    def schedule(self, live: LiveRoom) -> None:
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

    def touch(self, live: LiveRoom, force: bool = False) -> None:
        """Note in the store that the room is in use (at most once a minute: joins can come fast)."""
        now = self.wall_clock()
        if not force and now - live.touched < TOUCH_EVERY:
            return
        live.touched = now
        try:
            self.store.touch(room_id(live.code), now)
        except StorageError as exc:
            log.warning("could not note that room %s is in use: %s", live.code, exc.reason)

    def delete(self, code: str) -> None:
        """Close a room: it leaves memory and the store; its matches stay saved, records and all."""
        live = self.docs.get(room_id(code))
        self.docs.drop(room_id(code))
        if live is not None:
            for held in live.room.seats:
                if held is not None and held.token is not None:
                    self.timers.cancel(((code, held.token), "grace"))
            if live.match is not None:
                self.matches.drop(live.match.match_id)
            if live.race is not None and self.races is not None:
                self.races.drop(live.race.race_id)
        self.timers.cancel((code, "room-empty"))
        self.timers.cancel((code, "room-crowd"))
        try:
            self.docs.delete(room_id(code))  # (from other processes' memory too)
        except StorageError as exc:
            log.warning("could not delete empty room %s: %s", code, exc.reason)

    # -- who is here -------------------------------------------------------------------------

    def holders(self, live: LiveRoom) -> list[str | None]:
        """Each seat's token hash (None: empty, a bot, or a person gone)."""
        return [None if held is None else held.token for held in live.room.seats]

    def here(self, live: LiveRoom) -> set[str]:
        return holders(self.presence, room_id(live.code))

    def connected(self, live: LiveRoom, seat: int) -> bool:
        held = live.room.seats[seat]
        return held is not None and held.token is not None and held.token in self.here(live)

    def present(self, live: LiveRoom) -> set[int]:
        here = self.here(live)
        return {i for i, held in enumerate(live.room.seats) if held is not None and held.token in here}

    def spectators(self, live: LiveRoom) -> int:
        seated = {holder for holder in self.holders(live) if holder is not None}
        members = self.presence.members(room_id(live.code)).values()
        return sum(1 for holder in members if holder is None or holder not in seated)

    # -- telling -----------------------------------------------------------------------------

    def presence_message(self, live: LiveRoom, seat: int) -> dict[str, Any]:
        held = live.room.seats[seat]
        away = held is not None and (held.gone or held.away)
        return protocol.presence(seat, self.connected(live, seat), away)

    def seat_moved(
        self, live: LiveRoom, seat: int, origin: Session | None = None, tell: bool = True
    ) -> Settled | None:
        """A seat's person connected or left: settle the room now (``settle``, telling that seat's
        presence) while that person's budget of ``SEAT_MOVES`` (refilled one a ``SEAT_EVERY``)
        lasts; past it, once a ``SEAT_EVERY`` from now, for every seat at once (None: deferred)."""
        held = live.room.seats[seat]
        holder = held.token if held is not None and held.token is not None else str(seat)
        bucket = live.seat_moves.get(holder)  # (the person's, not the seat's: a newcomer starts full)
        if bucket is None:
            bucket = live.seat_moves[holder] = TokenBucket(1 / SEAT_EVERY, SEAT_MOVES, self.wall_clock)
        if bucket.take():
            return self.settle(live, origin, (seat,), tell=tell)
        key = (live.code, "room-seats")
        if self.timers.when(key) is None:
            self.timers.set(key, self.wall_clock() + SEAT_EVERY)
        return None

    def seats_due(self, live: LiveRoom) -> None:
        """The settling ``seat_moved`` deferred: every seat's presence as it now is."""
        self.settle(live, also=tuple(live.room.people()))

    def crowd(self, live: LiveRoom) -> None:
        """The number watching changed: tell everyone now, or at most once per ``CROWD_EVERY``."""
        now = self.wall_clock()
        if now - live.crowd_told >= CROWD_EVERY:
            live.crowd_told = now
            self.publish(live, protocol.spectators(self.spectators(live)))
        else:
            key = (live.code, "room-crowd")
            if self.timers.when(key) is None:
                self.timers.set(key, live.crowd_told + CROWD_EVERY)

    def snapshot(self, live: LiveRoom) -> dict[str, Any]:
        room, here = live.room, self.here(live)
        away = [held is not None and held.away for held in room.seats]
        match = live.match
        snapshot = protocol.room_snapshot(
            room,
            None if match is None else match.match,
            None if match is None else match.match_id,
            [held is not None and held.token in here for held in room.seats],
            away,
            self.spectators(live),
            self.limits.grace,
            None if live.race is None else live.race.race,
        )
        return protocol.personal(snapshot, self.holders(live))

    def send_room(self, live: LiveRoom, audience: Audience, reply: Reply = None) -> None:
        origin, seq = reply or (None, None)
        self.bus.publish(room_id(live.code), [self.snapshot(live)], audience, origin, seq)

    def reply(self, live: LiveRoom, session: Session, seq: int | None) -> None:
        """The room as it now stands, to ``session`` alone, answering its command ``seq``."""
        self.send_room(live, only(session.id), (session.id, seq))

    def tell_all(self, live: LiveRoom, reply: Reply = None) -> None:
        """The room as it now stands, to each session in it (each reads its own seat and token);
        ``reply``: the session whose command this answers, and its ``seq``."""
        self.send_room(live, EVERYONE, reply)

    def publish(self, live: LiveRoom, message: dict[str, Any], audience: Audience = EVERYONE) -> None:
        self.bus.publish(room_id(live.code), [message], audience)
