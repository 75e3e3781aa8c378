"""What only the Redis bus has to get right: a topic heard by one process costs Redis nothing, and
what a process misses while cut off reaches it in order and once, or is named for a snapshot."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from tests.engines.harness import until
from tests.engines.test_bus import listener
from wibble.engines.bus import Unsettled, all_but
from wibble.engines.bus import redis as redis_bus
from wibble.engines.bus.redis import RedisBus
from wibble.engines.presence.redis import RedisPresence
from wibble.engines.redis_client import connect, in_cluster, opener


@pytest.fixture(params=["redis", "cluster"])
def url(request: pytest.FixtureRequest) -> str:
    """One Redis, or a Redis Cluster (whose buses use sharded pub/sub)."""
    return str(request.getfixturevalue("cluster_url" if request.param == "cluster" else "redis_url"))


def cut_off(url: str) -> None:
    """Kill every subscription's connection (on each master of a cluster), as a network cut would."""
    client = connect(url)
    nodes = (
        [client.get_redis_connection(n) for n in client.get_primaries()] if in_cluster(client) else [client]
    )
    for node in nodes:
        node.client_kill_filter(_type="pubsub")
    client.close()


def listeners(url: str, channel: str) -> int:
    """How many connections Redis has subscribed to ``channel`` (sharded pub/sub on a cluster)."""
    client = connect(url)
    try:
        if in_cluster(client):  # (asked of the master that serves the channel's slot)
            counts = client.get_redis_connection(client.get_node_from_key(channel)).pubsub_shardnumsub(
                channel
            )
        else:
            counts = client.pubsub_numsub(channel)
        return int(dict(counts).get(channel, 0))
    finally:
        client.close()


def test_two_processes_buses_hear_each_other_and_a_topic_heard_by_one_costs_redis_nothing(
    url: str,
) -> None:
    a, b = (RedisBus(connect(url), process, open_listener=lambda: connect(url)) for process in ("A", "B"))
    try:
        on_a, on_b = [], []
        a.subscribe("t", listener(on_a))
        a.publish("t", [{"type": "one"}])  # only A listens: A marks the topic as its own...
        assert on_a == [{"type": "one"}]
        assert "t" in a._alone
        a.publish("t", [{"type": "two"}])  # ...and sends nothing to Redis for it any more

        b.subscribe("t", listener(on_b))  # B listens now, and says so
        until(lambda: "t" not in a._alone)
        a.publish("t", [{"type": "three"}], all_but("nobody"))
        until(lambda: on_b == [{"type": "three"}])
        assert on_a == [{"type": "one"}, {"type": "two"}, {"type": "three"}]
    finally:
        a.stop()
        b.stop()


def buses(redis_url: str, **options: Any) -> tuple[RedisBus, RedisBus]:
    """Two processes' buses, each listening on a connection of its own that does not retry by
    itself (as ``open_engines`` makes them): a lost one reaches the bus."""
    made = []
    for process in ("A", "B"):
        alive = RedisPresence(connect(redis_url), process).alive_key  # (alive while the test runs)
        client = connect(redis_url)
        listener = opener(redis_url, client, retry=Retry(NoBackoff(), 0))
        made.append(RedisBus(client, process, open_listener=listener, alive_key=alive, **options))
    return made[0], made[1]


def first_word_heard(a: RedisBus, b: RedisBus, topic: str) -> list[dict[str, Any]]:
    """A and B listen to ``topic``, and A's first word on it (``n`` 1) has reached B: what B hears
    on it, that word first."""
    on_b: list[dict[str, Any]] = []
    a.subscribe(topic, listener([]))
    b.subscribe(topic, listener(on_b))
    until(lambda: topic not in a._alone)
    a.publish(topic, [{"type": "played", "n": 1}], all_but("nobody"))
    until(lambda: len(on_b) == 1)
    return on_b


def test_messages_published_while_a_process_was_cut_off_reach_it_in_order_and_once(url: str) -> None:
    a, b = buses(url)
    missed: list[set[str]] = []
    b.on_resubscribe = missed.append
    try:
        on_b = first_word_heard(a, b, "room:ABCD")

        cut_off(url)  # B (and A) lose their subscriptions
        for n in (2, 3, 4):  # published while B is not listening
            a.publish("room:ABCD", [{"type": "played", "n": n}], all_but("nobody"))
        assert "room:ABCD" not in a._alone  # B still listens, though cut off: it is kept for B
        until(lambda: bool(missed))
        a.publish("room:ABCD", [{"type": "played", "n": 5}], all_but("nobody"))
        until(lambda: len(on_b) >= 5)

        assert [m["n"] for m in on_b] == [1, 2, 3, 4, 5]
        assert missed == [set()]  # everything was replayed: no snapshot needed
    finally:
        a.stop()
        b.stop()


