"""The compiled board search finds what the Python one finds, in the same order, on every shipped list.

``wibble.core.search`` has two walks: the compiled one (``wibble/core/_walk.c``), which
every count and solve uses where it was built, and the Python one, the reference. A
player would notice any difference: a wrong "words left", a bot missing a word, a hint
showing another path.
"""

from __future__ import annotations

import hashlib
import random
from functools import cache
from pathlib import Path

import pytest

from tests.support import shipped_list
from wibble.core import Board, LetterSampler, search
from wibble.core.wordlist import WordList, build_word_list

LISTS = ["en", "es", "en-easy"]


def boards(words: WordList, count: int, seed: int, size: int = 5) -> list[Board]:
    sampler, rng = LetterSampler(words.letters), random.Random(seed)
    return [Board.fill(sampler, rng, size) for _ in range(count)]


def python_paths(board: Board, words: WordList, special: list[int]) -> dict[object, list[int]]:
    symbols = [letter.symbol for row in board.rows() for letter in row]
    return search.python_paths(symbols, board.size, words.trie.root, words.min_length - 1, special)


def python_words(board: Board, words: WordList) -> set[str]:
    return set(python_paths(board, words, []))


def test_the_compiled_search_is_built() -> None:
    # Without it every count runs in Python, about ten times slower: the server still
    # plays, but a host would see it in every figure of docs/benchmarks.md.
    assert search.compiled(), (
        "wibble/core/_walk.c was not built: install a C compiler and Python's headers, then `make test` again"
    )


def test_the_compiled_search_is_built_from_this_source() -> None:
    # An editable install builds the module once; `make` rebuilds it when _walk.c changes,
    # a bare `pytest` does not: this says so rather than testing yesterday's walk.
    source = Path(search.__file__).with_name("_walk.c").read_bytes()
    assert getattr(search._walk, "SOURCE_DIGEST", None) == hashlib.sha256(source).hexdigest(), (
        "wibble/core/_walk.c changed since it was built: run `make test` (or pip install -e .) again"
    )


@pytest.mark.parametrize("name", LISTS)
def test_the_same_words_as_the_python_walk(name: str) -> None:
    words = shipped_list(name)
    for board in boards(words, 150, seed=len(name)):
        assert search.words(board, words) == python_words(board, words)


