"""Deadlines: one that failed (the store away, say) is tried again; none runs on a stale copy after a stop."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from tests.live.players import FakeClock
from wibble.engines.claims import MemoryClaims
from wibble.live.timers import CLAIM_SLACK, COMPLAIN_EVERY, LATE_SECONDS, RETRY_SECONDS, Timers


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


class TwoProcesses:
    """Two processes' timers over one set of claims, each handing the key ``FIRST`` to a bot
    whose next step comes ``gap`` seconds after each one; ``steps`` says who stepped, and when."""

    def __init__(self, gap: float = 0.25, lease: float = 5.0) -> None:
        self.clock = clock = FakeClock()
        claims = MemoryClaims(clock)
        self.one = Timers(clock, claims, "one", lease=lease)
        self.two = Timers(clock, claims, "two", lease=lease)
        self.steps: list[tuple[str, float]] = []
        for timers, name in ((self.one, "one"), (self.two, "two")):
            timers.route("bot", self._stepper(timers, name, gap))
            timers.set(FIRST, clock())

    def _stepper(self, timers: Timers, name: str, gap: float) -> Callable[[object], None]:
        def handler(key: object) -> None:
            self.steps.append((name, self.clock()))
            timers.set(key, self.clock() + gap)

        return handler

    def run(self, seconds: float, *alive: Timers) -> None:
        """Let ``seconds`` pass, in twentieths of a second, with the ``alive`` processes running."""
        for _ in range(round(seconds / 0.05)):
            for timers in alive:
                timers.run_due()
            self.clock.advance(0.05)

    def who(self) -> set[str]:
        return {name for name, _ in self.steps}


def test_a_process_refused_a_deadline_looks_again_as_the_holders_claim_runs_out() -> None:
    # Two processes hold one match; one drags the bot's word, renewing its claim at each step,
    # and dies. Two, refused all along, takes over as that claim runs out: a lease after one's
    # last step. (Before, two looked again a lease after its own last look, which a renewal since
    # had pushed to nearly two leases after the death: 9.75 s here.)
    both = TwoProcesses()
    both.run(10.0, both.one, both.two)
    assert both.who() == {"one"}  # a live holder is never taken over
    last_step = both.steps[-1][1]
    both.run(8.0, both.two)  # one is dead
    took_over = next(when for name, when in both.steps if name == "two")
    assert 5.0 <= took_over - last_step <= 5.0 + CLAIM_SLACK + 0.1


def test_a_holder_whose_next_step_is_far_off_keeps_the_key_until_then() -> None:
    # A bot thinking longer than a lease before its next step (a host's slow bots) is still the
    # holder's: the other process does not take it over while it thinks.
    both = TwoProcesses(gap=8.0)
    both.run(30.0, both.one, both.two)
    assert both.who() == {"one"}
    assert len(both.steps) == 4  # at 0, 8, 16 and 24 s
    # The holder lets its match go (that step will not come there): the key is the other's at its
    # next look, within a lease, not held until a lease past a step nobody will take (37 s here).
    both.one.cancel(FIRST)
    both.run(5.5, both.two)
    assert both.steps[-1][0] == "two"


def test_a_step_moved_sooner_than_the_one_its_claim_was_held_for_is_taken_over_when_due() -> None:
    # One holds the key for a step 30 s off (a turn's clock), then the step moves to 3 s from now
    # (the turn ended early: the pause between rounds), and one dies. Two takes the step over when
    # it falls due, not once the claim held for the old step runs out (35 s: a round began 32 s late).
    both = TwoProcesses(gap=30.0)
    both.run(0.1, both.one, both.two)
    assert both.who() == {"one"}
    moved = both.clock() + 3.0
    both.one.set(FIRST, moved)
    both.two.set(FIRST, moved)  # (its copy of the match heard the early end too)
    both.run(4.0, both.two)  # one is dead
    assert [name for name, _ in both.steps] == ["one", "two"]
    assert both.steps[-1][1] - moved <= 0.1


def test_a_process_that_stops_lets_go_of_the_claims_it_held_for_steps_to_come() -> None:
    both = TwoProcesses(gap=30.0)
    both.run(0.1, both.one, both.two)
    both.one.stop()  # a graceful restart: the other processes take its next steps when they are due
    both.run(31.0, both.two)
    assert both.steps[-1][0] == "two"
    assert both.steps[-1][1] - both.steps[0][1] <= 30.1


@dataclass
class Stoppable:
    """Timers whose process a test can stop (its monotonic clock jumps while the wall clock stands
    still), and what happened, in order: each deadline handled (its key) and each catch-up."""

    clock: FakeClock = field(default_factory=FakeClock)
    monotonic: FakeClock = field(default_factory=FakeClock)
    happened: list[object] = field(default_factory=list)
    claims: MemoryClaims | None = None

    def __post_init__(self) -> None:
        claims = self.claims or MemoryClaims(self.clock)
        self.timers = Timers(self.clock, claims, on_late=self.catch_up, monotonic=self.monotonic)

    def catch_up(self) -> None:
        self.happened.append("caught up")

    def stop(self) -> None:
        """SIGSTOP, then SIGCONT past a lease."""
        self.monotonic.advance(LATE_SECONDS + 1)

    def due_now(self, *keys: object) -> None:
        for key in keys:
            self.timers.set(key, self.clock())


FIRST, SECOND = ("ABCD", "bot"), ("EFGH", "bot")


def stopped_at_first(process: Stoppable) -> None:
    """Two bots' steps fall due together, and the process is stopped while it handles the first."""

    def handler(key: object) -> None:
        process.happened.append(key)
        if key == FIRST:
            process.stop()

    process.timers.route("bot", handler)
    process.due_now(FIRST, SECOND)


