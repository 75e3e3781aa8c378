"""A match's messages: the full snapshot for one seat (or a spectator), each event, the end."""

from __future__ import annotations

from typing import Any

from ..core import path_doc
from ..core.letters import LetterTable
from ..core.match import (
    BoardChanged,
    ChainMoved,
    GemsChanged,
    HintGiven,
    Match,
    MatchEvent,
    MatchMove,
    MatchOver,
    Played,
    Suggested,
    TurnChanged,
    WordRefused,
)
from ..core.match import Phase as MatchPhase
from ..core.solver import Found
from .messages import _faces
from .readers import HINT


def _found(found: Found | None, letters: LetterTable) -> dict[str, Any] | None:
    if found is None:
        return None
    return {"word": _faces(found.word, letters), "path": path_doc(found.path), "points": found.score}


def hint_fields(found: Found | None, letters: LetterTable) -> dict[str, Any]:
    """A hint's word, path and points (a word of None: the board holds none)."""
    return _found(found, letters) or {"word": None, "path": [], "points": 0}


def _turn_doc(turn: dict[str, Any] | None, letters: LetterTable) -> dict[str, Any] | None:
    """A played or best word from a match's history, its word as the tiles read."""
    if turn is None:
        return None
    return {**turn, "word": _faces(turn["word"], letters)}


def match_summary(summary: dict[str, Any], letters: LetterTable) -> dict[str, Any]:
    message = {
        "ranking": summary["ranking"],
        "best_words": [
            {"seat": entry["seat"], "word": _turn_doc(entry["word"], letters)}
            for entry in summary["best_words"]
        ],
        "turns": [
            {**turn, "played": _turn_doc(turn["played"], letters), "best": _turn_doc(turn["best"], letters)}
            for turn in summary["turns"]
        ],
    }
    if "teams" in summary:  # a 2v2: each team's total and words, and the winning team
        message["winner"] = summary["winner"]
        message["teams"] = [
            {**team, "words": [{**w, "word": _turn_doc(w["word"], letters)} for w in team["words"]]}
            for team in summary["teams"]
        ]
    return message


HISTORY_SHOWN = 50
"""Turns a snapshot carries: the latest, as many as a page's log of plays shows. The end screen
has every turn (``summary``), the record too; a 480-turn match made a 355 KB snapshot."""


def _history(match: Match, letters: LetterTable) -> list[dict[str, Any]]:
    """The latest turns. Each turn's best word is left out until the match is over: after a pass
    or a timeout the board has not changed, so it is exactly what the next seat's hint sells."""
    over = match.phase is MatchPhase.OVER
    turns = []
    for turn in match.history[-HISTORY_SHOWN:]:
        entry = {**turn, "played": _turn_doc(turn["played"], letters)}
        if over:
            entry["best"] = _turn_doc(turn["best"], letters)
        else:
            entry.pop("best", None)
        turns.append(entry)
    return turns


def _remaining(deadline: float | None, now: float) -> float | None:
    return None if deadline is None else round(max(0.0, deadline - now), 3)


def match_snapshot(
    match: Match,
    match_id: str,
    token: str | None,
    you: int | None,
    connected: list[bool],
    now: float,
    room: str | None = None,
) -> dict[str, Any]:
    """The full ``match`` message for seat ``you`` (None: a spectator): everything needed to draw the
    match from scratch. The seed is told only once the match is over: with it, anyone could
    work out every tile still to come."""
    words = match.words
    letters = words.letters
    chain = match.chain
    moved = match.chain_moved()
    settings = match.settings
    message: dict[str, Any] = {
        "type": "match",
        "match_id": match_id,
        "you": you,
        "wordlist": words.name,
        "wordlist_title": words.title,
        "language": words.language,
        "min_length": words.min_length,
        "letters": {letter.face: {"score": letter.score, "weight": letter.weight} for letter in letters},
        "size": match.board.size,
        "seats": [
            {
                "name": seat.name,
                "kind": seat.kind,
                "level": seat.level,
                "score": seat.score,
                "gems": seat.gems,
                "speed": seat.speed,
                "connected": seat.kind == "bot" or connected[i],
            }
            for i, seat in enumerate(match.seats)
        ],
        "round": match.round,
        "rounds": settings.rounds,
        "turn": match.turn,
        "turn_no": match.turn_no,
        "deadline": match.deadline,
        "remaining": _remaining(match.deadline, now),
        "phase": match.phase.value,
        "board": match.tiles(),
        "chain": path_doc(chain),
        "word": _faces(moved.word, letters),
        "points": moved.points,
        "status": moved.status,
        "words_left": match.words_left,
        "history": _history(match, letters),
        "costs": {
            "shuffle": settings.costs.shuffle,
            "swap": settings.costs.swap,
            "hint": settings.costs.hint,
            "extend": settings.costs.extend,
        },
        "gem_cap": settings.gem_cap,
        "settings": {
            "rounds": settings.rounds,
            "turn_seconds": settings.turn_seconds,
            "extend_seconds": settings.extend_seconds,
            "scoring": list(settings.scoring),
            "values": settings.values,
        },
        "teams": None if settings.teams is None else list(settings.teams),
        "version": match.version,
    }
    if token is not None:
        message["token"] = token
    if room is not None:
        message["room"] = room
    if match.hinted is not None:  # for the seat that paid (and its teammate): see ``for_reader``
        message[HINT] = {"seat": match.hinted, **hint_fields(match.best(), letters)}
    if match.phase is MatchPhase.OVER:
        message["seed"] = match.draws.seed
        message["summary"] = match_summary(match.summary(), letters)
    return message


