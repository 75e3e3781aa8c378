"""A 2v2 room's match: its four seats as the room holds them, a bot in each empty one.

The bots are the match's alone: the room's seats stay empty, so a rematch keeps the teams
(nobody moved) and a newcomer can take a bot's place between matches.
"""

from __future__ import annotations

from ...core.match import VERSUS, Seat
from ...core.names import bot_names
from ...core.room import TEAMS_SEATS, Room


def match_seats(room: Room) -> tuple[list[Seat], tuple[int, ...]]:
    """Seats 0-3 of a 2v2 room as its match plays them (empty ones: bots of the room's stand-in
    level, named as a room names its bots), and the teams (A1, B1, A2, B2)."""
    names = bot_names(held.name for held in room.seats if held is not None)
    seats = []
    for index in range(TEAMS_SEATS):
        held = room.holder(index, playing=False)
        if held is None:
            seats.append(Seat(next(names), "bot", room.rules.stand_in))
        else:
            seats.append(Seat(held.name, held.kind, held.level, 1))
    return seats, VERSUS
