"""Rooms: one full room's drag reaching every connection, a race's standings reaching every
screen, and 250 rooms of four at human pace.

Each run starts a real ``wibble serve`` (as ``benchmarks.load`` does) and, in the same
run, plays the same clients at the same pace against floors: ``sock-relay``, the relay on
the stack Wibble runs on (flask-sock served by Wibble's own gevent server,
``benchmarks.sock_echo --relay``), which sends each frame to every connection of the
sender's room, the sender included; ``relay``, the same in a bare asyncio ``websockets``
server in this file (``websockets.broadcast``), the least a Python server can do to fan
a move out; and, for ``rooms``, also ``benchmarks.echo_server`` (each frame back to its
sender only, the floor of ``benchmarks.load``). All clients are real websockets in this
one asyncio process, on the same 2 cores as the server. Every connection keeps the
page's heartbeat: a ``ping`` once it has sent nothing for ``HEARTBEAT`` seconds (Wibble
closes a connection silent for 30 s; the relays answer ``pong``, the echo echoes it).

- ``fanout`` (issue "play together": a room of 6 seats and 100 spectators, a drag step
  reaches every connection with p99 <= 20 ms). One room: the host creates it (untimed
  turns, 20 rounds), five people join and take seats, 100 spectators join, the host
  starts the match. The seat whose turn it is drags, one step (press, enter, cancel)
  every 0.2-0.4 s: drags it cancels (a word or a random path) until, on 40% of drags,
  a word the solver found that it releases, and the turn passes. For each step, the
  time from sending it to each of the 106 connections reading its ``chain`` message is
  one sample (the sender's own connection included). Reported: p50/p99/max over all
  samples, and over steps the time until the last of the 106 had it.
- ``race`` (issue 32: a race of 8 with 100 spectators, standings reaching every screen with
  p99 <= 50 ms). One room in mode race: the host creates it (``race_seconds`` 60, or longer
  if the run needs it), the runners take seats, the spectators join, the host sends
  ``start_match`` and every runner plays its own board from its ``game``: words the solver
  finds there (not played yet), dragged tile by tile (press, enter) and released, a random
  ``RACE_PACE`` before each. For each word that scores, the time from sending its
  ``release`` to each connection of the room (the runner's own included) reading its
  ``race_standing`` (found by seat and word count) is one sample. 8 people run (a room seats
  eight for a race); ``--runners`` fewer run faster by ``runners / --as-runners`` (default
  8), so that the room's standings come as often as 8 runners' would, and the spectators fill
  the room to as many connections as 8 runners and 100 spectators make. Against the flask-sock
  relay each drag step is a ``ping`` (answered to its sender only, as a race's ``chain`` goes
  to its runner only) and a word a frame shaped like ``race_standing`` that the relay sends
  to all; the runner refills its own board in the client.
- ``rooms`` (250 concurrent rooms of 4, people at human pace: p99 <= 15 ms, 0 errors).
  250 rooms of four seated people, created, joined and started at ``--ramp``
  connections a second. In each, the seat whose turn it is plays as load.py's paced
  players do: a random 0.2-0.6 s before every event; 80% of drags are words the solver
  found, the rest random paths, released or cancelled; a word released ends the turn;
  5% of turns are passed. The other three wait and read everything. A round trip is
  from sending an event to the sender reading its answer: ``chain`` for press, enter and
  cancel; ``played`` or ``word`` for release; ``turn`` for pass; or an ``error``.

Every client keeps its board from the server's ``match`` and ``board`` messages and
finds words with ``wibble.core.solve``, as ``benchmarks.load`` does. Against a floor
each room's board is drawn and refilled in the client, the drag frames have the shape
and size of ``chain`` messages, a release frame carries the refill and the next turn
(with the echo floor the room hears of it in-process), and the next round begins 3 s
after the last turn of a round, as on the server (``ROUND_PAUSE_SECONDS``).

Errors are ``error`` messages (none is expected), failed connects and room set-ups,
replies slower than 5 s, replies that contradict the move, steps some connection never
read, and connections closed before the end. The server gets roomy per-address budgets
(``tests.support.ROOMY_BUDGETS``: rooms, joins, games, board builds, connections, as
everything connects from 127.0.0.1), ``WIBBLE_MAX_ROOMS`` 10,000 and
``WIBBLE_ROOM_SPECTATORS_PER_ADDRESS`` 1,000, and keeps its
games in memory unless ``--data-dir DIR`` or ``--store`` (SQLite in a new empty temporary
directory for each server started, as a host runs it) says otherwise. With ``--data-dir``
every server uses DIR as it is: a later one takes on the rooms an earlier one left there.

    .venv/bin/python -m benchmarks.rooms fanout [--seats 6] [--spectators 100] [--seconds 45]
    .venv/bin/python -m benchmarks.rooms rooms [--rooms 250] [--seats 4] [--seconds 30]
    .venv/bin/python -m benchmarks.rooms race --seconds 30 --rounds 3   # [--runners 8] [--spectators 100]
    .venv/bin/python -m benchmarks.rooms rooms --store          # the server saves to SQLite
    .venv/bin/python -m benchmarks.rooms rooms --floors relay   # floors (default: sock-relay relay echo)
    .venv/bin/python -m benchmarks.rooms rooms --store --floors sock-relay --rounds 3   # in turns
    .venv/bin/python -m benchmarks.rooms relay [--port 0]       # the asyncio relay floor alone
    .venv/bin/python -m benchmarks.sock_echo --relay [--port 0] # the flask-sock relay floor alone

Diagnostics: ``--gc-log`` reports every garbage collection the server makes in the
measured window (through a ``gc.callbacks`` hook), and ``--patch NAME[,NAME]`` adds a
row for Wibble with changes patched in at start-up (``PATCHES``: ``forget-solve``, the
fix proposed in docs/benchmarks-log.md, "Rooms"; ``frame-a-message``, each message its own
frame as before one frame a change; ``inline-checkpoints`` and
``no-checkpoints``, the store's WAL checkpoints inline on the loop as SQLite runs them by
itself, or none; ``no-best``, a diagnostic that skips the turn's best-word search), so
that a proposal is measured against the shipped server in one run:

    .venv/bin/python -m benchmarks.rooms rooms --gc-log --floors \\
        --patch forget-solve --patch forget-solve,no-best        # --floors alone: no floor
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from benchmarks.load import (
    HEARTBEAT,
    INLINE_CHECKPOINTS,
    LONGEST,
    PACE,
    PING,
    REAL_WORDS,
    RESOLVE_BELOW,
    ROOT,
    SETTLE,
    TIMEOUT,
    Option,
    Result,
    Tally,
    Target,
    Wrong,
    client_cpu_seconds,
    cpu_seconds,
    encode,
    frozen,
    machine_cpu_seconds,
    measure,
    option,
    percentile,
    raise_open_file_limit,
    random_path,
    ratio,
    rss_mb,
    start_echo,
    start_floor,
    start_wibble,
)
from tests.support import messages_in
from wibble.core import Board, LetterSampler, Pos, WordList, solve
from wibble.core.letters import Letter
from wibble.core.room import RACE_SECONDS, ROOM_SEATS
from wibble.wordlists import load

DRAG_PACE = (0.2, 0.4)  # fanout: seconds before each step of a drag
FANOUT_WORD = 0.4  # fanout: share of drags that are a word released (the rest are cancelled)
RACE_PACE = (0.15, 0.3)  # race: seconds before each tile of a runner's word, and before its release
RACE_AS = 8  # race: the runners (fewer run faster, by as much)
PASSES = 0.05  # rooms: share of turns passed
ROUNDS = 20  # each match's rounds: longer than any run
ROUND_PAUSE = 3.0  # the server's ROUND_PAUSE_SECONDS: the floors pause as long between rounds
WARM_UP = 2.0  # seconds of play before the measured window
# With tests.support.ROOMY_BUDGETS, which start_wibble adds. Every spectator connects from
# 127.0.0.1 here, so the cap on one address's spectators in a room (10) is lifted too.
SERVER_ENV = {"WIBBLE_MAX_ROOMS": "10000", "WIBBLE_ROOM_SPECTATORS_PER_ADDRESS": "1000"}

# --patch NAME[,NAME]: Wibble with changes patched in (measured without touching wibble/), one row each.
PATCHES = {
    # The fix proposed in docs/benchmarks-log.md ("Rooms"): a match forgets its cached solve as soon
    # as its board changes, so that the solve's few hundred Found objects die young instead of
    # waiting, tracked, in the young generation of the garbage collector.
    "forget-solve": """
