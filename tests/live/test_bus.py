"""The bus, sessions and presence: who hears what, each connection reading snapshots as itself."""

from __future__ import annotations

import json
from typing import Any

from tests.live.players import FakeClock
from wibble import protocol
from wibble.engines.bus import MemoryBus, all_but, holders_of, only
from wibble.engines.presence import MemoryPresence, holders
from wibble.live import Session
from wibble.live.credentials import holder_of
from wibble.live.sessions import Credential


def listener(frames: list[dict[str, Any]], token: str | None = None, topic: str = "t") -> Session:
    session = Session(lambda frame: frames.append(json.loads(frame)))
    if token is not None:
        session.credentials[topic] = Credential.of(token, "Ann")
    return session


def test_everyone_hears_in_order_and_only_the_sender_gets_its_seq() -> None:
    bus, mine, theirs = MemoryBus(), [], []
    me, them = listener(mine), listener(theirs)
    bus.subscribe("t", me)
    bus.subscribe("t", them)
    bus.publish("t", [{"type": "a"}, {"type": "b"}], origin=me.id, seq=7)
    assert mine == [{"type": "a", "seq": 7}, {"type": "b", "seq": 7}]
    assert theirs == [{"type": "a"}, {"type": "b"}]


def test_a_seats_message_reaches_only_the_sessions_holding_its_token() -> None:
    bus, hinted, other_tab, watcher = MemoryBus(), [], [], []
    for frames, token in ((hinted, "seat-0"), (other_tab, "seat-0"), (watcher, None)):
        bus.subscribe("t", listener(frames, token))
    bus.publish("t", [{"type": "hint"}], holders_of(holder_of("seat-0")))
    assert hinted == other_tab == [{"type": "hint"}]
    assert watcher == []


def test_one_session_or_all_but_one() -> None:
    bus, a, b = MemoryBus(), [], []
    first, second = listener(a), listener(b)
    bus.subscribe("t", first)
    bus.subscribe("t", second)
    bus.publish("t", [{"type": "x"}], only(first.id))
    bus.publish("t", [{"type": "y"}], all_but(first.id))
    assert a == [{"type": "x"}]
    assert b == [{"type": "y"}]


def test_a_snapshot_is_published_once_and_each_session_reads_its_own_seat_and_token() -> None:
    bus, seat_1, spectator = MemoryBus(), [], []
    bus.subscribe("room:ABCDEF", listener(seat_1, "tok-1", "room:ABCDEF"))
    bus.subscribe("room:ABCDEF", listener(spectator))
    seats = [holder_of("tok-0"), holder_of("tok-1"), None]
    bus.publish("room:ABCDEF", [protocol.personal({"type": "room", "code": "ABCDEF"}, seats)])
    assert seat_1 == [{"type": "room", "code": "ABCDEF", "you": 1, "name": "Ann", "token": "tok-1"}]
    assert spectator == [{"type": "room", "code": "ABCDEF", "you": None, "name": ""}]


def test_a_session_that_left_hears_nothing_more() -> None:
    bus, frames = MemoryBus(), []
    session = listener(frames)
    bus.subscribe("t", session)
    bus.unsubscribe("t", session)
    bus.publish("t", [{"type": "x"}])
    assert frames == []


def test_presence_names_who_holds_which_token_and_forgets_who_left() -> None:
    presence = MemoryPresence(FakeClock())
    presence.join("room:A", "s1", holder_of("tok"))
    presence.join("room:A", "s2", None)
    assert holders(presence, "room:A") == {holder_of("tok")}
    assert presence.count("room:A") == 2
    presence.leave("room:A", "s1")
    assert holders(presence, "room:A") == set()
    assert presence.members("room:A") == {"s2": None}


def test_an_entry_nobody_refreshes_expires_as_a_dead_processs_sessions_would() -> None:
    clock = FakeClock()
    presence = MemoryPresence(clock, ttl=30.0)
    presence.join("m", "alive", "h1")
    presence.join("m", "dead", "h2")
    clock.advance(20)
    presence.heartbeat(["alive"])
    clock.advance(20)
    assert presence.members("m") == {"alive": "h1"}
    clock.advance(31)
    assert presence.count("m") == 0


def until(condition: Any, seconds: float = 10.0) -> None:
    """Wait for another process's listener (a real thread, real Redis) to have done something."""
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.01)  # polling a condition, not a fixed wait


def test_two_processes_buses_hear_each_other_and_a_topic_heard_by_one_costs_redis_nothing(
    redis_url: str,
) -> None:
    from wibble.engines.bus.redis import RedisBus
    from wibble.engines.redis_client import connect

    a, b = (RedisBus(connect(redis_url), process, listener=connect(redis_url)) for process in ("A", "B"))
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


