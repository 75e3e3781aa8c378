"""msgspec in, msgspec out: every frame reads as ``json`` read it, every message is the text ``json`` wrote.

``wibble.codec`` takes msgspec's answer only where it is the standard library's, so the
checks here compare the two directly: each frame parsed with msgspec's fast path and
with today's ``json.loads`` path alone (``fast_loads`` switched off) must give the same
command or the same error, code and message word for word; each message and document
must encode to the same text.
"""

from __future__ import annotations

import importlib
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.protocol.bad_frames import CASES, frame_text
from tests.support import shipped_list
from wibble import codec, protocol
from wibble.core import ProtocolError
from wibble.core.match import Match, Seat

PARSE = importlib.import_module("wibble.protocol.parse")  # (the package's ``parse`` is the function)
STDLIB = {"ensure_ascii": False, "separators": (",", ":")}


def outcome(frame: str | bytes) -> tuple[str, Any]:
    """What parsing ``frame`` gives: the command, or the error's code, message and request."""
    try:
        return "command", protocol.parse(frame)
    except ProtocolError as exc:
        return "error", (exc.code, exc.message, exc.request)


def stdlib_outcome(frame: str | bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Any]:
    """The same, with msgspec's paths off (the typed drag commands, then the decoder): the
    code before, where ``json.loads`` read every frame and the hand-written checks judged it."""
    with monkeypatch.context() as patch:
        patch.setattr(codec, "fast_loads", lambda text: None)
        patch.setattr(PARSE, "drag_command", lambda frame: None)
        return outcome(frame)


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (``1 == 1.0 == True`` in Python; not here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b) or (math.isnan(a) and math.isnan(b))
    return bool(a == b)


