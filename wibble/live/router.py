"""The router: each command to the service that owns it, and a session's moves between documents.

Whatever a session opens (a game, a match, a room), it first leaves what it had,
which stays saved; it leaves only once the new one is open, so a refused ``resume``
or ``join_room`` leaves it where it was.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..core import RuleError, WibbleError
from ..engines.bus import Bus, Unsettled
from ..engines.presence import Presence
from ..engines.store import Store, VersionConflict
from ..protocol import (
    Cancel,
    Command,
    CreateRoom,
    Define,
    EndSprint,
    Enter,
    JoinRoom,
    Leaderboard,
    MatchCommand,
    NewDaily,
    NewGame,
    NewMatch,
    Release,
    Resume,
    ResumeMatch,
    RoomCommand,
)
from .budgets import Budgets
from .daily import Dailies
from .definitions import Lookups
from .documents import Documents
from .games import Games, LiveGame
from .matches import LiveMatch, Matches
from .races import Races
from .rooms import LiveRoom, Rooms
from .sessions import Session
from .timers import Timers

PICK_UP_SLACK = 2.0
"""Seconds a deadline may be late before any process takes it on: the process holding the
document runs it on time, unless that process is gone."""
PICK_UP_BATCH = 100


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
        lookups: Lookups,
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
        self.lookups = lookups
        self.shared = shared
        """Whether other processes (live stacks) share the store and the bus."""

    def handle(self, session: Session, command: Command) -> None:
        """Apply one command; a ``WibbleError`` means nothing changed and only ``session`` hears.

        With other processes sharing the store, a copy held here may be behind (their doorbell
        is on its way, or was lost): a command the rules refuse is tried once more if the
        documents it touches turn out to be older here than in the store, and one whose commit
        meets another process's is tried once more on the stored document. If the store cannot be
        asked (a Redis failover under way), the refusal cannot be trusted either: the player
        hears that the store is away (``server/storage``: try again), not a rule that may be
        the stale copy's ("not your turn" on a turn that has passed to them)."""
        try:
            self._handle(session, command)
        except VersionConflict as conflict:
            if not self.shared:
                raise
            # Another process committed first (its doorbell on its way): the copy has taken the
            # stored document, and the command is judged once more on it, as if sent a moment
            # later. If it no longer fits, the player hears the rule it breaks now (the seat was
            # taken, the match started), except for a drag's step: the drag under way is not in
            # the stored document, and the conflict says why it is gone.
            try:
                self._handle(session, command)
            except RuleError:
                if isinstance(command, Enter | Release | Cancel):
                    raise conflict from None
                raise
        except RuleError:
            if not (self.shared and self._caught_up(session)):
                raise
            self._handle(session, command)

    def _caught_up(self, session: Session) -> bool:
        """Bring the documents ``session`` is on up to the stored version; whether any was behind
        when the command was judged. The copies' versions are taken first: while the store is
        asked, the late doorbell may land and bring a copy up to date by itself (after a failover
        it is replayed after the document's own messages, which may already have shown the player
        their turn), and that copy was behind all the same."""
        on: list[tuple[Documents[Any], str]] = [
            (docs, doc_id)
            for docs, doc_id in (
                (self.games.docs, session.game),
                (self.matches.docs, session.match),
                (self.rooms.docs, session.room),
            )
            if doc_id is not None
        ]
        judged = [_version(docs.get(doc_id)) for docs, doc_id in on]
        behind = False
        for (docs, doc_id), version in zip(on, judged, strict=True):
            try:
                behind = docs.catch_up_one(doc_id, strict=True) or behind
            except WibbleError:  # the store cannot be asked: unless the doorbell answered meanwhile
                if _version(docs.get(doc_id)) == version:
                    raise
            behind = behind or _version(docs.get(doc_id)) != version
        return behind

    def _handle(self, session: Session, command: Command) -> None:
        if isinstance(command, Leaderboard):
            self.dailies.tell(session, command)
        elif isinstance(command, Define):
            self.lookups.tell(session, command)
        elif self._open(session, command):
            pass
        elif isinstance(command, EndSprint):  # a sprint's, so a game's only (refused elsewhere)
            self.games.done(session, command)
        elif isinstance(command, RoomCommand):
            self.rooms.handle(session, command)
        elif session.room is not None:
            self.rooms.move(session, command)
        elif isinstance(command, MatchCommand) or session.match is not None:
            self.matches.handle(session, command)
        else:
            self.games.move(session, command)

    def _open(self, session: Session, command: Command) -> bool:
        """A command that opens a document (a new or resumed game, match or room) does; whether it was one."""
        if isinstance(command, CreateRoom):
            live_room, token = self.rooms.create(session, command)
            self._enter_room(session, live_room, token, command.name, command.seq)
        elif isinstance(command, JoinRoom):
            live_room, room_token = self.rooms.join(session, command)
            self._enter_room(session, live_room, room_token, command.name, command.seq)
        elif isinstance(command, NewGame):
            game, token = self.games.create(command.wordlist, command.seed, session.address, command.sprint)
            self._enter_game(session, game, token)
        elif isinstance(command, NewDaily):
            game, token = self.dailies.start(session, command)
            self._enter_game(session, game, token)
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
        else:
            return False
        return True

    def catch_up(self, missed: Collection[str] = ()) -> int:
        """After the bus was cut off (Redis lost and back) and replayed what it could: every
        document held here that moved meanwhile, or whose topic in ``missed`` could not be
        replayed, is shown afresh to everyone on it. Returns how many were. Those that could not
        be (Redis only partly back) raise ``Unsettled``, after the others: the bus tries again."""
        failed: set[str] = set()
        shown = sum(service.docs.catch_up(set(missed), failed) for service in self._services())
        if failed:
            raise Unsettled(failed, f"{len(failed)} documents could not be checked against the store")
        return shown

    def _services(self) -> list[Games | Matches | Rooms | Races]:
        services: list[Games | Matches | Rooms | Races] = [self.games, self.matches, self.rooms]
        if self.rooms.keeper.races is not None:
            services.append(self.rooms.keeper.races)
        return services

    def pick_up(self, slack: float = PICK_UP_SLACK, limit: int = PICK_UP_BATCH) -> int:
        """Hold here the documents whose deadline fell due more than ``slack`` ago with nobody
        handling it (the process that held them died, or this one restarted), so that this
        process's timers run them (claimed first, as every deadline). Returns how many were due.
        The server calls it every few seconds."""
        services: dict[str, Documents[Any]] = {
            "game": self.games.docs,
            "match": self.matches.docs,
            "room": self.rooms.docs,
        }
        if self.rooms.keeper.races is not None:
            services["race"] = self.rooms.keeper.races.docs
        overdue = self.store.overdue(self.timers.clock() - slack, limit)
        for doc_id, kind in overdue:
            docs = services.get(kind)
            if docs is not None:
                docs.pick_up(doc_id)
        return len(overdue)

    def notice_departed(self) -> int:
        """Other processes that died: one survivor (a claim decides which) holds every room they
        had people in, so that those people's grace periods start now; and every room held here
        checks who is still connected (some were on a dead process). Returns how many processes
        died. With several processes, each heartbeat calls it; alone, nothing ever departs."""
        departed = self.presence.departed()
        if not departed:
            return 0
        claims, holder = self.timers.claims, self.timers.holder
        for process, topics in departed.items():
            if not claims.claim(f"departed:{process}", holder, self.timers.lease):
                continue  # another survivor sees to it (and if it dies too, its claim runs out)
            for topic in topics:
                if topic.startswith("room:"):
                    self.rooms.docs.pick_up(topic)  # loaded here: whoever is connected nowhere is held for
            self.presence.forget(process)
        self.rooms.deadlines.notice_absent()
        return len(departed)

    def revived(self, skipped: Collection[str] = ()) -> int:
        """This process was stopped, or cut off from Redis, long enough for the others to take it for
        dead: what it holds may be behind what they did meanwhile, and its people were marked away.
        Every document held here takes the stored one if it is newer (its deadlines follow it, so
        no stale turn or bot's drag runs), and the topics in ``skipped`` (whose backlog on the bus
        is dropped unheard, being older than this) are shown afresh; then each room sees that its
        people here are back. Returns how many rooms changed."""
        for service in self._services():
            service.docs.catch_up(set(skipped))
        return self.rooms.deadlines.notice_absent()

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


def _version(held: Any) -> int | None:
    """The version of a copy held here (None: not held)."""
    return None if held is None else int(held.version)