from wibble.core.match import state

_build, _swap = state.Match._build, state.Match.swap


def build(self, used):
    self._solved = None
    return _build(self, used)


def swap(self, *args):
    try:
        return _swap(self, *args)
    finally:
        self._solved = None


state.Match._build, state.Match.swap = build, swap
""",
    # Diagnostics for the store's WAL checkpoints, which the shipped server runs on a native
    # thread (``SqliteStore.checkpoint``): as SQLite runs them by itself, inline in the commit
    # that takes the WAL past 1,000 pages, on the loop (the server before 2026-11-25); or none
    # at all (the WAL grows for the whole run): the most that any way of checkpointing can gain.
    "inline-checkpoints": INLINE_CHECKPOINTS,
    "no-checkpoints": """
from wibble.engines.store import sqlite as _sqlite

_sqlite.SqliteStore.defer_checkpoints = lambda self: self._db.execute("PRAGMA wal_autocheckpoint = 0")
_sqlite.SqliteStore.checkpoint = lambda self: None
""",
    # The garbage collector's young threshold (``wibble.web.serving.YOUNG_COLLECTION``, shipped
    # 2,500 since 2026-12-07, 10,000 before): fewer objects a young collection, more collections;
    # with ``--gc-log``, what each costs.
    "young-10000": """
from wibble.web import serving as _serving

_serving.YOUNG_COLLECTION = 10_000
""",
    "young-700": """
from wibble.web import serving as _serving

_serving.YOUNG_COLLECTION = 700
""",
    # Each message its own frame, as the server sent them before 2026-12-07 (a word played in a
    # match was four frames to each person: played, board, gems, turn); today one frame a change.
    "frame-a-message": """
from wibble.engines.bus import memory as _memory

_publish = _memory.MemoryBus.publish


def publish(self, topic, messages, *args, **kwargs):
    for message in list(messages):
        _publish(self, topic, [message], *args, **kwargs)


_memory.MemoryBus.publish = publish
""",
    # A diagnostic, not a fix: the turn's best word (searched at every release and pass, for
    # the end screen) is not computed at all. The most that moving it off the loop could gain.
    "no-best": """
from wibble.core.match import state

state.Match._best_doc = lambda self: None
""",
}
# --gc-log: every garbage collection the server makes (wall-clock time, generation, seconds).
GC_LOG = """
import atexit, gc, json, os, time

_log, _started = [], [0.0]


def _timed(phase, info):
    if phase == "start":
        _started[0] = time.perf_counter()
    else:
        _log.append((time.time(), info["generation"], time.perf_counter() - _started[0]))


gc.callbacks.append(_timed)
atexit.register(lambda: json.dump(_log, open(os.environ["ROOMS_GC_LOG"], "w")))
"""

Message = dict[str, Any]
Accept = Callable[[Message], bool]


# -- the relay floor ---------------------------------------------------------------------


PING_FRAME, PONG_FRAME = encode(PING), encode({"type": "pong"})


async def relay_handler(ws: ServerConnection, rooms: dict[str, set[ServerConnection]]) -> None:
    """The first frame names the room (echoed to the sender); every later one goes to the whole room,
    but a heartbeat ``ping``, answered ``pong`` to its sender as Wibble answers it."""
    room: set[ServerConnection] | None = None
    try:
        async for frame in ws:
            if frame == PING_FRAME:
                await ws.send(PONG_FRAME)
            elif room is None:
                room = rooms.setdefault(str(json.loads(frame).get("code")), set())
                room.add(ws)
                await ws.send(frame)
            else:
                broadcast(room, frame)
    finally:
        if room is not None:
            room.discard(ws)


async def relay(host: str, port: int) -> None:
    rooms: dict[str, set[ServerConnection]] = {}
    # As benchmarks.echo_server: Wibble's frame limit and ping interval, no compression.
    async with serve(
        lambda ws: relay_handler(ws, rooms),
        host,
        port,
        compression=None,
        max_size=4096,
        ping_interval=25,
        backlog=1024,
    ) as server:
        bound = next(iter(server.sockets)).getsockname()[1]
        print(f"relay running at ws://{host}:{bound}/", flush=True)
        await server.serve_forever()


def start_relay() -> Target:
    return start_floor("relay floor", "benchmarks.rooms", "relay")


def start_sock_relay() -> Target:
    return start_floor("sock-relay floor", "benchmarks.sock_echo", "--relay")


FLOORS: dict[str, Callable[[], Target]] = {
    "sock-relay": start_sock_relay,
    "relay": start_relay,
    "echo": start_echo,
}


@dataclass
class Server:
    """A server to measure: how to start it, and where its garbage collections are logged (if they are)."""

    start: Callable[[], Target]
    gc_log: str | None = None


def wibble_server(data_dir: Callable[[], str], patches: list[str], gc_log: bool) -> Server:
    """``wibble serve`` as load.py starts it, in the folder ``data_dir()`` names at each start;
    patched or logging its collections, through ``python -c``."""
    if not (patches or gc_log):
        return Server(lambda: start_wibble(False, data_dir(), SERVER_ENV))
    from tests.support import LiveServer

    log = tempfile.mkstemp(prefix="wibble-rooms-gc-", suffix=".json")[1] if gc_log else None
    code = "from gevent import monkey\nmonkey.patch_all()\nimport sys\n"
    code += "".join(PATCHES[name] for name in patches) + (GC_LOG if gc_log else "")
    code += "from wibble import cli\nsys.exit(cli.main(sys.argv[1:]))\n"

    def start() -> Target:
        env = {**SERVER_ENV, **({"ROOMS_GC_LOG": log} if log else {})}
        server = LiveServer("--data-dir", data_dir(), env=env, command=[sys.executable, "-c", code])
        name = "+".join(["wibble", *patches])
        return Target(name, server.ws_url, server.process.pid, server.stop)

    return Server(start, log)


def report_gc(name: str, path: str, window: tuple[float, float]) -> None:
    """The server's collections during the measured window, by generation."""
    try:
        with open(path) as file:
            entries = [e for e in json.load(file) if window[0] <= e[0] < window[1]]
    except (OSError, ValueError):
        print(f"{name}: no garbage collection log (did the server exit cleanly?)")
        return
    finally:
        os.unlink(path)
    parts = []
    for generation, label in enumerate(("young", "middle", "full")):
        pauses = sorted(e[2] * 1e3 for e in entries if e[1] == generation)
        if pauses:
            parts.append(
                f"{label} {len(pauses)} (median {statistics.median(pauses):.1f} ms, max {pauses[-1]:.1f})"
            )
        else:
            parts.append(f"{label} 0")
    print(f"{name}: garbage collections in the measured window: " + ", ".join(parts))


