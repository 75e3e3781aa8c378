"""Messages that each connection reads in its own way, and the small messages of presence.

A snapshot (``game``, ``match``, ``room``) is published once for everyone, with the
token hashes of the document's seats under ``_seats`` (never sent). Each session then
makes it its own with ``for_reader``: the seat its token holds (``you``), its token, its
name. Presence, spectator counts, a rematch's id and a removal are built here too, so
that every message a connection gets is built in ``wibble.protocol``.
"""

from __future__ import annotations

from typing import Any

from .rooms import with_reader

SEATS = "_seats"
HINT = "_hint"
"""A match snapshot's hint bought this turn, with the seat that bought it: told to that seat's team."""


def personal(message: dict[str, Any], seats: list[str | None]) -> dict[str, Any]:
    """``message``, to be read by each session as itself; ``seats`` are the seats' token hashes."""
    return {**message, SEATS: seats}


def is_personal(message: dict[str, Any]) -> bool:
    return SEATS in message


def for_reader(message: dict[str, Any], holder: str | None, token: str | None, name: str) -> dict[str, Any]:
    """A personal message as the session holding ``token`` (its hash ``holder``) reads it."""
    seats: list[str | None] = message[SEATS]
    hint = message.get(HINT)
    message = {key: value for key, value in message.items() if key not in (SEATS, HINT)}
    you = seats.index(holder) if holder is not None and holder in seats else None
    kind = message.get("type")
    if kind == "game":
        return {**message, "token": token or ""}
    if kind == "match":
        message = _team_chain(message, you)
        if hint is not None and _hears_hint(message, you, hint["seat"]):
            message["hint"] = {key: value for key, value in hint.items() if key != "seat"}
        if message.get("room") is not None:  # a room's seat acts through the room; its token is the room's
            return {**message, "you": you}
        return {**message, "you": you or 0, "token": token or ""}
    if kind == "room":
        return with_reader(message, you, token, name)
    if kind == "race":  # the reader's own seat, if they run
        return {**message, "you": you}
    return message


def _hears_hint(message: dict[str, Any], you: int | None, bought: int) -> bool:
    """Whether seat ``you`` is told the hint seat ``bought`` paid for: that seat, and in a 2v2 its
    teammate, as they heard it when it was bought (``live.matches.teams``)."""
    if you is None:
        return False
    teams = message.get("teams")
    return you == bought or (teams is not None and teams[you] == teams[bought])


def _team_chain(message: dict[str, Any], you: int | None) -> dict[str, Any]:
    """In a 2v2, the chain being dragged is the dragging team's: anyone else reads none."""
    teams = message.get("teams")
    if not teams or not message["chain"] or (you is not None and teams[you] == teams[message["turn"]]):
        return message
    return {**message, "chain": [], "word": "", "points": 0, "status": "none"}


def presence(seat: int, connected: bool, away: bool | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "presence", "seat": seat, "connected": connected}
    if away is not None:
        message["away"] = away
    return message


def spectators(count: int) -> dict[str, Any]:
    return {"type": "spectators", "count": count}


def rematch(match_id: str) -> dict[str, Any]:
    return {"type": "rematch", "match_id": match_id}


def removed() -> dict[str, Any]:
    return {"type": "removed"}
