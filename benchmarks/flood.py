"""A flood of new games from one address, and what it does to another player's round trips.

The audit behind the per-address budgets: 30 connections each sending ``new_game``
at 39 a second (under the per-connection rate limit) took the server to 96% CPU and
another player's round trip from 1 ms to a median of 127 ms. This runs that flood
against two servers in one run, one with the default budgets (60 new games a
minute per address, 100 board builds a second in all) and one with the budgets
lifted (the server before the budgets), while a player on a game started before
the flood presses and cancels, and reports that player's round trips, how many
of the flood's games were built, and the server's CPU.

    .venv/bin/python -m benchmarks.flood [--connections 30] [--rate 39] [--seconds 15]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from websocket import WebSocketTimeoutException, create_connection

from tests.support import WS_PATH

ROOT = Path(__file__).resolve().parent.parent
LIFTED = {
    "WIBBLE_MAX_CONNECTIONS_PER_ADDRESS": "100000",
    "WIBBLE_HTTP_CONNECTIONS_PER_ADDRESS": "100000",
    "WIBBLE_GAMES_PER_MINUTE": "100000000",
    "WIBBLE_BOARD_BUILDS_PER_SECOND": "100000000",
}


def start(env: dict[str, str], data_dir: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "wibble", "serve", "--port", "0", "--data-dir", data_dir],
        cwd=ROOT,
        env={**os.environ, **env, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    for line in process.stdout:
        match = re.search(r"running at (http://\S+?)/?\s", line)
        if match:
            threading.Thread(target=lambda: [None for _ in process.stdout or []], daemon=True).start()
            return process, match.group(1).replace("http://", "ws://") + WS_PATH
    raise RuntimeError("the server did not start")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def flood(url: str, rate: float, until: float, counts: dict[str, int], lock: threading.Lock) -> None:
    ws = create_connection(url, timeout=10)
    try:
        next_send = time.monotonic()
        while time.monotonic() < until:
            ws.send('{"type":"new_game"}')
            try:
                reply = json.loads(ws.recv())
            except WebSocketTimeoutException:
                reply = {"type": "error", "code": "no reply within 10 s"}
            key = "built" if reply["type"] == "game" else reply.get("code", "?")
            with lock:
                counts[key] = counts.get(key, 0) + 1
            next_send += 1 / rate
            time.sleep(max(0.0, next_send - time.monotonic()))
    finally:
        ws.close()


def measure(url: str, pid: int, connections: int, rate: float, seconds: float) -> dict[str, object]:
    player = create_connection(url, timeout=60)
    player.send('{"type":"new_game","seed":7}')
    json.loads(player.recv())

    def round_trip() -> float:
        started = time.perf_counter()
        player.send('{"type":"press","row":2,"col":2}')
        json.loads(player.recv())
        player.send('{"type":"cancel"}')
        json.loads(player.recv())
        return (time.perf_counter() - started) * 1000 / 2

    def paced_round_trip() -> float:
        # Paced like the flood's victim below: unpaced, 100 messages would meet the
        # per-connection rate limit (40 a second), whose refusals are not answered one by one.
        took = round_trip()
        time.sleep(0.05)
        return took

    quiet = [paced_round_trip() for _ in range(50)]
    counts: dict[str, int] = {}
    lock = threading.Lock()
    until = time.monotonic() + seconds
    cpu_before, wall_before = cpu_seconds(pid), time.monotonic()
    threads = [
        threading.Thread(target=flood, args=(url, rate, until, counts, lock)) for _ in range(connections)
    ]
    for thread in threads:
        thread.start()
    loud = []
    while time.monotonic() < until:
        loud.append(round_trip())
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    cpu = (cpu_seconds(pid) - cpu_before) / (time.monotonic() - wall_before) * 100
    player.close()
    loud.sort()
    return {
        "quiet median ms": round(statistics.median(quiet), 2),
        "flood median ms": round(statistics.median(loud), 2),
        "flood p99 ms": round(loud[int(len(loud) * 0.99) - 1], 2),
        "flood max ms": round(loud[-1], 2),
        "server CPU %": round(cpu),
        "flood replies": dict(sorted(counts.items())),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--connections", type=int, default=30)
    parser.add_argument("--rate", type=float, default=39.0, help="new_game messages a second per connection")
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    for name, env in (("default budgets", {}), ("budgets lifted", LIFTED)):
        with tempfile.TemporaryDirectory() as data:
            process, url = start(env, data)
            try:
                figures = measure(url, process.pid, args.connections, args.rate, args.seconds)
            finally:
                process.terminate()
                process.wait(15)
        print(f"{name}: {json.dumps(figures)}", flush=True)


if __name__ == "__main__":
    main()