def test_a_process_cut_off_past_its_liveness_comes_back_with_its_sessions(redis_url: str) -> None:
    from wibble.engines.presence.redis import RedisPresence
    from wibble.engines.redis_client import connect

    a = RedisPresence(connect(redis_url), "A", ttl=0.3)
    b = RedisPresence(connect(redis_url), "B", ttl=0.3)
    b.join("room:ABCD", "s1.b", "bo-token")  # Bo is connected on B
    until(lambda: a.members("room:ABCD") == {})  # B misses its beats: A counts Bo gone (and removes him)
    b.beat()  # B is back, and Bo's socket never closed
    assert a.members("room:ABCD") == {"s1.b": "bo-token"}
    b.leave("room:ABCD", "s1.b")
    assert a.members("room:ABCD") == {}


def test_a_deadline_whose_handler_failed_is_tried_again() -> None:
    from wibble.engines.claims import MemoryClaims
    from wibble.live.timers import RETRY_SECONDS, Timers

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


def buses(redis_url: str) -> tuple[Any, Any]:
    """Two processes' buses, each listening on a connection of its own that does not retry by
    itself (as ``open_engines`` makes them): a lost one reaches the bus."""
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    from wibble.engines.bus import redis as bus
    from wibble.engines.presence.redis import RedisPresence
    from wibble.engines.redis_client import connect

    made = []
    for process in ("A", "B"):
        alive = RedisPresence(connect(redis_url), process).alive_key  # (alive while the test runs)
        listener = connect(redis_url, retry=Retry(NoBackoff(), 0))
        made.append(bus.RedisBus(connect(redis_url), process, listener=listener, alive_key=alive))
    return made[0], made[1]


def test_messages_published_while_a_process_was_cut_off_reach_it_in_order_and_once(redis_url: str) -> None:
    import redis

    a, b = buses(redis_url)
    missed: list[set[str]] = []
    b.on_resubscribe = missed.append
    try:
        on_a, on_b = [], []
        a.subscribe("room:ABCD", listener(on_a))
        b.subscribe("room:ABCD", listener(on_b))
        until(lambda: "room:ABCD" not in a._alone)
        a.publish("room:ABCD", [{"type": "played", "n": 1}], all_but("nobody"))
        until(lambda: len(on_b) == 1)

        with redis.Redis.from_url(redis_url) as admin:
            admin.client_kill_filter(_type="pubsub")  # B (and A) lose their subscriptions
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
    redis_url: str, monkeypatch: Any
) -> None:
    import redis

    from wibble.engines.bus import redis as redis_bus

    monkeypatch.setattr(redis_bus, "HISTORY", 1)
    a, b = buses(redis_url)
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
        with redis.Redis.from_url(redis_url) as admin:
            admin.client_kill_filter(_type="pubsub")
            for n in range(2, 400):  # far more than the history keeps
                a.publish("g1", [{"type": "n", "n": n}], all_but("nobody"))
        until(lambda: bool(missed))
        assert missed == [{"g1", "g2"}]
        assert [m["n"] for m in on_b] == sorted(m["n"] for m in on_b)  # what came came in order
    finally:
        a.stop()
        b.stop()


def test_a_long_subscription_stays_listed_so_what_it_misses_while_cut_off_is_kept_for_it(
    redis_url: str, monkeypatch: Any
) -> None:
    import time

    import redis

    from wibble.engines.bus import redis as redis_bus

    monkeypatch.setattr(redis_bus, "HISTORY_SECONDS", 2)  # lists expire in 2 s, not 10 minutes
    a, b = buses(redis_url)
    try:
        a.subscribe("room:ABCD", listener([]))
        b.subscribe("room:ABCD", listener([]))
        time.sleep(3)  # longer than a listing lives unless it is listed again
        with redis.Redis.from_url(redis_url) as admin:
            admin.client_kill_filter(_type="pubsub")
            a.publish("room:ABCD", [{"type": "played"}], all_but("nobody"))
        assert "room:ABCD" not in a._alone  # B, cut off, is still known to listen
    finally:
        a.stop()
        b.stop()


def test_what_msgspec_cannot_write_still_crosses_to_another_process(redis_url: str) -> None:
    """Half a surrogate pair (a client's bad text echoed back) and an int past 64 bits go over
    Redis as json.dumps wrote them; the rest as msgspec writes it. Each arrives as it was sent."""
    a, b = buses(redis_url)
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
