"""Load: many real websocket players against a live server, beside bare echo servers as the floors.

Every player is a real websocket client (all of them in this one asyncio process,
using the ``websockets`` library) playing a real game: it starts a game with its
own seed, finds the words its board allows with ``wibble.core.solve`` (again
after a refill, once few of the words it knew are left), and drags chains: mostly
real words, which it releases, sometimes a random path that spells nothing, which
it releases or cancels. It keeps its copy of the board current from the server's
``board`` messages (the "tiles" a scored word replaced). A round trip is from
sending an event to reading the message that answers it (``chain`` for press,
enter and cancel, ``word`` for release, or an ``error``).

In the same run the same client plays against the floors (``--floors``, default both):
``sock-echo``, an echo on the stack Wibble runs on (flask-sock served by Wibble's own
gevent server, ``benchmarks.sock_echo``), and ``echo``, a bare asyncio ``websockets``
echo server (``benchmarks.echo_server``), for reference: the same frames at the same
pace, with the game played locally so the chains and refills are the same kind; each
frame's echo is its reply. The report gives Wibble's figures and their ratio to each floor.

Modes (one per run):
- paced (default): ``--players`` players, a random 0.2-0.6 s before every event
  (about 2.5 events a second each), measured for ``--seconds`` after everyone has
  connected (connects are staggered at ``--ramp`` a second; that time is not measured);
- ``--saturate``: ``--players`` players (try 100) sending each event as soon as the
  last one was answered; the server started here has its rate limits raised;
- ``--idle N``: N players start a game each, then stay connected for ``--seconds``
  (default 40), sending nothing but the page's heartbeat (a ``ping`` after
  ``HEARTBEAT`` seconds of sending nothing; Wibble closes a connection silent for 30 s);
  then every player presses and cancels once to show it is still held. Reports the server's RSS before
  (after one warm-up game) and after, and the difference divided by N: the memory of
  one idle game and its connection.
- ``--bot-matches N``: paced players (default 300) as above, plus N connections
  that each play a match against bots (``--bots`` of ``--bot-level``,
  ``--match-rounds`` rounds) and ``pass`` whenever their turn comes, so the bots
  play on and on. The bots run on the server's one event loop: they think
  (``--bot-think``, the server's BOT_THINK_SECONDS), drag their word tile by tile
  (``--bot-step``, BOT_STEP_SECONDS) and release it, and every turn's end solves
  the board for its best word. One server; ``--bot-rounds`` rounds of a phase
  without bots (the matches held idle on the person's turn) and one with them, the
  order turned each round. Reports the paced players' round trips in each phase and
  the p99 ratio with / without, pooled and per round. No echo floor.

``--rounds N`` measures every server N times, taking turns, each started afresh: on a
shared machine one minute can run 20% slower than the next, and taking turns puts the
slow and fast minutes on both servers rather than on whichever ran then. Each round's
CPU per event is printed beside each floor's, then the rounds pooled.

Wibble saves its games in a new, empty folder for each run (``--data-dir`` to choose).

Errors are ``error`` messages, failed connects, replies slower than 5 s, closed
connections and replies that contradict the player's board. Client and server
share the machine; the client's and the server's CPU use over the measured time
are reported (100% = one core) so a saturated client shows.

    .venv/bin/python -m benchmarks.load [--players 1000] [--seconds 20]
    .venv/bin/python -m benchmarks.load --saturate --players 100 --seconds 20
    .venv/bin/python -m benchmarks.load --saturate --seconds 15 --rounds 3   # Wibble and the floors in turns
    .venv/bin/python -m benchmarks.load --floors sock-echo      # floors to run (default sock-echo,echo)
    .venv/bin/python -m benchmarks.load --idle 4000 --seconds 40
    .venv/bin/python -m benchmarks.load --gunicorn   # also gunicorn's gevent worker (pip install gunicorn)
    .venv/bin/python -m benchmarks.load --url ws://HOST:PORT/ws [--server-pid PID] [--no-echo]  # no floors
    .venv/bin/python -m benchmarks.load --data-dir DIR   # the server saves games in DIR ('' = memory only)
    .venv/bin/python -m benchmarks.load --bot-matches 50 [--bot-think 1.5-3] [--bot-step 0.25]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.support import WS_PATH, messages_in
from wibble.core import Board, Found, LetterSampler, Pos, WordList, solve
from wibble.core.letters import Letter
from wibble.wordlists import load

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 5.0  # a reply slower than this is an error
PACE = (0.2, 0.6)  # seconds before each event, uniform: 2.5 events a second on average
REAL_WORDS = 0.8  # share of chains that are words the solver found; the rest are random paths
LONGEST = 8  # people rarely drag longer words
CHECK_SPREAD = 5.0  # seconds over which held idle players make their one check each
# An idle page pings when it has sent nothing for 10 s (static/js/connection.js, SEND_GAP_MS;
# also after 5 s unheard, which a pong resets): so every 5-10 s. The idle players ping every 10 s.
HEARTBEAT = 10.0
PING = {"type": "ping"}
RESOLVE_BELOW = 10  # solve the board again when fewer words than this are left to play
# For --saturate: the server started here must not rate-limit a client that sends as fast as it can.
UNLIMITED = {f"WIBBLE_{key}": "100000000" for key in ("RATE_LIMIT", "RATE_BURST")}

# Code for a server run as ``python -c`` (after gevent's patching, before ``cli.main``): the
# store's checkpoints left inline in the commits, as SQLite runs them by itself, the way
# ``wibble serve`` ran them before 2026-11-25. For measuring the thread against them.
INLINE_CHECKPOINTS = """
from wibble.engines.store import sqlite as _sqlite

