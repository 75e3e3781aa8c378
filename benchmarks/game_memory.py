"""Memory per game held by the server (board, found words, hash state, room), via tracemalloc.

.venv/bin/python -m benchmarks.game_memory [--games 5000]
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from wibble.sessions import Lobby

from wibble.wordlists import WordLists


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    args = parser.parse_args()
    lists = WordLists()
    lists.get()  # the shared dictionary is not part of any one game
    lobby = Lobby(lists, time.monotonic, max_games=args.games)
    tracemalloc.start()
    rooms = [lobby.create(None, None) for _ in range(args.games)]
    used, _ = tracemalloc.get_traced_memory()
    print(f"{len(rooms)} idle games: {used / len(rooms) / 1024:.1f} KB each (tracemalloc)")


if __name__ == "__main__":
    main()
