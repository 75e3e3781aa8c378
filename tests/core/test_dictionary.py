"""The trie answers the two questions a chain asks: is this a word, can a word start like this."""

from __future__ import annotations

import itertools
import random

import pytest

from wibble.core import Trie
from wibble.core.dictionary import MAGIC

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


# -- the minimised form: the same answers as a plain trie, in far fewer nodes --


def random_words(seed: int, count: int, alphabet: str = "abcdeñ") -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(alphabet, k=rng.randint(1, 7))) for _ in range(count)]


def prefixes_of(words: list[str]) -> set[str]:
    return {word[:i] for word in words for i in range(len(word) + 1)}


@pytest.mark.parametrize("seed", range(5))
def test_it_answers_exactly_like_a_set_of_words_and_prefixes(seed: int) -> None:
    words = random_words(seed, 300)
    trie = Trie(words)
    # Every string up to length 4 over the alphabet, plus a letter the words never use.
    probes = {"".join(p) for n in range(5) for p in itertools.product("abcdeñz", repeat=n)}

    assert list(trie) == sorted(set(words))
    assert len(trie) == len(set(words))
    for text in probes:
        assert (text in trie) is (text in set(words)), text
        assert trie.has_prefix(text) is (text in prefixes_of(words)), text


def test_words_that_end_alike_share_their_endings() -> None:
    stems = ["walk", "talk", "stalk", "jump", "pump", "bump"]
    words = [stem + ending for stem in stems for ending in ("", "s", "ed", "ing", "er", "ers")]
    trie = Trie(words)

    # A plain trie needs a node per distinct prefix; the shared endings cut that by far.
    assert trie.node_count() < len(prefixes_of(words)) / 3
    assert Trie.child(trie.find("walk") or trie.root, "e") is Trie.child(trie.find("talk") or trie.root, "e")
    assert "stalked" in trie
    assert "stalkeds" not in trie
    assert "jumping" in trie


def test_letter_counts_count_every_letter_of_every_distinct_word() -> None:
    trie = Trie(["ana", "año", "ana"])

    assert dict(trie.letter_counts) == {"a": 3, "n": 1, "ñ": 1, "o": 1}


def test_the_compiled_form_round_trips() -> None:
    words = random_words(7, 2000)
    trie = Trie(words)

    again = Trie.from_bytes(trie.to_bytes())

    assert list(again) == list(trie)
    assert len(again) == len(trie)
    assert dict(again.letter_counts) == dict(trie.letter_counts)
    assert again.node_count() == trie.node_count()  # still shared after the round trip


def test_the_compiled_form_does_not_depend_on_word_order() -> None:
    words = random_words(8, 500)

    assert Trie(words).to_bytes() == Trie(reversed(words)).to_bytes()


def damaged_copies(data: bytes) -> list[bytes]:
    """Truncations, single flipped bytes in every part, and foreign bytes."""
    copies = [b"", data[:10], data[: len(data) // 2], data[:-1], b"garbage" * 20, data + b"x"]
    for index in (0, len(MAGIC) + 1, len(MAGIC) + 20, len(data) // 2, len(data) - 1):
        flipped = bytearray(data)
        flipped[min(index, len(data) - 1)] ^= 0x41
        copies.append(bytes(flipped))
    return copies


@pytest.mark.parametrize("index", range(11))
def test_damaged_compiled_bytes_are_refused(index: int) -> None:
    data = Trie(random_words(9, 200)).to_bytes()
    damaged = damaged_copies(data)[index]

    with pytest.raises(ValueError, match=r"\S"):
        Trie.from_bytes(damaged)


def test_bytes_from_another_python_are_refused() -> None:
    data = Trie(["cat"]).to_bytes()
    header_end = data.index(b"\n", len(MAGIC)) + 1
    other = data[: len(MAGIC)] + b"1 2.7 2\n" + data[header_end:]

    with pytest.raises(ValueError, match="another version"):
        Trie.from_bytes(other)