# -- what the clients share ----------------------------------------------------------------


@dataclass
class RoomTally(Tally):
    """``Tally`` with each round trip's kind (drag, release, pass) and the words played."""

    kinds: list[str] = field(default_factory=list)
    words: int = 0  # words played in the measured window
    rooms_ready: int = 0  # rooms set up, their match started

    def record(self, sent: float, elapsed: float, kind: str = "") -> None:
        if self.start <= sent < self.stop:
            self.times.append(elapsed)
            self.sent.append(sent)
            self.kinds.append(kind)


@dataclass
class Run:
    """One server under test and what every client of the run needs."""

    target: Target
    words: WordList
    tally: RoomTally
    fanout: bool
    floor: str | None  # None: Wibble; "relay" (either relay floor) or "echo"
    pace: tuple[float, float]
    faces: dict[str, Letter]
    sampler: LetterSampler


@dataclass(slots=True)
class Step:
    """fanout: one drag step as sent, and when each connection read its ``chain``."""

    sent: float
    key: tuple[int, Any]  # fanout: the seat and the chain it shows; race: the seat and its words scored
    times: list[float] = field(default_factory=list)


@dataclass(eq=False)
class Table:
    """One room as the clients see it."""

    index: int
    people: list[Person] = field(default_factory=list)  # the seated, in seat order
    watchers: list[Person] = field(default_factory=list)
    code: str = ""
    steps: list[Step] | None = None  # fanout: every drag step, in the order sent; race: every release
    by_key: dict[tuple[int, Any], Step] | None = None  # race: each release's step by (seat, words)
    turn_no: int = 0  # floors: the turn the release frames announce

    @property
    def everyone(self) -> list[Person]:
        return self.people + self.watchers


# -- one connection ------------------------------------------------------------------------


