"""What every meter promises (``harness``): each address's buckets and connections, counted the same
on every process, so that an address's budgets hold across all of them together."""

from __future__ import annotations

import pytest

from tests.engines.harness import Engine

ME, SOMEONE_ELSE = "198.51.100.7", "203.0.113.9"


def test_a_bucket_starts_full_and_past_its_burst_refuses_on_every_process(engine: Engine) -> None:
    here, there = engine.meter(), engine.meter()
    assert here.available("games", ME, 3) == 3
    assert here.take("games", ME, 3)
    assert there.take("games", ME, 3)
    assert here.available("games", ME, 3) == pytest.approx(1, abs=0.1)  # (refilling at 3 a minute)
    assert there.take("games", ME, 3)
    assert not here.take("games", ME, 3)  # refused, and nothing taken
    assert there.available("games", ME, 3) == pytest.approx(0, abs=0.1)


def test_each_address_and_each_kind_has_its_own_bucket(engine: Engine) -> None:
    here, there = engine.meter(), engine.meter()
    for _ in range(2):
        here.take("games", ME, 2)
    assert not there.take("games", ME, 2)
    assert there.take("games", SOMEONE_ELSE, 2)
    assert there.take("rooms", ME, 2)


def test_a_spent_bucket_fills_again_with_time(engine: Engine) -> None:
    here, there = engine.meter(), engine.meter()
    for _ in range(60):  # a minute's worth, at one a second
        assert here.take("joins", ME, 60)
    assert not there.take("joins", ME, 60)
    engine.pass_time(1.1)
    assert there.take("joins", ME, 60)
    assert not here.take("joins", ME, 60)


def test_connections_are_counted_on_every_process_up_to_the_limit(engine: Engine) -> None:
    here, there = engine.meter(), engine.meter()
    assert here.connect(ME, 3)
    assert there.connect(ME, 3)
    assert here.connect(ME, 3)
    assert not there.connect(ME, 3)  # refused, and not counted
    assert here.connections(ME) == there.connections(ME) == 3
    assert there.connections(SOMEONE_ELSE) == 0
    here.disconnect(ME)
    assert there.connect(ME, 3)
    for meter in (here, there, there):  # each process ends the connections it counted
        meter.disconnect(ME)
    assert here.connections(ME) == 0