def test_a_topic_whose_history_no_longer_reaches_back_is_named_for_a_snapshot(
    url: str, monkeypatch: Any
) -> None:
    monkeypatch.setattr(redis_bus, "HISTORY", 1)
    a, b = buses(url)
    missed: list[set[str]] = []
    b.on_resubscribe = missed.append
    try:
        on_b: list[dict[str, Any]] = []
        a.subscribe("g1", listener([]))
        b.subscribe("g1", listener(on_b))
        b.subscribe("g2", listener([]))  # nothing ever heard on it: a snapshot too
        until(lambda: "g1" not in a._alone)
        a.publish("g1", [{"type": "n", "n": 1}], all_but("nobody"))
        until(lambda: len(on_b) == 1)
        # B subscribes again only once all of these are published: the history is trimmed
        # roughly (whole blocks of about a hundred entries), so a B back after only a few dozen
        # would still find its last word there, on a busy machine (it failed so once).
        published = threading.Event()
        resubscribe = b._resubscribe
        b._resubscribe = lambda: (published.wait(30), resubscribe())  # type: ignore[method-assign]
        cut_off(url)
        for n in range(2, 400):  # far more than the history keeps
            a.publish("g1", [{"type": "n", "n": n}], all_but("nobody"))
        published.set()
        until(lambda: bool(missed))
        assert missed == [{"g1", "g2"}]
        assert [m["n"] for m in on_b] == sorted(m["n"] for m in on_b)  # what came came in order
    finally:
        a.stop()
        b.stop()


def test_a_replay_or_catch_up_that_fails_as_redis_comes_back_is_tried_again_and_nothing_is_missed(
    url: str,
) -> None:
    """B's subscriptions are back before its commands reach Redis (after a cluster's failover its
    command client learns the new master later): its first tries at reading the history fail, as
    does the live layer's first catch-up. Both are tried again; what B hears meanwhile waits for
    the replay, so B's pages get every word, in order, once."""
    a, b = buses(url)
    missed: list[set[str]] = []
    tries = {"replay": 0, "catch-up": 0}

    def catch_up(gaps: set[str]) -> None:
        tries["catch-up"] += 1
        if tries["catch-up"] == 1:  # the live layer could show nothing afresh yet (presence away)
            raise Unsettled({"room:ABCD"}, "the cluster is failing over (injected)")
        missed.append(gaps)

    b.on_resubscribe = catch_up
    read_history = b.client.xrange

    def xrange(*args: Any, **kwargs: Any) -> Any:
        tries["replay"] += 1
        if tries["replay"] == 2:  # a word published once B listens again, before its replay
            a.publish("room:ABCD", [{"type": "played", "n": 4}], all_but("nobody"))
        if tries["replay"] <= 2:  # until B's command client finds the slot's master
            raise redis.ConnectionError("Error 111 connecting to the old master (injected)")
        return read_history(*args, **kwargs)

    b.client.xrange = xrange  # (the real call, made to fail at first)
    try:
        on_b = first_word_heard(a, b, "room:ABCD")

        cut_off(url)
        for n in (2, 3):  # published while B is not listening: only its history has them
            a.publish("room:ABCD", [{"type": "played", "n": n}], all_but("nobody"))
        until(lambda: bool(missed))
        a.publish("room:ABCD", [{"type": "played", "n": 5}], all_but("nobody"))
        until(lambda: len(on_b) >= 5)

        assert [m["n"] for m in on_b] == [1, 2, 3, 4, 5]
        assert tries["replay"] >= 3  # (more if a cluster's other shard's reader resubscribed too)
        assert missed == [{"room:ABCD"}]  # tried again with what the first catch-up could not show
    finally:
        a.stop()
        b.stop()


def test_a_history_that_cannot_be_read_for_long_is_given_up_for_a_snapshot(
    url: str, monkeypatch: Any
) -> None:
    """B's commands never reach its topic's history: past REPLAY_PATIENCE the topic is named for
    a snapshot instead, and what B heard on it meanwhile, kept back, is delivered."""
    monkeypatch.setattr(redis_bus, "REPLAY_PATIENCE", 3.0)
    a, b = buses(url)
    missed: list[set[str]] = []
    b.on_resubscribe = missed.append

    def xrange(*args: Any, **kwargs: Any) -> Any:
        raise redis.ConnectionError("Error 111 connecting to the old master (injected)")

    try:
        on_b = first_word_heard(a, b, "room:ABCD")
        b.client.xrange = xrange  # (the real call, made to fail for good)
        cut_off(url)
        until(lambda: "room:ABCD" in b._unreplayed and listeners(url, b._channel("room:ABCD")) == 2)
        a.publish("room:ABCD", [{"type": "played", "n": 2}], all_but("nobody"))
        until(lambda: bool(missed))
        assert missed == [{"room:ABCD"}]
        until(lambda: len(on_b) == 2)
        assert on_b[-1] == {"type": "played", "n": 2}
    finally:
        a.stop()
        b.stop()


