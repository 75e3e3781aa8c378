"""A match as players meet it: five rounds of turns, multipliers, gems and powers, a timer, an end screen.

Every command names its seat. A refused command raises ``RuleError`` and leaves the
match exactly as it was (its document, compared as JSON text, is unchanged); an
accepted committed one adds one to ``version``. The match is data: its document,
saved as JSON at any moment and restored, plays on exactly as the original would.
"""

from __future__ import annotations

import copy
import json
import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.core.matches import (
    NOW,
    P,
    drag,
    humans,
    letters,
    new_match,
    of_kind,
    only,
    pass_round,
    play,
    play_best,
    refused,
    saved,
    through_json,
)
from tests.support import shipped_list
from wibble.core import GameDataError, Pos, RuleError, WordList
from wibble.core.match import (
    BoardChanged,
    ChainMoved,
    Costs,
    GemsChanged,
    HintGiven,
    Match,
    MatchEvent,
    MatchOver,
    Phase,
    Played,
    TurnChanged,
    WordRefused,
)
from wibble.core.match import restore as restore_match

SEED = 42
PROPERTY = settings(derandomize=True, database=None, deadline=None)


@pytest.fixture(scope="module")
def english() -> WordList:
    return shipped_list("en")


def other_letter(match: Match, pos: Pos) -> str:
    """A letter of the list that ``pos`` does not show (for a swap)."""
    return "q" if match.board[pos].symbol != "q" else "z"


def non_word(match: Match, through: set[Pos] | None = None) -> list[Pos]:
    """Three tiles in a line (crossing a tile of ``through``, if given) that do not spell a word."""
    lines = [[P(r, c + i) for i in range(3)] for r in range(5) for c in range(3)]
    lines += [[P(r + i, c) for i in range(3)] for r in range(3) for c in range(5)]
    for path in lines:
        word = "".join(match.board[pos].symbol for pos in path)
        if word not in match.words.trie and (through is None or through & set(path)):
            return path
    raise AssertionError("every line spells a word")


def is_chain(path: tuple[Pos, ...] | list[Pos]) -> bool:
    return len(set(path)) == len(path) and all(a.touches(b) for a, b in zip(path, path[1:], strict=False))


COMMANDS: dict[str, Callable[[Match, int], list[MatchEvent]]] = {
    "press": lambda match, seat: match.press(seat, P(0, 0)),
    "enter": lambda match, seat: match.enter(seat, P(1, 1)),
    "release": lambda match, seat: match.release(seat, NOW),
    "cancel": lambda match, seat: match.cancel(seat),
    "pass": lambda match, seat: match.pass_turn(seat, NOW),
    "shuffle": lambda match, seat: match.shuffle(seat),
    "swap": lambda match, seat: match.swap(seat, P(2, 2), other_letter(match, P(2, 2))),
    "hint": lambda match, seat: match.hint(seat),
    "extend": lambda match, seat: match.extend(seat),
}


# -- a whole match -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def best_play() -> tuple[Match, list[tuple[int, int]], list[MatchEvent]]:
    """A match of two seats that both play the best word every turn: the match, (round, seat) per turn,
    and the last turn's events."""
    match = new_match(SEED, round_pause=0)
    turns: list[tuple[int, int]] = []
    events: list[MatchEvent] = []
    while match.phase is Phase.PLAYING and len(turns) < 20:
        turns.append((match.round, match.turn))
        events = play_best(match)
    return match, turns, events


def test_a_match_is_five_rounds_of_one_turn_per_seat_in_turn_then_over(
    best_play: tuple[Match, list[tuple[int, int]], list[MatchEvent]],
) -> None:
    match, turns, last = best_play

    assert turns == [(round_no, seat) for round_no in range(1, 6) for seat in (0, 1)]
    assert match.phase is Phase.OVER
    assert only(last, MatchOver).summary == match.summary()
    assert only(last, TurnChanged).phase == "over"
    assert all(seat.score > 0 for seat in match.seats)
    assert sum(seat.score for seat in match.seats) == sum(t["played"]["points"] for t in match.history)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("seat", [0, 1])
def test_once_the_match_is_over_every_command_is_refused(
    best_play: tuple[Match, list[tuple[int, int]], list[MatchEvent]], command: str, seat: int
) -> None:
    match = best_play[0]

    with refused(match, "match/over"):
        COMMANDS[command](match, seat)


def test_once_the_match_is_over_the_timers_change_nothing(
    best_play: tuple[Match, list[tuple[int, int]], list[MatchEvent]],
) -> None:
    match = best_play[0]
    before = saved(match)

    assert match.timeout(match.turn_no, NOW + 10_000) == []
    assert match.next_round(NOW + 10_000) == []
    assert saved(match) == before


# -- versions: committed actions count, a drag does not --------------------------------------


