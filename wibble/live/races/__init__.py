"""Races in play: everyone in a room plays the same sprint at once, each on their own copy of
one seeded board (``wibble.core.race``), with live standings.

Each runner plays an ordinary sprint game (``games``): their drags and words go through the
game's own checklist and commit, the room having let through only a seat's moves. The race
document holds who runs, the shared deadline, the bots' next words and, at the end, the
results; it is committed like every document (compare-and-set, then told). Standings are not
stored: each scored word is told to the room as it commits (``race_standing``), and a page
that comes in reads them from the runners' games.

Locks: a room's lock is taken before its race's, and a race's before a runner's game's.
"""

from .held import LiveRace
from .service import Races

__all__ = ["LiveRace", "Races"]
