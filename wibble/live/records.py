"""A stored game's record, and the frames the replay page draws from it."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from .. import protocol
from ..core import Game, GameDataError, Move, Record, RecordError, RuleError, replay
from ..core.daily import daily_revealed
from ..core.match import Match, MatchMove, MatchRecord, match_differences, replay_match
from ..core.match.record import ENDS_TURN, MATCH_RECORD_FORMAT
from ..engines.store import Store
from ..wordlists import WordLists


def match_record(store: Store, match_id: str) -> dict[str, Any] | None:
    """A stored match's record (seed, list, settings, seats, every committed move, the match now),
    never its tokens; None if ``match_id`` is not a match."""
    row = store.load(match_id)
    if row is None or row.kind != "match":
        return None
    # Until the match is over, its seed and draw counts stay secret: with them, anyone could
    # work out every tile still to come. The room code never leaves the room: a match id may
    # be shared, while the code lets anyone in to watch or take a free seat.
    over = row.doc.get("phase") == "over"
    # Nor is a drag under way (saved when a power was used mid-drag) anybody's: in a 2v2 it is the
    # team's to talk over, and a record is public.
    hidden = {"tokens", "room", "bot", "chain"}
    if not over:
        hidden |= {"seed", "draws", "bot_draws"}
    doc = {key: value for key, value in row.doc.items() if key not in hidden}
    if not over and isinstance(doc.get("history"), list):
        # Each turn's best word waits for the end too: after a pass or a timeout the board
        # has not changed, so it is exactly what the next seat's hint sells.
        doc["history"] = [
            {key: value for key, value in turn.items() if key != "best"} if isinstance(turn, dict) else turn
            for turn in doc["history"]
        ]
    return {
        "format": MATCH_RECORD_FORMAT,
        "kind": "match",
        "match_id": match_id,
        "seed": doc.get("seed"),
        "wordlist": {"name": doc.get("wordlist"), "digest": doc.get("wordlist_digest")},
        "settings": doc.get("settings"),
        "seats": [
            {key: seat.get(key) for key in ("name", "kind", "level", "speed")}
            for seat in doc.get("seats", [])
            if isinstance(seat, dict)
        ],
        "moves": store.moves(match_id),
        "final": doc,
    }


def record_of(store: Store, game_id: str, now: float) -> Record:
    """The record of a stored game; ``RuleError`` game/not_found, or game/unavailable if it is damaged,
    or record/in_progress for a race's runner until the race is over and a daily try until its day is."""
    row = store.load(game_id)
    if row is None:
        raise RuleError("game/not_found", "no such game")
    if row.kind in ("room", "daily"):
        raise RuleError("game/not_found", "no such game")
    if row.kind == "match":
        raise RuleError("record/match", "this is a match, not a game: match_record and match_replay read it")
    race = row.doc.get("race")
    if isinstance(race, dict) and not _race_over(store, race.get("race_id")):
        # A runner's words and board are theirs until the race ends (a watcher learns the id).
        raise RuleError("record/in_progress", "this game is run in a race that is still on; wait for its end")
    daily = row.doc.get("daily")
    if isinstance(daily, dict) and not daily_revealed(daily, row.doc.get("sprint"), now):
        # Its seed draws the board and every refill others are still playing for places today.
        raise RuleError(
            "record/in_progress",
            "this is a try at the daily board, which others are still playing: "
            "its record opens when the day is over (midnight UTC, and the last tries' minutes)",
        )
    try:
        return Record.of(game_id, row.doc, store.moves(game_id))
    except (GameDataError, RecordError):
        raise RuleError("game/unavailable", "this game's record is damaged") from None


def _race_over(store: Store, race_id: Any) -> bool:
    row = store.load(race_id) if isinstance(race_id, str) else None
    return row is not None and row.kind == "race" and row.doc.get("phase") == "over"


def replay_frames(record: Record, wordlists: WordLists) -> dict[str, Any]:
    """The board before every move and the move itself, as the replay page shows them.

    Replays the record with the server's list, so ``RecordError`` if the list changed
    or the replay does not reproduce the record; ``KeyError`` if the list is gone.
    """
    words = wordlists.get(record.wordlist)
    frames: list[dict[str, Any]] = []

    def keep(game: Game, move: Move) -> None:
        frames.append({"board": protocol.board(game), "move": protocol.move(move, words.letters)})

    game = replay(record, words, keep)
    return {
        "game_id": record.game_id,
        "wordlist": words.name,
        "wordlist_title": words.title,
        "seed": record.seed,
        "frames": frames,
        "final": {"board": protocol.board(game), "total": game.total},
    }


