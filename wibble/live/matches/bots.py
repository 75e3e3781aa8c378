"""Bots at play: a bot (or a stand-in for a person who is away) "thinks" for a while, then
drags its word tile by tile so that people watch it play, and releases it. It acts through
the very same commands a person's seat does, driven by one deadline (``(match_id, "bot")``)
whose handler (``deadlines``) calls ``Bots.step`` under the match's lock."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ...core.match import BotMove, Match, MatchEvent, Phase, choose
from ..timers import Timers
from .held import BotTurn, LiveMatch

BOT_DRAG_TILES = 10
"""A long word's tiles: a bot on a timed turn keeps time for a drag this long."""

Commit = Callable[[LiveMatch, Callable[[], list[MatchEvent]], int | None, str], list[MatchEvent]]
Publish = Callable[[LiveMatch, list[MatchEvent]], None]


@dataclass(frozen=True)
class BotPace:
    """How long a bot thinks before its word (a range, seconds) and how long each tile of its drag takes."""

    think: tuple[float, float] = (1.5, 3.0)
    step: float = 0.25


class Bots:
    """The bot driver of one process's matches. ``commit`` and ``publish`` are the matches'
    own (a bot's move is saved, then told, as a person's is)."""

    def __init__(
        self,
        pace: BotPace,
        entropy: random.Random,
        wall_clock: Callable[[], float],
        timers: Timers,
        commit: Commit,
        publish: Publish,
    ) -> None:
        self.pace = pace
        self._entropy = entropy
        self.wall_clock = wall_clock
        self.timers = timers
        self.commit = commit
        self.publish = publish

    def plan(self, live: LiveMatch) -> bool:
        """Whether a bot (or a stand-in) plays this turn; if so, and it has no plan for this turn
        yet, it gets one: when it is done thinking. Called as a commit gives it the turn, so that
        its document says when."""
        match = live.match
        bot_turn = match.phase is Phase.PLAYING and (
            match.seats[match.turn].kind == "bot" or match.turn in live.stand_ins
        )
        if not bot_turn:
            live.bot = None
        elif live.bot is None or live.bot.turn_no != match.turn_no:
            live.bot = BotTurn(match.turn_no, self.wall_clock() + self._think(match))
        return bot_turn

    def step(self, live: LiveMatch, now: float) -> None:
        """One step of a bot's turn: decide (maybe shuffle first), then press, enter..., release."""
        match, bot = live.match, live.bot
        if bot is None or bot.turn_no != match.turn_no or match.phase is not Phase.PLAYING:
            return
        seat = match.turn
        if not bot.path and now < bot.at:
            # Still thinking, as its plan says (a process that took the deadline over early, say,
            # from one that held it): it chooses when its time comes, not before.
            self.timers.set((live.match_id, "bot"), bot.at)
            return
        if not bot.path:
            move: BotMove = choose(match, seat, bot.shuffled, level=live.stand_ins.get(seat))
            if move.kind == "shuffle":
                bot.shuffled, bot.at = True, now + self._think(match) / 2  # (saved with the shuffle)
                self.publish(live, self.commit(live, lambda: match.shuffle(seat), seat, "shuffle"))
                self.timers.set((live.match_id, "bot"), bot.at)
                return
            if move.kind == "pass":
                self.publish(live, self.commit(live, lambda: match.pass_turn(seat, now), seat, "pass"))
                return
            bot.path = move.path
        if bot.step < len(bot.path):
            if self.timers.late():
                # This process was stopped since the step fell due: another may have played this
                # turn meanwhile, and a drag (told at once, checked by no commit) would come from a
                # stale copy. The step runs again after the catch-up (``Timers.run_due``).
                self.timers.set((live.match_id, "bot"), now)
                return
            pos = bot.path[bot.step]
            events = match.press(seat, pos) if bot.step == 0 else match.enter(seat, pos)
            bot.step += 1
            self.publish(live, events)
            self.timers.set((live.match_id, "bot"), now + self._step(match))
            return
        events = self.commit(live, lambda: match.release(seat, now), seat, "play")
        if live.bot is bot:  # only now: if the commit failed, the retry releases the same chain again
            live.bot = None  # (and unless the commit planned the next bot's turn)
        self.publish(live, events)

    def _think(self, match: Match) -> float:
        """How long a bot thinks: the pace's range, but never so long its drag would miss the turn's end."""
        low, high = self.pace.think
        think = low + (high - low) * self._entropy.random()
        if match.deadline is not None:
            drag = BOT_DRAG_TILES * self._step(match)
            think = min(think, max(0.0, (match.deadline - self.wall_clock()) / 2 - drag))
        return think

    def _step(self, match: Match) -> float:
        """Seconds per tile of a bot's drag, shortened on a timed turn so the word lands in time."""
        if match.deadline is None:
            return self.pace.step
        left = match.deadline - self.wall_clock()
        return max(0.0, min(self.pace.step, left / (2 * BOT_DRAG_TILES)))
