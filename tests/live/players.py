"""Players as the live layer sees them: ``Client`` objects that keep every frame, plus a fake clock
and a store that can be made to fail. Shared by the live and web tests.

A player's messages go through ``protocol.parse`` and ``Router.handle`` exactly as
the websocket handler sends them, and refusals come back as the same ``error`` frames.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.support import find_paths, messages_in
from wibble import protocol
from wibble.core import Game, Pos, WibbleError
from wibble.engines.store import KEEP, Due, MemoryStore, StorageError, Store
from wibble.live import Router, Session
from wibble.live.matches import BotPace
from wibble.web.connection import Outbox, _handle

LIST = "en-easy"  # a real list that loads in a fraction of a second
Message = dict[str, Any]
Doc = dict[str, Any]


class FakeClock:
    """A clock a test moves by hand."""

    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FlakyStore(MemoryStore):
    """A store whose writes fail while ``failing`` is set, as a full disk or a locked file does."""

    def __init__(self) -> None:
        super().__init__()
        self.failing = False

    def create(self, doc_id: str, kind: str, doc: Doc, now: float, due: float | None = None) -> None:
        if self.failing:
            raise StorageError("disk full (injected)")
        super().create(doc_id, kind, doc, now, due)

    def commit(
        self,
        game_id: str,
        expected: int,
        doc: dict[str, Any],
        move: dict[str, Any],
        now: float,
        due: Due = KEEP,
    ) -> None:
        if self.failing:
            raise StorageError("disk full (injected)")
        super().commit(game_id, expected, doc, move, now, due)


class Player:
    """One connection: sends messages as JSON text and keeps every message it is sent, decoded (a
    frame holding several, each in order)."""

    def __init__(self, router: Router, address: str = "192.0.2.1") -> None:
        self.router = router
        self.frames: list[Message] = []
        self.raw: list[str] = []
        """Every frame as it came, undecoded: how many websocket messages the connection got."""
        self.session = Session(self._deliver, address)
        self.on_frame: Callable[[Message], None] | None = None

    def _deliver(self, frame: str) -> None:
        self.raw.append(frame)
        for message in messages_in(frame):
            if self.on_frame is not None:
                self.on_frame(message)
            self.frames.append(message)

    def send(self, **message: Any) -> list[Message]:
        """Send one message; returns the frames this player got because of it (an error included)."""
        start = len(self.frames)
        command = None
        try:
            command = protocol.parse(json.dumps(message))
            self.router.handle(self.session, command)
        except WibbleError as exc:
            if exc.request is None and command is not None:
                exc.about(protocol.request_name(command))
            self._deliver(protocol.encode(protocol.error(exc)))
        return self.frames[start:]

    def new_game(self, seed: int = 1, wordlist: str = LIST) -> Message:
        [snapshot] = self.send(type="new_game", wordlist=wordlist, seed=seed)
        assert snapshot["type"] == "game", snapshot
        return snapshot

    def resume(self, game_id: str, token: str) -> list[Message]:
        return self.send(type="resume", game_id=game_id, token=token)

    def drag(self, path: list[Pos] | tuple[Pos, ...]) -> None:
        first, *rest = path
        assert self.send(type="press", row=first.row, col=first.col)[-1]["type"] == "chain"
        for pos in rest:
            assert self.send(type="enter", row=pos.row, col=pos.col)[-1]["type"] == "chain"

    def leave(self) -> None:
        self.router.leave(self.session)

    @property
    def game(self) -> Game:
        """The game this player is on, as the server holds it."""
        live = self.router.games.get(self.session.game or "")
        assert live is not None
        return live.game

    def a_word(self, skip: int = 0) -> list[Pos]:
        """The path of a word on the board as it stands, not found yet in this game."""
        game = self.game
        letters = [[letter.symbol for letter in row] for row in game.board.rows()]
        fresh = (
            path
            for word, path in find_paths(letters, game.words.trie, game.words.min_length)
            if word not in game.found
        )
        for _ in range(skip):
            next(fresh)
        return [Pos(r, c) for r, c in next(fresh)]


def errors(frames: list[Message]) -> list[str]:
    return [frame["code"] for frame in frames if frame["type"] == "error"]


class Person(Player):
    """A connection as the websocket handler drives it: ``_handle`` for each message, a real ``Outbox``.

    So a refusal comes back exactly as a browser gets it, with the ``seq`` of the message it refuses.
    """

    def __init__(self, router: Router, address: str = "192.0.2.1") -> None:
        super().__init__(router, address)
        self.outbox = Outbox(100_000, lambda: None)
        self.session = Session(self._put, address)

    def _put(self, frame: str) -> None:
        self.outbox.put(frame)
        self._write()

    def _write(self) -> None:
        """What the connection's writer would send, at once (there is no socket here)."""
        for frame in self.outbox.take():
            self._deliver(frame)

    def send(self, **message: Any) -> list[Message]:
        start = len(self.frames)
        _handle(json.dumps(message), self.router, self.session, self.outbox)
        self._write()
        return self.frames[start:]

    def resume_match(self, match_id: str, token: str) -> Message:
        frames = self.send(type="resume", match_id=match_id, token=token)
        assert [f["type"] for f in frames] == ["match"], frames
        return frames[0]

    def drag_path(self, path: tuple[Pos, ...] | list[Pos]) -> None:
        first, *rest = path
        assert types(self.send(type="press", row=first.row, col=first.col)) == ["chain"]
        for pos in rest:
            assert types(self.send(type="enter", row=pos.row, col=pos.col)) == ["chain"]

    def since(self, mark: int) -> list[Message]:
        return self.frames[mark:]


def types(frames: list[Message]) -> list[str]:
    return [frame["type"] for frame in frames]


def tick(live: Live, seconds: float) -> int:
    """Let ``seconds`` pass, then run whatever deadlines fell due; returns how many ran."""
    live.clock.advance(seconds)
    return live.router.timers.run_due()


@dataclass
class Live:
    """One server's live layer; ``player()`` connects someone to it."""

    store: Store
    router: Router
    clock: FakeClock
    players: list[Player] = field(default_factory=list)

    def player(self, address: str = "192.0.2.1") -> Player:
        player = Player(self.router, address)
        self.players.append(player)
        return player


LiveFactory = Callable[..., Live]


GRACE = 120.0
EMPTY = 1800.0
QUICK = BotPace(think=(0.0, 0.0), step=0.0)
"""Bots (and stand-ins) that play their whole turn at the next ``tick``."""

Start = Callable[..., Live]
"""``start()``: a live layer; ``start(store)`` on an earlier one's store: the same server after a restart."""
