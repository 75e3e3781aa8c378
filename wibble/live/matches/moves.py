"""A seat's command that may change a match for good, as the core applies it (``apply``) and as
the match's record keeps it (``ACTIONS``, ``move_doc``)."""

from __future__ import annotations

from typing import Any

from ...core import Pos, path_doc
from ...core.match import BoardChanged, Match, MatchEvent, Played
from ...protocol import Command, Extend, Hint, Pass, Release, Shuffle, Swap

ACTIONS: dict[type, str] = {
    Release: "play",
    Pass: "pass",
    Shuffle: "shuffle",
    Swap: "swap",
    Hint: "hint",
    Extend: "extend",
}
"""What the record calls each command."""


def apply(match: Match, seat: int, command: Command, now: float) -> list[MatchEvent]:
    if isinstance(command, Release):
        return match.release(seat, now)
    if isinstance(command, Pass):
        return match.pass_turn(seat, now)
    if isinstance(command, Shuffle):
        return match.shuffle(seat)
    if isinstance(command, Swap):
        letters = match.words.letters
        symbol = next((letter.symbol for letter in letters if letter.face == command.letter), command.letter)
        return match.swap(seat, command.pos, symbol)
    if isinstance(command, Hint):
        return match.hint(seat)
    if isinstance(command, Extend):
        return match.extend(seat)
    raise TypeError(command)  # pragma: no cover - the router sends only match commands here


def move_doc(match: Match, seat: int | None, action: str, events: list[MatchEvent]) -> dict[str, Any]:
    """What the record keeps of a committed change: its version, who (None: the clock), and what."""
    doc: dict[str, Any] = {"version": match.version, "seat": seat, "action": action}
    played = next((e for e in events if isinstance(e, Played)), None)
    if played is not None:
        doc.update(word=played.word, points=played.score.points, path=path_doc(played.path))
    swapped = next((e for e in events if isinstance(e, BoardChanged) and e.reason == "swap"), None)
    if swapped is not None:
        # Which tile became which letter: without it a replay could not follow the board past a swap.
        row, col = swapped.changed[0]["row"], swapped.changed[0]["col"]
        doc.update(row=row, col=col, letter=match.board[Pos(row, col)].symbol)
    return doc
