"""Letters and the weighted sampler: tiles come up as often as their weights say."""

from __future__ import annotations

import math
import random
from collections import Counter
from statistics import NormalDist

import pytest

from wibble.core import Letter, LetterSampler, LetterTable

# Zero weights first, in the middle and last, so every edge of the CDF is exercised.
# Positive weights add up to 10, so the interval edges are 0.5, 0.8 and 0.95.
WEIGHTS = {"a": 0.0, "b": 5.0, "c": 0.0, "d": 3.0, "e": 1.5, "f": 0.5, "g": 0.0}
TABLE = LetterTable(Letter(symbol, 1, weight) for symbol, weight in WEIGHTS.items())
DRAWABLE = [s for s, w in WEIGHTS.items() if w > 0]
JUST_BELOW_ONE = math.nextafter(1.0, 0.0)  # 1 - 2**-53, the largest value random() returns

DRAWS = 100_000
P_VALUE = 0.001
# Upper 0.1 % points of the chi-square distribution (any statistics table, e.g.
# NIST/SEMATECH e-Handbook 1.3.6.7.4), to check the approximation below against.
CHI2_TABLE_P001 = {3: 16.266, 5: 20.515, 10: 29.588, 25: 52.620}


def chi2_critical(df: int, p: float = P_VALUE) -> float:
    """Wilson-Hilferty: (X/df)^(1/3) is close to normal with mean 1 - 2/(9 df), variance 2/(9 df)."""
    z = NormalDist().inv_cdf(1.0 - p)
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * math.sqrt(a)) ** 3


def chi2_statistic(observed: Counter[str], expected_probabilities: dict[str, float]) -> float:
    """Pearson's statistic; a draw outside the expected letters makes it infinite."""
    n = sum(observed.values())
    if set(observed) - set(expected_probabilities):
        return math.inf
    return sum(
        (observed[symbol] - n * p) ** 2 / (n * p) for symbol, p in expected_probabilities.items() if p > 0
    )


def fits(observed: Counter[str], weights: dict[str, float]) -> bool:
    """The goodness-of-fit test: does ``observed`` look drawn from ``weights`` at p = 0.001?"""
    total = sum(weights.values())
    probabilities = {s: w / total for s, w in weights.items() if w > 0}
    return chi2_statistic(observed, probabilities) < chi2_critical(len(probabilities) - 1)


def draw_counts(sampler: LetterSampler, seed: int, n: int = DRAWS) -> Counter[str]:
    rng = random.Random(seed)
    return Counter(sampler.draw(rng).symbol for _ in range(n))


@pytest.mark.parametrize(("df", "table_value"), sorted(CHI2_TABLE_P001.items()))
def test_chi2_critical_value_approximation_is_within_two_percent_of_the_table(
    df: int, table_value: float
) -> None:
    assert chi2_critical(df) == pytest.approx(table_value, rel=0.02)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_draws_follow_the_weights_by_a_chi_square_test(seed: int) -> None:
    counts = draw_counts(LetterSampler(TABLE), seed)

    assert set(counts) == set(DRAWABLE)
    assert fits(counts, WEIGHTS)


@pytest.mark.parametrize(
    ("name", "wrong_weights"),
    [
        ("uniform over the drawable letters", {s: 1.0 for s in DRAWABLE}),
        ("two weights swapped", {**WEIGHTS, "e": WEIGHTS["f"], "f": WEIGHTS["e"]}),
        ("one point of weight moved from b to d", {**WEIGHTS, "b": 4.9, "d": 3.1}),
        ("a zero-weight letter given a little weight", {**WEIGHTS, "c": 0.2}),
    ],
)
def test_chi_square_test_rejects_a_wrong_distribution(name: str, wrong_weights: dict[str, float]) -> None:
    """The same draws judged against the wrong weights must fail, or the test above proves nothing."""
    counts = draw_counts(LetterSampler(TABLE), seed=1)

    assert not fits(counts, wrong_weights), name


