"""A match's board: letters, one letter multiplier (DL or TL), the 2x tile from round 2, and gems.

Every change to it is a pipeline of small steps (a new board, a refill after a word,
a new round, a shuffle); these tests look at what each one leaves on the board, as
the player sees it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Sequence
from typing import Any

import pytest

from tests.support import shipped_list
from wibble.core import Board, Draws, Pos, WordList, count_words, solve
from wibble.core.match import Settings, Specials
from wibble.core.match.tiles import NEW_ROUND, REFILL, SHUFFLE, TL, Build, new_board, run, tile_wire

P = Pos
ALL = [P(r, c) for r in range(5) for c in range(5)]


@pytest.fixture(scope="module")
def english() -> WordList:
    return shipped_list("en")


class Table:
    """A match's board between pipelines: what a ``Build`` starts from."""

    def __init__(self, words: WordList, seed: int, settings: Settings | None = None, min_words: int = 0):
        self.words = words
        self.settings = settings or Settings()
        self.rng = Draws(seed)
        self.min_words = min_words
        self.round = 1
        self.board, self.specials, self.words_left = new_board(words, self.settings, self.rng, min_words)

    def run(self, pipeline: list[Any], used: Sequence[Pos] = ()) -> Build:
        build = Build(
            self.board,
            self.specials,
            self.words,
            self.settings,
            self.rng,
            self.round,
            self.min_words,
            list(used),
        )
        return run(pipeline, build)

    def next_round(self) -> Build:
        self.round += 1
        return self.run(NEW_ROUND)

    def wire(self) -> dict[Pos, dict[str, Any]]:
        """Every tile as the page shows it."""
        return {pos: tile_wire(self.board, self.specials, pos) for pos in ALL}

    def letters(self) -> dict[Pos, str]:
        return {pos: self.board[pos].symbol for pos in ALL}

    def specials_copy(self) -> Specials:
        return Specials(self.specials.letter_mult, self.specials.word_mult, set(self.specials.gems))


def word_through(
    board: Board, words: WordList, through: Container[Pos], avoiding: Container[Pos] = ()
) -> Any:
    """A path of a word on ``board`` that crosses a tile in ``through`` and none in ``avoiding``."""
    return next(
        f.path
        for f in solve(board, words)
        if any(pos in through for pos in f.path) and not any(pos in avoiding for pos in f.path)
    )


def assert_the_page_saw_every_change(build: Build, before: dict[Pos, dict[str, Any]], table: Table) -> None:
    """Each tile whose letter or marks changed is in the pipeline's update, exactly as it is now."""
    after = table.wire()
    sent = {
        P(t["row"], t["col"]): {k: v for k, v in t.items() if k not in ("row", "col")} for t in build.wire
    }
    changed = {pos for pos in ALL if before[pos] != after[pos]}
    assert changed <= set(sent)
    assert all(sent[pos] == after[pos] for pos in sent)


# -- a new board ------------------------------------------------------------------------


@pytest.mark.parametrize("gem_tiles", [10, 4, 0])
def test_a_new_board_has_one_letter_multiplier_no_2x_and_its_gems(english: WordList, gem_tiles: int) -> None:
    for seed in range(20):
        table = Table(english, seed, Settings(gem_tiles=gem_tiles))
        shown = table.wire().values()

        assert sum(tile["mult"] is not None for tile in shown) == 1
        assert {tile["mult"] for tile in shown} <= {None, "DL", "TL"}
        assert all(tile["word_mult"] is None for tile in shown)  # round 1
        assert sum(tile["gem"] for tile in shown) == gem_tiles
        assert table.specials.word_mult is None


def test_the_same_seed_gives_the_same_board_and_marks(english: WordList) -> None:
    assert Table(english, 9).wire() == Table(english, 9).wire()
    assert Table(english, 9).wire() != Table(english, 10).wire()


# -- a refill (a word was played) ---------------------------------------------------------


def test_a_refill_redraws_the_used_tiles_and_no_others(english: WordList) -> None:
    table = Table(english, 3)
    letters, shown = table.letters(), table.wire()
    path = solve(table.board, english)[0].path
    word = "".join(letters[pos] for pos in path)

    build = table.run(REFILL, path)

    after = table.letters()
    assert {pos for pos in ALL if after[pos] != letters[pos]} <= set(path)
    assert "".join(after[pos] for pos in path) != word  # six new draws, not the same word again
    assert {pos for pos, _ in build.drawn} == set(path)
    assert build.words_left == count_words(table.board, english)
    assert_the_page_saw_every_change(build, shown, table)


def test_a_refill_collects_the_gems_on_used_tiles_and_tops_the_count_back_up(english: WordList) -> None:
    table = Table(english, 5)
    gems = set(table.specials.gems)
    path = word_through(table.board, english, gems)
    collected = gems & set(path)
    shown = table.wire()

    build = table.run(REFILL, path)

    after = table.specials.gems
    assert len(after) == table.settings.gem_tiles  # topped back up
    assert gems - collected <= after  # the gems nobody took stay where they were
    assert len(after - (gems - collected)) == len(collected)  # one new gem per gem collected
    assert collected
    assert_the_page_saw_every_change(build, shown, table)


