"""On a Redis Cluster every script keeps to one hash slot, and so does each of its key patterns.

Redis refuses a script whose keys lie in two slots, so the contract suites (run on a real
cluster) would fail on one; this says it of every script the engines have, by watching
what each master ran (``SLOWLOG`` told to keep every command), and of every key pattern.
"""

from __future__ import annotations

from typing import Any

import redis
from redis.crc import key_slot

from tests.engines.games import new_game, play
from tests.engines.harness import RedisEngine, until
from wibble.engines.bus import MemoryBus
from wibble.engines.bus import redis as bus_redis
from wibble.engines.claims import redis as claims_redis
from wibble.engines.meter import redis as meter_redis
from wibble.engines.presence import redis as presence_redis
from wibble.engines.redis_client import spread_tags
from wibble.engines.store import redis as store_redis
from wibble.engines.store.base import Row
from wibble.live import Session

T0 = 1_700_000_000.0


def slot(name: str) -> int:
    return int(key_slot(name.encode()))


def masters(client: redis.RedisCluster) -> list[redis.Redis]:
    return [client.get_redis_connection(node) for node in client.get_primaries()]


def test_every_script_of_every_engine_keeps_to_one_slot(cluster_url: str) -> None:
    engine = RedisEngine(cluster_url, "cluster")
    store = store_redis.RedisStore(cluster_url)
    nodes = masters(store.client)
    for node in nodes:  # every command from now on, with its arguments
        node.config_set("slowlog-log-slower-than", 0)
        node.config_set("slowlog-max-len", 100_000)
        node.slowlog_reset()
    try:
        # The store: every script, through the Store interface.
        game = new_game(seed=1)
        store.create("g1", "game", game.to_doc(), T0, due=T0 + 10)
        first, second = play(game, 2)
        store.commit("g1", first.expected, first.doc, first.move, T0 + 1, due=T0 + 20)
        store.client.zadd(store._index_of("g1")[0], {"g1": T0 + 5})  # left early: overdue mends it
        assert store.overdue(T0 + 15, 10) == []
        store.touch("g1", T0 + 2)
        row = store.load("g1")
        assert row is not None
        store.import_row(Row("g2", row.kind, row.doc, T0, T0, None), store.moves("g1"))
        assert store.purge(T0 + 1, 10, prefix="g") == 1  # g2 (g1 was used since: kept)
        store.commit("g1", second.expected, second.doc, second.move, T0 + 3)
        store.delete("g1")

        # The bus, heard by two processes (a topic heard by one alone sends nothing to Redis).
        here, there = engine.bus(), engine.bus()
        heard: list[object] = []
        engine.subscribe(here, "room:ABCD", Session(heard.append))
        engine.subscribe(there, "room:ABCD", Session(heard.append))
        here.publish("room:ABCD", [{"type": "hello"}])
        until(lambda: len(heard) == 2)

        # Presence, claims and budgets.
        presence = engine.presence()
        presence.join("room:ABCD", "s1", "seat-1", where="abc")
        assert presence.members("room:ABCD") == {"s1": "seat-1"}
        claims = engine.claims()
        assert claims.claim("due:g1", "A", 5.0)
        claims.release("due:g1", "A")
        meter = engine.meter()
        assert meter.take("move", "198.51.100.7", 60)
        assert meter.available("move", "198.51.100.7", 60) > 0
        engine.close()

        ran = [entry["command"] for node in nodes for entry in node.slowlog_get(100_000)]
    finally:
        for node in nodes:
            node.config_set("slowlog-log-slower-than", 10_000)

    scripts = {
        store_redis.CREATE, store_redis.COMMIT, store_redis.INDEX, store_redis.MEND,
        store_redis.TOUCH, store_redis.DELETE_IF_OLD, store_redis.IMPORT,
        bus_redis.PUBLISH.replace("{command}", "SPUBLISH"),
        claims_redis.CLAIM, claims_redis.RELEASE, meter_redis.BUCKET,
    }  # fmt: skip
    shas = {store.client.script_load(text): text for text in scripts}
    seen = set()
    for command in ran:
        words = command.decode() if isinstance(command, bytes) else command
        name, *args = words.split(" ")
        if name.upper() not in ("EVALSHA", "EVAL"):
            continue
        sha, count, *rest = args
        keys = rest[: int(count)]
        touched = {slot(key) for key in keys}
        if shas.get(sha) == bus_redis.PUBLISH.replace("{command}", "SPUBLISH"):
            touched.add(slot(rest[int(count)]))  # the channel it publishes on
        assert len(touched) == 1, f"a script touched {len(touched)} slots: {words}"
        seen.add(sha)
    assert seen == set(shas), f"never ran: {[shas[sha].strip()[:40] for sha in set(shas) - seen]}"


def test_each_key_pattern_of_a_document_a_topic_and_an_index_bucket_is_one_slot() -> None:
    store = store_redis.RedisStore.__new__(store_redis.RedisStore)
    store.prefix = "wibble"
    for doc_id in ("game:abc", "room:ABCD", "match:x1"):
        assert len({slot(key) for key in store._keys(doc_id)}) == 1
    for tag in spread_tags("due", store_redis.BUCKETS):
        assert slot(f"wibble:{tag}:at") == slot(f"wibble:{tag}:version")
    bus = bus_redis.RedisBus.__new__(bus_redis.RedisBus)
    bus.prefix, bus.local = "wibble", MemoryBus()
    for topic in ("room:ABCD", "game:abc"):
        keys = [bus._channel(topic), bus._history(topic), bus._listeners(topic)]
        assert len({slot(key) for key in keys}) == 1
    presence = presence_redis.RedisPresence.__new__(presence_redis.RedisPresence)
    presence.prefix = "wibble"
    assert slot(presence._topic("room:ABCD")) == slot(presence._where("room:ABCD"))
    # The buckets spread: each master of the 10-master plan in docs/deploy.md (and of any evenly
    # sharded cluster of up to 32) serves some of each index's, and an epoch token.
    for name in ("due", "touched", "epoch"):
        slots = [slot(f"wibble:{tag}") for tag in spread_tags(name, store_redis.BUCKETS)]
        for masters in (3, 10, 32):
            held = {n * masters // 16384 for n in slots}
            assert held == set(range(masters)), (name, masters)


def test_any_node_of_the_cluster_will_do_a_replica_too(redis_cluster: Any, cluster_url: str) -> None:
    """The host names one node; the client learns the rest from it (a replica's address too)."""
    stores = [store_redis.RedisStore(node.url) for node in redis_cluster.nodes]
    game = new_game(seed=3)
    stores[0].create("g1", "game", game.to_doc(), T0)
    steps = play(game, len(stores))
    for store, step in zip(stores, steps, strict=True):  # each commit through another node's address
        store.commit("g1", step.expected, step.doc, step.move, T0 + 1)
    for store in stores:
        row = store.load("g1")
        assert row is not None
        assert row.doc == steps[-1].doc
        assert store.description.startswith("the Redis Cluster at")
