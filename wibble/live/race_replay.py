"""A race's record and its replay, for the replay page: built from the stored race and its
runners' game records alone (``records.record_of``, ``records.replay_frames``), once it is over.

Every runner played an ordinary sprint game on one seeded board; a race's replay plays each
runner's game again on this server and merges their scored words by when each was found (the
game's ``times``: seconds into its clock, which is the race's), with the standings after each.
A runner's game that is missing, damaged, another race's, or whose words do not add up to the
race's results is refused (``game/unavailable``, ``record/mismatch``), never shown in part.
"""

from __future__ import annotations

import json
import time
from typing import Any

from ..core import GameDataError, Record, RecordError, RuleError
from ..core.race import OVER, Race, Runner
from ..engines.store import Store
from ..wordlists import WordLists
from .records import Kept, record_of, replay_frames

RACE_RECORD_FORMAT = 1


def finished_race(store: Store, race_id: str) -> Race | None:
    """The stored race ``race_id`` once it is over; None if the id is not a race's.

    ``record/in_progress`` while it is run (the runners' boards and words stay theirs until the
    end); ``game/unavailable`` if its document is damaged."""
    row = store.load(race_id)
    if row is None or row.kind != "race":
        return None
    try:
        race = Race.from_doc(row.doc)
    except GameDataError:
        raise RuleError("game/unavailable", "this race's record is damaged") from None
    if race.phase != OVER:
        raise RecordError(
            "record/in_progress", "this race is still being run: its replay opens when it is over"
        )
    return race


def race_record(store: Store, race: Race) -> dict[str, Any]:
    """A finished race's public parts (never its room's code, nor its bots' inner state) and each
    runner's game record, by seat."""
    return {
        "format": RACE_RECORD_FORMAT,
        "kind": "race",
        "race_id": race.race_id,
        "seed": race.seed,
        "wordlist": race.wordlist,
        "seconds": race.seconds,
        "runners": [_runner(runner) for runner in race.runners],
        "results": [result.to_doc() for result in race.results],
        "games": [{"seat": r.seat, "record": _game(store, race, r)[0].to_doc()} for r in race.runners],
    }


def race_replay(store: Store, race: Race, wordlists: WordLists) -> dict[str, Any]:
    """The race step by step: every scored word of every runner in the order they were found,
    each on its runner's board just before it, with the standings after it.

    ``KeyError`` if the list is gone; ``RecordError`` if a runner's game does not replay."""
    words = wordlists.get(race.wordlist)
    timed: list[tuple[float, int, int, dict[str, Any]]] = []
    start = None
    for runner in race.runners:
        record, times = _game(store, race, runner)
        replayed = replay_frames(record, wordlists)
        frames = replayed["frames"]
        board = frames[0]["board"] if frames else replayed["final"]["board"]
        if start is not None and board != start:
            raise RecordError("record/mismatch", f"{runner.name}'s board did not start as the others' did")
        start = board
        scored = [frame for frame in frames if frame["move"]["result"] == "scored"]
        if len(scored) != len(times):
            raise RuleError("game/unavailable", f"{runner.name}'s game in this race is damaged")
        for number, (frame, at) in enumerate(zip(scored, times, strict=True)):
            move = frame["move"]
            step = {
                "at": at,
                "seat": runner.seat,
                "word": move["word"],
                "points": move["points"],
                "path": move["path"],
                "total": move["total"],
                "board": frame["board"],
            }
            timed.append((at, runner.seat, number, step))  # (a tie of time keeps each runner's order)
    steps = [step for *_, step in sorted(timed, key=lambda entry: entry[:3])]
    scores = {runner.seat: 0 for runner in race.runners}
    counts = dict.fromkeys(scores, 0)
    found: dict[int, list[dict[str, Any]]] = {seat: [] for seat in scores}
    for step in steps:
        seat = step["seat"]
        scores[seat] += step["points"]
        counts[seat] += 1
        found[seat].append({"word": step["word"], "points": step["points"], "at": step["at"]})
        step["standings"] = _standings(scores, counts)
    results = {result.seat: result for result in race.results}
    for seat, score in scores.items():
        result = results.get(seat)
        if result is None or (result.score, [p for _, p in result.words]) != (
            score,
            [w["points"] for w in found[seat]],
        ):
            raise RecordError("record/mismatch", "the runners' games do not add up to the race's results")
    return {
        "kind": "race",
        "race_id": race.race_id,
        "wordlist": words.name,
        "wordlist_title": words.title,
        "seed": race.seed,
        "seconds": race.seconds,
        "runners": [_runner(runner) for runner in race.runners],
        "board": start,
        "steps": steps,
        "final": {
            "standings": _standings(scores, counts),
            "words": [{"seat": seat, "words": found[seat]} for seat in scores],
        },
    }


class RaceReplays:
    """Finished races' replays kept ready, as JSON text, the latest ``kept``: a race that is over
    never changes, and replaying every runner's game is the costly part (as ``MatchReplays``)."""

    def __init__(self, wordlists: WordLists, kept: int = 16) -> None:
        self.wordlists = wordlists
        self._kept = Kept(kept)

    def json(self, store: Store, race: Race) -> str:
        """``race_replay`` as JSON text; raises as it does (and keeps nothing then)."""
        return self._kept.get(
            (race.race_id, race.version),
            lambda: json.dumps(race_replay(store, race, self.wordlists), separators=(",", ":")),
        )


def _runner(runner: Runner) -> dict[str, Any]:
    return {"seat": runner.seat, "name": runner.name, "kind": runner.kind, "level": runner.level}


def _standings(scores: dict[int, int], counts: dict[int, int]) -> list[dict[str, int]]:
    """Every runner's score and word count, best first (ties by seat, as the race's end screen)."""
    return [
        {"seat": seat, "score": scores[seat], "words": counts[seat]}
        for seat in sorted(scores, key=lambda seat: (-scores[seat], seat))
    ]


def _game(store: Store, race: Race, runner: Runner) -> tuple[Record, list[float]]:
    """A runner's game record and its scoring times, from the store; ``game/unavailable`` if it is
    gone, damaged, not this race's runner's, or not on the race's board and clock."""
    unavailable = RuleError("game/unavailable", f"{runner.name}'s game in this race is missing or damaged")
    row = store.load(runner.game_id)
    tag = row.doc.get("race") if row is not None and row.kind == "game" else None
    if not isinstance(tag, dict) or (tag.get("race_id"), tag.get("seat")) != (race.race_id, runner.seat):
        raise unavailable
    times = row.doc.get("times") if row is not None else None
    if not (isinstance(times, list) and all(type(t) in (int, float) and t >= 0 for t in times)):
        raise unavailable
    try:
        record = record_of(store, runner.game_id, time.time())
    except RuleError:
        raise unavailable from None
    if (record.seed, record.wordlist, record.sprint) != (race.seed, race.wordlist, race.seconds):
        raise unavailable
    return record, [float(t) for t in times]
