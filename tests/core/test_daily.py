"""The daily board's rules: a seed per UTC day, and a leaderboard that takes one scored try each."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from wibble.core import GameDataError, RuleError
from wibble.core.daily import FIRST_DAY, PLACES, DailyKey, Leaderboard, day_number, day_of, seed_of
from wibble.core.pace import MOST_TILES, Pace

DAY = date(2026, 11, 24)
T = 1_795_500_000.0  # a moment on DAY


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


def test_a_hosts_key_draws_boards_nobody_can_work_out_from_the_code_from_its_first_day_on() -> None:
    day, before, after = DAY, DAY - timedelta(days=1), DAY + timedelta(days=1)
    key = DailyKey.make(bytes(range(32)), T, day, played_today=False)
    assert key.since == day
    assert key.seed(day) != seed_of(day)
    assert key.seed(after) != seed_of(after)
    assert key.seed(before) == seed_of(before)  # a day gone by keeps the board it had
    assert DailyKey.make(bytes(32), T, day, played_today=False).seed(after) != key.seed(after)  # another host
    # A store whose today was already played (before it had a key) keeps today's board.
    late = DailyKey.make(bytes(range(32)), T, day, played_today=True)
    assert late.since == after
    assert late.seed(day) == seed_of(day)
    assert late.seed(after) == key.seed(after)
    assert DailyKey.from_doc(key.to_doc()) == key
    # Two keys one store came to hold (the first lost, another made): every process keeps the
    # one made first, whatever days they draw from.
    later = DailyKey.make(bytes(32), T + 60, day - timedelta(days=1), played_today=False)
    assert later.first_of(key) == key.first_of(later) == key
    twin = DailyKey.make(bytes(32), T, day, played_today=False)
    assert twin.first_of(key) == key.first_of(twin) == twin  # made at the same moment: by their bytes
    with pytest.raises(ValueError, match="32 bytes"):
        DailyKey.make(b"short", T, day, played_today=False)


@pytest.mark.parametrize(
    "doc",
    [
        {},
        {"secret": "zz", "since": "2026-11-24"},
        {"secret": "ab" * 8, "since": "2026-11-24"},
        {"secret": "ab" * 32},
    ],
)
def test_a_damaged_key_is_a_data_error(doc: dict[str, object]) -> None:
    with pytest.raises(GameDataError):
        DailyKey.from_doc(doc)


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
    assert board.view("p1")["you"] == {"rank": 1, "name": "Ann", "score": 30, "words": 4, "ranked": True}


def test_a_damaged_leaderboard_is_refused() -> None:
    doc = Leaderboard(DAY).to_doc()
    for damage in ({"version": -1}, {"entries": {"p": {"name": 3}}}, {"date": "yesterday"}):
        with pytest.raises(GameDataError):
            Leaderboard.from_doc({**doc, **damage})


def test_a_try_faster_than_a_person_is_kept_and_shown_to_its_player_but_not_ranked() -> None:
    board = Leaderboard(DAY)
    board.start("p1", "Ann", "g1", "192.0.2.1", 10)
    board.start("bot", "Bot", "g2", "192.0.2.2", 10)
    board.finish("p1", "g1", 30, 4, Pace(40))
    board.finish("bot", "g2", 1000, 88, Pace(MOST_TILES * 3))
    assert [s.name for _, s in board.standings()] == ["Ann"]
    view = board.view("bot")
    assert view["top"] == [{"rank": 1, "name": "Ann", "score": 30, "words": 4}]
    assert view["players"] == 1
    assert view["you"] == {
        "rank": None,
        "name": "Bot",
        "score": 1000,
        "words": 88,
        "ranked": False,
        "why": "pace",
        "pace": MOST_TILES * 3,
    }
    again = Leaderboard.from_doc(board.to_doc())
    assert again.view("bot") == view


def test_one_address_holds_its_two_best_places_and_a_better_third_try_takes_one() -> None:
    assert PLACES == 2
    board = Leaderboard(DAY)
    for n, score in enumerate((30, 20, 10)):
        board.start(f"p{n}", f"P{n}", f"g{n}", "198.51.100.7", 10)
        board.finish(f"p{n}", f"g{n}", score, 3, Pace(20))
    board.start("q", "Q", "gq", "203.0.113.5", 10)
    board.finish("q", "gq", 5, 1, Pace(20))
    assert [(s.rank, s.name) for _, s in board.standings()] == [(1, "P0"), (2, "P1"), (3, "Q")]
    assert board.view("p2")["you"]["why"] == "address"
    board.start("p3", "P3", "g3", "198.51.100.7", 10)
    board.finish("p3", "g3", 25, 3, Pace(20))
    assert [s.name for _, s in board.standings()] == ["P0", "P3", "Q"]
    assert board.why_unranked("p1") == "address"
    assert board.why_unranked("p3") is None


def test_a_leaderboard_kept_before_pace_and_places_reads_as_ranked_tries_of_separate_addresses() -> None:
    old = {
        "date": DAY.isoformat(),
        "version": 4,
        "scored": 3,
        "entries": {
            f"p{n}": {"name": f"P{n}", "game": f"g{n}", "score": 10 * n, "words": n, "order": n}
            for n in (1, 2, 3)
        },
        "addresses": {"k": 3},
    }
    board = Leaderboard.from_doc(old)
    assert [s.name for _, s in board.standings()] == ["P3", "P2", "P1"]
    assert board.view("p1")["you"] == {"rank": 3, "name": "P1", "score": 10, "words": 1, "ranked": True}
    # It goes on under the new rules, and is written back whole.
    board.start("p4", "P4", "g4", "192.0.2.1", 10)
    doc = board.to_doc()
    assert doc["entries"]["p1"]["ranked"] is True
    assert doc["entries"]["p1"]["address"] is None
    assert Leaderboard.from_doc(doc).to_doc() == doc
