"""A race: everyone in a room plays the same sprint at the same time, each on their own copy of
one seeded board.

Each runner plays an ordinary sprint game (``wibble.core.game``) made from the race's seed, so
every copy starts the same and, since a game's draws are a function of its seed and the draw
number, refills the same for the same words (as the daily board does). The race document holds
what the games do not: who runs (a room seat each, a person or a bot), the one deadline they
share, when each bot plays its next word, and, once the clock has run out, the results.

As every document, a race changes only through its commands, each checked first; the live layer
commits it with a compare-and-set on ``version``. Time comes in as ``now``; nothing here reads a
clock or a global random: a bot's choices and pace are drawn from the race's seed, by its seat
and how many words it has played, so any process that picks the race up plays its bots the same.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from hashlib import blake2b
from typing import Any

from .draws import Draws
from .errors import GameDataError, RuleError
from .fields import count_of, field_of, is_time
from .match import LEVELS
from .solver import Found

DOC_FORMAT = 1
RACING, OVER = "racing", "over"

SETTLE_SECONDS = 1.0
"""The results are read this long after the deadline: a word released just before the clock ran
out (its commit still on its way to the store) counts."""

BOT_PACE = {"easy": (8.0, 12.0), "medium": (5.0, 8.0), "hard": (3.0, 5.0)}
"""Seconds between a bot's words, by level (drawn evenly between the two): well below a fast
person's pace (``wibble.core.pace``), so a bot races as a player of its level would."""

FIRST_WORD_AFTER = 2.0
"""A bot's first word comes no sooner than this after the start (the board has just appeared)."""

MISSED_SHOWN = 10
"""How many of the best words nobody found the end screen shows."""


@dataclass(frozen=True, slots=True)
class Runner:
    """One runner: a room seat's person or bot, and the sprint game they play."""

    seat: int
    name: str
    kind: str
    """"human" or "bot"."""
    level: str | None
    game_id: str
    next_word: float | None = None
    """A bot's: when it plays its next word (seconds since the epoch); None for a person."""
    words: int = 0
    """A bot's: how many words it has played (its dice and pace are drawn by this count)."""

    def to_doc(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "level": self.level,
            "game_id": self.game_id,
            "next_word": self.next_word,
            "words": self.words,
        }


@dataclass(frozen=True, slots=True)
class Result:
    """A runner's race, as read from their game once the clock has run out."""

    seat: int
    score: int
    words: tuple[tuple[str, int], ...]
    """Each word they scored, and its points, in the order they found them."""

    def to_doc(self) -> dict[str, Any]:
        return {"seat": self.seat, "score": self.score, "words": [list(word) for word in self.words]}


class Race:
    """One race; not thread-safe (the live layer holds its lock)."""

    def __init__(
        self,
        race_id: str,
        room: str,
        seed: int,
        wordlist: str,
        seconds: int,
        started: float,
        runners: Sequence[Runner],
    ) -> None:
        if not runners:
            raise ValueError("a race needs a runner")
        if seconds <= 0:
            raise ValueError("a race lasts some seconds")
        self.race_id = race_id
        self.room = room
        self.seed = seed
        self.wordlist = wordlist
        self.seconds = seconds
        self.started = started
        self.deadline = started + seconds
        self.runners = [
            replace(r, next_word=started + bot_pause(seed, r, FIRST_WORD_AFTER)) if r.kind == "bot" else r
            for r in runners
        ]
        self.phase = RACING
        self.results: list[Result] = []
        self.version = 0

    # -- questions ------------------------------------------------------------------------

    def runner(self, seat: int) -> Runner | None:
        return next((r for r in self.runners if r.seat == seat), None)

    def due(self) -> float | None:
        """When something next falls due: a bot's word, or the results once the clock has run out."""
        if self.phase == OVER:
            return None
        times = [r.next_word for r in self.runners if r.next_word is not None and r.next_word < self.deadline]
        return min([*times, self.deadline + SETTLE_SECONDS])

    def bots_due(self, now: float) -> list[Runner]:
        """The bots whose next word, planned before the clock runs out, is due at ``now`` (one
        handled late finds its board over, and plans no more)."""
        if self.phase == OVER:
            return []
        return [
            r
            for r in self.runners
            if r.next_word is not None and r.next_word < self.deadline and r.next_word <= now
        ]

    # -- commands -----------------------------------------------------------------------

    def bot_played(self, seat: int, now: float) -> None:
        """Bot ``seat`` played a word (or found none) at ``now``: its next comes after its pace."""
        runner = self.runner(seat)
        if runner is None or runner.kind != "bot":
            raise RuleError("race/not_a_bot", "that seat is not a bot's")
        if self.phase == OVER:
            raise RuleError("race/over", "the race is over")
        done = replace(runner, words=runner.words + 1)
        self.runners = [
            replace(done, next_word=now + bot_pause(self.seed, done)) if r.seat == seat else r
            for r in self.runners
        ]
        self.version += 1

    def finish(self, results: Sequence[Result], now: float) -> None:
        """The clock has run out (and settled): the race is over, with each runner's result."""
        if self.phase == OVER:
            raise RuleError("race/over", "the race is over")
        if now < self.deadline + SETTLE_SECONDS:
            raise RuleError("race/running", "the race is still on")
        self.results = sorted(results, key=lambda r: r.seat)
        self.phase = OVER
        self.version += 1

    # -- documents ------------------------------------------------------------------------

    def to_doc(self) -> dict[str, Any]:
        return {
            "kind": "race",
            "format": DOC_FORMAT,
            "race_id": self.race_id,
            "room": self.room,
            "seed": self.seed,
            "wordlist": self.wordlist,
            "seconds": self.seconds,
            "started": self.started,
            "runners": [runner.to_doc() for runner in self.runners],
            "phase": self.phase,
            "results": [result.to_doc() for result in self.results],
            "version": self.version,
        }

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> Race:
        """A race from its stored document; ``GameDataError`` if any field is damaged."""
        if doc.get("kind") != "race" or doc.get("format") != DOC_FORMAT:
            raise GameDataError("not a race of a known format")
        started, seconds = doc.get("started"), doc.get("seconds")
        if not isinstance(started, int | float) or not is_time(started):
            raise GameDataError("the race's clock is damaged")
        if type(seconds) is not int or seconds <= 0:
            raise GameDataError("the race's clock is damaged")
        seed = doc.get("seed")
        if type(seed) is not int or seed < 0:
            raise GameDataError("field 'seed' is damaged")
        runners = [_runner(entry) for entry in field_of(doc, "runners", list)]
        if not runners or len({r.seat for r in runners}) != len(runners):
            raise GameDataError("field 'runners' is damaged")
        race = cls(
            field_of(doc, "race_id", str),
            field_of(doc, "room", str),
            seed,
            field_of(doc, "wordlist", str),
            seconds,
            started,
            runners,
        )
        race.runners = runners  # as stored: each bot's next word where it had got to
        phase = doc.get("phase")
        if phase not in (RACING, OVER):
            raise GameDataError("field 'phase' is damaged")
        race.phase = phase
        race.results = [_result(entry) for entry in field_of(doc, "results", list)]
        if not {r.seat for r in race.results} <= {r.seat for r in runners}:
            raise GameDataError("field 'results' names a seat that does not run")
        race.version = count_of(doc, "version")
        return race


