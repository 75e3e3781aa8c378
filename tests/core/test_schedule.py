"""The scheduler: deadlines that move and vanish, checked against a dict sorted on demand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wibble.core.schedule import Scheduler

# Deterministic examples: a property that fails must fail on every run, not now and then.
PROPERTY = settings(derandomize=True, database=None, deadline=None)

KEYS = st.sampled_from(["turn", "round", "grace:ann", "grace:bob", "bonus", "ping", "idle"])
TIMES = st.integers(0, 12).map(float) | st.floats(0, 12, allow_nan=False)  # whole numbers make ties common
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("set"), KEYS, TIMES),
        st.tuples(st.just("cancel"), KEYS, st.just(0.0)),
        st.tuples(st.just("due"), st.just(""), TIMES),
    ),
    max_size=80,
)


class Model:
    """What a scheduler should do, the slow and obvious way."""

    def __init__(self) -> None:
        self.deadlines: dict[str, tuple[float, int]] = {}  # key -> (when, order of setting)
        self.sets = 0

    def set(self, key: str, when: float) -> None:
        self.deadlines[key] = (when, self.sets)
        self.sets += 1

    def cancel(self, key: str) -> bool:
        return self.deadlines.pop(key, None) is not None

    def ordered(self) -> list[str]:
        return sorted(self.deadlines, key=lambda key: self.deadlines[key])

    def due(self, now: float) -> list[str]:
        fired = [key for key in self.ordered() if self.deadlines[key][0] <= now]
        for key in fired:
            del self.deadlines[key]
        return fired


@settings(PROPERTY, max_examples=400)
@given(OPS)
def test_any_sequence_of_sets_cancels_and_dues_matches_the_model(ops: list[tuple[str, str, float]]) -> None:
    scheduler: Scheduler[str] = Scheduler()
    model = Model()
    for name, key, when in ops:
        if name == "set":
            scheduler.set(key, when)
            model.set(key, when)
        elif name == "cancel":
            assert scheduler.cancel(key) is model.cancel(key)
        else:
            assert scheduler.due(when) == model.due(when)
        assert len(scheduler) == len(model.deadlines)
        head = model.ordered()[0] if model.deadlines else None
        assert scheduler.peek() == (None if head is None else (head, model.deadlines[head][0]))
        for k in ["turn", "round", "grace:ann", "grace:bob", "bonus", "ping", "idle"]:
            assert (k in scheduler) == (k in model.deadlines)
            assert scheduler.when(k) == (model.deadlines[k][0] if k in model.deadlines else None)
    assert scheduler.due(math.inf) == model.ordered()
    assert len(scheduler) == 0


@settings(PROPERTY, max_examples=200)
@given(st.data(), st.lists(st.integers(0, 1000).map(float), unique=True, min_size=1, max_size=40))
def test_cancelling_several_deadlines_leaves_the_rest_in_order(
    data: st.DataObject, times: list[float]
) -> None:
    # Many deadlines of many shapes, then cancels: the gap a cancel leaves is filled from the end of
    # the heap, and only some shapes need the filler to move up rather than down.
    scheduler: Scheduler[int] = Scheduler()
    for key, when in enumerate(times):
        scheduler.set(key, when)
    gone = data.draw(st.lists(st.sampled_from(range(len(times))), unique=True), label="gone")
    for key in gone:
        assert scheduler.cancel(key) is True
    rest = [key for key in range(len(times)) if key not in gone]
    assert scheduler.due(math.inf) == sorted(rest, key=lambda key: (times[key], key))


def filled(*deadlines: tuple[str, float]) -> Scheduler[str]:
    scheduler: Scheduler[str] = Scheduler()
    for key, when in deadlines:
        scheduler.set(key, when)
    return scheduler


def test_due_hands_out_what_has_passed_earliest_first_and_keeps_the_rest() -> None:
    scheduler = filled(("c", 3.0), ("a", 1.0), ("d", 4.0), ("b", 2.0))
    assert scheduler.due(2.5) == ["a", "b"]
    assert scheduler.peek() == ("c", 3.0)
    assert scheduler.due(3.0) == ["c"]  # exactly on time counts as due
    assert len(scheduler) == 1
    assert "c" not in scheduler
    assert scheduler.due(10.0) == ["d"]


def test_due_with_nothing_due_returns_an_empty_list() -> None:
    scheduler = filled(("a", 5.0))
    assert scheduler.due(4.9) == []
    assert len(scheduler) == 1
    assert Scheduler[str]().due(100.0) == []


def test_an_empty_scheduler_has_no_head_and_knows_no_key() -> None:
    scheduler: Scheduler[str] = Scheduler()
    assert scheduler.peek() is None
    assert scheduler.when("a") is None
    assert "a" not in scheduler
    assert [] not in scheduler  # an unhashable object is simply not a key
    assert scheduler.cancel("a") is False
    assert len(scheduler) == 0


def test_moving_a_deadline_earlier_brings_it_forward() -> None:
    scheduler = filled(("a", 1.0), ("b", 2.0), ("c", 3.0), ("d", 4.0), ("e", 5.0))
    scheduler.set("e", 0.5)
    assert scheduler.peek() == ("e", 0.5)
    assert scheduler.when("e") == 0.5
    assert len(scheduler) == 5
    assert scheduler.due(10.0) == ["e", "a", "b", "c", "d"]


def test_moving_a_deadline_later_pushes_it_back() -> None:
    scheduler = filled(("a", 1.0), ("b", 2.0), ("c", 3.0), ("d", 4.0), ("e", 5.0))
    scheduler.set("a", 3.5)  # a turn extended by a bonus
    assert scheduler.peek() == ("b", 2.0)
    assert scheduler.due(3.0) == ["b", "c"]
    assert scheduler.due(10.0) == ["a", "d", "e"]


def test_cancelling_the_head_makes_the_next_deadline_the_head() -> None:
    scheduler = filled(("a", 1.0), ("b", 2.0), ("c", 3.0))
    assert scheduler.cancel("a") is True
    assert scheduler.peek() == ("b", 2.0)
    assert scheduler.cancel("a") is False
    assert scheduler.due(10.0) == ["b", "c"]


def test_cancelling_a_deadline_in_the_middle_leaves_the_others_in_order() -> None:
    scheduler = filled(*((f"k{i}", float(i)) for i in (7, 3, 9, 1, 5, 8, 2, 6, 4, 0)))
    assert scheduler.cancel("k5") is True
    assert scheduler.cancel("k8") is True
    assert "k5" not in scheduler
    assert scheduler.when("k5") is None
    assert scheduler.due(100.0) == [f"k{i}" for i in (0, 1, 2, 3, 4, 6, 7, 9)]


def test_cancelling_a_deadline_whose_gap_is_filled_from_another_branch_keeps_the_order() -> None:
    # Set in this order, the deadlines sit in the heap as written. Cancelling "d" (19) moves the
    # last one, "g" (10), from the other branch into its place under "b" (16): it must rise.
    scheduler = filled(("a", 0), ("b", 16), ("c", 5), ("d", 19), ("e", 17), ("f", 14), ("g", 10))
    assert scheduler.cancel("d") is True
    assert scheduler.due(100) == ["a", "c", "g", "f", "b", "e"]


def test_deadlines_at_the_same_time_fall_due_in_the_order_they_were_set() -> None:
    scheduler = filled(("later", 2.0), ("first", 1.0), ("second", 1.0), ("third", 1.0))
    assert scheduler.due(1.0) == ["first", "second", "third"]

    again = filled(("x", 1.0), ("y", 1.0), ("z", 1.0))
    again.set("x", 1.0)  # set again at the same time: now it was set last
    assert again.due(1.0) == ["y", "z", "x"]


def test_keys_can_be_any_hashable_value() -> None:
    scheduler: Scheduler[tuple[str, int]] = Scheduler()
    scheduler.set(("turn", 2), 30.0)
    scheduler.set(("grace", 1), 10.0)
    assert ("grace", 1) in scheduler
    assert scheduler.peek() == (("grace", 1), 10.0)
    assert scheduler.due(30.0) == [("grace", 1), ("turn", 2)]


def test_a_deadline_that_is_not_a_number_is_refused() -> None:
    scheduler = filled(("a", 1.0))
    with pytest.raises(ValueError, match="not a number"):
        scheduler.set("b", math.nan)
    with pytest.raises(ValueError, match="not a number"):
        scheduler.set("a", math.nan)
    assert scheduler.when("a") == 1.0
    assert len(scheduler) == 1