def test_chi_square_test_rejects_a_sampler_that_ignores_the_weights() -> None:
    rng = random.Random(1)
    counts = Counter(rng.choice(DRAWABLE) for _ in range(DRAWS))

    assert not fits(counts, WEIGHTS)


def test_probabilities_are_the_normalised_positive_weights() -> None:
    assert LetterSampler(TABLE).probabilities() == pytest.approx({"b": 0.5, "d": 0.3, "e": 0.15, "f": 0.05})


def test_same_seed_draws_the_same_sequence() -> None:
    sampler = LetterSampler(TABLE)
    first, second = random.Random(42), random.Random(42)

    assert [sampler.draw(first) for _ in range(500)] == [sampler.draw(second) for _ in range(500)]


def test_different_seeds_draw_different_sequences() -> None:
    sampler = LetterSampler(TABLE)
    first, second = random.Random(1), random.Random(2)

    assert [sampler.draw(first) for _ in range(100)] != [sampler.draw(second) for _ in range(100)]


@pytest.mark.parametrize(
    ("u", "symbol"),
    [
        (0.0, "b"),  # the first letter with a positive weight, not the zero-weight "a"
        (math.nextafter(0.5, 0.0), "b"),  # just below b|d, where the zero-weight "c" sits
        (0.5, "d"),
        (math.nextafter(0.8, 0.0), "d"),
        (0.8, "e"),
        (0.95, "f"),
        (JUST_BELOW_ONE, "f"),  # the last positive letter, not "g" and not an IndexError
    ],
)
def test_letter_for_maps_cdf_edges_to_the_right_letter(u: float, symbol: str) -> None:
    assert LetterSampler(TABLE).letter_for(u).symbol == symbol


@pytest.mark.parametrize(
    "weights",
    [
        [1.0],
        [0.1] * 10,
        [1.0, 2.0],
        [3.0, 0.0, 1e-9],
        [1e-300, 1e300],
        [0.7, 0.2, 0.1],
        [8.2, 1.5, 2.8, 4.3, 13.0, 2.2, 2.0, 6.1, 7.0, 0.15, 0.77, 4.0, 0.074],
    ],
)
def test_letter_just_below_one_is_the_last_drawable_letter(weights: list[float]) -> None:
    letters = [Letter(f"l{i}", 1, w) for i, w in enumerate(weights)]
    last = [letter for letter in letters if letter.weight > 0][-1]

    assert LetterSampler(LetterTable(letters)).letter_for(JUST_BELOW_ONE) == last


def test_zero_weight_letters_are_never_drawn_even_at_every_interval_edge() -> None:
    sampler = LetterSampler(TABLE)
    edges = [0.0, 0.5, 0.8, 0.95, 1.0]
    probes = {p for e in edges for p in (math.nextafter(e, 0.0), e, math.nextafter(e, 1.0)) if 0.0 <= p < 1.0}

    drawn = {sampler.letter_for(u).symbol for u in probes}

    assert drawn == set(DRAWABLE)
    assert drawn.isdisjoint({"a", "c", "g"})


@pytest.mark.parametrize("u", [-0.0001, math.nextafter(0.0, -1.0), 1.0, 1.5, -1.0, math.inf, math.nan])
def test_letter_for_refuses_u_outside_zero_to_one(u: float) -> None:
    with pytest.raises(ValueError, match=r"u must be in \[0, 1\)"):
        LetterSampler(TABLE).letter_for(u)


def test_letter_table_refuses_a_letter_listed_twice() -> None:
    with pytest.raises(ValueError, match="twice"):
        LetterTable([Letter("a", 1, 1.0), Letter("a", 2, 1.0)])


def test_letter_table_needs_a_positive_weight() -> None:
    with pytest.raises(ValueError, match="positive weight"):
        LetterTable([Letter("a", 1, 0.0), Letter("b", 1, 0.0)])


def test_tile_face_is_the_upper_case_letter() -> None:
    assert [Letter(s, 1, 1.0).face for s in ("a", "ñ")] == ["A", "Ñ"]
