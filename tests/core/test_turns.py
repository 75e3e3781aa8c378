"""Turn order: seats come out by (key, nonce), can leave from anywhere, and faster seats play more.

The heap is checked only through what a match sees: the order of the pops.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wibble.core.turns import TICKS_PER_ROUND, Turn, TurnOrder, step

# Deterministic examples: a property that fails must fail on every run, not now and then.
PROPERTY = settings(derandomize=True, database=None, deadline=None)

# (seat, key, nonce), each seat once; small ranges so equal keys and equal nonces are common.
ENTRIES = st.lists(
    st.tuples(st.integers(0, 40), st.integers(-3, 12), st.integers(0, 4)),
    unique_by=lambda entry: entry[0],
    max_size=40,
)


def filled(entries: list[tuple[int, int, int]]) -> TurnOrder:
    order = TurnOrder()
    for seat, key, nonce in entries:
        order.push(seat, key, nonce)
    return order


def drain(order: TurnOrder) -> list[Turn]:
    popped = []
    while order:
        popped.append(order.pop())
    return popped


def ranks(turns: list[Turn]) -> list[tuple[int, int]]:
    return [(turn.key, turn.nonce) for turn in turns]


# -- order -----------------------------------------------------------------------------


@settings(PROPERTY, max_examples=300)
@given(ENTRIES)
def test_popping_everything_gives_the_turns_sorted_by_key_then_nonce(
    entries: list[tuple[int, int, int]],
) -> None:
    popped = drain(filled(entries))
    assert ranks(popped) == sorted((key, nonce) for _, key, nonce in entries)
    assert sorted((t.seat, t.key, t.nonce) for t in popped) == sorted(entries)


@settings(PROPERTY, max_examples=200)
@given(ENTRIES)
def test_building_from_turns_gives_the_same_order_as_pushing_them(
    entries: list[tuple[int, int, int]],
) -> None:
    built = TurnOrder(Turn(key, nonce, seat) for seat, key, nonce in entries)
    assert len(built) == len(entries)
    assert drain(built) == drain(filled(entries))


def test_equal_keys_are_broken_by_the_smaller_nonce() -> None:
    order = TurnOrder()
    order.push(seat=7, key=5, nonce=3)
    order.push(seat=8, key=5, nonce=1)
    order.push(seat=9, key=5, nonce=2)
    order.push(seat=1, key=6, nonce=0)  # a later key loses even with the smallest nonce
    assert [order.pop().seat for _ in range(4)] == [8, 9, 7, 1]


def test_the_nonce_defaults_to_the_seat() -> None:
    order = TurnOrder()
    for seat in (2, 0, 1):
        order.push(seat, key=0)
    assert order.peek() == Turn(key=0, nonce=0, seat=0)
    assert [order.pop().seat for _ in range(3)] == [0, 1, 2]


def test_an_empty_order_has_nothing_to_pop_or_peek() -> None:
    order = TurnOrder()
    assert len(order) == 0
    assert order.peek() is None
    assert order.turns() == []
    with pytest.raises(IndexError):
        order.pop()


def test_a_popped_seat_is_no_longer_waiting() -> None:
    order = filled([(0, 0, 0), (1, 0, 1)])
    assert 0 in order
    assert order.pop().seat == 0
    assert 0 not in order
    assert 1 in order
    assert "1" not in order  # not a seat at all
    assert None not in order


# -- seats in and out ------------------------------------------------------------------


def test_pushing_a_seat_that_is_already_waiting_raises_and_changes_nothing() -> None:
    order = filled([(0, 4, 0), (1, 2, 1)])
    before = order.turns()
    with pytest.raises(ValueError, match="seat 1"):
        order.push(1, key=0)
    assert order.turns() == before
    assert len(order) == 2


def test_building_with_a_seat_twice_raises() -> None:
    with pytest.raises(ValueError, match="seat 3"):
        TurnOrder([Turn(0, 0, 3), Turn(1, 1, 3)])


@settings(PROPERTY, max_examples=300)
@given(st.data(), ENTRIES.filter(bool))
def test_removing_any_seat_leaves_the_rest_in_order(
    data: st.DataObject, entries: list[tuple[int, int, int]]
) -> None:
    order = filled(entries)
    gone = data.draw(st.sampled_from([seat for seat, _, _ in entries]), label="gone")
    assert order.remove(gone) is True
    assert gone not in order
    assert order.remove(gone) is False
    rest = [entry for entry in entries if entry[0] != gone]
    assert len(order) == len(rest)
    assert ranks(drain(order)) == sorted((key, nonce) for _, key, nonce in rest)


@settings(PROPERTY, max_examples=200)
@given(st.data(), st.lists(st.integers(0, 1000), unique=True, min_size=1, max_size=40))
def test_removing_several_seats_leaves_the_rest_in_order(data: st.DataObject, keys: list[int]) -> None:
    # Distinct keys spread wide give the heap varied shapes; a hole filled from another branch
    # must be able to move up as well as down, which only some shapes show.
    order = filled([(seat, key, 0) for seat, key in enumerate(keys)])
    gone = data.draw(st.lists(st.sampled_from(range(len(keys))), unique=True), label="gone")
    for seat in gone:
        assert order.remove(seat) is True
    assert [turn.key for turn in drain(order)] == sorted(k for seat, k in enumerate(keys) if seat not in gone)


def test_removing_a_seat_whose_gap_is_filled_from_another_branch_keeps_the_order() -> None:
    # Pushed in this order, the keys sit in the array as written. Taking out the seat at tick 19
    # moves the last entry (tick 10) from the other branch into its place, under the seat at tick
    # 16: it must rise above it, not only sink, or tick 14 would play before tick 10.
    keys = [0, 16, 5, 19, 17, 14, 10]
    order = filled([(seat, key, seat) for seat, key in enumerate(keys)])
    assert order.remove(3) is True
    assert [turn.key for turn in drain(order)] == [0, 5, 10, 14, 16, 17]


def test_removing_a_seat_that_is_not_there_returns_false() -> None:
    order = filled([(0, 0, 0), (1, 3, 1)])
    assert order.remove(5) is False
    assert TurnOrder().remove(0) is False
    assert [turn.seat for turn in drain(order)] == [0, 1]


# Interleaved pushes, pops and removals against a plain list, sorted on demand.
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("push"), st.integers(0, 12), st.integers(-3, 12), st.integers(0, 3)),
        st.tuples(st.just("pop"), st.just(0), st.just(0), st.just(0)),
        st.tuples(st.just("remove"), st.integers(0, 12), st.just(0), st.just(0)),
    ),
    max_size=80,
)


@settings(PROPERTY, max_examples=300)
@given(OPS)
def test_any_mix_of_pushes_pops_and_removals_behaves_like_a_sorted_list(
    ops: list[tuple[str, int, int, int]],
) -> None:
    order = TurnOrder()
    model: dict[int, tuple[int, int]] = {}  # seat -> (key, nonce)

    def first() -> int:
        return min(model, key=lambda seat: (*model[seat], seat))

    for name, seat, key, nonce in ops:
        if name == "push":
            if seat in model:
                with pytest.raises(ValueError, match="already"):
                    order.push(seat, key, nonce)
            else:
                order.push(seat, key, nonce)
                model[seat] = (key, nonce)
        elif name == "pop":
            if model:
                expected = first()
                assert order.pop() == Turn(*model.pop(expected), expected)
            else:
                with pytest.raises(IndexError):
                    order.pop()
        else:
            assert order.remove(seat) is (model.pop(seat, None) is not None)
        assert len(order) == len(model)
        assert order.peek() == (Turn(*model[first()], first()) if model else None)
        assert all((seat in order) == (seat in model) for seat in range(13))
    assert [(t.seat, t.key, t.nonce) for t in drain(order)] == sorted(
        ((seat, *rank) for seat, rank in model.items()), key=lambda e: (e[1], e[2], e[0])
    )


# -- turns() ---------------------------------------------------------------------------


@settings(PROPERTY, max_examples=300)
@given(ENTRIES)
def test_turns_lists_the_pop_order_and_leaves_the_order_alone(entries: list[tuple[int, int, int]]) -> None:
    order = filled(entries)
    listed = order.turns()
    assert order.turns() == listed  # asking twice changes nothing
    assert len(order) == len(entries)
    listed.clear()  # a copy: the caller may do as it likes with it
    assert drain(order) == filled(entries).turns()


def test_turns_follows_the_seat_when_key_and_nonce_are_both_equal() -> None:
    # Not something a match does (its nonce is the seat), but the order stays total.
    order = filled([(5, 1, 0), (3, 1, 0), (4, 1, 0)])
    listed = order.turns()
    assert [turn.seat for turn in listed] == [3, 4, 5]
    assert drain(order) == listed


# -- speed and rounds ------------------------------------------------------------------


def test_step_divides_a_round_evenly_for_each_speed() -> None:
    assert [step(speed) for speed in (1, 2, 3, 4)] == [12, 6, 4, 3]
    for speed in (1, 2, 3, 4):
        assert step(speed) * speed == TICKS_PER_ROUND


@pytest.mark.parametrize("speed", [0, 5, -1, 12, True, 2.0])
def test_step_refuses_any_other_speed(speed: int) -> None:
    with pytest.raises(ValueError, match="speed"):
        step(speed)


def play(speeds: list[int], rounds: int, leave: dict[int, int] | None = None) -> list[Turn]:
    """Every turn of a match of ``rounds`` rounds; ``leave`` maps a seat to the turn after which it leaves."""
    order = TurnOrder(Turn(0, seat, seat) for seat in range(len(speeds)))
    played: list[Turn] = []
    while (head := order.peek()) is not None and head.key < rounds * TICKS_PER_ROUND:
        turn = order.pop()
        played.append(turn)
        order.push(turn.seat, turn.key + step(speeds[turn.seat]))
        for seat, after in (leave or {}).items():
            if len(played) == after:
                assert order.remove(seat) is True
    return played


def test_a_seat_with_speed_two_plays_twice_as_often_and_every_seat_plays_every_round() -> None:
    rounds = 10
    played = play([1, 2, 1], rounds)
    per_seat = Counter(turn.seat for turn in played)
    assert per_seat == {0: rounds, 1: 2 * rounds, 2: rounds}

    per_round = Counter((turn.key // TICKS_PER_ROUND, turn.seat) for turn in played)
    for r in range(rounds):
        assert per_round[r, 0] == 1
        assert per_round[r, 1] == 2
        assert per_round[r, 2] == 1

    # Within a round: all three at its first tick by seat number, then the fast seat again halfway.
    assert [(turn.key, turn.seat) for turn in played[:4]] == [(0, 0), (0, 1), (0, 2), (6, 1)]
    assert [turn.key for turn in played] == sorted(turn.key for turn in played)


def test_every_speed_plays_its_number_of_times_in_each_round() -> None:
    rounds = 6
    played = play([4, 3, 2, 1], rounds)
    per_round = Counter((turn.key // TICKS_PER_ROUND, turn.seat) for turn in played)
    assert per_round == {(r, seat): speed for r in range(rounds) for seat, speed in enumerate([4, 3, 2, 1])}


def test_a_seat_that_leaves_mid_match_never_plays_again_and_the_others_keep_their_order() -> None:
    speeds = [1, 2, 1, 3]
    whole = play(speeds, rounds=8)
    # Round 1 is 7 turns; round 2 opens at tick 12 with seats 0, 1, 2, 3. Seat 2 goes after the
    # 9th turn, while it waits in the middle of the order for its own turn at tick 12.
    leaves_after = 9
    cut = play(speeds, rounds=8, leave={2: leaves_after})

    assert cut[:leaves_after] == whole[:leaves_after]
    assert all(turn.seat != 2 for turn in cut[leaves_after:])
    assert cut[leaves_after:] == [turn for turn in whole[leaves_after:] if turn.seat != 2]