def match_event(ev: MatchEvent, letters: LetterTable, now: float) -> dict[str, Any]:
    """The message for one event of a match played with ``letters``."""
    if isinstance(ev, ChainMoved):
        return {
            "type": "chain",
            "seat": ev.seat,
            "chain": path_doc(ev.chain),
            "word": _faces(ev.word, letters),
            "points": ev.points,
            "status": ev.status,
            "version": ev.version,
        }
    if isinstance(ev, Played):
        return {
            "type": "played",
            "seat": ev.seat,
            "word": _faces(ev.word, letters),
            "path": path_doc(ev.path),
            "points": ev.score.points,
            "breakdown": ev.score.to_doc(),
            "gems_earned": ev.gems_earned,
            "score": ev.total,
            "version": ev.version,
        }
    if isinstance(ev, WordRefused):
        return {"type": "word", "seat": ev.seat, "word": _faces(ev.word, letters), "result": ev.result}
    if isinstance(ev, BoardChanged):
        return {
            "type": "board",
            "changed": list(ev.changed),
            "reason": ev.reason,
            "words_left": ev.words_left,
            "version": ev.version,
        }
    if isinstance(ev, GemsChanged):
        return {"type": "gems", "seat": ev.seat, "gems": ev.gems, "version": ev.version}
    if isinstance(ev, TurnChanged):
        return {
            "type": "turn",
            "turn": ev.turn,
            "round": ev.round,
            "turn_no": ev.turn_no,
            "deadline": ev.deadline,
            "remaining": _remaining(ev.deadline, now),
            "phase": ev.phase,
            "passed": ev.passed,
            "version": ev.version,
        }
    if isinstance(ev, Suggested):
        return {"type": "suggestion", "seat": ev.seat, "marks": path_doc(ev.marks)}
    if isinstance(ev, HintGiven):
        return {"type": "hint", **hint_fields(ev.found, letters)}
    if isinstance(ev, MatchOver):
        return {"type": "match_over", **match_summary(ev.summary, letters), "version": ev.version}
    raise TypeError(f"no message for {ev!r}")


def replay_step(match: Match, move: MatchMove) -> dict[str, Any]:
    """One step of a match's replay page, as the match stood just before ``move``: whose turn,
    which round, the board, and what the move was (a hint with the word it sold, a swap with the
    letter it replaced). ``live.records.MatchReplays`` adds what only the next state tells."""
    letters = match.words.letters
    step: dict[str, Any] = {
        "action": move.action,
        "seat": match.turn if move.seat is None else move.seat,
        "round": match.round,
        "turn_no": match.turn_no,
        "board": match.tiles(),
    }
    if move.action == "play":
        tiles = step["board"]
        marked = ("letter", "mult", "word_mult")
        step["marks"] = [{key: tiles[pos.row][pos.col][key] for key in marked} for pos in move.path]
    elif move.action == "swap" and move.swap is not None:
        pos, symbol = move.swap
        step.update(row=pos.row, col=pos.col, was=match.board[pos].face, letter=_faces(symbol, letters))
    elif move.action == "hint":
        step["hint"] = _found(match.best(), letters)
    elif move.action == "extend":
        step["seconds"] = match.settings.extend_seconds
    return step


def seat_counts(match: Match) -> dict[str, list[int]]:
    """Every seat's score and gems, in seat order."""
    return {"scores": [seat.score for seat in match.seats], "gems": [seat.gems for seat in match.seats]}
