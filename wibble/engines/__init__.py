"""Engines: the state that server processes share, behind one contract per role.

Five roles: the ``store`` (documents between moves), the ``bus`` (what connections hear),
``presence`` (who is connected where), ``claims`` (which process runs a deadline) and the
``meter`` (what each client address has spent). Each role is a package holding its
contract (``base``) and every engine that keeps it: ``memory`` for one process, ``sqlite``
for the store on one host, and ``redis`` for several processes at once (``wibble serve
--redis``; only then is anything of Redis imported, and the ``redis`` package need not be
installed otherwise). The rules and the live layer talk to the contracts only, and never
know which engine is behind them; ``tests/engines`` runs each role's contract on each of
its engines.

``Engines`` is one process's set of them but the store, as ``wire`` takes it, with the
heartbeat that keeps the process known to the others: ``MemoryEngines`` (``memory``) for
one process, whose heartbeat has nothing to do, and its twin ``RedisEngines`` (``redis``,
with the Redis store too), opened together from one address.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Protocol

from .bus import Bus
from .claims import Claims
from .memory import MemoryEngines
from .meter import Meter
from .presence import Presence


class Engines(Protocol):
    """The engines one process's live layer runs on, but the store (``wire`` takes it apart):
    ``MemoryEngines`` for one process, ``RedisEngines`` (``wibble.engines.redis``) for several."""

    @property
    def bus(self) -> Bus: ...

    @property
    def presence(self) -> Presence: ...

    @property
    def claims(self) -> Claims: ...

    @property
    def meter(self) -> Meter: ...

    @property
    def process(self) -> str:
        """Who this process is, to the claims ("": the timers name themselves)."""

    @property
    def shared(self) -> bool:
        """Whether other live stacks use these engines too: each commit is then rung to them."""

    def start(
        self,
        on_beat: Callable[[], object],
        on_revived: Callable[[Collection[str]], object],
        on_resubscribe: Callable[[set[str]], object],
    ) -> None:
        """Start the heartbeat: ``on_beat`` after each beat (the live layer notices other processes
        that died), ``revive`` before the first beat after a gap (this process was taken for dead),
        which calls ``on_revived``; and the bus calls ``on_resubscribe`` with the topics it could not
        replay after it lost its connection."""

    def beat(self) -> None:
        """One heartbeat (the started heartbeat runs it every few seconds)."""

    def revive(self) -> None:
        """This process was stopped for a while (SIGSTOP, a paused machine): what other processes
        published meanwhile is dropped unheard, ``on_revived`` catches up with the topics that had
        some, then what arrived during the catch-up is delivered. (Also run by the timers when
        they wake late.)"""

    def stop(self) -> None:
        """A clean stop: this process's sessions are gone at once, and its subscriptions end."""

    def persistence(self) -> str | None:
        """A warning for the host if the engines keep nothing on disk that they should (else None)."""


__all__ = ["Engines", "MemoryEngines"]
