"""What every claims engine promises (``harness``): one holder at a time per key, until it lets go
or its lease runs out, so that one process handles a deadline that several hold."""

from __future__ import annotations

from tests.engines.harness import Engine

LEASE = 30.0


def test_a_free_key_is_taken_and_refused_to_another_holder_while_the_lease_runs(engine: Engine) -> None:
    here, there = engine.claims(), engine.claims()
    assert here.claim("room:A:grace", "p1", LEASE)
    assert not there.claim("room:A:grace", "p2", LEASE)
    assert not here.claim("room:A:grace", "p2", LEASE)


def test_the_holder_renews_its_own_claim(engine: Engine) -> None:
    here, there = engine.claims(), engine.claims()
    assert here.claim("k", "p1", LEASE)
    assert there.claim("k", "p1", LEASE)  # the same holder, on any handle


def test_a_released_key_is_free_and_only_its_holder_can_release_it(engine: Engine) -> None:
    here, there = engine.claims(), engine.claims()
    here.claim("k", "p1", LEASE)
    there.release("k", "p2")  # not p2's: nothing changes
    assert not there.claim("k", "p2", LEASE)
    here.release("k", "p1")
    assert there.claim("k", "p2", LEASE)


def test_once_the_lease_runs_out_another_holder_takes_the_key(engine: Engine) -> None:
    here, there = engine.claims(), engine.claims()
    assert here.claim("k", "p1", 0.2)  # p1 dies without renewing
    engine.pass_time(0.3)
    assert there.claim("k", "p2", LEASE)
    assert not here.claim("k", "p1", LEASE)


def test_keys_are_claimed_apart(engine: Engine) -> None:
    here, there = engine.claims(), engine.claims()
    assert here.claim("a", "p1", LEASE)
    assert there.claim("b", "p2", LEASE)
    assert not there.claim("a", "p2", LEASE)
    assert not here.claim("b", "p1", LEASE)


def test_a_claim_tells_how_long_it_has_left_so_that_another_looks_again_as_it_runs_out(
    engine: Engine,
) -> None:
    here, there = engine.claims(), engine.claims()
    assert there.remaining("k") == 0.0  # nobody's
    here.claim("k", "p1", LEASE)
    assert LEASE - 5 < there.remaining("k") <= LEASE
    here.release("k", "p1")
    assert there.remaining("k") == 0.0
