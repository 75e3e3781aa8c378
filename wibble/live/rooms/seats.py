"""The commands that change a room itself: sitting down, getting up, the host's rules, seats and
removals. Each goes through the room's own checks (``core.room``) in one commit, then everyone
hears the room as it now stands."""

from __future__ import annotations

from ... import protocol
from ...core import RuleError
from ...core.room import Rules
from ...engines.bus import holders_of
from ...protocol import Command, LeaveRoom, LeaveSeat, Remove, RulesPatch, SetRules, SetSeat, TakeSeat
from ...wordlists import WordLists
from ..credentials import address_hash, new_token
from ..sessions import Credential, Session
from .held import LiveRoom, room_id
from .keeper import Keeper, Reply


class Seats:
    def __init__(self, keeper: Keeper, wordlists: WordLists) -> None:
        self.keeper = keeper
        self.wordlists = wordlists

    def change(self, session: Session, live: LiveRoom, command: Command) -> None:
        """A command that changes the room itself, under its lock."""
        keeper, room = self.keeper, live.room
        by, reply = keeper.seat_of(session, live), (session.id, command.seq)
        if isinstance(command, TakeSeat):
            self._take_seat(session, live, command, reply)
        elif isinstance(command, LeaveSeat) or (isinstance(command, LeaveRoom) and by is not None):
            self._leave_seat(session, live, reply)
        elif isinstance(command, SetRules):
            rules = self.rules(room.rules, command.rules)
            if rules == room.rules and by == room.host and not live.playing:
                keeper.reply(live, session, command.seq)  # nothing to change: nothing saved, nobody told
                return
            keeper.commit(live, lambda: room.set_rules(by, rules, live.playing), "rules")
            keeper.tell_all(live, reply)
        elif isinstance(command, SetSeat):
            seat, bot, speed = command.seat, command.bot, command.speed
            keeper.commit(live, lambda: room.set_seat(by, seat, bot, speed, live.playing), "seat")
            keeper.tell_all(live, reply)
        elif isinstance(command, Remove):
            self._remove(session, live, command.seat, reply)

    def rules(self, rules: Rules, patch: RulesPatch) -> Rules:
        """``rules`` with what ``patch`` sets (a word list this server cannot play is refused)."""
        if patch.wordlist is not None:
            self.wordlists.for_player(patch.wordlist)  # game/unknown_wordlist, or unavailable
        try:
            return Rules(
                patch.rounds if patch.rounds is not None else rules.rounds,
                rules.turn_seconds if isinstance(patch.turn_seconds, protocol.Unset) else patch.turn_seconds,
                patch.wordlist if patch.wordlist is not None else rules.wordlist,
                patch.stand_in if patch.stand_in is not None else rules.stand_in,
                patch.values if patch.values is not None else rules.values,
                patch.mode if patch.mode is not None else rules.mode,
                patch.race_seconds if patch.race_seconds is not None else rules.race_seconds,
            )
        except ValueError as exc:  # pragma: no cover - the protocol checked every range
            raise RuleError("protocol/bad_field", str(exc)) from None

    def _take_seat(self, session: Session, live: LiveRoom, command: TakeSeat, reply: Reply) -> None:
        keeper, topic = self.keeper, room_id(live.code)
        if keeper.seat_of(session, live) is not None:
            raise RuleError("room/already_seated", "you already hold a seat")
        name = session.credential(topic).name
        credential = Credential.of(new_token(), name)
        where = address_hash(session.address)
        seat, team, token = command.seat, command.team, credential.holder or ""
        keeper.commit(live, lambda: live.room.take_seat(seat, name, token, live.playing, where, team), "sit")
        keeper.members.change(session, topic, credential)
        keeper.settle(live, tell=False)  # an away host hands on to someone here
        keeper.tell_all(live, reply)
        if live.match is not None:
            keeper.matches.set_holders(live.match, keeper.holders(live))
            keeper.matches.watch(live.match, session)  # its end screen, now as a seat

    def _leave_seat(self, session: Session, live: LiveRoom, reply: Reply) -> None:
        keeper, topic = self.keeper, room_id(live.code)
        seat = keeper.seat_of(session, live)
        if seat is None:
            raise RuleError("room/not_seated", "you are not in a seat")
        hashed = session.holder(topic)
        playing = live.playing
        keeper.commit(live, lambda: live.room.leave_seat(seat, playing, keeper.present(live)), "leave")
        keeper.members.change(session, topic, Credential.of(None, session.credential(topic).name))
        self._unseat(live, hashed)
        if live.match is not None:  # it watches from now on: its match as a spectator sees it
            keeper.matches.watch(live.match, session)
        if playing and live.match is not None:
            keeper.matches.set_stand_in(live.match, seat, live.room.rules.stand_in)
        keeper.tell_all(live, reply)

    def _remove(self, session: Session, live: LiveRoom, seat: int, reply: Reply) -> None:
        keeper = self.keeper
        room, playing, present = live.room, live.playing, keeper.present(live)
        target = room.seats[seat]
        removed = target.token if target is not None else None
        # The addresses the person plays from now (on any process), as well as the one they sat
        # down from.
        topic = room_id(live.code)
        holding = keeper.presence.members(topic)
        where = {
            there
            for other, there in keeper.presence.addresses(topic).items()
            if there and removed is not None and holding.get(other) == removed
        }
        by = keeper.seat_of(session, live)
        token = keeper.commit(live, lambda: room.remove(by, seat, playing, present, where), "remove")
        self._unseat(live, token)
        if token is not None:
            keeper.publish(live, protocol.removed(), holders_of(token))
        if token is not None and playing and live.match is not None:
            keeper.matches.set_stand_in(live.match, seat, room.rules.stand_in)
        keeper.tell_all(live, reply)

    def _unseat(self, live: LiveRoom, hashed: str | None) -> None:
        """The person whose token hash is ``hashed`` no longer holds their seat: their token opens
        nothing any more, their grace period and away mark go, and every session of theirs gets
        the match again, now as a spectator."""
        keeper = self.keeper
        if live.match is not None:
            tell = holders_of(hashed) if hashed is not None else None
            keeper.matches.set_holders(live.match, keeper.holders(live), tell)
        keeper.schedule(live)  # (a grace period of theirs goes with their seat)