@pytest.mark.parametrize("used", ["letter", "word", "both", "neither"])
def test_a_used_multiplier_moves_and_an_unused_one_stays(english: WordList, used: str) -> None:
    table = Table(english, 11)
    table.next_round()  # round 2: the 2x tile is on the board too
    assert table.specials.letter_mult is not None
    assert table.specials.word_mult is not None
    letter_at, word_at = table.specials.letter_mult[0], table.specials.word_mult
    through = {"letter": [letter_at], "word": [word_at], "both": [letter_at], "neither": ALL}[used]
    avoiding = {"letter": [word_at], "word": [letter_at], "both": [], "neither": [letter_at, word_at]}[used]
    path = list(word_through(table.board, english, through, avoiding))
    if used == "both":
        path.append(word_at)  # the pipeline only needs the tiles used, not a word
    shown = table.wire()

    build = table.run(REFILL, path)

    assert table.specials.letter_mult is not None
    assert table.specials.word_mult is not None
    letter_moved = table.specials.letter_mult[0] != letter_at
    word_moved = table.specials.word_mult != word_at
    assert letter_moved == (used in ("letter", "both"))
    assert word_moved == (used in ("word", "both"))
    assert table.specials.letter_mult[0] != table.specials.word_mult
    assert_the_page_saw_every_change(build, shown, table)


def test_with_min_words_a_new_board_allows_at_least_that_many_words(english: WordList) -> None:
    short = 0
    for seed in range(20):
        table = Table(english, seed, min_words=250)

        assert count_words(table.board, english) >= 250
        assert table.words_left == count_words(table.board, english)
        short += Table(english, seed).words_left < 250  # the same seed's first draw, unchecked

    assert short, "no first draw fell short, so the check was never needed"


def test_with_min_words_a_refill_leaves_at_least_that_many_words(english: WordList) -> None:
    short = 0
    for seed in range(10):
        checked, unchecked = Table(english, seed, min_words=200), Table(english, seed, min_words=200)
        unchecked.min_words = 0  # the same board and draws, refilled without the check
        path = solve(checked.board, english)[0].path

        build = checked.run(REFILL, path)

        assert build.words_left == count_words(checked.board, english) >= 200
        short += unchecked.run(REFILL, path).words_left < 200

    assert short, "no refill fell short, so the check was never needed"


# -- a new round, a shuffle ------------------------------------------------------------------


def test_a_new_round_moves_both_multipliers_and_leaves_letters_and_gems(english: WordList) -> None:
    table = Table(english, 2)
    table.next_round()
    for _ in range(4):
        before = table.specials_copy()
        letters, shown = table.letters(), table.wire()

        build = table.next_round()

        assert before.letter_mult is not None
        assert table.specials.letter_mult is not None
        assert table.specials.letter_mult[0] != before.letter_mult[0]
        assert table.specials.word_mult not in (None, before.word_mult)
        assert table.specials.word_mult != table.specials.letter_mult[0]
        assert table.letters() == letters
        assert table.specials.gems == before.gems
        assert_the_page_saw_every_change(build, shown, table)


def test_the_2x_tile_arrives_with_round_two(english: WordList) -> None:
    table = Table(english, 4)
    assert table.specials.word_mult is None

    table.next_round()

    assert table.specials.word_mult is not None
    assert sum(tile["word_mult"] == 2 for tile in table.wire().values()) == 1


def test_a_shuffle_moves_only_letters(english: WordList) -> None:
    table = Table(english, 6)
    table.next_round()
    letters, marks, shown = table.letters(), table.specials.to_doc(), table.wire()

    build = table.run(SHUFFLE)

    assert Counter(table.letters().values()) == Counter(letters.values())
    assert table.letters() != letters
    assert table.specials.to_doc() == marks
    assert build.words_left == count_words(table.board, english)
    assert_the_page_saw_every_change(build, shown, table)


# -- how often a TL --------------------------------------------------------------------------


@pytest.mark.parametrize(("chance", "low", "high"), [(0.0, 0, 0), (0.25, 0.19, 0.31), (1.0, 1, 1)])
def test_the_letter_multiplier_is_a_tl_with_about_triple_chance(
    english: WordList, chance: float, low: float, high: float
) -> None:
    settings = Settings(triple_chance=chance)
    seeds = 400
    triples = 0
    for seed in range(seeds):
        _, specials, _ = new_board(english, settings, Draws(seed), 0)
        assert specials.letter_mult is not None
        triples += specials.letter_mult[1] == TL

    assert low <= triples / seeds <= high, f"{triples} TL in {seeds} boards at triple_chance={chance}"
