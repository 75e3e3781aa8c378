"""Games in play: the layer between the rules (``wibble.core``) and the network (``wibble.web``).

Documents and sessions. A game, a match and a room are documents: held in memory as
a cache of the store, changed by the pure core, committed with a compare-and-set on
their version, then told. A connection is a ``Session``: it subscribes to topics and
carries credentials (the tokens it was given), never the actor a rule checks.

- ``sessions``: a connection as this layer sees it; ``credentials``: ids, tokens, hashes;
- the bus (everything a session receives is published on a topic, to an audience),
  presence (who is connected to which document), claims and the store are engines
  (``wibble.engines``), passed in;
- ``games``, ``matches``, ``rooms``: the three kinds of document in play, each with its
  own checklist, commits and deadlines; ``timers``: every deadline in one priority queue;
- ``router``: each command to its service; ``wiring``: builds all of it in one call;
- ``budgets``: what one client address may cost the server; ``records``: stored records.

No sockets and no Flask here: a session is anything with a ``deliver(frame)``, so
the same code runs under the websocket handler and in tests, with an injected clock.
"""

from .budgets import Budgets, Limits
from .games import Games, LiveGame
from .matches import BotPace, LiveMatch, Matches
from .rooms import LiveRoom, RoomLimits, Rooms
from .router import Router
from .sessions import Session
from .timers import Timers
from .wiring import LiveSettings, wire

__all__ = [
    "BotPace",
    "Budgets",
    "Games",
    "Limits",
    "LiveGame",
    "LiveMatch",
    "LiveRoom",
    "LiveSettings",
    "Matches",
    "RoomLimits",
    "Rooms",
    "Router",
    "Session",
    "Timers",
    "wire",
]
