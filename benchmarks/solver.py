"""Time to list every word a board allows, for ``wibble.core.solve`` and the obvious alternatives.

Draws boards with the game's own sampler from a word list, then solves each board
with: (a) ``solve`` on the list's real trie, its walk compiled (``wibble/core/_walk.c``);
(a') the same with the walk in Python (``wibble.core.search``'s reference); (b) a
straightforward depth-first search over a plain nested-dict trie built here; (c) the
same search over a set of words plus a set of every prefix; (d) the same search over
``marisa_trie`` (skipped if not installed). Then the count of words left after a
refill (``count_words``), compiled and in Python, and a match's best word alone
(``best``: paths grouped by their totals, each group scored once) against the
obvious way, the first of the whole ranking (``solve(...)[0]``), on the same boards
with a double letter and a double word tile each, scored as a match scores. Every
solver returns the same thing, a list of ``Found`` best first, and they must agree on
every board (and the best words with the whole ranking's first). Times are per
board, after a warm-up; the max can include one of the interpreter's full
garbage-collection passes.

    .venv/bin/python -m benchmarks.solver [--words en] [--boards 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wibble.core import Board, Found, LetterSampler, Pos, WordList, count_words, search, solve
from wibble.core.scoring import MATCH_ORDER, TileValue
from wibble.core.solver import best
from wibble.wordlists import load

ROOT = Path(__file__).resolve().parent.parent

Solver = Callable[[Board, WordList], list[Found]]
Paths = dict[str, list[tuple[int, int]]]


def found_list(board: Board, first_paths: Paths) -> list[Found]:
    """What ``solve`` returns, from each word's first path: the same finishing work for every solver."""
    size = board.size
    positions = [[Pos(r, c) for c in range(size)] for r in range(size)]
    scores = [[letter.score for letter in row] for row in board.rows()]
    found = [
        Found(word, sum(scores[r][c] for r, c in path), tuple(positions[r][c] for r, c in path))
        for word, path in first_paths.items()
    ]
    found.sort(key=lambda f: (-f.score, f.word))
    return found


def letters(board: Board) -> list[list[str]]:
    return [[letter.symbol for letter in row] for row in board.rows()]


