"""``solve`` lists exactly the words a board allows, each once, with its score and a real path.

Small boards are checked against a brute force written here (every simple path of
tiles, looked up in a plain set of words, no trie); real English boards against
``tests.support.find_paths``. Neither shares code with the solver.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Sequence
from functools import cache

import pytest

from tests.support import find_paths, shipped_list
from wibble.core import Board, Found, LetterSampler, Pos, count_words, search, solve
from wibble.core.scoring import TileValue
from wibble.core.solver import best
from wibble.core.wordlist import WordList, build_word_list

# Distinct scores, so a score summed over the wrong tiles shows.
SCORES = {"a": 1, "b": 2, "c": 3, "e": 5, "t": 7, "ñ": 11, "o": 13, "x": 17}


@pytest.fixture(autouse=True, params=["compiled walk", "python walk"])
def walk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here twice: through the compiled walk, and through the Python one a host
    without a C compiler plays with."""
    if request.param == "python walk":
        monkeypatch.setattr(search, "_walk", None)
    return str(request.param)


def word_list(words: Sequence[str], min_length: int = 3) -> WordList:
    letters = {symbol: {"score": score, "weight": 1.0} for symbol, score in SCORES.items()}
    settings = {"letters": letters, "min_length": min_length}
    return build_word_list("test", list(words), settings, "test.toml")


def board_of(rows: Sequence[str], words: WordList) -> Board:
    return Board([[words.letters[ch] for ch in row] for row in rows])


def brute_force(rows: Sequence[str], words: set[str], min_length: int) -> set[str]:
    """Words spelled by any simple path of touching tiles, up to the longest word's length."""
    cells = [(r, c) for r in range(len(rows)) for c in range(len(rows))]
    longest = max(map(len, words))
    found = set()

    def extend(path: list[tuple[int, int]]) -> None:
        word = "".join(rows[r][c] for r, c in path)
        if len(word) >= min_length and word in words:
            found.add(word)
        if len(path) == longest:
            return
        r0, c0 = path[-1]
        for cell in cells:
            if cell not in path and max(abs(cell[0] - r0), abs(cell[1] - c0)) == 1:
                extend([*path, cell])

    for cell in cells:
        extend([cell])
    return found


def assert_valid(found: list[Found], board: Board) -> None:
    """Each word once, best first then alphabetical, each path real and each score the path's tiles."""
    assert len({f.word for f in found}) == len(found)
    assert found == sorted(found, key=lambda f: (-f.score, f.word))
    for f in found:
        assert len(set(f.path)) == len(f.path), f"{f.word}: a tile used twice in {f.path}"
        assert all(board.contains(pos) for pos in f.path)
        assert all(a.touches(b) for a, b in zip(f.path, f.path[1:], strict=False)), f"{f.word}: {f.path}"
        assert "".join(board[pos].symbol for pos in f.path) == f.word
        assert f.score == sum(board[pos].score for pos in f.path)


def solved(rows: Sequence[str], words: WordList) -> dict[str, Found]:
    board = board_of(rows, words)
    found = solve(board, words)
    assert_valid(found, board)
    return {f.word: f for f in found}


def test_finds_every_word_the_board_spells_and_no_other() -> None:
    words = word_list(["cat", "act", "tab", "bat", "cab", "abet", "taco", "oxen"])
    # c a t
    # b e x
    # o x x
    found = solved(["cat", "bex", "oxx"], words)
    # Not "act" or "taco": their letters are all there, but c and t do not touch, nor c and o.
    assert set(found) == {"cat", "tab", "bat", "cab", "abet"}
    assert found["abet"] == Found("abet", 1 + 2 + 5 + 7, (Pos(0, 1), Pos(1, 0), Pos(1, 1), Pos(0, 2)))


def test_words_shorter_than_the_lists_minimum_are_left_out() -> None:
    rows = ["cat", "xxx", "xxx"]
    assert set(solved(rows, word_list(["at", "cat", "a"], min_length=3))) == {"cat"}
    assert set(solved(rows, word_list(["at", "cat", "a"], min_length=2))) == {"at", "cat"}
    assert set(solved(rows, word_list(["at", "cat", "a"], min_length=1))) == {"a", "at", "cat"}


def test_a_word_that_needs_a_tile_twice_is_not_found() -> None:
    words = word_list(["tat", "atat", "cac"])
    # One t touches the a, so "tat" would need that t twice (and "cac" the a... and c twice).
    assert solved(["tax", "cxx", "xxx"], words) == {}
    # A second t beside the same a makes "tat" spellable; "atat" still needs an a twice.
    assert set(solved(["tax", "txx", "xxx"], words)) == {"tat"}


def test_a_word_reachable_by_several_paths_is_listed_once() -> None:
    words = word_list(["cat"])
    # Two c's and two t's around one a: four paths spell "cat".
    found = solve(board_of(["cxc", "xax", "txt"], words), words)
    assert [f.word for f in found] == ["cat"]
    assert found[0].score == 3 + 1 + 7


def test_letters_beyond_ascii() -> None:
    words = word_list(["año", "ñoño", "ano"])
    found = solved(["año", "xñx", "xox"], words)
    assert set(found) == {"año", "ñoño"}
    assert found["ñoño"].score == 2 * (11 + 13)


def test_a_board_without_words_gives_an_empty_list() -> None:
    words = word_list(["cat", "taco"])
    assert solve(board_of(["xxx", "xbx", "xxx"], words), words) == []