_sqlite.SqliteStore.defer_checkpoints = lambda self: None
_sqlite.SqliteStore.checkpoint = lambda self: None
"""


# -- servers and processes -------------------------------------------------------------


@dataclass
class Target:
    """A server under test: where to connect, and its process (for memory and CPU) if known."""

    name: str
    url: str
    pid: int | None
    stop: Callable[[], None] = lambda: None
    echo: bool = False  # an echo server: the players play their games locally
    others: list[tuple[str, int]] = field(default_factory=list)
    """More processes serving the same games (``--redis``): (url, pid); players take turns among them."""
    redis_pids: dict[str, int] = field(default_factory=dict)
    """The redis-servers they share, by name (one Redis, or each node of a cluster), whose CPU is
    reported apart."""

    def url_for(self, n: int) -> str:
        urls = [self.url, *(url for url, _ in self.others)]
        return urls[n % len(urls)]

    @property
    def pids(self) -> list[int | None]:
        return [self.pid, *(pid for _, pid in self.others)]


def start_wibble(saturate: bool, data_dir: str | None = None, env: dict[str, str] | None = None) -> Target:
    """``wibble serve`` saving its games in ``data_dir``; by default in a new, empty folder,
    removed after, as on a new host: a run neither reads nor adds to the games of
    ~/.local/share/wibble, nor depends on what earlier runs left there."""
    from tests.support import LiveServer

    folder = tempfile.mkdtemp(prefix="wibble-load-data-") if data_dir is None else None
    server = LiveServer(
        "--data-dir", folder or data_dir or "", env={**(UNLIMITED if saturate else {}), **(env or {})}
    )

    def stop() -> None:
        server.stop()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    return Target("wibble", server.ws_url, server.process.pid, stop)


def start_wibble_redis(saturate: bool, processes: int, folder: Path) -> Target:
    """``processes`` Wibble processes sharing one redis-server (AOF, fsync every second, as
    docs/deploy.md advises), started here in ``folder``."""
    from tests.redis_server import RedisServer
    from tests.support import LiveServer

    redis = RedisServer(folder / f"redis-{processes}", aof=True, fsync="everysec").start()
    env = UNLIMITED if saturate else {}
    servers = [LiveServer("--redis", redis.url, env=env) for _ in range(processes)]

    def stop() -> None:
        for server in servers:
            server.stop()
        redis.stop()

    first, *rest = servers
    name = f"wibble redis x{processes}"
    others = [(server.ws_url, server.process.pid) for server in rest]
    assert redis.process is not None
    pids = {"redis": redis.process.pid}
    return Target(name, first.ws_url, first.process.pid, stop, others=others, redis_pids=pids)


def start_wibble_cluster(saturate: bool, processes: int, folder: Path) -> Target:
    """``processes`` Wibble processes on a Redis Cluster of three masters and three replicas (AOF,
    fsync every second), started here in ``folder``."""
    from tests.redis_server import RedisCluster
    from tests.support import LiveServer

    cluster = RedisCluster(folder / f"cluster-{processes}").start()
    env = UNLIMITED if saturate else {}
    servers = [LiveServer("--redis", cluster.url, env=env) for _ in range(processes)]

    def stop() -> None:
        for server in servers:
            server.stop()
        cluster.stop()

    first, *rest = servers
    masters = cluster.masters()
    replicas = [node for node in cluster.nodes if node not in masters]
    # Named by role and place, the same in every round (each round starts a cluster of its own).
    pids = {f"master {n}": node.process.pid for n, node in enumerate(masters, 1) if node.process}
    pids |= {f"replica {n}": node.process.pid for n, node in enumerate(replicas, 1) if node.process}
    others = [(server.ws_url, server.process.pid) for server in rest]
    name = f"wibble cluster x{processes}"
    return Target(name, first.ws_url, first.process.pid, stop, others=others, redis_pids=pids)


def start_gunicorn(saturate: bool) -> Target:
    """Wibble's app under gunicorn's gevent worker, as docs/deploy.md runs it (its settings and
    hooks, ``wibble.gunicorn_conf``: one worker, 10,000 connections), saving in a new, empty
    folder as ``start_wibble`` does, with the same budgets."""
    from tests.support import ROOMY_BUDGETS

    folder = tempfile.mkdtemp(prefix="wibble-load-gunicorn-")
    command = [sys.executable, "-m", "gunicorn", "-c", "python:wibble.gunicorn_conf"]
    command += ["--backlog", "2048", "-b", "127.0.0.1:0"]
    env = {**os.environ, **ROOMY_BUDGETS, **(UNLIMITED if saturate else {}), "WIBBLE_DATA_DIR": folder}
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    assert process.stderr is not None
    address = worker = None
    for line in process.stderr:
        if found := re.search(r"Listening at: http://(\S+)", line):
            address = found.group(1)
        if found := re.search(r"Booting worker with pid: (\d+)", line):
            worker = int(found.group(1))
        if address and worker:
            break
    else:
        process.kill()
        raise RuntimeError("gunicorn did not start (is it installed? pip install gunicorn)")

    def drain(log: Any) -> None:
        for _ in log:  # keep reading its log, so a chatty worker never blocks on a full pipe
            pass

    threading.Thread(target=drain, args=(process.stderr,), daemon=True).start()

    def stop() -> None:
        process.terminate()
        process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)

    return Target("gunicorn gevent", f"ws://{address}{WS_PATH}", worker, stop)


def start_floor(name: str, *command: str) -> Target:
    """A floor server (``python -m <command>``) on a free port, found by the URL it prints first."""
    process = subprocess.Popen(
        [sys.executable, "-m", *command, "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"running at (ws://\S+)", line)
    if not match:
        process.kill()
        raise RuntimeError(f"{name} server did not start: {line!r}")

    def stop() -> None:
        process.terminate()
        process.wait(10)

    return Target(name, match.group(1), process.pid, stop, echo=True)


def start_echo() -> Target:
    return start_floor("echo floor", "benchmarks.echo_server")


def start_sock_echo() -> Target:
    return start_floor("sock-echo floor", "benchmarks.sock_echo")


# --floors: the echo on flask-sock and Wibble's server (the stack Wibble runs on), and asyncio's.
FLOORS: dict[str, Callable[[], Target]] = {"sock-echo": start_sock_echo, "echo": start_echo}


def is_floor(name: str) -> bool:
    return name.endswith("floor")


def rss_mb(pid: int | None) -> float:
    if pid is None:
        return float("nan")
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def client_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU time of a process (NaN if unknown)."""
    if pid is None:
        return float("nan")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu_seconds() -> float:
    """CPU time every process on the machine has used (all cores, not idle or waiting)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]]
    user, nice, system, _idle, _iowait, irq, softirq = fields
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


SETTLE = 1.0
"""Seconds between the client's collection and the measured window."""


async def frozen() -> None:
    """Move everything alive now (connections, games) out of the GC's sight, for shorter client
    pauses; then ``SETTLE`` seconds before the caller opens its window. The collection stops
    this client's loop for tens of milliseconds at a thousand connections; the frames that
    piled up meanwhile then go out at once, and the round trips caught in that burst (a third
    of a rooms run's slowest 1%, for the floors as for Wibble) measured the client, not the server."""
    gc.collect()
    gc.freeze()
    await asyncio.sleep(SETTLE)


