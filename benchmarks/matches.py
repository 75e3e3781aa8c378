"""Matches: a hard bot's decision, a hint and a new board, each timed per call over seeded matches.

Over ``--boards`` seeded matches per word list (a person in seat 0, a hard bot in
seat 1, the server's ``MIN_BOARD_WORDS`` of 30), times one call of each of:

(a) ``choose(match, 1)`` for the hard bot: its whole decision, the solve that scores
    every word's best path under the multipliers included. Beside it, on the same
    boards, the obvious alternative: ``solve(board, words)``, which ignores the
    multipliers and keeps the first path of each word (the endless game's solver);
    the difference is what best-path scoring costs;
(b) ``Match.hint(0)``: a person's hint, which is a solve as well (``Match.best``);
(c) ``new_board``: the whole pipeline of a match's first board (letters -> quality
    check -> multipliers -> gems -> wire form) with the server's default minimum of
    30 words, and with 0 (the check then counts the words once and never redraws),
    so the quality check's cost shows.

Every board carries both multipliers (a DL or TL and the 2x tile, as from round 2
on: ``word_mult_from=1``); the first round's boards, without the 2x tile, are a
little cheaper to solve. Each kind of call is timed in its own pass over all the
boards, after ``--warmup`` untimed calls. Garbage collection stays on, set up as
``wibble serve`` sets it (everything loaded before play frozen, young collections
every 10,000 allocations), so a collection that falls inside a call counts, as it
would on the server. The script also plays the first turn of every level on 200
seeded ``en`` boards and prints the points each level's word scores.

    .venv/bin/python -m benchmarks.matches [--lists en es] [--boards 1000] [--seed 0]
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from wibble.core import Board, Draws, LetterSampler, Pos, WordList, solve
from wibble.core.match import LEVELS, Match, Seat, Settings, Specials, choose
from wibble.core.match.tiles import NEW_BOARD, Build, check_quality, new_board, run
from wibble.web.serving import YOUNG_COLLECTION  # as make_server sets it
from wibble.wordlists import load

ROOT = Path(__file__).resolve().parent.parent
NOW = 1_000.0  # the clock a match starts at: any number will do, a match only stores it
MIN_BOARD_WORDS = 30  # the server's default (wibble.web.app, MIN_BOARD_WORDS)
SETTINGS = Settings(word_mult_from=1, start_gems=10)  # both multipliers on every board; gems for hints
POINTS_BOARDS = 200

# The goals, per list: (what, which timing, percentile, at most ms).
GOALS = (
    ("hard bot decision p99 <= 50 ms", "(a) hard bot: choose()", 99, 50.0),
    ("hint p99 <= 10 ms", "(b) Match.hint()", 99, 10.0),
    ("board build median <= 2 ms", "(c) new_board, min 30 words", 50, 2.0),
)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


@dataclass
class Timing:
    name: str
    times_ms: list[float]
    """Wall-clock time of each call: what the event loop, and everyone on it, waits."""
    cpu_ms: list[float]
    """This thread's CPU time in each call: the same, minus any time the OS ran something else."""
    full_collections: int
    """Full (generation 2) garbage collections that ran during the timed calls."""

    def percentile(self, p: float) -> float:
        return percentile(self.times_ms, p)


class FullCollections:
    """Counts the garbage collector's full passes while it is installed."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            self.count += 1


def serverlike_gc() -> None:
    """As ``wibble serve`` once its word list is loaded: freeze it, and collect the young less often."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, older, oldest)


def time_calls(name: str, call: Callable[[int], object], count: int, warmup: int) -> Timing:
    """``call(i)`` for i in 0..count-1, each timed alone, after ``warmup`` untimed calls."""
    for i in range(min(warmup, count)):
        call(i)
    times, cpu = [], []
    collections = FullCollections()
    gc.callbacks.append(collections)
    try:
        for i in range(count):
            started, started_cpu = time.perf_counter_ns(), time.thread_time_ns()
            call(i)
            cpu.append((time.thread_time_ns() - started_cpu) / 1e6)
            times.append((time.perf_counter_ns() - started) / 1e6)
    finally:
        gc.callbacks.remove(collections)
    return Timing(name, times, cpu, collections.count)