class Person:
    """A connection in a room: a seat (or a spectator), the board it sees, a reader, and a turn to play."""

    def __init__(self, run: Run, table: Table, seat: int | None, index: int) -> None:
        self.run = run
        self.table = table
        self.seat = seat
        self.index = index
        self.name = f"P{index}"
        self.rng = random.Random(index)
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.beat: asyncio.Task[None] | None = None  # the page's heartbeat
        self.sent_at = 0.0  # when this connection last sent anything
        self.grid: list[list[Letter]] = []
        self.options: list[Option] | None = None  # words on this board; None: solve again
        self.due = asyncio.Event()  # a turn of this seat has begun
        self.turn_no: int | None = None
        self.waiting: tuple[Accept, asyncio.Future[tuple[float, Message]]] | None = None
        self.chains = 0  # fanout: chain messages read, the index of the next step
        self.frames = 0  # floors: frames sent, so that a relayed one is known as this person's
        self.closing = False

    # -- reading --

    async def connect(self) -> None:
        self.ws = await connect(
            self.run.target.url,
            compression=None,
            proxy=None,
            ping_interval=None,
            open_timeout=None,
            close_timeout=2,
        )
        self.sent_at = time.perf_counter()
        self.reader = asyncio.create_task(self.read())
        self.beat = asyncio.create_task(self.heartbeat())

    async def heartbeat(self) -> None:
        """As the page: a ``ping`` once nothing was sent for ``HEARTBEAT`` seconds. Its ``pong`` (or
        echo) is read and ignored like any message nobody waits for."""
        assert self.ws is not None
        while True:
            left = self.sent_at + HEARTBEAT - time.perf_counter()
            if left > 0:
                await asyncio.sleep(left)
                continue
            self.sent_at = time.perf_counter()
            try:
                await self.ws.send(PING_FRAME)
            except ConnectionClosed:
                return  # the reader counts it

    async def read(self) -> None:
        assert self.ws is not None
        why = "closed by the server"
        try:
            async for raw in self.ws:
                arrived = time.perf_counter()
                for message in messages_in(raw):
                    self.handle(arrived, message)
        except ConnectionClosed as exc:
            why = f"closed: {exc.rcvd.code if exc.rcvd else 'no close frame'}"
        if self.closing:
            return
        self.run.tally.error(self.index, why)
        if self.waiting is not None and not self.waiting[1].done():
            self.waiting[1].set_exception(ConnectionClosed(None, None))

    def handle(self, arrived: float, message: Message) -> None:
        """Keep the board and the turn current, time a fan-out step, and hand a reply to its asker."""
        kind = message.get("type")
        if kind == "chain":
            self.chain_read(arrived, message)
        elif kind == "match":
            self.grid = [[self.run.faces[tile["letter"]] for tile in row] for row in message["board"]]
            self.options = None
        elif kind == "board" or (kind == "played" and "changed" in message):  # the floors' release
            self.apply(message["changed"])
        if kind in ("match", "turn") or (kind == "played" and "turn" in message):
            self.turn_is(message)
        waiting = self.waiting
        if waiting is not None and not waiting[1].done() and (kind == "error" or waiting[0](message)):
            waiting[1].set_result((arrived, message))
        elif kind == "error":
            self.run.tally.error(self.index, f"error {message.get('code')} (unasked)")

    def turn_is(self, message: Message) -> None:
        if (
            message.get("phase") == "playing"
            and message.get("turn") == self.seat
            and message.get("turn_no") != self.turn_no
        ):
            self.turn_no = message.get("turn_no")
            if message.get("pause"):  # a floor's round ended: its next turn starts after the server's pause
                asyncio.get_running_loop().call_later(message["pause"], self.due.set)
            else:
                self.due.set()

    def chain_read(self, arrived: float, message: Message) -> None:
        steps = self.table.steps
        if steps is None:
            return
        key = (message["seat"], tuple((r, c) for r, c in message["chain"]))
        step = steps[self.chains] if self.chains < len(steps) else None
        if step is None or step.key != key:
            if not key[1]:
                return  # the empty chain after a release that was not a word: no step of its own
            self.run.tally.error(self.index, "a chain nobody sent, or out of order")
            return
        self.chains += 1
        step.times.append(arrived - step.sent)

    def apply(self, changed: list[Message]) -> None:
        """Tiles replaced: forget the words that used a tile whose letter changed."""
        size, mask = len(self.grid), 0
        for tile in changed:
            row, col, letter = tile["row"], tile["col"], self.run.faces[tile["letter"]]
            if self.grid[row][col] != letter:
                self.grid[row][col] = letter
                mask |= 1 << (row * size + col)
        if mask and self.options is not None:
            kept = [o for o in self.options if not o[1] & mask]
            self.options = kept if len(kept) >= RESOLVE_BELOW else None

    # -- asking --

    def expect(self, accept: Accept) -> asyncio.Future[tuple[float, Message]]:
        future = asyncio.get_running_loop().create_future()
        self.waiting = (accept, future)
        return future

    async def ask(
        self, message: Message, accept: Accept, kind: str = "", key: tuple[int, Any] | None = None
    ) -> Message:
        """Send ``message``, wait for the reply ``accept`` picks (or an error), and time it as ``kind``.

        ``key``: a fan-out step, registered (with its send time) before the frame leaves."""
        assert self.ws is not None
        future = self.expect(accept)
        frame = encode(message)
        sent = time.perf_counter()
        if key is not None and self.table.steps is not None:
            step = Step(sent, key)
            self.table.steps.append(step)
            if self.table.by_key is not None:
                self.table.by_key[key] = step
        await self.ws.send(frame)
        self.sent_at = sent
        try:
            async with asyncio.timeout(TIMEOUT):
                arrived, reply = await future
        finally:
            self.waiting = None
        if kind:
            self.run.tally.record(sent, arrived - sent, kind)
        if reply.get("type") == "error":
            raise Wrong(f"error {reply.get('code')} in reply to {message['type']}")
        return reply

    # -- playing --

    async def play(self) -> None:
        """Wait for this seat's turns and play them until the run stops; every failure is one error."""
        tally = self.run.tally
        try:
            while True:
                await self.due.wait()
                self.due.clear()
                if time.perf_counter() >= tally.stop:
                    return
                await self.turn()
        except Wrong as exc:
            tally.error(self.index, f"wrong reply: {exc}")
        except TimeoutError:
            tally.error(self.index, "timeout (> 5 s)")
        except ConnectionClosed:
            pass  # the reader counted it
        except Exception as exc:
            tally.error(self.index, f"client: {type(exc).__name__}: {exc}")

    async def turn(self) -> None:
        if not self.run.fanout and self.rng.random() < PASSES:
            await asyncio.sleep(self.rng.uniform(*self.run.pace))
            await self.move("pass", [])
            return
        while time.perf_counter() < self.run.tally.stop:
            path, ending = self.choose()
            if await self.drag(path, ending):
                return

    def choose(self) -> tuple[list[Pos], str]:
        """The next drag and how it ends: as load.py's players (rooms), or mostly cancelled (fanout)."""
        size = len(self.grid)
        if self.options is None:
            found = solve(Board(self.grid), self.run.words)
            self.options = [option(f, size) for f in found if len(f.path) <= LONGEST]
        rng, options = self.rng, self.options
        word = [Pos(*divmod(i, size)) for i in rng.choice(options)[2]] if options else None
        if self.run.fanout:
            if word and rng.random() < FANOUT_WORD:
                return word, "release"
            return (word if word and rng.random() < 0.5 else random_path(rng, size)), "cancel"
        if word and rng.random() < REAL_WORDS:
            return word, "release"
        return random_path(rng, size), rng.choice(["release", "cancel"])

    async def drag(self, path: list[Pos], ending: str) -> bool:
        """Drag ``path`` step by step at the run's pace, then ``ending``; True once a word scored."""
        moves = [("press", path[:1])] + [("enter", path[: i + 1]) for i in range(1, len(path))]
        for kind, chain in [*moves, (ending, path)]:
            await asyncio.sleep(self.rng.uniform(*self.run.pace))
            if time.perf_counter() >= self.run.tally.stop:
                return True
            reply = await self.move(kind, chain)
            if kind == "release":
                return reply["type"] == "played"
        return False

    async def move(self, kind: str, chain: list[Pos]) -> Message:
        """One event: press, enter, cancel (``chain``: the chain it makes), release or pass (``chain``:
        the chain released)."""
        seat = self.seat
        assert seat is not None
        if self.run.floor:
            return await self.floor_move(kind, chain)
        shown = [[p.row, p.col] for p in chain] if kind != "cancel" else []
        if kind in ("press", "enter"):
            message: Message = {"type": kind, "row": chain[-1].row, "col": chain[-1].col}
        else:
            message = {"type": kind}
        if kind in ("press", "enter", "cancel"):
            key = (seat, tuple((r, c) for r, c in shown))
            return await self.ask(
                message,
                lambda m: m.get("type") == "chain" and m.get("seat") == seat and m.get("chain") == shown,
                "drag",
                key,
            )
        if kind == "release":
            reply = await self.ask(
                message, lambda m: m.get("type") in ("played", "word") and m.get("seat") == seat, kind
            )
            self.scored(reply)
            return reply
        return await self.ask(message, lambda m: m.get("type") == "turn", kind)

    async def floor_move(self, kind: str, chain: list[Pos]) -> Message:
        """The same event against a floor: a frame shaped like the message Wibble would send everyone."""
        seat, table = self.seat, self.table
        assert seat is not None
        self.frames += 1
        mine = self.frames
        word = "".join(self.grid[p.row][p.col].face for p in chain)
        spelled = "".join(self.grid[p.row][p.col].symbol for p in chain)
        shown = [[p.row, p.col] for p in chain] if kind != "cancel" else []
        if kind in ("press", "enter", "cancel"):
            message: Message = {
                "type": "chain",
                "seat": seat,
                "chain": shown,
                "word": word if shown else "",
                "points": 0,
                "status": "prefix",
                "n": mine,
            }
            key = (seat, tuple((r, c) for r, c in shown))
            return await self.ask(
                message, lambda m: m.get("n") == mine and m.get("seat") == seat, "drag", key
            )
        seats = len(table.people)
        following = {
            "phase": "playing",
            "turn": (seat + 1) % seats,
            "turn_no": table.turn_no + 1,
            "pause": ROUND_PAUSE if (table.turn_no + 1) % seats == 0 else 0.0,  # a round ends
        }
        words = self.run.words
        if kind == "pass":
            message = {"type": "turn", "seat": seat, "passed": "pass", "n": mine, **following}
        elif len(spelled) >= words.min_length and spelled in words.trie:
            new = sorted(chain)
            changed = [
                {"row": p.row, "col": p.col, "letter": self.run.sampler.draw(self.rng).face} for p in new
            ]
            message = {
                "type": "played",
                "seat": seat,
                "word": word,
                "path": shown,
                "points": 0,
                "n": mine,
                "changed": changed,
                **following,
            }
        else:
            message = {"type": "word", "seat": seat, "word": word, "result": "not_a_word", "n": mine}
        if message["type"] != "word":
            table.turn_no += 1
        reply = await self.ask(message, lambda m: m.get("n") == mine and m.get("seat") == seat, kind)
        if self.run.floor == "echo":  # nobody else heard: tell the room in-process, as the relay would
            for other in table.everyone:
                if other is not self:
                    other.handle(time.perf_counter(), reply)
        self.scored(reply)
        return reply

    def scored(self, reply: Message) -> None:
        tally = self.run.tally
        if reply["type"] == "played" and tally.start <= time.perf_counter() < tally.stop:
            tally.words += 1


# -- setting rooms up -------------------------------------------------------------------------


def is_room(seat: int | None) -> Accept:
    return lambda m: m.get("type") == "room" and m.get("you") == seat