def test_a_long_subscription_stays_listed_so_what_it_misses_while_cut_off_is_kept_for_it(
    url: str,
) -> None:
    a, b = buses(url, listed_for=0.3)  # a listing lasts 0.3 s unless renewed, not 10 minutes
    try:
        subscribed = time.monotonic()
        a.subscribe("room:ABCD", listener([]))
        b.subscribe("room:ABCD", listener([]))
        until(lambda: b._listed_at > subscribed + 0.3)  # listed again after the first listing ran out
        cut_off(url)
        a.publish("room:ABCD", [{"type": "played"}], all_but("nobody"))
        assert "room:ABCD" not in a._alone  # B, cut off, is still known to listen
    finally:
        a.stop()
        b.stop()


def test_what_msgspec_cannot_write_still_crosses_to_another_process(url: str) -> None:
    """Half a surrogate pair (a client's bad text echoed back) and an int past 64 bits go over
    Redis as json.dumps wrote them; the rest as msgspec writes it. Each arrives as it was sent."""
    a, b = buses(url)
    try:
        on_b: list[dict[str, Any]] = []
        b.subscribe("t", listener(on_b))
        until(lambda: "t" not in a._alone)
        sent = [
            {"type": "played", "name": "Zoë 👩‍⚕️", "n": 1},
            {"type": "error", "request": "\ud800", "n": 2},
            {"type": "played", "seed": 2**64, "name": "Zoë", "n": 3},
        ]
        for message in sent:
            a.publish("t", [message], all_but("nobody"))
        until(lambda: len(on_b) == len(sent))
        assert on_b == sent
    finally:
        a.stop()
        b.stop()


def _spin(stop: Any) -> None:
    while not stop.is_set():
        sum(range(10_000))


def test_a_stopped_bus_leaves_no_subscription_behind_on_a_busy_machine(url: str) -> None:
    """Once ``stop`` returns, Redis counts none of the bus's subscriptions: not one left open by a
    reader still reading as its connection was closed. (Before 2026-12-07, with other processes
    keeping both cores busy, most stops left one behind, on one Redis and on a cluster alike,
    open until the garbage collector found it; a publisher then counted a listener that was
    gone, and never took a topic for its own.)"""
    import multiprocessing

    admin = connect(url)
    channel = "wibble:bus:{t}"
    node = admin.get_redis_connection(admin.get_node_from_key(channel)) if in_cluster(admin) else admin

    def subscribed() -> int:
        counts = node.pubsub_shardnumsub(channel) if in_cluster(admin) else node.pubsub_numsub(channel)
        return int(counts[0][1])

    stop = multiprocessing.Event()
    spinners = [multiprocessing.Process(target=_spin, args=(stop,), daemon=True) for _ in range(3)]
    for spinner in spinners:
        spinner.start()
    left: list[int] = []
    try:
        for n in range(12):  # (most stops left one behind: a dozen rounds see it, if it comes back)
            bus, other = buses(url)
            try:
                bus.subscribe("t", listener([]))
                until(lambda: subscribed() == 1)
            finally:
                bus.stop()
                other.stop()
            if subscribed():
                left.append(n)
                until(lambda: subscribed() == 0)  # (each round starts clean, to count the next one)
    finally:
        stop.set()
        for spinner in spinners:
            spinner.join(5)
        admin.close()
    assert left == [], f"subscriptions left behind after stop in rounds {left}"


def test_on_a_cluster_a_master_that_hangs_is_noticed_and_the_bus_hears_its_replica(
    redis_cluster: Any, tmp_path: Any
) -> None:
    """A master stopped (SIGSTOP: its machine unreachable, no connection closed) is replaced by its
    replica; the subscriptions on the stopped master would wait on it for ever."""
    from tests.redis_server import RedisCluster

    # Its own cluster (one of its masters is stopped), quick to fail over.
    cluster = RedisCluster(tmp_path / "own", node_timeout_ms=1000).start()
    a, b = buses(cluster.url)
    try:
        on_b: list[dict[str, Any]] = []
        a.subscribe("room:HANG", listener([]))
        b.subscribe("room:HANG", listener(on_b))
        until(lambda: "room:HANG" not in a._alone)
        a.publish("room:HANG", [{"type": "n", "n": 0}], all_but("nobody"))
        until(lambda: len(on_b) == 1)
        master = cluster.master_of(b._channel("room:HANG"))
        master.pause()
        try:
            deadline, n = time.monotonic() + 40, 0
            while not any(m["n"] > 0 for m in on_b):  # one published after the stop, heard
                assert time.monotonic() < deadline, "the bus never heard the topic's new master"
                n += 1
                a.publish("room:HANG", [{"type": "n", "n": n}], all_but("nobody"))
                time.sleep(0.25)  # a room's pace of moves
        finally:
            master.resume()
    finally:
        a.stop()
        b.stop()
        cluster.stop()
