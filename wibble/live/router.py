"""The router: each command to the service that owns it, and a session's moves between documents.

Whatever a session opens (a game, a match, a room), it first leaves what it had,
which stays saved; it leaves only once the new one is open, so a refused ``resume``
or ``join_room`` leaves it where it was.
"""

from __future__ import annotations

from ..core import RuleError
from ..protocol import (
    Command,
    CreateRoom,
    JoinRoom,
    Leaderboard,
    MatchCommand,
    NewDaily,
    NewGame,
    NewMatch,
    Resume,
    ResumeMatch,
    RoomCommand,
)
from ..store import Store
from .budgets import Budgets
from .bus import Bus
from .daily import Dailies
from .games import Games, LiveGame
from .matches import LiveMatch, Matches
from .presence import Presence
from .rooms import LiveRoom, Rooms
from .sessions import Session
from .timers import Timers


class Router:
    """The live layer as the websocket handler sees it: ``handle`` a command, ``leave`` on disconnect."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        presence: Presence,
        timers: Timers,
        budgets: Budgets,
        games: Games,
        matches: Matches,
        rooms: Rooms,
        dailies: Dailies,
        shared: bool = False,
    ) -> None:
        self.store = store
        self.bus = bus
        self.presence = presence
        self.timers = timers
        self.budgets = budgets
        self.games = games
        self.matches = matches
        self.rooms = rooms
        self.dailies = dailies
        self.shared = shared
        """Whether other processes (live stacks) share the store and the bus."""

    def handle(self, session: Session, command: Command) -> None:
        """Apply one command; a ``WibbleError`` means nothing changed and only ``session`` hears.

        With other processes sharing the store, a copy held here may be behind (their doorbell
        is on its way, or was lost): a command the rules refuse is tried once more if the
        documents it touches turn out to be older here than in the store."""
        try:
            self._handle(session, command)
        except RuleError:
            if not (self.shared and self._caught_up(session)):
                raise
            self._handle(session, command)

    def _caught_up(self, session: Session) -> bool:
        """Bring the documents ``session`` is on up to the stored version; whether any was behind."""
        behind = False
        for service, doc_id in (
            (self.games, session.game),
            (self.matches, session.match),
            (self.rooms, session.room),
        ):
            if doc_id is not None:
                behind = service.docs.catch_up_one(doc_id) or behind
        return behind

    def _handle(self, session: Session, command: Command) -> None:
        if isinstance(command, CreateRoom):
            live_room, token = self.rooms.create(session, command)
            self._enter_room(session, live_room, token, command.name, command.seq)
        elif isinstance(command, JoinRoom):
            live_room, room_token = self.rooms.join(session, command)
            self._enter_room(session, live_room, room_token, command.name, command.seq)
        elif isinstance(command, RoomCommand):
            self.rooms.handle(session, command)
        elif isinstance(command, NewGame):
            game, token = self.games.create(command.wordlist, command.seed, session.address, command.sprint)
            self._enter_game(session, game, token)
        elif isinstance(command, NewDaily):
            game, token = self.dailies.start(session, command)
            self._enter_game(session, game, token)
        elif isinstance(command, Leaderboard):
            self.dailies.tell(session, command)
        elif isinstance(command, Resume):
            game_id, token = command.game_id, command.token
            game = self.budgets.resuming(session.address, lambda: self.games.open(game_id, token))
            self._enter_game(session, game, token)
        elif isinstance(command, NewMatch):
            match, token = self.matches.create(command, session.address)
            self._enter_match(session, match, token)
        elif isinstance(command, ResumeMatch):
            match, token = self.matches.resume(command, session.address)
            self._enter_match(session, match, token)
        elif session.room is not None:
            self.rooms.move(session, command)
        elif isinstance(command, MatchCommand) or session.match is not None:
            self.matches.handle(session, command)
        else:
            self.games.move(session, command)

    def catch_up(self) -> int:
        """After the bus was cut off (Redis lost and back): every document held here that moved
        meanwhile is shown afresh to everyone on it. Returns how many moved."""
        services: tuple[Games | Matches | Rooms, ...] = (self.games, self.matches, self.rooms)
        return sum(service.docs.catch_up() for service in services)

    def leave(self, session: Session) -> None:
        """``session`` leaves its game, match or room (on disconnect)."""
        self.rooms.leave(session)
        self.matches.leave(session)
        self.games.leave(session)

    def _enter_game(self, session: Session, live: LiveGame, token: str) -> None:
        self.rooms.leave(session)
        self.matches.leave(session)
        if session.game != live.game_id:
            self.games.leave(session)
        self.games.attach(session, live, token)

    def _enter_match(self, session: Session, live: LiveMatch, token: str) -> None:
        self.rooms.leave(session)
        self.games.leave(session)
        self.matches.attach(session, live, token)

    def _enter_room(
        self, session: Session, live: LiveRoom, token: str | None, name: str, seq: int | None
    ) -> None:
        if session.room is None:
            self.matches.leave(session)
        self.games.leave(session)
        self.rooms.attach(session, live, token, name, seq)
