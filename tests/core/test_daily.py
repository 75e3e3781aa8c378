"""The daily board's rules: a seed per UTC day, and a leaderboard that takes one scored try each."""

from __future__ import annotations

from datetime import date

import pytest

from wibble.core import GameDataError, RuleError
from wibble.core.daily import FIRST_DAY, Leaderboard, day_number, day_of, seed_of

DAY = date(2026, 11, 24)


def test_a_day_is_the_utc_date_and_its_number_counts_from_the_first_day() -> None:
    assert day_of(1_795_996_799.0) == date(2026, 11, 29)  # 23:59:59 UTC
    assert day_of(1_795_996_800.0) == date(2026, 11, 30)
    assert day_number(FIRST_DAY) == 1
    assert day_number(DAY) == 328


def test_each_day_has_its_own_seed_and_the_same_day_always_the_same() -> None:
    seeds = {seed_of(date.fromordinal(DAY.toordinal() + n)) for n in range(400)}
    assert len(seeds) == 400
    assert seed_of(DAY) == seed_of(date(2026, 11, 24))
    assert all(0 <= seed < 2**53 for seed in seeds)


def test_a_second_scored_try_and_a_busy_address_are_refused_and_change_nothing() -> None:
    board = Leaderboard(DAY)
    board.start("p1", "Ann", "g1", "192.0.2.1", 2)
    before = board.to_doc()
    with pytest.raises(RuleError, match="played"):
        board.start("p1", "Ann", "g9", "192.0.2.9", 2)
    board.start("p2", "Bo", "g2", "192.0.2.1", 2)
    with pytest.raises(RuleError) as refused:
        board.start("p3", "Cy", "g3", "192.0.2.1", 2)
    assert refused.value.code == "limit/daily"
    assert board.to_doc()["entries"].keys() == {"p1", "p2"}
    assert before["version"] == 1


def test_only_the_scored_game_of_a_try_sets_its_score_and_only_once() -> None:
    board = Leaderboard(DAY)
    board.start("p1", "Ann", "g1", "192.0.2.1", 10)
    assert board.finish("p1", "g-replay", 99, 9) is False
    assert board.finish("p1", "g1", 30, 4) is True
    assert board.finish("p1", "g1", 99, 9) is False
    assert board.finish("nobody", "g1", 99, 9) is False
    assert board.view("p1")["you"] == {"rank": 1, "name": "Ann", "score": 30, "words": 4}


def test_a_damaged_leaderboard_is_refused() -> None:
    doc = Leaderboard(DAY).to_doc()
    for damage in ({"version": -1}, {"entries": {"p": {"name": 3}}}, {"date": "yesterday"}):
        with pytest.raises(GameDataError):
            Leaderboard.from_doc({**doc, **damage})
