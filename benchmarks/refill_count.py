"""The board-quality check after each refill: how often it redraws, and what a cheaper check could save.

After every scored word an endless game redraws the used tiles until the board
holds ``min_words`` unfound words, and tells the player exactly how many are left
(``Game._refill`` -> ``best_draw`` -> ``count_words``). This script plays seeded
English games at the server's floor (each word a random one of the board's 20
best unfound, as the load benchmark's players pick) and reports:

- how many draws each refill took: a count that stops at the floor only saves work
  on a draw it accepts, and the accepted draw's exact count is needed anyway;
- how many prefix paths a full count walks, against the fewest a search limited to
  the refilled tiles would have to walk (an oracle that skips every branch that
  never reaches them): the bound on an incremental count;
- the count's time, ``count_words`` against the count as it was before (``solve``'s
  search with its paths and masks, its keys counted), interleaved board by board.

    .venv/bin/python -m benchmarks.refill_count [--games 60] [--words 40]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

from wibble.core import Board, Draws, Game, HashParams, solve
from wibble.core import game as game_module
from wibble.core.search import neighbours as _neighbours
from wibble.core.solver import count_words
from wibble.wordlists import load

ROOT = Path(__file__).resolve().parent.parent
FLOOR = 30  # wibble serve's default --min-words


def play(games: int, words_each: int) -> tuple[Counter[int], list[tuple[Board, set[int]]], list[int]]:
    """Draws per refill, (board before, refilled tiles) per refill, and words left after each."""
    words = load(ROOT / "words" / "en.txt")
    draws: Counter[int] = Counter()
    refills: list[tuple[Board, set[int]]] = []
    left: list[int] = []
    real_best_draw = game_module.best_draw
    refilling = False

    def counting(draw: Any, count: Any, enough: int) -> Any:
        nonlocal refilling
        taken = [0]

        def one() -> Any:
            taken[0] += 1
            return draw()

        result = real_best_draw(one, count, enough)
        if refilling:
            draws[taken[0]] += 1
        return result

    game_module.best_draw = counting
    try:
        rng = random.Random(1)
        for seed in range(games):
            game = Game(words, Draws(seed), HashParams.draw(rng), min_words=FLOOR)
            for _ in range(words_each):
                found = game.found.words
                options = [f for f in solve(game.board, words) if f.word not in found][:20]
                if not options:
                    break
                path = rng.choice(options).path
                before = Board(game.board.rows())
                game.press(path[0])
                for pos in path[1:]:
                    game.enter(pos)
                game.release()
                refilling = True
                game.clean_up()
                refilling = False
                refills.append((before, {pos.row * before.size + pos.col for pos in path}))
                left.append(game.words_left)
    finally:
        game_module.best_draw = real_best_draw
    return draws, refills, left


def walked(board: Board, changed: set[int], root: dict[str, Any]) -> tuple[int, int]:
    """Prefix paths a full count walks, and those an oracle-pruned search through ``changed`` must."""
    symbols = [letter.symbol for row in board.rows() for letter in row]
    near = _neighbours(board.size)
    used = [False] * len(symbols)

    def walk(i: int, node: dict[str, Any], touched: bool) -> tuple[int, int, bool]:
        used[i] = True
        paths, needed, reaches = 1, 0, touched
        for j in near[i]:
            if not used[j]:
                child = node.get(symbols[j])
                if child is not None:
                    more, more_needed, child_reaches = walk(j, child, touched or j in changed)  # noqa: F821
                    paths, needed, reaches = paths + more, needed + more_needed, reaches or child_reaches
        used[i] = False
        return paths, needed + (1 if reaches else 0), reaches

    total = needed = 0
    for i, symbol in enumerate(symbols):
        child = root.get(symbol)
        if child is not None:
            paths, must, _ = walk(i, child, i in changed)
            total, needed = total + paths, needed + must
    del walk
    return total, needed


def before_count(board: Board, root: dict[str, Any], min_length: int) -> int:
    """``count_words`` as it was (commit abb1b58): ``solve``'s search with path and mask, keys counted."""
    symbols = [letter.symbol for row in board.rows() for letter in row]
    bits = [0] * len(symbols)
    steps = [tuple((j, symbols[j], bits[j]) for j in near) for near in _neighbours(board.size)]
    shortest = min_length - 1
    used = [False] * len(symbols)
    path = [0] * len(symbols)
    first_path: dict[Any, tuple[int, ...]] = {}

    def walk(i: int, node: dict[str, Any], word: str, depth: int, mask: int) -> None:
        path[depth] = i
        if "" in node and depth >= shortest:
            key = (word, mask) if mask else word
            if key not in first_path:
                first_path[key] = ()
        used[i] = True
        depth += 1
        for j, symbol, bit in steps[i]:
            if not used[j]:
                child = node.get(symbol)
                if child is not None:
                    walk(j, child, word + symbol, depth, mask | bit)  # noqa: F821
        used[i] = False

    for i, symbol in enumerate(symbols):
        child = root.get(symbol)
        if child is not None:
            walk(i, child, symbol, 0, bits[i])
    del walk
    return sum(1 for word in first_path if word != "-")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--words", type=int, default=40, help="words scored per game")
    args = parser.parse_args()
    words = load(ROOT / "words" / "en.txt")
    draws, refills, left = play(args.games, args.words)
    print(f"{len(refills)} refills of en games at a floor of {FLOOR} words ({args.games} seeds)")
    print("draws per refill: " + ", ".join(f"{n}: {draws[n]}" for n in sorted(draws) if draws[n]))
    print(f"words left after a refill: median {statistics.median(left):.0f}, min {min(left)}")

    sample = refills[:: max(1, len(refills) // 300)]
    total = needed = 0
    for before, changed in sample:
        full, must = walked(before, changed, words.trie.root)
        total, needed = total + full, needed + must
    print(
        f"prefix paths per count ({len(sample)} refilled boards): full {total / len(sample):.0f}; "
        f"a search through the refilled tiles, pruned by an oracle: {needed / len(sample):.0f} "
        f"({needed / total:.0%})"
    )

    def path_search_count(board: Board) -> int:
        return before_count(board, words.trie.root, words.min_length)

    ways = {"count_words": lambda board: count_words(board, words, {"-"}), "as before": path_search_count}
    times: dict[str, list[float]] = {name: [] for name in ways}
    boards = [before for before, _ in refills]
    for n, board in enumerate(boards):
        order = list(ways.items())
        for name, count in order[n % 2 :] + order[: n % 2]:  # each goes first on every other board
            started = time.perf_counter_ns()
            count(board)
            times[name].append((time.perf_counter_ns() - started) / 1e6)
    assert all(count_words(b, words) == path_search_count(b) for b in boards[:50])
    print(
        f"count per board, median of {len(boards)}: "
        + ", ".join(f"{name} {statistics.median(ts):.3f} ms" for name, ts in times.items())
    )


if __name__ == "__main__":
    main()
