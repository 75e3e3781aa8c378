"""The drag both modes share: the rules a player notices while dragging a chain across the board."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from wibble.core import Board, HashParams, Pos, RuleError, build_word_list
from wibble.core.chain import Chain, Status

P = Pos

# 25 different letters laid out as a snake: along row 0, back along row 1, and so on,
# so the one path through every tile, in that order, spells the alphabet up to y.
ALPHABET = "abcdefghijklmnopqrstuvwxy"
SNAKE_ROWS = ["abcde", "jihgf", "klmno", "tsrqp", "uvwxy"]
SNAKE = [P(r, c if r % 2 == 0 else 4 - c) for r in range(5) for c in range(5)]
WORDS = [ALPHABET, "abc", "aim", "bai"]  # "aim": a to i is a diagonal step, i to m another
PARAMS = HashParams.draw(random.Random(7))
WORD_LIST = build_word_list("test", WORDS, {}, "test.toml")
BOARD = Board([[WORD_LIST.letters[ch] for ch in row] for row in SNAKE_ROWS])

NEIGHBOURS = [P(1 + dr, 1 + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def new_chain(*, hashes: bool = True) -> Chain:
    return Chain(WORD_LIST, PARAMS if hashes else None)


def drag(chain: Chain, path: Sequence[Pos]) -> Chain:
    chain.press(BOARD, path[0])
    for pos in path[1:]:
        chain.enter(BOARD, pos)
    return chain


def state(chain: Chain) -> tuple[object, ...]:
    """Everything the chain shows, to check a refusal left it exactly as it was."""
    return (chain.tiles, chain.word(BOARD), chain.node, chain.key, chain.status, len(chain))


def refused(chain: Chain, pos: Pos) -> RuleError:
    before = state(chain)
    with pytest.raises(RuleError) as caught:
        chain.enter(BOARD, pos)
    assert state(chain) == before
    return caught.value


def test_a_new_chain_is_empty_and_spells_nothing() -> None:
    chain = new_chain()
    assert (chain.tiles, chain.word(BOARD), chain.status, len(chain), bool(chain)) == (
        (),
        "",
        Status.NONE,
        0,
        False,
    )


def test_a_press_starts_the_chain_on_any_tile() -> None:
    for pos in SNAKE:
        chain = new_chain()
        chain.press(BOARD, pos)
        assert (chain.tiles, bool(chain)) == ((pos,), True)


@pytest.mark.parametrize("pos", NEIGHBOURS, ids=lambda p: f"{p.row}{p.col}")
def test_every_one_of_the_eight_neighbours_can_follow(pos: Pos) -> None:
    chain = drag(new_chain(), [P(1, 1), pos])
    assert chain.tiles == (P(1, 1), pos)


def test_a_diagonal_step_spells_on() -> None:
    chain = drag(new_chain(), [P(0, 0), P(1, 1), P(2, 2)])  # a, i, m: down and right twice
    assert (chain.word(BOARD), chain.status) == ("aim", Status.WORD)


def test_a_tile_that_does_not_touch_the_last_is_refused() -> None:
    chain = drag(new_chain(), [P(0, 0), P(0, 1)])
    error = refused(chain, P(0, 3))  # two columns away
    assert (error.code, error.message) == (
        "move/not_adjacent",
        "tile (0, 3) does not touch the last tile (0, 1)",
    )
    assert refused(chain, P(2, 2)).code == "move/not_adjacent"  # two rows and a column away


def test_a_tile_already_in_the_chain_is_refused() -> None:
    chain = drag(new_chain(), [P(0, 0), P(0, 1), P(1, 1)])
    error = refused(chain, P(0, 0))  # touches the last tile, but it was used first
    assert (error.code, error.message) == ("move/repeated_tile", "tile (0, 0) is already in the chain")
    assert refused(chain, P(1, 1)).code == "move/repeated_tile"  # the last tile itself


def test_the_first_tile_cannot_be_entered_again() -> None:
    chain = drag(new_chain(), [P(2, 2)])
    assert refused(chain, P(2, 2)).code == "move/repeated_tile"


def test_dragging_back_onto_the_tile_before_undoes_the_last_step() -> None:
    chain = drag(new_chain(), [P(0, 0), P(0, 1)])
    two = state(chain)
    chain.enter(BOARD, P(0, 2))
    assert chain.word(BOARD) == "abc"
    chain.enter(BOARD, P(0, 1))  # back onto b: c is dropped
    assert state(chain) == two
    chain.enter(BOARD, P(0, 0))  # back onto a
    assert (chain.tiles, chain.word(BOARD), chain.key) == ((P(0, 0),), "a", PARAMS.of("a"))
    chain.enter(BOARD, P(1, 1))  # and on again, another way
    assert chain.word(BOARD) == "ai"


def test_a_tile_off_the_board_is_refused() -> None:
    chain = new_chain()
    with pytest.raises(RuleError) as caught:
        chain.press(BOARD, P(5, 0))
    assert (caught.value.code, caught.value.message) == (
        "move/off_board",
        "tile (5, 0) is off the board (0-4 each way)",
    )
    assert not chain
    chain.press(BOARD, P(0, 4))
    error = refused(chain, P(-1, 4))  # it would touch the last tile, were it on the board
    assert (error.code, error.message) == ("move/off_board", "tile (-1, 4) is off the board (0-4 each way)")


def test_a_second_press_and_an_enter_before_any_press_are_refused() -> None:
    chain = new_chain()
    with pytest.raises(RuleError) as caught:
        chain.enter(BOARD, P(0, 0))
    assert (caught.value.code, caught.value.message) == ("state/not_chaining", "cannot enter without a chain")
    chain.press(BOARD, P(0, 0))
    with pytest.raises(RuleError) as caught:
        chain.press(BOARD, P(0, 1))
    assert (caught.value.code, caught.value.message) == (
        "state/already_chaining",
        "cannot press during a chain",
    )
    assert chain.tiles == (P(0, 0),)


def test_a_chain_can_cross_the_whole_board_and_then_go_nowhere() -> None:
    chain = new_chain()
    chain.press(BOARD, SNAKE[0])
    for i, pos in enumerate(SNAKE[1:], start=2):
        chain.enter(BOARD, pos)
        assert chain.word(BOARD) == ALPHABET[:i]
        assert chain.status is (Status.WORD if ALPHABET[:i] in WORDS else Status.PREFIX)  # abc, then all
    assert chain.tiles == tuple(SNAKE)
    assert chain.key == PARAMS.of(ALPHABET)
    # Every tile is used: each neighbour of the last one is refused, bar the one it came from.
    last = SNAKE[-1]
    for pos in SNAKE[:-2]:
        if pos.touches(last):
            assert refused(chain, pos).code == "move/repeated_tile"
    chain.enter(BOARD, SNAKE[-2])
    assert chain.word(BOARD) == ALPHABET[:24]


def test_the_status_says_word_prefix_or_dead_end() -> None:
    chain = drag(new_chain(), [P(0, 1), P(0, 0)])  # "ba"
    assert chain.status is Status.PREFIX  # "bai" starts so
    chain.enter(BOARD, P(1, 0))  # "baj": no word starts so
    assert (chain.node, chain.status) == (None, Status.NONE)
    chain.enter(BOARD, P(0, 0))  # dragged back: "ba" again, and alive
    assert chain.status is Status.PREFIX
    chain.enter(BOARD, P(1, 1))
    assert (chain.word(BOARD), chain.status) == ("bai", Status.WORD)


def test_the_hash_follows_every_step_and_undo() -> None:
    chain = new_chain()
    chain.press(BOARD, P(0, 0))
    seen = [chain.key]
    for pos in SNAKE[1:6]:
        chain.enter(BOARD, pos)
        assert chain.key == PARAMS.of(chain.word(BOARD))
        seen.append(chain.key)
    for pos in reversed(SNAKE[:5]):
        seen.pop()
        chain.enter(BOARD, pos)
        assert chain.key == seen[-1]


def test_a_chain_without_hash_parameters_has_no_key() -> None:
    chain = drag(new_chain(hashes=False), [P(0, 0), P(0, 1)])
    assert chain.word(BOARD) == "ab"
    with pytest.raises(ValueError, match="keeps no hashes"):
        _ = chain.key


def test_clear_drops_every_tile() -> None:
    chain = drag(new_chain(), SNAKE[:4])
    chain.clear()
    assert state(chain) == state(new_chain())
    chain.press(BOARD, P(4, 4))  # and a new drag can start anywhere
    assert chain.word(BOARD) == "y"


def test_fits_says_which_tile_could_come_next() -> None:
    chain = new_chain()
    assert chain.fits(BOARD, P(3, 3))  # any tile can start a path
    assert not chain.fits(BOARD, P(5, 5))
    drag(chain, [P(0, 0), P(0, 1)])
    assert chain.fits(BOARD, P(1, 2))
    assert chain.fits(BOARD, P(1, 0))
    assert not chain.fits(BOARD, P(0, 0))  # used (fits is for a path as stored: it knows no undo)
    assert not chain.fits(BOARD, P(0, 3))  # too far
    chain.add(BOARD, P(1, 2))
    assert chain.word(BOARD) == "abh"


def test_respell_follows_a_letter_that_changed_under_the_chain() -> None:
    board = Board(BOARD.rows())  # a copy, to change a letter of
    chain = new_chain()
    drag(chain, [P(0, 1), P(0, 0), P(1, 0)])  # "baj": no word
    assert chain.status is Status.NONE
    board.place([(P(1, 0), WORD_LIST.letters["i"])])
    chain.respell(board)
    assert (chain.tiles, chain.word(board), chain.status, chain.key) == (
        (P(0, 1), P(0, 0), P(1, 0)),
        "bai",
        Status.WORD,
        PARAMS.of("bai"),
    )
