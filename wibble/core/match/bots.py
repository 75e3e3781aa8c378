"""How a bot chooses its move: the solver lists every word on the board with its best path, and
the bot's level decides which one it plays.

- easy: a modest word from the lower half of the list, and now and then simply a
  short one;
- medium: a good word, from the top quarter but rarely the very best;
- hard: the best word; and when the board is poor and it holds a gem, it shuffles
  first (once a turn), since a fresh board's best word is usually worth more.

The choice is drawn from the match's ``bot_draws``, a stream of its own, so a bot's
dice never move the board's draws. ``choose`` is pure: the live layer carries out
the move tile by tile through the same commands a person's browser sends.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Pos
from ..solver import Found
from .state import Match

HARD_SHUFFLE_BELOW = 14
"""A hard bot shuffles when the board's best word scores less than this: only on a really
poor board (about 0.2% of fresh en boards; their 15th percentile is 22 points), since a
shuffle costs a gem and a fresh board is not always better."""

EASY_SHORT_CHANCE = 0.3


@dataclass(frozen=True, slots=True)
class BotMove:
    kind: str
    """"play", "shuffle" or "pass"."""
    path: tuple[Pos, ...] = ()
    word: str = ""
    points: int = 0


def _play(found: Found) -> BotMove:
    return BotMove("play", found.path, found.word, found.score)


def _pick(match: Match, choices: list[Found]) -> Found:
    index = int(match.bot_draws.random() * len(choices))
    return choices[min(index, len(choices) - 1)]


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
    level = level or player.level
    if found is None:
        found = match.solve()
    can_shuffle = not shuffled and player.gems >= match.settings.costs.shuffle
    if not found:
        return BotMove("shuffle") if can_shuffle else BotMove("pass")
    if level == "hard":
        if can_shuffle and found[0].score < HARD_SHUFFLE_BELOW:
            return BotMove("shuffle")
        return _play(found[0])
    if level == "medium":
        top = found[max(1, len(found) // 10) : max(2, len(found) // 4 + 1)] or found[:1]
        return _play(_pick(match, top))
    if match.bot_draws.random() < EASY_SHORT_CHANCE:
        shortest = min(len(f.path) for f in found)
        return _play(_pick(match, [f for f in found if len(f.path) == shortest]))
    return _play(_pick(match, found[len(found) // 2 :]))