def test_the_version_grows_by_one_per_committed_action_and_not_during_a_drag() -> None:
    match = new_match(SEED, start_gems=10, turn_seconds=30, round_pause=3)
    best = match.best()
    assert best is not None
    assert len(best.path) >= 3

    drag(match, 0, best.path)
    match.enter(0, best.path[-2])  # back one tile
    match.cancel(0)
    refusal = drag(match, 0, non_word(match)) + match.release(0, NOW)  # not a word: the turn goes on
    assert only(refusal, WordRefused).result == "not_a_word"
    assert (match.version, match.turn) == (0, 0)

    versions = []
    for command in (
        lambda: play(match, best.path),  # seat 0's word ends its turn
        lambda: match.shuffle(1),
        lambda: match.swap(1, P(0, 0), other_letter(match, P(0, 0))),
        lambda: match.hint(1),
        lambda: match.extend(1),
        lambda: match.pass_turn(1, NOW),  # the round is over: a pause
        lambda: match.next_round(NOW + 3),
        lambda: match.timeout(match.turn_no, NOW + 3 + 30),
    ):
        events = command()
        versions.append(match.version)
        changes = [e for e in events if hasattr(e, "version") and not isinstance(e, ChainMoved)]
        assert all(e.version == match.version for e in changes), events
        # A drag is on the version it was dragged on: before the commit it leads to, or after
        # the swap it was respelled by (a page past it drops it).
        assert all(
            e.version in (match.version - 1, match.version) for e in events if isinstance(e, ChainMoved)
        )
    assert versions == [1, 2, 3, 4, 5, 6, 7, 8]


def test_a_round_that_starts_without_a_pause_is_a_commit_of_its_own() -> None:
    match = new_match(SEED, round_pause=0)
    play_best(match)
    assert match.version == 1

    events = play_best(match)  # the last turn of round 1: the word, then round 2 at once

    assert match.version == 3
    assert only(events, Played).version == 2
    assert [(e.reason, e.version) for e in of_kind(events, BoardChanged)] == [("refill", 2), ("round", 3)]
    assert only(events, TurnChanged).version == 3


# -- whose turn --------------------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("dragging", [False, True], ids=["idle", "mid-drag"])
def test_a_seat_cannot_act_out_of_turn(command: str, dragging: bool) -> None:
    match = new_match(SEED, start_gems=10, turn_seconds=30)
    if dragging:
        drag(match, 0, [P(1, 1), P(1, 2)])

    with refused(match, "turn/not_your_turn"):
        COMMANDS[command](match, 1)


def test_a_seat_that_does_not_exist_cannot_act() -> None:
    match = new_match(SEED)

    for seat in (2, -1):
        with refused(match, "match/bad_seat"):
            match.press(seat, P(0, 0))


# -- gems ---------------------------------------------------------------------------------------


def gem_tiles(match: Match) -> set[Pos]:
    """The tiles that show a gem."""
    return {P(r, c) for r, row in enumerate(match.tiles()) for c, tile in enumerate(row) if tile["gem"]}


def test_a_new_match_has_ten_gem_tiles_and_every_seat_three_gems() -> None:
    match = new_match(SEED)

    assert len(gem_tiles(match)) == 10
    assert [seat.gems for seat in match.seats] == [3, 3]


def test_a_word_earns_one_gem_per_gem_tile_it_crosses() -> None:
    match = new_match(SEED)
    gems = gem_tiles(match)
    found = next(f for f in match.solve() if len(gems & set(f.path)) >= 2)
    crossed = len(gems & set(found.path))

    events = play(match, found.path)

    assert only(events, Played).gems_earned == crossed
    assert only(events, GemsChanged) == GemsChanged(0, 3 + crossed, match.version)
    assert [seat.gems for seat in match.seats] == [3 + crossed, 3]
    assert len(gem_tiles(match)) == 10  # topped back up


@pytest.mark.parametrize(("start", "earned"), [(9, 1), (10, 0)])
def test_gems_stop_at_the_cap_of_ten(start: int, earned: int) -> None:
    match = new_match(SEED, start_gems=start)
    gems = gem_tiles(match)
    found = next(f for f in match.solve() if len(gems & set(f.path)) >= 2)

    events = play(match, found.path)

    assert only(events, Played).gems_earned == earned
    assert match.seats[0].gems == 10


def test_a_chain_that_is_not_a_word_earns_no_gem() -> None:
    match = new_match(SEED)
    path = non_word(match, through=gem_tiles(match))

    drag(match, 0, path)
    events = match.release(0, NOW)

    assert only(events, WordRefused).result == "not_a_word"
    assert match.seats[0].gems == 3
    assert gem_tiles(match) & set(path)  # the gems are still there to take


POWERS: dict[str, tuple[Callable[[Match], list[MatchEvent]], int]] = {
    "shuffle": (lambda match: match.shuffle(0), 1),
    "swap": (lambda match: match.swap(0, P(0, 0), other_letter(match, P(0, 0))), 3),
    "hint": (lambda match: match.hint(0), 4),
    "extend": (lambda match: match.extend(0), 1),
}


@pytest.mark.parametrize("power", POWERS)
def test_each_power_costs_its_gems_and_keeps_the_turn(power: str) -> None:
    use, cost = POWERS[power]
    match = new_match(SEED, start_gems=10, turn_seconds=30)

    events = use(match)

    assert match.seats[0].gems == 10 - cost
    assert events[-1] == GemsChanged(0, 10 - cost, match.version)
    assert (match.turn, match.turn_no, match.seats[1].gems) == (0, 1, 10)


