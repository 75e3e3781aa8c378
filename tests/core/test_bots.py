"""Bots: the solver lists the board's words, the level picks one; hard plays the best, easy a modest one.

Over 200 seeded boards of the English list, each level chooses on the same board as
the others; what its turn scores is what a player would see it score.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from statistics import mean

import pytest

from tests.core.matches import NOW, only, play, tiny_list, wordless_list
from tests.support import shipped_list
from wibble.core import WordList
from wibble.core.match import LEVELS, BotMove, Match, Played, Seat, Settings, choose
from wibble.core.match.bots import HARD_SHUFFLE_BELOW

SEEDS = range(200)


@pytest.fixture(scope="module")
def english() -> WordList:
    return shipped_list("en")


def bot_match(words: WordList, seed: int, level: str, **settings: object) -> Match:
    """A fresh match with a bot of ``level`` in seat 0 (its turn) and a person in seat 1."""
    seats = [Seat("bot", "bot", level), Seat("you", "human")]
    return Match(words, seed, seats, NOW, Settings(**settings))  # type: ignore[arg-type]


@dataclass(frozen=True)
class BotTurn:
    seed: int
    level: str
    board: str
    """The board the bot first chose on."""
    first: BotMove
    """Its first choice on that board."""
    played: BotMove
    """What it finally did this turn (after a shuffle, if it chose one)."""
    points: int
    """What its turn scored: the played path, scored by the match."""
    best: int
    """The best score on the board it played on."""
    draws_moved: bool
    """Whether choosing moved the board's draws."""


def bot_turn(words: WordList, seed: int, level: str) -> BotTurn:
    match = bot_match(words, seed, level)
    board = match.to_doc()["board"]
    position = match.draws.position
    first = choose(match, 0)
    draws_moved = match.draws.position != position
    move = first
    if move.kind == "shuffle":
        match.shuffle(0)
        move = choose(match, 0, shuffled=True)
    best = match.best()
    points = match.path_score(move.path).points if move.kind == "play" else 0
    return BotTurn(seed, level, board, first, move, points, best.score if best else 0, draws_moved)


@pytest.fixture(scope="module")
def turns(english: WordList) -> list[BotTurn]:
    """One turn of each level on each of the 200 seeded boards."""
    return [bot_turn(english, seed, level) for seed, level in product(SEEDS, LEVELS)]


def by_level(turns: list[BotTurn], level: str) -> list[BotTurn]:
    return [turn for turn in turns if turn.level == level]


def test_every_level_chooses_on_the_same_boards(turns: list[BotTurn]) -> None:
    for seed in SEEDS:
        assert len({turn.board for turn in turns if turn.seed == seed}) == 1


def test_on_average_hard_scores_more_than_medium_and_medium_more_than_easy(
    turns: list[BotTurn], capsys: pytest.CaptureFixture[str]
) -> None:
    averages = {level: mean(turn.points for turn in by_level(turns, level)) for level in LEVELS}
    shown = ", ".join(f"{level} {points:.2f}" for level, points in averages.items())
    with capsys.disabled():
        print(f"\nbot averages over {len(SEEDS)} en boards: {shown}")

    assert averages["hard"] > averages["medium"] > averages["easy"], shown


def test_hard_always_plays_the_best_score(turns: list[BotTurn]) -> None:
    for turn in by_level(turns, "hard"):
        assert turn.played.kind == "play", turn
        assert turn.points == turn.played.points == turn.best, turn


def test_medium_and_easy_rarely_play_the_best(turns: list[BotTurn]) -> None:
    for level in ("medium", "easy"):
        best = sum(turn.points == turn.best for turn in by_level(turns, level))
        assert best < len(SEEDS) // 4, f"{level} played the best word {best} times in {len(SEEDS)}"


def test_a_bots_move_says_what_it_scores(turns: list[BotTurn]) -> None:
    for turn in turns:
        assert turn.played.kind == "play"
        assert turn.played.points == turn.points > 0, turn


def test_choosing_never_moves_the_boards_draws(turns: list[BotTurn]) -> None:
    assert not any(turn.draws_moved for turn in turns)


def test_a_bot_chooses_the_same_on_the_same_seed(english: WordList) -> None:
    for seed, level in product(range(10), LEVELS):
        assert choose(bot_match(english, seed, level), 0) == choose(bot_match(english, seed, level), 0)


@pytest.mark.parametrize("level", LEVELS)
def test_a_bots_move_played_through_the_commands_scores_what_it_said(english: WordList, level: str) -> None:
    for seed in range(20):
        match = bot_match(english, seed, level)
        move = choose(match, 0)
        assert move.kind == "play"

        played = only(play(match, move.path), Played)

        assert (played.seat, played.word, played.score.points) == (0, move.word, move.points)


def test_the_bots_dice_do_not_change_the_boards_that_follow(english: WordList) -> None:
    """A replay plays the recorded paths without asking the bots: the refills must come out the same."""
    chose, did_not = bot_match(english, 3, "medium"), bot_match(english, 3, "medium")
    move = choose(chose, 0)
    choose(chose, 0)  # and again: the bot thinks twice
    assert chose.bot_draws.position > did_not.bot_draws.position

    play(chose, move.path)
    play(did_not, move.path)

    assert chose.to_doc()["board"] == did_not.to_doc()["board"]
    assert chose.draws.position == did_not.draws.position


# -- boards with no word, or only poor ones ----------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_on_a_board_with_no_word_a_bot_shuffles_if_it_can_else_passes(level: str) -> None:
    words = wordless_list()
    match = bot_match(words, 1, level, start_gems=1)
    assert match.solve() == []

    assert choose(match, 0) == BotMove("shuffle")
    match.shuffle(0)  # the board still has no word, and the bot has no gem left
    assert choose(match, 0) == BotMove("pass")
    assert choose(bot_match(words, 1, level, start_gems=3), 0, shuffled=True) == BotMove(
        "pass"
    )  # once a turn
    assert choose(bot_match(words, 1, level, start_gems=0), 0) == BotMove("pass")


AB = tiny_list(
    "ab", ["".join(w) for n in (3, 4) for w in product("ab", repeat=n)], {"a": (1, 1.0), "b": (1, 1.0)}
)
"""Every chain of 3-4 tiles is a word, and none scores more than 4 x 1 with a TL: every board is poor."""


def test_a_hard_bot_shuffles_a_poor_board_once_a_turn_when_it_holds_a_gem() -> None:
    match = bot_match(AB, 5, "hard")
    best = match.best()
    assert best is not None
    assert best.score < HARD_SHUFFLE_BELOW

    assert choose(match, 0) == BotMove("shuffle")
    assert choose(match, 0, shuffled=True) == BotMove("play", best.path, best.word, best.score)
    no_gems = bot_match(AB, 5, "hard", start_gems=0)
    assert choose(no_gems, 0).kind == "play"


@pytest.mark.parametrize("level", ["medium", "easy"])
def test_medium_and_easy_bots_play_a_poor_board_as_it_is(level: str) -> None:
    assert choose(bot_match(AB, 5, level), 0).kind == "play"
