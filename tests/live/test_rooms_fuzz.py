"""Hostile and clumsy rooms: random messages from several connections, disconnects and time passing.

Whatever arrives, the server answers with a typed error or a change, never crashes, and
what it holds in memory is what it has saved: the stored room is the room, every seated
connection holds the token of its seat, and the host is a person in a seat.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.live.players import LIST, FakeClock, Live, Person
from tests.support import WORDS
from wibble.core.room import Room
from wibble.engines.store import MemoryStore
from wibble.live import LiveSettings, RoomLimits, wire
from wibble.live.credentials import token_hash
from wibble.live.matches import BotPace
from wibble.wordlists import WordLists

TYPES = [
    "take_seat",
    "leave_seat",
    "leave_room",
    "set_rules",
    "set_seat",
    "remove",
    "start_match",
    "rematch",
    "press",
    "enter",
    "release",
    "cancel",
    "pass",
    "shuffle",
    "hint",
    "extend",
    "join_room",
]
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 8), st.text(max_size=4), st.just("easy"))

step = st.one_of(
    st.tuples(
        st.just("send"),
        st.integers(0, 3),
        st.sampled_from(TYPES),
        st.fixed_dictionaries(
            {},
            optional={
                "seat": st.one_of(st.integers(-1, 6), JUNK),
                "row": st.integers(-1, 5),
                "col": st.integers(-1, 5),
                "bot": st.sampled_from(["easy", "medium", "hard", "godlike", None]),
                "speed": st.integers(0, 5),
                "rounds": st.integers(0, 3),
                "turn_seconds": st.sampled_from([None, 5, 30, 4]),
                "stand_in": st.sampled_from(["easy", "hard", "x"]),
                "token": st.sampled_from(["mine", "other", "junk"]),
                "code": st.sampled_from(["room", "ZZZZZZ", ""]),
                "name": st.sampled_from(["Bo", "", "<b>x</b>", "\u200b"]),
            },
        ),
    ),
    st.tuples(st.just("leave"), st.integers(0, 3), st.none(), st.none()),
    st.tuples(st.just("tick"), st.none(), st.sampled_from([0.0, 1.0, 30.0, 121.0]), st.none()),
)


def build() -> tuple[Live, list[Person], str]:
    clock = FakeClock()
    store = MemoryStore()
    pace = BotPace(think=(0.0, 0.0), step=0.0)
    settings = LiveSettings(pace=pace, round_pause=1.0, rooms=RoomLimits(grace=120.0))
    router = wire(store, WordLists(WORDS), clock, clock, settings, entropy=random.Random(7))
    live = Live(store, router, clock)
    people = [Person(router) for _ in range(4)]
    [room] = people[0].send(type="create_room", name="Ann", rules={"wordlist": LIST, "rounds": 1})
    for who in people[1:]:
        who.send(type="join_room", code=room["code"], name="P")
    return live, people, room["code"]


def check(live: Live, people: list[Person], code: str) -> None:
    held = live.router.rooms.docs.get(f"room:{code}")
    if held is None:
        return  # closed after standing empty
    stored = live.store.load(f"room:{code}")
    assert stored is not None
    assert Room.from_doc(json.loads(json.dumps(stored.doc))).to_doc() == held.room.to_doc()
    room = held.room
    if room.host is not None:
        host = room.seats[room.host]
        assert host is not None
        assert host.kind == "human"
    # Presence says who is here as each person's own credentials say: a seat is connected exactly
    # when someone holding its token is in the room.
    topic = f"room:{code}"
    members = live.router.presence.members(topic)
    inside = [who.session for who in people if who.session.room == topic]
    assert members == {session.id: session.holder(topic) for session in inside}
    for session in inside:
        credential = session.credential(topic)
        if credential.token is not None:
            assert credential.holder == token_hash(credential.token).hex()
    if held.match is not None and held.playing:
        assert len(held.match.match.seats) == len(room.filled(playing=True))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, max_size=40))
def test_random_messages_never_crash_a_room_or_leave_it_unsaved(steps: list[tuple[Any, ...]]) -> None:
    live, people, code = build()
    tokens: dict[int, str] = {}
    for kind, who, what, fields in steps:
        if kind == "tick":
            live.clock.advance(what)
            live.router.timers.run_due()
        elif kind == "leave":
            live.router.leave(people[who].session)
        else:
            message: dict[str, Any] = {"type": what, **fields}
            if "token" in message:
                mine = tokens.get(who)
                message["token"] = {"mine": mine, "other": tokens.get((who + 1) % 4), "junk": "x" * 30}[
                    message["token"]
                ] or "y" * 30
            if "code" in message:
                message["code"] = code if message["code"] == "room" else message["code"]
            for frame in people[who].send(**message):
                if frame["type"] == "error":
                    assert frame["code"].count("/") == 1, frame
                if frame["type"] == "room" and frame.get("token"):
                    tokens[who] = frame["token"]
        check(live, people, code)