async def open_room(table: Table, rules: Message | None = None) -> None:
    """Create the room, seat its people, let its spectators in, and start its match (or the floor's);
    ``rules``: the room's (default: untimed turns, ``ROUNDS`` rounds); a race's seats wait for their
    ``game``, its spectators for the ``race``."""
    run = table.people[0].run
    if run.floor:
        for person in table.everyone:
            await person.connect()
            await person.ask(
                {"type": "join_room", "code": f"T{table.index}"}, lambda m: m.get("type") == "join_room"
            )
        rows = Board.fill(run.sampler, random.Random(table.index)).rows()
        for person in table.everyone:
            person.grid = [list(row) for row in rows]
        table.people[0].turn_is({"phase": "playing", "turn": 0, "turn_no": 0})
        return
    host, *others = table.people
    await host.connect()
    racing = rules is not None and rules.get("mode") == "race"
    rules = rules or {"rounds": ROUNDS, "turn_seconds": None}
    room = await host.ask({"type": "create_room", "name": host.name, "rules": rules}, is_room(0))
    table.code = room["code"]
    for person in others + table.watchers:
        await person.connect()
        await person.ask({"type": "join_room", "code": table.code, "name": person.name}, is_room(None))
        if person.seat is not None:
            await person.ask({"type": "take_seat", "seat": person.seat}, is_room(person.seat))
    seated, watching = ("game", "race") if racing else ("match", "match")
    snapshots = [p.expect(lambda m: m.get("type") == seated) for p in others]
    snapshots += [p.expect(lambda m: m.get("type") == watching) for p in table.watchers]
    await host.ask({"type": "start_match"}, lambda m: m.get("type") == seated)
    async with asyncio.timeout(TIMEOUT):
        for _, snapshot in await asyncio.gather(*snapshots):
            if snapshot.get("type") == "error":
                raise Wrong(f"error instead of {seated} or {watching}: {snapshot.get('code')}")
    for person in others + table.watchers:
        person.waiting = None


def seat_table(run: Run, index: int, seats: int, spectators: int, first: int) -> Table:
    table = Table(index, steps=[] if run.fanout else None)
    table.people = [Person(run, table, seat, first + seat) for seat in range(seats)]
    table.watchers = [Person(run, table, None, first + seats + i) for i in range(spectators)]
    return table


async def close(tables: list[Table], tasks: list[asyncio.Task[None]]) -> None:
    for table in tables:
        for person in table.everyone:
            person.closing = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    async def hang_up(person: Person) -> None:
        if person.beat is not None:
            person.beat.cancel()
        if person.ws is not None:
            try:
                await person.ws.close()
            except Exception:
                pass
        if person.reader is not None:
            await asyncio.gather(person.reader, return_exceptions=True)

    await asyncio.gather(*(hang_up(p) for table in tables for p in table.everyone))


def new_run(target: Target, words: WordList, fanout: bool) -> Run:
    floor = None if not target.echo else ("relay" if "relay" in target.name else "echo")
    faces = {letter.face: letter for letter in words.letters}
    pace = DRAG_PACE if fanout else PACE
    return Run(target, words, RoomTally(), fanout, floor, pace, faces, LetterSampler(words.letters))


# -- fanout: one full room ---------------------------------------------------------------------


@dataclass
class FanResult:
    name: str
    steps: int
    samples: list[float]  # seconds, every connection's every step
    lasts: list[float]  # seconds, per step: until the last connection read it
    errors: Counter[str]
    rss_mb: float
    server_cpu: float
    client_cpu: float
    other_cpu: float
    window: tuple[float, float]  # the measured window, wall-clock (for the server's GC log)
    stalls: list[tuple[float, float]] | None = None  # race: the client's loop stalls (when, seconds)
    slow: list[tuple[float, float]] = field(default_factory=list)  # race: steps past STALL (sent, last)


STALL = 0.02  # race: a client loop late by more than this is a stall, a standing slower than it is slow


async def watch_loop(stalls: list[tuple[float, float]]) -> None:
    """race: every time this client's own loop wakes more than ``STALL`` late (the client starved of
    CPU, or busy): a slow standing then measured the client, not the server."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(0.005)
        late = time.perf_counter() - asked - 0.005
        if late > STALL:
            stalls.append((asked, late))


async def fanout_run(
    target: Target, words: WordList, seats: int, spectators: int, seconds: float
) -> FanResult:
    run = new_run(target, words, True)
    tally = run.tally
    table = seat_table(run, 0, seats, spectators, 0)
    try:
        await open_room(table)
    except (OSError, TimeoutError, ConnectionClosed, Wrong) as exc:
        await close([table], [])
        raise RuntimeError(f"{target.name}: could not set the room up: {type(exc).__name__}: {exc}") from None
    movers = [asyncio.create_task(person.play()) for person in table.people]
    await asyncio.sleep(WARM_UP)
    await frozen()
    client0, server0, machine0 = client_cpu_seconds(), cpu_seconds(target.pid), machine_cpu_seconds()
    wall = time.time()
    tally.start = time.perf_counter()
    tally.stop = tally.start + seconds
    await asyncio.sleep(seconds)
    client1, server1, machine1 = client_cpu_seconds(), cpu_seconds(target.pid), machine_cpu_seconds()
    rss = rss_mb(target.pid)
    await asyncio.sleep(1.0)  # the last steps' stragglers
    await close([table], movers)
    assert table.steps is not None
    measured = [step for step in table.steps if tally.start <= step.sent < tally.stop]
    everyone = len(table.everyone)
    for step in measured:
        if len(step.times) < everyone:
            tally.errors["a step some connection never read"] += everyone - len(step.times)
    return FanResult(
        target.name,
        len(measured),
        [t for step in measured for t in step.times],
        [max(step.times) for step in measured if len(step.times) == everyone],
        tally.errors,
        rss,
        (server1 - server0) / seconds,
        (client1 - client0) / seconds,
        max(0.0, machine1 - machine0 - (server1 - server0) - (client1 - client0)) / seconds,
        (wall, wall + seconds),
    )


def report_fanout(results: list[FanResult]) -> None:
    w = max(len(r.name) for r in results)
    print(
        f"{'server':{w}} {'steps':>5} {'samples':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} | "
        f"{'last p50':>8} {'last p99':>8} {'last max':>8} | {'errors':>6} {'server RSS':>10} "
        f"{'server CPU':>10} {'ms/step':>7} {'client CPU':>10} {'others CPU':>10}"
    )
    for r in results:
        per_step = r.server_cpu * (r.window[1] - r.window[0]) / r.steps * 1e3 if r.steps else float("nan")
        print(
            f"{r.name:{w}} {r.steps:>5} {len(r.samples):>7} {percentile(r.samples, 0.5):>7.2f} "
            f"{percentile(r.samples, 0.99):>7.2f} {max(r.samples, default=0) * 1e3:>7.2f} | "
            f"{percentile(r.lasts, 0.5):>8.2f} {percentile(r.lasts, 0.99):>8.2f} "
            f"{max(r.lasts, default=0) * 1e3:>8.2f} | {sum(r.errors.values()):>6} {r.rss_mb:>7.0f} MB "
            f"{r.server_cpu:>10.1%} {per_step:>7.2f} {r.client_cpu:>10.1%} {r.other_cpu:>10.0%}"
        )
    floors = [r for r in results if "floor" in r.name]
    for a in (r for r in results if "floor" not in r.name):
        for b in floors:
            cells = [
                percentile(x, share)
                for x in (a.samples, b.samples, a.lasts, b.lasts)
                for share in (0.5, 0.99)
            ]
            print(
                f"{a.name} / {b.name}: all samples p50 {ratio(cells[0], cells[2])}, "
                f"p99 {ratio(cells[1], cells[3])}; last connection p50 {ratio(cells[4], cells[6])}, "
                f"p99 {ratio(cells[5], cells[7])}"
            )
    for r in results:
        if r.errors:
            print(f"{r.name} errors: " + ", ".join(f"{kind} x{n}" for kind, n in r.errors.most_common(6)))
    for r in results:
        if r.stalls is not None:
            print(f"{r.name}: {stall_line(r)}")


def stall_line(r: FanResult) -> str:
    """How often the client's loop stalled in the window, and how many slow standings came meanwhile."""
    longest = max((late for _, late in r.stalls or []), default=0.0)
    meanwhile = sum(
        1
        for sent, last in r.slow
        if any(at <= sent + last and sent <= at + 0.005 + late for at, late in r.stalls or [])
    )
    return (
        f"the client's loop stalled {len(r.stalls or [])} times over {STALL * 1e3:.0f} ms (longest"
        f" {longest * 1e3:.0f} ms); {len(r.slow)} standings took over {STALL * 1e3:.0f} ms to reach the"
        f" last connection, {meanwhile} of them while it stalled"
    )


