"""What one client address may cost the server, and a cap on costly work for everyone.

Per-connection rate limits (``wibble.web.connection``) stop one socket from
flooding; these stop one address from opening many sockets, creating games in a
loop or guessing tokens, and keep board building (the costliest thing a message
can ask for) within what the machine can do while honest players keep their
latency. Each budget is a token bucket; an address's buckets are forgotten once
they are full again, so memory follows the active addresses only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from ..core import RuleError
from ..ratelimit import TokenBucket

UNLIMITED = float("inf")
_T = TypeVar("_T")


@dataclass(frozen=True)
class Limits:
    connections_per_address: float = 50
    games_per_minute: float = 60  # per address
    failed_resumes_per_minute: float = 30  # per address
    board_builds_per_second: float = 100  # the whole server
    rooms_per_minute: float = 5  # per address
    failed_joins_per_minute: float = 20  # per address: room codes or tokens that opened nothing


class Budgets:
    def __init__(self, limits: Limits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        self._connections: dict[str, int] = {}
        self._games: dict[str, TokenBucket] = {}
        self._resumes: dict[str, TokenBucket] = {}
        self._rooms: dict[str, TokenBucket] = {}
        self._joins: dict[str, TokenBucket] = {}
        rate = limits.board_builds_per_second
        self._builds = TokenBucket(rate, max(1.0, rate), clock)
        self._last_prune = clock()

    @classmethod
    def unlimited(cls, clock: Callable[[], float]) -> Budgets:
        return cls(Limits(UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED), clock)

    # -- connections ------------------------------------------------------------------

    def connect(self, address: str) -> bool:
        """Count a new connection from ``address``; False (and not counted) if it has too many."""
        open_now = self._connections.get(address, 0)
        if open_now >= self.limits.connections_per_address:
            return False
        self._connections[address] = open_now + 1
        return True

    def disconnect(self, address: str) -> None:
        left = self._connections.get(address, 0) - 1
        if left > 0:
            self._connections[address] = left
        else:
            self._connections.pop(address, None)

    def connections(self, address: str) -> int:
        return self._connections.get(address, 0)

    # -- games and resumes ------------------------------------------------------------

    def new_game(self, address: str) -> None:
        """Spend one game from the address's budget and one board build from everyone's.

        Either refusal leaves both budgets as they were: a client told ``server/busy`` is
        told to try again, and its retries must not use up the games it has not had.
        """
        per_minute = self.limits.games_per_minute
        games = None if per_minute == UNLIMITED else self._bucket(self._games, address, per_minute)
        if games is not None and games.available() < 1:
            raise RuleError("limit/games", "too many new games from your address; wait a minute")
        if self.limits.board_builds_per_second != UNLIMITED and not self._builds.take():
            raise RuleError("server/busy", "the server is busy starting games; try again in a moment")
        if games is not None:
            games.take()

    def resuming(self, address: str, open_it: Callable[[], _T]) -> _T:
        """``open_it()`` (a game or match by id and token) for ``address``: refused while the address
        has failed too many (guessing tokens or ids), and a wrong id or token counts as a failure."""
        self._check(self._resumes, address, "limit/resumes", "too many failed resumes from your address")
        try:
            return open_it()
        except RuleError as exc:
            if exc.code in ("game/not_found", "game/bad_token"):
                self._spend(self._resumes, address, self.limits.failed_resumes_per_minute)
            raise

    # -- rooms ------------------------------------------------------------------------

    def new_room(self, address: str) -> None:
        per_minute = self.limits.rooms_per_minute
        if per_minute != UNLIMITED and not self._bucket(self._rooms, address, per_minute).take():
            raise RuleError("limit/rooms", "too many new rooms from your address; wait a minute")

    def check_join(self, address: str) -> None:
        """Refuse a join from an address that has failed too many (guessing room codes or tokens)."""
        self._check(self._joins, address, "limit/joins", "too many failed joins from your address")

    def failed_join(self, address: str) -> None:
        self._spend(self._joins, address, self.limits.failed_joins_per_minute)

    # -- helpers ----------------------------------------------------------------------

    def _check(self, buckets: dict[str, TokenBucket], address: str, code: str, message: str) -> None:
        """Refuse while an address's failures have emptied its bucket (until it refills)."""
        bucket = buckets.get(address)
        if bucket is not None and bucket.available() < 1:
            raise RuleError(code, f"{message}; wait a minute")

    def _spend(self, buckets: dict[str, TokenBucket], address: str, per_minute: float) -> None:
        if per_minute != UNLIMITED:
            self._bucket(buckets, address, per_minute).take()

    def _bucket(self, buckets: dict[str, TokenBucket], address: str, per_minute: float) -> TokenBucket:
        self._prune()
        bucket = buckets.get(address)
        if bucket is None:
            bucket = buckets[address] = TokenBucket(per_minute / 60, per_minute, self.clock)
        return bucket

    def _prune(self) -> None:
        """Forget full buckets (addresses that have been quiet long enough to have their whole budget)."""
        now = self.clock()
        if now - self._last_prune < 60:
            return
        self._last_prune = now
        for buckets in (self._games, self._resumes, self._rooms, self._joins):
            for address in [a for a, b in buckets.items() if b.available() >= b.burst]:
                del buckets[address]