def test_a_process_stopped_partway_through_its_due_deadlines_catches_up_before_the_rest() -> None:
    # Two bots' steps fall due together; SIGSTOP lands while the first is handled. The second must
    # not run on what this process held before it was stopped: other processes may have played
    # that turn meanwhile. It runs once the process has caught up, and is not lost.
    process = Stoppable()
    stopped_at_first(process)
    process.timers.run_due()
    assert process.happened == [FIRST, "caught up", SECOND]


def test_a_handler_that_finds_itself_late_runs_again_after_the_catch_up() -> None:
    # Stopped while the handler worked (a bot choosing its word): it may not act on its copy yet
    # (the bot's drag would be told from a stale match); it sets its deadline again, and runs after.
    process = Stoppable()
    timers = process.timers

    def handler(key: object) -> None:
        if not process.happened:
            process.stop()
        if timers.late():
            process.happened.append("waited")
            timers.set(key, process.clock())
            return
        process.happened.append(key)

    timers.route("bot", handler)
    process.due_now(FIRST)
    timers.run_due()
    assert process.happened == ["waited", "caught up", FIRST]


def test_a_deadline_whose_claim_was_granted_before_a_stop_waits_for_the_catch_up() -> None:
    # The claim was granted, then the process stopped past its lease before it heard so: another
    # process may hold the claim now and have run the deadline. The handler runs after the catch-up.
    class StoppedAsItAsked(MemoryClaims):
        def claim(self, key: str, holder: str, lease: float) -> bool:
            granted = super().claim(key, holder, lease)
            if not process.happened:
                process.stop()
            return granted

    process = Stoppable(claims=StoppedAsItAsked(FakeClock()))
    process.timers.route("bot", process.happened.append)
    process.due_now(FIRST)
    assert process.timers.run_due() == 1
    assert process.happened == ["caught up", FIRST]


def test_a_long_batch_on_a_busy_process_is_no_stop() -> None:
    # Many deadlines at once on a loaded process: the batch takes seconds, all of them working
    # here. Nobody else took anything over meanwhile, and a catch-up would only add to the load.
    process = Stoppable()

    def handler(key: object) -> None:
        process.monotonic.advance(1.0)
        process.happened.append(key)

    process.timers.route("bot", handler)
    keys = [(f"M{n}", "bot") for n in range(5)]
    process.due_now(*keys)
    process.timers.run_due()
    assert process.happened == keys


def test_deadlines_wait_while_the_catch_up_after_a_stop_cannot_be_done() -> None:
    # Woken with Redis away: the catch-up fails, and nothing more runs on what may be stale
    # until it is done (the rest is tried again a little later, catch-up first).
    class AwayAtFirst(Stoppable):
        def catch_up(self) -> None:
            if "refused" not in self.happened:
                self.happened.append("refused")
                raise ConnectionError("Redis is away (injected)")
            super().catch_up()

    process = AwayAtFirst()
    timers, clock = process.timers, process.clock
    stopped_at_first(process)
    assert timers.run_due() == 1
    assert process.happened == [FIRST, "refused"]
    assert timers.when(SECOND) == clock() + RETRY_SECONDS
    clock.advance(RETRY_SECONDS)
    assert timers.run_due() == 1
    assert process.happened == [FIRST, "refused", "caught up", SECOND]


def test_a_catch_up_that_keeps_failing_is_logged_at_once_then_every_so_often(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Redis away for a minute after a stop: the catch-up is tried about once a second, and a
    # host reading the log sees one line at first, then one every COMPLAIN_EVERY seconds, not 60.
    class Away(Stoppable):
        away = True

        def catch_up(self) -> None:
            if self.away:
                raise ConnectionError("Redis is away (injected)")
            super().catch_up()

    process = Away()
    timers, clock = process.timers, process.clock
    stopped_at_first(process)
    with caplog.at_level(logging.WARNING, logger="wibble.live.timers"):
        for _ in range(60):
            timers.run_due()
            clock.advance(RETRY_SECONDS)
            process.monotonic.advance(RETRY_SECONDS)
        said = [r for r in caplog.records if "could not catch up" in r.getMessage()]
        assert len(said) == int(60 * RETRY_SECONDS / COMPLAIN_EVERY)
        process.away = False
        timers.run_due()
    assert process.happened == [FIRST, "caught up", SECOND]


def test_a_fault_of_the_loop_itself_is_logged_and_the_loop_catches_up_and_goes_on(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caught_up, handled = threading.Event(), threading.Event()
    timers = Timers(time.time, on_late=caught_up.set)
    timers.route("bot", lambda key: handled.set())
    real_run_due = timers.run_due
    faults = iter([RuntimeError("a bug in the loop")])

    def run_due() -> int:
        fault = next(faults, None)
        if fault is not None:
            raise fault
        return real_run_due()

    monkeypatch.setattr(timers, "run_due", run_due)
    timers.set(FIRST, time.time())
    with caplog.at_level(logging.ERROR, logger="wibble.live.timers"):
        timers.start()
        try:
            assert caught_up.wait(5 * RETRY_SECONDS)  # what the fault dropped is found again
            assert handled.wait(5 * RETRY_SECONDS)  # and the clocks and bots go on
        finally:
            timers.stop()
    assert "the deadlines' loop failed" in caplog.text
