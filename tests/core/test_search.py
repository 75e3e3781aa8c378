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
def test_the_same_first_paths_in_the_same_order(name: str) -> None:
    # The first path found is the one a hint lights and a bot drags: it must not change.
    words = shipped_list(name)
    rng = random.Random(7)
    for board in boards(words, 100, seed=3):
        special = rng.sample(range(25), rng.choice([0, 0, 1, 2, 3]))
        found, reference = search.paths(board, words, special), python_paths(board, words, special)
        assert found == reference
        assert list(found) == list(reference)


def test_boards_of_other_sizes() -> None:
    words = shipped_list("en")
    for size in (1, 2, 3, 4, 6, 8):
        for board in boards(words, 10, seed=size, size=size):
            assert search.words(board, words) == python_words(board, words)
            assert search.paths(board, words, [0]) == python_paths(board, words, [0])
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
    assert walk.words(compiled, ["?"] * 25, 5, 2) == set()  # letters the list lacks: no words
