"""Decode and encode cost per message and per stored document: the standard library against msgspec.

The issue asks whether to declare each message as a typed struct with msgspec's
validating decoder instead of the hand-written field checks. This measures both
on the messages that dominate traffic (the drag: ``press``/``enter``; and a match's
largest inbound message, ``new_match``), and the encoding of the commonest outbound
ones (``chain``) and the largest (a match snapshot). The msgspec side is a faithful
prototype of the same checks (tags, bounds, strict types: a bool is not an int), so
the figures compare like with like; it also reports which of the behaviours the
tests pin msgspec gives for free.

Issue 15 then adopted msgspec as ``wibble.codec`` for JSON in and out (the field checks
stay hand-written). So the script also times, in the same run, what the code did before
(``json.loads`` then the checks; ``json.dumps`` for messages and documents) against what
it does now (msgspec's decoder then the same checks; msgspec's encoder), the document
loads, and the cost of building the document a store writes at every committed word.

    .venv/bin/python -m benchmarks.codec            # needs the bench extra (typed structs)
"""

from __future__ import annotations

import importlib
import json
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Annotated, Any

import msgspec

from tests.support import shipped_list
from wibble import codec, protocol
from wibble.core import Draws, Game, HashParams, solve
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


def stdlib_encode(message: dict[str, Any]) -> str:
    """``protocol.encode`` as it was before msgspec."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = json.dumps(message, separators=(",", ":"))
    return text


PARSE = importlib.import_module("wibble.protocol.parse")  # (the package's ``parse`` is the function)


def parse_with(frame: str, typed: bool, dict_decoder: bool) -> Any:
    """``protocol.parse`` with msgspec's typed drag commands and its dict decoder each on or off
    (both off: the code before issue 15's codec, ``json.loads`` then the hand-written checks)."""
    fast, drag = codec.fast_loads, PARSE.drag_command
    if not dict_decoder:
        codec.fast_loads = lambda text: None  # type: ignore[assignment]
    if not typed:
        PARSE.drag_command = lambda frame: None
    try:
        return protocol.parse(frame)
    finally:
        codec.fast_loads, PARSE.drag_command = fast, drag


def played_game(words: Any, count: int) -> Game:
    """An en game after ``count`` committed words (its document grows a little with each)."""
    game = Game(words, Draws(7), HashParams.draw(random.Random(7)))
    for _ in range(count):
        path = solve(game.board, game.words)[0].path
        game.press(path[0])
        for pos in path[1:]:
            game.enter(pos)
        game.release()
        game.clean_up()
    return game


def adopted(runs: int) -> None:
    """Before and after issue 15's codec, in the same run: per frame, per message, per document."""
    print(f"\nsame run, the code before (json) against wibble.codec (msgspec), {runs} calls a batch:")
    print(f"{'':<34}{'json':>10}{'msgspec':>10}{'ratio':>8}")

    def row(name: str, before: Callable[[], Any], after: Callable[[], Any], n: int = runs) -> None:
        assert before() == after()
        ours, theirs = timed(before, n), timed(after, n)
        print(f"{name:<34}{ours:>7.2f} us{theirs:>7.2f} us{ours / theirs:>7.1f}x")

    for name, text in INBOUND.items():
        assert parse_with(text, False, False) == parse_with(text, True, True)
        before = timed(lambda text=text: parse_with(text, False, False), runs)
        untyped = timed(lambda text=text: parse_with(text, False, True), runs)
        now = timed(lambda text=text: parse_with(text, True, True), runs)
        print(
            f"{'parse ' + name:<34}{before:>7.2f} us{now:>7.2f} us{before / now:>7.1f}x"
            f"   (msgspec to a dict, then the checks: {untyped:.2f} us)"
        )
    words = shipped_list("en")
    match = Match(words, 1, [Seat("You", "human"), Seat("Bot", "bot", "hard")], 0.0)
    match.press(0, match.solve()[0].path[0])
    chain = protocol.match_event(match.chain_moved(), words.letters, 0.0)
    snapshot = protocol.match_snapshot(match, "m", "t", 0, [True, True], 0.0)
    game = played_game(words, 20)
    for name, message in (("chain", chain), ("match snapshot", snapshot)):
        row(
            f"encode {name} ({len(stdlib_encode(message))} B)",
            lambda m=message: stdlib_encode(m),
            lambda m=message: protocol.encode(m),
            runs // 10,
        )
    compact: dict[str, Any] = {"ensure_ascii": False, "separators": (",", ":")}
    for name, doc in (("game doc", game.to_doc()), ("match doc", match.to_doc())):
        text = json.dumps(doc, **compact)
        row(
            f"dump {name} ({len(text)} B)",
            lambda d=doc: json.dumps(d, **compact),
            lambda d=doc: codec.dumps(d),
            runs // 10,
        )
        row(f"load {name}", lambda t=text: json.loads(t), lambda t=text: codec.loads(t), runs // 10)
    print("building the document a commit writes (no alternative: the cost beside the dump's):")
    for name, build in (
        ("Game.to_doc, 20 words in", game.to_doc),
        ("Match.to_doc, first turn", match.to_doc),
    ):
        print(f"{name:<34}{timed(build, runs // 10):>7.2f} us")


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
    print(f"{'message':<22}{'wibble':>14}{'structs':>10}")
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
    adopted(runs)


if __name__ == "__main__":
    main()