def raise_open_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# -- one player ------------------------------------------------------------------------


@dataclass
class Tally:
    """What all players saw. Round trips count only if sent inside the measured window."""

    start: float = float("inf")
    stop: float = float("inf")
    times: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)  # when each of ``times`` was sent
    errors: Counter[str] = field(default_factory=Counter)
    failed: set[int] = field(default_factory=set)  # players (by seed) that saw an error
    ready: int = 0  # players connected and holding a game
    done: int = 0  # players finished (for any reason)

    def error(self, seed: int, kind: str) -> None:
        self.errors[kind] += 1
        self.failed.add(seed)

    def record(self, sent: float, elapsed: float) -> None:
        if self.start <= sent < self.stop:
            self.times.append(elapsed)
            self.sent.append(sent)

    def between(self, start: float, stop: float) -> list[float]:
        """The round trips of the events sent from ``start`` until ``stop``."""
        return [t for t, sent in zip(self.times, self.sent, strict=True) if start <= sent < stop]


class Wrong(Exception):
    """A reply the player did not expect: counted as an error, then the player carries on."""


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))  # as compact as the browser's JSON.stringify


# A word the board allows: (word, its tiles as bits of row * size + col, its path as those indices).
# Plain tuples of strings and ints, which the garbage collector stops tracking: thousands of
# players keep hundreds of words each, and the client's own GC pauses must not show as round trips.
Option = tuple[str, int, tuple[int, ...]]


def option(found: Found, size: int) -> Option:
    path = tuple(p.row * size + p.col for p in found.path)
    return found.word, sum(1 << i for i in path), path


def random_path(rng: random.Random, size: int) -> list[Pos]:
    """A chain of 2-5 touching tiles from a random start: mostly not a word, as people's misses are."""
    path = [Pos(rng.randrange(size), rng.randrange(size))]
    for _ in range(rng.randint(1, 4)):
        last = path[-1]
        near = [
            Pos(r, c)
            for r in range(max(0, last.row - 1), min(size, last.row + 2))
            for c in range(max(0, last.col - 1), min(size, last.col + 2))
            if Pos(r, c) not in path
        ]
        if not near:
            break
        path.append(rng.choice(near))
    return path


def bits(positions: list[Pos], size: int) -> int:
    return sum(1 << (p.row * size + p.col) for p in positions)


class Player:
    """One websocket, one game, chains chosen from the words its board allows.

    The words come from ``solve``, but not after every refill: a refill keeps every
    word whose tiles it did not touch, and the board is solved again only when fewer
    than ``RESOLVE_BELOW`` of those are left. A person also keeps the words they
    already saw.
    """

    def __init__(self, url: str, seed: int, words: WordList, tally: Tally, echo: bool) -> None:
        self.url = url
        self.seed = seed
        self.words = words
        self.tally = tally
        self.echo = echo
        self.rng = random.Random(seed)
        self.ws: ClientConnection | None = None
        self.grid: list[list[Letter]] = []
        self.options: list[Option] | None = None  # words to play on this board; None: solve again
        self.scored: set[str] = set()
        self.pending: deque[dict[str, Any]] = deque()  # messages of a frame read, not yet taken
        self.chained: list[Pos] = []  # echo only: the chain the server would hold
        self.sampler = LetterSampler(words.letters)  # echo only: draws the refills the server would

    # -- talking --

    async def recv(self) -> dict[str, Any]:
        assert self.ws is not None
        while not self.pending:
            async with asyncio.timeout(TIMEOUT):
                self.pending.extend(messages_in(await self.ws.recv()))
        return self.pending.popleft()

    async def ask(self, message: dict[str, Any], timed: bool = True) -> tuple[str, dict[str, Any]]:
        assert self.ws is not None
        frame = encode(message)
        sent = time.perf_counter()
        await self.ws.send(frame)
        reply = await self.recv()
        if timed:
            self.tally.record(sent, time.perf_counter() - sent)
        return frame, reply

    # -- the game --

    async def start(self) -> None:
        self.ws = await connect(
            self.url,
            compression=None,
            proxy=None,
            ping_interval=None,  # silent unless playing; the server's pings are answered
            open_timeout=None,
            close_timeout=2,
            max_queue=64,
        )
        frame, reply = await self.ask({"type": "new_game", "seed": self.seed}, timed=False)
        if self.echo:
            if json.loads(frame) != reply:
                raise Wrong("echo differs")
            self.grid = Board.fill(self.sampler, self.rng).rows()
        else:
            if reply.get("type") != "game":
                raise Wrong(f"{reply.get('type')} instead of game: {reply.get('code')}")
            faces = {letter.face: letter for letter in self.words.letters}
            self.grid = [[faces[tile["letter"]] for tile in row] for row in reply["board"]]

    def choose(self) -> tuple[list[Pos], str]:
        """The next chain and how it ends ("release" or "cancel")."""
        size = len(self.grid)
        if self.options is None:
            found = solve(Board(self.grid), self.words)
            self.options = [option(f, size) for f in found if len(f.path) <= LONGEST]
        fresh = [o for o in self.options if o[0] not in self.scored]
        if fresh and self.rng.random() < REAL_WORDS:
            return [Pos(*divmod(i, size)) for i in self.rng.choice(fresh)[2]], "release"
        return random_path(self.rng, size), self.rng.choice(["release", "cancel"])

    def refilled(self, word: str, tiles: list[tuple[Pos, Letter]]) -> None:
        """A word scored and its tiles were replaced: forget the words that used them."""
        self.scored.add(word)
        for pos, letter in tiles:
            self.grid[pos.row][pos.col] = letter
        if self.options is not None:
            changed = bits([pos for pos, _ in tiles], len(self.grid))
            kept = [o for o in self.options if not o[1] & changed and o[0] not in self.scored]
            self.options = kept if len(kept) >= RESOLVE_BELOW else None

    async def chain(self, pace: tuple[float, float] | None) -> None:
        path, ending = self.choose()
        messages: list[dict[str, Any]] = [{"type": "press", "row": path[0].row, "col": path[0].col}]
        messages += [{"type": "enter", "row": p.row, "col": p.col} for p in path[1:]]
        messages.append({"type": ending})
        for message in messages:
            if pace:
                await asyncio.sleep(self.rng.uniform(*pace))
            if time.perf_counter() >= self.tally.stop:
                return
            frame, reply = await self.ask(message)
            if self.echo:
                self.mirror(frame, message, reply)
            elif reply.get("type") == "error":
                self.tally.error(self.seed, f"error {reply.get('code')}")
                await self.ask({"type": "cancel"}, timed=False)  # back to idle, whatever happened
                return
            else:
                await self.follow(message, reply)

    async def follow(self, message: dict[str, Any], reply: dict[str, Any]) -> None:
        """Check the server's answer and keep the board current."""
        wanted = "word" if message["type"] == "release" else "chain"
        if reply.get("type") != wanted:
            raise Wrong(f"{reply.get('type')} in reply to {message['type']}")
        if wanted == "word" and reply["result"] == "scored":
            # The refill: in the word message since it carries it, a board message after it before.
            board = reply if "changed" in reply else await self.recv()
            if "changed" not in board:
                raise Wrong(f"{board.get('type')} instead of the refill")
            faces = {letter.face: letter for letter in self.words.letters}
            tiles = [(Pos(t["row"], t["col"]), faces[t["letter"]]) for t in board["changed"]]
            self.refilled(reply["word"].lower(), tiles)

    def mirror(self, frame: str, message: dict[str, Any], reply: dict[str, Any]) -> None:
        """Against the echo server: check the echo, and play the move as the server would have."""
        if json.loads(frame) != reply:
            raise Wrong("echo differs")
        kind = message["type"]
        if kind == "press":
            self.chained = [Pos(message["row"], message["col"])]
        elif kind == "enter":
            self.chained.append(Pos(message["row"], message["col"]))
        elif kind == "release":
            word = "".join(self.grid[p.row][p.col].symbol for p in self.chained)
            if len(word) >= self.words.min_length and word in self.words.trie and word not in self.scored:
                # The server draws new tiles (and counts the board's words); here, only the draw.
                self.refilled(word, [(p, self.sampler.draw(self.rng)) for p in sorted(self.chained)])
            self.chained = []
        else:
            self.chained = []


