"""Rooms in play: people join by code, sit or watch, and the host runs matches.

The same shape as ``matches``: a room command goes through the room's own checks
(``wibble.core.room``: host? between matches? seat free?); what changed the room
(its ``version`` grew) is committed to the store with a compare-and-set before
anyone hears of it; presence (who is connected, who is away) is only broadcast,
and what follows from it for good (a seat held, a person away, a host handing on, a
room standing empty) is one pure function, ``core.room.settle``, applied in one
place (``Keeper.settle``) whenever presence changes or a deadline falls due.

A room's match is an ordinary match whose seats act through the room
(``matches.RoomMatches``, the one way rooms reach matches): its document carries no
tokens, and a session acts as the room seat its token holds, looked up in the
room's document at each command. Seat *i* of the room is seat *i* of its match (the
room moves people up into free seats when a match starts); nobody's session is
rewritten when seats move.

The service (``service.Rooms``: joining, leaving, and each command handed on) is in
parts, each over one ``Keeper`` (the room held here: commit, settle, who is here,
tell): ``seats`` (the commands that change the room), ``play`` (its matches) and
``deadlines`` (grace periods, an empty room's end, housekeeping). Time is
wall-clock, like a match's deadlines: an empty room's age is read from the store
after a restart.

Locks: a room's lock is taken before its match's, never after.
"""

from .held import LiveRoom, RoomLimits, room_id
from .keeper import CROWD_EVERY
from .service import Rooms

__all__ = ["CROWD_EVERY", "LiveRoom", "RoomLimits", "Rooms", "room_id"]
