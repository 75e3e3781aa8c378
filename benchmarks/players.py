"""Many players at once, at human pace: round-trip times and errors against a real server.

Each player is a real websocket client (one thread each) that starts a game and
then, for the whole run, drags a three-tile chain and cancels it, pausing
0.2-0.6 s before every event (about 2.5 events a second). Starts its own
``wibble serve`` unless given a URL; client and server share the machine.

    .venv/bin/python -m benchmarks.players [--players 1000] [--seconds 10] [--url ws://...]
"""

from __future__ import annotations

import argparse
import json
import random
import threading
import time
from pathlib import Path

from websocket import create_connection

from tests.support import LiveServer

CHAIN = [
    {"type": "press", "row": 2, "col": 2},
    {"type": "enter", "row": 2, "col": 3},
    {"type": "enter", "row": 3, "col": 3},
    {"type": "cancel"},
]


def play(
    url: str, seed: int, seconds: float, go: threading.Event, times: list[float], errors: list[str]
) -> None:
    try:
        ws = create_connection(url, timeout=30)
        ws.send(json.dumps({"type": "new_game", "seed": seed}))
        json.loads(ws.recv())
    except Exception as exc:
        errors.append(f"connect: {exc!r}")
        return
    rng = random.Random(seed)
    mine: list[float] = []
    go.wait()
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            for message in CHAIN:
                time.sleep(rng.uniform(0.2, 0.6))
                started = time.perf_counter()
                ws.send(json.dumps(message))
                reply = json.loads(ws.recv())
                mine.append(time.perf_counter() - started)
                if reply["type"] == "error":
                    errors.append(reply["code"])
    except Exception as exc:
        errors.append(f"play: {exc!r}")
    finally:
        times.extend(mine)  # list.extend is atomic under the GIL
        ws.close()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--url", default=None, help="a running server's ws:// URL (default: start one)")
    args = parser.parse_args()
    server = None if args.url else LiveServer()
    url = args.url or server.ws_url  # type: ignore[union-attr]
    try:
        go = threading.Event()
        times: list[float] = []
        errors: list[str] = []
        threads = [
            threading.Thread(target=play, args=(url, seed, args.seconds, go, times, errors), daemon=True)
            for seed in range(args.players)
        ]
        for thread in threads:
            thread.start()
        time.sleep(2 + args.players / 500)  # let everyone connect before the clock starts
        go.set()
        for thread in threads:
            thread.join()
        times.sort()
        memory = f", server RSS {rss_mb(server.process.pid):.0f} MB" if server else ""
        p50, p99 = times[len(times) // 2] * 1e3, times[int(len(times) * 0.99)] * 1e3
        print(
            f"{args.players} players, {len(times)} events in {args.seconds:.0f} s "
            f"({len(times) / args.seconds:.0f} events/s): round trip p50 {p50:.2f} ms, "
            f"p99 {p99:.2f} ms; errors {len(errors)}{memory}"
        )
        if errors:
            print("first errors:", errors[:5])
    finally:
        if server:
            server.stop()


if __name__ == "__main__":
    main()
