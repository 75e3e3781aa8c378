"""The daily board: one board a day for everyone, and the day's leaderboard, as plain data.

A day is a UTC date. Its seed is a pure function of the date and the host's key (a keyed
BLAKE2b hash), so every player, on every process and after every restart, gets the same first
board, and, since a game's draws are a function of its seed and the draw number, the same
refills in the same order for the same words. The key (``DailyKey``) is the host's own secret,
made once and kept in the store: a key written in this code would let anyone who reads it work
out tomorrow's board tonight. The caller passes in the time and the key's random bytes;
nothing here reads a clock or draws a random number.

The leaderboard of a day is one versioned document (``Leaderboard.to_doc``) that the live
layer commits with a compare-and-set, like a game. It holds each player's one scored
attempt (by the hash of the player's browser-held id, never the id), started when the
sprint starts and scored by the server when the sprint ends: a score never comes from a
client. It also counts scored attempts per client address (hashed with the date), so one
address cannot play the day's board for a score over and over under new player ids.

The ranking is for people, and for one place or two an address: a try played faster than a
person can (``wibble.core.pace``, judged by the live layer from the times the server stamped)
is kept with its score, shown to its player, and not ranked; and of the tries of one
address, only its ``PLACES`` best are ranked (the others are shown to their players, with
why). Both are worked out when the standings are read, so a better third try of an address
takes the place of its lower one. A document written before these rules reads as one whose
tries were all at a person's pace, each from an address of its own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from .errors import GameDataError, RuleError
from .pace import Pace

FIRST_DAY = date(2026, 1, 1)
"""Day number 1 (the share text names a day by its number)."""

DAILY_SECONDS = 180
"""A daily board is a 3-minute sprint."""

TOP = 10
"""How many of the day's best a leaderboard shows (and each player their own rank)."""

PLACES = 2
"""Ranked places one address may hold a day: its best scored tries."""

PUBLIC_KEY = b"wibble-daily-1"
"""The key of the days before a host's own (``DailyKey.since``): anyone can work those out, and
they are all past (a store made before hosts had keys played them)."""

KEY_DOC_ID = "daily-key"
"""Where the store keeps the host's ``DailyKey`` (a document of kind "daily", never served)."""

KEY_BYTES = 32
"""A host key's length: BLAKE2b's longest key."""

_MAX_SEED = (1 << 53) - 1  # a seed a browser's number holds exactly, as every seed


def day_of(now: float) -> date:
    """The UTC date at ``now`` (seconds since the epoch)."""
    return datetime.fromtimestamp(now, tz=UTC).date()


REVEAL_MARGIN = 5.0
"""Seconds past a day's last try before its board is told: the end's own commit and its clock's skew."""


def revealed(day: date, now: float, seconds: float = DAILY_SECONDS) -> bool:
    """Whether every try at ``day``'s board has ended at ``now``, so that what draws it may be told
    (its seed, a try's record and replay, its best words). Not at midnight: a try begun at the
    day's last moment runs ``seconds`` (the daily's length) past it, and its player must not
    meanwhile learn from the day's other tries what its refills will be."""
    midnight = datetime.combine(day + timedelta(days=1), datetime.min.time(), tzinfo=UTC).timestamp()
    return now >= midnight + seconds + REVEAL_MARGIN


