"""The board: which tiles touch, what is on the board, and filling it from a sampler."""

from __future__ import annotations

import random

import pytest

from wibble.core import SIZE, Board, Letter, LetterSampler, LetterTable, Pos

A, B = Letter("a", 1, 1.0), Letter("b", 3, 0.0)
ONLY_A = LetterSampler(LetterTable([A, B]))


@pytest.mark.parametrize(
    ("other", "touches"),
    [
        (Pos(1, 1), True),
        (Pos(1, 2), True),
        (Pos(1, 3), True),
        (Pos(2, 1), True),
        (Pos(2, 3), True),
        (Pos(3, 1), True),
        (Pos(3, 2), True),
        (Pos(3, 3), True),
        (Pos(2, 2), False),  # a tile does not touch itself
        (Pos(0, 2), False),
        (Pos(2, 4), False),
        (Pos(4, 4), False),
        (Pos(0, 0), False),
        (Pos(4, 1), False),
    ],
)
def test_a_tile_touches_its_eight_neighbours_only(other: Pos, touches: bool) -> None:
    assert Pos(2, 2).touches(other) is touches
    assert other.touches(Pos(2, 2)) is touches


@pytest.mark.parametrize(
    ("pos", "inside"),
    [(Pos(0, 0), True), (Pos(4, 4), True), (Pos(-1, 0), False), (Pos(0, 5), False), (Pos(5, 0), False)],
)
def test_board_knows_which_positions_are_on_it(pos: Pos, inside: bool) -> None:
    assert Board.fill(ONLY_A, random.Random(0)).contains(pos) is inside


def test_a_board_must_be_square() -> None:
    with pytest.raises(ValueError, match="square"):
        Board([[A, A], [A]])


def test_fill_draws_a_full_board_of_drawable_letters() -> None:
    board = Board.fill(ONLY_A, random.Random(0))

    assert board.size == SIZE == 5
    assert board.rows() == [[A] * 5 for _ in range(5)]


def test_rows_is_a_copy_that_cannot_change_the_board() -> None:
    board = Board([[A, A], [A, A]])
    board.rows()[0][0] = B

    assert board[Pos(0, 0)] == A


def test_refill_replaces_only_the_given_tiles_in_board_order() -> None:
    board = Board([[B, B], [B, B]])

    changed = board.refill([Pos(1, 1), Pos(0, 0), Pos(1, 1)], ONLY_A, random.Random(0))

    assert changed == [(Pos(0, 0), A), (Pos(1, 1), A)]
    assert board.rows() == [[A, B], [B, A]]
