"""A room's matches: the host starts one (``start_match``, then ``rematch``), everyone in the room
watches it, the seats play it through the room, and its end is shown in the room."""

from __future__ import annotations

import random

from ... import protocol
from ...core import RuleError
from ...core.match import Seat, Settings
from ...core.room import RACE, Room
from ...wordlists import WordLists
from ..credentials import new_token
from ..matches import LiveMatch
from ..races import LiveRace
from ..sessions import Session
from .held import LiveRoom, room_id
from .keeper import Keeper
from .teams import match_seats


class Play:
    def __init__(
        self,
        keeper: Keeper,
        wordlists: WordLists,
        round_pause: float,
        entropy: random.Random,
        race_minute: int = 60,
    ) -> None:
        self.keeper = keeper
        self.entropy = entropy
        self.race_minute = race_minute
        """Seconds a race's minute lasts (the host's setting ``RACE_MINUTE_SECONDS``)."""
        self.wordlists = wordlists
        self.round_pause = round_pause

    def start(self, session: Session, live: LiveRoom, seq: int | None) -> None:
        """The host starts the room's next match (``start_match``, or ``rematch`` once one is over),
        or its next race when the room's rules say so."""
        with live.lock:  # (the mode is read under the lock a second tab's set_rules takes too)
            if live.room.rules.mode == RACE:
                self.start_race(session, live, seq)
                return
        keeper = self.keeper
        matches = keeper.matches
        with live.lock:
            room = live.room
            by = keeper.seat_of(session, live)
            words = self.wordlists.for_player(room.rules.wordlist)
            match_id = new_token(12)

            def begin() -> LiveMatch:
                room.start(by, live.playing, match_id)  # the room's own checks first
                matches.make_space()
                keeper.budgets.check_new_game(session.address)  # (paid once saved: see below)
                seats, teams = self._seats(room)
                rules = room.rules
                settings = Settings(
                    rounds=rules.rounds,
                    turn_seconds=rules.turn_seconds,
                    round_pause=self.round_pause,
                    values=rules.values,
                    teams=teams,
                )
                return matches.create(words, seats, settings, room.code, match_id)

            new = keeper.commit(live, begin, "start")
            keeper.budgets.spend_new_game(session.address)  # once: a conflict's retry runs begin twice
            keeper.drop_race(live)
            old = live.match
            new.holders = keeper.holders(live)[: len(new.match.seats)]
            live.match = matches.adopt(new)
            if old is not None:
                matches.drop(old.match_id)
            for seat, held in enumerate(room.seats):
                if held is not None and held.away:
                    matches.set_stand_in(live.match, seat, room.rules.stand_in)
            keeper.tell_all(live, (session.id, seq))
            matches.watch(live.match, *keeper.local.get(live.code, {}).values())

    @staticmethod
    def _seats(room: Room) -> tuple[list[Seat], tuple[int, ...] | None]:
        """The match's seats (a 2v2's: seats 0-3, empty ones filled by bots) and its teams."""
        if room.teams:
            return match_seats(room)
        return [Seat(s.name, s.kind, s.level, s.speed) for s in room.seats if s is not None], None

    def start_race(self, session: Session, live: LiveRoom, seq: int | None) -> None:
        """The host starts a race: each filled seat runs (people move up first, as for a match), on
        its own game of one seeded board, for the rules' ``race_seconds``."""
        keeper, races = self.keeper, self.keeper.races
        if races is None:
            raise RuleError("room/no_races", "this server's rooms play matches only")
        with live.lock:
            room = live.room
            by = keeper.seat_of(session, live)
            words = self.wordlists.for_player(room.rules.wordlist)
            race_id = new_token(12)

            def begin() -> LiveRace:
                room.start(by, live.playing, race_id, race=True)  # the room's own checks first
                keeper.budgets.check_new_game(session.address)  # (paid once saved: see below)
                runners = [
                    (seat, held.name, held.kind, held.level)
                    for seat, held in enumerate(room.seats)
                    if held is not None
                ]
                seed = self.entropy.randrange(protocol.MAX_SEED + 1)
                seconds = max(1, room.rules.race_seconds * self.race_minute // 60)
                return races.create(words, seed, seconds, room.code, race_id, runners)

            new = keeper.commit(live, begin, "start")
            keeper.budgets.spend_new_game(session.address)
            old = live.match
            live.match = None
            if old is not None:
                keeper.matches.drop(old.match_id)
                for other in keeper.local.get(live.code, {}).values():
                    keeper.matches.unwatch(other)
            keeper.drop_race(live)
            live.race = races.adopt(new)
            keeper.tell_all(live, (session.id, seq))
            keeper.watch_race(live, *keeper.local.get(live.code, {}).values())

    def race_over(self, race: LiveRace) -> None:
        """The room's race ended: everyone gets the room as it now stands (its Race again button)."""
        live = self.keeper.docs.get(room_id(race.race.room))
        if live is not None:
            with live.lock:
                self.keeper.tell_all(live)

    def over(self, match: LiveMatch) -> None:
        """The room's match ended: everyone gets the room as it now stands (its rematch button).
        Called once the match's lock is let go; the room's may be held already, by the room's own
        command that ended the match (a skipped turn): it is taken again, not waited for."""
        live = self.keeper.docs.get(room_id(match.room)) if match.room is not None else None
        if live is not None:
            with live.lock:
                self.keeper.tell_all(live)