def match_replay(doc: dict[str, Any], wordlists: WordLists) -> dict[str, Any]:
    """A match's record played back on this server, step by step, for the replay page.

    Built from the public record alone (``match_record``), so it can tell nothing the
    record does not: a match still being played has no seed there, and is refused
    (``RecordError`` record/in_progress) rather than shown in part. Each step is one move
    a seat (or the clock) made, with the board just before it; the end is the board,
    scores and ranking the end screen showed. ``RecordError`` if the replay does not
    reproduce the record; ``KeyError`` if the list is gone.
    """
    try:
        record = MatchRecord.from_doc(doc)
    except RecordError as exc:
        if exc.code != "record/invalid":
            raise
        raise GameDataError("this match's record is damaged") from None
    if not record.over or record.seed is None:
        raise RecordError(
            "record/in_progress", "this match is still being played: its replay opens when it is over"
        )
    words = wordlists.get(record.wordlist)
    steps: list[dict[str, Any]] = []

    def keep(match: Match, move: MatchMove) -> None:
        if steps:
            steps[-1].update(protocol.seat_counts(match))  # what the last step left
        if move.action != "round":  # a new round is the next step's board, not a step of its own
            steps.append(protocol.replay_step(match, move))

    match = replay_match(record, words, keep)
    difference = match_differences(match, record.final)
    if difference is not None:
        raise RecordError("record/mismatch", f"the replay differs: {difference}")
    if steps:
        steps[-1].update(protocol.seat_counts(match))
    # Each turn's end beside the history entry it wrote: what was played and the best word then,
    # exactly as the end screen has them.
    summary = protocol.match_summary(match.summary(), words.letters)
    ends = iter(summary["turns"])
    for index, step in enumerate(steps):
        if step["action"] in ENDS_TURN:
            turn = next(ends)
            step.update(ended=turn["ended"], best=turn["best"])
            if turn["played"] is not None:
                step.update({key: turn["played"][key] for key in ("word", "path", "points", "breakdown")})
                before = steps[index - 1]["gems"][step["seat"]] if index else match.settings.start_gems
                step["gems_earned"] = step["gems"][step["seat"]] - before
    return {
        "kind": "match",
        "match_id": record.match_id,
        "wordlist": words.name,
        "wordlist_title": words.title,
        "seed": record.seed,
        "rounds": record.settings.rounds,
        "turn_seconds": record.settings.turn_seconds,
        "costs": {
            power: getattr(record.settings.costs, power) for power in ("shuffle", "swap", "hint", "extend")
        },
        "seats": [
            {"name": seat.name, "kind": seat.kind, "level": seat.level, "speed": seat.speed}
            for seat in record.seats
        ],
        "teams": None if record.settings.teams is None else list(record.settings.teams),
        # Where every seat stood before the first step: each step carries where it left them.
        "start": {
            "scores": [0] * len(record.seats),
            "gems": [record.settings.start_gems] * len(record.seats),
        },
        "steps": steps,
        "final": {
            "board": match.tiles(),
            **protocol.seat_counts(match),
            "ranking": summary["ranking"],
            "best_words": summary["best_words"],
            # A 2v2's: each team's total, rank and words, and the winning team (None: a tie).
            **{key: summary[key] for key in ("teams", "winner") if key in summary},
        },
    }


class Kept:
    """The latest ``kept`` JSON texts by key: a finished match's or race's replay never changes,
    and replaying one is the costly part. Requests come on many threads: the cache has a lock,
    and a replay is made outside it (two requests for one new replay may both make it)."""

    def __init__(self, kept: int = 16) -> None:
        self.kept = kept
        self._texts: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], str]) -> str:
        with self._lock:
            text = self._texts.get(key)
            if text is not None:
                self._texts.move_to_end(key)
                return text
        text = make()  # (raises as the replay does, and keeps nothing then)
        with self._lock:
            self._texts[key] = text
            while len(self._texts) > self.kept:
                self._texts.popitem(last=False)
        return text


class MatchReplays:
    """Finished matches' replays kept ready, as JSON text, the latest ``kept``: replaying a long
    one (20 rounds of 6 seats) takes a quarter of a second on the one loop every player shares.
    The record is still read for every request (a match deleted since is gone); only its replay
    is kept, under the record's final version."""

    def __init__(self, wordlists: WordLists, kept: int = 16) -> None:
        self.wordlists = wordlists
        self._kept = Kept(kept)

    def json(self, match_id: str, record: dict[str, Any]) -> str:
        """``match_replay(record)`` as JSON text; raises as it does (and keeps nothing then)."""
        final = record.get("final")
        key = (match_id, final.get("version") if isinstance(final, dict) else None)
        return self._kept.get(
            key, lambda: json.dumps(match_replay(record, self.wordlists), separators=(",", ":"))
        )
