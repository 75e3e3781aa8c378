"""The table of bad frames a client may send, each with the error code it must get.

The protocol tests read every row in-process (``parse`` alone, for the rows whose refusal is
the parser's; msgspec's reading against ``json``'s); ``tests/processes/test_bad_input.py``
sends every row to a real server, against a game in the row's ``phase``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Case:
    id: str
    frame: str | bytes | dict[str, Any]
    code: str | frozenset[str]
    phase: str = "chaining"  # the game the row is sent to: "none" (no game yet), "idle" or "chaining"


def raw(**fields: Any) -> dict[str, Any]:
    return fields


def press(**fields: Any) -> dict[str, Any]:
    return {"type": "press", **fields}


def enter(**fields: Any) -> dict[str, Any]:
    return {"type": "enter", **fields}


NESTED = "[" * 2000 + "]" * 2000
LONG_TYPE = "x" * 4000
# A 'type' that is not a string: the table says "a required field (or type) is missing"
# for missing_field and "wrong type" for bad_field; either reading is accepted here.
TYPE_NOT_TEXT = frozenset({"protocol/missing_field", "protocol/bad_field"})

CASES = [
    # -- not JSON at all -----------------------------------------------------------
    Case("malformed", "{", "protocol/bad_json"),
    Case("truncated", '{"type": "press", "row": 0,', "protocol/bad_json"),
    Case("single-quotes", "{'type': 'press', 'row': 0, 'col': 0}", "protocol/bad_json"),
    Case("trailing-garbage", '{"type": "cancel"} x', "protocol/bad_json"),
    Case("two-objects", '{"type": "cancel"}{"type": "cancel"}', "protocol/bad_json"),
    Case("NaN", "NaN", "protocol/bad_json"),
    Case("Infinity", "Infinity", "protocol/bad_json"),
    Case("-Infinity", "-Infinity", "protocol/bad_json"),
    Case("NaN-row", '{"type": "enter", "row": NaN, "col": 0}', "protocol/bad_json"),
    Case("Infinity-col", '{"type": "enter", "row": 0, "col": Infinity}', "protocol/bad_json"),
    Case("NaN-seed", '{"type": "new_game", "seed": NaN}', "protocol/bad_json"),
    Case("empty-frame", "", "protocol/bad_json"),
    Case("whitespace-frame", "  \n\t ", "protocol/bad_json"),
    Case("byte-order-mark", '\ufeff{"type": "cancel"}', "protocol/bad_json"),
    Case("nested-list", NESTED, "protocol/bad_json"),
    Case("unclosed-nesting", "[" * 3000, "protocol/bad_json"),
    Case(
        "nested-in-object", '{"type": "enter", "row": ' + "[" * 1990 + "]" * 1990 + "}", "protocol/bad_json"
    ),
    # -- JSON, but not an object ---------------------------------------------------------
    Case("list", "[]", "protocol/not_object"),
    Case("list-of-message", '[{"type": "cancel"}]', "protocol/not_object"),
    Case("number", "1", "protocol/not_object"),
    Case("float", "1.5", "protocol/not_object"),
    Case("string", '"cancel"', "protocol/not_object"),
    Case("null", "null", "protocol/not_object"),
    Case("true", "true", "protocol/not_object"),
    # -- the type ---------------------------------------------------------------------
    Case("no-type", raw(row=1, col=1), "protocol/missing_field"),
    Case("empty-object", "{}", "protocol/missing_field"),
    Case("type-null", raw(type=None), TYPE_NOT_TEXT),
    Case("type-number", raw(type=1), TYPE_NOT_TEXT),
    Case("type-bool", raw(type=True), TYPE_NOT_TEXT),
    Case("type-list", raw(type=["cancel"]), TYPE_NOT_TEXT),
    Case("type-object", raw(type={"name": "cancel"}), TYPE_NOT_TEXT),
    Case("unknown-type", raw(type="fly"), "protocol/unknown_type"),
    Case("empty-type", raw(type=""), "protocol/unknown_type"),
    Case("type-wrong-case", raw(type="CANCEL"), "protocol/unknown_type"),
    Case("type-with-space", raw(type="cancel "), "protocol/unknown_type"),
    Case("type-dunder", raw(type="__class__"), "protocol/unknown_type"),
    Case("server-message-type", raw(type="game"), "protocol/unknown_type"),
    Case("very-long-type", raw(type=LONG_TYPE), "protocol/unknown_type"),
    Case("non-ascii-type", raw(type="ñandú"), "protocol/unknown_type"),
    Case("lone-surrogate-type", '{"type": "\\ud800"}', "protocol/unknown_type"),
    # -- row and col ------------------------------------------------------------------
    Case("press-no-row", press(col=0), "protocol/missing_field", "idle"),
    Case("press-no-col", press(row=0), "protocol/missing_field", "idle"),
    Case("press-no-fields", press(), "protocol/missing_field", "idle"),
    Case("enter-no-row", enter(col=2), "protocol/missing_field"),
    Case("enter-no-col", enter(row=2), "protocol/missing_field"),
    Case("row-true", enter(row=True, col=1), "protocol/bad_field"),
    Case("col-false", enter(row=1, col=False), "protocol/bad_field"),
    Case("press-row-true", press(row=True, col=0), "protocol/bad_field", "idle"),
    Case("row-1.0", enter(row=1.0, col=2), "protocol/bad_field"),
    Case("col-2.0", enter(row=1, col=2.0), "protocol/bad_field"),
    Case("row-1.5", enter(row=1.5, col=2), "protocol/bad_field"),
    Case("row-exponent", '{"type": "enter", "row": 1e0, "col": 2}', "protocol/bad_field"),
    Case("row-1e400", '{"type": "enter", "row": 1e400, "col": 2}', "protocol/bad_field"),
    Case("row-string", enter(row="1", col=2), "protocol/bad_field"),
    Case("row-null", enter(row=None, col=2), "protocol/bad_field"),
    Case("row-list", enter(row=[1], col=2), "protocol/bad_field"),
    Case("row-object", enter(row={"v": 1}, col=2), "protocol/bad_field"),
    Case("row-10**30", enter(row=10**30, col=2), "protocol/bad_field"),
    Case("row--10**30", enter(row=-(10**30), col=2), "protocol/bad_field"),
    Case("row-2**31+1", enter(row=2**31 + 1, col=2), "protocol/bad_field"),
    Case("row-4000-digits", '{"type": "enter", "row": ' + "9" * 4000 + ', "col": 2}', "protocol/bad_field"),
    Case("press-col-10**30", press(row=0, col=10**30), "protocol/bad_field", "idle"),
    # -- off the board ------------------------------------------------------------------
    Case("press-row--1", press(row=-1, col=0), "move/off_board", "idle"),
    Case("press-col--1", press(row=0, col=-1), "move/off_board", "idle"),
    Case("press-row-5", press(row=5, col=0), "move/off_board", "idle"),
    Case("press-col-5", press(row=0, col=5), "move/off_board", "idle"),
    Case("press-row-2**31", press(row=2**31, col=0), "move/off_board", "idle"),
    Case("press-row--2**31", press(row=-(2**31), col=0), "move/off_board", "idle"),
    Case("enter-row-2", enter(row=2, col=5), "move/off_board"),
    Case("enter-row--1", enter(row=-1, col=1), "move/off_board"),
    Case("enter-both-5", enter(row=5, col=5), "move/off_board"),
    # -- against the rules ----------------------------------------------------------
    Case("not-adjacent", enter(row=3, col=3), "move/not_adjacent"),
    Case("not-adjacent-same-row", enter(row=1, col=3), "move/not_adjacent"),
    Case("repeated-first-tile", enter(row=0, col=0), "move/repeated_tile"),
    Case("repeated-last-tile", enter(row=1, col=1), "move/repeated_tile"),
    Case("enter-while-idle", enter(row=0, col=0), "state/not_chaining", "idle"),
    Case("release-while-idle", raw(type="release"), "state/not_chaining", "idle"),
    Case("cancel-while-idle", raw(type="cancel"), "state/not_chaining", "idle"),
    Case("press-while-chaining", press(row=4, col=4), "state/already_chaining"),
    Case("press-on-chain-while-chaining", press(row=0, col=0), "state/already_chaining"),
    # -- no game yet ------------------------------------------------------------------
    Case("press-before-game", press(row=0, col=0), "game/none", "none"),
    Case("enter-before-game", enter(row=0, col=0), "game/none", "none"),
    Case("release-before-game", raw(type="release"), "game/none", "none"),
    Case("cancel-before-game", raw(type="cancel"), "game/none", "none"),
    Case("bad-json-before-game", "{", "protocol/bad_json", "none"),
    Case("bad-field-before-game", press(row=True, col=0), "protocol/bad_field", "none"),
    # -- new_game -------------------------------------------------------------------------
    Case("wordlist-unknown", raw(type="new_game", wordlist="klingon"), "game/unknown_wordlist"),
    Case("wordlist-parent-dir", raw(type="new_game", wordlist="../en"), "game/unknown_wordlist"),
    Case("wordlist-with-suffix", raw(type="new_game", wordlist="en.txt"), "game/unknown_wordlist"),
    Case("wordlist-settings", raw(type="new_game", wordlist="en.toml"), "game/unknown_wordlist"),
    Case("wordlist-licenses", raw(type="new_game", wordlist="licenses"), "game/unknown_wordlist"),
    Case("wordlist-upper", raw(type="new_game", wordlist="EN"), "game/unknown_wordlist"),
    Case("wordlist-unknown-no-game", raw(type="new_game", wordlist="xx"), "game/unknown_wordlist", "none"),
    Case("wordlist-empty", raw(type="new_game", wordlist=""), "protocol/bad_field"),
    Case("wordlist-number", raw(type="new_game", wordlist=5), "protocol/bad_field"),
    Case("wordlist-bool", raw(type="new_game", wordlist=True), "protocol/bad_field"),
    Case("wordlist-list", raw(type="new_game", wordlist=["en"]), "protocol/bad_field"),
    Case("wordlist-65-chars", raw(type="new_game", wordlist="e" * 65), "protocol/bad_field"),
    Case("seed-string", raw(type="new_game", seed="1"), "protocol/bad_field"),
    Case("seed-negative", raw(type="new_game", seed=-1), "protocol/bad_field"),
    Case("seed-2**53", raw(type="new_game", seed=2**53), "protocol/bad_field"),
    Case("seed-10**30", raw(type="new_game", seed=10**30), "protocol/bad_field"),
    Case("seed-1.5", raw(type="new_game", seed=1.5), "protocol/bad_field"),
    Case("seed-1.0", raw(type="new_game", seed=1.0), "protocol/bad_field"),
    Case("seed-true", raw(type="new_game", seed=True), "protocol/bad_field"),
    Case("seed-list", raw(type="new_game", seed=[1]), "protocol/bad_field"),
    Case("seed-bad-no-game", raw(type="new_game", seed=-5), "protocol/bad_field", "none"),
    # -- resume ---------------------------------------------------------------------------
    Case("resume-no-fields", raw(type="resume"), "protocol/missing_field"),
    Case("resume-no-token", raw(type="resume", game_id="abc"), "protocol/missing_field"),
    Case("resume-no-id", raw(type="resume", token="abc"), "protocol/missing_field"),
    Case("resume-id-number", raw(type="resume", game_id=5, token="abc"), "protocol/bad_field"),
    Case("resume-token-null", raw(type="resume", game_id="abc", token=None), "protocol/bad_field"),
    Case("resume-token-list", raw(type="resume", game_id="abc", token=["abc"]), "protocol/bad_field"),
    Case("resume-token-object", raw(type="resume", game_id="abc", token={}), "protocol/bad_field"),
    Case("resume-id-bool", raw(type="resume", game_id=True, token="abc"), "protocol/bad_field"),
    Case("resume-id-empty", raw(type="resume", game_id="", token="abc"), "protocol/bad_field"),
    Case("resume-id-129-chars", raw(type="resume", game_id="a" * 129, token="abc"), "protocol/bad_field"),
    Case("resume-token-huge", raw(type="resume", game_id="abc", token="t" * 3000), "protocol/bad_field"),
    Case("resume-unknown-id", raw(type="resume", game_id="nope", token="nope"), "game/not_found"),
    Case("resume-unknown-no-game", raw(type="resume", game_id="x", token="y"), "game/not_found", "none"),
    # -- binary frames ----------------------------------------------------------------------
    Case("binary", b"\x00\x01\x02", "protocol/binary_frame"),
    Case("binary-json", b'{"type": "cancel"}', "protocol/binary_frame"),
    Case("binary-empty", b"", "protocol/binary_frame"),
    Case("binary-before-game", b'{"type": "new_game"}', "protocol/binary_frame", "none"),
]


def frame_text(case: Case) -> str | bytes:
    if isinstance(case.frame, dict):
        return json.dumps(case.frame)
    return case.frame
