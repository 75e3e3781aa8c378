"""The one way rooms reach matches (``Rooms`` is given a ``RoomMatches`` when it is built).

A room's match is an ordinary match whose seats act through the room: it carries no tokens,
the room tells it who holds each seat (``set_holders``), puts the room's sessions on it
(``watch``), and has a stand-in bot play a seat whose person is away (``set_stand_in``).
"""

from __future__ import annotations

from ... import protocol
from ...core import RuleError, WordList
from ...core.match import Match, Phase, Seat, Settings
from ...engines.bus import EVERYONE, Audience, only
from ...protocol import Command
from ..sessions import Session
from .held import LiveMatch
from .service import Matches


class RoomMatches:
    def __init__(self, matches: Matches) -> None:
        self.matches = matches

    def make_space(self) -> None:
        """Refuse a new match while memory is full of matches in use (``server/full``)."""
        self.matches.docs.make_space()

    def create(
        self, words: WordList, seats: list[Seat], settings: Settings, code: str, match_id: str
    ) -> LiveMatch:
        """A room's new match, saved but not yet running: ``adopt`` it once the room has committed it."""
        matches = self.matches
        seed = matches.entropy.randrange(protocol.MAX_SEED + 1)
        match = Match(words, seed, seats, matches.wall_clock(), settings, min_words=matches.min_words)
        live = LiveMatch(match_id, [None] * len(seats), match, matches.wall_clock(), room=code)
        matches.bots.plan(live)
        matches.docs.save_new(live)
        return live

    def adopt(self, live: LiveMatch) -> LiveMatch:
        """Run a room's match: keep it in memory and set its deadlines."""
        matches = self.matches
        live = matches.docs.keep(live)
        with matches.holding(live):
            matches.deadlines.schedule(live)
        return live

    def open(self, match_id: str, code: str) -> LiveMatch | None:
        """A room's match, from memory or the store (then running again); None if it is gone or damaged."""
        live = self.matches.docs.get(match_id)
        if live is not None:
            return live
        try:
            live = self.matches.load(match_id)
        except RuleError:
            return None
        if live.room != code:
            return None
        return self.adopt(live)

    def drop(self, match_id: str) -> None:
        """A room closed, or started its next match: this one leaves memory (it stays saved, with
        its record)."""
        self.matches.docs.drop(match_id)

    def watch(self, live: LiveMatch, *sessions: Session) -> None:
        """Put a room's sessions on its match, each as the seat its room token holds (or watching).

        All of them listen before any snapshot goes out, so that each shows everyone connected."""
        matches = self.matches
        for session in sessions:
            if session.match is not None and session.match != live.match_id:
                matches.detach(session)
        with matches.holding(live):
            for session in sessions:
                matches.members.enter(session, "match", live.match_id)  # (as its room credential holds)
                seat = matches.seat_of(session, live)
                if live.dragger not in (None, session.id) and seat == live.match.turn:
                    # A new tab of the seat whose turn it is plays now (the dragging one may be a
                    # phone that lost its network). Anyone else's coming leaves the drag alone.
                    matches.drop_chain(live, seat, live.dragger)
            live.last_active = matches.wall_clock()
            if len(sessions) == 1:
                matches.send_snapshot(live, only(sessions[0].id))
            elif sessions:
                matches.send_snapshot(live, EVERYONE)

    def unwatch(self, session: Session) -> None:
        """A room's session stops watching its match (quietly: the room tells who is here)."""
        self.matches.detach(session)

    def set_holders(self, live: LiveMatch, seats: list[str | None], tell: Audience | None = None) -> None:
        """A room's seats changed hands: who acts as each seat of its match from now on. ``tell``: the
        sessions whose seat changed get the match again, as they now read it."""
        matches = self.matches
        with matches.holding(live):
            live.holders = list(seats[: len(live.match.seats)])
            if tell is not None:
                matches.send_snapshot(live, tell)

    def move(self, session: Session, command: Command) -> None:
        """A move from a room's seat (the room has checked that the session holds one)."""
        self.matches.move(session, command)

    def set_stand_in(self, live: LiveMatch, seat: int, level: str | None) -> None:
        """A bot of ``level`` plays ``seat`` from now on (None: its person is back, and the bot
        stops at once, dropping a chain it was dragging for them)."""
        matches = self.matches
        with matches.holding(live):
            match = live.match
            if level is not None:
                live.stand_ins[seat] = level
                if match.phase is Phase.PLAYING and match.turn == seat and match.chain and live.bot is None:
                    matches.publish(live, match.cancel(seat))  # the person's own drag, left half done
            elif live.stand_ins.pop(seat, None) is not None and live.match.turn == seat:
                live.bot = None
                if live.match.phase is Phase.PLAYING and live.match.chain:
                    matches.publish(live, live.match.cancel(seat))
            matches.deadlines.schedule(live)

    def skip_turn(self, live: LiveMatch, seat: int) -> None:
        """``seat``'s person is away past the grace period: the turn they hold now passes."""
        matches = self.matches
        with matches.holding(live):
            match, now = live.match, matches.wall_clock()
            if match.phase is Phase.PLAYING and match.turn == seat:
                if match.chain:
                    matches.publish(live, match.cancel(seat))  # everyone stops seeing the half-dragged word
                events = matches.commit(live, lambda: match.pass_turn(seat, now), seat, "away")
                matches.publish(live, events)
            matches.deadlines.schedule(live)
