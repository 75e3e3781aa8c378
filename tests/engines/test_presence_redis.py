"""Presence in Redis across processes: who died, with what, and what a heartbeat costs."""

from __future__ import annotations

import redis

from tests.engines.harness import until
from wibble.engines.presence.redis import RedisPresence
from wibble.engines.redis_client import connect


def commands(admin: redis.Redis) -> int:
    stats = admin.info("commandstats")
    return sum(int(entry["calls"]) for name, entry in stats.items() if name != "cmdstat_config|resetstat")


def test_a_process_whose_liveness_ran_out_is_departed_with_its_topics_until_seen_to(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    doomed = RedisPresence(client, "host:1:a", ttl=0.3)
    survivor = RedisPresence(client, "host:2:b", ttl=30)
    doomed.join("room:ABCD", "s1", "hash-of-ann")
    doomed.join("match-1", "s2", "hash-of-bo")
    survivor.join("room:ABCD", "s3", "hash-of-cy")
    assert survivor.departed() == {}  # alive: not departed

    # It stops beating, as a SIGKILLed process does, and once its liveness runs out:
    until(lambda: survivor.departed() == {"host:1:a": {"room:ABCD", "match-1"}})
    assert survivor.members("room:ABCD") == {"s3": "hash-of-cy"}
    survivor.forget("host:1:a")
    assert survivor.departed() == {}


def test_a_process_that_stops_cleanly_is_not_departed(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    leaving = RedisPresence(client, "host:1:a")
    other = RedisPresence(client, "host:2:b")
    leaving.join("room:ABCD", "s1", "hash-of-ann")
    leaving.forget_process()
    assert other.departed() == {}
    assert other.members("room:ABCD") == {}


def test_asking_who_died_costs_the_same_however_many_rooms_a_process_is_in(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    mine = RedisPresence(client, "host:1:a")
    RedisPresence(client, "host:2:b")
    for n in range(300):
        mine.join(f"room:R{n:03}", f"s{n}", None)
    with redis.Redis.from_url(redis_url, decode_responses=True) as admin:
        admin.config_resetstat()
        assert mine.departed() == {}
        assert commands(admin) == 2  # the list of processes, and their liveness keys at once


def test_a_process_cut_off_past_its_liveness_comes_back_with_its_sessions(redis_url: str) -> None:
    a = RedisPresence(connect(redis_url), "A", ttl=0.3)
    b = RedisPresence(connect(redis_url), "B", ttl=0.3)
    b.join("room:ABCD", "s1.b", "bo-token")  # Bo is connected on B
    until(lambda: a.members("room:ABCD") == {})  # B misses its beats: A counts Bo gone (and removes him)
    b.beat()  # B is back, and Bo's socket never closed
    assert a.members("room:ABCD") == {"s1.b": "bo-token"}
    b.leave("room:ABCD", "s1.b")
    assert a.members("room:ABCD") == {}
