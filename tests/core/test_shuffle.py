"""The shuffle: every order equally likely (chi-square), not Sattolo, and replayable from a seed.

The statistical tests use fixed seeds, so they pass or fail the same way on every
run; each threshold is the 0.999 quantile of its chi-square distribution, so a
correct shuffle fails one only once in a thousand seeds, and a biased one (such as
Sattolo's variant, which never makes some of the counted outcomes) fails it by far.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from wibble.core.draws import Draws
from wibble.core.shuffle import permutation, shuffle

# 0.999 quantiles of chi-square, computed by inverting the regularised lower incomplete gamma
# function P(df/2, x/2) (its power series) by bisection, and checked against the Wilson-Hilferty
# approximation (172.47 and 686.63) and printed tables (df 100: 149.449; df 120: 173.617).
# The 0.999 quantile for df 119 is 172.42; 180.2 would be the quantile for about df 126.
CHI2_999_DF119 = 172.42
CHI2_999_DF576 = 686.61


def chi_square(counts: list[int], expected: float) -> float:
    return sum((count - expected) ** 2 / expected for count in counts)


def test_every_order_of_five_items_is_equally_likely() -> None:
    trials = 120_000
    rng = Draws(20_240_501)
    orders: Counter[tuple[int, ...]] = Counter()
    for _ in range(trials):
        # From the same start every time: reshuffling the last result would compose the shuffles,
        # and a composition of biased shuffles drifts towards uniform, hiding the bias.
        items = [0, 1, 2, 3, 4]
        shuffle(items, rng)
        orders[tuple(items)] += 1
    assert len(orders) == 120
    counts = [orders[order] for order in permutations(range(5))]
    # 120 outcomes of a multinomial: 119 degrees of freedom.
    assert chi_square(counts, trials / 120) < CHI2_999_DF119


def test_every_tile_of_a_board_is_equally_likely_to_land_on_every_square() -> None:
    n, trials = 25, 2_000
    rng = Draws(77)
    landed = [[0] * n for _ in range(n)]  # landed[item][square]
    for _ in range(trials):
        for square, item in enumerate(permutation(n, rng)):
            landed[item][square] += 1
    statistic = chi_square([count for row in landed for count in row], trials / n)
    # The cells of one shuffle are not independent multinomial cells: each row and each column of
    # a permutation matrix sums to 1. For a uniform shuffle the covariance of the n*n cells,
    # divided by their mean, is n/(n-1) times a projection of rank (n-1)**2, so the statistic is
    # n/(n-1) times a chi-square with (n-1)**2 = 576 degrees of freedom (mean n(n-1) = 600).
    assert statistic * (n - 1) / n < CHI2_999_DF576
    # Sattolo's variant never leaves an item on its own square: the diagonal would be all zeros.
    assert min(landed[i][i] for i in range(n)) > 0


class Constant:
    """A ``Uniform`` that always draws the same number."""

    def __init__(self, value: float) -> None:
        self.value = value
        self.draws = 0

    def random(self) -> float:
        self.draws += 1
        return self.value


def test_a_shuffle_can_leave_items_where_they_were_which_sattolo_never_does() -> None:
    # Draws just below 1 pick j = i every time: every item stays put. Sattolo's j is at most
    # i - 1, so it moves every item on every shuffle.
    items = list("wibble")
    shuffle(items, Constant(1 - 2**-53))
    assert items == list("wibble")

    # With real draws, about 1 - 1/e of shuffles keep at least one item in place (none with Sattolo).
    rng = Draws(5)
    kept = sum(any(i == item for i, item in enumerate(permutation(8, rng))) for _ in range(1_000))
    assert 580 < kept < 680  # 632 expected; the standard deviation is about 15


def test_the_draw_is_scaled_to_zero_to_i_inclusive() -> None:
    items = [0, 1, 2, 3]
    shuffle(items, Constant(0.0))  # j = 0 each time: each step swaps with the front
    assert items == [1, 2, 3, 0]
    odd = [0, 1, 2, 3]
    shuffle(odd, Constant(0.999))  # int(0.999 * (i + 1)) == i for these small i
    assert odd == [0, 1, 2, 3]


def test_a_draw_of_one_is_clamped_rather_than_indexing_past_the_end() -> None:
    items = [0, 1, 2]
    shuffle(items, Constant(1.0))  # a broken source; the shuffle stays in bounds
    assert sorted(items) == [0, 1, 2]


def test_the_same_seed_gives_the_same_order() -> None:
    first = permutation(25, Draws(42))
    assert permutation(25, Draws(42)) == first
    assert sorted(first) == list(range(25))
    assert permutation(25, Draws(43)) != first

    tiles = list("abcdefghijklmnopqrstuvwxy")
    shuffle(tiles, Draws(42))
    assert tiles == ["abcdefghijklmnopqrstuvwxy"[i] for i in first]


def test_shuffling_n_items_uses_n_minus_one_draws() -> None:
    # A replay counts on it: a game's Draws goes on from where the shuffle left it.
    for n in (0, 1, 2, 25):
        rng = Draws(9)
        permutation(n, rng)
        assert rng.position == max(n - 1, 0)


@pytest.mark.parametrize("items", [[], ["only"]])
def test_shuffling_nothing_or_one_item_changes_nothing(items: list[str]) -> None:
    before = list(items)
    rng = Constant(0.5)
    shuffle(items, rng)
    assert items == before
    assert rng.draws == 0


def test_a_negative_count_is_refused() -> None:
    assert permutation(0, Draws(1)) == []
    with pytest.raises(ValueError, match="-1"):
        permutation(-1, Draws(1))
