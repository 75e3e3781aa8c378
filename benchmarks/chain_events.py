"""Time per chain event, in the core and over a real websocket.

Core: replays real drags (every path of a word the board allows, as found by a
depth-first search) through ``Game.press``/``enter``/``cancel`` and reports the
mean cost of one event. A match's drag (``Match.press``/``enter``/``cancel``,
multipliers in its points) is timed the same way on its own board. In the same
run it times the obvious alternative, which re-walks the trie and rehashes the
whole word from scratch on each event.

Websocket: starts ``wibble serve`` (rate limit raised), and one client sends
press/enter/.../cancel, waiting for each reply; reports round-trip p50/p99.

    .venv/bin/python -m benchmarks.chain_events [--events 20000]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from wibble.core import Board, Game, HashParams, Pos
from wibble.core.match import Match, Seat
from wibble.wordlists import load

ROOT = Path(__file__).resolve().parent.parent


def drags(game: Game | Match, limit: int) -> list[list[Pos]]:
    """Paths of real words on the board (as a player would drag them), longest first."""
    from tests.support import find_paths  # the test suite's reference search

    board = _symbols(game.board)
    paths = [[Pos(r, c) for r, c in path] for _, path in find_paths(board, game.words.trie, 3)]
    paths.sort(key=len, reverse=True)
    return paths[:limit]


def time_core(game: Game, paths: list[list[Pos]], events: int) -> float:
    done = 0
    started = time.perf_counter()
    while done < events:
        for path in paths:
            game.press(path[0])
            for pos in path[1:]:
                game.enter(pos)
            game.cancel()
            done += len(path) + 1
    return (time.perf_counter() - started) / done


def time_match(match: Match, paths: list[list[Pos]], events: int) -> float:
    """As ``time_core``, for the seat whose turn it is in a match (its turn never ends here)."""
    seat, done = match.turn, 0
    started = time.perf_counter()
    while done < events:
        for path in paths:
            match.press(seat, path[0])
            for pos in path[1:]:
                match.enter(seat, pos)
            match.cancel(seat)
            done += len(path) + 1
    return (time.perf_counter() - started) / done


def _symbols(board: Board) -> list[list[str]]:
    return [[letter.symbol for letter in row] for row in board.rows()]


def time_lookups(game: Game, paths: list[list[Pos]], events: int, incremental: bool) -> float:
    """Only the dictionary and hash work of each event, done one step at a time or from scratch."""
    trie, params = game.words.trie, HashParams.draw(random.Random(0))
    words = ["".join(game.board[pos].symbol for pos in path) for path in paths]
    done = 0
    started = time.perf_counter()
    while done < events:
        for word in words:
            if incremental:
                node, key = trie.root, params.empty
                for ch in word:
                    node, key = trie.child(node, ch), params.extend(key, ch)
                    _ = trie.is_word(node)
            else:
                for i in range(1, len(word) + 1):
                    node = trie.find(word[:i])
                    _ = (node is not None and trie.is_word(node), params.of(word[:i]))
            done += len(word)
    return (time.perf_counter() - started) / done


def time_websocket(paths: list[list[Pos]], seed: int, events: int) -> list[float]:
    from tests.support import Client, LiveServer

    unlimited = {key: "100000000" for key in ("RATE_LIMIT", "RATE_BURST")}
    server = LiveServer(env={f"WIBBLE_{key}": value for key, value in unlimited.items()})
    try:
        client = Client(server.ws_url)
        client.ask({"type": "new_game", "seed": seed, "wordlist": "en"})
        times = []
        while len(times) < events:
            for path in paths:
                messages = [{"type": "press", "row": path[0].row, "col": path[0].col}]
                messages += [{"type": "enter", "row": p.row, "col": p.col} for p in path[1:]]
                messages.append({"type": "cancel"})
                for message in messages:
                    frame = json.dumps(message)
                    started = time.perf_counter()
                    client.ws.send(frame)
                    client.ws.recv()
                    times.append(time.perf_counter() - started)
        client.close()
        return times
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    words = load(ROOT / "words" / "en.txt")
    game = Game(words, random.Random(args.seed), HashParams.draw(random.Random(1)))
    paths = drags(game, 200)
    mean_len = statistics.mean(len(p) for p in paths)
    print(f"board seed {args.seed}: {len(paths)} drags of real words, mean {mean_len:.1f} tiles")
    print(
        f"core, whole event (Game.press/enter/cancel):  {time_core(game, paths, args.events) * 1e6:6.2f} µs"
    )
    match = Match(words, args.seed, [Seat("bench", "human")], now=0.0)
    match_paths = drags(match, 200)
    per_event = time_match(match, match_paths, args.events)
    print(
        f"core, whole event (Match.press/enter/cancel): {per_event * 1e6:6.2f} µs"
        f" ({len(match_paths)} drags on the match's board)"
    )
    for longest in (False, True):
        chosen = [p for p in paths if len(p) >= 8] if longest else paths
        label = f"drags of 8+ tiles ({len(chosen)})" if longest else "all drags"
        step = time_lookups(game, chosen, args.events, incremental=True)
        scratch = time_lookups(game, chosen, args.events, incremental=False)
        print(
            f"trie+hash work per tile, {label}: one step {step * 1e6:.2f} µs, "
            f"from scratch {scratch * 1e6:.2f} µs ({scratch / step:.1f}x)"
        )
    rtt = sorted(time_websocket(paths, args.seed, min(args.events, 5000)))
    p50, p99 = rtt[len(rtt) // 2], rtt[int(len(rtt) * 0.99)]
    print(f"websocket round trip, one client: p50 {p50 * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms", end=" ")
    print(f"({len(rtt)} events)")


if __name__ == "__main__":
    main()