async def run_player(player: Player, body: Callable[[], Any]) -> None:
    """Connect, start a game, then run ``body``; every failure is one counted error."""
    tally, seed = player.tally, player.seed
    try:
        try:
            await player.start()
        except (OSError, ConnectionClosed, TimeoutError) as exc:
            tally.error(seed, f"connect: {type(exc).__name__}")
            return
        tally.ready += 1
        while True:
            try:
                await body()
                return
            except Wrong as exc:
                tally.error(seed, f"wrong reply: {exc}")
                if player.echo:
                    return
                await player.ask({"type": "cancel"}, timed=False)
    except Wrong as exc:
        tally.error(seed, f"wrong reply: {exc}")
    except TimeoutError:
        tally.error(seed, "timeout (> 5 s)")
    except ConnectionClosed as exc:
        tally.error(seed, f"closed: {exc.rcvd.code if exc.rcvd else 'no close frame'}")
    except Exception as exc:
        tally.error(seed, f"client: {type(exc).__name__}: {exc}")
    finally:
        tally.done += 1
        if player.ws is not None:
            try:
                await player.ws.close()
            except Exception:
                pass


# -- a match against bots ---------------------------------------------------------------


QUIET = 30.0  # seconds to wait for every bot to finish its turn once the matches are paused
SILENCE = 30.0  # seconds without a message before a playing match client gives up
NEW_MATCHES_PER_S = 10  # how fast the match clients start: their bots must not move in step


@dataclass(frozen=True)
class BotPlan:
    """The bot matches of a run: how many, who sits at them, and how the server paces its bots."""

    matches: int
    bots: int = 3
    level: str = "hard"
    rounds: int = 20
    think: str = "1.5-3"  # the server's BOT_THINK_SECONDS: seconds, or a range "low-high"
    step: str = "0.25"  # BOT_STEP_SECONDS: seconds per tile of a bot's drag
    wordlist: str | None = None  # None: the server's default list

    def env(self) -> dict[str, str]:
        return {"WIBBLE_BOT_THINK_SECONDS": self.think, "WIBBLE_BOT_STEP_SECONDS": self.step}

    def longest_think(self) -> float:
        return float(self.think.split("-")[-1])


@dataclass
class BotTally:
    """What the match clients saw, all of them together; ``paused``: they stop passing."""

    paused: bool = True
    connected: int = 0  # clients holding a match
    failed: int = 0  # clients that could not connect or start, or gave up
    started: int = 0  # matches started (new ones after a match ended included)
    bot_words: int = 0  # words the bots played
    shuffles: int = 0
    passes: int = 0  # the clients' own passes
    finished: int = 0  # matches played to the end
    errors: Counter[str] = field(default_factory=Counter)


class MatchClient:
    """A person in a match against bots who passes whenever their turn comes, so the bots play on.

    While the tally is ``paused`` the client does not pass: once its turn comes, every
    bot at its match has played and the match is idle (it ``waits``); ``resume``
    passes, and the bots play on. A match that ends is followed by a new one.
    """

    def __init__(self, url: str, seed: int, plan: BotPlan, tally: BotTally) -> None:
        self.url = url
        self.seed = seed
        self.plan = plan
        self.tally = tally
        self.ws: ClientConnection | None = None
        self.seat = 0
        self.matches = 0  # matches this client started
        self.waiting: dict[str, Any] | None = None  # what it will send on ``resume``; None: not waiting
        self.closing = False

    @property
    def idle(self) -> bool:
        """Its match is idle (the client's turn, or over) or the client is gone."""
        return self.waiting is not None or self.ws is None or self.ws.state.name != "OPEN"

    def new_match(self) -> dict[str, Any]:
        message: dict[str, Any] = {
            "type": "new_match",
            "bots": [{"level": self.plan.level}] * self.plan.bots,
            "rounds": self.plan.rounds,
            "seed": self.seed,
        }
        if self.plan.wordlist:
            message["wordlist"] = self.plan.wordlist
        self.seed += 1_000_000  # the next match gets a board of its own
        return message

    async def act(self, message: dict[str, Any]) -> None:
        """Send ``message`` (a pass or a new match) now, or once resumed."""
        if self.tally.paused:
            self.waiting = message
            return
        assert self.ws is not None
        await self.ws.send(encode(message))
        self.tally.passes += message["type"] == "pass"

    async def resume(self) -> None:
        message, self.waiting = self.waiting, None
        if message is not None:
            await self.act(message)

    async def run(self) -> None:
        tally = self.tally
        try:
            self.ws = await connect(
                self.url, compression=None, proxy=None, ping_interval=None, open_timeout=None, close_timeout=2
            )
            await self.ws.send(encode(self.new_match()))
            while True:
                async with asyncio.timeout(None if self.waiting else SILENCE):  # paused: silence is right
                    for message in messages_in(await self.ws.recv()):
                        await self.follow(message)
        except (OSError, TimeoutError, ConnectionClosed) as exc:
            if not self.closing:
                tally.errors[f"{type(exc).__name__}"] += 1
                tally.failed += 1

    async def follow(self, message: dict[str, Any]) -> None:
        """Note what happened, and pass if it is this seat's turn (a new match if it is over)."""
        tally, kind = self.tally, message.get("type")
        if kind == "match":
            self.seat = message["you"]
            self.matches += 1
            tally.started += 1
            tally.connected += self.matches == 1
        elif kind == "played" and message["seat"] != self.seat:
            tally.bot_words += 1
        elif kind == "board" and message["reason"] == "shuffle":
            tally.shuffles += 1
        elif kind == "error":
            tally.errors[f"error {message.get('code')}"] += 1
        elif kind == "match_over":
            tally.finished += 1
            await self.act(self.new_match())
        if kind in ("match", "turn") and message["phase"] == "playing" and message["turn"] == self.seat:
            await self.act({"type": "pass"})

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            await self.ws.close()


