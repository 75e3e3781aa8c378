"""A transcript of the live layer under random commands: every frame each person gets, and every
stored document, step by step. Run before and after a restructuring that must not change
behaviour; the two transcripts must be byte-identical.

    .venv/bin/python -m tests.live.transcript --seeds 40 > /tmp/before.txt
    (restructure)
    .venv/bin/python -m tests.live.transcript --seeds 40 > /tmp/after.txt
    cmp /tmp/before.txt /tmp/after.txt

Everything random is drawn from the seed (tokens, room codes, boards, bots), the clock is a
fake one, and the people are ``Person`` connections driven exactly as the websocket handler
drives them. Each seed plays a room of four (random room and match commands, real words on
the turn's seat, people leaving and coming back with their tokens, time passing past grace
periods and turn deadlines), a match against bots, and an endless game.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
from typing import Any

from tests.live.players import LIST, FakeClock, Person
from tests.support import WORDS
from wibble.engines.store import MemoryStore
from wibble.live import LiveSettings, RoomLimits, wire
from wibble.live.matches import BotPace
from wibble.wordlists import WordLists

ROOM_TYPES = [
    "take_seat",
    "leave_seat",
    "leave_room",
    "set_rules",
    "set_seat",
    "remove",
    "start_match",
    "rematch",
    "press",
    "release",
    "cancel",
    "pass",
    "shuffle",
    "hint",
    "extend",
    "swap",
]


def _seeded(rng: random.Random) -> None:
    """Tokens and codes drawn from ``rng`` rather than the system's randomness."""

    def token(nbytes: int | None = None) -> str:
        return rng.randbytes(nbytes or 32).hex()

    secrets.token_urlsafe = secrets.token_hex = token
    random.SystemRandom = lambda: random.Random(rng.random())  # type: ignore[assignment,misc]


class Transcript:
    def __init__(self, out: Any) -> None:
        self.out = out

    def step(self, label: str, people: list[Person], marks: list[int], store: MemoryStore) -> None:
        self.out.write(f"## {label}\n")
        for n, who in enumerate(people):
            for frame in who.frames[marks[n] :]:
                self.out.write(f"{n} {json.dumps(frame, sort_keys=True)}\n")
            marks[n] = len(who.frames)
        for doc_id in sorted(store._docs):  # the store's own rows: what a restart would find
            self.out.write(f"= {doc_id} {json.dumps(store._docs[doc_id], sort_keys=True, default=str)}\n")


def _word_of_the_turn(router: Any, who: Person) -> list[dict[str, int]] | None:
    match_id = who.session.match
    held = router.matches.docs.get(match_id) if match_id else None
    if held is None:
        return None
    found = held.match.solve()
    if not found:
        return None
    return [{"row": pos.row, "col": pos.col} for pos in found[-1].path]


def _room_command(rng: random.Random, who: int) -> tuple[int, dict[str, Any]]:
    """A random room or match command, and who sends it (the host more often than not for a
    host's command, so that matches start and seats change)."""
    kind = rng.choice(ROOM_TYPES)
    if kind in ("start_match", "rematch", "set_rules", "set_seat", "remove") and rng.random() < 0.7:
        who = 0
    message: dict[str, Any] = {"type": kind}
    if kind in ("take_seat", "remove", "set_seat"):
        message["seat"] = rng.randrange(-1, 6)
    if kind == "set_seat":
        message["bot"] = rng.choice(["easy", "hard", None])
    if kind == "set_rules":
        message["rules"] = {"rounds": rng.randrange(1, 4), "turn_seconds": rng.choice([None, 5, 30])}
    if kind == "press":
        message.update(row=rng.randrange(5), col=rng.randrange(5))
    if kind == "swap":
        message.update(row=rng.randrange(5), col=rng.randrange(5), letter="e")
    return who, message


def _play_a_word(router: Any, who: Person) -> None:
    path = _word_of_the_turn(router, who)
    if path:
        who.send(type="press", **path[0])
        for pos in path[1:]:
            who.send(type="enter", **pos)
        who.send(type="release")