# -- race: one room's race, 108 screens --------------------------------------------------------


class Runner(Person):
    """race: a seat running on its own board (or a spectator: it only reads the standings).

    Against a floor a drag step is a ``ping`` (answered to its sender only, as a race's ``chain``
    goes to its runner only), and a word released is a frame shaped like ``race_standing`` that
    the relay sends to the whole room; the runner refills its own board in the client."""

    def __init__(self, run: Run, table: Table, seat: int | None, index: int) -> None:
        super().__init__(run, table, seat, index)
        self.found: set[str] = set()  # words this runner played, scored or not
        self.words = 0  # words scored: a race_standing's ``words``
        self.score = 0

    def handle(self, arrived: float, message: Message) -> None:
        kind = message.get("type")
        if kind == "race_standing":
            self.standing_read(arrived, message)
        elif kind == "game":
            self.grid = [[self.run.faces[tile["letter"]] for tile in row] for row in message["board"]]
            self.options = None
        elif kind in ("word", "board") and "changed" in message:  # a word scored carries its refill
            self.apply(message["changed"])
        waiting = self.waiting
        if waiting is not None and not waiting[1].done() and (kind == "error" or waiting[0](message)):
            waiting[1].set_result((arrived, message))
        elif kind == "error":
            self.run.tally.error(self.index, f"error {message.get('code')} (unasked)")

    def standing_read(self, arrived: float, message: Message) -> None:
        by_key = self.table.by_key
        assert by_key is not None
        step = by_key.get((message["seat"], message["words"]))
        if step is None:
            self.run.tally.error(self.index, "a standing for no word sent")
            return
        step.times.append(arrived - step.sent)

    async def race(self) -> None:
        """Play words on this runner's board until the run stops; every failure is one error."""
        tally = self.run.tally
        try:
            while time.perf_counter() < tally.stop:
                await self.run_word(self.pick())
        except Wrong as exc:
            tally.error(self.index, f"wrong reply: {exc}")
        except TimeoutError:
            tally.error(self.index, "timeout (> 5 s)")
        except ConnectionClosed:
            pass  # the reader counted it
        except Exception as exc:
            tally.error(self.index, f"client: {type(exc).__name__}: {exc}")

    def pick(self) -> tuple[str, list[Pos]]:
        """A word the solver finds on the board as it stands, not played yet (or a random path)."""
        size = len(self.grid)
        options = self.options
        if options is not None:
            options = [o for o in options if o[0] not in self.found]
        if options is None or len(options) < RESOLVE_BELOW:
            found = solve(Board(self.grid), self.run.words)
            options = [option(f, size) for f in found if len(f.path) <= LONGEST and f.word not in self.found]
        self.options = options
        if not options:
            return "", random_path(self.rng, size)
        word, _, path = self.rng.choice(options)
        return word, [Pos(*divmod(i, size)) for i in path]

    async def run_word(self, chosen: tuple[str, list[Pos]]) -> None:
        """Drag the word tile by tile at the run's pace and release it; a word that scores is a step."""
        word, path = chosen
        floor = self.run.floor
        for i, pos in enumerate(path):
            await asyncio.sleep(self.rng.uniform(*self.run.pace))
            if time.perf_counter() >= self.run.tally.stop:
                return
            if floor:
                await self.ask(PING, lambda m: m.get("type") == "pong", "drag")
            else:
                drag = {"type": "enter" if i else "press", "row": pos.row, "col": pos.col}
                await self.ask(drag, lambda m: m.get("type") == "chain", "drag")
        await asyncio.sleep(self.rng.uniform(*self.run.pace))
        if time.perf_counter() >= self.run.tally.stop:
            return
        self.found.add(word)
        seat, next_words = self.seat, self.words + 1
        assert seat is not None
        key = (seat, next_words)
        if floor:
            self.frames += 1
            mine = self.frames
            last = "".join(self.grid[p.row][p.col].face for p in path)
            points = sum(self.grid[p.row][p.col].score for p in path)
            standing = {
                "type": "race_standing",
                "race_id": "R",
                "seat": seat,
                "score": self.score + points,
                "words": next_words,
                "last": last,
                "n": mine,
            }
            accept: Accept = lambda m: m.get("n") == mine and m.get("seat") == seat  # noqa: E731
            await self.ask(standing, accept, "release", key)
            scored = True  # the relay told everyone, word or not
            self.score += points
            self.apply(
                [{"row": p.row, "col": p.col, "letter": self.run.sampler.draw(self.rng).face} for p in path]
            )
        else:
            reply = await self.ask({"type": "release"}, lambda m: m.get("type") == "word", "release", key)
            scored = reply.get("result") == "scored"
        if scored:
            self.words = next_words
            if self.run.tally.start <= time.perf_counter() < self.run.tally.stop:
                self.run.tally.words += 1
        else:  # nobody hears of a word that did not score: no step
            assert self.table.by_key is not None
            assert self.table.steps is not None
            step = self.table.by_key.pop(key)
            self.table.steps.remove(step)


def race_table(run: Run, runners: int, spectators: int) -> Table:
    table = Table(0, steps=[], by_key={})
    table.people = [Runner(run, table, seat, seat) for seat in range(runners)]
    table.watchers = [Runner(run, table, None, runners + i) for i in range(spectators)]
    return table


