"""Deadlines: one that failed (the store away, say) is tried again; none runs on a stale copy after a stop."""

from __future__ import annotations

from tests.live.players import FakeClock
from wibble.engines.claims import MemoryClaims
from wibble.live.timers import LATE_SECONDS, RETRY_SECONDS, Timers


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


def test_a_process_stopped_partway_through_its_due_deadlines_catches_up_before_the_rest() -> None:
    # Two bots' steps fall due together; SIGSTOP lands while the first is handled. The second must
    # not run on what this process held before it was stopped: other processes may have played
    # that turn meanwhile. It runs once the process has caught up, and is not lost.
    clock, monotonic = FakeClock(), FakeClock()
    happened: list[object] = []
    timers = Timers(
        clock,
        MemoryClaims(clock),
        on_late=lambda: happened.append("caught up"),
        monotonic=monotonic,
    )

    def handler(key: object) -> None:
        happened.append(key)
        if len(happened) == 1:
            monotonic.advance(LATE_SECONDS + 1)  # stopped here, for longer than a lease

    timers.route("bot", handler)
    first, second = ("ABCD", "bot"), ("EFGH", "bot")
    timers.set(first, clock())
    timers.set(second, clock())
    timers.run_due()
    assert happened == [first, "caught up", second]


def test_a_handler_that_finds_itself_late_runs_again_after_the_catch_up() -> None:
    # Stopped while the handler worked (a bot choosing its word): it may not act on its copy yet
    # (the bot's drag would be told from a stale match); it sets its deadline again, and runs after.
    clock, monotonic = FakeClock(), FakeClock()
    happened: list[object] = []
    timers = Timers(
        clock,
        MemoryClaims(clock),
        on_late=lambda: happened.append("caught up"),
        monotonic=monotonic,
    )

    def handler(key: object) -> None:
        if not happened:
            monotonic.advance(LATE_SECONDS + 1)
        if timers.late():
            happened.append("waited")
            timers.set(key, clock())
            return
        happened.append(key)

    timers.route("bot", handler)
    timers.set(("ABCD", "bot"), clock())
    timers.run_due()
    assert happened == ["waited", "caught up", ("ABCD", "bot")]


def test_a_deadline_whose_claim_was_granted_before_a_stop_waits_for_the_catch_up() -> None:
    # The claim was granted, then the process stopped past its lease before it heard so: another
    # process may hold the claim now and have run the deadline. The handler runs after the catch-up.
    clock, monotonic = FakeClock(), FakeClock()
    happened: list[object] = []

    class StoppedAsItAsked(MemoryClaims):
        def claim(self, key: str, holder: str, lease: float) -> bool:
            granted = super().claim(key, holder, lease)
            if not happened:
                monotonic.advance(LATE_SECONDS + 1)
            return granted

    timers = Timers(
        clock,
        StoppedAsItAsked(clock),
        on_late=lambda: happened.append("caught up"),
        monotonic=monotonic,
    )
    timers.route("bot", happened.append)
    timers.set(("ABCD", "bot"), clock())
    assert timers.run_due() == 1
    assert happened == ["caught up", ("ABCD", "bot")]


def test_a_long_batch_on_a_busy_process_is_no_stop() -> None:
    # Many deadlines at once on a loaded process: the batch takes seconds, all of them working
    # here. Nobody else took anything over meanwhile, and a catch-up would only add to the load.
    clock, monotonic = FakeClock(), FakeClock()
    happened: list[object] = []
    timers = Timers(
        clock,
        MemoryClaims(clock),
        on_late=lambda: happened.append("caught up"),
        monotonic=monotonic,
    )

    def handler(key: object) -> None:
        monotonic.advance(1.0)
        happened.append(key)

    timers.route("bot", handler)
    keys = [(f"M{n}", "bot") for n in range(5)]
    for key in keys:
        timers.set(key, clock())
    timers.run_due()
    assert happened == keys


def test_deadlines_wait_while_the_catch_up_after_a_stop_cannot_be_done() -> None:
    # Woken with Redis away: the catch-up fails, and nothing more runs on what may be stale
    # until it is done (the rest is tried again a little later, catch-up first).
    clock, monotonic = FakeClock(), FakeClock()
    happened: list[object] = []

    def catch_up() -> None:
        if "refused" not in happened:
            happened.append("refused")
            raise ConnectionError("Redis is away (injected)")
        happened.append("caught up")

    timers = Timers(clock, MemoryClaims(clock), on_late=catch_up, monotonic=monotonic)

    def handler(key: object) -> None:
        happened.append(key)
        if len(happened) == 1:
            monotonic.advance(LATE_SECONDS + 1)

    timers.route("bot", handler)
    first, second = ("ABCD", "bot"), ("EFGH", "bot")
    timers.set(first, clock())
    timers.set(second, clock())
    assert timers.run_due() == 1
    assert happened == [first, "refused"]
    assert timers.when(second) == clock() + RETRY_SECONDS
    clock.advance(RETRY_SECONDS)
    assert timers.run_due() == 1
    assert happened == [first, "refused", "caught up", second]
