"""What waiting for a replica costs a commit on a Redis Cluster (``store/redis_replicas.py``).

Starts a real cluster of three masters with a replica each, and a single redis-server,
both on loopback with AOF, then commits one match document over and over, one caller,
back to back, taking three ways in turn each round:

- ``cluster+WAIT``: ``RedisStore`` on the cluster as it runs (the commit, then ``WAIT 1 100``
  on the same connection);
- ``cluster``: the same store with the wait turned off (the commit alone, on the same path);
- ``single``: ``RedisStore`` on one redis-server (the commit alone).

Reported per commit: median and p99 latency, and this process's CPU.

    .venv/bin/python -m benchmarks.cluster_wait [--commits 3000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from tests.redis_server import RedisCluster, RedisServer
from wibble.engines.store.redis import RedisStore


def commits(store: RedisStore, doc_id: str, count: int) -> tuple[list[float], float]:
    """Commit ``count`` versions of ``doc_id``; each commit's latency, and the CPU per commit."""
    row = store.load(doc_id)
    version = row.doc["version"] if row else 0
    if row is None:
        store.create(doc_id, "match", {"version": 0, "words": []}, time.time())
    timings = []
    cpu = time.process_time()
    for _ in range(count):
        began = time.perf_counter()
        doc = {"version": version + 1, "words": ["PERORATE"] * 8}
        store.commit(doc_id, version, doc, {"seat": 0, "word": "PERORATE"}, time.time())
        timings.append(time.perf_counter() - began)
        version += 1
    return timings, (time.process_time() - cpu) / count


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--commits", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="wibble-cluster-"))
    cluster = RedisCluster(folder / "cluster").start()
    single = RedisServer(folder / "single", aof=True, fsync="everysec").start()
    try:
        waited, unwaited, one = RedisStore(cluster.url), RedisStore(cluster.url), RedisStore(single.url)
        unwaited._replicated = None  # the same store, not waiting for a replica
        ways = {"cluster+WAIT": waited, "cluster": unwaited, "single": one}
        for store in ways.values():
            commits(store, "match:warm", 200)
        results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in ways}
        for round_no in range(1, args.rounds + 1):
            for name, store in ways.items():
                timings, cpu = commits(store, f"match:{name}", args.commits)
                timings.sort()
                figures = statistics.median(timings), timings[int(len(timings) * 0.99)], cpu
                results[name].append(figures)
                print(
                    f"round {round_no} {name:13s} median {figures[0] * 1e6:6.1f} µs"
                    f"  p99 {figures[1] * 1e6:7.1f} µs  CPU {figures[2] * 1e6:6.1f} µs a commit",
                    flush=True,
                )
        print("medians over the rounds:")
        for name, rows in results.items():
            medians = [statistics.median(column) * 1e6 for column in zip(*rows, strict=True)]
            median, p99, cpu = medians
            print(f"  {name:13s} median {median:6.1f} µs  p99 {p99:7.1f} µs  CPU {cpu:6.1f} µs")
    finally:
        cluster.stop()
        single.stop()


if __name__ == "__main__":
    main()
