"""Which letter weights give better English boards: words findable per board, by table.

Draws seeded boards with each candidate table (same Scrabble scores, different
weights) and counts the distinct words of 3+ letters each board allows, using
the test suite's reference search: all of ENABLE, and the everyday words of
en-easy (the ones most players would actually find).

    .venv/bin/python -m benchmarks.letter_tables [--boards 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import replace
from pathlib import Path

from tests.support import find_paths
from wibble.core import Board, LetterSampler, LetterTable
from wibble.core.wordlist import letter_counts
from wibble.wordlists import load

ROOT = Path(__file__).resolve().parent.parent

# The devlog's other column: each letter's frequency among dictionary words (percent).
DICTIONARY = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyz",
        [
            7.8,
            2,
            4,
            3.8,
            11,
            1.4,
            3,
            2.3,
            8.6,
            0.21,
            0.97,
            5.3,
            2.7,
            7.2,
            6.1,
            2.8,
            0.19,
            7.3,
            8.7,
            6.7,
            3.3,
            1,
            0.91,
            0.27,
            1.6,
            0.44,
        ],
        strict=True,
    )
)


def words_per_board(table: LetterTable, trie: object, boards: int) -> list[int]:
    sampler = LetterSampler(table)
    counts = []
    for seed in range(boards):
        board = Board.fill(sampler, random.Random(seed))
        letters = [[letter.symbol for letter in row] for row in board.rows()]
        counts.append(len({word for word, _ in find_paths(letters, trie, 3)}))  # type: ignore[arg-type]
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=300)
    args = parser.parse_args()
    english = load(ROOT / "words" / "en.txt")
    in_list = letter_counts((ROOT / "words" / "en.txt").read_text(encoding="utf-8").split())
    total = sum(in_list.values())
    tables = {
        "prose (devlog; shipped)": english.letters,
        "dictionary (devlog)": LetterTable(
            replace(lt, weight=DICTIONARY[lt.symbol]) for lt in english.letters
        ),
        "derived from en.txt": LetterTable(
            replace(lt, weight=100 * in_list[lt.symbol] / total) for lt in english.letters
        ),
    }
    everyday = load(ROOT / "words" / "en-easy.txt").trie
    for label, trie in (("ENABLE", english.trie), ("everyday (en-easy)", everyday)):
        print(f"{args.boards} boards each, {label} words of 3+ letters per board:")
        for name, table in tables.items():
            counts = sorted(words_per_board(table, trie, args.boards))
            under = sum(c < 30 for c in counts) / len(counts)
            print(
                f"  {name:26} median {statistics.median(counts):5.0f}  mean {statistics.mean(counts):6.1f}  "
                f"10th pct {counts[len(counts) // 10]:4d}  under 30 words {under:5.1%}"
            )


if __name__ == "__main__":
    main()
