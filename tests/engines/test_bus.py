"""What every bus promises, in one process and across processes (each engine in ``harness``):
who on a topic hears what, in order, each session reading snapshots as itself."""

from __future__ import annotations

import json
from typing import Any

from tests.engines.harness import Engine
from tests.support import messages_in
from wibble import protocol
from wibble.engines.bus import all_but, holders_of, only
from wibble.live import Session
from wibble.live.credentials import holder_of
from wibble.live.sessions import Credential

Frames = list[dict[str, Any]]
MARK = {"type": "mark"}
"""Published to everyone after what some must not hear: once it has arrived, so would that have."""


def listener(frames: Frames, token: str | None = None, topic: str = "t") -> Session:
    session = Session(lambda frame: frames.extend(messages_in(frame)))
    if token is not None:
        session.credentials[topic] = Credential.of(token, "Ann")
    return session


def test_everyone_hears_in_order_and_only_the_sender_gets_its_seq(engine: Engine) -> None:
    here, there = engine.bus(), engine.bus()
    mine, near, far = [], [], []
    me = listener(mine)
    engine.subscribe(here, "t", me)
    engine.subscribe(here, "t", listener(near))
    engine.subscribe(there, "t", listener(far))
    here.publish("t", [{"type": "a"}, {"type": "b"}], origin=me.id, seq=7)
    engine.settle(lambda: len(far) == 2)
    assert mine == [{"type": "a", "seq": 7}, {"type": "b", "seq": 7}]
    assert near == far == [{"type": "a"}, {"type": "b"}]


def test_what_one_publish_says_is_one_frame_to_each_session(engine: Engine) -> None:
    """A move that says several things (a word played, its refill, the next turn) costs each
    connection one websocket message, an array in order; a message alone stays an object."""
    here, there = engine.bus(), engine.bus()
    mine, near, far = [], [], []
    me = Session(mine.append)
    engine.subscribe(here, "t", me)
    engine.subscribe(here, "t", Session(near.append))
    engine.subscribe(there, "t", Session(far.append))
    here.publish("t", [{"type": "a"}, {"type": "b"}], origin=me.id, seq=7)
    here.publish("t", [], origin=me.id, seq=8)  # nothing to say: no frame at all
    here.publish("t", [MARK])
    engine.settle(lambda: len(far) == 2)
    assert [json.loads(frame) for frame in mine] == [[{"type": "a", "seq": 7}, {"type": "b", "seq": 7}], MARK]
    assert near == far
    assert [json.loads(frame) for frame in near] == [[{"type": "a"}, {"type": "b"}], MARK]


def test_a_seats_message_reaches_only_the_sessions_holding_its_token(engine: Engine) -> None:
    here, there = engine.bus(), engine.bus()
    hinted, other_tab, watcher = [], [], []
    engine.subscribe(here, "t", listener(hinted, "seat-0"))
    engine.subscribe(there, "t", listener(other_tab, "seat-0"))
    engine.subscribe(there, "t", listener(watcher))
    here.publish("t", [{"type": "hint"}], holders_of(holder_of("seat-0")))
    here.publish("t", [MARK])
    engine.settle(lambda: MARK in watcher)
    assert hinted == other_tab == [{"type": "hint"}, MARK]
    assert watcher == [MARK]


def test_one_session_or_all_but_one(engine: Engine) -> None:
    here, there = engine.bus(), engine.bus()
    a, b, c = [], [], []
    first, second = listener(a), listener(b)
    engine.subscribe(there, "t", first)
    engine.subscribe(there, "t", second)
    engine.subscribe(here, "t", listener(c))
    here.publish("t", [{"type": "x"}], only(first.id))
    here.publish("t", [{"type": "y"}], all_but(first.id))
    here.publish("t", [MARK])
    engine.settle(lambda: MARK in a and MARK in b)
    assert a == [{"type": "x"}, MARK]
    assert b == [{"type": "y"}, MARK]
    assert c == [{"type": "y"}, MARK]


def test_a_snapshot_is_published_once_and_each_session_reads_its_own_seat_and_token(engine: Engine) -> None:
    here, there = engine.bus(), engine.bus()
    seat_1, spectator = [], []
    engine.subscribe(there, "room:ABCDEF", listener(seat_1, "tok-1", "room:ABCDEF"))
    engine.subscribe(there, "room:ABCDEF", listener(spectator))
    seats = [holder_of("tok-0"), holder_of("tok-1"), None]
    here.publish("room:ABCDEF", [protocol.personal({"type": "room", "code": "ABCDEF"}, seats)])
    engine.settle(lambda: seat_1 and spectator)
    assert seat_1 == [{"type": "room", "code": "ABCDEF", "you": 1, "name": "Ann", "token": "tok-1"}]
    assert spectator == [{"type": "room", "code": "ABCDEF", "you": None, "name": ""}]


def test_a_session_that_left_hears_nothing_more(engine: Engine) -> None:
    here, there = engine.bus(), engine.bus()
    gone, stayed = [], []
    leaving = listener(gone)
    engine.subscribe(there, "t", leaving)
    engine.subscribe(there, "t", listener(stayed))
    there.unsubscribe("t", leaving)
    here.publish("t", [{"type": "x"}])
    engine.settle(lambda: stayed == [{"type": "x"}])
    assert gone == []


def test_what_two_processes_publish_on_one_topic_reaches_everyone_in_each_ones_order(engine: Engine) -> None:
    here, there = engine.bus(), engine.bus()
    near, far = [], []
    engine.subscribe(here, "t", listener(near))
    engine.subscribe(there, "t", listener(far))
    for n in range(5):
        here.publish("t", [{"type": "here", "n": n}])
        there.publish("t", [{"type": "there", "n": n}])
    engine.settle(lambda: len(near) == len(far) == 10)
    for frames in (near, far):
        for who in ("here", "there"):
            assert [m["n"] for m in frames if m["type"] == who] == list(range(5))


def test_publishing_where_nobody_listens_is_harmless(engine: Engine) -> None:
    bus, heard = engine.bus(), []
    bus.publish("nobody", [{"type": "x"}])
    engine.subscribe(bus, "t", listener(heard))
    bus.publish("t", [MARK])
    engine.settle(lambda: heard == [MARK])


def test_a_reply_reaches_its_session_alone_with_its_seq_whatever_topics_it_is_on(engine: Engine) -> None:
    here = engine.bus()
    asker, other = [], []
    me = listener(asker)
    engine.subscribe(here, "t", listener(other))
    here.reply(me, [{"type": "leaderboard"}], 4)
    here.reply(me, [{"type": "leaderboard"}], None)
    assert asker == [{"type": "leaderboard", "seq": 4}, {"type": "leaderboard"}]
    assert other == []