@pytest.mark.parametrize("name", LISTS)
def test_the_count_leaves_out_the_words_already_found_as_the_python_walk_does(name: str) -> None:
    # "Words left" after every refill: the board's words less the ones the player found.
    words = shipped_list(name)
    rng = random.Random(11)
    for board in boards(words, 100, seed=5):
        on_board = python_words(board, words)
        found = set(rng.sample(sorted(on_board), len(on_board) // 3)) | {"zzzz", "niño", "qat"}
        assert search.count(board, words, found) == len(on_board - found)
        assert search.count(board, words, frozenset()) == len(on_board)


@pytest.mark.parametrize("name", LISTS)
def test_the_same_first_paths_in_the_same_order(name: str) -> None:
    # The first path found is the one a hint lights and a bot drags: it must not change.
    words = shipped_list(name)
    rng = random.Random(7)
    for board in boards(words, 100, seed=3):
        special = rng.sample(range(25), rng.choice([0, 0, 1, 2, 3]))
        found, reference = search.paths(board, words, special), python_paths(board, words, special)
        assert found == reference
        assert list(found) == list(reference)


def python_groups(
    board: Board, words: WordList, special: list[int], points: list[int], factors: list[int]
) -> list[search.Group]:
    return sorted(search.python_groups(python_paths(board, words, special), points, factors))


@pytest.mark.parametrize("name", LISTS)
def test_the_same_groups_as_the_python_walk(name: str) -> None:
    # What a match's best word is chosen from (solver.best): a wrong group is a wrong word on
    # the end screen, or the right word with a path the board never had.
    words = shipped_list(name)
    rng = random.Random(11)
    for board in boards(words, 60, seed=5):
        special = rng.sample(range(25), rng.choice([0, 1, 2, 4]))
        points = [rng.randint(0, 12) for _ in range(25)]
        factors = [rng.choice([2, 3]) if i in special else 1 for i in range(25)]
        found = search.groups(board, words, special, points, factors)
        assert sorted(found) == python_groups(board, words, special, points, factors)
        totals = [entry[:3] for entry in found]
        assert len(set(totals)) == len(totals)  # one entry per group


def test_a_group_keeps_its_least_word_and_that_words_first_path() -> None:
    words = build_word_list(
        "tiny",
        ["bat", "tab", "tub", "but"],
        {"letters": {c: {"score": 1, "weight": 1.0} for c in "abtu"}},
        "tiny.toml",
    )
    table = words.letters
    board = Board([[table[c] for c in row] for row in ["tab", "uuu", "uuu"]])
    ones = [1] * 9
    found = search.groups(board, words, [], ones, ones)
    # every path is three tiles of one point: one group, led by "bat" (before "but", "tab", "tub")
    assert found == python_groups(board, words, [], ones, ones)
    [(letters, factor, tiles, word, place, path)] = found
    assert (letters, factor, tiles, word) == (3, 1, 3, "bat")
    assert path == python_paths(board, words, [])["bat"]
    assert place == list(python_paths(board, words, [])).index("bat")


def test_totals_past_64_bits_are_grouped_in_python() -> None:
    words = shipped_list("en")
    board = boards(words, 1, seed=2)[0]
    special = list(range(16))
    factors = [2**40] * 16 + [1] * 9  # three such tiles in a path overflow 64 bits
    found = search.groups(board, words, special, [1] * 25, factors)
    assert sorted(found) == python_groups(board, words, special, [1] * 25, factors)
    assert any(factor >= 2**80 for _, factor, *rest in found)


def test_boards_of_other_sizes() -> None:
    words = shipped_list("en")
    for size in (1, 2, 3, 4, 6, 8):
        for board in boards(words, 10, seed=size, size=size):
            assert search.words(board, words) == python_words(board, words)
            assert search.paths(board, words, [0]) == python_paths(board, words, [0])
            ones = [1] * (size * size)
            assert sorted(search.groups(board, words, [0], ones, ones)) == python_groups(
                board, words, [0], ones, ones
            )
    big = boards(words, 1, seed=9, size=9)[0]  # past what the compiled walk takes: the Python walk's
    assert search.words(big, words) == python_words(big, words)


@cache
def many_letters() -> WordList:
    """A list whose trie has 70 letters, more than the compiled walk's bitmask holds."""
    greek = [chr(ord("α") + n) for n in range(25) if chr(ord("α") + n) != "ς"]  # ς and σ show one face
    symbols = greek + [chr(ord("a") + n) for n in range(26)] + [chr(ord("а") + n) for n in range(20)]
    words = ["".join(three) for three in zip(symbols, symbols[1:], symbols[2:], strict=False)]
    letters = {symbol: {"score": 1, "weight": 1.0} for symbol in symbols}
    return build_word_list("many", words, {"letters": letters}, "many.toml")


def test_a_list_of_more_letters_than_the_compiled_walk_takes_is_searched_in_python() -> None:
    words = many_letters()
    assert len(words.letters) == 70
    assert search._compiled_trie(words.trie) is search._REFUSED
    row = [words.letters[symbol] for symbol in ["α", "β", "γ", "δ", "ε"]]
    board = Board([row, *(list(reversed(row)) for _ in range(4))])
    assert search.words(board, words) == {"αβγ", "βγδ", "γδε"} == python_words(board, words)


def test_letters_of_several_bytes_and_words_the_board_lacks() -> None:
    words = shipped_list("es")
    table = words.letters
    rows = ["niños", "aaaaa", "zzzzz", "xxxxx", "qqqqq"]
    board = Board([[table[ch] for ch in row] for row in rows])
    found = search.words(board, words)
    assert {"niño", "niños"} <= found
    assert found == python_words(board, words)


def test_bad_arguments_are_refused_not_crashed() -> None:
    walk = search._walk
    assert walk is not None
    with pytest.raises(TypeError):
        walk.compile({"a": 1})  # a node's child must be a node
    with pytest.raises(TypeError):
        walk.compile({1: {}})
    compiled = walk.compile(shipped_list("en").trie.root)
    with pytest.raises(ValueError, match="one symbol per tile"):
        walk.words(compiled, ["a"] * 3, 5, 2)
    with pytest.raises(ValueError, match="8 x 8"):
        walk.words(compiled, ["a"] * 81, 9, 2)
    with pytest.raises(IndexError):
        walk.paths(compiled, ["a"] * 25, 5, 2, [25])
    with pytest.raises(ValueError, match="special"):
        walk.paths(compiled, ["a"] * 25, 5, 2, list(range(17)))
    with pytest.raises(ValueError, match="points: one per tile"):
        walk.groups(compiled, ["a"] * 25, 5, 2, [], [1] * 24, [1] * 25)
    with pytest.raises(TypeError):
        walk.groups(compiled, ["a"] * 25, 5, 2, [], [1] * 25, ["x"] * 25)
    with pytest.raises(OverflowError):
        walk.groups(compiled, ["a"] * 25, 5, 2, [], [1] * 25, [2**70] * 25)
    assert walk.words(compiled, ["?"] * 25, 5, 2) == set()  # letters the list lacks: no words
    with pytest.raises(TypeError, match="strings"):
        walk.count(compiled, ["a"] * 25, 5, 2, {"ab", 3})
    with pytest.raises(TypeError):
        walk.count(compiled, ["a"] * 25, 5, 2, 7)


def test_a_sequence_that_shrinks_as_it_is_read_is_read_from_a_copy() -> None:
    # Reading a number can run Python (__index__), which could empty the list being read: the
    # walk must read what it was given (and find what the plain list finds), not crash past
    # the list's new end.
    walk = search._walk
    assert walk is not None
    words = shipped_list("en")
    compiled = walk.compile(words.trie.root)
    board = boards(words, 1, seed=4)[0]
    symbols = [letter.symbol for row in board.rows() for letter in row]
    points: list[object] = []

    class Shrinks:
        def __index__(self) -> int:
            del points[:]
            return 1

    points.extend([Shrinks(), *[1] * 24])
    found = walk.groups(compiled, symbols, 5, 2, [], points, [1] * 25)
    assert found
    assert found == walk.groups(compiled, symbols, 5, 2, [], [1] * 25, [1] * 25)
    special: list[object] = []

    class Empties:
        def __index__(self) -> int:
            del special[:]
            return 0

    special.extend([Empties(), 1, 2])
    assert walk.paths(compiled, symbols, 5, 2, special) == walk.paths(compiled, symbols, 5, 2, [0, 1, 2])
