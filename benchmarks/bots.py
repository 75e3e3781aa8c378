"""What each bot level plays, measured against the best word on the same board.

Over ``--boards`` seeded matches (a bot in seat 0, whose turn it is, and a person in
seat 1; a minimum of 30 words a board, as the server builds them), each level makes
its first move on the same board as the others, through ``choose`` as the live layer
calls it (a shuffle first if it chose one, then its word on the new board). For each
level the script reports what its word scores as a fraction of the best score on the
board it played on: the median and the spread (p10 and p90, nearest rank), the share
of boards on which it played a best word, its median points, the median length of its
words, and, if ``--common`` names a list (by default ``en-easy``, ENABLE words that are
also common English), the share of its words in that list: a rough gauge of whether
a person would think of them.

Two kinds of board: the first round's (a DL or TL) and the later rounds' (a DL or TL
and the 2x tile, ``word_mult_from=1``), where the best word pulls further ahead.

    .venv/bin/python -m benchmarks.bots [--words en] [--boards 200] [--seed 0] [--common en-easy]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from wibble.core import WordList
from wibble.core.match import LEVELS, Match, Seat, Settings, choose
from wibble.wordlists import load

ROOT = Path(__file__).resolve().parent.parent
NOW = 1_000.0  # the clock a match starts at: any number will do, a match only stores it
MIN_BOARD_WORDS = 30  # the server's default (wibble.web.app, MIN_BOARD_WORDS)

BOARDS = {
    "round 1 (a DL or TL)": Settings(),
    "rounds 2+ (a DL or TL, and the 2x tile)": Settings(word_mult_from=1),
}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


@dataclass
class Level:
    fractions: list[float] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    best: list[int] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    common: int = 0
    best_played: int = 0
    shuffles: int = 0
    passes: int = 0
    seconds: float = 0.0


def first_move(words: WordList, seed: int, level: str, settings: Settings, stats: Level) -> tuple[str, str]:
    """The level's first move on seed ``seed``'s board, added to ``stats``; returns (word, board)."""
    match = Match(
        words, seed, [Seat("bot", "bot", level), Seat("you", "human")], NOW, settings, MIN_BOARD_WORDS
    )
    board = match.to_doc()["board"]
    match.solve()  # the search is the same for every level: time the choice, not the solve
    started = time.perf_counter()
    move = choose(match, 0)
    if move.kind == "shuffle":
        stats.shuffles += 1
        match.shuffle(0)
        move = choose(match, 0, shuffled=True)
    stats.seconds += time.perf_counter() - started
    best = match.best()
    if move.kind != "play" or best is None:
        stats.passes += 1
        return "", board
    points = match.path_score(move.path).points
    stats.fractions.append(points / best.score)
    stats.points.append(points)
    stats.best.append(best.score)
    stats.lengths.append(len(move.path))
    stats.best_played += points == best.score
    return move.word, board


def report(words: WordList, common: WordList | None, seeds: range, title: str, settings: Settings) -> None:
    levels = {level: Level() for level in LEVELS}
    for seed in seeds:
        boards = set()
        for level in LEVELS:
            word, board = first_move(words, seed, level, settings, levels[level])
            boards.add(board)
            if common is not None and word and word in common.trie:
                levels[level].common += 1
        assert len(boards) == 1, "every level must choose on the same board"
    best = levels[LEVELS[0]].best
    print(
        f"\n{title}: the board's best word scores {statistics.median(best):.0f} at the median "
        f"(p10 {percentile(best, 10):.0f}, p90 {percentile(best, 90):.0f})"
    )
    common_head = f"{'common':>7}" if common is not None else ""
    print(
        f"{'level':7} {'fraction of best: median':>25} {'p10':>5} {'p90':>5} {'best':>5} "
        f"{'points: median':>15} {'mean':>5} {'letters':>8} {common_head} {'shuffles':>8} {'passes':>6} "
        f"{'choice ms':>9}"
    )
    for level, s in levels.items():
        n = len(seeds)
        common_cell = f"{s.common / n:>7.0%}" if common is not None else ""
        print(
            f"{level:7} {statistics.median(s.fractions):>25.2f} {percentile(s.fractions, 10):>5.2f} "
            f"{percentile(s.fractions, 90):>5.2f} {s.best_played / n:>5.0%} "
            f"{statistics.median(s.points):>15.1f} "
            f"{statistics.mean(s.points):>5.1f} {statistics.median(s.lengths):>8.0f} {common_cell} "
            f"{s.shuffles:>8} {s.passes:>6} {1000 * s.seconds / n:>9.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", default="en", help="word list in words/ (default en)")
    parser.add_argument("--boards", type=int, default=200, help="seeded boards (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--common",
        default="en-easy",
        help="a list of common words to count the bots' words against ('' for none)",
    )
    args = parser.parse_args()

    words = load(ROOT / "words" / f"{args.words}.txt")
    common = load(ROOT / "words" / f"{args.common}.txt") if args.common else None
    print(
        f"{datetime.date.today()}  {platform.python_implementation()} {platform.python_version()}  "
        f"{os.cpu_count()} cores  list {args.words!r} ({len(words.trie):,} words)  "
        f"{args.boards} seeded boards from seed {args.seed}, min {MIN_BOARD_WORDS} words; "
        f"common words: {args.common or 'not counted'}"
    )
    seeds = range(args.seed, args.seed + args.boards)
    for title, settings in BOARDS.items():
        report(words, common, seeds, title, settings)


if __name__ == "__main__":
    main()
