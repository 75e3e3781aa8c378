"""A room's matches: the host starts one (``start_match``, then ``rematch``), everyone in the room
watches it, the seats play it through the room, and its end is shown in the room."""

from __future__ import annotations

from ...core.match import Seat, Settings
from ...core.room import Room
from ...wordlists import WordLists
from ..credentials import new_token
from ..matches import LiveMatch
from ..sessions import Session
from .held import LiveRoom, room_id
from .keeper import Keeper
from .teams import match_seats


class Play:
    def __init__(self, keeper: Keeper, wordlists: WordLists, round_pause: float) -> None:
        self.keeper = keeper
        self.wordlists = wordlists
        self.round_pause = round_pause

    def start(self, session: Session, live: LiveRoom, seq: int | None) -> None:
        """The host starts the room's next match (``start_match``, or ``rematch`` once one is over)."""
        keeper = self.keeper
        matches = keeper.matches
        with live.lock:
            room = live.room
            by = keeper.seat_of(session, live)
            words = self.wordlists.for_player(room.rules.wordlist)
            match_id = new_token(12)

            def begin() -> LiveMatch:
                room.start(by, live.playing, match_id)  # the room's own checks first
                matches.make_room()
                keeper.budgets.new_game(session.address)
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

    def over(self, match: LiveMatch) -> None:
        """The room's match ended: everyone gets the room as it now stands (its rematch button).
        Called once the match's lock is let go; the room's may be held already, by the room's own
        command that ended the match (a skipped turn): it is taken again, not waited for."""
        live = self.keeper.docs.get(room_id(match.room)) if match.room is not None else None
        if live is not None:
            with live.lock:
                self.keeper.tell_all(live)
