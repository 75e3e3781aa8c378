"""The rooms service: coming into a room and going out of it (creating one, joining by code with
a seat's token or to watch, a connection attaching and leaving, a stored room opened again), and
each room command handed to the part that does it."""

from __future__ import annotations

import hmac
import logging
import random
from dataclasses import replace

from ...core import GameDataError, RuleError, WibbleError
from ...core.room import Room, Rules, is_code, new_code
from ...engines.store import AlreadyExists
from ...protocol import (
    Cancel,
    Command,
    CreateRoom,
    Enter,
    Follow,
    JoinRoom,
    LeaveRoom,
    Press,
    Release,
    Rematch,
    StartMatch,
)
from ...ratelimit import TokenBucket
from ..credentials import address_hash, holder_of, new_token
from ..documents import Documents
from ..matches import RoomMatches
from ..parts import Parts
from ..races import Races
from ..sessions import Credential, Session
from .deadlines import Deadlines
from .held import LiveRoom, RoomLimits, room_id
from .keeper import Keeper
from .play import Play
from .seats import Seats

log = logging.getLogger(__name__)

FAILED_JOINS_PER_CONNECTION = 5
"""Failed joins one connection may make a minute, whatever its address's budget."""


class Rooms:
    """The rooms of this process: the router's one way in (create, join, attach, leave, and each
    room command), over a ``Keeper`` and its parts."""

    def __init__(
        self,
        parts: Parts,
        matches: RoomMatches,
        limits: RoomLimits | None = None,
        round_pause: float = 3.0,
        entropy: random.Random | None = None,
        races: Races | None = None,
        race_minute: int = 60,
    ) -> None:
        self.keeper = keeper = Keeper(parts, matches, races, limits or RoomLimits(), self._pick_up)
        self.docs: Documents[LiveRoom] = keeper.docs
        self.wordlists = parts.wordlists
        self._entropy = entropy or random.SystemRandom()
        self.seats = Seats(keeper, parts.wordlists)
        self.play = Play(keeper, parts.wordlists, round_pause, self._entropy, race_minute)
        self.deadlines = Deadlines(keeper, parts.timers)

    def _pick_up(self, doc_id: str) -> None:
        """A room whose deadline nobody handled (its process died) is opened here."""
        self.open(doc_id.removeprefix("room:"))

    def __len__(self) -> int:
        return len(self.docs)

    def get(self, session: Session) -> LiveRoom | None:
        """The room ``session`` is in, if any."""
        return self.docs.get(session.room)

    # -- commands ------------------------------------------------------------------------

    def handle(self, session: Session, command: Command) -> None:
        """A room command from a session in a room (the router takes ``create_room`` and
        ``join_room`` itself)."""
        live = self.get(session)
        if live is None:
            raise RuleError("room/not_in_room", "join a room first (join_room with its code)")
        if isinstance(command, StartMatch | Rematch):
            self._start(session, live, command)
            return
        if isinstance(command, Follow):
            self._follow(session, live, command.seat)
            return
        with live.lock:
            self.seats.change(session, live, command)
        if isinstance(command, LeaveRoom):
            self.leave(session)

    def move(self, session: Session, command: Command) -> None:
        """A match command from a session in a room: only a seat may move, in the room's match."""
        live = self.get(session)
        if live is None:
            raise RuleError("room/not_in_room", "join a room first (join_room with its code)")
        if isinstance(command, Rematch):
            self._start(session, live, command)
            return
        seat = self.keeper.seat_of(session, live)
        if seat is None:
            raise RuleError("room/not_seated", "you are watching; take a seat between matches to play")
        if live.race is not None and self.keeper.races is not None:
            if not isinstance(command, Press | Enter | Cancel | Release):
                raise RuleError("race/not_in_race", "a race has no turns or powers: drag words on your board")
            # A runner's drag goes to their own game, whose checklist judges it as any game's.
            game = self.keeper.races.move(session, seat, live.race)
            if session.game == game.game_id:
                self.keeper.races.games.move(session, command)
            return
        if session.match is None:
            raise RuleError("match/none", "the room has no match yet; the host starts one")
        self.keeper.matches.move(session, command)

    def _start(self, session: Session, live: LiveRoom, command: StartMatch | Rematch) -> None:
        """``start_match``, or ``rematch`` once the room has played something to play again."""
        if isinstance(command, Rematch) and live.room.match_id is None and live.room.race_id is None:
            raise RuleError("match/none", "no match to play again: start_match starts the room's first")
        self.play.start(session, live, command.seq)

    def _follow(self, session: Session, live: LiveRoom, seat: int) -> None:
        races = self.keeper.races
        if live.race is None or races is None:
            raise RuleError("race/none", "the room has no race to follow")
        races.follow(live.race, session, seat, self.keeper.seat_of(session, live))

    # -- coming in, going out ------------------------------------------------------------------

    def create(self, session: Session, command: CreateRoom) -> tuple[LiveRoom, str]:
        """A new room, saved, with ``session``'s person in seat 0 as its host; returns it and their
        token (the router then attaches the session)."""
        keeper = self.keeper
        rules = self.seats.rules(Rules(), command.rules)
        if rules.wordlist is None:  # name the list the room plays with, so every page can show it
            rules = replace(rules, wordlist=self.wordlists.for_player(None).name)
        # Every refusal before the server makes space: a refused room closes nobody's.
        keeper.budgets.check_new_room(session.address)
        if len(keeper.docs) >= keeper.limits.max_rooms and not self._close_an_empty_room():
            raise RuleError(
                "server/full", "the server has as many rooms open as it can hold; try again later"
            )
        keeper.budgets.new_room(session.address)  # only once nothing else can refuse the room
        token = new_token()
        for _ in range(8):
            room = Room(new_code(self._entropy), rules)
            room.take_seat(0, command.name, holder_of(token), False, address_hash(session.address))
            try:
                return keeper.docs.create(LiveRoom(room)), token
            except AlreadyExists:  # the store allocates codes: a code in use is simply drawn again
                continue
        raise RuleError("server/busy", "could not find a free room code; try again")  # pragma: no cover

    def _close_an_empty_room(self) -> bool:
        """Every room is open and someone wants a new one: the room that has stood empty longest
        closes early, if only its creator ever sat in it, or if it has been empty for a whole
        grace period (its people are not just reloading). Rooms in use are never closed.
        Returns whether one closed."""
        keeper = self.keeper
        now, lonely, deserted = keeper.wall_clock(), [], []
        for live in keeper.docs:
            empty_since = live.room.empty_since
            if empty_since is None:
                continue  # someone is in it
            if live.room.joins <= 1:
                lonely.append((empty_since, live.code))
            elif now - empty_since >= keeper.limits.grace:
                deserted.append((empty_since, live.code))
        candidates = lonely or deserted
        if not candidates:
            return False
        keeper.delete(min(candidates)[1])
        return True

    def join(self, session: Session, command: JoinRoom) -> tuple[LiveRoom, str | None]:
        """The room ``command`` names and the seat token it brings (None: it will watch); the router
        then attaches the session. Nothing changes for a join that is refused."""
        self.keeper.budgets.check_join(session.address)
        if session.failed_joins is not None and session.failed_joins.available() < 1:
            raise RuleError("limit/joins", "too many failed joins on this connection; wait a minute")
        live = self.open(command.code)
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

    def _failed_join(self, session: Session) -> None:
        self.keeper.budgets.failed_join(session.address)
        if session.failed_joins is None:
            session.failed_joins = TokenBucket(
                FAILED_JOINS_PER_CONNECTION / 60, FAILED_JOINS_PER_CONNECTION, self.keeper.wall_clock
            )
        session.failed_joins.take()

    def _check_crowd(self, session: Session, live: LiveRoom) -> None:
        """Refuse one more watcher past the room's cap, or past the cap for one address."""
        keeper, topic = self.keeper, room_id(live.code)
        if session.room == topic:
            return  # already here: it takes no new place
        if keeper.spectators(live) >= keeper.limits.max_spectators:
            raise RuleError("room/crowded", "this room has as many people watching as it can take")
        if session.address:  # (asked of presence: the watchers on every process count)
            where, members = address_hash(session.address), keeper.presence.members(topic)
            mine = sum(
                1
                for other, there in keeper.presence.addresses(topic).items()
                if there == where and live.room.seat_of(members.get(other) or "") is None
            )
            if mine >= keeper.limits.spectators_per_address:
                raise RuleError("room/crowded", "too many people watch this room from your address")

    def open(self, code: str) -> LiveRoom | None:
        """The room ``code``, from memory or else from the store (its match running again)."""
        keeper = self.keeper
        live = keeper.docs.get(room_id(code))
        if live is not None or not is_code(code):
            return live
        row = keeper.store.load(room_id(code))
        if row is None:
            return None
        if keeper.wall_clock() - row.updated > keeper.limits.empty:
            keeper.delete(code)  # it stood empty too long: closed, though housekeeping had not got to it
            return None
        try:
            room = Room.from_doc(row.doc)
        except GameDataError as exc:
            log.warning("stored room %s cannot be opened: %s", code, exc)
            return None
        fresh = LiveRoom(room)
        live = keeper.docs.keep(fresh)
        if live is not fresh:
            return live  # another greenlet loaded it meanwhile
        with live.lock:
            self._open_match(live)
            self._loaded(live)
        keeper.touch(live, force=True)  # open again: its empty time starts from now in the store too
        return live

    def _open_match(self, live: LiveRoom) -> None:
        """A room just loaded from the store: its match runs again, its seats held by the room's."""
        keeper = self.keeper
        keeper.follow_race(live)  # (a room whose last start was a race)
        if live.room.match_id is None:
            return
        try:
            live.match = keeper.matches.open(live.room.match_id, live.code)
        except WibbleError:  # server/full: the room is not half open; the next join tries again
            keeper.docs.drop(live.doc_id)
            raise
        if live.match is not None:
            keeper.matches.set_holders(live.match, keeper.holders(live))

    def _loaded(self, live: LiveRoom) -> None:
        """A room just loaded here: what follows from who is connected (anywhere) is settled (the
        seat of each person connected nowhere is held from now, unless it already was; with
        nobody anywhere, the room is empty), its timers follow its document, and the stand-ins
        its away seats need play."""
        keeper = self.keeper
        keeper.settle(live)
        keeper.schedule(live)
        room = live.room
        if live.match is not None and live.playing:
            for seat, held in enumerate(room.seats):
                if held is not None and (held.gone or held.away):
                    keeper.matches.set_stand_in(live.match, seat, room.rules.stand_in)

    def attach(
        self, session: Session, live: LiveRoom, token: str | None, name: str, seq: int | None = None
    ) -> None:
        """``session`` is in the room from now on, acting with ``token`` (None: watching); the room
        it gets answers the command with ``seq``."""
        keeper, topic = self.keeper, room_id(live.code)
        credential = Credential.of(token, name)
        if session.room == topic and session.holder(topic) == credential.holder:
            self._again(session, live, credential, seq)
            return
        if session.room is not None:
            self.leave(session)
        with live.lock:
            seat = None if credential.holder is None else live.room.seat_of(credential.holder)
            back = seat is not None and not keeper.connected(live, seat)
            keeper.members.enter(session, "room", topic, credential)
            keeper.local.setdefault(live.code, {})[session.id] = session
            if seat is not None and back:
                settled = keeper.seat_moved(live, seat, session, tell=False)
            else:
                settled = keeper.settle(live, session, (), tell=False)
            keeper.reply(live, session, seq)
            if seat is None:
                keeper.crowd(live)
            if settled is not None and settled.host is not None:  # (an away host handed on: tell all)
                keeper.tell_all(live)
            if live.match is not None:
                keeper.matches.watch(live.match, session)
            keeper.watch_race(live, session)
        keeper.touch(live)

    def _again(self, session: Session, live: LiveRoom, credential: Credential, seq: int | None) -> None:
        """The same connection joins the room it is in, as the same seat (or watching again): it
        gets the room and its match afresh, and nobody else hears a thing. A client repeating
        ``join_room`` costs the others nothing."""
        with live.lock:
            self.keeper.members.change(session, room_id(live.code), credential)
            self.keeper.reply(live, session, seq)
            if live.match is not None:
                self.keeper.matches.watch(live.match, session)
            self.keeper.watch_race(live, session)

    def leave(self, session: Session) -> None:
        """``session`` leaves its room (it disconnected, or opened something else); its seat is held."""
        keeper = self.keeper
        live = keeper.docs.get(session.room)
        if live is None:
            if session.room is not None:  # (its room left memory under it: let go of what it had)
                keeper.matches.unwatch(session)
                if keeper.races is not None:
                    keeper.races.unwatch(session)
                keeper.members.leave(session, "room")
            return
        topic = room_id(live.code)
        with live.lock:
            seat = keeper.seat_of(session, live)
            keeper.matches.unwatch(session)
            if keeper.races is not None:
                keeper.races.unwatch(session)
            keeper.members.leave(session, "room")
            keeper.local.get(live.code, {}).pop(session.id, None)
            gone = seat is not None and not keeper.connected(live, seat)
            if gone and seat is not None:
                keeper.seat_moved(live, seat)
            else:
                keeper.settle(live)
            if seat is None:
                keeper.crowd(live)
            if not keeper.presence.count(topic):
                keeper.local.pop(live.code, None)
                keeper.touch(live, force=True)