# -- runs ------------------------------------------------------------------------------


@dataclass
class Result:
    name: str
    events_per_s: float
    p50_ms: float
    p99_ms: float
    errors: Counter[str]
    rss_mb: float
    server_cpu: float  # share of one core over the measured time
    client_cpu: float
    other_cpu: float  # everything else on the machine meanwhile (other people's tests skew a run)
    extra: dict[str, Any] = field(default_factory=dict)
    times: list[float] = field(default_factory=list, repr=False)  # the round trips (seconds), if kept


def percentile(times: list[float], share: float) -> float:
    if not times:
        return float("nan")
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1e3


async def ramp(players: list[Player], rate: float, body: Callable[[Player], Callable[[], Any]]) -> list[Any]:
    """Start players ``rate`` a second; returns their tasks."""
    tasks = []
    started = time.perf_counter()
    for i, player in enumerate(players):
        tasks.append(asyncio.create_task(run_player(player, body(player))))
        delay = started + (i + 1) / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
    return tasks


async def settle(tally: Tally, count: int, limit: float) -> None:
    """Wait until every player holds a game or gave up (at most ``limit`` seconds)."""
    deadline = time.perf_counter() + limit
    while tally.ready + tally.done < count and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)


async def measure(target: Target, tally: Tally, seconds: float, name: str) -> Result:
    """The players' round trips over the next ``seconds``, and what the server and machine used meanwhile."""
    errors = Counter(tally.errors)
    servers = target.pids
    client0, machine0 = client_cpu_seconds(), machine_cpu_seconds()
    server0 = sum(map(cpu_seconds, servers))
    redis0 = {name: cpu_seconds(pid) for name, pid in target.redis_pids.items()}
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    stop = time.perf_counter()
    client1, machine1 = client_cpu_seconds(), machine_cpu_seconds()
    server1 = sum(map(cpu_seconds, servers))
    redis_used = {
        name: (cpu_seconds(pid) - redis0[name]) / seconds for name, pid in target.redis_pids.items()
    }
    times = tally.between(start, stop)
    used = (server1 - server0) + (client1 - client0) + sum(redis_used.values()) * seconds
    extra: dict[str, Any] = {}
    if redis_used:
        extra = {"redis_cpu": sum(redis_used.values()), "redis_nodes": redis_used}
    return Result(
        name,
        len(times) / seconds,
        percentile(times, 0.5),
        percentile(times, 0.99),
        tally.errors - errors,
        sum(map(rss_mb, servers)),
        (server1 - server0) / seconds,
        (client1 - client0) / seconds,
        max(0.0, machine1 - machine0 - used) / seconds,
        extra=extra,
        times=times,
    )


def paced_players(
    target: Target, words: WordList, players: int, tally: Tally, pace: tuple[float, float] | None
) -> tuple[list[Player], Callable[[Player], Callable[[], Any]]]:
    """The crowd, and what each of them does: play chains until the tally's ``stop``."""
    crowd = [Player(target.url_for(seed), seed, words, tally, target.echo) for seed in range(players)]

    def body(player: Player) -> Callable[[], Any]:
        async def play() -> None:
            while time.perf_counter() < tally.stop:
                await player.chain(pace)

        return play

    return crowd, body


async def play_run(
    target: Target,
    words: WordList,
    players: int,
    seconds: float,
    pace: tuple[float, float] | None,
    rate: float,
) -> Result:
    tally = Tally()
    crowd, body = paced_players(target, words, players, tally, pace)
    tasks = await ramp(crowd, rate, body)
    await settle(tally, players, 60)
    await asyncio.sleep(1.0)  # let the last ones get going
    await frozen()
    tally.start = time.perf_counter()
    tally.stop = tally.start + seconds
    result = await measure(target, tally, seconds, target.name)
    await asyncio.gather(*tasks)
    return result


async def bots_run(
    target: Target, words: WordList, players: int, seconds: float, rate: float, plan: BotPlan, rounds: int
) -> tuple[list[Result], BotTally]:
    """Paced players measured with and without ``plan.matches`` bot matches playing, ``rounds`` times.

    The match clients connect first and hold their matches paused (idle, the
    person's turn), so the two kinds of phase differ only in the bots playing.
    Each round measures a phase without bots and one with them, the order turned
    every round. A result's ``extra`` says whether the bots played, and their words a second."""
    tally = Tally()
    crowd, body = paced_players(target, words, players, tally, PACE)
    tasks = await ramp(crowd, rate, body)
    bots = BotTally()
    clients = [MatchClient(target.url, 10**6 + i, plan, bots) for i in range(plan.matches)]
    bot_tasks = [asyncio.create_task(client.run()) for client in clients]
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline and (
        tally.ready + tally.done < players
        or bots.connected + bots.failed < plan.matches
        or not all(client.idle for client in clients)
    ):
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)  # let the last ones get going
    await frozen()
    tally.start = time.perf_counter()  # from here on every round trip counts; each phase takes its own

    results = []
    for round_no in range(rounds):
        for playing in (False, True) if round_no % 2 == 0 else (True, False):
            if playing:
                bots.paused = False
                started = time.perf_counter()
                for i, client in enumerate(clients):  # paced, so that their bots do not move in step
                    await client.resume()
                    await asyncio.sleep(max(0.0, started + (i + 1) / NEW_MATCHES_PER_S - time.perf_counter()))
                await asyncio.sleep(plan.longest_think() + 3)  # every bot past its first think
            else:
                bots.paused = True
                deadline = time.perf_counter() + QUIET
                while not all(client.idle for client in clients) and time.perf_counter() < deadline:
                    await asyncio.sleep(0.1)
                busy = sum(not client.idle for client in clients)
                if busy:
                    bots.errors[f"still playing {QUIET:.0f} s after the pause"] += busy
            words_before = bots.bot_words
            name = f"{plan.matches} bot matches" if playing else "no bots"
            result = await measure(target, tally, seconds, f"round {round_no + 1}: {name}")
            result.extra["bots_playing"] = float(playing)
            result.extra["bot_words_per_s"] = (bots.bot_words - words_before) / seconds
            results.append(result)
    tally.stop = time.perf_counter()
    await asyncio.gather(*tasks)
    for client in clients:
        await client.close()
    await asyncio.gather(*bot_tasks, return_exceptions=True)
    return results, bots