def machine_cpu_seconds() -> float:
    """CPU time every process on the machine has used (all cores; not idle or waiting)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]]
    user, nice, system, _idle, _iowait, irq, softirq = fields
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def board_unchecked(words: WordList, settings: Settings, draws: Draws, size: int = 5) -> Build:
    """``new_board`` without its quality step (which counts the words even with a minimum of 0)."""
    letter = LetterSampler(words.letters).letter_for(0.0)
    board = Board([[letter] * size for _ in range(size)])
    used = [Pos(row, col) for row in range(size) for col in range(size)]
    build = Build(board, Specials(), words, settings, draws, round=1, used=used)
    return run([step for step in NEW_BOARD if step is not check_quality], build)


def new_matches(words: WordList, seeds: range) -> list[Match]:
    seats = [Seat("you", "human"), Seat("bot", "bot", "hard")]
    return [
        Match(words, seed, [Seat(s.name, s.kind, s.level) for s in seats], NOW, SETTINGS, MIN_BOARD_WORDS)
        for seed in seeds
    ]


def time_list(words: WordList, seeds: range, warmup: int) -> tuple[list[Timing], dict[str, float]]:
    """The timings of one list, and a few facts about its boards."""
    matches = new_matches(words, seeds)
    count = len(matches)
    decisions: list[str] = [""] * count

    def decide(i: int) -> None:
        decisions[i] = choose(matches[i], 1).kind

    def first_paths(i: int) -> None:
        solve(matches[i].board, words)

    def hint(i: int) -> None:
        matches[i].hint(0)

    timings = [time_calls("(a) hard bot: choose()", decide, count, warmup)]
    timings.append(time_calls("    alt: solve(), no multipliers", first_paths, count, warmup))
    for match in matches:  # a hint costs 4 gems: enough for a warm-up hint and the timed one
        match.seats[0].gems = 2 * match.settings.costs.hint
    timings.append(time_calls("(b) Match.hint()", hint, count, warmup))

    board_settings = Settings()  # a new match's first board: round 1, the server's settings
    for min_words in (MIN_BOARD_WORDS, 0):

        def build(i: int, min_words: int = min_words) -> None:
            new_board(words, board_settings, Draws(seeds[i]), min_words)

        timings.append(time_calls(f"(c) new_board, min {min_words} words", build, count, warmup))

    def unchecked(i: int) -> None:
        board_unchecked(words, board_settings, Draws(seeds[i]))

    timings.append(time_calls("    alt: no quality step at all", unchecked, count, warmup))

    # The same seed draws the same letters first; the draws a minimum adds are redrawn boards.
    positions: dict[int, list[int]] = {MIN_BOARD_WORDS: [], 0: []}
    for min_words, drawn in positions.items():
        for seed in seeds:
            draws = Draws(seed)
            new_board(words, board_settings, draws, min_words)
            drawn.append(draws.position)
    tiles = matches[0].board.size ** 2
    redrawn = [(a - b) // tiles for a, b in zip(positions[MIN_BOARD_WORDS], positions[0], strict=True)]
    # How many words a board allows (either solver finds the same words; only paths and scores differ).
    words_per_board = [len(solve(m.board, words)) for m in matches[: min(count, 200)]]
    facts = {
        "shuffles": decisions.count("shuffle") / count,
        "passes": decisions.count("pass") / count,
        "redrawn": sum(1 for r in redrawn if r) / count,
        "extra_draws": sum(redrawn) / count,
        "words_median": statistics.median(words_per_board),
    }
    return timings, facts


def points_per_word(words: WordList, boards: int, seed: int) -> None:
    """Each level's first turn on the same seeded boards: what its word scores, beside the board's best."""
    print(
        f"\npoints per word, first turn of a match on {boards} seeded {words.name!r} boards "
        f"(min {MIN_BOARD_WORDS} words; round 1: a DL or TL, no 2x tile; a shuffle first if the bot chose)"
    )
    print(
        f"{'level':8} {'mean':>6} {'median':>7} {'share of best':>14} {'played the best':>16} {'shuffled':>9}"
    )
    for level in LEVELS:
        points, shares, best_played, shuffled = [], [], 0, 0
        for s in range(seed, seed + boards):
            match = Match(
                words, s, [Seat("bot", "bot", level), Seat("you", "human")], NOW, None, MIN_BOARD_WORDS
            )
            move = choose(match, 0)
            if move.kind == "shuffle":
                shuffled += 1
                match.shuffle(0)
                move = choose(match, 0, shuffled=True)
            best = match.best()
            got = match.path_score(move.path).points if move.kind == "play" else 0
            points.append(got)
            if best is not None and best.score:
                shares.append(got / best.score)
                best_played += got == best.score
        print(
            f"{level:8} {statistics.mean(points):>6.1f} {statistics.median(points):>7.1f} "
            f"{statistics.mean(shares):>14.0%} {best_played / boards:>16.0%} {shuffled / boards:>9.0%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lists", nargs="+", default=["en", "es"], help="word lists in words/ (default en es)"
    )
    parser.add_argument("--boards", type=int, default=1000, help="seeded matches per list (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--warmup", type=int, default=100, help="untimed calls before each timing (default 100)"
    )
    parser.add_argument(
        "--points-boards", type=int, default=POINTS_BOARDS, help="en boards for points per word (0: skip)"
    )
    args = parser.parse_args()

    lists = {name: load(ROOT / "words" / f"{name}.txt") for name in args.lists}
    serverlike_gc()
    load1, load5, _ = os.getloadavg()
    print(
        f"{datetime.date.today()}  {platform.python_implementation()} {platform.python_version()}  "
        f"{os.cpu_count()} cores  load average {load1:.1f} / {load5:.1f} (1 / 5 min)  "
        f"{args.boards} matches per list from seed {args.seed}; gc on (word lists frozen, "
        f"young collections every {YOUNG_COLLECTION:,} allocations, as the server)"
    )
    verdicts = []
    seeds = range(args.seed, args.seed + args.boards)
    for name, words in lists.items():
        machine0, own0, wall0 = machine_cpu_seconds(), time.process_time(), time.perf_counter()
        timings, facts = time_list(words, seeds, args.warmup)
        wall = time.perf_counter() - wall0
        others = max(0.0, machine_cpu_seconds() - machine0 - (time.process_time() - own0)) / wall
        print(
            f"\n{name}: {len(words.trie):,} words; median {facts['words_median']:.0f} words a board; "
            f"hard bot shuffles on {facts['shuffles']:.1%} of boards, passes on {facts['passes']:.1%}; "
            f"min {MIN_BOARD_WORDS} words redraws {facts['redrawn']:.1%} of new boards "
            f"({facts['extra_draws']:.2f} extra draws a board); other processes used {others:.0%} of a core"
        )
        print(
            f"{'call':34} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8}   {'CPU p99':>8} {'max':>8} "
            f"{'full GCs':>8}"
        )
        for t in timings:
            print(
                f"{t.name:34} {t.percentile(50):>5.2f} ms {t.percentile(90):>5.2f} ms "
                f"{t.percentile(99):>5.2f} ms {max(t.times_ms):>5.1f} ms   "
                f"{percentile(t.cpu_ms, 99):>5.2f} ms {max(t.cpu_ms):>5.1f} ms {t.full_collections:>8}"
            )
        by_name = {t.name: t for t in timings}
        decision, alternative = by_name["(a) hard bot: choose()"], by_name["    alt: solve(), no multipliers"]
        print(
            f"best-path scoring costs: median {decision.percentile(50) / alternative.percentile(50):.2f}x, "
            f"p99 {decision.percentile(99) / alternative.percentile(99):.2f}x the first-path solve"
        )
        for goal, timing, p, limit in GOALS:
            measured = by_name[timing].percentile(p)
            verdicts.append(f"{name}: {goal}: {measured:.2f} ms, {'met' if measured <= limit else 'NOT met'}")

    if args.points_boards and "en" in lists:
        points_per_word(lists["en"], args.points_boards, args.seed)
    print("\ngoals:")
    for line in verdicts:
        print("  " + line)


if __name__ == "__main__":
    main()
