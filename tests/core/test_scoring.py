"""What a word scores in a match: letters (DL x2, TL x3), then the 2x word tile, then +10 from six tiles.

The modifiers run in an order that is data; each one that applies shows up in the
breakdown the page explains a score with, carrying the running total.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wibble.core.match import Settings
from wibble.core.scoring import (
    ENDLESS_ORDER,
    MATCH_ORDER,
    Score,
    TileValue,
    check_order,
    points_of,
    score,
)

PROPERTY = settings(derandomize=True, database=None, deadline=None)


def tiles(
    *scores: int, dl: int | None = None, tl: int | None = None, x2: int | None = None
) -> list[TileValue]:
    """A path of tiles with these letter scores; ``dl``/``tl``/``x2`` name the index of a special tile."""
    return [
        TileValue(s, 2 if i == dl else 3 if i == tl else 1, 2 if i == x2 else 1) for i, s in enumerate(scores)
    ]


SWAPPED = ("letters", "long_word", "word_multiplier")

# (tiles, order, points, breakdown as the page gets it)
WORKED: dict[str, tuple[list[TileValue], tuple[str, ...], int, list[dict[str, Any]]]] = {
    "plain word: the letter scores summed": (
        tiles(3, 1, 1),  # c a t
        MATCH_ORDER,
        5,
        [{"step": "letters", "points": 5}],
    ),
    "DL doubles its letter": (
        tiles(3, 1, 1, dl=0),
        MATCH_ORDER,
        3 * 2 + 1 + 1,
        [{"step": "letters", "points": 8}],
    ),
    "TL triples its letter": (
        tiles(3, 1, 1, tl=1),
        MATCH_ORDER,
        3 + 1 * 3 + 1,
        [{"step": "letters", "points": 7}],
    ),
    "2x doubles the word": (
        tiles(3, 1, 1, x2=2),
        MATCH_ORDER,
        (3 + 1 + 1) * 2,
        [{"step": "letters", "points": 5}, {"step": "word_multiplier", "points": 10, "factor": 2}],
    ),
    "DL and 2x on one word: the letter first, then the word": (
        tiles(3, 1, 1, dl=0, x2=1),
        MATCH_ORDER,
        (3 * 2 + 1 + 1) * 2,
        [{"step": "letters", "points": 8}, {"step": "word_multiplier", "points": 16, "factor": 2}],
    ),
    "five tiles earn no bonus": (
        tiles(1, 1, 1, 1, 1),
        MATCH_ORDER,
        5,
        [{"step": "letters", "points": 5}],
    ),
    "six tiles earn +10": (
        tiles(1, 1, 1, 1, 1, 1),
        MATCH_ORDER,
        6 + 10,
        [{"step": "letters", "points": 6}, {"step": "long_word", "points": 16, "bonus": 10}],
    ),
    "long word on 2x with TL: (sum) x 2 + 10": (
        tiles(1, 1, 1, 1, 1, 2, tl=5, x2=0),
        MATCH_ORDER,
        (5 + 2 * 3) * 2 + 10,
        [
            {"step": "letters", "points": 11},
            {"step": "word_multiplier", "points": 22, "factor": 2},
            {"step": "long_word", "points": 32, "bonus": 10},
        ],
    ),
    "the order is data: bonus before the multiplier gives (sum + 10) x 2": (
        tiles(1, 1, 1, 1, 1, 2, tl=5, x2=0),
        SWAPPED,
        (5 + 2 * 3 + 10) * 2,
        [
            {"step": "letters", "points": 11},
            {"step": "long_word", "points": 21, "bonus": 10},
            {"step": "word_multiplier", "points": 42, "factor": 2},
        ],
    ),
    "the endless game's order only sums the letters (with their DL/TL)": (
        tiles(1, 1, 1, 1, 1, 2, tl=5, x2=0),
        ENDLESS_ORDER,
        5 + 2 * 3,
        [{"step": "letters", "points": 11}],
    ),
}


@pytest.mark.parametrize(("path", "order", "points", "breakdown"), WORKED.values(), ids=list(WORKED))
def test_worked_examples_score_as_the_rules_say(
    path: list[TileValue], order: tuple[str, ...], points: int, breakdown: list[dict[str, Any]]
) -> None:
    result = score(path, order)

    assert result.points == points
    assert result.to_doc() == breakdown


def test_a_match_scores_in_spellcasts_order_by_default() -> None:
    assert score(tiles(1, 1, 1, 1, 1, 2, tl=5, x2=0)).points == 32
    assert Settings().scoring == MATCH_ORDER == ("letters", "word_multiplier", "long_word")


@PROPERTY
@given(
    st.lists(
        st.builds(TileValue, st.integers(0, 10), st.sampled_from([1, 2, 3]), st.sampled_from([1, 2])),
        min_size=1,
        max_size=16,
    )
)
def test_every_step_of_the_breakdown_carries_the_running_total(path: list[TileValue]) -> None:
    result = score(path)
    letters = sum(tile.score * tile.letter_mult for tile in path)
    factor = 1
    for tile in path:
        factor *= tile.word_mult

    assert result.points == letters * factor + (10 if len(path) >= 6 else 0)
    names = [step.name for step in result.breakdown]
    assert names == [
        name
        for name, applies in (
            ("letters", True),
            ("word_multiplier", factor != 1),
            ("long_word", len(path) >= 6),
        )
        if applies
    ]
    running = 0
    for step in result.breakdown:
        expected = running * step.factor + step.bonus if step.name != "letters" else letters
        assert step.points == expected
        running = step.points
    assert running == result.points


def test_a_score_is_the_same_whatever_way_the_word_was_dragged() -> None:
    path = tiles(1, 4, 1, 3, 1, 1, dl=1, x2=3)

    assert score(path) == score(list(reversed(path)))
    assert isinstance(score(path), Score)


# -- the order itself ------------------------------------------------------------------


@pytest.mark.parametrize("order", [MATCH_ORDER, SWAPPED, ENDLESS_ORDER, ["letters", "long_word"]])
def test_an_order_of_known_modifiers_starting_with_letters_is_accepted(order: list[str]) -> None:
    assert check_order(order) == tuple(order)


@pytest.mark.parametrize(
    "order",
    [
        (),
        ("letters", "triple_word"),  # an unknown name
        ("Letters",),
        ("word_multiplier", "letters"),  # letters not first
        ("long_word", "letters", "word_multiplier"),
        ("word_multiplier",),
    ],
    ids=repr,
)
def test_an_order_with_unknown_names_or_not_starting_with_letters_is_refused(order: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="starts with 'letters'"):
        check_order(order)
    with pytest.raises(ValueError, match="starts with 'letters'"):
        Settings(scoring=order)


@PROPERTY
@given(
    st.lists(
        st.builds(TileValue, st.integers(0, 10), st.sampled_from([1, 2, 3]), st.sampled_from([1, 1, 1, 2])),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from(
        [MATCH_ORDER, ENDLESS_ORDER, ("letters", "long_word"), ("letters", "long_word", "word_multiplier")]
    ),
)
def test_the_solvers_points_are_the_scores_points(tiles: list[TileValue], order: tuple[str, ...]) -> None:
    """The solver ranks thousands of paths by ``points_of``; it must agree with ``score`` every time."""
    assert points_of(tiles, order) == score(tiles, order).points
