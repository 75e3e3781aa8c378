"""Every deadline of this process in one place: turn timers, bots' thinking, pauses between rounds.

The deadlines live in a ``Scheduler`` (``wibble.core.schedule``: a binary heap with a
position map), so moving a deadline (a turn extended) or dropping it (a turn that
ended early) is O(log n) and leaves no stale entry behind. One loop, started by the
server, sleeps until the earliest deadline, or until a new earlier one is set, and
then hands each due key ``(id, kind)`` to the handler routed for its kind (matches
handle theirs, rooms theirs). Tests drive it with ``run_due`` and a fake clock.

With several processes, each due key is first claimed (``claims``): the process that
holds the claim handles it, the others look again as the holder's claim runs out.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable

from ..core.schedule import Scheduler
from ..engines.claims import LEASE, Claims, MemoryClaims

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""When a deadline whose handler failed (the store was away, say) falls due again."""
LATE_SECONDS = 2.0
"""A wait that ends this much later than asked, or this long between two looks while deadlines
are handled (``Timers.late``), means the process was stopped meanwhile (SIGSTOP, a paused
machine): ``on_late`` runs before any more deadlines, since other processes may have moved what
this one holds while it slept."""
CLAIM_SLACK = 0.05
"""How long after another's claim runs out a process refused it looks again."""
COMPLAIN_EVERY = 10.0
"""Seconds between two log lines of a catch-up that still cannot be done (it is tried about once
``RETRY_SECONDS``: while Redis is away, a line each time would bury the log)."""