# -- bots ---------------------------------------------------------------------------------------


def bot_dice(seed: int, runner: Runner) -> Draws:
    """A bot's dice for its next word: a stream of its own, by the race's seed, its seat and how
    many words it has played, so its choices never move the board's draws and any process draws
    the same."""
    key = blake2b(b"race-bot" + seed.to_bytes(8, "big") + bytes([runner.seat]), digest_size=8).digest()
    return Draws(int.from_bytes(key, "big"), position=8 * runner.words)


def bot_pause(seed: int, runner: Runner, least: float = 0.0) -> float:
    """Seconds until a bot's next word, at its level's pace (at least ``least``)."""
    low, high = BOT_PACE.get(runner.level or "easy", BOT_PACE["easy"])
    dice = bot_dice(seed, runner)
    dice.position += 7  # (the last of this word's draws: its choice draws from the first)
    return max(least, low + (high - low) * dice.random())


# -- the end screen ---------------------------------------------------------------------------


def only_one_found(results: Sequence[Result]) -> dict[int, list[str]]:
    """Each runner's words that no other runner found (seat to words, in their order)."""
    counts = Counter(word for result in results for word in {w for w, _ in result.words})
    return {r.seat: [w for w, _ in r.words if counts[w] == 1] for r in results}


def nobody_found(start: Sequence[Found], results: Sequence[Result], limit: int = MISSED_SHOWN) -> list[Found]:
    """The best words of the starting board (``start``: the solver's list, best first) that no
    runner found, each with a path on that board."""
    found = {word for result in results for word, _ in result.words}
    return [entry for entry in start if entry.word not in found][:limit]


def standing(result: Result) -> dict[str, Any]:
    """A runner's line on the standings: score, word count, last word."""
    return {
        "seat": result.seat,
        "score": result.score,
        "words": len(result.words),
        "last": result.words[-1][0] if result.words else None,
    }


def _runner(entry: Any) -> Runner:
    if not isinstance(entry, Mapping):
        raise GameDataError("a runner is damaged")
    seat, kind, level = entry.get("seat"), entry.get("kind"), entry.get("level")
    next_word = entry.get("next_word")
    if type(seat) is not int or not 0 <= seat < 16 or kind not in ("human", "bot"):
        raise GameDataError("a runner is damaged")
    if (kind == "bot") != (level in LEVELS) or (kind == "bot") != is_time(next_word):
        raise GameDataError("a runner's bot is damaged")
    return Runner(
        seat,
        field_of(entry, "name", str),
        kind,
        level,
        field_of(entry, "game_id", str),
        next_word,
        count_of(entry, "words"),
    )


def _result(entry: Any) -> Result:
    if not isinstance(entry, Mapping):
        raise GameDataError("a result is damaged")
    seat, score, words = entry.get("seat"), entry.get("score"), entry.get("words")
    if type(seat) is not int or type(score) is not int or not isinstance(words, list):
        raise GameDataError("a result is damaged")
    pairs = []
    for pair in words:
        if not (
            isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and type(pair[1]) is int
        ):
            raise GameDataError("a result's words are damaged")
        pairs.append((pair[0], pair[1]))
    return Result(seat, score, tuple(pairs))
