"""The parser alone, in this process: every message type read into its command, and every kind of
malformed message refused with its typed error, the field it names and the request it answers.

What a client sees of these over a real socket (the error frame, nothing changed, the line still
open) is tests/processes/test_bad_input.py's; here each refusal is one call to ``parse``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.protocol.bad_frames import CASES, frame_text
from wibble.core import Pos, ProtocolError
from wibble.protocol import parse, request_name, seq_of
from wibble.protocol.commands import (
    MAX_COORD,
    MAX_ID,
    MAX_NAME,
    MAX_SEED,
    MAX_SEQ,
    UNSET,
    BotSpec,
    Cancel,
    Command,
    CreateRoom,
    Define,
    EndSprint,
    Enter,
    Extend,
    Follow,
    Hint,
    JoinRoom,
    Leaderboard,
    LeaveRoom,
    LeaveSeat,
    NewDaily,
    NewGame,
    NewMatch,
    Pass,
    Ping,
    Press,
    Release,
    Rematch,
    Remove,
    Resume,
    ResumeMatch,
    RulesPatch,
    SetRules,
    SetSeat,
    Shuffle,
    StartMatch,
    Suggest,
    Swap,
    TakeSeat,
)

PLAYER = "p" * 32  # a browser's own id, as the page makes it


def frame(**fields: Any) -> str:
    return json.dumps(fields)


# -- what each type reads as ---------------------------------------------------------------------

READS = [
    ("ping", frame(type="ping"), Ping()),
    ("new_game", frame(type="new_game"), NewGame(None, None, None)),
    (
        "new_game-all",
        frame(type="new_game", wordlist="es", seed=MAX_SEED, sprint=180),
        NewGame("es", MAX_SEED, 180),
    ),
    (
        "new_game-nulls",
        frame(type="new_game", wordlist=None, seed=None, sprint=None),
        NewGame(None, None, None),
    ),
    ("new_daily", frame(type="new_daily", player=PLAYER, name=" Ann "), NewDaily(PLAYER, "Ann")),
    ("leaderboard", frame(type="leaderboard"), Leaderboard(None)),
    ("leaderboard-player", frame(type="leaderboard", player=PLAYER), Leaderboard(PLAYER)),
    ("define", frame(type="define", word="Runs"), Define("runs")),
    ("define-in-a-list", frame(type="define", word="Niño", wordlist="es"), Define("niño", "es")),
    ("resume", frame(type="resume", game_id="g1", token="t1"), Resume("g1", "t1")),
    ("resume-match", frame(type="resume", match_id="m1", token="t1"), ResumeMatch("m1", "t1")),
    ("press", frame(type="press", row=0, col=4), Press(Pos(0, 4))),
    ("press-far-off", frame(type="press", row=-MAX_COORD, col=MAX_COORD), Press(Pos(-MAX_COORD, MAX_COORD))),
    ("enter", frame(type="enter", row=2, col=3), Enter(Pos(2, 3))),
    ("release", frame(type="release"), Release()),
    ("cancel", frame(type="cancel"), Cancel()),
    ("done", frame(type="done"), EndSprint()),
    ("new_match", frame(type="new_match"), NewMatch(None, None, 5, None, (), "You", 1, "spellcast")),
    (
        "new_match-all",
        frame(
            type="new_match",
            wordlist="en",
            seed=3,
            rounds=20,
            turn_seconds=600,
            bots=[{"level": "hard", "speed": 4}, {}],
            name="Ann",
            speed=2,
            values="classic",
        ),
        NewMatch("en", 3, 20, 600, (BotSpec("hard", 4), BotSpec("medium", 1)), "Ann", 2, "classic"),
    ),
    ("pass", frame(type="pass"), Pass()),
    ("shuffle", frame(type="shuffle"), Shuffle()),
    ("swap", frame(type="swap", row=1, col=1, letter="qu"), Swap(Pos(1, 1), "qu")),
    ("swap-decomposed", frame(type="swap", row=1, col=1, letter="N\u0303"), Swap(Pos(1, 1), "\u00d1")),
    ("hint", frame(type="hint"), Hint()),
    ("extend", frame(type="extend"), Extend()),
    ("rematch", frame(type="rematch"), Rematch()),
    ("create_room", frame(type="create_room", name="Ann"), CreateRoom("Ann", RulesPatch())),
    (
        "create_room-rules",
        frame(type="create_room", name="Ann", rules={"rounds": 3, "turn_seconds": None, "stand_in": "easy"}),
        CreateRoom("Ann", RulesPatch(3, None, None, "easy", None)),
    ),
    ("join_room", frame(type="join_room", code=" abcd ", name="Bo"), JoinRoom("ABCD", "Bo", None)),
    (
        "join_room-token",
        frame(type="join_room", code="ABCD", name="Bo", token="t"),
        JoinRoom("ABCD", "Bo", "t"),
    ),
    ("take_seat", frame(type="take_seat", seat=5), TakeSeat(5)),
    ("take_seat-team", frame(type="take_seat", team="b"), TakeSeat(None, "b")),
    ("take_seat-team-null-seat", frame(type="take_seat", seat=None, team="a"), TakeSeat(None, "a")),
    ("suggest", frame(type="suggest", row=1, col=2), Suggest(Pos(1, 2))),
    ("suggest-to", frame(type="suggest", row=0, col=4, to=2), Suggest(Pos(0, 4), 2)),
    ("suggest-clear", frame(type="suggest"), Suggest()),
    ("follow", frame(type="follow", seat=2), Follow(2)),
    ("leave_seat", frame(type="leave_seat"), LeaveSeat()),
    ("leave_room", frame(type="leave_room"), LeaveRoom()),
    ("set_rules-nothing", frame(type="set_rules"), SetRules(RulesPatch())),
    (
        "set_rules-race",
        frame(type="set_rules", mode="race", race_seconds=60),
        SetRules(RulesPatch(mode="race", race_seconds=60)),
    ),
    ("set_rules-teams", frame(type="set_rules", mode="teams"), SetRules(RulesPatch(mode="teams"))),
    (
        "set_rules-untimed",
        frame(type="set_rules", turn_seconds=None, wordlist="es", values="classic"),
        SetRules(RulesPatch(None, None, "es", None, "classic")),
    ),
    ("set_seat-bot", frame(type="set_seat", seat=1, bot="hard"), SetSeat(1, "hard", None)),
    ("set_seat-speed", frame(type="set_seat", seat=2, speed=3), SetSeat(2, None, 3)),
    ("remove", frame(type="remove", seat=0), Remove(0)),
    ("start_match", frame(type="start_match"), StartMatch()),
    # the client's own number for its request, on any type
    ("seq", frame(type="ping", seq=7), Ping(seq=7)),
    ("seq-largest", frame(type="new_game", seq=MAX_SEQ), NewGame(None, None, None, seq=MAX_SEQ)),
    ("seq-null", frame(type="cancel", seq=None), Cancel()),
    ("seq-on-a-drag", '{"type":"enter","row":1,"col":2,"seq":9}', Enter(Pos(1, 2), seq=9)),
    # fields nobody asked for are ignored, and JSON's own spelling does not matter
    ("extra-fields", frame(type="press", row=0, col=0, pressure=0.5, nested={"a": [1]}), Press(Pos(0, 0))),
    ("whitespace", ' \n{ "col" : 1 ,"type":"press","row":0 }\t', Press(Pos(0, 1))),
]


@pytest.mark.parametrize(("text", "command"), [(t, c) for _, t, c in READS], ids=[i for i, _, _ in READS])
def test_each_message_reads_as_its_command(text: str, command: Command) -> None:
    assert parse(text) == command


def test_every_type_the_parser_knows_has_a_row_above_and_answers_to_its_own_name() -> None:
    types = {json.loads(text)["type"] for _, text, _ in READS}
    for _, text, command in READS:
        assert request_name(command) == json.loads(text)["type"]
    refused = parse_error(frame(type="?"))
    known = refused.message.split("(known: ")[1].rstrip(")").split(", ")
    assert types == set(known)


def test_a_set_rules_that_leaves_turn_seconds_out_keeps_it_where_null_makes_the_match_untimed() -> None:
    assert parse(frame(type="set_rules")) == SetRules(RulesPatch(turn_seconds=UNSET))
    assert parse(frame(type="set_rules", turn_seconds=None)) == SetRules(RulesPatch(turn_seconds=None))


# -- what each is refused with -------------------------------------------------------------------


def parse_error(text: str | bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as refused:
        parse(text)
    return refused.value


BINARY, JSON, OBJECT = "protocol/binary_frame", "protocol/bad_json", "protocol/not_object"
MISSING, BAD, UNKNOWN = "protocol/missing_field", "protocol/bad_field", "protocol/unknown_type"

# (id, frame, code, the field the message names or None, the request the error answers or None)
REFUSALS: list[tuple[str, str | bytes, str, str | None, str | None]] = [
    # -- not a text frame of one JSON object with a type
    ("binary", b'{"type": "ping"}', BINARY, None, None),
    ("binary-bytearray", bytearray(b'{"type": "ping"}'), BINARY, None, None),
    ("malformed", '{"type": "ping"', JSON, None, None),
    ("empty", "", JSON, None, None),
    ("NaN", '{"type": "new_game", "seed": NaN}', JSON, None, None),
    ("Infinity-in-a-drag", '{"type": "press", "row": Infinity, "col": 0}', JSON, None, None),
    ("too-deep", "[" * 3000 + "]" * 3000, JSON, None, None),
    ("too-many-digits", '{"type": "press", "row": ' + "9" * 5000 + ', "col": 0}', JSON, None, None),
    ("two-objects", '{"type": "ping"}{"type": "ping"}', JSON, None, None),
    ("list", '[{"type": "ping"}]', OBJECT, None, None),
    ("string", '"ping"', OBJECT, None, None),
    ("null", "null", OBJECT, None, None),
    ("no-type", frame(row=0, col=0), MISSING, "type", None),
    ("type-null", frame(type=None), BAD, "type", None),
    ("type-number", frame(type=1), BAD, "type", None),
    # -- a type nobody knows: named, cut short
    ("unknown-type", frame(type="fly"), UNKNOWN, "fly", "fly"),
    ("unknown-empty-type", frame(type=""), UNKNOWN, None, ""),
    ("unknown-type-case", frame(type="PING"), UNKNOWN, "PING", "PING"),
    ("a-servers-type", frame(type="game"), UNKNOWN, "game", "game"),
    ("very-long-type", frame(type="x" * 4000), UNKNOWN, "x" * 24, "x" * 40),
    # -- coordinates: whole numbers, in the parser's range (the board's is the game's business)
    ("press-no-row", frame(type="press", col=0), MISSING, "row", "press"),
    ("enter-no-col", frame(type="enter", row=0), MISSING, "col", "enter"),
    ("row-true", frame(type="press", row=True, col=0), BAD, "row", "press"),
    ("row-float", frame(type="press", row=1.0, col=0), BAD, "row", "press"),
    ("row-text", frame(type="enter", row="1", col=0), BAD, "row", "enter"),
    ("row-null", frame(type="enter", row=None, col=0), BAD, "row", "enter"),
    ("col-list", frame(type="enter", row=0, col=[1]), BAD, "col", "enter"),
    ("row-past-the-range", frame(type="press", row=MAX_COORD + 1, col=0), BAD, "row", "press"),
    ("col-below-the-range", frame(type="swap", row=0, col=-MAX_COORD - 1, letter="a"), BAD, "col", "swap"),
    # -- seq, on any type
    ("seq-negative", frame(type="ping", seq=-1), BAD, "seq", "ping"),
    ("seq-too-large", frame(type="cancel", seq=MAX_SEQ + 1), BAD, "seq", "cancel"),
    ("seq-text", frame(type="new_game", seq="1"), BAD, "seq", "new_game"),
    # -- text fields: present, text, 1 to their limit, no half surrogate pairs
    ("wordlist-too-long", frame(type="new_game", wordlist="e" * (MAX_NAME + 1)), BAD, "wordlist", "new_game"),
    ("wordlist-empty", frame(type="new_game", wordlist=""), BAD, "wordlist", "new_game"),
    ("wordlist-number", frame(type="new_match", wordlist=5), BAD, "wordlist", "new_match"),
    ("resume-no-token", frame(type="resume", game_id="g"), MISSING, "token", "resume"),
    ("resume-no-id", frame(type="resume", token="t"), MISSING, "game_id", "resume"),
    ("token-too-long", frame(type="resume", game_id="g", token="t" * (MAX_ID + 1)), BAD, "token", "resume"),
    ("match-id-empty", frame(type="resume", match_id="", token="t"), BAD, "match_id", "resume"),
    ("token-half-a-pair", '{"type": "resume", "game_id": "g", "token": "\\ud800"}', BAD, "token", "resume"),
    ("swap-no-letter", frame(type="swap", row=0, col=0), MISSING, "letter", "swap"),
    ("swap-letter-too-long", frame(type="swap", row=0, col=0, letter="a" * 9), BAD, "letter", "swap"),
    ("code-missing", frame(type="join_room", name="Bo"), MISSING, "code", "join_room"),
    ("code-too-long", frame(type="join_room", code="A" * 17, name="Bo"), BAD, "code", "join_room"),
    (
        "join-token-empty",
        frame(type="join_room", code="ABCD", name="Bo", token=""),
        BAD,
        "token",
        "join_room",
    ),
    # -- whole numbers in their ranges
    ("seed-negative", frame(type="new_game", seed=-1), BAD, "seed", "new_game"),
    ("seed-past-exact", frame(type="new_match", seed=MAX_SEED + 1), BAD, "seed", "new_match"),
    ("sprint-not-a-length", frame(type="new_game", sprint=120), BAD, "sprint", "new_game"),
    ("sprint-too-long", frame(type="new_game", sprint=301), BAD, "sprint", "new_game"),
    ("rounds-zero", frame(type="new_match", rounds=0), BAD, "rounds", "new_match"),
    ("rounds-21", frame(type="set_rules", rounds=21), BAD, "rounds", "set_rules"),
    ("turn-too-short", frame(type="new_match", turn_seconds=4), BAD, "turn_seconds", "new_match"),
    ("turn-too-long", frame(type="set_rules", turn_seconds=601), BAD, "turn_seconds", "set_rules"),
    ("match-speed-5", frame(type="new_match", speed=5), BAD, "speed", "new_match"),
    ("seat-8", frame(type="take_seat", seat=8), BAD, "seat", "take_seat"),
    ("seat-negative", frame(type="remove", seat=-1), BAD, "seat", "remove"),
    ("seat-missing", frame(type="take_seat"), MISSING, "seat", "take_seat"),
    ("seat-text", frame(type="set_seat", seat="1", bot="easy"), BAD, "seat", "set_seat"),
    ("team-unknown", frame(type="take_seat", team="c"), BAD, "team", "take_seat"),
    ("team-and-seat", frame(type="take_seat", seat=1, team="a"), BAD, "seat", "take_seat"),
    # -- a teammate's suggestion: a tile, or none at all
    ("suggest-row-only", frame(type="suggest", row=1), MISSING, "col", "suggest"),
    ("suggest-col-text", frame(type="suggest", row=1, col="2"), BAD, "col", "suggest"),
    ("suggest-to-8", frame(type="suggest", row=1, col=2, to=8), BAD, "to", "suggest"),
    # -- choices from a list
    ("values-unknown", frame(type="new_match", values="scrabble"), BAD, "values", "new_match"),
    ("room-values-unknown", frame(type="set_rules", values="classic "), BAD, "values", "set_rules"),
    ("stand-in-unknown", frame(type="set_rules", stand_in="godlike"), BAD, "stand_in", "set_rules"),
    ("mode-unknown", frame(type="set_rules", mode="battle"), BAD, "mode", "set_rules"),
    ("race-seconds-90", frame(type="set_rules", race_seconds=90), BAD, "race_seconds", "set_rules"),
    ("race-seconds-text", frame(type="set_rules", race_seconds="60"), BAD, "race_seconds", "set_rules"),
    ("seat-bot-unknown", frame(type="set_seat", seat=1, bot="godlike"), BAD, "bot", "set_seat"),
    ("seat-nothing-to-set", frame(type="set_seat", seat=1), MISSING, "set_seat", "set_seat"),
    ("seat-bot-speed-0", frame(type="set_seat", seat=1, speed=0), BAD, "speed", "set_seat"),
    # -- bots
    ("bots-not-a-list", frame(type="new_match", bots={"level": "easy"}), BAD, "bots", "new_match"),
    ("six-bots", frame(type="new_match", bots=[{}] * 6), BAD, "bots", "new_match"),
    ("bot-not-an-object", frame(type="new_match", bots=["easy"]), BAD, "level", "new_match"),
    ("bot-level-unknown", frame(type="new_match", bots=[{"level": "godlike"}]), BAD, "level", "new_match"),
    ("bot-speed-5", frame(type="new_match", bots=[{"level": "easy", "speed": 5}]), BAD, "speed", "new_match"),
    # -- the daily board's player
    ("daily-no-player", frame(type="new_daily", name="Ann"), MISSING, "player", "new_daily"),
    ("daily-player-short", frame(type="new_daily", player="p" * 15, name="Ann"), BAD, "player", "new_daily"),
    ("daily-no-name", frame(type="new_daily", player=PLAYER), MISSING, "name", "new_daily"),
    ("leaderboard-player-short", frame(type="leaderboard", player="p"), BAD, "player", "leaderboard"),
    # -- a word to define: letters only, as long as a chain can be
    ("define-no-word", frame(type="define"), MISSING, "word", "define"),
    ("define-digits", frame(type="define", word="r2d2"), BAD, "word", "define"),
    ("define-space", frame(type="define", word="ice cream"), BAD, "word", "define"),
    ("define-26-letters", frame(type="define", word="a" * 26), BAD, "word", "define"),
    ("define-list-not-text", frame(type="define", word="run", wordlist=3), BAD, "wordlist", "define"),
    # -- rooms
    ("room-no-name", frame(type="create_room"), MISSING, "name", "create_room"),
    (
        "room-rules-not-an-object",
        frame(type="create_room", name="Ann", rules=[]),
        BAD,
        "rules",
        "create_room",
    ),
    (
        "room-rules-inside",
        frame(type="create_room", name="Ann", rules={"rounds": 0}),
        BAD,
        "rounds",
        "create_room",
    ),
]


@pytest.mark.parametrize(
    ("text", "code", "field", "request_type"),
    [row[1:] for row in REFUSALS],
    ids=[row[0] for row in REFUSALS],
)
def test_each_malformed_message_is_refused_with_its_code_naming_what_to_fix(
    text: str | bytes, code: str, field: str | None, request_type: str | None
) -> None:
    refused = parse_error(text)
    assert refused.code == code
    assert refused.request == request_type
    if field is not None:
        assert field in refused.message
    # One line a person can read, whatever was sent (an unknown type's list of the known ones
    # grows with the protocol, not with what a client sends).
    assert 0 < len(refused.message.split(" (known: ")[0]) < 300


# -- names: the one rule for every name a person gives ------------------------------------------

NAMES_READ = [
    ("trimmed", "  Ann  ", "Ann"),
    ("twenty", "N" * 20, "N" * 20),
    ("composed", "Jose\u0301", "José"),  # NFC: counted as the letters a person sees
    ("two-accents", "a\u0301\u0302", "á\u0302"),
    ("inner-space", "Ann Bo", "Ann Bo"),
    ("emoji-family", "👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),
    ("emoji-skin-tone-joined", "👩🏽\u200d⚕️", "👩🏽\u200d⚕️"),
    ("beyond-latin", "Ñandú 李", "Ñandú 李"),
    ("kannada", "ಗೋಪಾಲ", "ಗೋಪಾಲ"),  # ೋ decomposes into three vowel signs: one syllable, no accents
    ("malayalam", "കൊം", "കൊം"),
]

NAMES_REFUSED = [
    ("empty", "", "1-20"),
    ("only-spaces", "   ", "once trimmed"),
    ("twenty-one", "N" * 21, "once trimmed"),
    ("control", "Ann\x07", "invisible"),
    ("zero-width-space", "An\u200bn", "invisible"),
    ("joiner-between-letters", "A\u200dB", "invisible"),
    ("hangul-filler", "\u3164", "invisible"),
    ("braille-blank", "\u2800\u2800", "invisible"),
    ("three-accents", "x\u0301\u0302\u0303", "too many accents"),
    ("three-accents-one-composed", "a\u0301\u0301\u0301", "too many accents"),  # NFC: á + two
    ("starts-with-an-accent", "\u0345\u0345a", "start with an accent"),
    ("only-accents", "\u0301\u0302", "visible letter"),
    ("not-text", 5, "text"),
]


@pytest.mark.parametrize(("given", "shown"), [r[1:] for r in NAMES_READ], ids=[r[0] for r in NAMES_READ])
def test_a_name_is_read_as_people_will_see_it_in_a_room_and_in_a_match(given: str, shown: str) -> None:
    assert parse(frame(type="create_room", name=given)) == CreateRoom(shown, RulesPatch())
    match = parse(frame(type="new_match", name=given))
    assert isinstance(match, NewMatch)
    assert match.name == shown


@pytest.mark.parametrize(("given", "why"), [r[1:] for r in NAMES_REFUSED], ids=[r[0] for r in NAMES_REFUSED])
def test_a_name_nobody_could_see_or_read_is_refused_saying_why(given: Any, why: str) -> None:
    for kind in ("create_room", "join_room", "new_daily", "new_match"):
        refused = parse_error(frame(type=kind, name=given, code="ABCD", player=PLAYER))
        assert (refused.code, refused.request) == (BAD, kind)
        assert "'name'" in refused.message
        assert why in refused.message


# -- the table of bad frames a real server is sent -----------------------------------------------

PARSERS_ROWS = [
    case for case in CASES if isinstance(case.code, frozenset) or case.code.startswith("protocol/")
]
GAMES_ROWS = [case for case in CASES if case not in PARSERS_ROWS]


@pytest.mark.parametrize("case", PARSERS_ROWS, ids=[case.id for case in PARSERS_ROWS])
def test_each_row_of_the_wire_table_the_parser_refuses_is_refused_here_with_its_code(case: Any) -> None:
    codes = case.code if isinstance(case.code, frozenset) else {case.code}
    assert parse_error(frame_text(case)).code in codes


@pytest.mark.parametrize("case", GAMES_ROWS, ids=[case.id for case in GAMES_ROWS])
def test_each_row_the_game_refuses_is_a_well_formed_command(case: Any) -> None:
    assert isinstance(parse(frame_text(case)), Command)


# -- seq of a refused frame, for its error ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seq"),
    [
        (frame(type="press", col=0, seq=4), 4),  # a well-formed request with a bad field
        (frame(type="fly", seq=5), 5),
        (frame(type="press", seq=-1), None),  # the seq itself is bad: nothing to echo
        (frame(type="press", seq=True), None),
        ("{", None),
        ("[1]", None),
    ],
)
def test_the_error_for_a_refused_frame_carries_its_seq_when_it_has_a_good_one(
    text: str, seq: int | None
) -> None:
    assert seq_of(text) == seq