class Timers:
    def __init__(
        self,
        clock: Callable[[], float],
        claims: Claims | None = None,
        holder: str = "",
        lease: float = LEASE,
        on_late: Callable[[], object] = lambda: None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clock = clock
        self.claims: Claims = claims or MemoryClaims(clock)
        self.holder = holder or f"timers-{id(self):x}"
        """Who this process is, to the claims."""
        self.lease = lease
        self._routes: dict[Hashable, Callable[[Hashable], None]] = {}
        self._schedule: Scheduler[Hashable] = Scheduler()
        self._wake = threading.Event()
        self.on_late = on_late
        """Called when the loop wakes ``LATE_SECONDS`` late, or finds it was stopped partway
        through what was due (``late``), before it runs anything more (the engines catch up
        with what other processes did meanwhile: ``Engines.revive``)."""
        self.monotonic = monotonic
        """The clock that tells a stopped process it was (a stopped process's monotonic clock runs on;
        a wall clock may be set)."""
        self._checked: float | None = None
        """While ``run_due`` runs: when it (or a handler) last looked whether it was stopped (``late``)."""
        self._late = False
        """A stop was noticed, and its catch-up (``on_late``) is still to be done."""
        self._complained_at = float("-inf")
        """When a failed catch-up was last logged (``COMPLAIN_EVERY``); -inf once one succeeds."""
        self._loop_complained_at = float("-inf")
        """When a fault of the loop itself was last logged (``COMPLAIN_EVERY``)."""
        self._stopped = False
        self._thread: threading.Thread | None = None
        self._held_ahead: set[str] = set()
        """Claims held here for a step far off (``_handle``): let go if that step is cancelled or
        moved, and when the timers stop."""

    def __len__(self) -> int:
        return len(self._schedule)

    def route(self, kind: Hashable, handler: Callable[[Hashable], None]) -> None:
        """Hand due keys ``(anything, kind)`` to ``handler`` (matches take their kinds, rooms theirs)."""
        self._routes[kind] = handler

    def set(self, key: Hashable, when: float) -> None:
        """Hand ``key`` to its kind's handler at ``when`` (replacing any deadline ``key`` had)."""
        if self._held_ahead and self._schedule.when(key) != when:
            # Held until a lease past the step it was set for (``_handle``): a step moved (a turn
            # ended before its clock, and the pause between rounds is due in 3 s) lets the claim go,
            # or, should this process die, another would wait out the old step's time before
            # taking the new one over. It is claimed again when it falls due.
            self._let_go(key)
        head = self._schedule.peek()
        self._schedule.set(key, when)
        if head is None or when < head[1]:
            self._wake.set()  # the loop sleeps until the old head: wake it to sleep less

    def cancel(self, key: Hashable) -> None:
        self._schedule.cancel(key)
        if self._held_ahead:  # (usually empty: cancel is on the path of players' moves)
            self._let_go(key)  # held for a step that will not come here now

    def _let_go(self, key: Hashable) -> None:
        """Release ``key``'s claim if it is held here ahead of its step."""
        name = repr(key)
        if name in self._held_ahead:
            self._held_ahead.discard(name)
            self._release(name, key)

    def when(self, key: Hashable) -> float | None:
        return self._schedule.when(key)

    def run_due(self) -> int:
        """Hand every due key to its handler, earliest first; returns how many."""
        ran = 0
        self._checked = self.monotonic()
        try:
            while True:
                # One batch at a time: a handler may set a deadline that is already due (a bot's next step).
                due = self._schedule.due(self.clock())
                if not due:
                    return ran
                for n, key in enumerate(due):
                    if self.late():
                        # Stopped since (SIGSTOP lands where it lands): the rest wait for the
                        # catch-up, then are taken out afresh; while it cannot be done (Redis
                        # away), nothing here can be trusted, and they wait a while longer.
                        caught_up = self._catch_up()
                        when = self.clock() + (0.0 if caught_up else RETRY_SECONDS)
                        for rest in due[n:]:
                            if self._schedule.when(rest) is None:
                                self._schedule.set(rest, when)
                        if not caught_up:
                            return ran
                        break
                    kind = key[1] if isinstance(key, tuple) and len(key) == 2 else None
                    handler = self._routes.get(kind)
                    if handler is None:
                        log.error("a deadline of no known kind fell due (%r)", key)
                        continue
                    ran += self._handle(key, handler)
                    if self._thread is not None:
                        time.sleep(0)  # under gevent, let players' messages in between bots' moves
                else:
                    if self.late() and not self._catch_up():  # (a handler found it was stopped)
                        return ran
        finally:
            self._checked = None

    def late(self) -> bool:
        """Whether this process was stopped (SIGSTOP, a paused machine) while it handled what is
        due: other processes may have moved on what that is for meanwhile, and taken over its
        claims. Each call looks how long it has been since the last (``run_due`` calls it before
        each deadline and after each claim; a handler may call it before it tells something no
        commit checks, as a bot before each tile of its drag, from a copy that may be stale); a
        gap of ``LATE_SECONDS`` is a stop, and it stays one until ``on_late`` has caught up.
        (A long batch on a busy process has no such gap: it is no stop.) A handler that finds
        itself late sets its deadline again and returns; it runs after the catch-up."""
        if self._checked is None:  # (not handling deadlines now)
            return self._late
        now = self.monotonic()
        if now - self._checked > LATE_SECONDS:
            self._late = True
        self._checked = now
        return self._late

    def _catch_up(self) -> bool:
        """``on_late``; whether it was done (until it is, this process stays late)."""
        try:
            self.on_late()
        except Exception as exc:
            now = self.monotonic()
            if now - self._complained_at >= COMPLAIN_EVERY:
                self._complained_at = now
                log.warning(
                    "could not catch up after this process was stopped (%s); trying again every %.0f s"
                    " (said again every %.0f s while it fails)",
                    exc,
                    RETRY_SECONDS,
                    COMPLAIN_EVERY,
                )
            return False
        self._late = False
        self._complained_at = float("-inf")
        return True

    def _handle(self, key: Hashable, handler: Callable[[Hashable], None]) -> bool:
        """Claim ``key`` and run its handler; whether it was handled (here or by another process)."""
        name = repr(key)
        try:
            claimed = self.claims.claim(name, self.holder, self.lease)
        except Exception as exc:  # the claims' engine is down: try again shortly, handle nothing now
            log.warning("could not claim a deadline (%r): %s", key, exc)
            self._schedule.set(key, self.clock() + RETRY_SECONDS)
            return True
        if not claimed:
            # Another process handles it; if that one dies, its claim runs out and this one looks
            # again then, not a whole lease from now: a dead holder's bot goes on within a lease of
            # its last step, not two (if the document moved on meanwhile, its copy here has
            # rescheduled or dropped the key).
            # Not sooner than a second, though: a claim let go a moment ago is the holder's work
            # done, and this copy may not have heard its commit yet.
            try:
                wait = min(self.claims.remaining(name), self.lease)
            except Exception:  # (the claim was just refused: the engine answered a moment ago)
                wait = self.lease
            self._schedule.set(key, self.clock() + max(wait + CLAIM_SLACK, RETRY_SECONDS))
            return True
        if self.late():  # stopped while it asked (the claim may be older than another's): catch up first
            self._schedule.set(key, self.clock())
            return False
        self._held_ahead.discard(name)  # (claimed for a lease now: the handler's own ``set`` keeps it)
        try:
            handler(key)
        except Exception:
            log.exception("a deadline's handler failed (%r); trying it again in a second", key)
            if self._schedule.when(key) is None:  # never lose a deadline to a passing failure
                self._schedule.set(key, self.clock() + RETRY_SECONDS)
        after = self._schedule.when(key)
        if after is None:  # nothing more due under this key here: let it go
            self._release(name, key)
        elif after - self.clock() > self.lease / 2 and not self._stopped:
            # Kept for a step that comes a while from now (a bot thinking before its next word):
            # held until a lease past it, or another process would take the key over meanwhile.
            # (The steps of a drag come far sooner, and renew it as they run.) Noted as held before
            # the claim's round trip, during which a player's move may move the step (``set``).
            self._held_ahead.add(name)
            try:
                held = self.claims.claim(name, self.holder, after - self.clock() + self.lease)
            except Exception as exc:  # its lease may run out before the step: the claim decides then
                log.warning("could not hold a deadline's claim until its next step (%r): %s", key, exc)
                held = False
            if not held:
                self._held_ahead.discard(name)
            elif name not in self._held_ahead or self._schedule.when(key) != after or self._stopped:
                self._held_ahead.discard(name)  # moved (or stopped) meanwhile: not for this step
                self._release(name, key)
        return True

    def _release(self, name: str, key: Hashable) -> None:
        """Let go of the claim on ``key`` (named ``name``), now that nothing is due under it here."""
        try:
            self.claims.release(name, self.holder)
        except Exception as exc:  # it runs out with its lease
            log.warning("could not release a deadline's claim (%r): %s", key, exc)

    def loop(self) -> None:
        """Run deadlines as they fall due, until ``stop``. The server runs this in its own greenlet."""
        while not self._stopped:
            try:
                self.run_due()
            except Exception:
                # A fault of this loop's own (a handler's is caught in ``_handle``) must not stop
                # every clock and bot of the server for good: what it dropped is found again as
                # after a stop, by catching up from the store.
                now = self.monotonic()
                if now - self._loop_complained_at >= COMPLAIN_EVERY:  # (a fault that repeats: now and then)
                    self._loop_complained_at = now
                    log.exception("the deadlines' loop failed; catching up from the store in a second")
                self._wake.wait(RETRY_SECONDS)
                self._wake.clear()
                if self._stopped:
                    break
                self._late = True
                self._catch_up()  # (if it cannot be done yet, run_due tries again first)
                continue
            head = self._schedule.peek()
            timeout = None if head is None else max(0.0, head[1] - self.clock())
            asleep = self.monotonic()
            self._wake.wait(timeout)
            self._wake.clear()
            if timeout is not None and self.monotonic() - asleep - timeout > LATE_SECONDS:
                self._late = True
                self._catch_up()  # (if it cannot be done yet, run_due tries again first)

    def start(self) -> None:
        """Run ``loop`` in the background, once (a greenlet under gevent); later calls do nothing."""
        if self._thread is None:
            self._thread = threading.Thread(target=self.loop, name="wibble-timers", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Run nothing more; the claims held for steps far off are let go, so that the processes
        that go on take those steps when they fall due, not a lease after (a claim for a step
        due within half a lease runs out with its lease)."""
        self._stopped = True
        self._wake.set()
        for name in list(self._held_ahead):
            self._held_ahead.discard(name)
            self._release(name, name)
