"""A match's deadlines, each one entry in the process's ``Timers``: ``(match_id, "clock")``, a
turn's end or the end of the pause between rounds, and ``(match_id, "bot")``, a bot's next
step. When one falls due the match is asked again under its lock, so a timer that fires just as
the turn ends changes nothing."""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager
from typing import Any

from ...core import WibbleError
from ...core.match import MatchEvent, Phase
from ...engines.store import StorageError
from ..timers import Timers
from .bots import Bots, Commit, Publish
from .held import LiveMatch

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""How soon a deadline whose commit failed (a full disk, a locked file) is tried again."""


class Deadlines:
    def __init__(
        self,
        timers: Timers,
        bots: Bots,
        wall_clock: Callable[[], float],
        find: Callable[[str], LiveMatch | None],
        holding: Callable[[LiveMatch], AbstractContextManager[Any]],
        commit: Commit,
        publish: Publish,
    ) -> None:
        self.timers = timers
        self.bots = bots
        self.wall_clock = wall_clock
        self.find = find
        self.holding = holding
        self.commit = commit
        self.publish = publish
        timers.route("clock", self._due)
        timers.route("bot", self._due)

    def schedule(self, live: LiveMatch) -> None:
        """Set this match's deadlines to what its state says: the turn timer or round pause, and its bot."""
        match, mid = live.match, live.match_id
        if match.phase is not Phase.OVER and match.deadline is not None:
            self.timers.set((mid, "clock"), match.deadline)
        else:
            self.timers.cancel((mid, "clock"))
        if not self.bots.plan(live) or live.bot is None:
            self.timers.cancel((mid, "bot"))
        elif self.timers.when((mid, "bot")) is None or not live.bot.path:
            # (not while its drag is under way: each tile sets the next; a bot still thinking
            # goes when its plan says, even if a step set for an older plan is waiting)
            self.timers.set((mid, "bot"), live.bot.at)

    def forget(self, live: LiveMatch) -> None:
        """The match left memory here: its deadlines go with it (they are in its document)."""
        self.timers.cancel((live.match_id, "clock"))
        self.timers.cancel((live.match_id, "bot"))

    def clock_due(self, live: LiveMatch, now: float) -> list[MatchEvent]:
        """A turn's time is up, or the pause between rounds is over (if so by ``now``; else nothing)."""
        match = live.match
        if match.phase is Phase.PLAYING:
            turn_no = match.turn_no
            return self.commit(live, lambda: match.timeout(turn_no, now), None, "timeout")
        return self.commit(live, lambda: match.next_round(now), None, "round")

    def _due(self, key: Hashable) -> None:
        if not (isinstance(key, tuple) and len(key) == 2):
            return
        mid, kind = str(key[0]), str(key[1])
        live = self.find(mid)
        if live is None:
            return
        with self.holding(live):
            now = self.wall_clock()
            try:
                if kind == "clock":
                    self.publish(live, self.clock_due(live, now))
                elif kind == "bot":
                    self.bots.step(live, now)
            except StorageError as exc:
                # The store failed (the match is as it was): try the same deadline again shortly,
                # rather than leave a turn open past its time or a bot frozen mid-turn.
                log.warning("match %s: a %s deadline failed (%s); trying again soon", mid, kind, exc.reason)
                self.timers.set(key, now + RETRY_SECONDS)
                return
            except WibbleError as exc:
                # Another process moved the match (it was reloaded) or the move no longer fits:
                # start the turn's bot afresh from the match as it now stands.
                log.warning("match %s: a %s deadline was overtaken (%s)", mid, kind, exc.code)
                live.bot = None
            self.schedule(live)
