"""Every board holds enough words still to find: new boards and refills are drawn again until it does.

The words on a board are found here by ``tests.support.find_paths`` (a brute-force walk
written for the tests), never by the solver the game uses, so the two check each other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import find_paths, shipped_list
from wibble.core import (
    Board,
    Draws,
    Game,
    HashParams,
    Letter,
    LetterSampler,
    Pos,
    Result,
    TilesReplaced,
    WordJudged,
    solve,
)
from wibble.core.game import MAX_DRAWS
from wibble.core.search import words as board_words
from wibble.core.wordlist import WordList, build_word_list

Path = list[tuple[int, int]]


@cache
def english() -> WordList:
    return shipped_list("en")


def tiny(words: Sequence[str], weights: dict[str, float]) -> WordList:
    letters = {symbol: {"score": 1, "weight": weight} for symbol, weight in weights.items()}
    return build_word_list("tiny", list(words), {"letters": letters}, "tiny.toml")


def start(words: WordList, seed: int, min_words: int) -> tuple[Game, Draws]:
    rng = Draws(seed)
    return Game(words, rng, HashParams.draw(random.Random(seed)), min_words=min_words), rng


def letters(board: Board) -> list[list[str]]:
    return [[letter.symbol for letter in row] for row in board.rows()]


def paths_on(board: Board, words: WordList) -> dict[str, Path]:
    """Each word ``board`` allows, with one path that spells it."""
    return {word: path for word, path in find_paths(letters(board), words.trie, words.min_length)}


def found_in(game: Game) -> set[str]:
    return {word for word, _ in game.found.in_order}


def unfound(game: Game) -> set[str]:
    return set(paths_on(game.board, game.words)) - found_in(game)


def score(game: Game, path: Path) -> TilesReplaced:
    """Spell ``path`` (a new word) and clean up: the refill event."""
    game.press(Pos(*path[0]))
    for row, col in path[1:]:
        game.enter(Pos(row, col))
    [judged] = game.release()
    assert isinstance(judged, WordJudged)
    assert judged.result is Result.SCORED, judged
    [replaced] = game.clean_up()
    assert isinstance(replaced, TilesReplaced)
    return replaced


def a_new_word(game: Game) -> Path:
    """The path of a word the game has not found yet (longest first, so refills change a lot)."""
    options = sorted((-len(word), word, path) for word, path in paths_on(game.board, game.words).items())
    return next(path for _, word, path in options if word not in found_in(game))


def first_fill(words: WordList, seed: int) -> Board:
    """The board a game from ``seed`` would have if it kept its first draw."""
    return Board.fill(LetterSampler(words.letters), Draws(seed))


def first_refill(words: WordList, rng_state: Any, path: Path) -> list[tuple[Pos, Letter]]:
    """The tiles a refill would draw first from a random stream in ``rng_state``."""
    rng = Draws(*rng_state)
    sampler = LetterSampler(words.letters)
    return [(pos, sampler.draw(rng)) for pos in sorted(Pos(r, c) for r, c in path)]


# -- new boards ---------------------------------------------------------------------------

# Half of all English boards allow fewer than 200 words, so at this minimum many
# games have to draw their board again.
HIGH = 200


# Seeds 10-13 draw first boards below the minimum (checked below), the rest do not.
SEEDS = range(8, 16)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_new_board_holds_at_least_min_words_words_and_says_how_many(seed: int) -> None:
    game, _ = start(english(), seed, HIGH)

    words = paths_on(game.board, game.words)

    assert len(words) >= HIGH
    assert game.words_left == len(words)


def test_a_board_short_of_the_minimum_is_drawn_again() -> None:
    """The test above would pass if no first draw ever fell short; here some do."""
    redrawn = 0
    for seed in SEEDS:
        game, _ = start(english(), seed, HIGH)
        first = first_fill(english(), seed)
        if len(paths_on(first, english())) < HIGH:
            assert game.board.rows() != first.rows()
            redrawn += 1
        else:
            assert game.board.rows() == first.rows()
    assert redrawn >= 2


def test_min_words_zero_keeps_the_first_board_drawn() -> None:
    for seed in range(3):
        game, _ = start(english(), seed, 0)

        assert game.board.rows() == first_fill(english(), seed).rows()
        assert game.words_left == len(paths_on(game.board, english()))


def test_a_minimum_the_list_cannot_reach_still_starts_a_game_on_the_best_board() -> None:
    words = tiny(["cab", "abc"], {"a": 1, "b": 1, "c": 1, "x": 6})  # at most 2 words on any board
    game, rng = start(words, 5, 30)

    # The game drew MAX_DRAWS boards and kept the first with the most words.
    replay = Draws(5)
    sampler = LetterSampler(words.letters)
    boards = [Board.fill(sampler, replay) for _ in range(MAX_DRAWS)]
    counts = [len(paths_on(board, words)) for board in boards]
    best = counts.index(max(counts))
    assert len(set(counts)) > 1, "the draws must differ for 'the best' to mean something"
    assert best != 0
    assert game.board.rows() == boards[best].rows()
    assert game.words_left == counts[best] < 30
    assert (rng.seed, rng.position) == (replay.seed, replay.position)  # no more draws than MAX_DRAWS


def test_a_board_with_no_words_at_all_still_starts_a_game() -> None:
    words = tiny(["abc"], {"a": 0, "b": 0, "c": 0, "x": 1})  # only x is ever drawn

    game, _ = start(words, 1, 30)

    assert game.words_left == 0
    assert {symbol for row in letters(game.board) for symbol in row} == {"x"}


# -- refills -----------------------------------------------------------------------------

REFILL_MIN = 150  # most English boards allow more; a refill often falls below it at first


@pytest.mark.parametrize("seed", [3, 4])
def test_a_refill_changes_only_the_used_tiles_and_keeps_the_minimum(seed: int) -> None:
    game, rng = start(english(), seed, REFILL_MIN)
    redrawn = 0
    for _ in range(6):
        before = game.board.rows()
        path = a_new_word(game)
        rng_state = (rng.seed, rng.position)
        first = first_refill(english(), rng_state, path)
        plain = Board(game.board.rows())
        plain.place(first)
        first_count = len(set(paths_on(plain, english())) - found_in(game) - {word_of(before, path)})

        replaced = score(game, path)

        after = game.board.rows()
        changed = {(r, c) for r in range(5) for c in range(5) if after[r][c] != before[r][c]}
        assert changed <= set(path)
        assert [pos for pos, _ in replaced.changed] == sorted(Pos(r, c) for r, c in path)
        assert all(after[pos.row][pos.col] == letter for pos, letter in replaced.changed)
        assert replaced.words_left == game.words_left == len(unfound(game))
        assert game.words_left >= REFILL_MIN
        if first_count < REFILL_MIN:
            assert list(replaced.changed) != first
            redrawn += 1
        else:
            assert list(replaced.changed) == first
    assert redrawn >= 1, "these seeds must exercise a redrawn refill"


def word_of(rows: list[list[Letter]], path: Path) -> str:
    return "".join(rows[r][c].symbol for r, c in path)


def test_a_refill_that_cannot_reach_the_minimum_keeps_its_best_draw() -> None:
    # A refill draws a, b or c; "abc" found again in the refilled row is the only word
    # it can make, so each draw counts 0 or 1, never 30.
    words = tiny(["cab", "abc"], {"a": 1, "b": 1, "c": 1, "x": 0})
    game, rng = start(words, 2, 30)
    symbols = ["cabxx", "xxxxx", "xxxxx", "xxxxx", "xxxxx"]
    game.board = Board([[words.letters[ch] for ch in row] for row in symbols])
    path = [(0, 0), (0, 1), (0, 2)]
    before = game.board.rows()
    replay = Draws(rng.seed, rng.position)
    sampler = LetterSampler(words.letters)

    replaced = score(game, path)

    draws = [[(Pos(r, c), sampler.draw(replay)) for r, c in path] for _ in range(MAX_DRAWS)]
    counts = []
    for draw in draws:
        board = Board(before)
        board.place(draw)
        counts.append(len(set(paths_on(board, words)) - {"cab"}))
    best = counts.index(max(counts))
    assert 0 < best < MAX_DRAWS - 1, "neither the first draw nor the last: the best"
    assert list(replaced.changed) == draws[best]
    assert all(game.board[pos] == letter for pos, letter in draws[best])  # the board shows it too
    assert replaced.words_left == game.words_left == counts[best] == 1
    assert (rng.seed, rng.position) == (replay.seed, replay.position)  # no more draws than MAX_DRAWS
    assert game.board.rows()[1:] == before[1:]


def test_min_words_zero_keeps_the_first_refill() -> None:
    game, rng = start(english(), 7, 0)
    path = a_new_word(game)
    first = first_refill(english(), (rng.seed, rng.position), path)

    replaced = score(game, path)

    assert list(replaced.changed) == first
    assert replaced.words_left == len(unfound(game))


# -- what the count counts ------------------------------------------------------------------


def test_the_count_leaves_out_words_already_found() -> None:
    # Only x is drawn into a refill, and x spells nothing, so the refill cannot add words.
    words = tiny(["cat", "act", "tac"], {"c": 0, "a": 0, "t": 0, "x": 1})
    game, _ = start(words, 1, 0)
    symbols = ["catxx", "xxxxx", "catxx", "xxxxx", "xxxxx"]
    game.board = Board([[words.letters[ch] for ch in row] for row in symbols])

    replaced = score(game, [(0, 0), (0, 1), (0, 2)])

    on_board = set(paths_on(game.board, words))
    assert "cat" in on_board  # row 2 still spells it...
    assert replaced.words_left == game.words_left == len(on_board - {"cat"}) == 1  # ...but it is found


# -- replay ---------------------------------------------------------------------------------


@pytest.mark.parametrize("min_words", [0, REFILL_MIN])
def test_the_same_seed_gives_the_same_boards_and_refills(min_words: int) -> None:
    games = [start(english(), 11, min_words)[0] for _ in range(2)]
    assert games[0].board.rows() == games[1].board.rows()
    for _ in range(4):
        path = a_new_word(games[0])
        events = [score(game, path) for game in games]
        assert events[0] == events[1]
        assert games[0].board.rows() == games[1].board.rows()


# -- the count against a full search, over many boards and refills -------------------------------


@settings(derandomize=True, database=None, deadline=None, max_examples=40)
@given(
    st.integers(0, 2**32), st.sampled_from([0, REFILL_MIN, HIGH]), st.lists(st.integers(0, 99), max_size=8)
)
def test_words_left_is_the_full_count_after_every_refill(seed: int, min_words: int, picks: list[int]) -> None:
    """The game's count (``count_words``, a search that keeps only words) against ``solve``'s word list.

    Each refill takes a word chosen by ``picks`` from what the board allows, so the
    refills land anywhere on the board, and a refill redrawn for the minimum is
    compared as well as one kept at once.
    """
    game, _ = start(english(), seed, min_words)
    assert game.words_left == len({f.word for f in solve(game.board, english())})
    for pick in picks:
        options = [f for f in solve(game.board, english()) if f.word not in found_in(game)]
        if not options:
            break
        choice = options[pick % len(options)]
        score(game, [(pos.row, pos.col) for pos in choice.path])
        everything = {f.word for f in solve(game.board, english())}
        assert game.words_left == len(everything - found_in(game))
        assert board_words(game.board, english()) == everything
