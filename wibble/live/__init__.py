"""Games in play: the layer between the rules (``wibble.core``) and the network (``wibble.web``).

- ``clients``: a connection as this layer sees it (the game it is on, a way to reach it);
- ``registry``: which games are in memory, loading them from the store on demand
  and letting idle ones go (they stay in the store);
- ``authority``: applies a client's command to its game in one ordered checklist,
  commits what changes the game for good, then tells everyone;
- ``fanout``: who hears about which game, with each message encoded once;
- ``budgets``: what one client address may cost the server;
- ``matches``: matches in play, their seats, bots and deadlines; ``timers``: every
  deadline of the process in one priority queue;
- ``rooms``: rooms people join by code, their seats, host, away seats and matches.

No sockets and no Flask here: a client is anything with a ``deliver(frame)``, so
the same code runs under the websocket handler and in tests, with an injected clock.
"""

from .authority import Authority
from .budgets import Budgets
from .clients import Client
from .fanout import Fanout
from .matches import BotPace, LiveMatch, Matches
from .registry import LiveGame, Registry
from .rooms import LiveRoom, RoomLimits, Rooms
from .timers import Timers

__all__ = [
    "Authority",
    "BotPace",
    "Budgets",
    "Client",
    "Fanout",
    "LiveGame",
    "LiveMatch",
    "Matches",
    "LiveRoom",
    "Registry",
    "RoomLimits",
    "Rooms",
    "Timers",
]