async def idle_run(target: Target, words: WordList, players: int, seconds: float, rate: float) -> Result:
    # One player first, so the baseline includes everything a first game loads.
    warm = Tally()
    await run_player(Player(target.url, 10**9, words, warm, target.echo), lambda: asyncio.sleep(0))
    await asyncio.sleep(0.5)
    gc.collect()
    before = rss_mb(target.pid)
    tally = Tally()
    check = asyncio.Event()
    crowd = [Player(target.url, seed, words, tally, target.echo) for seed in range(players)]

    def body(player: Player) -> Callable[[], Any]:
        async def hold() -> None:
            while True:  # silent but for the page's heartbeat, until the check
                try:
                    async with asyncio.timeout(HEARTBEAT):
                        await check.wait()
                    break
                except TimeoutError:
                    await player.ask(PING, timed=False)  # its pong (an echo: the ping) read
            await asyncio.sleep(player.rng.uniform(0, CHECK_SPREAD))  # no thundering herd
            # One press and a cancel: the connection and its game still work.
            _, reply = await player.ask({"type": "press", "row": 0, "col": 0})
            if not player.echo and reply.get("type") != "chain":
                raise Wrong(f"{reply.get('type')} in reply to press: {reply.get('code')}")
            await player.ask({"type": "cancel"})

        return hold

    started = time.perf_counter()
    tasks = await ramp(crowd, rate, body)
    await settle(tally, players, 120)
    connected = time.perf_counter() - started
    await frozen()
    client0, server0, machine0 = client_cpu_seconds(), cpu_seconds(target.pid), machine_cpu_seconds()
    await asyncio.sleep(seconds)
    client1, server1, machine1 = client_cpu_seconds(), cpu_seconds(target.pid), machine_cpu_seconds()
    after = rss_mb(target.pid)
    tally.start = time.perf_counter()
    check.set()
    await asyncio.gather(*tasks)
    held = players - len(tally.failed)
    return Result(
        target.name,
        float("nan"),
        percentile(tally.times, 0.5),
        percentile(tally.times, 0.99),
        tally.errors,
        after,
        (server1 - server0) / seconds,
        (client1 - client0) / seconds,
        max(0.0, machine1 - machine0 - (server1 - server0) - (client1 - client0)) / seconds,
        {
            "held": held,
            "before": before,
            "per_game_kb": (after - before) * 1024 / players,
            "ramp_s": connected,
        },
    )


# -- report ----------------------------------------------------------------------------


def pooled(rounds: list[Result]) -> Result:
    """One target's rounds as one result: rates and CPU shares averaged, round trips pooled."""
    times = [t for r in rounds for t in r.times]
    errors: Counter[str] = Counter()
    for r in rounds:
        errors += r.errors

    def averaged(values: list[Any]) -> Any:
        """Numbers averaged; tables of numbers (each Redis node's CPU) averaged key by key."""
        if isinstance(values[0], dict):
            return {key: statistics.fmean(value[key] for value in values) for key in values[0]}
        return statistics.fmean(values)

    extra = {key: averaged([r.extra[key] for r in rounds]) for key in rounds[0].extra}

    def mean(share: Callable[[Result], float]) -> float:
        return statistics.fmean(share(r) for r in rounds)

    return Result(
        rounds[0].name,
        mean(lambda r: r.events_per_s),
        percentile(times, 0.5),
        percentile(times, 0.99),
        errors,
        max(r.rss_mb for r in rounds),
        mean(lambda r: r.server_cpu),
        mean(lambda r: r.client_cpu),
        mean(lambda r: r.other_cpu),
        extra=extra,
        times=times,
    )


def cpu_per_event(r: Result) -> float:
    """The server's CPU per event in µs."""
    return r.server_cpu / r.events_per_s * 1e6 if r.events_per_s else float("nan")


def report_rounds(rounds: list[list[Result]]) -> None:
    """Each round's CPU per event beside each floor's, then the rounds pooled."""
    for n, results in enumerate(rounds, 1):
        line = ", ".join(f"{r.name} {cpu_per_event(r):.0f} µs" for r in results)
        first = results[0]
        for floor in (r for r in results[1:] if is_floor(r.name) and not is_floor(first.name)):
            line += f"; {first.name} / {floor.name}: CPU {ratio(cpu_per_event(first), cpu_per_event(floor))}"
            line += f", events/s {ratio(first.events_per_s, floor.events_per_s)}"
            line += f", p99 {ratio(first.p99_ms, floor.p99_ms)}"
        print(f"round {n}: CPU per event: {line}")
    print(f"the {len(rounds)} rounds pooled (rates and CPU averaged, percentiles of every round trip):")
    report([pooled([results[i] for results in rounds]) for i in range(len(rounds[0]))], idle=False)


def ratio_rows(results: list[Result]) -> list[tuple[Result, Result]]:
    """The first row (Wibble) against each floor's row: the table's ratio rows."""
    first = results[0]
    return [] if is_floor(first.name) else [(first, r) for r in results[1:] if is_floor(r.name)]


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b and b == b and a == a else "-"


