"""Who hears what in a 2v2: a team's drags, refused words, hints and suggestions are its own.

The other team and the spectators see a team's word only once it is played (``played``);
until then the chain being dragged is the team's to talk over. Everything goes out on the bus
to the team's token hashes, so a seat's sessions on every process hear it, and nobody else.
"""

from __future__ import annotations

from ...core.match import ChainMoved, HintGiven, Match, MatchEvent, Suggested, WordRefused, teammates
from ...engines.bus import EVERYONE, Audience, holders_of

TEAM_EVENTS = (ChainMoved, WordRefused, HintGiven, Suggested)
"""What a 2v2 tells the acting seat's team alone (a hint goes to the seat that paid in a match)."""


def audience(match: Match, holders: list[str | None], event: MatchEvent) -> Audience:
    """Who hears ``event`` of ``match``, whose seats' token hashes are ``holders``."""
    if not isinstance(event, TEAM_EVENTS):
        return EVERYONE
    teams = match.settings.teams
    if teams is None:
        return holders_of(holders[event.seat]) if isinstance(event, HintGiven) else EVERYONE
    return holders_of(*(holders[seat] for seat in teammates(teams, event.seat)))