HOSTILE = [
    # texts msgspec refuses or reads differently, each of which json decides
    '{"type": "press", "row": 0, "col": 0, "seq": NaN}',
    '{"type": "press", "row": -Infinity, "col": 0}',
    '{"type": "new_match", "name": "\\ud800"}',
    '{"type": "new_match", "name": "\\udc00x"}',
    '{"type": "new_match", "name": "\\ud83d\\ude00"}',
    '{"type": "join_room", "code": "ABCD", "name": "\ud800"}',  # a raw half pair in the text itself
    '{"type": "new_game", "seed": 1e400}',
    '{"type": "new_game", "seed": -1e400}',
    '{"type": "new_game", "seed": 1e-400}',
    '{"type": "new_game", "seed": -0}',
    '{"type": "new_game", "seed": -0.0}',
    '{"type": "new_game", "seed": 18446744073709551616}',
    '{"type": "press", "row": ' + "9" * 4300 + ', "col": 0}',
    '{"type": "press", "row": ' + "9" * 4301 + ', "col": 0}',
    '{"type": "press", "row": 0, "col": 0, "row": 1}',
    '{"type": "press", "row": 0, "col": 0, "type": "enter"}',
    '{"type": "press", "row": 0, "col": 0, "extra": {"a": [1, {"b": null}]}}',
    '{"type": "new_match", "name": "a\x01b"}',  # a raw control character inside a string
    '{"type": "new_match", "name": "a\\u0000b"}',
    '{"type":"press","row":0,"col":0}\n',
    '\t{"type":"press","row":0,"col":0}',
    '{"type": "press", "row": 00, "col": 0}',
    '{"type": "press", "row": +1, "col": 0}',
    '{"type": "press", "row": 1., "col": 0}',
    '{"type": "press", "row": .5, "col": 0}',
    '{"type": "press", "row": 0x10, "col": 0}',
    '{"type": "press", "row": 0, "col": 0,}',
    '{"type": "press" "row": 0}',
    '{"type": "Press", "row": 0, "col": 0}',
    '{"type": "press", "row": 0, "col": 0, "seq": 9007199254740991}',
    '{"type": "press", "row": 0, "col": 0, "seq": 9007199254740992}',
    '{"type": "press", "row": true, "col": 0}',
    '{"type": "press", "row": "0", "col": 0}',
    '{"type": "press", "row": [0], "col": 0}',
    '{"type": "release"} ',
    '{"type": "release"}\u00a0',  # not JSON whitespace
    '{"type":"press","row":0,"col":0,"x":1e400}',
    '{"type":"press","row":0,"col":0,"x":NaN}',
    '{"type":"press","row":0,"col":0,"x":99999999999999999999999999}',
    '{"row":1,"col":2,"type":"enter","seq":null}',
    '{"type":"release","x":"\\ud800"}',
    '{"type":"release","seq":-1}',
    '{"type":"cancel","seq":null,"seq":5}',
    '{"type":"cancel","type":"release"}',
    '{"type":"enter","row":2147483648,"col":-2147483648}',
    '{"type":"enter","row":2147483649,"col":0}',
    "null",
    " null ",
    "nul",
    "[" * 255 + "]" * 255,
    "[" * 256 + "]" * 256,  # exactly the fast path's length (codec.FAST_CHARS): msgspec reads it
    "[" * 257 + "]" * 257,  # just over it: json reads it
    '{"type": "press", "x": ' + "[" * 240 + "]" * 240 + ', "row": 0, "col": 0}',
    "[" * 5000,
]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_every_bad_input_of_the_table_gets_todays_error(case: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    frame = frame_text(case)
    assert outcome(frame) == stdlib_outcome(frame, monkeypatch)


@pytest.mark.parametrize("frame", HOSTILE)
def test_hostile_frames_get_todays_command_or_error(frame: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert outcome(frame) == stdlib_outcome(frame, monkeypatch)


def test_bad_json_is_described_in_jsons_own_words() -> None:
    """The messages documented for broken JSON are the standard library's, word for word."""
    assert outcome('{"type": "cancel"} x')[1][:2] == (
        "protocol/bad_json",
        "not valid JSON: Extra data: line 1 column 20 (char 19)",
    )
    assert outcome('{"type": "press", "row": NaN}')[1][:2] == ("protocol/bad_json", "NaN is not valid JSON")
    assert outcome("[" * 3000)[1][:2] == ("protocol/bad_json", "JSON nested too deeply")


JSON_TEXT = st.text(alphabet='{}[]":,.-+eE0123456789 \\ntrufalsNIiy\ud800udc0', max_size=40) | st.lists(
    st.sampled_from(
        ["{", "}", "[", "]", ":", ",", " ", '"a"', '"\\ud800"', '"\\u00e9"', '"\\n"', "1", "-0", "1.5"]
        + ["1e400", "NaN", "true", "null", "123456789012345678901234567890", "-1E-7"]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=2000, deadline=None)
@given(JSON_TEXT)
def test_fast_loads_agrees_with_json_loads_on_any_text(text: str) -> None:
    fast = codec.fast_loads(text)
    if fast is None:
        return  # json.loads decides
    assert same(fast, json.loads(text))


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=500, deadline=None)
@given(JSON_VALUES)
def test_what_json_wrote_reads_back_the_same(value: Any) -> None:
    for text in (json.dumps(value), json.dumps(value, **STDLIB)):
        assert same(codec.loads(text), json.loads(text))
        fast = codec.fast_loads(text)
        assert fast is None or same(fast, json.loads(text))


@settings(max_examples=500, deadline=None)
@given(JSON_VALUES)
def test_dumps_writes_what_json_wrote(value: Any) -> None:
    text = codec.dumps(value)
    assert same(json.loads(text), json.loads(json.dumps(value, **STDLIB)))
    if not has_float(value):  # floats aside (msgspec writes 1e16 for 1e+16, 0.00001 for 1e-05), the same text
        assert text == json.dumps(value, **STDLIB)


def has_float(value: Any) -> bool:
    if isinstance(value, dict):
        return any(has_float(item) for item in value.values())
    if isinstance(value, list):
        return any(has_float(item) for item in value)
    return isinstance(value, float)


def test_what_msgspec_cannot_write_json_writes() -> None:
    class Name(str):
        pass

    for value in [{"name": "\ud800"}, {"seed": 2**64}, {"seed": -(2**63) - 1}, {"name": Name("x")}, {1: "a"}]:
        assert codec.dumps(value) == json.dumps(value, **STDLIB)
    # half a surrogate pair echoed back is escaped, as before
    assert protocol.encode({"type": "error", "request": "\ud800"}) == '{"type":"error","request":"\\ud800"}'


def test_a_float_that_is_not_finite_is_written_null() -> None:
    """The one difference kept: json wrote NaN, which no JSON reader (nor a browser) accepts."""
    assert codec.dumps({"a": math.nan, "b": math.inf}) == '{"a":null,"b":null}'


def test_real_messages_encode_to_the_same_text() -> None:
    words = shipped_list("en")
    match = Match(words, 1, [Seat("Zoë 👩‍⚕️", "human"), Seat("Bot", "bot", "hard")], 0.0)
    match.press(0, match.solve()[0].path[0])
    messages = [
        protocol.match_event(match.chain_moved(), words.letters, 0.0),
        protocol.match_snapshot(match, "m", "t", 0, [True, True], 0.0),
        {"type": "error", "code": "protocol/bad_field", "message": 'a "quoted"\n\tline \u2028 é', "seq": 3},
    ]
    for message in messages:
        assert protocol.encode(message) == json.dumps(message, **STDLIB)


def test_the_frames_of_a_drag_are_read_by_msgspec() -> None:
    """So that the comparisons above compare two paths, not one with itself."""
    assert codec.fast_loads('{"type":"enter","row":1,"col":2,"seq":7}') == {
        "type": "enter",
        "row": 1,
        "col": 2,
        "seq": 7,
    }
    assert codec.fast_loads('{"type": "press", "row": NaN}') is None
    # Texts up to FAST_CHARS are msgspec's, longer ones json's (whose depth limit is the stack's).
    assert codec.fast_loads("[" * 256 + "]" * 256) is not None
    assert codec.fast_loads("[" * 257 + "]" * 257) is None
    assert PARSE.drag_command('{"type":"enter","row":1,"col":2,"seq":7}') == protocol.parse(
        '{"type":"enter","row":1,"col":2,"seq":7}'
    )
    assert PARSE.drag_command('{"type":"new_game"}') is None


NUMBERS = st.integers(-3, 6) | st.sampled_from(
    [0, 1, -1, 4, 2**31, -(2**31), 2**31 + 1, -(2**31) - 1, 2**53 - 1, 2**53, 2**64, True, False, None]
    + [1.0, -0.0, 1.5, "1", [1], {"v": 1}]
)
FIELDS = st.sampled_from(["row", "col", "seq", "type", "x"])
TYPES = st.sampled_from(["press", "enter", "release", "cancel", "new_game", "Press", 1, None])


@st.composite
def drag_frames(draw: st.DrawFn) -> str:
    """Frames like a drag's, right and wrong: any fields in any order, some twice, odd values."""
    pairs = [("type", draw(TYPES))] if draw(st.integers(0, 9)) else []
    pairs += [(name, draw(NUMBERS)) for name in ("row", "col", "seq") if draw(st.integers(0, 5))]
    pairs += draw(st.lists(st.tuples(FIELDS, NUMBERS | TYPES), max_size=3))
    pairs = draw(st.permutations(pairs))
    body = ",".join(f"{json.dumps(key)}:{json.dumps(value)}" for key, value in pairs)
    return "{" + body + "}" + draw(st.sampled_from(["", " ", "\n", "x", ",{}"]))


@settings(max_examples=1500, deadline=None)
@given(drag_frames())
def test_drag_like_frames_get_todays_command_or_error(frame: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert outcome(frame) == stdlib_outcome(frame, monkeypatch)