def report(results: list[Result], idle: bool) -> None:
    if idle:
        head = f"{'server':15} {'held':>6} {'errors':>6} {'RSS before':>11} {'RSS after':>10} "
        head += f"{'per idle game':>14} {'server CPU':>11} {'others CPU':>11} {'check p50':>10} {'p99':>8}"
        print(head)
        for r in results:
            print(
                f"{r.name:15} {r.extra['held']:>6.0f} {sum(r.errors.values()):>6} "
                f"{r.extra['before']:>8.0f} MB {r.rss_mb:>7.0f} MB {r.extra['per_game_kb']:>11.1f} KB "
                f"{r.server_cpu:>11.1%} {r.other_cpu:>11.0%} {r.p50_ms:>7.2f} ms {r.p99_ms:>5.1f} ms"
            )
        for a, b in ratio_rows(results):
            print(
                f"{'/ ' + b.name.removesuffix(' floor'):15} {'':>6} {'':>6} "
                f"{ratio(a.extra['before'], b.extra['before']):>11} {ratio(a.rss_mb, b.rss_mb):>10} "
                f"{ratio(a.extra['per_game_kb'], b.extra['per_game_kb']):>14}"
            )
    else:
        print(
            f"{'server':15} {'events/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6} "
            f"{'server RSS':>11} {'server CPU':>11} {'client CPU':>11} {'others CPU':>11}"
        )
        for r in results:
            print(
                f"{r.name:15} {r.events_per_s:>9.0f} {r.p50_ms:>8.2f} {r.p99_ms:>8.2f} "
                f"{sum(r.errors.values()):>6} {r.rss_mb:>8.0f} MB {r.server_cpu:>11.0%} {r.client_cpu:>11.0%}"
                f" {r.other_cpu:>11.0%}"
            )
        for a, b in ratio_rows(results):
            print(
                f"{'/ ' + b.name.removesuffix(' floor'):15} {ratio(a.events_per_s, b.events_per_s):>9} "
                f"{ratio(a.p50_ms, b.p50_ms):>8} {ratio(a.p99_ms, b.p99_ms):>8} {'':>6} "
                f"{ratio(a.rss_mb, b.rss_mb):>11} {ratio(a.server_cpu, b.server_cpu):>11}"
            )
    for r in results:
        if "redis_cpu" in r.extra:
            per_event = r.server_cpu / r.events_per_s * 1e6 if r.events_per_s else float("nan")
            nodes: dict[str, float] = r.extra.get("redis_nodes", {})
            each = "" if len(nodes) < 2 else " (" + ", ".join(f"{n} {c:.0%}" for n, c in nodes.items()) + ")"
            redis_per_event = r.extra["redis_cpu"] / r.events_per_s * 1e6 if r.events_per_s else float("nan")
            print(
                f"{r.name}: redis-server CPU {r.extra['redis_cpu']:.0%}{each}, {redis_per_event:.0f} µs an"
                f" event; Wibble's CPU per event {per_event:.0f} µs (all its processes together)"
            )
        elif not idle and not is_floor(r.name) and r.events_per_s:
            line = f"{r.name}: Wibble's CPU per event {cpu_per_event(r):.0f} µs"
            for floor in (f for f in results if is_floor(f.name) and f.events_per_s):
                echo = cpu_per_event(floor)
                line += f"; the {floor.name}'s {echo:.0f} µs: {ratio(cpu_per_event(r), echo)}"
            print(line)
        if r.errors:
            print(f"{r.name} errors: " + ", ".join(f"{kind} x{n}" for kind, n in r.errors.most_common(6)))


def report_bots(results: list[Result], bots: BotTally, plan: BotPlan) -> None:
    w = max(len(r.name) for r in results)
    print(
        f"{'phase':{w}} {'events/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6} {'server RSS':>11} "
        f"{'server CPU':>11} {'client CPU':>11} {'others CPU':>11} {'bot words/s':>12}"
    )
    for r in results:
        print(
            f"{r.name:{w}} {r.events_per_s:>9.0f} {r.p50_ms:>8.2f} {r.p99_ms:>8.2f} "
            f"{sum(r.errors.values()):>6} {r.rss_mb:>8.0f} MB {r.server_cpu:>11.0%} {r.client_cpu:>11.0%} "
            f"{r.other_cpu:>11.0%} {r.extra['bot_words_per_s']:>12.1f}"
        )
    with_bots = [r for r in results if r.extra["bots_playing"]]  # one of each a round, in round order
    without = [r for r in results if not r.extra["bots_playing"]]
    p99 = [a.p99_ms / b.p99_ms for a, b in zip(with_bots, without, strict=True)]
    p50 = [a.p50_ms / b.p50_ms for a, b in zip(with_bots, without, strict=True)]
    cpu = [a.server_cpu - b.server_cpu for a, b in zip(with_bots, without, strict=True)]
    pooled = [percentile([t for r in kind for t in r.times], 0.99) for kind in (with_bots, without)]
    print(
        f"with / without bots, all rounds pooled: p99 {pooled[0]:.2f} / {pooled[1]:.2f} ms = "
        f"{ratio(pooled[0], pooled[1])}"
    )
    print(
        "with / without bots, per round: p99 "
        + ", ".join(f"{x:.2f}x" for x in p99)
        + f" (median {statistics.median(p99):.2f}x); p50 "
        + ", ".join(f"{x:.2f}x" for x in p50)
        + "; server CPU "
        + ", ".join(f"{x:+.0%}" for x in cpu)
    )
    print(
        f"bot matches: {bots.connected} of {plan.matches} connected, {bots.failed} failed; "
        f"{bots.started} matches started, {bots.finished} finished; {bots.bot_words} bot words, "
        f"{bots.shuffles} shuffles, {bots.passes} passes in all"
    )
    errors = sum((r.errors for r in results), Counter[str]())
    if errors:
        print("players' errors: " + ", ".join(f"{kind} x{n}" for kind, n in errors.most_common(6)))
    if bots.errors:
        print("bot match errors: " + ", ".join(f"{kind} x{n}" for kind, n in bots.errors.most_common(6)))


def run_bots(args: argparse.Namespace, words: WordList, players: int, seconds: float) -> None:
    """``--bot-matches``: paced players with and without bot matches beside them, on one server."""
    plan = BotPlan(
        args.bot_matches,
        args.bots,
        args.bot_level,
        args.match_rounds,
        args.bot_think,
        args.bot_step,
        args.match_wordlist,
    )
    pace = f"bots think {plan.think} s, {plan.step} s a tile" if not args.url else "the server's bot pace"
    print(
        f"bot matches: {plan.matches}, each 1 passing person + {plan.bots} {plan.level} bots, "
        f"{plan.rounds} rounds, list {plan.wordlist or 'default'}; {pace}; one server, "
        f"{args.bot_rounds} rounds of {seconds:.0f} s without bots and with them (order turned each round)",
        flush=True,
    )
    if args.url:  # a running server: its bots think and step at its own pace
        target = Target(args.name, args.url, args.server_pid)
    else:
        target = start_wibble(False, args.data_dir, plan.env())
    try:
        results, bots = asyncio.run(
            bots_run(target, words, players, seconds, args.ramp, plan, args.bot_rounds)
        )
    finally:
        target.stop()
    report_bots(results, bots, plan)