@pytest.mark.parametrize("power", POWERS)
def test_a_power_the_seat_cannot_afford_is_refused_and_changes_nothing(power: str) -> None:
    use, cost = POWERS[power]
    match = new_match(SEED, start_gems=cost - 1, turn_seconds=30)

    with refused(match, "gems/not_enough"):
        use(match)


def test_what_a_power_costs_is_a_setting() -> None:
    match = new_match(SEED, start_gems=3, costs=Costs(shuffle=2))

    match.shuffle(0)
    assert match.seats[0].gems == 1
    with refused(match, "gems/not_enough"):
        match.shuffle(0)


# -- shuffle --------------------------------------------------------------------------------------


def marks(match: Match) -> list[list[tuple[Any, Any, Any]]]:
    """What lies on each tile besides its letter, as the page shows it."""
    return [[(t["mult"], t["word_mult"], t["gem"]) for t in row] for row in match.tiles()]


def test_shuffle_keeps_the_letters_and_where_the_multipliers_and_gems_are() -> None:
    match = new_match(SEED, round_pause=0)
    pass_round(match)  # round 2: the 2x tile is on the board too
    before_letters, before_marks = letters(match), marks(match)

    events = match.shuffle(match.turn)

    assert Counter(letters(match)) == Counter(before_letters)
    assert letters(match) != before_letters
    assert marks(match) == before_marks
    assert only(events, BoardChanged).reason == "shuffle"
    assert match.words_left == len(match.solve())


def test_shuffle_mid_drag_drops_the_chain() -> None:
    match = new_match(SEED)
    drag(match, 0, [P(0, 0), P(0, 1), P(1, 1)])

    events = match.shuffle(0)

    assert match.chain == ()
    moved = only(events, ChainMoved)
    assert (moved.seat, moved.chain, moved.word, moved.points, moved.status) == (0, (), "", 0, "none")
    match.press(0, P(4, 4))  # the turn goes on, with a fresh drag


# -- swap -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("symbol", ["1", "é", "", "ab", " ", "?"])
def test_swap_refuses_a_letter_that_is_not_in_the_list(symbol: str) -> None:
    match = new_match(SEED)

    with refused(match, "swap/bad_letter"):
        match.swap(0, P(0, 0), symbol)


def test_swap_refuses_the_letter_the_tile_already_shows_and_tiles_off_the_board() -> None:
    match = new_match(SEED)

    with refused(match, "swap/same_letter"):
        match.swap(0, P(0, 0), match.board[P(0, 0)].symbol)
    with refused(match, "move/off_board"):
        match.swap(0, P(5, 0), "q")


def test_swap_mid_drag_changes_the_chains_word_and_letting_go_plays_the_new_word() -> None:
    match = new_match(SEED)
    trie = match.words.trie
    # A word on the board that a one-letter swap turns into another word.
    found, index, symbol = next(
        (f, i, s)
        for f in match.solve()
        for i in range(len(f.word))
        for s in "abcdefghijklmnopqrstuvwxyz"
        if s != f.word[i] and f.word[:i] + s + f.word[i + 1 :] in trie
    )
    new_word = found.word[:index] + symbol + found.word[index + 1 :]
    drag(match, 0, found.path)

    events = match.swap(0, found.path[index], symbol)

    assert match.chain == found.path
    assert match.word == new_word
    moved = only(events, ChainMoved)
    assert (moved.word, moved.chain, moved.status) == (new_word, found.path, "word")
    assert moved.points == match.path_score(found.path).points
    # On the swap's version, told after it: a page that took the swap drops no respelled drag.
    assert moved.version == match.version == only(events, GemsChanged).version
    assert events.index(moved) > events.index(only(events, GemsChanged))
    [tile] = only(events, BoardChanged).changed
    swapped = found.path[index]
    assert (tile["row"], tile["col"], tile["letter"]) == (swapped.row, swapped.col, symbol.upper())
    assert match.seats[0].gems == 0

    played = only(match.release(0, NOW), Played)
    assert (played.word, played.path) == (new_word, found.path)


def test_after_a_swap_words_left_counts_the_words_on_the_new_board() -> None:
    match = new_match(SEED)
    before = match.words_left

    events = match.swap(0, P(2, 2), other_letter(match, P(2, 2)))

    now = len(match.solve())
    assert now != before  # this swap changes how many words there are
    assert only(events, BoardChanged).words_left == match.words_left == now


# -- hint ------------------------------------------------------------------------------------------


def test_a_hint_is_the_best_word_on_the_board_with_a_path_that_scores_it() -> None:
    match = new_match(SEED, start_gems=4, round_pause=0)
    pass_round(match)  # round 2: paths through the 2x tile and the DL/TL score differently
    seat = match.turn

    found = only(match.hint(seat), HintGiven).found

    assert found is not None
    assert found.score == match.path_score(found.path).points == max(f.score for f in match.solve())
    assert "".join(match.board[pos].symbol for pos in found.path) == found.word
    assert is_chain(found.path)
    assert (match.turn, match.seats[seat].gems) == (seat, 0)  # the turn goes on


