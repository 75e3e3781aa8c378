"""The trie answers the two questions a chain asks: is this a word, can a word start like this."""

from __future__ import annotations

import pytest

from wibble.core import Trie

WORDS = ["cat", "cats", "car", "a", "año", "cat"]  # "cat" twice on purpose


@pytest.fixture
def trie() -> Trie:
    return Trie(WORDS)


def test_duplicate_words_are_counted_once(trie: Trie) -> None:
    assert len(trie) == 5


def test_an_empty_trie_has_no_words() -> None:
    empty = Trie([])

    assert len(empty) == 0
    assert "a" not in empty
    assert not empty.has_prefix("a")


@pytest.mark.parametrize(
    ("text", "is_word", "is_prefix"),
    [
        ("cat", True, True),  # a word that longer words continue
        ("cats", True, True),  # a word nothing continues
        ("ca", False, True),  # only a prefix
        ("c", False, True),
        ("a", True, True),  # a one-letter word is still a word
        ("catsup", False, False),  # runs past the end of a word
        ("dog", False, False),  # neither
        ("act", False, False),  # the right letters in the wrong order
        ("CAT", False, False),  # the trie holds lower case; normalising is the word list's job
        ("añ", False, True),
        ("año", True, True),
        ("ano", False, False),  # n is not ñ
        ("an\u0303o", False, False),  # NFD is a different string; word lists store NFC
        ("", False, True),  # the empty string is no word, but every word starts with it
    ],
)
def test_word_and_prefix_lookups(trie: Trie, text: str, is_word: bool, is_prefix: bool) -> None:
    assert (text in trie) is is_word
    assert trie.has_prefix(text) is is_prefix


@pytest.mark.parametrize("thing", [None, 3, b"cat", ("c", "a", "t")])
def test_non_strings_are_not_words(trie: Trie, thing: object) -> None:
    assert thing not in trie


@pytest.mark.parametrize(
    ("path", "is_word", "has_children"),
    [
        ("c", False, True),
        ("ca", False, True),
        ("cat", True, True),
        ("cats", True, False),
        ("car", True, False),
        ("a", True, True),
        ("añ", False, True),
        ("año", True, False),
    ],
)
def test_walking_the_trie_letter_by_letter(trie: Trie, path: str, is_word: bool, has_children: bool) -> None:
    node = trie.root
    for letter in path:
        step = Trie.child(node, letter)
        assert step is not None, f"no step {letter!r} on the way to {path!r}"
        node = step

    assert Trie.is_word(node) is is_word
    assert Trie.has_children(node) is has_children
    assert trie.find(path) is node


@pytest.mark.parametrize(("path", "letter"), [("", "z"), ("cat", "x"), ("cats", "s"), ("a", "n")])
def test_child_is_none_where_no_word_continues(trie: Trie, path: str, letter: str) -> None:
    node = trie.find(path)

    assert node is not None
    assert Trie.child(node, letter) is None


def test_non_ascii_letter_is_one_step(trie: Trie) -> None:
    node = trie.find("a")
    assert node is not None

    assert Trie.child(node, "ñ") is trie.find("añ")
    assert Trie.child(node, "n") is None


def test_root_is_not_a_word_but_has_children(trie: Trie) -> None:
    assert not Trie.is_word(trie.root)
    assert Trie.has_children(trie.root)
    assert trie.find("") is trie.root