def servers(args: argparse.Namespace) -> list[Callable[[], Target]]:
    """What to measure, in order, each started when its turn comes."""
    starts: list[Callable[[], Target]] = []
    if not args.only_echo:
        if args.url:
            starts.append(lambda: Target(args.name, args.url, args.server_pid))
        else:
            starts.append(lambda: start_wibble(args.saturate, args.data_dir))
    folder = Path(tempfile.mkdtemp(prefix="wibble-load-"))
    for processes in args.redis:  # after the SQLite (or memory) server, in the same run
        starts.append(lambda n=processes: start_wibble_redis(args.saturate, n, folder))
    for processes in args.cluster:
        starts.append(lambda n=processes: start_wibble_cluster(args.saturate, n, folder))
    if args.gunicorn:
        starts.append(lambda: start_gunicorn(args.saturate))
    if not args.no_echo:
        starts += [FLOORS[name] for name in args.floors]
    return starts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=None, help="default 1000 (paced) or 100 (--saturate)")
    parser.add_argument(
        "--seconds", type=float, default=None, help="measured time (default 20); idle: time held (default 40)"
    )
    parser.add_argument("--saturate", action="store_true", help="no pauses: each event as soon as answered")
    parser.add_argument("--idle", type=int, default=None, metavar="N", help="hold N silent players")
    parser.add_argument("--ramp", type=float, default=250.0, help="new connections a second while ramping up")
    parser.add_argument("--url", default=None, help="a running server's ws:// URL (default: start one)")
    parser.add_argument("--server-pid", type=int, default=None, help="with --url: its process, for RSS/CPU")
    parser.add_argument("--name", default="wibble", help="the server's row label in the table")
    parser.add_argument(
        "--data-dir",
        default=None,
        metavar="DIR",
        help="the server's --data-dir ('' keeps games in memory only; default: a new empty folder)",
    )
    parser.add_argument("--no-echo", action="store_true", help="skip the floors")
    parser.add_argument(
        "--floors",
        type=lambda text: [name for name in text.split(",") if name],
        default=list(FLOORS),
        metavar="NAME[,NAME]",
        help=f"the floors to run, in this order after Wibble (default and choices: {','.join(FLOORS)})",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure every server this many times, taking turns (Wibble, echo, Wibble, echo...), so"
        " that the machine's slower and faster minutes fall on both; each round's figures, then pooled",
    )
    parser.add_argument(
        "--redis",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[],
        metavar="N[,N...]",
        help="also measure N processes sharing one redis-server (e.g. 1,2,3), in the same run",
    )
    parser.add_argument(
        "--cluster",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[],
        metavar="N[,N...]",
        help="also measure N processes on a Redis Cluster of 3 masters and 3 replicas (e.g. 1,2,4)",
    )
    parser.add_argument(
        "--gunicorn", action="store_true", help="also measure the app under gunicorn's gevent worker"
    )
    parser.add_argument("--only-echo", action="store_true", help="measure only the floors")
    bots = parser.add_argument_group("bot matches (paced players measured with and without them, in rounds)")
    bots.add_argument(
        "--bot-matches", type=int, default=0, metavar="N", help="matches against bots beside them"
    )
    bots.add_argument("--bots", type=int, default=3, help="bots at each match (default 3)")
    bots.add_argument("--bot-level", default="hard", choices=("easy", "medium", "hard"))
    bots.add_argument("--match-rounds", type=int, default=20, help="rounds of each match (default 20)")
    bots.add_argument("--match-wordlist", default=None, help="the matches' word list (default: the server's)")
    bots.add_argument(
        "--bot-think", default="1.5-3", metavar="S", help="the server's BOT_THINK_SECONDS (default 1.5-3)"
    )
    bots.add_argument("--bot-step", default="0.25", metavar="S", help="BOT_STEP_SECONDS (default 0.25)")
    bots.add_argument(
        "--bot-rounds", type=int, default=2, help="rounds of a phase without and one with bots (default 2)"
    )
    args = parser.parse_args()
    if args.bot_matches and (args.saturate or args.idle or args.gunicorn or args.only_echo):
        parser.error("--bot-matches is a paced run: not with --saturate, --idle, --gunicorn, --only-echo")
    if unknown := set(args.floors) - set(FLOORS):
        parser.error(f"--floors: no floor named {', '.join(sorted(unknown))} (there are {', '.join(FLOORS)})")
    raise_open_file_limit()
    words = load(ROOT / "words" / "en.txt")
    gc.freeze()  # the word list's millions of objects never need collecting: keep GC pauses short
    players = args.players or (100 if args.saturate else 300 if args.bot_matches else 1000)
    seconds = args.seconds or (40.0 if args.idle else 20.0)
    pace = None if args.saturate else PACE
    if args.idle:
        title = (
            f"idle: {args.idle} players each start a game, then hold for {seconds:.0f} s, sending only"
            f" the heartbeat's ping every {HEARTBEAT:.0f} s"
        )
    elif args.saturate:
        title = (
            f"saturated: {players} players, each event sent as soon as the last is answered, {seconds:.0f} s"
        )
    else:
        title = f"paced: {players} players, {PACE[0]}-{PACE[1]} s before each event, {seconds:.0f} s measured"
    print(title + " (client: one asyncio process, same 2 cores)", flush=True)
    if args.bot_matches:
        run_bots(args, words, players, seconds)
        return

    if args.rounds > 1 and args.idle:
        parser.error("--rounds is for play runs, not --idle")
    rounds = []
    for _ in range(args.rounds):
        results = []
        for start in servers(args):
            target = start()
            if target.name == "wibble":
                target.name = args.name
            try:
                if args.idle:
                    result = asyncio.run(idle_run(target, words, args.idle, seconds, args.ramp))
                else:
                    result = asyncio.run(play_run(target, words, players, seconds, pace, args.ramp))
            finally:
                target.stop()
            results.append(result)
        rounds.append(results)
    if args.rounds > 1:
        report_rounds(rounds)
    else:
        report(rounds[0], bool(args.idle))


if __name__ == "__main__":
    main()
