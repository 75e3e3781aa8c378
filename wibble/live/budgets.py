"""What one client address may cost the server, and a cap on costly work for everyone.

Per-connection rate limits (``wibble.web.connection``) stop one socket from
flooding; these stop one address from opening many sockets, creating games in a
loop or guessing tokens, and keep board building (the costliest thing a message
can ask for) within what the machine can do while honest players keep their
latency. Each budget is a token bucket; an address's buckets are forgotten once
they are full again, so memory follows the active addresses only.

The counts themselves are kept by a ``Meter`` (``wibble.engines.meter``): in this
process's memory, or in Redis so that behind several processes an address's budgets hold
across all of them together. Board builds stay per process: they guard each process's
own CPU.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from ..core import RuleError
from ..engines.meter import MemoryMeter, Meter
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
    definitions_per_minute: float = 120  # per address: words looked up


class Budgets:
    def __init__(self, limits: Limits, clock: Callable[[], float], meter: Meter | None = None) -> None:
        self.limits = limits
        self.clock = clock
        self.meter: Meter = meter or MemoryMeter(clock)
        rate = limits.board_builds_per_second
        self._builds = TokenBucket(rate, max(1.0, rate), clock)

    @classmethod
    def unlimited(cls, clock: Callable[[], float]) -> Budgets:
        return cls(Limits(UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED), clock)

    # -- connections ------------------------------------------------------------------

    def connect(self, address: str) -> bool:
        """Count a new connection from ``address``; False (and not counted) if it has too many."""
        return self.meter.connect(address, self.limits.connections_per_address)

    def disconnect(self, address: str) -> None:
        self.meter.disconnect(address)

    def connections(self, address: str) -> int:
        return self.meter.connections(address)

    # -- reads --------------------------------------------------------------------------

    def define(self, address: str) -> None:
        """Spend one look-up: a player taps a few words a minute, a script asking the whole
        dictionary is held to this pace on every connection of its address together."""
        per_minute = self.limits.definitions_per_minute
        if per_minute == UNLIMITED:
            return
        if not self.meter.take("definitions", address, per_minute):
            raise RuleError(
                "limit/definitions", "too many definitions asked for from your address; wait a minute"
            )

    # -- games and resumes ------------------------------------------------------------

    def new_game(self, address: str) -> None:
        """Spend one game from the address's budget and one board build from everyone's.

        Either refusal leaves both budgets as they were: a client told ``server/busy`` is
        told to try again, and its retries must not use up the games it has not had.
        """
        self.check_new_game(address)
        self.spend_new_game(address)

    def check_new_game(self, address: str) -> None:
        """Refuse, as ``new_game`` would, without spending: for a start decided inside a commit,
        which may be tried twice (a conflict with another process) and is paid once it is saved."""
        per_minute = self.limits.games_per_minute
        if per_minute != UNLIMITED and self.meter.available("games", address, per_minute) < 1:
            raise RuleError("limit/games", "too many new games from your address; wait a minute")
        if self.limits.board_builds_per_second != UNLIMITED and self._builds.available() < 1:
            raise RuleError("server/busy", "the server is busy starting games; try again in a moment")

    def spend_new_game(self, address: str) -> None:
        """Pay for a game ``check_new_game`` let start (a bucket emptied meanwhile goes into debt)."""
        if self.limits.board_builds_per_second != UNLIMITED:
            self._builds.spend(1)
        per_minute = self.limits.games_per_minute
        if per_minute != UNLIMITED:
            self.meter.take("games", address, per_minute)

    def resuming(self, address: str, open_it: Callable[[], _T]) -> _T:
        """``open_it()`` (a game or match by id and token) for ``address``: refused while the address
        has failed too many (guessing tokens or ids), and a wrong id or token counts as a failure."""
        per_minute = self.limits.failed_resumes_per_minute
        self._check(
            "resumes", address, per_minute, "limit/resumes", "too many failed resumes from your address"
        )
        try:
            return open_it()
        except RuleError as exc:
            if exc.code in ("game/not_found", "game/bad_token"):
                self._spend("resumes", address, per_minute)
            raise

    # -- rooms ------------------------------------------------------------------------

    def check_new_room(self, address: str) -> None:
        """Refuse, as ``new_room`` would, without spending: before a room is closed to make space."""
        per_minute = self.limits.rooms_per_minute
        self._check("rooms", address, per_minute, "limit/rooms", "too many new rooms from your address")

    def new_room(self, address: str) -> None:
        per_minute = self.limits.rooms_per_minute
        if per_minute != UNLIMITED and not self.meter.take("rooms", address, per_minute):
            raise RuleError("limit/rooms", "too many new rooms from your address; wait a minute")

    def check_join(self, address: str) -> None:
        """Refuse a join from an address that has failed too many (guessing room codes or tokens)."""
        per_minute = self.limits.failed_joins_per_minute
        self._check("joins", address, per_minute, "limit/joins", "too many failed joins from your address")

    def failed_join(self, address: str) -> None:
        self._spend("joins", address, self.limits.failed_joins_per_minute)

    # -- helpers ----------------------------------------------------------------------

    def _check(self, kind: str, address: str, per_minute: float, code: str, message: str) -> None:
        """Refuse while an address's failures have emptied its bucket (until it refills)."""
        if per_minute != UNLIMITED and self.meter.available(kind, address, per_minute) < 1:
            raise RuleError(code, f"{message}; wait a minute")

    def _spend(self, kind: str, address: str, per_minute: float) -> None:
        if per_minute != UNLIMITED:
            self.meter.take(kind, address, per_minute)