async def race_run(
    target: Target, words: WordList, runners: int, spectators: int, seconds: float, pace: tuple[float, float]
) -> FanResult:
    run = new_run(target, words, True)
    run.pace = pace
    tally = run.tally
    table = race_table(run, runners, spectators)
    race_seconds = next((s for s in RACE_SECONDS if s >= WARM_UP + SETTLE + seconds + 5), max(RACE_SECONDS))
    try:
        await open_room(table, {"mode": "race", "race_seconds": race_seconds})
    except (OSError, TimeoutError, ConnectionClosed, Wrong) as exc:
        await close([table], [])
        raise RuntimeError(f"{target.name}: could not set the race up: {type(exc).__name__}: {exc}") from None
    tally.stop = float("inf")
    movers = [asyncio.create_task(person.race()) for person in table.people if isinstance(person, Runner)]
    await asyncio.sleep(WARM_UP)
    await frozen()
    stalls: list[tuple[float, float]] = []
    movers.append(asyncio.create_task(watch_loop(stalls)))
    client0, server0, machine0 = client_cpu_seconds(), cpu_seconds(target.pid), machine_cpu_seconds()
    wall = time.time()
    tally.start = time.perf_counter()
    tally.stop = tally.start + seconds
    await asyncio.sleep(seconds)
    client1, server1, machine1 = client_cpu_seconds(), cpu_seconds(target.pid), machine_cpu_seconds()
    rss = rss_mb(target.pid)
    await asyncio.sleep(1.0)  # the last words' stragglers
    await close([table], movers)
    assert table.by_key is not None
    measured = [step for step in table.by_key.values() if tally.start <= step.sent < tally.stop]
    everyone = len(table.everyone)
    for step in measured:
        if len(step.times) < everyone:
            tally.errors["a standing some connection never read"] += everyone - len(step.times)
    return FanResult(
        target.name,
        len(measured),
        [t for step in measured for t in step.times],
        [max(step.times) for step in measured if len(step.times) == everyone],
        tally.errors,
        rss,
        (server1 - server0) / seconds,
        (client1 - client0) / seconds,
        max(0.0, machine1 - machine0 - (server1 - server0) - (client1 - client0)) / seconds,
        (wall, wall + seconds),
        [(at, late) for at, late in stalls if tally.start <= at < tally.stop],
        [(step.sent, max(step.times)) for step in measured if step.times and max(step.times) > STALL],
    )


# -- rooms: many rooms of four -----------------------------------------------------------------


async def rooms_run(
    target: Target, words: WordList, rooms: int, seats: int, seconds: float, ramp: float
) -> tuple[Result, RoomTally]:
    run = new_run(target, words, False)
    tally = run.tally
    tables = [seat_table(run, i, seats, 0, i * seats) for i in range(rooms)]
    movers: list[asyncio.Task[None]] = []

    async def begin(table: Table) -> None:
        try:
            await open_room(table)
        except (OSError, TimeoutError, ConnectionClosed, Wrong) as exc:
            tally.error(table.index, f"room set-up: {type(exc).__name__}: {exc}")
            return
        tally.rooms_ready += 1
        movers.extend(asyncio.create_task(person.play()) for person in table.people)

    started = time.perf_counter()
    setups = []
    for i, table in enumerate(tables):  # a room's people connect one after another
        setups.append(asyncio.create_task(begin(table)))
        await asyncio.sleep(max(0.0, started + (i + 1) * seats / ramp - time.perf_counter()))
    await asyncio.gather(*setups)
    await asyncio.sleep(WARM_UP)
    await frozen()
    tally.start = time.perf_counter()
    tally.stop = tally.start + seconds
    wall = time.time()
    result = await measure(target, tally, seconds, target.name)
    result.extra["wall_start"], result.extra["wall_stop"] = wall, time.time()
    await close(tables, movers)
    return result, tally


def split(tally: RoomTally, kind: str) -> list[float]:
    return [t for t, k in zip(tally.times, tally.kinds, strict=True) if k == kind]


def report_rooms(results: list[tuple[Result, RoomTally]], seconds: float) -> None:
    w = max(len(r.name) for r, _ in results)
    print(
        f"{'server':{w}} {'events/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'drag p99':>8} "
        f"{'release p99':>11} {'pass p99':>8} {'words/s':>7} {'rooms':>5} {'errors':>6} {'set-up':>6} "
        f"{'server RSS':>10} {'server CPU':>10} {'client CPU':>10} {'others CPU':>10}"
    )
    for r, tally in results:
        setup = sum(n for kind, n in tally.errors.items() if kind.startswith("room set-up"))
        print(
            f"{r.name:{w}} {r.events_per_s:>8.0f} {r.p50_ms:>7.2f} {r.p99_ms:>7.2f} "
            f"{max(r.times, default=0) * 1e3:>7.1f} {percentile(split(tally, 'drag'), 0.99):>8.2f} "
            f"{percentile(split(tally, 'release'), 0.99):>11.2f} "
            f"{percentile(split(tally, 'pass'), 0.99):>8.2f} "
            f"{tally.words / seconds:>7.1f} {tally.rooms_ready:>5} {sum(r.errors.values()):>6} {setup:>6} "
            f"{r.rss_mb:>7.0f} MB "
            f"{r.server_cpu:>10.0%} {r.client_cpu:>10.0%} {r.other_cpu:>10.0%}"
        )
    floors = [r for r, _ in results if "floor" in r.name]
    for wibble in (r for r, _ in results if "floor" not in r.name):
        for floor in floors:
            print(
                f"{wibble.name} / {floor.name}: p50 {ratio(wibble.p50_ms, floor.p50_ms)}, "
                f"p99 {ratio(wibble.p99_ms, floor.p99_ms)}, "
                f"events/s {ratio(wibble.events_per_s, floor.events_per_s)}"
            )
    for r, tally in results:
        if tally.errors:
            print(f"{r.name} errors: " + ", ".join(f"{kind} x{n}" for kind, n in tally.errors.most_common(6)))


# -- main ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("fanout", "rooms", "race", "relay"))
    parser.add_argument("--seats", type=int, default=None, help="seats a room (default 6 fanout, 4 rooms)")
    parser.add_argument(
        "--spectators",
        type=int,
        default=None,
        help="fanout, race: connections that watch (default 100; race: 100 + --as-runners - --runners)",
    )
    parser.add_argument(
        "--runners",
        type=int,
        default=RACE_AS,
        help=f"race: people seated (default {RACE_AS}; a room seats {ROOM_SEATS})",
    )
    parser.add_argument(
        "--as-runners",
        type=int,
        default=RACE_AS,
        help=f"race: the race measured is as busy as one of this many (default {RACE_AS}): each runner's"
        " pace is scaled by runners / as-runners, and the spectators fill the room to as many connections",
    )
    parser.add_argument("--rooms", type=int, default=250, help="rooms: rooms played at once")
    parser.add_argument("--seconds", type=float, default=None, help="measured (default 45 fanout, 30 rooms)")
    parser.add_argument("--ramp", type=float, default=250.0, help="rooms: new connections a second")
    parser.add_argument(
        "--data-dir", default="", metavar="DIR", help="the server's --data-dir ('', the default: memory only)"
    )
    parser.add_argument("--store", action="store_true", help="the server saves to SQLite in a fresh temp dir")
    parser.add_argument(
        "--floors",
        nargs="*",
        default=None,
        choices=tuple(FLOORS),
        help="floors to run (default: sock-relay relay for fanout, sock-relay for race, all three for rooms)",
    )
    parser.add_argument("--gc-log", action="store_true", help="report the server's garbage collections")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="rooms, race: measure every server this many times, taking turns, each round's table and then"
        " every round's p99 against each relay floor (the machine's speed drifts between minutes)",
    )
    parser.add_argument(
        "--patch",
        action="append",
        default=[],
        metavar="NAME[,NAME]",
        help=f"also run Wibble with these patched in, a row each time given ({', '.join(PATCHES)})",
    )
    parser.add_argument("--host", default="127.0.0.1", help="relay: address to listen on")
    parser.add_argument("--port", type=int, default=0, help="relay: port (0: any free one)")
    args = parser.parse_args()
    raise_open_file_limit()
    if args.mode == "relay":
        try:
            asyncio.run(relay(args.host, args.port))
        except KeyboardInterrupt:
            pass
        return
    defaults = {"fanout": ["sock-relay", "relay"], "race": ["sock-relay"]}
    floors = args.floors if args.floors is not None else defaults.get(args.mode, list(FLOORS))
    if args.mode in ("fanout", "race") and "echo" in floors:
        parser.error(f"{args.mode}: an echo floor sends nothing to the other connections; use --floors relay")
    if args.mode == "race" and not 1 <= args.runners <= ROOM_SEATS:
        parser.error(f"--runners: a room seats 1 to {ROOM_SEATS}")
    unknown = {name for names in args.patch for name in names.split(",")} - set(PATCHES)
    if unknown:
        parser.error(f"--patch: no patch named {', '.join(sorted(unknown))} (there are {', '.join(PATCHES)})")
    if args.mode == "fanout" and args.rounds != 1:
        parser.error("--rounds: rooms and race modes only")
    data_dir = tempfile.mkdtemp(prefix="wibble-rooms-") if args.store else args.data_dir
    try:
        measure_all(args, data_dir, floors)
    finally:
        if args.store:
            shutil.rmtree(data_dir, ignore_errors=True)


