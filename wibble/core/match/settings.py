"""A match's rules, as data: the defaults are Spellcast's, and each is a setting of the match."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ..errors import GameDataError
from ..scoring import MATCH_ORDER, check_order
from ..wordlist import CLASSIC, TABLE_NAME

LEVELS = ("easy", "medium", "hard")
SPELLCAST = "spellcast"
"""The value table a match plays with unless its host chooses the list's classic values."""
VALUES = (SPELLCAST, CLASSIC)
"""What a host may choose from; a list without a Spellcast table plays its classic values either way."""
MAX_SEATS = 6
BOT_NAMES = ("Ada", "Basil", "Cleo", "Dmitri", "Edda", "Flo")
"""Bots' names, one a seat: a match against bots names them in order; a room gives a new bot the
first name no seat has."""
MAX_ROUNDS = 20
"""A match is 1 to this many rounds (a room's rules, ``new_match``)."""
TURN_SECONDS = (5, 600)
"""The shortest and longest a timed turn may be, in seconds (untimed: None)."""


@dataclass(frozen=True, slots=True)
class Costs:
    """What each power costs, in gems."""

    shuffle: int = 1
    swap: int = 3
    hint: int = 4
    extend: int = 1


@dataclass(frozen=True, slots=True)
class Settings:
    rounds: int = 5
    turn_seconds: int | None = None
    """None: turns are untimed. Otherwise a turn passes by itself after this many seconds."""
    round_pause: float = 3.0
    """Seconds between the last turn of a round and the first of the next (the page shows the scores)."""
    extend_seconds: int = 15
    gem_tiles: int = 10
    """How many tiles carry a gem; topped up after every refill."""
    gem_cap: int = 10
    start_gems: int = 3
    triple_chance: float = 0.25
    """The chance that the letter multiplier is a TL rather than a DL."""
    word_mult_from: int = 2
    """The round from which the board has a 2x tile."""
    scoring: tuple[str, ...] = MATCH_ORDER
    costs: Costs = field(default_factory=Costs)
    values: str = SPELLCAST
    """The word list's value table the letters score by (``classic``: the list's own scores). A match
    names the table it was played with; one the list lacks becomes ``classic`` when the match begins.
    A document saved before matches named one has none: it was played with the classic values."""
    teams: tuple[int, ...] | None = None
    """A 2v2's teams: each seat's team (0 is team A, 1 team B), in seat order. None: every seat
    plays for itself (and a document saved before teams existed has none)."""

    def __post_init__(self) -> None:
        check_order(self.scoring)
        if self.teams is not None and not _two_teams(self.teams):
            raise ValueError("teams must give each of 2-6 seats team 0 or 1, with both teams seated")
        named = isinstance(self.values, str) and (self.values == CLASSIC or TABLE_NAME.fullmatch(self.values))
        if not named:
            raise ValueError("values must name a value table of the word list, or 'classic'")
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise ValueError(f"rounds must be 1-{MAX_ROUNDS}")
        if self.turn_seconds is not None and not TURN_SECONDS[0] <= self.turn_seconds <= TURN_SECONDS[1]:
            raise ValueError(
                f"turn_seconds must be {TURN_SECONDS[0]}-{TURN_SECONDS[1]}, or None for untimed turns"
            )
        if not 0 <= self.round_pause <= 60:
            raise ValueError("round_pause must be 0-60 seconds")
        if not (0 <= self.start_gems <= self.gem_cap and 0 <= self.gem_tiles <= 25):
            raise ValueError("gem settings out of range")
        if not 0.0 <= self.triple_chance <= 1.0:
            raise ValueError("triple_chance must be 0-1")

    def to_doc(self) -> dict[str, Any]:
        # What ``asdict`` gave, field by field: asdict walks and deep-copies every value, and was
        # most of the cost of a match's document, which is built at every committed play.
        doc = {name: getattr(self, name) for name in _FIELDS}
        doc["scoring"] = list(self.scoring)
        doc["costs"] = {name: getattr(self.costs, name) for name in _COST_FIELDS}
        if self.teams is None:
            del doc["teams"]  # a match of each for themselves reads exactly as before teams existed
        else:
            doc["teams"] = list(self.teams)
        return doc

    @classmethod
    def from_doc(cls, doc: Any) -> Settings:
        if not isinstance(doc, Mapping):
            raise GameDataError("field 'settings' is not an object")
        try:
            values = {f.name: doc[f.name] for f in fields(cls) if f.name in doc}
            values.setdefault("values", CLASSIC)  # saved before a match named its table
            if "costs" in values:
                values["costs"] = Costs(**values["costs"])
            if "scoring" in values:
                values["scoring"] = tuple(values["scoring"])
            if values.get("teams") is not None:
                values["teams"] = tuple(values["teams"])
            settings = cls(**values)
        except (TypeError, ValueError) as exc:
            raise GameDataError(f"field 'settings' is damaged: {exc}") from None
        _check_types(settings)
        return settings


_FIELDS = tuple(f.name for f in fields(Settings))
_COST_FIELDS = tuple(f.name for f in fields(Costs))
_WHOLE = ("rounds", "extend_seconds", "gem_tiles", "gem_cap", "start_gems", "word_mult_from")


def _two_teams(teams: Any) -> bool:
    return (
        isinstance(teams, tuple)
        and 2 <= len(teams) <= MAX_SEATS
        and all(type(team) is int for team in teams)
        and set(teams) == {0, 1}
    )


def _check_types(settings: Settings) -> None:
    """A stored setting of the wrong type (text, a fraction, a bool) is damage, not a value to coerce."""

    def whole(value: Any) -> bool:
        return type(value) is int and value >= 0

    def number(value: Any) -> bool:
        return type(value) in (int, float) and value == value  # not NaN

    bad = [name for name in _WHOLE if not whole(getattr(settings, name))]
    bad += [
        name for name in ("shuffle", "swap", "hint", "extend") if not whole(getattr(settings.costs, name))
    ]
    if not (settings.turn_seconds is None or whole(settings.turn_seconds)):
        bad.append("turn_seconds")
    bad += [name for name in ("round_pause", "triple_chance") if not number(getattr(settings, name))]
    if not all(isinstance(name, str) for name in settings.scoring):
        bad.append("scoring")
    if bad:
        raise GameDataError(f"settings {bad} are damaged")
