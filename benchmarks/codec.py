"""Decode and encode cost per message: the hand-written ``wibble.protocol`` against msgspec.

The issue asks whether to declare each message as a typed struct with msgspec's
validating decoder instead of the hand-written field checks. This measures both
on the messages that dominate traffic (the drag: ``press``/``enter``; and a match's
largest inbound message, ``new_match``), and the encoding of the commonest outbound
ones (``chain``) and the largest (a match snapshot). The msgspec side is a faithful
prototype of the same checks (tags, bounds, strict types: a bool is not an int), so
the figures compare like with like; it also reports which of the behaviours the
tests pin msgspec gives for free.

    .venv/bin/python -m benchmarks.codec            # needs the bench extra (msgspec)
"""

from __future__ import annotations

import json
import platform
import statistics
import time
from collections.abc import Callable
from typing import Annotated, Any

import msgspec

from tests.support import shipped_list
from wibble import protocol
from wibble.core.match import Match, Seat

Coord = Annotated[int, msgspec.Meta(ge=-(1 << 31), le=1 << 31)]
Seq = Annotated[int, msgspec.Meta(ge=0, le=(1 << 53) - 1)] | None
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | None


class Press(msgspec.Struct, tag="press", tag_field="type"):
    row: Coord
    col: Coord
    seq: Seq = None


class Enter(msgspec.Struct, tag="enter", tag_field="type"):
    row: Coord
    col: Coord
    seq: Seq = None


class Release(msgspec.Struct, tag="release", tag_field="type"):
    seq: Seq = None


class Bot(msgspec.Struct):
    level: str = "medium"


class NewMatch(msgspec.Struct, tag="new_match", tag_field="type"):
    wordlist: Name = None
    seed: Annotated[int, msgspec.Meta(ge=0, le=(1 << 53) - 1)] | None = None
    rounds: Annotated[int, msgspec.Meta(ge=1, le=20)] = 5
    turn_seconds: Annotated[int, msgspec.Meta(ge=5, le=600)] | None = None
    bots: Annotated[list[Bot], msgspec.Meta(max_length=5)] = []
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=24)] = "You"
    seq: Seq = None


DECODER = msgspec.json.Decoder(Press | Enter | Release | NewMatch)
ENCODER = msgspec.json.Encoder()

INBOUND = {
    "press": '{"type":"press","row":2,"col":3,"seq":17}',
    "enter": '{"type":"enter","row":2,"col":4,"seq":18}',
    "new_match": '{"type":"new_match","bots":[{"level":"easy"},{"level":"hard"}],'
    '"rounds":5,"turn_seconds":30}',
}


def timed(fn: Callable[[], Any], runs: int) -> float:
    """Median of 7 batches, in microseconds per call."""
    batches = []
    for _ in range(7):
        start = time.perf_counter_ns()
        for _ in range(runs):
            fn()
        batches.append((time.perf_counter_ns() - start) / runs / 1000)
    return statistics.median(batches)


def pinned_behaviours() -> dict[str, str]:
    """What msgspec does with the inputs the protocol tests pin (ours: all refused)."""
    cases = {
        "bool for int": '{"type":"press","row":true,"col":0}',
        "NaN": '{"type":"press","row":NaN,"col":0}',
        "fraction for int": '{"type":"press","row":1.0,"col":0}',
        "lone surrogate": '{"type":"new_match","name":"\\ud800"}',
        "out of range": '{"type":"press","row":4294967296,"col":0}',
    }
    seen = {}
    for name, text in cases.items():
        try:
            DECODER.decode(text)
            seen[name] = "accepted"
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            seen[name] = f"refused ({str(exc)[:50]})"
    return seen


def main() -> None:
    runs = 20_000
    print(f"{time.strftime('%Y-%m-%d')}  CPython {platform.python_version()}  msgspec {msgspec.__version__}")
    print(f"{'message':<22}{'hand-written':>14}{'msgspec':>10}")
    for name, text in INBOUND.items():
        ours = timed(lambda text=text: protocol.parse(text), runs)
        theirs = timed(lambda text=text: DECODER.decode(text), runs)
        print(f"decode {name:<15}{ours:>11.2f} us{theirs:>7.2f} us")
    words = shipped_list("en")
    match = Match(words, 1, [Seat("You", "human"), Seat("Bot", "bot", "hard")], 0.0)
    match.press(0, match.solve()[0].path[0])
    chain = protocol.match_event(match.chain_moved(), words.letters, 0.0)
    snapshot = protocol.match_snapshot(match, "m", "t", 0, [True, True], 0.0)
    for name, message in (("chain", chain), ("match snapshot", snapshot)):
        ours = timed(lambda message=message: protocol.encode(message), runs // 10)
        theirs = timed(lambda message=message: ENCODER.encode(message), runs // 10)
        size = len(json.dumps(message))
        print(f"encode {name:<15}{ours:>11.2f} us{theirs:>7.2f} us   ({size} bytes)")
    print("\nwhat msgspec does with inputs the tests pin (the hand-written parser refuses each):")
    for name, outcome in pinned_behaviours().items():
        print(f"  {name:<18}{outcome}")


if __name__ == "__main__":
    main()
