"""Saving games: what the store costs per move, on disk, at a restart and under load.

Every measurement plays real games first: ``wibble.core.Game`` boards (at least 30
words each, as the server draws them), and released chains chosen as the load
players choose them (80% words the solver found, the rest random paths, which
commit too: every release is a move). Each move is then the document and move
the live layer (``wibble.live.games``) would commit. Subcommands (``all``, the default, runs them in order):

- ``size``: bytes per stored game (fresh, and after 20 released chains) and per
  move, from the database's used pages and SQLite's own ``dbstat`` row sizes;
- ``commits``: the latency a caller sees per commit, on a gevent loop (no
  monkey-patching needed: greenlets, a native thread where asked): the shipped
  ``SqliteStore`` (inline, ``synchronous=NORMAL``, checkpoints on a thread as
  ``wibble serve`` runs them), the same with SQLite's own checkpoints and with
  ``FULL``, three alternatives written here (a writer thread that drains a queue and
  commits every waiting move in one transaction, group commit, timed from the call
  to the caller's wake-up, hand-off included; checkpoints on a thread that are only
  PASSIVE or only RESTART; and every commit in gevent's
  thread pool, the connection behind a lock), and ``MemoryStore`` as the floor.
  Each one at a time, paced (one greenlet per game, ``--rate`` commits a second in
  all) and saturated (100 greenlets committing back to back, yielding between moves
  as a handler does). Beside the caller's latency, a probe
  greenlet that asks to wake every 1 ms reports how late it woke: the stall every
  other player on the loop sees. Every row runs ``--repeat`` times, interleaved,
  its timings pooled; FULL rows commit ``--full-commits`` moves, as each waits for
  an fsync;
- ``restart``: fills a database with ``--games`` stored games (``SqliteStore.create``
  of real documents at random stages, 0-20 moves, each with its move rows; the
  documents of ``--pool`` played games are reused under new ids and tokens), then
  times ``wibble serve --data-dir`` from launch until it prints its URL (beside an
  empty folder and ``--data-dir ""``), and resumes random games over real
  websockets right after a start with the database file dropped from the OS's
  page cache (``posix_fadvise(DONTNEED)``): cold;
- ``load``: ``benchmarks.load``'s paced and saturated players against a server with
  ``--data-dir TMP`` and one with ``--data-dir ""``, in the same run (the order
  turned each of ``--rounds`` rounds), with the commits made during the measured
  window counted from the database. ``--inline-checkpoints`` adds a third server,
  patched to leave its checkpoints inline in the commits, as SQLite runs them by itself;
- ``locked``: ``--writers`` greenlets commit back to back while another connection
  holds ``BEGIN EXCLUSIVE`` for ``--hold`` seconds (issue 18): the store as it was
  (one try, SQLite's busy timeout on the loop), the shipped one (pauses that yield),
  and every commit in the thread pool; the loop's lag meanwhile, each refusal's
  time, and how soon the writers save once the lock goes. It runs last in ``all``,
  as it has gevent patch ``time.sleep`` (``wibble serve`` patches everything).

    .venv/bin/python -m benchmarks.store                      # all five, ~7 minutes
    .venv/bin/python -m benchmarks.store size
    .venv/bin/python -m benchmarks.store commits [--commits 5000] [--paced-commits 2000] [--rate 400]
    .venv/bin/python -m benchmarks.store restart [--games 100000] [--resumes 200]
    .venv/bin/python -m benchmarks.store load [--players 1000] [--saturate-players 100] [--rounds 2]
    .venv/bin/python -m benchmarks.store load --inline-checkpoints  # a third server, checkpoints inline
    .venv/bin/python -m benchmarks.store locked [--writers 6] [--hold 2] [--repeat 2]
"""

from __future__ import annotations

import _queue
import argparse
import asyncio
import base64
import collections
import gc
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from statistics import median
from typing import Any, Protocol

import gevent
import gevent.event
import gevent.lock
import gevent.monkey
from websockets.sync.client import connect

from benchmarks.load import INLINE_CHECKPOINTS, LONGEST, REAL_WORDS, random_path
from tests.support import WS_PATH
from wibble.core import Draws, Game, HashParams, Move, Pos, WordJudged, WordList, solve
from wibble.engines.store import MemoryStore, SqliteStore, StorageError, VersionConflict
from wibble.engines.store import sqlite as engine
from wibble.engines.store.sqlite import _dump  # the exact text the store writes
from wibble.live.credentials import token_hash
from wibble.wordlists import load as load_words

ROOT = Path(__file__).resolve().parent.parent
MIN_WORDS = 30  # the server's default MIN_BOARD_WORDS
PROBE = 0.001  # the loop probe asks to wake this often
SLOW = 0.005  # commits slower than this are counted
Doc = dict[str, Any]


def with_token(doc: dict[str, Any], token: str) -> dict[str, Any]:
    """A game's document as the server stores it: with its token's hash."""
    return {**doc, "tokens": [token_hash(token).hex()]}


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f}" if seconds < 0.01 else f"{seconds * 1e3:.1f}"


# -- real games ------------------------------------------------------------------------


@dataclass
class Played:
    """A game as the server would have saved it: fresh, then after each released chain."""

    fresh: Doc
    steps: list[tuple[int, Doc, Doc]]  # (version expected, document after, move), in order


def new_id(rng: random.Random, nbytes: int = 12) -> str:
    """Like ``secrets.token_urlsafe(nbytes)``, the server's ids and tokens, but seeded."""
    return base64.urlsafe_b64encode(rng.randbytes(nbytes)).rstrip(b"=").decode()


def choose(game: Game, rng: random.Random) -> list[Pos]:
    if rng.random() < REAL_WORDS:
        found = game.found.words
        fresh = [f for f in solve(game.board, game.words) if f.word not in found and len(f.path) <= LONGEST]
        if fresh:
            return list(rng.choice(fresh).path)
    return random_path(rng, game.board.size)