def describe(args: argparse.Namespace, seats: int, seconds: float) -> tuple[int, tuple[float, float], str]:
    """The run's spectators, a race's pace, and the title of its tables."""
    racing = args.mode == "race"
    spectators = args.spectators
    if spectators is None:
        spectators = 100 + max(0, args.as_runners - args.runners) if racing else 100
    scale = args.runners / args.as_runners
    pace = (RACE_PACE[0] * scale, RACE_PACE[1] * scale)
    if args.mode == "fanout":
        title = (
            f"fanout: 1 room, {seats} seats + {spectators} spectators ({seats + spectators} "
            f"connections), a step every {DRAG_PACE[0]}-{DRAG_PACE[1]} s, {seconds:.0f} s measured"
        )
    elif racing:
        title = (
            f"race: 1 room, {args.runners} runners + {spectators} spectators ({args.runners + spectators} "
            f"connections), a step every {pace[0]:.3f}-{pace[1]:.3f} s (as busy as {args.as_runners} runners "
            f"at {RACE_PACE[0]}-{RACE_PACE[1]} s), {seconds:.0f} s measured; steps: words scored"
        )
    else:
        title = (
            f"rooms: {args.rooms} rooms of {seats} seated ({args.rooms * seats} connections), "
            f"{PACE[0]}-{PACE[1]} s before each event, {seconds:.0f} s measured"
        )
    return spectators, pace, title


def fan_ratios(results: list[FanResult], ratios: dict[str, list[float]]) -> None:
    """Adds one round's p99 of Wibble (the first row) over each relay floor's to ``ratios``."""
    wibble = percentile(results[0].samples, 0.99)
    for floor in (r for r in results if "relay" in r.name and "floor" in r.name):
        ratios.setdefault(floor.name, []).append(wibble / percentile(floor.samples, 0.99))


def measure_all(args: argparse.Namespace, data_dir: str, floors: list[str]) -> None:
    fanout, racing = args.mode == "fanout", args.mode == "race"
    seats = args.seats or (6 if fanout else 4)
    seconds = args.seconds or (45.0 if fanout else 30.0)
    spectators, pace, title = describe(args, seats, seconds)
    words = load(ROOT / "words" / "en.txt")
    gc.freeze()  # the word list's objects never need collecting
    load1, load5, _ = os.getloadavg()
    store = f"store in {data_dir}" if data_dir else "store: memory only"
    print(f"{title}; {store}; load average {load1:.2f} / {load5:.2f} (1 / 5 min)", flush=True)
    # --store: every start in a new empty folder. Sharing one, a server started more than the
    # rooms' grace period after an earlier one stopped took on the rooms it left, and stand-ins
    # played their 250 matches beside the measured ones (server CPU 40-45% instead of 21-25%).
    folder = (lambda: tempfile.mkdtemp(prefix="server-", dir=data_dir)) if args.store else (lambda: data_dir)
    servers = [wibble_server(folder, [], args.gc_log)]
    servers += [wibble_server(folder, names.split(","), args.gc_log) for names in args.patch]
    servers += [Server(FLOORS[floor]) for floor in floors]
    fan_run: Callable[[Target], Coroutine[Any, Any, FanResult]] = (
        partial(
            race_run, words=words, runners=args.runners, spectators=spectators, seconds=seconds, pace=pace
        )
        if racing
        else partial(fanout_run, words=words, seats=seats, spectators=spectators, seconds=seconds)
    )
    rounds = args.rounds
    p99_ratios: dict[str, list[float]] = {}  # each relay floor's name: Wibble's p99 over its, by round
    p99s: list[float] = []  # fanout, race: Wibble's p99 (ms) by round
    for n in range(1, rounds + 1):
        if rounds > 1:
            print(f"round {n} of {rounds}", flush=True)
        fan_results: list[FanResult] = []
        room_results: list[tuple[Result, RoomTally]] = []
        logs: list[tuple[str, str, tuple[float, float]]] = []
        for server in servers:
            target = server.start()
            try:
                if fanout or racing:
                    fan = asyncio.run(fan_run(target))
                    fan_results.append(fan)
                    window = fan.window
                else:
                    run = rooms_run(target, words, args.rooms, seats, seconds, args.ramp)
                    result, tally = asyncio.run(run)
                    room_results.append((result, tally))
                    window = (result.extra["wall_start"], result.extra["wall_stop"])
            finally:
                target.stop()
            if server.gc_log:
                logs.append((target.name, server.gc_log, window))
        if fanout or racing:
            report_fanout(fan_results)
            p99s.append(percentile(fan_results[0].samples, 0.99))
            fan_ratios(fan_results, p99_ratios)
        else:
            report_rooms(room_results, seconds)
            for relay in (r for r, _ in room_results if "relay" in r.name and "floor" in r.name):
                p99_ratios.setdefault(relay.name, []).append(room_results[0][0].p99_ms / relay.p99_ms)
        for name, path, window in logs:
            report_gc(name, path, window)
    report_rounds(p99s, p99_ratios)


def report_rounds(p99s: list[float], p99_ratios: dict[str, list[float]]) -> None:
    """Wibble's p99 in each round (fanout, race), and over each relay floor's."""
    if len(p99s) > 1:
        each = ", ".join(f"{x:.2f}" for x in p99s)
        print(f"wibble p99 by round: {each} ms; median {statistics.median(p99s):.2f} ms")
    for name, ratios in p99_ratios.items():
        if len(ratios) > 1:
            each = ", ".join(f"{x:.2f}x" for x in ratios)
            print(f"wibble / {name}, p99 by round: {each}; median {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
