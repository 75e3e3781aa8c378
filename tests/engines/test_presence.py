"""What every presence engine promises, in one process and across processes (``harness``): who
is on a topic with which token, and that a process's sessions go once it stops beating."""

from __future__ import annotations

from tests.engines.harness import Engine
from wibble.engines.presence import holders
from wibble.live.credentials import holder_of


def test_presence_names_who_holds_which_token_and_forgets_who_left(engine: Engine) -> None:
    here, there = engine.presence(), engine.presence()
    here.join("room:A", "s1", holder_of("tok"))
    there.join("room:A", "s2", None)
    for anyone in (here, there):
        assert holders(anyone, "room:A") == {holder_of("tok")}
        assert anyone.count("room:A") == 2
    here.leave("room:A", "s1")
    assert holders(there, "room:A") == set()
    assert there.members("room:A") == {"s2": None}


def test_a_topic_nobody_is_on_has_no_members_and_leaving_it_is_harmless(engine: Engine) -> None:
    presence = engine.presence()
    assert presence.members("nobody") == {}
    assert presence.count("nobody") == 0
    presence.leave("nobody", "s1")
    assert presence.members("nobody") == {}


def test_a_session_on_two_topics_that_leaves_one_stays_on_the_other(engine: Engine) -> None:
    here, there = engine.presence(), engine.presence()
    here.join("room:A", "s1", "h1")
    here.join("match-1", "s1", "h1")
    here.leave("room:A", "s1")
    assert there.members("room:A") == {}
    assert there.members("match-1") == {"s1": "h1"}


def test_joining_again_changes_what_the_session_holds(engine: Engine) -> None:
    here, there = engine.presence(), engine.presence()
    here.join("room:A", "s1", None)  # a spectator...
    here.join("room:A", "s1", "h1")  # ...takes a seat
    assert there.members("room:A") == {"s1": "h1"}


def test_a_process_that_stops_beating_loses_its_sessions_after_its_expiry(engine: Engine) -> None:
    beating = engine.presence(ttl=0.6)
    beating.join("m", "s1", "h1")
    observer = engine.presence()
    engine.pass_time(0.3)
    beating.heartbeat(["s1"])
    engine.pass_time(0.3)  # past the first expiry, not the renewed one
    assert observer.members("m") == {"s1": "h1"}
    engine.pass_time(0.7)  # it beat no more, as a process that died
    assert observer.members("m") == {}
    assert observer.count("m") == 0


def test_while_every_process_lives_none_has_departed(engine: Engine) -> None:
    here, there = engine.presence(), engine.presence()
    here.join("room:A", "s1", None)
    assert there.departed() == {}


def test_presence_knows_where_each_session_joined_from_on_every_process(engine: Engine) -> None:
    here, there = engine.presence(), engine.presence()
    here.join("room:A", "s1", None, "addr-1")
    there.join("room:A", "s2", "h2", "addr-2")
    here.join("room:A", "s3", None)  # (no address: a test, or a local socket)
    for anyone in (here, there):
        assert anyone.addresses("room:A") == {"s1": "addr-1", "s2": "addr-2", "s3": ""}
    there.leave("room:A", "s2")
    assert here.addresses("room:A") == {"s1": "addr-1", "s3": ""}
