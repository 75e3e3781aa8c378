"""A race's messages: the race as it stands (``race``), a runner's line on the standings as they
score (``race_standing``), and the end screen (``race_over``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import Game, path_doc
from ..core.letters import LetterTable
from ..core.race import OVER, Race, Result, nobody_found, only_one_found, standing
from ..core.solver import Found, solve
from .messages import _faces, board


def race_snapshot(
    race: Race,
    standings: Mapping[int, Result],
    now: float,
    start: Game | None = None,
    letters: LetterTable | None = None,
) -> dict[str, Any]:
    """The ``race`` message (``for_reader`` adds the reader's own seat as ``you``). ``standings``:
    each runner's score and words so far, as their games hold them; ``start``: the board the race
    began on, for the end screen once it is over; ``letters``: the list's, for the words as the
    tiles show them (as ``race_standing`` tells them)."""
    message: dict[str, Any] = {
        "type": "race",
        "race_id": race.race_id,
        "wordlist": race.wordlist,
        "seconds": race.seconds,
        "deadline": race.deadline,
        "remaining": max(0.0, race.deadline - now),
        "phase": race.phase,
        "runners": [
            {
                "seat": runner.seat,
                "name": runner.name,
                "kind": runner.kind,
                "level": runner.level,
                **_shown(standing(standings.get(runner.seat, Result(runner.seat, 0, ()))), letters),
            }
            for runner in race.runners
        ],
        "version": race.version,
    }
    if race.phase == OVER and start is not None:
        message["over"] = race_over(race, start)
    return message


def race_standing(race_id: str, seat: int, game: Game) -> dict[str, Any]:
    """``race_standing``: a runner scored; their score, word count and last word."""
    line = standing(Result(seat, game.total, tuple(game.found.in_order)))
    return {"type": "race_standing", "race_id": race_id, **_shown(line, game.words.letters)}


def _shown(line: dict[str, Any], letters: LetterTable | None) -> dict[str, Any]:
    """A standing with its last word as the tiles show it."""
    if line["last"] is not None and letters is not None:
        line["last"] = _faces(line["last"], letters)
    return line


def race_over(race: Race, start: Game, best: Sequence[Found] | None = None) -> dict[str, Any]:
    """``race_over``: each runner's words side by side (those nobody else found marked), and the best
    words of the starting board nobody found, each with its path on that board (``start``)."""
    letters = start.words.letters
    alone = only_one_found(race.results)
    names = {runner.seat: runner for runner in race.runners}
    if best is None:
        best = solve(start.board, start.words)
    return {
        "type": "race_over",
        "race_id": race.race_id,
        "results": [
            {
                "seat": result.seat,
                "name": names[result.seat].name,
                "kind": names[result.seat].kind,
                "level": names[result.seat].level,
                "score": result.score,
                "words": [{"word": _faces(w, letters), "points": p} for w, p in result.words],
                "only": [_faces(w, letters) for w in alone.get(result.seat, [])],
            }
            for result in sorted(race.results, key=lambda r: (-r.score, r.seat))
        ],
        "board": board(start),
        "missed": [
            {"word": _faces(entry.word, letters), "points": entry.score, "path": path_doc(entry.path)}
            for entry in nobody_found(best, race.results)
        ],
    }