def test_the_best_word_of_every_turn_of_a_match_is_the_best_any_path_scores() -> None:
    match = new_match(SEED, round_pause=0)
    while match.phase is Phase.PLAYING:
        for found in match.solve()[:25]:
            assert match.path_score(found.path).points == found.score
            assert is_chain(found.path)
        play_best(match)


def test_the_best_word_searched_alone_is_the_first_of_the_whole_search() -> None:
    # Each release asks for the turn's best word without solving the board whole: it must be
    # the very word, path and points the whole search puts first, multipliers and all.
    from wibble.core.solver import solve as fresh_solve

    match = new_match(SEED, round_pause=0)
    turns = 0
    while match.phase is Phase.PLAYING:
        match._solved = None  # nothing kept from an earlier search of this board
        alone = match.best()
        values = [match.specials.value(P(r, c), match.board[P(r, c)]) for r in range(5) for c in range(5)]
        whole = fresh_solve(match.board, match.words, values, match.settings.scoring)
        assert alone == (whole[0] if whole else None)
        assert match.solve()[0] == match.best() == alone  # and from the kept search
        play_best(match)
        turns += 1
    assert turns > 5


# -- time -----------------------------------------------------------------------------------------


def test_extend_on_an_untimed_turn_is_refused() -> None:
    match = new_match(SEED)

    assert match.deadline is None
    with refused(match, "turn/untimed"):
        match.extend(0)


def test_a_timed_turn_has_a_deadline_and_extend_adds_fifteen_seconds() -> None:
    match = new_match(SEED, turn_seconds=30, now=NOW)
    assert match.deadline == NOW + 30

    events = match.extend(0)

    assert match.deadline == NOW + 45
    assert only(events, TurnChanged).deadline == NOW + 45
    assert (match.turn, match.turn_no) == (0, 1)


def test_a_timer_that_fires_early_or_for_an_ended_turn_changes_nothing() -> None:
    match = new_match(SEED, turn_seconds=30, now=NOW)
    match.extend(0)
    before = saved(match)

    assert match.timeout(1, NOW + 30) == []  # the deadline before the extension
    assert match.timeout(1, NOW + 44.9) == []
    assert match.timeout(2, NOW + 45) == []  # a turn that has not begun
    assert saved(match) == before

    events = match.timeout(1, NOW + 45)

    changed = only(events, TurnChanged)
    assert (changed.turn, changed.turn_no, changed.passed, changed.deadline) == (1, 2, "timeout", NOW + 75)
    assert match.history[-1]["ended"] == "timed_out"
    after = saved(match)
    assert match.timeout(1, NOW + 1_000) == []  # the old turn's timer, late
    assert saved(match) == after


def test_a_turn_that_times_out_mid_drag_loses_the_chain() -> None:
    match = new_match(SEED, turn_seconds=30, now=NOW)
    drag(match, 0, [P(0, 0), P(0, 1)])

    events = match.timeout(1, NOW + 30)

    assert match.chain == ()
    assert only(events, ChainMoved).chain == ()
    assert (match.turn, match.seats[0].score) == (1, 0)


def test_a_new_turn_after_a_word_gets_its_own_deadline() -> None:
    match = new_match(SEED, turn_seconds=30, now=NOW)

    events = play_best(match, now=NOW + 12)

    assert only(events, TurnChanged).deadline == match.deadline == NOW + 12 + 30


# -- rounds ---------------------------------------------------------------------------------------


def word_mult_tiles(match: Match) -> list[Pos]:
    return [P(r, c) for r, row in enumerate(match.tiles()) for c, tile in enumerate(row) if tile["word_mult"]]


def test_after_a_pause_between_rounds_round_two_brings_the_2x_tile() -> None:
    match = new_match(SEED, round_pause=3)
    assert word_mult_tiles(match) == []
    play_best(match, now=NOW)
    assert word_mult_tiles(match) == []  # none all of round 1

    events = play_best(match, now=NOW + 10)

    changed = only(events, TurnChanged)
    assert (changed.phase, changed.round, changed.turn, changed.deadline) == (
        "between_rounds",
        1,
        0,
        NOW + 13,
    )
    assert match.phase is Phase.BETWEEN
    for command in COMMANDS:
        with refused(match, "turn/between_rounds"):
            COMMANDS[command](match, 0)
    before = saved(match)
    assert match.next_round(NOW + 12.9) == []
    assert match.timeout(match.turn_no, NOW + 100) == []
    assert saved(match) == before
    letter_mult = match.specials.letter_mult

    events = match.next_round(NOW + 13)

    assert (match.round, match.phase, match.turn) == (2, Phase.PLAYING, 0)
    assert only(events, BoardChanged).reason == "round"
    assert len(word_mult_tiles(match)) == 1
    assert match.specials.letter_mult is not None
    assert letter_mult is not None
    assert match.specials.letter_mult[0] != letter_mult[0]  # the letter multiplier moved too
    assert match.next_round(NOW + 100) == []  # the pause is over: a late timer changes nothing