def play_games(words: WordList, count: int, moves: int, seed: int) -> list[Played]:
    rng = random.Random(seed)
    played = []
    for _ in range(count):
        game = Game(words, Draws(rng.getrandbits(53)), HashParams.draw(rng), min_words=MIN_WORDS)
        fresh = game.to_doc()
        steps = []
        for _ in range(moves):
            path = choose(game, rng)
            game.press(path[0])
            for pos in path[1:]:
                game.enter(pos)
            expected, chain = game.version, game.chain
            events = game.release() + game.clean_up()  # as Games._commit_release
            judged = events[0]
            assert isinstance(judged, WordJudged)
            steps.append((expected, game.to_doc(), Move.of(chain, judged).to_doc()))
        played.append(Played(fresh, steps))
    return played


def results_of(played: list[Played]) -> collections.Counter[str]:
    return collections.Counter(move["result"] for p in played for _, _, move in p.steps)


# -- stores under test -----------------------------------------------------------------


class Committer(Protocol):
    def commit(self, game_id: str, expected: int, doc: Doc, move: Doc, now: float) -> None: ...

    def close(self) -> None: ...


class GroupCommitter:
    """The alternative: one writer thread owns the connection; callers hand over and wait.

    The caller (a greenlet) serialises the document, puts the move on a native
    queue and waits on an ``AsyncResult``. The writer takes everything waiting,
    commits it in one transaction (a stale version only skips its own move, as
    the inline store refuses it), then wakes the loop once through an async
    watcher, whose callback hands each caller its outcome.
    """

    def __init__(self, store: SqliteStore) -> None:
        self._db = store._db  # from here on only the writer thread touches it
        self._queue: _queue.SimpleQueue[Any] = _queue.SimpleQueue()
        self._done: collections.deque[tuple[gevent.event.AsyncResult, Exception | None]] = collections.deque()
        self._watcher = gevent.get_hub().loop.async_()
        self._watcher.start(self._wake)
        self.batches: list[int] = []
        self._thread = threading.Thread(target=self._write, name="store-writer", daemon=True)
        self._thread.start()

    def commit(self, game_id: str, expected: int, doc: Doc, move: Doc, now: float) -> None:
        outcome = gevent.event.AsyncResult()
        self._queue.put((game_id, expected, doc["version"], _dump(doc), _dump(move), now, outcome))
        outcome.get()  # raises what the writer set

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join()
        self._watcher.close()

    def _write(self) -> None:
        db = self._db
        hours: dict[str, int] = {}  # as the shipped store: the indexed hour is written when it changes
        while (item := self._queue.get()) is not None:
            batch = [item]
            while True:
                try:
                    more = self._queue.get_nowait()
                except _queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch.append(more)
            outcomes: list[Exception | None] = []
            try:
                db.execute("BEGIN IMMEDIATE")
                for game_id, expected, version, doc, move, now, _ in batch:
                    hour = int(now // engine.HOUR)
                    sets, values = "version = ?, doc = ?, updated = ?", [version, doc, now]
                    if hours.get(game_id) != hour:
                        sets, values = sets + ", hour = ?", [*values, hour]
                    statement = f"UPDATE documents SET {sets} WHERE id = ? AND version = ?"
                    cursor = db.execute(statement, (*values, game_id, expected))
                    if cursor.rowcount != 1:
                        outcomes.append(VersionConflict(game_id, expected))
                        continue
                    hours[game_id] = hour
                    db.execute(
                        "INSERT INTO records (doc_id, version, move) VALUES (?, ?, ?)",
                        (game_id, version, move),
                    )
                    outcomes.append(None)
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                try:
                    db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                outcomes = [StorageError(str(exc))] * len(batch)
            self.batches.append(len(batch))
            self._done.extend((entry[-1], outcome) for entry, outcome in zip(batch, outcomes, strict=True))
            self._watcher.send()

    def _wake(self) -> None:
        while self._done:
            result, outcome = self._done.popleft()
            if outcome is None:
                result.set(None)
            else:
                result.set_exception(outcome)


class Checkpointer:
    """Commits stay inline, but the checkpoints move to a native thread.

    In WAL mode with ``synchronous=NORMAL`` a commit never waits for the disk; the
    fsyncs happen when the WAL is copied back into the database (a checkpoint),
    which SQLite by itself runs inside whichever commit takes the WAL past 1,000
    pages, on the loop. Here the loop's connection stops doing that and a thread
    checkpoints every ``interval`` seconds, in one of three ways:

    - ``PASSIVE`` (its own connection) never blocks a writer, but it lets the WAL start
      again only if nothing was committed while it ran: under steady play it grows;
    - ``RESTART`` (its own connection) holds the write lock while it copies and resets
      the WAL. The loop's connection then must not wait for that lock inside SQLite
      (that would stall the loop again): see ``Cooperative``;
    - ``shipped``: ``SqliteStore.checkpoint``, as ``wibble serve`` runs it: PASSIVE,
      then a RESTART that holds the lock only for the pages committed meanwhile, once
      the WAL holds 1,000 pages (``Cooperative`` too).
    """

    def __init__(self, store: SqliteStore, mode: str, interval: float = 0.5) -> None:
        if mode == "shipped":
            store.defer_checkpoints()
            self._checkpoint: Callable[[], object] = store.checkpoint
            self._db = None
        else:
            store._db.execute("PRAGMA wal_autocheckpoint=0")
            db = sqlite3.connect(store.path, isolation_level=None, check_same_thread=False, timeout=10)
            self._db = db
            self._checkpoint = lambda: db.execute(f"PRAGMA wal_checkpoint({mode})")
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="store-checkpoints", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            self._checkpoint()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        if self._db is not None:
            self._db.close()


class Cooperative:
    """One try per commit with ``busy_timeout=0`` (``OneTry``: the shipped store's own pauses
    would sleep on this unpatched loop): a commit that finds the write lock taken (by the
    checkpoint thread) yields to the loop for 1 ms and tries again."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        store._db.execute("PRAGMA busy_timeout=0")

    def commit(self, game_id: str, expected: int, doc: Doc, move: Doc, now: float) -> None:
        while True:
            try:
                return self.store.commit(game_id, expected, doc, move, now)
            except StorageError as exc:
                if "locked" not in exc.reason:
                    raise
            gevent.sleep(0.001)

    def close(self) -> None:
        pass


class OneTry(SqliteStore):
    """The store before issue 18's fix: one try per access, waiting for a lock held by another
    process inside SQLite (``busy_timeout``), on whatever thread calls it (the loop, inline)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self._db.execute(f"PRAGMA busy_timeout = {engine.BUSY_TIMEOUT_MS}")

    def _patiently(self, attempt: Callable[[], Any]) -> Any:
        try:
            return attempt()
        except engine._Busy as exc:
            raise StorageError(exc.reason) from None


class InThreadPool:
    """The alternative: every commit in gevent's thread pool (SQLite may wait there for a lock,
    off the loop), the connection's use serialised by a lock so transactions never interleave."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self._lock = gevent.lock.Semaphore()
        self._pool = gevent.get_hub().threadpool

    def commit(self, game_id: str, expected: int, doc: Doc, move: Doc, now: float) -> None:
        def attempt() -> Exception | None:  # handed back, not raised: the pool would log it
            try:
                self.store.commit(game_id, expected, doc, move, now)
            except (StorageError, VersionConflict) as exc:
                return exc
            return None

        with self._lock:
            failed = self._pool.apply(attempt)
        if failed is not None:
            raise failed

    def close(self) -> None:
        pass


@dataclass
class Variant:
    name: str
    engine: str  # "memory", "inline", "inline+PASSIVE", "inline+RESTART", "inline+shipped", "group", "pool"
    synchronous: str = "NORMAL"

    @property
    def full(self) -> bool:
        return self.synchronous == "FULL"


VARIANTS = [
    Variant("memory (floor)", "memory"),
    Variant("inline, ckpt thread (shipped)", "inline+shipped"),
    Variant("inline, SQLite's own ckpts", "inline"),
    Variant("inline, FULL", "inline", "FULL"),
    Variant("inline, ckpt thread PASSIVE", "inline+PASSIVE"),
    Variant("inline, ckpt thread RESTART", "inline+RESTART"),
    Variant("thread + group, NORMAL", "group"),
    Variant("thread + group, FULL", "group", "FULL"),
    Variant("thread pool, NORMAL", "pool"),
]


def database_of(variant: Variant, folder: Path) -> Path:
    return folder / f"commits-{variant.engine}-{variant.synchronous}.db"


@contextmanager
def opened(variant: Variant, folder: Path, games: list[tuple[str, Played]]) -> Iterator[Committer]:
    """A fresh store of ``variant`` holding ``games`` as new games."""
    now = time.time()
    if variant.engine == "memory":
        memory = MemoryStore()
        for game_id, p in games:
            memory.create(game_id, "game", p.fresh, now)
        yield memory
        return
    path = database_of(variant, folder)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    cooperative = variant.engine in ("inline+RESTART", "inline+shipped")  # their commits may meet a lock
    store = (OneTry if cooperative else SqliteStore)(path)
    store._db.execute(f"PRAGMA synchronous={variant.synchronous}")
    for game_id, p in games:
        store.create(game_id, "game", p.fresh, now)
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every run starts with an empty WAL
    helper: GroupCommitter | Checkpointer | None = None
    committer: Committer = store
    if variant.engine == "group":
        committer = helper = GroupCommitter(store)
    elif variant.engine == "pool":
        committer = InThreadPool(store)
    elif variant.engine.startswith("inline+"):
        helper = Checkpointer(store, variant.engine.removeprefix("inline+"))
        committer = Cooperative(store) if cooperative else store
    try:
        yield committer
    finally:
        if helper is not None:
            helper.close()
        store.close()


# -- (a) commit latency ----------------------------------------------------------------


@dataclass
class Timings:
    latencies: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    seconds: float = 0.0
    batches: list[int] = field(default_factory=list)
    wal_bytes: int = 0  # the WAL file's size at the end (its high-water mark)
    cpu: float = (
        0.0  # the process's CPU time (all threads) meanwhile; NaN where pauses and the probe dominate
    )


class LoopProbe:
    """A greenlet that asks to wake every ``PROBE`` seconds and notes how late it woke."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.running = True
        self.greenlet = gevent.spawn(self._run)

    def _run(self) -> None:
        while self.running:
            started = time.perf_counter()
            gevent.sleep(PROBE)
            self.lags.append(time.perf_counter() - started - PROBE)

    def stop(self) -> list[float]:
        self.running = False
        self.greenlet.join()
        return self.lags


def timed(committer: Committer, game_id: str, step: tuple[int, Doc, Doc], into: list[float]) -> None:
    expected, doc, move = step
    started = time.perf_counter()
    committer.commit(game_id, expected, doc, move, time.time())
    into.append(time.perf_counter() - started)


def one_at_a_time(committer: Committer, games: list[tuple[str, Played]]) -> Timings:
    """One caller, one commit after another, round-robin over the games (as many players would)."""
    out = Timings()
    started = time.perf_counter()
    for k in range(len(games[0][1].steps)):
        for game_id, p in games:
            timed(committer, game_id, p.steps[k], out.latencies)
    out.seconds = time.perf_counter() - started
    return out


def paced(committer: Committer, games: list[tuple[str, Played]], rate: float, seed: int) -> Timings:
    """One greenlet per game, a random pause before each release: ``rate`` commits a second in all."""
    out = Timings()
    gap = len(games) / rate  # mean pause of each game

    def player(game_id: str, p: Played, rng: random.Random) -> None:
        for step in p.steps:
            gevent.sleep(rng.uniform(0, 2 * gap))
            timed(committer, game_id, step, out.latencies)

    probe = LoopProbe()
    started = time.perf_counter()
    gevent.joinall(
        [gevent.spawn(player, gid, p, random.Random(seed + i)) for i, (gid, p) in enumerate(games)]
    )
    out.seconds = time.perf_counter() - started
    out.lags = probe.stop()
    return out


def saturated(committer: Committer, games: list[tuple[str, Played]], workers: int = 100) -> Timings:
    """``workers`` greenlets, each taking the next game and committing its moves back to back."""
    out = Timings()
    waiting = iter(games)

    def worker() -> None:
        for game_id, p in waiting:
            for step in p.steps:
                timed(committer, game_id, step, out.latencies)
                gevent.sleep(0)  # a handler answers its socket between moves: the others get a turn

    probe = LoopProbe()
    started = time.perf_counter()
    gevent.joinall([gevent.spawn(worker) for _ in range(workers)])
    out.seconds = time.perf_counter() - started
    out.lags = probe.stop()
    return out


def commits_section(played: list[Played], folder: Path, args: argparse.Namespace) -> None:
    moves = len(played[0].steps)
    rng = random.Random(args.seed)
    named = [(new_id(rng), p) for p in played]
    print(
        f"\n== (a) commit latency per released chain: real games, {moves} releases each "
        f"({dict(results_of(played))}); {args.repeat} repeat(s) of every row, interleaved, pooled; "
        f"caller = call to return, hand-off included; loop lag = how late a greenlet asking to wake "
        f"every {PROBE * 1e3:.0f} ms woke"
    )
    print(
        f"{'store':30} {'scenario':18} {'commits':>7} {'commits/s':>9} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'p99.9 ms':>8} {'max ms':>7} {'>5 ms':>5} {'CPU µs':>6} {'lag p99':>8} {'lag max':>8} "
        f"{'batch':>6} {'WAL MB':>6}"
    )
    scenarios: list[tuple[str, Callable[[Committer, list[tuple[str, Played]], int], Timings]]] = [
        ("one at a time", lambda c, g, _: one_at_a_time(c, g)),
        (f"paced {args.rate:.0f}/s", lambda c, g, r: paced(c, g, args.rate, args.seed + 1000 * r)),
        ("saturated, 100", lambda c, g, _: saturated(c, g)),
    ]
    pooled: dict[tuple[str, str], Timings] = {}
    for repeat in range(args.repeat):
        for variant in VARIANTS:
            for label, scenario in scenarios:
                budget = args.full_commits if variant.full else args.commits
                if label.startswith("paced") and not variant.full:
                    budget = args.paced_commits
                games = named[: max(1, budget // moves)]
                with opened(variant, folder, games) as committer:
                    gc.collect()
                    cpu = time.process_time()
                    result = scenario(committer, games, repeat)
                    result.cpu = float("nan") if label.startswith("paced") else time.process_time() - cpu
                    if isinstance(committer, GroupCommitter):
                        result.batches = committer.batches
                    wal = Path(f"{database_of(variant, folder)}-wal")
                    result.wal_bytes = wal.stat().st_size if wal.exists() else 0
                into = pooled.setdefault((variant.name, label), Timings())
                into.wal_bytes = max(into.wal_bytes, result.wal_bytes)
                into.latencies += result.latencies
                into.lags += result.lags
                into.batches += result.batches
                into.seconds += result.seconds
                into.cpu += result.cpu
    for (name, label), timings in pooled.items():
        print_timings(name, label, timings)


def print_timings(name: str, label: str, t: Timings) -> None:
    lat, lags = t.latencies, t.lags
    lag = f"{ms(percentile(lags, 0.99)):>8} {ms(max(lags)):>8}" if lags else f"{'-':>8} {'-':>8}"
    batch = f"{sum(t.batches) / len(t.batches):>6.1f}" if t.batches else f"{'-':>6}"
    wal = f"{t.wal_bytes / 2**20:>6.1f}" if t.wal_bytes else f"{'-':>6}"
    print(
        f"{name:30} {label:18} {len(lat):>7} {len(lat) / t.seconds:>9.0f} {ms(percentile(lat, 0.5)):>8} "
        f"{ms(percentile(lat, 0.99)):>8} {ms(percentile(lat, 0.999)):>8} {ms(max(lat)):>7} "
        f"{sum(x > SLOW for x in lat):>5} {t.cpu / len(lat) * 1e6:>6.0f} {lag} {batch} {wal}",
        flush=True,
    )


# -- (b) bytes per game and per move ---------------------------------------------------


def used_bytes(db: sqlite3.Connection) -> int:
    """Bytes of the database's pages in use, after moving the WAL into the file."""
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages, free, size = (
        db.execute(f"PRAGMA {name}").fetchone()[0] for name in ("page_count", "freelist_count", "page_size")
    )
    return int((pages - free) * size)


def table_bytes(db: sqlite3.Connection) -> dict[str, tuple[int, int, int]]:
    """Per table or index: (bytes of payload, bytes of pages, rows), from SQLite's dbstat."""
    rows = db.execute(
        "SELECT name, sum(payload), sum(pgsize), sum(ncell) FROM dbstat GROUP BY name"
    ).fetchall()
    return {name: (payload, pages, cells) for name, payload, pages, cells in rows}


def size_section(played: list[Played], folder: Path, copies: int) -> None:
    path = folder / "size.db"
    store = SqliteStore(path)
    db = store._db
    empty = used_bytes(db)
    rng = random.Random(1)
    games = [(new_id(rng), p) for _ in range(copies) for p in played]
    now = time.time()
    for game_id, p in games:
        store.create(game_id, "game", with_token(p.fresh, new_id(rng, 24)), now)
    fresh, fresh_tables = used_bytes(db), table_bytes(db)
    for game_id, p in games:
        for expected, doc, move in p.steps:
            store.commit(game_id, expected, doc, move, now)
    after, after_tables = used_bytes(db), table_bytes(db)
    store.close()
    n, moves = len(games), sum(len(p.steps) for _, p in games)
    per_game = moves // n
    doc_fresh = sum(len(_dump(p.fresh).encode()) for p in played) / len(played)
    doc_after = sum(len(_dump(p.steps[-1][1]).encode()) for p in played) / len(played)
    move_text = sum(len(_dump(m).encode()) for p in played for _, _, m in p.steps) / (len(played) * per_game)
    print(
        f"\n== (b) bytes per stored game: {n:,} games ({len(played)} played games stored {copies} times "
        f"under new ids), then {per_game} released chains each ({moves:,} commits); SQLite page 4096 B"
    )
    print(f"{'':36} {'JSON text':>10} {'row payload':>12} {'pages used':>11}")
    g0, g1 = fresh_tables["games"], after_tables["games"]
    i0, i1 = fresh_tables.get("games_by_updated", (0, 0, 0)), after_tables.get("games_by_updated", (0, 0, 0))
    m1 = after_tables["moves"]
    print(
        f"{'fresh game (games row + index)':36} {doc_fresh:>8.0f} B {(g0[0] + i0[0]) / n:>10.0f} B "
        f"{(fresh - empty) / n:>9.0f} B"
    )
    print(
        f"{f'game after {per_game} chains (with its moves)':36} {doc_after:>8.0f} B "
        f"{(g1[0] + i1[0] + m1[0]) / n:>10.0f} B {(after - empty) / n:>9.0f} B"
    )
    print(f"{'one move (moves row)':36} {move_text:>8.0f} B {m1[0] / m1[2]:>10.0f} B {m1[1] / m1[2]:>9.0f} B")
    print(f"{'growth per commit (doc grows + move)':36} {'':>10} {'':>12} {(after - fresh) / moves:>9.0f} B")
    print(f"  database file: {empty:,} B empty, {fresh:,} B fresh, {after:,} B after (pages in use)")


# -- (c) restart with many stored games ------------------------------------------------


@dataclass
class Filled:
    path: Path
    keys: list[tuple[str, str]]  # (game id, token) of every stored game
    moves: int
    seconds: float


def fill(folder: Path, played: list[Played], count: int, seed: int) -> Filled:
    """``count`` stored games, each a played game's document at a random stage, with its moves."""
    folder.mkdir(parents=True, exist_ok=True)
    store = SqliteStore(folder / "wibble.db")
    rng = random.Random(seed)
    texts = [[_dump(move) for _, _, move in p.steps] for p in played]
    keys, pending, moves = [], [], 0
    now = time.time()  # recent: the server's retention sweep keeps them
    started = time.perf_counter()

    def flush() -> None:
        store._db.execute("BEGIN IMMEDIATE")
        store._db.executemany("INSERT INTO records (doc_id, version, move) VALUES (?, ?, ?)", pending)
        store._db.execute("COMMIT")
        pending.clear()

    for i in range(count):
        which = i % len(played)
        p, stage = played[which], rng.randint(0, len(played[which].steps))
        game_id, token = new_id(rng), new_id(rng, 24)
        doc = p.fresh if stage == 0 else p.steps[stage - 1][1]
        store.create(game_id, "game", with_token(doc, token), now)
        keys.append((game_id, token))
        pending.extend((game_id, version, texts[which][version - 1]) for version in range(1, stage + 1))
        moves += stage
        if len(pending) >= 50_000:
            flush()
    flush()
    store.close()
    return Filled(folder / "wibble.db", keys, moves, time.perf_counter() - started)


def drop_from_os_cache(folder: Path) -> None:
    """Write the database's files out and evict them from the page cache: the next read is from disk."""
    for path in folder.iterdir():
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def resident(path: Path) -> str:
    if not shutil.which("fincore"):
        return "?"
    out = subprocess.run(
        ["fincore", "--bytes", "--noheadings", "-o", "RES", str(path)], capture_output=True, text=True
    )
    return (
        f"{int(out.stdout.split()[0]) / 2**20:.1f} MB" if out.returncode == 0 and out.stdout.strip() else "?"
    )


# ``wibble serve`` with SQLite's checkpoints left inline (``benchmarks.load.INLINE_CHECKPOINTS``).
# Run as ``python -c`` so that gevent patches before anything else is imported, as ``wibble
# serve`` does.
INLINE_CHECKPOINTS_SERVER = f"""
import sys
from gevent import monkey
monkey.patch_all()
from wibble import cli
{INLINE_CHECKPOINTS}
sys.exit(cli.main(sys.argv[1:]))
"""


class Server:
    """``wibble serve`` on a free port with roomy per-address budgets; ``seconds``: launch to URL printed."""

    def __init__(
        self, options: list[str], env: dict[str, str] | None = None, code: str | None = None
    ) -> None:
        from tests.support import ROOMY_BUDGETS

        started = time.perf_counter()
        command = [sys.executable, *(["-c", code] if code else ["-m", "wibble"]), "serve", "--port", "0"]
        self.process = subprocess.Popen(
            [*command, *options],
            cwd=ROOT,
            env={**os.environ, **ROOMY_BUDGETS, **(env or {}), "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.process.stdout is not None
        self.output: list[str] = []
        for line in self.process.stdout:
            self.output.append(line)
            if match := re.search(r"running at (http://\S+?)/?\s", line):
                self.seconds = time.perf_counter() - started
                self.ws_url = match.group(1).replace("http://", "ws://") + WS_PATH
                threading.Thread(target=self._drain, daemon=True).start()
                return
        self.process.wait()
        raise RuntimeError("server did not start:\n" + "".join(self.output))

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)

    def stop(self) -> float:
        """Stop it (SIGTERM, as a host would); returns seconds until it exited."""
        started = time.perf_counter()
        self.process.terminate()
        self.process.wait(30)
        return time.perf_counter() - started


def resume_each(url: str, keys: list[tuple[str, str]]) -> tuple[list[float], list[float]]:
    """Each game on a new websocket: (connect times, resume round trips: send to its ``game`` reply)."""
    connects, resumes = [], []
    for game_id, token in keys:
        started = time.perf_counter()
        with connect(url, compression=None, open_timeout=10, close_timeout=1) as ws:
            opened_at = time.perf_counter()
            ws.send(json.dumps({"type": "resume", "game_id": game_id, "token": token}))
            reply = json.loads(ws.recv(timeout=10))
            answered = time.perf_counter()
        if reply.get("type") != "game" or reply.get("game_id") != game_id:
            raise RuntimeError(f"resume of {game_id} answered {reply}")
        connects.append(opened_at - started)
        resumes.append(answered - opened_at)
    return connects, resumes


def restart_section(played: list[Played], folder: Path, args: argparse.Namespace) -> None:
    cache = folder / "cache"
    Server(
        ["--data-dir", "", "--cache-dir", str(cache)]
    ).stop()  # fills the word list cache: every start below is warm
    filled = fill(folder / "many", played, args.games, args.seed)
    size = sum(f.stat().st_size for f in filled.path.parent.iterdir())
    print(
        f"\n== (c) restart: {args.games:,} stored games ({filled.moves:,} moves; documents of {len(played)} "
        f"played games at random stages 0-{len(played[0].steps)}, new ids and tokens), filled in "
        f"{filled.seconds:.1f} s; database {size / 2**20:.0f} MB, {size / args.games:,.0f} B per game"
    )
    (folder / "empty").mkdir()
    starts: list[tuple[str, str, bool]] = [
        ('--data-dir "" (memory)', "", False),
        ("--data-dir EMPTY (new database)", str(folder / "empty"), False),
        (f"--data-dir {args.games:,} games, file cached", str(filled.path.parent), False),
        (f"--data-dir {args.games:,} games, file dropped", str(filled.path.parent), True),
    ]
    print(f"{'start (launch until URL printed)':40} {'median':>8} {'max':>8} {'stop':>8}   runs={args.runs}")
    for label, data_dir, drop in starts:
        times, stops = [], []
        for _ in range(args.runs):
            if drop:
                drop_from_os_cache(filled.path.parent)
            server = Server(["--data-dir", data_dir, "--cache-dir", str(cache)])
            times.append(server.seconds)
            stops.append(server.stop())
        median, stop = percentile(times, 0.5), percentile(stops, 0.5)
        print(f"{label:40} {median:>6.2f} s {max(times):>6.2f} s {stop:>6.2f} s")
    resumes_section(filled, args, str(cache))


def resumes_section(filled: Filled, args: argparse.Namespace, cache: str) -> None:
    rng = random.Random(args.seed + 1)
    sample = rng.sample(filled.keys, 2 * args.resumes)
    first, second = sample[: args.resumes], sample[args.resumes :]
    drop_from_os_cache(filled.path.parent)
    cached = resident(filled.path)
    launched = time.perf_counter()
    server = Server(["--data-dir", str(filled.path.parent), "--cache-dir", cache])
    try:
        connects, resumes = resume_each(server.ws_url, first[:1])
        to_first = time.perf_counter() - launched
        more = resume_each(server.ws_url, first[1:])
        rows = [
            (f"cold: {len(first)} random games, fresh server", connects + more[0], resumes + more[1]),
            (f"then {len(second)} other random games", *resume_each(server.ws_url, second)),
            (f"the first {len(first)} again (in memory)", *resume_each(server.ws_url, first)),
        ]
    finally:
        server.stop()
    print(
        f"resume over a new websocket each (database file dropped from the OS cache before the start: "
        f"{cached} of it resident); launch until the first resume answered: {to_first:.2f} s"
    )
    print(f"{'':44} {'resume p50':>10} {'p99':>7} {'max':>7} {'connect p50':>12} {'p99':>7}")
    for label, conn, res in rows:
        print(
            f"{label:44} {ms(percentile(res, 0.5)):>7} ms {ms(percentile(res, 0.99)):>7} {ms(max(res)):>7} "
            f"{ms(percentile(conn, 0.5)):>9} ms {ms(percentile(conn, 0.99)):>7}"
        )


# -- (e) another process holds the lock ------------------------------------------------


def locked_section(played: list[Played], folder: Path, args: argparse.Namespace) -> None:
    """Writers committing back to back while another connection holds ``BEGIN EXCLUSIVE``.

    ``time.sleep`` is gevent's here (``patch_time``), as in ``wibble serve``: the shipped
    store pauses between tries with it. A probe greenlet measures what the loop does
    meanwhile; each writer, how long its refusals take and how soon it saves once the
    lock goes.
    """
    gevent.monkey.patch_time()
    print(
        f"\n== (e) {args.writers} greenlets committing back to back while another connection holds "
        f"BEGIN EXCLUSIVE for {args.hold:.1f} s, then let go; {args.repeat} repeat(s), pooled"
    )
    print(
        f"{'store':40} {'held s':>6} {'refused':>7} {'refusal p50':>11} {'max ms':>7} {'wakes':>6} "
        f"{'lag p99':>8} {'lag max':>8} {'saved after ms':>14}"
    )
    kinds: list[tuple[str, Callable[[Path], Committer], bool]] = [
        ("inline, busy_timeout 200 ms (before)", OneTry, True),
        ("inline, pauses that yield (shipped)", SqliteStore, True),
        ("thread pool, busy_timeout 200 ms", lambda path: InThreadPool(OneTry(path)), True),
        # The same time with no lock taken: what this machine's loop does with nothing in the way.
        ("shipped, nothing locked (control)", SqliteStore, False),
    ]
    pooled: dict[str, tuple[list[float], list[float], list[float], list[float]]] = {}
    for _ in range(args.repeat):
        for name, make, lock in kinds:
            held, refusals, lags, resumed = pooled.setdefault(name, ([], [], [], []))
            held.append(one_lock(make, played, folder, args, lock, refusals, lags, resumed))
    for name, (held, refusals, lags, resumed) in pooled.items():
        print(
            f"{name:40} {max(held):>6.1f} {len(refusals):>7} {ms(percentile(refusals, 0.5)):>8} ms "
            f"{ms(max(refusals, default=float('nan'))):>7} {len(lags):>6} {ms(percentile(lags, 0.99)):>8} "
            f"{ms(max(lags)):>8} {ms(max(resumed, default=float('nan'))):>14}",
            flush=True,
        )


def one_lock(
    make: Callable[[Path], Committer],
    played: list[Played],
    folder: Path,
    args: argparse.Namespace,
    lock: bool,
    refusals: list[float],
    lags: list[float],
    resumed: list[float],
) -> float:
    """One lock held ``args.hold`` seconds (longer if the loop cannot wake to let go): how long it was."""
    path = folder / "locked.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    SqliteStore(path).close()  # the schema, before the store under test opens it
    committer = make(path)
    rng = random.Random(args.seed)
    games = [(new_id(rng), p) for p in played[: args.writers]]
    now = time.time()
    setup = SqliteStore(path)
    for game_id, p in games:
        setup.create(game_id, "game", p.fresh, now)
    setup.close()
    holder = sqlite3.connect(path, isolation_level=None)
    if lock:
        holder.execute("BEGIN EXCLUSIVE")
    locked_at = time.perf_counter()
    locked = True
    let_go = 0.0

    def writer(game_id: str, p: Played) -> None:
        for step in p.steps:
            while True:
                started = time.perf_counter()
                try:
                    committer.commit(game_id, *step, time.time())
                except StorageError:
                    refusals.append(time.perf_counter() - started)
                    gevent.sleep(0)  # the player hears of it, and sends the release again
                    continue
                if let_go:
                    resumed.append(time.perf_counter() - let_go)
                    return
                break
            if not locked:
                return

    probe = LoopProbe()
    workers = [gevent.spawn(writer, gid, p) for gid, p in games]
    gevent.sleep(args.hold)
    if lock:
        holder.execute("ROLLBACK")
    locked, let_go = False, time.perf_counter()
    gevent.joinall(workers)
    lags += probe.stop()
    holder.close()
    committer.close()
    return let_go - locked_at


# -- (d) the load, store on and off ----------------------------------------------------


class CommitWindow:
    """Counts the moves committed during ``benchmarks.load``'s measured window, from the database.

    ``play_run`` awaits ``frozen()`` just before its window opens: that call is
    wrapped here to count the stored moves then, and again ``seconds`` later.
    """

    def __init__(self, db_path: Path | None, seconds: float) -> None:
        self.db_path, self.seconds = db_path, seconds
        self.counts: list[int] = []
        self.wal_bytes = 0
        self.timer: threading.Timer | None = None

    def count(self) -> None:
        if self.db_path is None:
            return
        db = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            self.counts.append(int(db.execute("SELECT count(*) FROM records").fetchone()[0]))
        finally:
            db.close()
        # The WAL file is reused from its start after each checkpoint: its size is its high-water mark.
        self.wal_bytes = Path(f"{self.db_path}-wal").stat().st_size

    @contextmanager
    def hooked(self, module: Any) -> Iterator[None]:
        original = module.frozen

        async def frozen() -> None:
            await original()
            self.count()
            self.timer = threading.Timer(self.seconds, self.count)
            self.timer.start()

        module.frozen = frozen
        try:
            yield
        finally:
            module.frozen = original
            if self.timer is not None:
                self.timer.join()

    @property
    def commits(self) -> int | None:
        return self.counts[1] - self.counts[0] if len(self.counts) == 2 else None


def stored_results(db_path: Path) -> collections.Counter[str]:
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT json_extract(move, '$.result'), count(*) FROM records GROUP BY 1"
        ).fetchall()
    finally:
        db.close()
    return collections.Counter({result: n for result, n in rows})


@dataclass(frozen=True)
class Config:
    name: str
    stored: bool
    code: str | None = None  # run the server as ``python -c code`` instead of ``-m wibble``


SHIPPED = Config("on", True)
MEMORY = Config("off", False)
INLINE_CHECKPOINTS = Config("on, inline ckpts", True, INLINE_CHECKPOINTS_SERVER)


def load_section(words: WordList, folder: Path, args: argparse.Namespace) -> None:
    from benchmarks import load as bench

    bench.raise_open_file_limit()
    configs = [SHIPPED, MEMORY] + ([INLINE_CHECKPOINTS] if args.inline_checkpoints else [])
    scenarios = [
        (f"paced {args.players}", args.players, bench.PACE),
        (f"saturated {args.saturate_players}", args.saturate_players, None),
    ]
    scenarios = [scenario for scenario in scenarios if scenario[1]]  # 0 players: skip it
    print(
        f'\n== (d) benchmarks.load, store on (--data-dir TMP) and off (--data-dir ""), {args.seconds:.0f} s '
        f"measured each, {args.rounds} round(s), the order turned each round"
    )
    print(
        f"{'scenario':14} {'store':15} {'events/s':>9} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} "
        f"{'srv CPU':>7} {'ev/CPU s':>8} {'cli CPU':>7} {'others':>7} {'commits':>8} {'commits/s':>9}  "
        "all moves stored"
    )
    for label, players, pace in scenarios:
        summary: dict[Config, list[Any]] = {config: [] for config in configs}
        for round_ in range(args.rounds):
            for config in configs[round_ % len(configs) :] + configs[: round_ % len(configs)]:
                result, window, stored = one_load(bench, words, folder, config, players, pace, args)
                summary[config].append(result)
                print_load(label, config, result, window, stored, args.seconds)
        off = summary[MEMORY]
        for config in configs:
            if config is not MEMORY:
                p99 = median(r.p99_ms for r in summary[config]) / median(r.p99_ms for r in off)
                rate = median(r.events_per_s for r in summary[config]) / median(r.events_per_s for r in off)
                cpu = median(per_cpu(r) for r in summary[config]) / median(per_cpu(r) for r in off)
                print(
                    f"{label}, {config.name} / off: p99 {p99:.2f}x, events/s {rate:.2f}x, events per server "
                    f"CPU second {cpu:.2f}x (round medians)"
                )


def per_cpu(result: Any) -> float:
    """Events answered per second of the server's CPU: its capacity, less swayed by other work."""
    return float(result.events_per_s / result.server_cpu) if result.server_cpu else float("nan")


def print_load(
    label: str, config: Config, result: Any, window: CommitWindow, stored: str, seconds: float
) -> None:
    errors = sum(result.errors.values())
    commits = "-" if window.commits is None else f"{window.commits:,}"
    rate = "-" if window.commits is None else f"{window.commits / seconds:.0f}"
    print(
        f"{label:14} {config.name:15} {result.events_per_s:>9.0f} {result.p50_ms:>7.2f} "
        f"{result.p99_ms:>7.2f} {errors:>6} {result.server_cpu:>7.0%} {per_cpu(result):>8.0f} "
        f"{result.client_cpu:>7.0%} {result.other_cpu:>7.0%} {commits:>8} {rate:>9}  {stored}",
        flush=True,
    )
    if result.errors:
        print("   errors: " + ", ".join(f"{k} x{n}" for k, n in result.errors.most_common(6)))


def one_load(
    bench: Any,
    words: WordList,
    folder: Path,
    config: Config,
    players: int,
    pace: tuple[float, float] | None,
    args: argparse.Namespace,
) -> tuple[Any, CommitWindow, str]:
    data = Path(tempfile.mkdtemp(dir=folder, prefix="load-"))
    db_path = data / "wibble.db"
    window = CommitWindow(db_path if config.stored else None, args.seconds)
    if config.code is None:
        target = bench.start_wibble(pace is None, str(data) if config.stored else "")
    else:
        server = Server(["--data-dir", str(data)], bench.UNLIMITED if pace is None else None, config.code)
        target = bench.Target("wibble", server.ws_url, server.process.pid, server.stop)
    try:
        with window.hooked(bench):
            result = asyncio.run(bench.play_run(target, words, players, args.seconds, pace, args.ramp))
    finally:
        target.stop()
    stored = "-"
    if config.stored:
        results = stored_results(db_path)
        kinds = ", ".join(f"{k} {n:,}" for k, n in results.most_common())
        stored = f"{sum(results.values()):,} ({kinds}); WAL {window.wal_bytes / 2**20:.1f} MB"
    shutil.rmtree(data)
    return result, window, stored


# -- main ------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "what", nargs="?", default="all", choices=["all", "size", "commits", "restart", "load", "locked"]
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", type=int, default=250, help="real games played for every measurement")
    parser.add_argument("--moves", type=int, default=20, help="released chains per played game")
    parser.add_argument("--copies", type=int, default=4, help="size: each played game stored this many times")
    parser.add_argument("--commits", type=int, default=5000, help="commits: per scenario (NORMAL, memory)")
    parser.add_argument("--full-commits", type=int, default=500, help="commits: per scenario with FULL")
    parser.add_argument("--rate", type=float, default=400.0, help="commits: paced commits a second in all")
    parser.add_argument("--paced-commits", type=int, default=2000, help="commits: per paced run (NORMAL)")
    parser.add_argument("--repeat", type=int, default=2, help="commits: runs of every row, pooled")
    parser.add_argument("--games", type=int, default=100_000, help="restart: stored games")
    parser.add_argument("--runs", type=int, default=3, help="restart: starts of each kind")
    parser.add_argument("--resumes", type=int, default=200, help="restart: random games resumed")
    parser.add_argument("--players", type=int, default=1000, help="load: paced players")
    parser.add_argument("--saturate-players", type=int, default=100, help="load: saturating players")
    parser.add_argument("--seconds", type=float, default=20.0, help="load: measured seconds per run")
    parser.add_argument("--rounds", type=int, default=2, help="load: on/off pairs per scenario")
    parser.add_argument("--ramp", type=float, default=250.0, help="load: new connections a second")
    parser.add_argument(
        "--inline-checkpoints",
        action="store_true",
        help="load: also a server whose checkpoints run inline, as SQLite runs them by itself",
    )
    parser.add_argument("--writers", type=int, default=6, help="locked: greenlets committing")
    parser.add_argument("--hold", type=float, default=2.0, help="locked: seconds the other connection holds")
    parser.add_argument("--tmp", default=None, help="folder for the databases (default: the system's temp)")
    args = parser.parse_args()
    words = load_words(ROOT / "words" / "en.txt")
    gc.freeze()  # as benchmarks.load: the word list never needs collecting
    load_avg = os.getloadavg()[0]
    print(
        f"{date.today()}  CPython {sys.version.split()[0]}  SQLite {sqlite3.sqlite_version}  "
        f"{os.cpu_count()} cores  load average {load_avg:.1f}"
    )
    started = time.perf_counter()
    needs_games = args.what in ("all", "size", "commits", "restart", "locked")
    played = play_games(words, args.pool, args.moves, args.seed) if needs_games else []
    if played:
        print(f"played {len(played)} games x {args.moves} releases in {time.perf_counter() - started:.1f} s")
    with tempfile.TemporaryDirectory(dir=args.tmp, prefix="wibble-store-") as tmp:
        folder = Path(tmp)
        if args.what in ("all", "size"):
            size_section(played, folder, args.copies)
        if args.what in ("all", "commits"):
            commits_section(played, folder, args)
        if args.what in ("all", "restart"):
            restart_section(played, folder, args)
        if args.what in ("all", "load"):
            load_section(words, folder, args)
        if args.what in ("all", "locked"):  # last: it patches time.sleep
            locked_section(played, folder, args)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
