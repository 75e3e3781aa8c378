"""Memory per game held by the server (board, found words, hash state, its document), via tracemalloc.

The live stack as the server wires it (``wibble.live.wire``), over a memory store (whose saved
documents are counted too, as SQLite's would not be) and with the server's floor of board words;
no connection (``benchmarks.load --idle`` measures a game with its connection, in a real server).

.venv/bin/python -m benchmarks.game_memory [--games 5000]
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc

from wibble.engines.store import MemoryStore
from wibble.live import LiveSettings, wire
from wibble.wordlists import WordLists

MIN_WORDS = 30  # the server's default floor (wibble serve --min-words)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    args = parser.parse_args()
    lists = WordLists()
    lists.get()  # the shared dictionary is not part of any one game
    settings = LiveSettings(max_games=args.games, min_words=MIN_WORDS)
    router = wire(MemoryStore(), lists, time.monotonic, time.time, settings, random.Random(1))
    router.games.create(None, 0, "192.0.2.1")  # the first game's one-off costs (caches) are no game's
    tracemalloc.start()
    games = [router.games.create(None, n, "192.0.2.1") for n in range(1, args.games + 1)]
    used, _ = tracemalloc.get_traced_memory()
    print(f"{len(games)} idle games: {used / len(games) / 1024:.1f} KB each (tracemalloc, store included)")


if __name__ == "__main__":
    main()
