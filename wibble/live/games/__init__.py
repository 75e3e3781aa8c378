"""Endless games in play: created here, loaded from the store on demand, let go when idle, and moved.

Memory is a cache of the store, never the only copy: a game leaves memory when
nobody has been connected to it for ``idle_timeout`` seconds, or to make room at
``max_games``, and comes back from the store the next time someone resumes it.

Every move goes through one ordered checklist, as in boardgame.io's master: the
session is on a game; the chain is its own (or free); the core checks phase and
tiles; a release is committed to the store with a compare-and-set on the game's
version; only then is it published. A refused command leaves the game as it was and
is answered to its sender alone; a commit that fails puts the game back exactly as
it stood before the release (chain and all), so the player can simply let go again.

A sprint's deadline is in its document (wall-clock seconds, so it means the same after a
restart) and in this process's ``Timers`` under ``(game_id, "sprint")``; when it falls due
the game's end is committed like a move. A move that arrives after the deadline, before
the timer has run, ends the game first and is then refused (``game/over``), so a slow
timer never lets a word in late. Ending is idempotent (``Game.time_up``): a deadline
handled twice, here or by another process, changes nothing the second time.
"""

from .held import LiveGame
from .service import Games

__all__ = ["Games", "LiveGame"]