def room_scenario(seed: int, rng: random.Random, out: Transcript, lists: WordLists) -> None:
    clock = FakeClock()
    store = MemoryStore()
    settings = LiveSettings(
        pace=BotPace(think=(0.0, 0.0), step=0.0), round_pause=1.0, rooms=RoomLimits(grace=120.0, empty=600.0)
    )
    router = wire(store, lists, clock, clock, settings, entropy=random.Random(seed))
    people = [Person(router, f"192.0.2.{n % 2}") for n in range(4)]
    marks = [0] * 4
    tokens: dict[int, str] = {}
    people[0].send(type="create_room", name="Ann", rules={"wordlist": LIST, "rounds": 2})
    code = next(f["code"] for f in people[0].frames if f["type"] == "room")
    for n, friend in enumerate(people[1:], 1):
        friend.send(type="join_room", code=code, name=f"P{n}")
    people[1].send(type="take_seat", seat=1)
    people[2].send(type="take_seat", seat=2)
    people[0].send(type="set_seat", seat=3, bot="easy")
    people[0].send(type="start_match")
    out.step("room made", people, marks, store)
    for step in range(120):
        roll = rng.random()
        who = rng.randrange(4)
        if roll < 0.08:
            seconds = rng.choice([0.0, 1.0, 6.0, 31.0, 121.0])
            clock.advance(seconds)
            router.timers.run_due()
            label = f"tick {seconds}"
        elif roll < 0.14:
            router.leave(people[who].session)
            label = f"{who} leaves"
        elif roll < 0.2:
            token = tokens.get(who) if rng.random() < 0.8 else tokens.get((who + 1) % 4)
            message: dict[str, Any] = {"type": "join_room", "code": code, "name": f"P{who}"}
            if token:
                message["token"] = token
            people[who].send(**message)
            label = f"{who} joins {'with a token' if token else 'to watch'}"
        elif roll < 0.4:
            _play_a_word(router, people[who])
            label = f"{who} plays a word"
        else:
            who, message = _room_command(rng, who)
            kind = message["type"]
            people[who].send(**message)
            label = f"{who} {kind}"
        for n, person in enumerate(people):
            for frame in person.frames[marks[n] :]:
                if frame["type"] == "room" and frame.get("token"):
                    tokens[n] = frame["token"]
        out.step(f"{seed}.{step} {label}", people, marks, store)


def bots_scenario(seed: int, rng: random.Random, out: Transcript, lists: WordLists) -> None:
    clock = FakeClock()
    store = MemoryStore()
    settings = LiveSettings(pace=BotPace(think=(0.0, 0.0), step=0.0), round_pause=1.0)
    router = wire(store, lists, clock, clock, settings, entropy=random.Random(seed))
    people = [Person(router), Person(router)]
    marks = [0, 0]
    people[0].send(
        type="new_match", wordlist=LIST, seed=seed, rounds=2, bots=[{"level": "easy"}, {"level": "hard"}]
    )
    match = next(f for f in people[0].frames if f["type"] == "match")
    out.step("bot match", people, marks, store)
    for step in range(40):
        roll = rng.random()
        if roll < 0.3:
            clock.advance(rng.choice([0.5, 3.0, 61.0]))
            router.timers.run_due()
            label = "tick"
        elif roll < 0.6:
            _play_a_word(router, people[0])
            label = "plays"
        elif roll < 0.7:
            people[1].send(type="resume", match_id=match["match_id"], token=match.get("token") or "x")
            label = "other resumes"
        else:
            kind = rng.choice(["pass", "shuffle", "hint", "extend", "rematch", "cancel"])
            people[0].send(type=kind)
            label = kind
        out.step(f"{seed}.bots.{step} {label}", people, marks, store)


def game_scenario(seed: int, rng: random.Random, out: Transcript, lists: WordLists) -> None:
    clock = FakeClock()
    store = MemoryStore()
    router = wire(store, lists, clock, clock, LiveSettings(), entropy=random.Random(seed))
    people = [Person(router), Person(router)]
    marks = [0, 0]
    snapshot = people[0].new_game(seed=seed)
    out.step("game", people, marks, store)
    for step in range(30):
        roll = rng.random()
        if roll < 0.6:
            if people[0].session.game is None:
                people[0].send(type="resume", game_id=snapshot["game_id"], token=snapshot["token"])
            people[0].drag_path(people[0].a_word(rng.randrange(3)))
            people[0].send(type="release")
            label = "word"
        elif roll < 0.8:
            people[1].send(type="resume", game_id=snapshot["game_id"], token=snapshot["token"])
            label = "resume"
        else:
            router.leave(people[rng.randrange(2)].session)
            label = "leave"
        out.step(f"{seed}.game.{step} {label}", people, marks, store)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args(argv)
    lists = WordLists(WORDS)
    out = Transcript(sys.stdout)
    for seed in range(args.seeds):
        for scenario in (room_scenario, bots_scenario, game_scenario):
            rng = random.Random(seed)
            _seeded(rng)
            scenario(seed, rng, out, lists)


if __name__ == "__main__":
    main()
