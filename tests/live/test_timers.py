"""Deadlines: one that failed (the store away, say) is tried again."""

from __future__ import annotations

from tests.live.players import FakeClock
from wibble.engines.claims import MemoryClaims
from wibble.live.timers import RETRY_SECONDS, Timers


def test_a_deadline_whose_handler_failed_is_tried_again() -> None:
    clock = FakeClock()
    timers, calls = Timers(clock, MemoryClaims(clock)), []

    def handler(key: object) -> None:
        calls.append(key)
        if len(calls) == 1:
            raise ConnectionError("Redis went away while the deadline ran")

    timers.route("grace", handler)
    timers.set((("ABCD", "tok"), "grace"), clock())
    timers.run_due()
    clock.advance(RETRY_SECONDS)
    timers.run_due()
    assert len(calls) == 2
