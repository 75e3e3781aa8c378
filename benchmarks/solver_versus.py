"""``solve`` and ``count_words`` of this tree against another commit's, board by board.

``benchmarks.solver`` times each solver over all boards in turn, so a busy spell on a
shared machine lands on one solver and not the others. This one times this tree's
``solve``, another checkout's ``solve`` (``--base``: its ``wibble/core`` is copied and
imported as a package of its own), the nested-dict trie search of ``benchmarks.solver``
and both ``count_words`` on each board before the next, the order turned each board,
and checks they agree.

    git worktree add --detach /tmp/base abb1b58
    .venv/bin/python -m benchmarks.solver_versus --base /tmp/base [--boards 1000]
"""

from __future__ import annotations

import argparse
import gc
import importlib
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.solver import dict_trie_solver
from wibble.core import Board, Draws, LetterSampler, solver
from wibble.wordlists import load

ROOT = Path(__file__).resolve().parent.parent


def base_solver(base: Path, scratch: Path) -> Any:
    """The ``wibble.core.solver`` module of the checkout at ``base``, as ``basecore.solver``."""
    shutil.copytree(base / "wibble" / "core", scratch / "basecore")
    sys.path.insert(0, str(scratch))
    return importlib.import_module("basecore.solver")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="a checkout of the commit to compare with")
    parser.add_argument("--boards", type=int, default=1000)
    args = parser.parse_args()
    words = load(ROOT / "words" / "en.txt")
    sampler, draws = LetterSampler(words.letters), Draws(1)
    boards = [Board.fill(sampler, draws) for _ in range(args.boards)]
    with tempfile.TemporaryDirectory() as scratch:
        base = base_solver(args.base, Path(scratch))
        nested = dict_trie_solver(list(words.trie))
        ways: dict[str, Callable[[Board], Any]] = {
            "solve, base": lambda board: base.solve(board, words),
            "solve, here": lambda board: solver.solve(board, words),
            "(b) nested-dict DFS": lambda board: nested(board, words),
            "count, base": lambda board: base.count_words(board, words, {"-"}),
            "count, here": lambda board: solver.count_words(board, words, {"-"}),
        }
        for board in boards[:50]:
            here = [(f.word, f.score, f.path) for f in solver.solve(board, words)]
            there = [(f.word, f.score, tuple(f.path)) for f in base.solve(board, words)]
            assert [(w, s, [(p.row, p.col) for p in path]) for w, s, path in here] == [
                (w, s, [(p.row, p.col) for p in path]) for w, s, path in there
            ]
            assert solver.count_words(board, words) == base.count_words(board, words)
        times: dict[str, list[float]] = {name: [] for name in ways}
        order = list(ways.items())
        gc.freeze()
        for n, board in enumerate(boards):
            turn = n % len(order)
            for name, way in order[turn:] + order[:turn]:
                started = time.perf_counter_ns()
                way(board)
                times[name].append((time.perf_counter_ns() - started) / 1e6)
    median = {name: statistics.median(ts) for name, ts in times.items()}
    print(f"{args.boards} en boards, seed 1, medians, each board timed by all before the next:")
    for name, value in median.items():
        print(f"{name:22} {value:7.3f} ms")
    nested_ms = median["(b) nested-dict DFS"]
    base_ratio, here_ratio = nested_ms / median["solve, base"], nested_ms / median["solve, here"]
    print(f"(b) / solve: base {base_ratio:.2f}x, here {here_ratio:.2f}x")


if __name__ == "__main__":
    main()
