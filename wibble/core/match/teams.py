"""A 2v2: two teams of two, whose seats' scores add up, and whose teammates suggest tiles.

A match's ``Settings.teams`` gives each seat its team (0 is team A, 1 team B). Nothing
else about the match changes: every seat keeps its own score, gems and turns, and the
seat order A1, B1, A2, B2 (teams ``(0, 1, 0, 1)``) is already the turn order when every
seat plays once a round. What teams add is read off the seats and the history: each
team's total and words, and the winner (the higher total; equal totals are a tie).

A suggestion is a mark a seat puts on a tile for its teammate during its team's turn.
It is ephemeral, as a drag is: never saved, never recorded, gone when the turn ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

TEAM_NAMES = ("A", "B")
"""How the page and the end screen name team 0 and team 1."""
VERSUS = (0, 1, 0, 1)
"""A 2v2's teams in seat order: A1, B1, A2, B2, so that turns alternate between the teams."""


def teammates(teams: Sequence[int], seat: int) -> list[int]:
    """The seats of ``seat``'s team, itself included, in seat order."""
    return [other for other, team in enumerate(teams) if team == teams[seat]]


def team_summary(
    teams: Sequence[int], scores: Sequence[int], history: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The end screen's teams: each team's seats, total, rank and words (in the order they were
    played), and the winning team (None: a tie)."""
    totals = [sum(score for seat, score in enumerate(scores) if teams[seat] == team) for team in (0, 1)]
    entries = []
    for team in (0, 1):
        words = [
            {"seat": turn["seat"], "round": turn["round"], "word": turn["played"]}
            for turn in history
            if turn["played"] is not None and teams[turn["seat"]] == team
        ]
        entries.append(
            {
                "team": team,
                "name": TEAM_NAMES[team],
                "seats": [seat for seat, held in enumerate(teams) if held == team],
                "score": totals[team],
                "rank": 1 + (totals[1 - team] > totals[team]),
                "words": words,
            }
        )
    winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
    return {"teams": entries, "winner": winner}