def test_best_score_first_then_alphabetical() -> None:
    words = word_list(["bat", "tab", "cat", "taco", "coat", "boa"])
    found = solve(board_of(["cat", "obx", "xxx"], words), words)
    # coat and taco 24 (alphabetical), boa 16, cat 11, bat and tab 10.
    assert [(f.word, f.score) for f in found] == [
        ("coat", 24),
        ("taco", 24),
        ("boa", 16),
        ("cat", 11),
        ("bat", 10),
        ("tab", 10),
    ]


def test_boards_of_other_sizes() -> None:
    words = word_list(["ab", "ba", "abc", "cab", "ca"], min_length=2)
    assert set(solved(["ab", "cx"], words)) == {"ab", "ba", "abc", "cab", "ca"}
    assert set(solved(["a"], words)) == set()
    big = ["x" * 7] * 6 + ["xxxxabc"]
    assert set(solved(big, words)) == {"ab", "ba", "abc"}  # "cab" and "ca": c and a do not touch


@pytest.mark.parametrize(
    ("size", "seed"), [(2, 1), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2), (4, 3), (5, 1), (5, 2)]
)
def test_random_boards_match_the_brute_force(size: int, seed: int) -> None:
    rng = random.Random(seed)
    alphabet = "abeñt"  # few letters, so many random words are on the board
    vocabulary = {"".join(rng.choices(alphabet, k=rng.randint(1, 5))) for _ in range(300)}
    min_length = rng.randint(1, 3)
    words = word_list(sorted(vocabulary), min_length=min_length)
    rows = ["".join(rng.choices(alphabet, k=size)) for _ in range(size)]
    found = solved(rows, words)
    expected = brute_force(rows, vocabulary, min_length)
    assert expected, "a test board with no words checks little"
    assert set(found) == expected


@cache
def english() -> WordList:
    return shipped_list("en")


@pytest.mark.parametrize("seed", range(4))
def test_boards_the_game_draws_match_the_reference_search(seed: int) -> None:
    words = english()
    board = Board.fill(LetterSampler(words.letters), random.Random(seed))
    letters = [[letter.symbol for letter in row] for row in board.rows()]
    expected = {word for word, _ in find_paths(letters, words.trie, words.min_length)}
    found = solve(board, words)
    assert_valid(found, board)
    assert {f.word for f in found} == expected


@pytest.mark.parametrize(("size", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_counting_agrees_with_solving_and_leaves_out_what_it_is_told(size: int, seed: int) -> None:
    rng = random.Random(seed)
    alphabet = "abeñt"
    vocabulary = {"".join(rng.choices(alphabet, k=rng.randint(1, 5))) for _ in range(300)}
    words = word_list(sorted(vocabulary), min_length=2)
    board = board_of(["".join(rng.choices(alphabet, k=size)) for _ in range(size)], words)
    on_board = [f.word for f in solve(board, words)]
    excluded = set(on_board[::3]) | {"not on the board"}

    assert count_words(board, words) == len(on_board)
    assert count_words(board, words, excluded) == len(on_board) - len(set(on_board[::3]))


@pytest.mark.parametrize("seed", range(6))
def test_the_best_word_alone_is_the_first_word_solve_ranks(seed: int) -> None:
    words = english()
    rng = random.Random(seed)
    board = Board.fill(LetterSampler(words.letters), rng)
    letters = [letter for row in board.rows() for letter in row]
    plain = [TileValue(letter.score) for letter in letters]
    doubled = list(plain)  # a double letter and a double word somewhere: paths score apart
    for i, mult in ((rng.randrange(25), (2, 1)), (rng.randrange(25), (1, 2))):
        doubled[i] = TileValue(letters[i].score, letter_mult=mult[0], word_mult=mult[1])
    for values in (None, plain, doubled):
        assert best(board, words, values) == solve(board, words, values)[0]
    assert best(board_of(["xx", "xx"], word_list(["ab"])), word_list(["ab"])) is None


@pytest.mark.parametrize("name", ["en", "es", "en-easy"])
def test_the_best_word_with_several_multipliers_and_ties(name: str) -> None:
    # Several letter and word multipliers make many words tie on points, and one word score
    # alike along paths through different multipliers: the end screen's word and path must
    # still be the ones the whole ranking puts first.
    words = shipped_list(name)
    rng = random.Random(len(name))
    sampler = LetterSampler(words.letters)
    for _ in range(40):
        board = Board.fill(sampler, rng)
        values = [TileValue(letter.score) for row in board.rows() for letter in row]
        for i in rng.sample(range(25), rng.randint(1, 5)):
            values[i] = TileValue(
                values[i].score, letter_mult=rng.choice([1, 2, 3]), word_mult=rng.choice([1, 2, 3])
            )
        for order in (("letters",), ("letters", "word_multiplier", "long_word")):
            ranked = solve(board, words, values, order)
            assert best(board, words, values, order) == (ranked[0] if ranked else None)


def test_the_best_of_equal_scores_is_the_first_alphabetically() -> None:
    words = word_list(["tab", "bat", "cab", "ate"])  # tab and bat score 10, cab 6, ate 13 (no e here)
    board = board_of(["tab", "cxx", "xxx"], words)
    found = best(board, words)
    assert found is not None
    assert (found.word, found.score) == ("bat", 10)
    assert found == solve(board, words)[0]


def test_solving_leaves_nothing_for_the_garbage_collector() -> None:
    # A full collection pauses every game on the server at once; the solver runs
    # after every scored word, so it must free all it made by reference counting.
    words = english()
    board = Board.fill(LetterSampler(words.letters), random.Random(5))
    gc.collect()
    gc.disable()
    try:
        solve(board, words)
        count_words(board, words)
        assert gc.collect() == 0
    finally:
        gc.enable()