def daily_revealed(daily: Mapping[str, Any], sprint: Any, now: float) -> bool:
    """``revealed`` for a try's own ``daily`` fields (its ISO ``date``) and its clock's length (the
    day's, as every try of it is given); a try that names no day is never revealed."""
    try:
        day = date.fromisoformat(daily.get("date"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    seconds = sprint if isinstance(sprint, int | float) and not isinstance(sprint, bool) else DAILY_SECONDS
    return revealed(day, now, seconds)


def day_number(day: date) -> int:
    """The day's number, counting ``FIRST_DAY`` as 1."""
    return (day - FIRST_DAY).days + 1


def seed_of(day: date, key: bytes = PUBLIC_KEY) -> int:
    """The seed of ``day``'s board under ``key``: the same for everyone, and another one each day."""
    digest = hashlib.blake2b(day.isoformat().encode(), key=key, digest_size=8).digest()
    return int.from_bytes(digest, "big") & _MAX_SEED


@dataclass(frozen=True, slots=True)
class DailyKey:
    """A host's key to its daily boards: made once, never changed, so every process and every
    restart draws the same board for a day. Days before ``since`` keep the public key's boards,
    so that a store that already had a day played (before it had a key) keeps that day's board,
    and yesterday's board, shown beside the leaderboard, is the one that was played."""

    secret: bytes
    since: date
    made: float = 0.0
    """When it was made (seconds since the epoch; 0 for a key kept before this was noted)."""

    @classmethod
    def make(cls, secret: bytes, now: float, today: date, played_today: bool) -> DailyKey:
        """A new key from ``secret`` (random bytes), made at ``now``, for boards from today on;
        from tomorrow on if today's board was already played under the public key."""
        if len(secret) != KEY_BYTES:
            raise ValueError(f"a daily key is {KEY_BYTES} bytes")
        return cls(secret, today + timedelta(days=1) if played_today else today, now)

    def first_of(self, other: DailyKey) -> DailyKey:
        """Of two keys one store came to hold (the first was lost, and another process made a new
        one), the one to keep: the one made first, whose boards were played; two made at the
        same moment by their bytes, so that every process keeps the same one."""
        return min(self, other, key=lambda key: (key.made, key.secret))

    def seed(self, day: date) -> int:
        """The seed of ``day``'s board on this host."""
        return seed_of(day, self.secret if day >= self.since else PUBLIC_KEY)

    def to_doc(self) -> dict[str, Any]:
        return {"version": 1, "secret": self.secret.hex(), "since": self.since.isoformat(), "made": self.made}

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> DailyKey:
        try:
            secret, since = bytes.fromhex(str(doc["secret"])), date.fromisoformat(str(doc["since"]))
            made = float(doc.get("made", 0.0))
        except (KeyError, ValueError, TypeError):
            raise GameDataError("the daily key is damaged") from None
        if len(secret) != KEY_BYTES:
            raise GameDataError("the daily key is damaged")
        return cls(secret, since, made)


def yesterday(day: date) -> date:
    return day - timedelta(days=1)


def doc_id(day: date) -> str:
    """Where the store keeps the day's leaderboard."""
    return f"daily-{day.isoformat()}"


def address_key(day: date, address: str) -> str:
    """An address as the day's document counts it: hashed with the date, so no address is stored."""
    return hashlib.sha256(f"{day.isoformat()}|{address}".encode()).hexdigest()[:20]


@dataclass(slots=True)
class Entry:
    """One player's scored attempt: their name, their game, and its score once it ended."""

    name: str
    game_id: str
    score: int | None = None
    words: int = 0
    order: int = 0
    """When it was scored among the day's (the earlier of two equal scores ranks first)."""
    address: str | None = None
    """The try's address as ``address_key`` hashes it (None: a try kept before addresses were)."""
    ranked: bool = True
    """False: played faster than a person can (``pace``), so kept and shown but not ranked."""
    pace: int | None = None
    """The tiles of its busiest ``pace.WINDOW`` seconds, as the server judged them (None: not judged)."""


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    name: str
    score: int
    words: int


class Leaderboard:
    """A day's scored attempts; every change checks first and changes last (``version`` counts them)."""

    def __init__(self, day: date) -> None:
        self.day = day
        self.version = 0
        self.entries: dict[str, Entry] = {}
        self.addresses: dict[str, int] = {}
        self.scored = 0

    def has_played(self, player: str) -> bool:
        return player in self.entries

    def check_start(self, player: str, address: str, per_address: int) -> None:
        """Refuse as ``start`` would, changing nothing: asked before a game is made for the try."""
        if player in self.entries:
            raise RuleError("daily/played", "you have played today's board; a replay is not scored")
        if self.addresses.get(address_key(self.day, address), 0) >= per_address:
            raise RuleError("limit/daily", "too many scored daily games from your address today")

    def start(self, player: str, name: str, game_id: str, address: str, per_address: int) -> None:
        """``player``'s scored attempt begins with ``game_id``; refused if they have one, or if
        ``address`` has started ``per_address`` scored attempts today."""
        self.check_start(player, address, per_address)
        key = address_key(self.day, address)
        self.entries[player] = Entry(name, game_id, address=key)
        self.addresses[key] = self.addresses.get(key, 0) + 1
        self.version += 1

    def finish(self, player: str, game_id: str, score: int, words: int, pace: Pace | None = None) -> bool:
        """The server judged ``game_id`` over at ``score``, played at ``pace``; whether that changed
        anything (a replay, another game, or a score already kept change nothing). A try faster
        than a person can play is kept, not ranked."""
        entry = self.entries.get(player)
        if entry is None or entry.game_id != game_id or entry.score is not None:
            return False
        self.scored += 1
        entry.score, entry.words, entry.order = score, words, self.scored
        if pace is not None:
            entry.pace, entry.ranked = pace.peak, pace.human
        self.version += 1
        return True

    def why_unranked(self, player: str) -> str | None:
        """Why ``player``'s scored try is not ranked: "pace" (faster than a person can play) or
        "address" (their address holds its ``PLACES`` with better tries); None if it is ranked,
        or not scored yet."""
        entry = self.entries.get(player)
        if entry is None or entry.score is None:
            return None
        if not entry.ranked:
            return "pace"
        return None if any(p == player for p, _ in self.standings()) else "address"

    def standings(self) -> list[tuple[str, Standing]]:
        """Every ranked try, best first (equal scores share a rank), with its player: the scored
        tries at a person's pace, at most ``PLACES`` of them (the best) from one address."""
        done = sorted(
            ((p, e) for p, e in self.entries.items() if e.score is not None and e.ranked),
            key=lambda item: (-(item[1].score or 0), item[1].order),
        )
        held: dict[str, int] = {}
        placed = []
        for player, entry in done:
            if entry.address is not None:
                held[entry.address] = held.get(entry.address, 0) + 1
                if held[entry.address] > PLACES:
                    continue
            placed.append((player, entry))
        result: list[tuple[str, Standing]] = []
        for at, (player, entry) in enumerate(placed):
            score = entry.score or 0
            rank = result[-1][1].rank if result and result[-1][1].score == score else at + 1
            result.append((player, Standing(rank, entry.name, score, entry.words)))
        return result

    def view(self, player: str | None, top: int = TOP) -> dict[str, Any]:
        """What a player sees: the top ``top``, their own standing (None until scored; a try that
        is not ranked shows its score, ``rank`` None and why), and how many are ranked."""
        ranked = self.standings()
        you = next((s for p, s in ranked if p == player), None)
        entry = self.entries.get(player) if player is not None else None
        mine: dict[str, Any] | None = None
        if you is not None:
            mine = {**_standing(you), "ranked": True}
        elif entry is not None and entry.score is not None and player is not None:
            mine = {"rank": None, "name": entry.name, "score": entry.score, "words": entry.words}
            mine.update(ranked=False, why=self.why_unranked(player))
        if mine is not None and entry is not None and entry.pace is not None:
            mine["pace"] = entry.pace  # their own busiest stretch, in tiles
        return {
            "top": [_standing(s) for _, s in ranked[:top]],
            "you": mine,
            "played": entry is not None,
            "players": len(ranked),
        }

    # -- the document -------------------------------------------------------------------

    def to_doc(self) -> dict[str, Any]:
        return {
            "date": self.day.isoformat(),
            "version": self.version,
            "scored": self.scored,
            "entries": {
                player: {
                    "name": e.name,
                    "game": e.game_id,
                    "score": e.score,
                    "words": e.words,
                    "order": e.order,
                    "address": e.address,
                    "ranked": e.ranked,
                    "pace": e.pace,
                }
                for player, e in self.entries.items()
            },
            "addresses": dict(self.addresses),
        }

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> Leaderboard:
        try:
            board = cls(date.fromisoformat(doc["date"]))
            board.version, board.scored = _count(doc["version"]), _count(doc["scored"])
            for player, e in doc["entries"].items():
                score, address, ranked, pace = (
                    e["score"],
                    e.get("address"),
                    e.get("ranked", True),
                    e.get("pace"),
                )
                if not (isinstance(e["name"], str) and isinstance(e["game"], str)):
                    raise TypeError
                if not (address is None or isinstance(address, str)) or type(ranked) is not bool:
                    raise TypeError
                board.entries[player] = Entry(
                    e["name"],
                    e["game"],
                    None if score is None else _count(score),
                    _count(e["words"]),
                    _count(e["order"]),
                    address,
                    ranked,
                    None if pace is None else _count(pace),
                )
            board.addresses = {str(k): _count(v) for k, v in doc["addresses"].items()}
        except (KeyError, TypeError, ValueError, AttributeError):
            raise GameDataError("a daily leaderboard's document is damaged") from None
        return board


def _standing(standing: Standing) -> dict[str, Any]:
    return {"rank": standing.rank, "name": standing.name, "score": standing.score, "words": standing.words}


def _count(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise TypeError
    return value
