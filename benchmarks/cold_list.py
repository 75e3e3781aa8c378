"""A word list built cold while others play: how long does a player on another game wait?

With the compiled-list cache off (``--cache-dir ""``), the first game in a list must
build its trie from the text: about a second of CPU for ``es``. ``wibble serve``
builds it on a native thread from gevent's pool, so the event loop keeps answering
everyone else. This starts two servers in one run, the shipped one and one whose
pool runs the build inline on the loop (the obvious alternative, and the server
before this change), and while a second client starts the first ``es`` game, a
player on an ``en`` game presses and cancels every 10 ms; it reports that player's
round trips during the build and how long the ``es`` game took to arrive.

    .venv/bin/python -m benchmarks.cold_list [--list es] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import threading
import time

from websocket import create_connection

from tests.support import LiveServer

# The alternative: gevent's thread pool runs what it is given at once, on the loop.
INLINE = (
    "from gevent import monkey; monkey.patch_all()\n"
    "import sys\n"
    "from gevent.threadpool import ThreadPool\n"
    "ThreadPool.apply = lambda self, func, args=(), kwds=None: func(*args, **(kwds or {}))\n"
    "from wibble import cli\n"
    "sys.exit(cli.main(sys.argv[1:]))\n"
)


def one_run(server: LiveServer, wordlist: str) -> dict[str, float]:
    player = create_connection(server.ws_url, timeout=60)
    player.send(json.dumps({"type": "new_game", "wordlist": "en", "seed": 7}))
    json.loads(player.recv())
    done = threading.Event()
    arrived: list[float] = []

    def start_cold_game() -> None:
        other = create_connection(server.ws_url, timeout=60)
        started = time.perf_counter()
        other.send(json.dumps({"type": "new_game", "wordlist": wordlist}))
        reply = json.loads(other.recv())
        assert reply["type"] == "game", reply
        arrived.append(time.perf_counter() - started)
        done.set()
        other.close()

    waits: list[float] = []
    starter = threading.Thread(target=start_cold_game)
    starter.start()
    while not done.is_set():
        started = time.perf_counter()
        player.send('{"type":"press","row":2,"col":2}')
        json.loads(player.recv())
        player.send('{"type":"cancel"}')
        json.loads(player.recv())
        waits.append((time.perf_counter() - started) * 1000 / 2)
        time.sleep(0.01)
    starter.join()
    player.close()
    waits.sort()
    return {
        "build s": round(arrived[0], 2),
        "round trips": len(waits),
        "median ms": round(statistics.median(waits), 2),
        "p99 ms": round(waits[min(len(waits) - 1, math.ceil(len(waits) * 0.99) - 1)], 2),
        "max ms": round(waits[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--list", default="es", help="the list built cold (default: es)")
    parser.add_argument("--runs", type=int, default=3, help="servers of each kind, turn about")
    args = parser.parse_args()
    kinds = {"shipped (build on a thread)": None, "inline (build on the loop)": INLINE}
    for run in range(args.runs):
        for name, code in kinds.items():
            options = ("--cache-dir", "", "--data-dir", "")
            if code is None:
                server = LiveServer(*options)
            else:
                server = LiveServer(*options, command=[sys.executable, "-c", code])
            try:
                print(f"run {run + 1}, {name}: {json.dumps(one_run(server, args.list))}", flush=True)
            finally:
                server.stop()


if __name__ == "__main__":
    main()
