"""A sprint's pace, judged from the times the server stamped on its words."""

from __future__ import annotations

from wibble.core.pace import MOST_TILES, WINDOW, Pace, judge, peak, plays


def test_the_peak_is_the_busiest_window_of_tiles() -> None:
    assert peak([]) == 0
    assert peak([(0.0, 4)]) == 4
    # 0 s, 5 s and 9.9 s share a 10 s window; 10 s starts a new one without 0 s.
    assert peak([(0.0, 4), (5.0, 5), (9.9, 3), (10.0, 6)]) == 14
    assert peak([(30.0, 3), (1.0, 3), (2.0, 3)]) == 6  # in any order


def test_a_person_s_pace_is_human_and_a_solver_s_is_not() -> None:
    # A fast person: a 4-letter word every 2 s.
    person = [2.0 * n for n in range(1, 60)]
    assert judge(person, ["word"] * len(person)).human
    # A solver at the message rate limit: 88 five-letter words in 20 s.
    solver = [20 * n / 88 for n in range(88)]
    pace = judge(solver, ["words"] * 88)
    assert not pace.human
    assert pace.peak > MOST_TILES
    assert Pace(MOST_TILES).human  # at the bound, still a person
    assert Pace(MOST_TILES + 1, window=WINDOW).human is False


def test_times_go_with_the_last_words_when_a_sprint_kept_fewer_times_than_words() -> None:
    assert plays([3.0], ["cat", "horse"]) == [(3.0, 5)]
    assert plays([], ["cat"]) == []
    assert plays([1.0, 2.0], ["cat"]) == [(2.0, 3)]  # never more times than words
