"""Bots: the solver lists the board's words, the level picks one by its share of the board's best.

Over 50 seeded boards of the English list, each level chooses on the same board as
the others; what its turn scores is what a player would see it score. Easy plays a
short word worth 35-50% of the best, medium one worth 60-75%, hard the best or within
10% of it (``benchmarks/bots.py`` measures the same over 200 boards).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from itertools import product
from statistics import mean, median

import pytest

from tests.core.matches import NOW, only, play, through_json, tiny_list, wordless_list
from tests.support import shipped_list
from wibble.core import Pos, WordList
from wibble.core.match import LEVELS, BotMove, Match, Played, Seat, Settings, choose
from wibble.core.match.bots import HARD_SHUFFLE_BELOW, POLICIES, pick_word
from wibble.core.solver import Found

SEEDS = range(50)


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

    @property
    def share(self) -> float:
        """Its points as a fraction of the board's best."""
        return self.points / self.best


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
    """One turn of each level on each of the seeded boards."""
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


@pytest.mark.parametrize(("level", "low", "high"), [("easy", 0.35, 0.50), ("medium", 0.60, 0.75)])
def test_easy_and_medium_play_words_worth_their_share_of_the_best(
    turns: list[BotTurn], level: str, low: float, high: float
) -> None:
    shares = [turn.share for turn in by_level(turns, level)]
    inside = sum(low <= share <= high for share in shares)

    assert low <= median(shares) <= high, sorted(shares)
    assert inside >= 0.9 * len(shares), sorted(shares)  # only a board with no word in the band misses it


def test_hard_plays_the_best_word_on_most_boards_and_never_much_less(turns: list[BotTurn]) -> None:
    hard = by_level(turns, "hard")
    best = sum(turn.points == turn.best for turn in hard)

    assert best >= 0.65 * len(hard), f"hard played the best word {best} times in {len(hard)}"
    for turn in hard:
        assert turn.played.kind == "play", turn
        assert turn.points >= 0.9 * turn.best, turn


def test_medium_and_easy_never_play_the_best(turns: list[BotTurn]) -> None:
    for level in ("medium", "easy"):
        best = sum(turn.points == turn.best for turn in by_level(turns, level))
        assert best == 0, f"{level} played the best word {best} times in {len(SEEDS)}"


@pytest.mark.parametrize(("level", "longest"), [("easy", 5), ("medium", 7)])
def test_easy_and_medium_play_words_a_person_of_their_level_would_see(
    turns: list[BotTurn], level: str, longest: int
) -> None:
    assert max(len(turn.played.path) for turn in by_level(turns, level)) <= longest


def test_a_bots_move_says_what_it_scores(turns: list[BotTurn]) -> None:
    for turn in turns:
        assert turn.played.kind == "play"
        assert turn.played.points == turn.points > 0, turn


def test_choosing_never_moves_the_boards_draws(turns: list[BotTurn]) -> None:
    assert not any(turn.draws_moved for turn in turns)


def test_a_bot_chooses_the_same_on_the_same_seed_and_only_its_own_draws_decide(english: WordList) -> None:
    for seed, level in product(range(10), LEVELS):
        random.seed(seed)  # the global generator, set differently for each of the two: it must not count
        first = choose(bot_match(english, seed, level), 0)
        random.seed(seed + 1)
        assert choose(bot_match(english, seed, level), 0) == first


def test_a_bot_chooses_the_same_in_a_match_saved_and_restored(english: WordList) -> None:
    for level in LEVELS:
        match = bot_match(english, 4, level)
        choose(match, 0)  # its stream is drawn: the restored match must go on from there
        restored = through_json(match)
        assert restored.bot_draws.position == match.bot_draws.position > 0
        assert choose(restored, 0) == choose(match, 0)


def test_an_easy_bot_asked_again_on_the_same_board_may_choose_another_word(english: WordList) -> None:
    """Its dice are the match's bot_draws: the same board with the stream moved on can give another word."""
    match = bot_match(english, 2, "easy")
    words = {choose(match, 0).word for _ in range(10)}
    assert len(words) > 1


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


# -- the policy on made-up lists of words --------------------------------------------------------------


def found(score: int, tiles: int) -> Found:
    return Found(f"w{score}x{tiles}", score, tuple(Pos(0, i) for i in range(tiles)))


def test_policies_are_bands_of_the_best_score_easy_below_medium_below_hard() -> None:
    easy, medium, hard = (POLICIES[level] for level in LEVELS)
    assert (easy.low, easy.high, easy.longest) == (35, 50, 5)
    assert (medium.low, medium.high, medium.longest) == (60, 75, 7)
    assert (hard.low, hard.high, hard.longest) == (90, 100, None)
    assert easy.high < medium.low
    assert medium.high < hard.low


def test_a_level_plays_only_words_inside_its_band_and_its_lengths() -> None:
    match = bot_match(AB, 1, "easy")
    words = [found(40, 8), found(30, 6), found(18, 5), found(16, 4), found(14, 3), found(15, 6), found(12, 3)]
    words.sort(key=lambda f: -f.score)
    picked = {pick_word(match.bot_draws, words, "easy").word for _ in range(40)}
    assert picked == {"w18x5", "w16x4", "w14x3"}  # 14-20 points, at most 5 tiles
    picked = {pick_word(match.bot_draws, words, "medium").word for _ in range(40)}
    assert picked == {"w30x6"}  # 24-30 points, at most 7 tiles


def test_with_no_word_in_its_band_a_level_plays_the_nearest() -> None:
    match = bot_match(AB, 1, "easy")
    words = [found(40, 8), found(30, 5), found(8, 4), found(5, 3)]  # easy's band: 14-20 points
    assert pick_word(match.bot_draws, words, "easy").word == "w8x4"  # 6 below the band; 30 is 10 above
    only_long = [found(40, 8), found(20, 7)]
    assert pick_word(match.bot_draws, only_long, "easy").word == "w20x7"  # no short word: any word will do


def test_the_bands_edges_are_exact_in_whole_points() -> None:
    """35% of 20 is 7 exactly: a 7-point word is inside easy's band (no float rounding shuts it out)."""
    match = bot_match(AB, 1, "easy")
    words = [found(20, 7), found(7, 3), found(11, 4)]
    assert {pick_word(match.bot_draws, words, "easy").word for _ in range(20)} == {"w7x3"}


def test_the_bots_choices_over_a_match_come_from_its_own_stream_only() -> None:
    """The choices leave nothing in the document but the stream's position."""
    match = bot_match(shipped_list("en"), 6, "medium")
    before = json.loads(json.dumps(match.to_doc()))
    choose(match, 0)
    after = json.loads(json.dumps(match.to_doc()))
    assert {key for key in before if before[key] != after[key]} == {"bot_draws"}
