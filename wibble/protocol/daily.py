"""The daily board's messages: today's ``leaderboard``, with yesterday's first board and the best
words it held."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from ..core import Game, path_doc
from ..core.daily import PLACES, day_number
from ..core.pace import WINDOW
from ..core.solver import Found
from .messages import _faces, board


def leaderboard(
    day: date, seconds: int, standing: dict[str, Any], yesterday: dict[str, Any] | None, most_tiles: int
) -> dict[str, Any]:
    """The ``leaderboard`` message of ``day``: the sprint's length, the standing as one player sees
    it (``Leaderboard.view``: the top, their own place, how many are ranked), the ranking's rules
    (the pace bound, the places an address may hold) and yesterday's board (None for the first
    minutes of a day, while yesterday's last tries are played)."""
    return {
        "type": "leaderboard",
        "date": day.isoformat(),
        "day": day_number(day),
        "seconds": seconds,
        **standing,
        "rules": {"pace": {"tiles": most_tiles, "seconds": WINDOW}, "places": PLACES},
        "yesterday": yesterday,
    }


def yesterday_board(day: date, game: Game, best: Sequence[Found]) -> dict[str, Any]:
    """Yesterday's first board (``day``'s), the same for everyone, and the best words it held."""
    letters = game.words.letters
    return {
        "date": day.isoformat(),
        "day": day_number(day),
        "board": board(game),
        "best": [
            {
                "word": _faces(entry.word, letters),
                "points": entry.score,
                "path": path_doc(entry.path),
            }
            for entry in best
        ],
    }
