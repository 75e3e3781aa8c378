"""The ``Engines`` twins: the same methods on each, a memory one whose heartbeat has nothing to do,
and a Redis one whose heartbeat keeps its process alive and catches it up after a gap."""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any

import pytest

from tests.live.players import FakeClock
from wibble.engines import Engines, MemoryEngines
from wibble.engines.redis import RedisEngines, open_engines

CONTRACT = {name for name in vars(Engines) if not name.startswith("_")}


def test_the_twins_offer_every_method_and_property_of_the_contract() -> None:
    assert {"start", "beat", "revive", "stop", "persistence", "bus", "shared"} <= CONTRACT
    assert CONTRACT <= set(dir(MemoryEngines.of(FakeClock(), FakeClock())))
    assert CONTRACT <= {*dir(RedisEngines), *RedisEngines.__dataclass_fields__}


class Hooks:
    def __init__(self) -> None:
        self.beats = 0
        self.revived: list[set[str]] = []
        self.resubscribed: list[set[str]] = []

    def start(self, engines: Any) -> None:
        engines.start(on_beat=self.beat, on_revived=self.revive, on_resubscribe=self.resubscribed.append)

    def beat(self) -> None:
        self.beats += 1

    def revive(self, skipped: Collection[str]) -> None:
        self.revived.append(set(skipped))


def test_the_memory_twin_is_one_process_alone_and_its_heartbeat_does_nothing() -> None:
    engines, hooks = MemoryEngines.of(FakeClock(), FakeClock()), Hooks()
    hooks.start(engines)
    engines.beat()
    engines.revive()
    engines.stop()
    assert (hooks.beats, hooks.revived, hooks.resubscribed) == (0, [], [])
    assert not engines.shared
    assert engines.persistence() is None


@pytest.fixture
def engines(redis_url: str) -> Any:
    opened = open_engines(redis_url)
    yield opened
    opened.stop()


def test_the_redis_twins_beat_tells_the_live_layer_and_a_beat_after_a_gap_revives_first(engines: Any) -> None:
    hooks = Hooks()
    hooks.start(engines)
    assert engines.shared
    assert engines.bus.on_resubscribe == hooks.resubscribed.append
    engines.beat()
    assert (hooks.beats, hooks.revived) == (1, [])
    engines._last_beat = time.monotonic() - engines.presence.ttl - 1  # as if stopped past its expiry
    engines.beat()
    assert (hooks.beats, hooks.revived) == (2, [set()])  # nothing was published meanwhile: no topic skipped


def test_a_shard_of_a_cluster_that_lost_its_data_is_noticed_whichever_it_is(
    redis_cluster: Any, cluster_url: str
) -> None:
    engines = open_engines(cluster_url)
    try:
        assert engines.watch_epoch()
        assert engines.watch_epoch()  # nothing lost: the same tokens
        for master in redis_cluster.masters():  # each shard in turn loses everything it held
            if redis_cluster.cli_call("dbsize", node=master).strip() == "0":
                continue  # (a master left with no slots by a resharding holds nothing to lose)
            redis_cluster.cli_call("flushall", node=master)
            assert not engines.watch_epoch(), f"the master on {master.port} lost its data unnoticed"
            assert engines.watch_epoch()  # (the new tokens, from now on)
    finally:
        engines.stop()


def test_a_redis_that_keeps_only_snapshots_or_nothing_is_named_to_the_host(engines: Any) -> None:
    client = engines.client
    before = {**client.config_get("appendonly"), **client.config_get("save")}
    try:
        client.config_set("appendonly", "yes")
        assert engines.persistence() is None
        client.config_set("appendonly", "no")
        client.config_set("save", "3600 1")  # Redis's own default: a crash loses minutes of moves
        assert "keeps only snapshots" in engines.persistence()
        client.config_set("save", "")
        assert "keeps nothing on disk" in engines.persistence()
    finally:
        client.config_set("save", before["save"])
        client.config_set("appendonly", before["appendonly"])
