"""Rolling hashes and FoundWords: the hash is a fast hint, an exact comparison decides."""

from __future__ import annotations

import random
from itertools import product

import pytest

from wibble.core import (
    Board,
    ChainChanged,
    Draws,
    FoundWords,
    Game,
    HashParams,
    Pos,
    Result,
    RollingHash,
    WordJudged,
    build_word_list,
)
from wibble.core.hashing import DEFAULT_MODULI

WORDS = ["cat", "cats", "a", "año", "zyzzyva", "wibble", "ñandú"]


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin; these witnesses are exact for every n below 3.3e24."""
    if n < 2:
        return False
    witnesses = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    if n in witnesses:
        return True
    if any(n % p == 0 for p in witnesses):
        return False
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in witnesses:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@pytest.fixture
def params() -> HashParams:
    return HashParams.draw(random.Random(7))


@pytest.mark.parametrize("word", WORDS)
def test_pushing_letter_by_letter_equals_hashing_the_whole_word(params: HashParams, word: str) -> None:
    rolling = RollingHash(params)
    for letter in word:
        rolling.push(letter)

    assert rolling.value == params.of(word)


@pytest.mark.parametrize("word", WORDS)
def test_popping_restores_every_earlier_prefix(params: HashParams, word: str) -> None:
    rolling = RollingHash(params)
    for letter in word:
        rolling.push(letter)

    for length in range(len(word) - 1, -1, -1):
        rolling.pop()
        assert rolling.value == params.of(word[:length])


def test_backtracking_then_taking_another_letter_hashes_the_new_word(params: HashParams) -> None:
    rolling = RollingHash(params)
    for letter in "cat":
        rolling.push(letter)
    rolling.pop()
    rolling.push("r")

    assert rolling.value == params.of("car")


def test_clear_returns_to_the_empty_hash(params: HashParams) -> None:
    rolling = RollingHash(params)
    for letter in "wibble":
        rolling.push(letter)
    rolling.clear()

    assert rolling.value == params.empty == params.of("")


def test_pop_from_an_empty_rolling_hash_raises(params: HashParams) -> None:
    rolling = RollingHash(params)

    with pytest.raises(IndexError, match="empty"):
        rolling.pop()
    assert rolling.value == params.empty


def test_anagrams_hash_differently_under_the_default_moduli(params: HashParams) -> None:
    assert len({params.of(w) for w in ["cat", "act", "tac", "tca", "atc", "cta"]}) == 6


def test_default_moduli_are_two_distinct_primes_and_not_powers_of_two() -> None:
    assert len(DEFAULT_MODULI) == 2
    assert len(set(DEFAULT_MODULI)) == 2
    for m in DEFAULT_MODULI:
        assert m & (m - 1) != 0, f"{m} is a power of two"
        assert is_prime(m), f"{m} is not prime"


def test_drawn_params_use_the_default_moduli_and_bases_in_range() -> None:
    for seed in range(20):
        params = HashParams.draw(random.Random(seed))
        assert params.moduli == DEFAULT_MODULI
        assert all(2 <= b <= m - 2 for b, m in zip(params.bases, params.moduli, strict=True))


def test_different_seeds_draw_different_bases() -> None:
    bases = {HashParams.draw(random.Random(seed)).bases for seed in range(20)}

    assert len(bases) == 20


def test_same_seed_draws_the_same_bases() -> None:
    assert HashParams.draw(random.Random(5)) == HashParams.draw(random.Random(5))


def test_found_words_remembers_what_was_added(params: HashParams) -> None:
    found = FoundWords(params)
    found.add("cat", params.of("cat"), 5)
    found.add("año", params.of("año"), 10)

    assert "cat" in found
    assert "año" in found
    assert "cats" not in found
    assert "ano" not in found
    assert 3 not in found
    assert len(found) == 2
    assert found.in_order == [("cat", 5), ("año", 10)]


def test_found_words_in_order_is_a_copy(params: HashParams) -> None:
    found = FoundWords(params)
    found.add("cat", params.of("cat"), 5)
    found.in_order.append(("dog", 5))

    assert found.in_order == [("cat", 5)]


# A single modulus of 7 has only 7 keys, so collisions are easy to find.
TINY = HashParams(moduli=(7,), bases=(3,))


def colliding_pair(letters: str, length: int) -> tuple[str, str]:
    """The first two different strings over ``letters`` with the same key under TINY."""
    seen: dict[tuple[int, ...], str] = {}
    for chars in product(letters, repeat=length):
        word = "".join(chars)
        key = TINY.of(word)
        if key in seen:
            return seen[key], word
        seen[key] = word
    raise AssertionError("no collision found")


def test_a_colliding_word_is_not_taken_for_the_one_found() -> None:
    first, second = colliding_pair("abct", 3)
    found = FoundWords(TINY)
    found.add(first, TINY.of(first), 3)

    assert TINY.of(first) == TINY.of(second)
    assert found.contains(first, TINY.of(first))
    assert not found.contains(second, TINY.of(second))
    assert second not in found


def collision_game() -> tuple[Game, str, str]:
    """A real game under TINY whose board spells two colliding words, the first of them twice."""
    first, second = colliding_pair("abct", 3)
    letters = {s: {"score": 1, "weight": 1} for s in "abctx"}
    words = build_word_list("tiny", [first, second], {"letters": letters}, "tiny.toml")
    game = Game(words, Draws(3), TINY)
    rows = [first + "xx", "xxxxx", first + "xx", "xxxxx", second + "xx"]
    game.board = Board([[words.letters[ch] for ch in row] for row in rows])
    return game, first, second


def spell_row(game: Game, row: int, length: int = 3) -> Result:
    drag_row(game, row, length)
    [judged] = game.release()
    game.clean_up()
    assert isinstance(judged, WordJudged)
    return judged.result


def test_two_words_with_the_same_hash_both_score_in_a_game() -> None:
    game, first, second = collision_game()
    assert first != second
    assert TINY.of(first) == TINY.of(second)

    assert spell_row(game, 0) is Result.SCORED
    assert spell_row(game, 4) is Result.SCORED
    assert game.found.in_order == [(first, 3), (second, 3)]
    assert game.total == 6


def test_the_same_word_twice_is_already_found_even_under_tiny_moduli() -> None:
    game, first, _ = collision_game()

    assert spell_row(game, 0) is Result.SCORED
    assert spell_row(game, 2) is Result.ALREADY_FOUND
    assert game.found.in_order == [(first, 3)]
    assert game.total == 3


def test_chain_shows_found_only_for_the_word_found_not_its_collision() -> None:
    game, first, second = collision_game()
    spell_row(game, 0)

    second_again = drag_row(game, 4)
    assert second_again.word == second
    assert second_again.found is False  # same hash as a found word, but a different word
    game.cancel()

    first_again = drag_row(game, 2)
    assert first_again.word == first
    assert first_again.found is True


def drag_row(game: Game, row: int, length: int = 3) -> ChainChanged:
    """Drag across the first ``length`` tiles of ``row`` without releasing; the last chain event."""
    game.press(Pos(row, 0))
    for col in range(1, length):
        [changed] = game.enter(Pos(row, col))
    assert isinstance(changed, ChainChanged)
    return changed
