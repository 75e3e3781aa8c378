"""What a committed move costs with Redis: its round trips, Redis's CPU, and the time it adds.

Real games are played first (``benchmarks.store.play_games``: boards as the server
draws them, chains as load players choose them); each released chain is then the
document and move the live layer would commit. In the same run, one after the other
and interleaved over ``--rounds`` rounds, each engine commits every move of those
games, one caller, back to back:

- ``SqliteStore`` in a temporary folder (the default engine, ``synchronous=NORMAL``);
- ``RedisStore`` against a redis-server started here (AOF, ``appendfsync everysec``,
  as docs/deploy.md advises), on loopback;
- the floor: against the same Redis, what a compare-and-set costs at least, one read
  (``HGET``) plus one trivial Lua script (``EVALSHA`` returning 1), two round trips.

Reported per commit: median and p99 latency, and for Redis the commands Redis ran
(from ``INFO commandstats``), the round trips the client made (pipelines count once),
and redis-server's CPU (from /proc).

    .venv/bin/python -m benchmarks.redis_commits [--games 200] [--moves 20] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.store import Played, new_id, play_games
from tests.redis_server import RedisServer
from wibble.engines.redis_client import connect
from wibble.engines.store import SqliteStore, Store
from wibble.engines.store.redis import RedisStore
from wibble.wordlists import load

ROOT = Path(__file__).resolve().parent.parent
FLOOR_SCRIPT = "return 1"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def commands(client: Any) -> int:
    stats = client.info("commandstats")
    return sum(int(entry["calls"]) for name, entry in stats.items() if name != "cmdstat_info")


def commit_all(store: Store, games: list[Played], tag: str) -> list[float]:
    """Create each game under a new id, then commit its moves in turn; the commits' latencies."""
    timings = []
    for n, played in enumerate(games):
        game_id = f"{tag}-{n}-{new_id(random.Random(n), 6)}"
        store.create(game_id, "game", played.fresh, 0.0)
        for expected, doc, move in played.steps:
            start = time.perf_counter()
            store.commit(game_id, expected, doc, move, 1.0)
            timings.append(time.perf_counter() - start)
    return timings


def floor(client: Any, count: int) -> list[float]:
    script = client.register_script(FLOOR_SCRIPT)
    client.hset("floor:{x}", "version", 0)
    timings = []
    for _ in range(count):
        start = time.perf_counter()
        client.hget("floor:{x}", "version")
        script(keys=["floor:{x}"])
        timings.append(time.perf_counter() - start)
    return timings


def summary(name: str, timings: list[float], extra: str = "") -> str:
    ordered = sorted(timings)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    median = statistics.median(ordered)
    return f"{name:34} {median * 1000:8.3f} ms {p99 * 1000:8.3f} ms  {extra}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    words = load(ROOT / "words" / "en.txt")
    games = play_games(words, args.games, args.moves, seed=1)
    moves = args.games * args.moves
    folder = Path(tempfile.mkdtemp(prefix="wibble-redis-commits-"))
    server = RedisServer(folder / "redis", aof=True, fsync="everysec").start()
    assert server.process is not None
    client = connect(server.url)
    sqlite = SqliteStore(folder / "wibble.db")
    redis_store = RedisStore(server.url, client=client)
    pooled: dict[str, list[float]] = {"sqlite": [], "redis": [], "floor": []}
    redis_commands = redis_cpu = 0.0
    runs: dict[str, Callable[[int], list[float]]] = {
        "sqlite": lambda r: commit_all(sqlite, games, f"s{r}"),
        "redis": lambda r: commit_all(redis_store, games, f"r{r}"),
        "floor": lambda r: floor(client, moves),
    }
    try:
        for round_no in range(args.rounds):
            order = list(runs) if round_no % 2 == 0 else list(reversed(runs))
            for name in order:
                before_commands, before_cpu = commands(client), cpu_seconds(server.process.pid)
                pooled[name] += runs[name](round_no)
                if name == "redis":
                    redis_commands += commands(client) - before_commands - 1  # (its own INFO)
                    redis_cpu += cpu_seconds(server.process.pid) - before_cpu
    finally:
        sqlite.close()
        server.stop()
    commits = moves * args.rounds
    creates = args.games * args.rounds
    print(
        f"{args.games} games x {args.moves} moves, {args.rounds} rounds interleaved, one caller; "
        f"Redis on loopback with AOF (everysec)"
    )
    print(f"{'':34} {'median':>11} {'p99':>11}")
    print(summary("SqliteStore.commit", pooled["sqlite"]))
    per_commit = (redis_commands - creates * 4) / commits  # a create: EVALSHA (EXISTS, HSET) and ZADD
    print(
        summary(
            "RedisStore.commit",
            pooled["redis"],
            f"1 round trip; {per_commit:.2f} commands in Redis (the script's own included), "
            f"{redis_cpu / (commits + creates) * 1e6:.0f} µs of redis-server CPU a commit",
        )
    )
    print(summary("floor: HGET + EVALSHA 'return 1'", pooled["floor"], "2 round trips"))


if __name__ == "__main__":
    main()
