"""How a bot chooses its move: the solver lists every word on the board with its best path and
score, and the bot's level decides which one it plays, measured against the board's best word.

- easy, a casual player: a short word (3-5 tiles) worth 35-50% of the board's best;
- medium, a regular: a word of up to 7 tiles worth 60-75% of the best;
- hard, close to perfect: the best word three turns in four, otherwise one worth at
  least 90% of it; and when the board is really poor and it holds a gem, it shuffles
  first (once a turn), since a fresh board's best word is usually worth more.

A board with no word in a level's band gets the word nearest to the band (of the
level's lengths if there is one). ``benchmarks/bots.py`` measures what each level plays
over 200 seeded boards (docs/benchmarks-log.md, "Bots").

Every choice is drawn from the match's ``bot_draws``, a stream of its own, so a bot's
dice never move the board's draws, and a match replays from its record (which keeps
each move's path) whatever the bots would choose today. ``choose`` is pure: the live
layer carries out the move tile by tile through the same commands a person's browser sends.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Pos
from ..draws import Uniform
from ..solver import Found
from .state import Match

HARD_SHUFFLE_BELOW = 14
"""A hard bot shuffles when the board's best word scores less than this: only on a really
poor board (about 0.2% of fresh en boards; their 15th percentile is 22 points), since a
shuffle costs a gem and a fresh board is not always better."""


@dataclass(frozen=True, slots=True)
class Policy:
    """What a level plays: a word scoring ``low``-``high`` percent of the board's best, of at most
    ``longest`` tiles; with ``best_chance``, the best word itself that often."""

    low: int
    high: int
    longest: int | None = None
    best_chance: float = 0.0


POLICIES = {
    "easy": Policy(35, 50, longest=5),
    "medium": Policy(60, 75, longest=7),
    "hard": Policy(90, 100, best_chance=0.75),
}


@dataclass(frozen=True, slots=True)
class BotMove:
    kind: str
    """"play", "shuffle" or "pass"."""
    path: tuple[Pos, ...] = ()
    word: str = ""
    points: int = 0


def _play(found: Found) -> BotMove:
    return BotMove("play", found.path, found.word, found.score)


def _pick(dice: Uniform, choices: list[Found]) -> Found:
    index = int(dice.random() * len(choices))
    return choices[min(index, len(choices) - 1)]


def _gap(policy: Policy, best: int, found: Found) -> int:
    """How far ``found``'s score lies outside the level's band, in hundredths of a point (0: inside)."""
    share = 100 * found.score
    return max(policy.low * best - share, share - policy.high * best, 0)


def pick_word(dice: Uniform, found: list[Found], level: str) -> Found:
    """The word a bot of ``level`` plays from ``found`` (the solver's list, best first, not empty),
    its choices drawn from ``dice`` (a match's ``bot_draws``; a race's bots have their own)."""
    policy = POLICIES.get(level, POLICIES["easy"])
    best = found[0].score
    if policy.best_chance and dice.random() < policy.best_chance:
        return found[0]
    fits = [f for f in found if policy.longest is None or len(f.path) <= policy.longest] or found
    band = [f for f in fits if _gap(policy, best, f) == 0]
    if band:
        return _pick(dice, band)
    return min(fits, key=lambda f: _gap(policy, best, f))  # the first of the nearest: best first


def choose(
    match: Match,
    seat: int,
    shuffled: bool = False,
    found: list[Found] | None = None,
    level: str | None = None,
) -> BotMove:
    """The move bot ``seat`` makes on the board as it is (``shuffled``: it already shuffled this turn).

    ``level`` plays a person's seat as a bot of that level (a stand-in while they are away).
    """
    player = match.seats[seat]
    level = level or player.level or "easy"
    if found is None:
        found = match.solve()
    can_shuffle = not shuffled and player.gems >= match.settings.costs.shuffle
    if not found:
        return BotMove("shuffle") if can_shuffle else BotMove("pass")
    if level == "hard" and can_shuffle and found[0].score < HARD_SHUFFLE_BELOW:
        return BotMove("shuffle")
    return _play(pick_word(match.bot_draws, found, level))
