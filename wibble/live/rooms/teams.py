"""A 2v2 room's match: its four seats as the room holds them, a bot in each empty one.

The bots are the match's alone: the room's seats stay empty, so a rematch keeps the teams
(nobody moved) and a newcomer can take a bot's place between matches.
"""

from __future__ import annotations

from ...core.match import BOT_NAMES, VERSUS, Seat
from ...core.room import TEAMS_SEATS, Room, distinct


def match_seats(room: Room) -> tuple[list[Seat], tuple[int, ...]]:
    """Seats 0-3 of a 2v2 room as its match plays them (empty ones: bots of the room's stand-in
    level, named as a room names its bots), and the teams (A1, B1, A2, B2)."""
    taken = [held.name for held in room.seats if held is not None]
    folded = {name.casefold() for name in taken}
    names = (name for name in BOT_NAMES if name.casefold() not in folded)
    seats = []
    for index in range(TEAMS_SEATS):
        held = room.holder(index, playing=False)
        if held is None:
            seats.append(Seat(distinct(next(names, f"Bot {index + 1}"), taken), "bot", room.rules.stand_in))
        else:
            seats.append(Seat(held.name, held.kind, held.level, 1))
    return seats, VERSUS