@pytest.mark.parametrize(
    ("speeds", "order"),
    [((1, 2), [0, 1, 1]), ((2, 1), [0, 1, 0]), ((1, 1, 2), [0, 1, 2, 2])],
)
def test_a_seat_of_speed_two_plays_twice_a_round(speeds: tuple[int, ...], order: list[int]) -> None:
    match = new_match(SEED, seats=humans(*speeds), round_pause=0)
    turns = []
    while match.phase is Phase.PLAYING:
        turns.append((match.round, match.turn))
        match.pass_turn(match.turn, NOW)

    assert turns == [(round_no, seat) for round_no in range(1, 6) for seat in order]


# -- the end screen --------------------------------------------------------------------------------


def test_the_summary_ranks_the_seats_and_lists_every_turn_beside_the_best_word() -> None:
    match = new_match(SEED, round_pause=0)
    while match.phase is Phase.PLAYING:
        found = match.solve()
        play(match, (found[0] if match.turn == 0 else found[-1]).path)  # seat 1 plays the weakest word

    summary = match.summary()

    scores = [seat.score for seat in match.seats]
    assert scores[0] > scores[1]
    assert summary["ranking"] == [
        {"seat": 0, "rank": 1, "score": scores[0]},
        {"seat": 1, "rank": 2, "score": scores[1]},
    ]
    turns = summary["turns"]
    assert [(t["round"], t["seat"]) for t in turns] == [(r, s) for r in range(1, 6) for s in (0, 1)]
    assert all(t["best"]["points"] >= t["played"]["points"] for t in turns)
    assert any(t["best"]["points"] > t["played"]["points"] for t in turns if t["seat"] == 1)
    for seat in (0, 1):
        played = [t["played"] for t in turns if t["seat"] == seat]
        assert sum(p["points"] for p in played) == scores[seat]
        best_word = summary["best_words"][seat]
        assert best_word["seat"] == seat
        assert best_word["word"]["points"] == max(p["points"] for p in played)


def test_seats_with_equal_scores_share_a_rank() -> None:
    match = new_match(SEED, seats=humans(1, 1, 1), round_pause=0)
    match.pass_turn(0, NOW)
    play_best(match)  # seat 1 scores; seats 0 and 2 end level on nothing
    while match.phase is Phase.PLAYING:
        match.pass_turn(match.turn, NOW)

    summary = match.summary()

    assert [(r["seat"], r["rank"]) for r in summary["ranking"]] == [(1, 1), (0, 2), (2, 2)]
    assert [b["word"] is None for b in summary["best_words"]] == [True, False, True]
    assert all(t["ended"] == "passed" for t in summary["turns"] if t["seat"] != 1)


# -- the match as a document -------------------------------------------------------------------


def states() -> dict[str, Callable[[], Match]]:
    def mid_drag() -> Match:
        match = new_match(SEED, turn_seconds=30, round_pause=0)
        play_best(match)
        play_best(match)  # round 2
        best = match.best()
        assert best is not None
        drag(match, match.turn, best.path[:-1])
        return match

    def between_rounds() -> Match:
        match = new_match(SEED, turn_seconds=30, round_pause=3)
        play_best(match)
        play_best(match)
        assert match.phase is Phase.BETWEEN
        return match

    def over() -> Match:
        match = new_match(SEED, rounds=1)
        play_best(match)
        play_best(match)
        assert match.phase is Phase.OVER
        return match

    return {
        "new": lambda: new_match(SEED),
        "mid-drag": mid_drag,
        "between rounds": between_rounds,
        "over": over,
        "speed two, mid-round": lambda: _after_passes(new_match(SEED, seats=humans(1, 2)), 2),
    }


def _after_passes(match: Match, passes: int) -> Match:
    for _ in range(passes):
        match.pass_turn(match.turn, NOW)
    return match


@pytest.mark.parametrize("state", states())
def test_the_document_is_plain_json_and_restores_to_the_same_document(state: str) -> None:
    match = states()[state]()
    doc = match.to_doc()

    assert json.loads(json.dumps(doc)) == doc
    assert through_json(match).to_doc() == doc


def go_on(match: Match) -> list[Any]:
    """Play the match to its end the same way whatever it is: a fixed script of words, powers and waits."""
    outcomes: list[Any] = []
    now = NOW + 100
    for step in range(40):
        if match.phase is Phase.OVER:
            break
        now += 7
        if match.phase is Phase.BETWEEN:
            outcomes.append(match.next_round(now))
            continue
        seat = match.turn
        if match.chain:
            outcomes.append(match.release(seat, now))
        elif step % 5 == 1 and match.seats[seat].gems >= 1:
            outcomes.append(match.shuffle(seat))
        elif step % 7 == 3:
            outcomes.append(match.timeout(match.turn_no, now + 60))
        else:
            outcomes.append(play_best(match, now))
        outcomes.append(saved(match))
    return outcomes


@pytest.mark.parametrize("state", [s for s in states() if s != "between rounds"])
def test_a_restored_match_plays_on_exactly_as_the_original(state: str) -> None:
    original, interrupted = states()[state](), states()[state]()

    restored = through_json(interrupted)

    assert go_on(restored) == go_on(original)
    assert restored.to_doc() == original.to_doc()


