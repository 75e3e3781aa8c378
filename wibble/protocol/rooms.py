"""A room's messages: the snapshot each connection gets (its own ``you`` and ``token``), presence."""

from __future__ import annotations

from typing import Any

from ..core.match import Match, Phase
from ..core.race import OVER, Race
from ..core.room import Room, RoomSeat


def room_snapshot(
    room: Room,
    match: Match | None,
    match_id: str | None,
    connected: list[bool],
    away: list[bool],
    spectators: int,
    grace: float,
    race: Race | None = None,
) -> dict[str, Any]:
    """The ``room`` message without the reader's own fields (``with_reader`` adds them).

    Scores and gems are the current (or last) match's; between matches a gone person's
    seat shows as free.
    """
    playing = (match is not None and match.phase is not Phase.OVER) or (
        race is not None and race.phase != OVER
    )
    seats: list[dict[str, Any] | None] = []
    for index in range(len(room.seats)):
        held = room.holder(index, playing)
        in_match = match.seats[index] if match is not None and index < len(match.seats) else None
        if held is None and playing and in_match is not None and in_match.kind == "bot":
            held = RoomSeat(in_match.name, "bot", in_match.level)  # a 2v2 bot filling the seat
        if held is None:
            seats.append(None)
            continue
        seats.append(
            {
                "name": held.name,
                "kind": held.kind,
                "level": held.level,
                "speed": held.speed,
                "connected": held.kind == "bot" or connected[index],
                "away": held.kind == "human" and (away[index] or held.gone),
                "gone": held.kind == "human" and held.gone,
                "score": in_match.score if in_match is not None else 0,
                "gems": in_match.gems if in_match is not None else 0,
            }
        )
    return {
        "type": "room",
        "code": room.code,
        "host": room.host,
        "seats": seats,
        "spectators": spectators,
        "rules": room.rules.to_doc(),
        "match": None
        if match is None or match_id is None
        else {
            "match_id": match_id,
            "phase": match.phase.value,
            "round": match.round,
            "rounds": match.settings.rounds,
        },
        "race": None
        if race is None
        else {
            "race_id": race.race_id,
            "phase": race.phase,
            "deadline": race.deadline,
            "seconds": race.seconds,
        },
        "grace": grace,
        "version": room.version,
    }


def with_reader(snapshot: dict[str, Any], you: int | None, token: str | None, name: str) -> dict[str, Any]:
    """The snapshot as one connection gets it: its seat, its seat's token, its name."""
    message = {**snapshot, "you": you, "name": name}
    if you is not None and token is not None:
        message["token"] = token
    return message