def dict_trie_solver(words: list[str]) -> Solver:  # noqa: C901 - the alternative, written as one hot loop on purpose
    """(b) A plain nested-dict trie and a straightforward recursive search by coordinates."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = True

    def solver(board: Board, wordlist: WordList) -> list[Found]:
        grid, size, found = letters(board), board.size, {}
        visited = [[False] * size for _ in range(size)]
        path: list[tuple[int, int]] = []

        def walk(r: int, c: int, node: dict[str, Any], word: str) -> None:
            visited[r][c] = True
            path.append((r, c))
            if "" in node and len(word) >= wordlist.min_length and word not in found:
                found[word] = list(path)
            for nr in range(max(0, r - 1), min(size, r + 2)):
                for nc in range(max(0, c - 1), min(size, c + 2)):
                    if not visited[nr][nc]:
                        child = node.get(grid[nr][nc])
                        if child is not None:
                            walk(nr, nc, child, word + grid[nr][nc])
            path.pop()
            visited[r][c] = False

        for r in range(size):
            for c in range(size):
                child = root.get(grid[r][c])
                if child is not None:
                    walk(r, c, child, grid[r][c])
        return found_list(board, found)

    return solver


def string_solver(is_word: Callable[[str], bool], is_prefix: Callable[[str], bool]) -> Solver:
    """(c) and (d): the same search, asking a string-keyed structure about each prefix."""

    def solver(board: Board, wordlist: WordList) -> list[Found]:
        grid, size, found = letters(board), board.size, {}
        visited = [[False] * size for _ in range(size)]
        path: list[tuple[int, int]] = []

        def walk(r: int, c: int, word: str) -> None:
            visited[r][c] = True
            path.append((r, c))
            if len(word) >= wordlist.min_length and word not in found and is_word(word):
                found[word] = list(path)
            for nr in range(max(0, r - 1), min(size, r + 2)):
                for nc in range(max(0, c - 1), min(size, c + 2)):
                    if not visited[nr][nc]:
                        longer = word + grid[nr][nc]
                        if is_prefix(longer):
                            walk(nr, nc, longer)
            path.pop()
            visited[r][c] = False

        for r in range(size):
            for c in range(size):
                if is_prefix(grid[r][c]):
                    walk(r, c, grid[r][c])
        return found_list(board, found)

    return solver


def set_solver(words: list[str]) -> Solver:
    word_set = set(words)
    prefixes = {word[:i] for word in words for i in range(1, len(word) + 1)}
    return string_solver(word_set.__contains__, prefixes.__contains__)


def marisa_solver(words: list[str]) -> Solver | None:
    try:
        import marisa_trie  # type: ignore[import-not-found]
    except ImportError:
        return None
    trie = marisa_trie.Trie(words)
    # iterkeys(prefix) yields nothing when no word starts so; has_keys_with_prefix is
    # deprecated in marisa-trie 1.x, and slower.
    return string_solver(trie.__contains__, lambda prefix: next(trie.iterkeys(prefix), None) is not None)


def time_solver(solver: Solver, boards: list[Board], words: WordList, warmup: int) -> tuple[list[float], int]:
    """Per-board milliseconds, and the median number of words found."""
    for board in boards[:warmup]:
        solver(board, words)
    times, counts = [], []
    for board in boards:
        started = time.perf_counter_ns()
        found = solver(board, words)
        times.append((time.perf_counter_ns() - started) / 1e6)
        counts.append(len(found))
    return times, round(statistics.median(counts))


def percentile(sorted_times: list[float], p: float) -> float:
    return sorted_times[min(len(sorted_times) - 1, int(p / 100 * len(sorted_times)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", default="en", help="word list in words/ (default en)")
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=100, help="boards solved before timing")
    args = parser.parse_args()

    path = ROOT / "words" / f"{args.words}.txt"
    words = load(path)
    word_strings = list(words.trie)  # exactly the list's words, as loaded
    sampler, rng = LetterSampler(words.letters), random.Random(args.seed)
    boards = [Board.fill(sampler, rng) for _ in range(args.boards)]

    # Factories, so each structure is built, checked, timed and dropped in turn: each solver
    # is timed with only its own data alive, as in a process that used it. A plain trie
    # is 390,000 dicts for English, and a full garbage collection walks every one.
    factories: list[tuple[str, Callable[[], Solver | None]]] = [
        ("(a) wibble solve, real trie", lambda: solve),
        ("(a') the same, Python walk", lambda: python_walk(solve)),
        ("(b) DFS, nested-dict trie", lambda: dict_trie_solver(word_strings)),
        ("(c) DFS, word + prefix sets", lambda: set_solver(word_strings)),
        ("(d) DFS, marisa-trie", lambda: marisa_solver(word_strings)),
    ]

    print(
        f"{datetime.date.today()}  {platform.python_implementation()} {platform.python_version()}  "
        f"{os.cpu_count()} cores  list {args.words!r} ({len(words.trie):,} words)  "
        f"{args.boards} boards, seed {args.seed}"
    )
    # The straightforward search is the reference: every solver, ``solve`` included, must agree with it.
    reference = dict_trie_solver(word_strings)
    expected = [{(f.word, f.score) for f in reference(board, words)} for board in boards]
    del reference
    print(f"{'solver':30} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8} {'words':>6}")
    for name, factory in factories:
        solver = factory()
        if solver is None:
            print(f"{name:30} skipped: marisa-trie is not installed (pip install marisa-trie)")
            continue
        for board, want in zip(boards, expected, strict=True):
            got = {(f.word, f.score) for f in solver(board, words)}
            assert got == want, f"{name} disagrees on a board: {sorted(got ^ want)[:5]}"
        gc.collect()
        times, median_words = time_solver(solver, boards, words, args.warmup)
        del solver
        times.sort()
        print(
            f"{name:30} {statistics.median(times):>5.2f} ms {percentile(times, 90):>5.2f} ms "
            f"{percentile(times, 99):>5.2f} ms {times[-1]:>5.1f} ms {median_words:>6}"
        )
    for name, count in [
        ("count_words, compiled", count_words),
        ("count_words, Python walk", python_walk(count_words)),
    ]:
        assert all(count(board, words) == len(want) for board, want in zip(boards, expected, strict=True))
        print_timed(name, count, boards, words, args.warmup)
    # A match's board: a double letter and a double word somewhere, scored in Spellcast's order.
    specials = random.Random(args.seed)
    valued = []
    for board in boards:
        values = [TileValue(letter.score) for row in board.rows() for letter in row]
        double_letter, double_word = specials.sample(range(len(values)), 2)
        values[double_letter] = TileValue(values[double_letter].score, letter_mult=2)
        values[double_word] = TileValue(values[double_word].score, word_mult=2)
        valued.append(values)
    by_board = {id(board): values for board, values in zip(boards, valued, strict=True)}

    def whole(board: Board, words: WordList) -> Found | None:
        ranked = solve(board, words, by_board[id(board)], MATCH_ORDER)
        return ranked[0] if ranked else None

    def grouped(board: Board, words: WordList) -> Found | None:
        return best(board, words, by_board[id(board)], MATCH_ORDER)

    for board in boards:
        assert grouped(board, words) == whole(board, words) == python_walk(grouped)(board, words)
    for name, pick in [
        ("best word, grouped, compiled", grouped),
        ("best word, grouped, Python", python_walk(grouped)),
        ("best word, solve(...)[0]", whole),
    ]:
        print_timed(name, pick, boards, words, args.warmup)


def print_timed(
    name: str, function: Callable[[Board, WordList], Any], boards: list[Board], words: WordList, warmup: int
) -> None:
    """A row for ``function``, which gives one result a board (a count, a best word): its times."""
    times, _ = time_solver(lambda board, words: [function(board, words)], boards, words, warmup)
    times.sort()
    print(
        f"{name:30} {statistics.median(times):>5.2f} ms {percentile(times, 90):>5.2f} ms "
        f"{percentile(times, 99):>5.2f} ms {times[-1]:>5.1f} ms"
    )


def python_walk(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` with the compiled walk switched off while it runs: the Python reference walks."""

    def walked(*args: Any) -> Any:
        compiled, search._walk = search._walk, None
        try:
            return function(*args)
        finally:
            search._walk = compiled

    return walked


if __name__ == "__main__":
    main()