def test_a_match_restored_between_rounds_plays_on_exactly_as_the_original() -> None:
    original, interrupted = states()["between rounds"](), states()["between rounds"]()

    restored = through_json(interrupted)

    assert restored.next_round(NOW + 100) == original.next_round(NOW + 100)
    assert restored.turn == original.turn == 0
    assert go_on(restored) == go_on(original)


def test_a_document_taken_from_a_match_does_not_change_as_the_match_goes_on() -> None:
    match = new_match(SEED)
    doc = match.to_doc()
    text = json.dumps(doc)

    play_best(match)

    assert json.dumps(doc) == text


# -- restored anywhere: a property over seeds, scripts and cut points ----------------------------------

Action = tuple[Any, ...]
Outcome = list[MatchEvent] | str


def act(match: Match, action: Action) -> Outcome:
    name, *args = action
    try:
        return getattr(match, name)(*args)
    except RuleError as exc:
        return exc.code


NEIGHBOURS = [P(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]  # (0, 0) repeats the tile: refused
ON_BOARD = st.builds(Pos, st.integers(0, 4), st.integers(0, 4))


class Script:
    """Draws a player's next moves from the match as it stands, with a clock that only goes forward."""

    def __init__(self, data: st.DataObject, match: Match) -> None:
        self.data, self.match, self.now = data, match, NOW

    def draw(self, strategy: st.SearchStrategy[Any], label: str) -> Any:
        return self.data.draw(strategy, label=label)

    def moves(self) -> list[Action]:
        match, draw = self.match, self.draw
        self.now += draw(st.sampled_from([0.0, 1.5, 10.0]), "think")
        seat, now = match.turn, self.now
        kinds = ["word", "word", "word", "drag", "pass", "power", "wait", "stray"]
        if match.phase is Phase.BETWEEN:
            kinds = ["wait", "wait", "wait", "stray"]  # anything else is refused in the pause
        kind = draw(st.sampled_from(kinds), "kind")
        if kind == "word" and match.phase is Phase.PLAYING:
            found = match.solve()
            if found:
                path = draw(st.sampled_from(found[:30]), "word").path
                return [
                    *([("cancel", seat)] if match.chain else []),
                    ("press", seat, path[0]),
                    *(("enter", seat, pos) for pos in path[1:]),
                    ("release", seat, now),
                ]
        if kind == "drag":
            here = draw(ON_BOARD, "start")
            actions: list[Action] = [("press", seat, here)]
            for step in draw(st.lists(st.sampled_from(NEIGHBOURS), max_size=4), "steps"):
                here = P(here.row + step.row, here.col + step.col)
                actions.append(("enter", seat, here))
            return actions  # held: a cut may fall mid-drag
        if kind == "pass":
            return [("pass_turn", seat, now)]
        if kind == "power":
            power = draw(st.sampled_from(["shuffle", "swap", "hint", "extend"]), "power")
            if power == "swap":
                symbol = draw(st.sampled_from(["e", "q", "z", "s", "1"]), "letter")
                return [("swap", seat, draw(ON_BOARD, "at"), symbol)]
            return [(power, seat)]
        if kind == "wait":
            self.now += draw(st.sampled_from([3.0, 30.0, 45.0]), "wait")
            turn_no = match.turn_no - draw(st.sampled_from([0, 0, 1]), "stale")
            return [("timeout", turn_no, self.now), ("next_round", self.now)]
        other = draw(st.integers(0, len(match.seats) - 1), "seat")
        name = draw(st.sampled_from(["press", "release", "cancel", "pass_turn", "shuffle", "hint"]), "stray")
        args = {"press": (P(2, 2),), "release": (now,), "pass_turn": (now,)}.get(name, ())
        return [(name, other, *args)]


@settings(PROPERTY, max_examples=50)
@given(
    data=st.data(),
    seed=st.integers(0, 2**64 - 1),
    speeds=st.sampled_from([(1, 1), (1, 2), (2, 1, 1)]),
    start_gems=st.integers(0, 10),
    rounds=st.sampled_from([2, 3, 5]),
    moves=st.integers(5, 40),
)
def test_a_match_restored_from_json_at_any_moment_plays_on_exactly_as_the_original(
    data: st.DataObject, seed: int, speeds: tuple[int, ...], start_gems: int, rounds: int, moves: int
) -> None:
    def fresh() -> Match:
        return new_match(
            seed, seats=humans(*speeds), start_gems=start_gems, rounds=rounds, turn_seconds=30, round_pause=3
        )

    original = fresh()
    script = Script(data, original)
    actions: list[Action] = []
    outcomes: list[Outcome] = []
    cuts = [0]  # where a cut may fall: anywhere, the pause between rounds included
    edges = [0]  # ... and the cuts right after a turn, a round or the match ended: half the cuts fall there
    for _ in range(moves):
        for action in script.moves():
            before, turn = saved(original), (original.turn_no, original.phase)
            outcome = act(original, action)
            if isinstance(outcome, str):
                assert saved(original) == before, f"{action} was refused ({outcome}) but changed the match"
            actions.append(action)
            outcomes.append(outcome)
            cuts.append(len(actions))
            if (original.turn_no, original.phase) != turn:
                edges.append(len(actions))
    among = edges if data.draw(st.booleans(), label="at an edge") else cuts
    cut = among[data.draw(st.integers(0, 999), label="cut per mille") * len(among) // 1000]

    interrupted = fresh()
    assert [act(interrupted, action) for action in actions[:cut]] == outcomes[:cut]
    event(f"cut in phase {interrupted.phase.value}{', mid-drag' if interrupted.chain else ''}")
    event(f"cut in round {interrupted.round}; the original ended in phase {original.phase.value}")
    doc = interrupted.to_doc()
    restored = through_json(interrupted)

    assert restored.to_doc() == doc
    assert [act(restored, action) for action in actions[cut:]] == outcomes[cut:]
    assert restored.to_doc() == original.to_doc()


# -- a damaged document is refused, with GameDataError -------------------------------------------------


class _Missing:
    """A field left out of the document (its repr names it the same in every process: pytest-xdist's
    workers must collect the same test ids)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()


@pytest.fixture(scope="module")
def good_doc() -> dict[str, Any]:
    """Round 2 (both multipliers on the board), a timed turn, two turns of history, mid-drag."""
    return json.loads(json.dumps(states()["mid-drag"]().to_doc()))


def damaged(doc: dict[str, Any], where: str, value: Any) -> dict[str, Any]:
    """A copy of ``doc`` with the field at ``where`` ("seats.0.gems") set to ``value`` (or removed)."""
    doc = copy.deepcopy(doc)
    *path, last = [int(key) if key.isdigit() else key for key in where.split(".")]
    target: Any = doc
    for key in path:
        target = target[key]
    if value is MISSING:
        del target[last]
    else:
        target[last] = value
    return doc


DAMAGE: list[tuple[str, Any]] = [
    ("format", MISSING),
    ("format", 2),
    ("format", "1"),
    ("kind", "game"),
    ("wordlist", "en-easy"),  # another list
    ("wordlist", 7),
    ("wordlist", MISSING),
    ("size", 4),
    ("size", True),
    ("size", "5"),
    ("seed", True),
    ("seed", -1),
    ("seed", 2**64),
    ("seed", "42"),
    ("draws", -1),
    ("draws", True),
    ("draws", 37.0),
    ("bot_draws", None),
    ("min_words", False),
    ("settings", MISSING),
    ("settings", []),
    ("settings.rounds", True),
    ("settings.rounds", 0),
    ("settings.rounds", "5"),
    ("settings.turn_seconds", "30"),
    ("settings.turn_seconds", 1),
    ("settings.round_pause", -1),
    ("settings.gem_cap", True),
    ("settings.start_gems", 11),
    ("settings.triple_chance", 1.5),
    ("settings.scoring", ["long_word", "letters"]),
    ("settings.scoring", ["letters", "bonus"]),
    ("settings.scoring", "letters"),
    ("settings.costs", [1, 3, 4, 1]),
    ("settings.costs", {"bogus": 1}),
    ("settings.costs.hint", True),
    ("board", 12345),
    ("board", "e" * 24),
    ("board", "1" + "e" * 24),  # a letter not in the list
    ("board", "E" * 25),  # nor in upper case
    ("board", "é" + "e" * 24),
    ("letter_mult", [5, 0, 2]),  # off the board
    ("letter_mult", [0, -1, 2]),
    ("letter_mult", [0, 0, 4]),
    ("letter_mult", [0, 0, True]),
    ("letter_mult", [0, 0, 2.0]),
    ("letter_mult", [0, 0]),
    ("letter_mult", "0,0,2"),
    ("word_mult", [0, 5]),
    ("word_mult", [True, 0]),
    ("word_mult", [0.0, 0]),
    ("word_mult", 3),
    ("gems", [[5, 5]]),
    ("gems", [[-1, 0]]),
    ("gems", [[0, "0"]]),
    ("gems", "gems"),
    ("gems", MISSING),
    ("words_left", -1),
    ("words_left", True),
    ("seats", []),
    ("seats", MISSING),
    ("seats", [{"name": "x"}]),
    ("seats.0", "player 0"),
    ("seats.0.name", 7),
    ("seats.0.kind", "alien"),
    ("seats.0.level", "hard"),  # a human with a bot's level
    ("seats.0.speed", 5),
    ("seats.0.speed", True),
    ("seats.0.speed", 1.0),
    ("seats.0.gems", 11),  # over the cap
    ("seats.0.gems", True),
    ("seats.0.gems", -1),
    ("seats.0.score", 1.5),
    ("seats.0.key", 10**9),
    ("round", 0),
    ("round", 6),
    ("round", True),
    ("turn", 2),
    ("turn", -1),
    ("turn", True),
    ("turn_no", False),
    ("phase", "paused"),  # an unknown phase
    ("phase", None),
    ("phase", 1),
    ("phase", ["playing"]),
    ("phase", "over"),  # with a chain
    ("phase", "between_rounds"),  # with a chain
    ("deadline", "soon"),
    ("deadline", True),
    ("deadline", math.nan),
    ("chain", [[0, 0], [0, 0]]),
    ("chain", [[0, 0], [2, 2]]),  # not a path
    ("chain", [[0, 5]]),  # off the board
    ("chain", [[0, True]]),
    ("chain", [[0]]),
    ("chain", "0,0"),
    ("history", "none"),
    ("history", [1]),
    ("history", [{"seat": "0", "played": None, "best": None}]),
    ("history", [{"seat": 0}]),
    ("version", True),
    ("version", -1),
    ("version", "3"),
]


@pytest.mark.parametrize(("where", "value"), DAMAGE, ids=[f"{w}={v!r}" for w, v in DAMAGE])
def test_a_damaged_document_is_refused(
    english: WordList, good_doc: dict[str, Any], where: str, value: Any
) -> None:
    doc = damaged(good_doc, where, value)

    with pytest.raises(GameDataError):
        restore_match(doc, english)


def test_the_undamaged_document_is_accepted(english: WordList, good_doc: dict[str, Any]) -> None:
    assert restore_match(copy.deepcopy(good_doc), english).to_doc() == good_doc


@pytest.mark.parametrize("doc", [None, [], "match", 5])
def test_a_document_that_is_not_an_object_is_refused(english: WordList, doc: Any) -> None:
    with pytest.raises(GameDataError):
        restore_match(doc, english)


def test_a_pause_between_rounds_without_a_deadline_is_refused(
    english: WordList, good_doc: dict[str, Any]
) -> None:
    doc = damaged(damaged(damaged(good_doc, "chain", []), "phase", "between_rounds"), "deadline", None)

    with pytest.raises(GameDataError):
        restore_match(doc, english)


def test_a_document_is_refused_by_another_word_list(good_doc: dict[str, Any]) -> None:
    with pytest.raises(GameDataError, match="played with list 'en'"):
        restore_match(copy.deepcopy(good_doc), shipped_list("en-easy"))


# Damage from_doc lets through today: each one breaks the match later, when it is played on.
ACCEPTED_DAMAGE: list[tuple[str, Any, str]] = [
    ("settings.costs.shuffle", "1", "the next shuffle raises TypeError"),
    ("settings.costs.hint", 1.5, "a hint leaves the seat a fraction of a gem"),
    ("settings.costs.swap", -3, "a swap gives the seat 3 gems"),
    ("settings.extend_seconds", "15", "the next extend raises TypeError"),
    ("settings.rounds", 2.5, "the match ends in the middle of round 3"),
    ("history", [{"seat": 0, "played": None, "best": None}], "the end of the match raises KeyError 'round'"),
    (
        "history",
        [{"seat": 9, "round": 1, "ended": "passed", "played": None, "best": None}],
        "the end of the match raises IndexError",
    ),
]


@pytest.mark.parametrize(
    ("where", "value"),
    [
        pytest.param(
            where,
            value,
            id=f"{where}={value!r}",
        )
        for where, value, _harm in ACCEPTED_DAMAGE
    ],
)
def test_a_document_with_damaged_settings_or_history_is_refused(
    english: WordList, good_doc: dict[str, Any], where: str, value: Any
) -> None:
    doc = damaged(good_doc, where, value)

    with pytest.raises(GameDataError):
        restore_match(doc, english)


def test_the_kept_search_always_answers_for_the_board_as_it_is_now() -> None:
    """solve() keeps its last answer; every change to letters or multipliers must be seen."""
    from wibble.core.solver import solve as fresh_solve

    match = new_match(SEED, start_gems=10)

    def fresh() -> list[Any]:
        values = [match.specials.value(P(r, c), match.board[P(r, c)]) for r in range(5) for c in range(5)]
        return fresh_solve(match.board, match.words, values, match.settings.scoring)

    assert match.solve() == fresh()
    match.shuffle(0)
    assert match.solve() == fresh()
    match.swap(0, P(2, 2), other_letter(match, P(2, 2)))
    assert match.solve() == fresh()
    best = match.solve()[0]
    match.press(0, best.path[0])
    for pos in best.path[1:]:
        match.enter(0, pos)
    match.release(0, NOW)  # a refill, and the multipliers it used move
    assert match.solve() == fresh()


def test_a_long_matchs_snapshot_carries_its_latest_turns_only_and_its_record_all() -> None:
    from wibble import protocol
    from wibble.protocol.matches import HISTORY_SHOWN

    match = new_match(seats=humans(4, 4), rounds=20, round_pause=0.0)
    for _ in range(120):  # 120 passed turns of a 160-turn match: still playing
        match.pass_turn(match.turn, NOW)
        if match.phase.value == "between_rounds":
            match.next_round(NOW)
    assert match.phase.value == "playing"
    assert len(match.history) == 120

    snapshot = protocol.match_snapshot(match, "m", None, 0, [True, True], NOW)

    assert len(snapshot["history"]) == HISTORY_SHOWN
    assert [t["round"] for t in snapshot["history"]] == [t["round"] for t in match.history[-HISTORY_SHOWN:]]
    assert len(protocol.encode(snapshot)) < 20_000
