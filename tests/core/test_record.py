"""A game's record: its list, seed, settings and released paths replay it exactly, or say where not."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from itertools import product
from typing import Any

import pytest

from tests.support import shipped_list
from wibble.core import (
    Draws,
    Game,
    HashParams,
    Move,
    Phase,
    Pos,
    Record,
    RecordError,
    Result,
    WordJudged,
    WordList,
    build_word_list,
    differences,
    replay,
    solve,
)
from wibble.core.solver import count_words
from wibble.core.wordlist import CHANGED_IN_PLAY

P = Pos

AB_WORDS = ["".join(w) for n in (3, 4) for w in product("ab", repeat=n)]  # any chain of 3-4 tiles scores once
AB = build_word_list(
    "ab", AB_WORDS, {"letters": {"a": {"score": 1, "weight": 1}, "b": {"score": 2, "weight": 1}}}, "ab.toml"
)
# The same words and letters under another version of the list (as when a host edits its file).
AB_EDITED = build_word_list(
    "ab",
    AB_WORDS,
    {"letters": {"a": {"score": 1, "weight": 1}, "b": {"score": 2, "weight": 1}}},
    "ab.toml",
    "v2",
)


@pytest.fixture(scope="module")
def english() -> WordList:
    return shipped_list("en")


def release(game: Game, path: tuple[Pos, ...]) -> Move:
    game.press(path[0])
    for pos in path[1:]:
        game.enter(pos)
    judged = game.release()[0]
    game.clean_up()
    assert isinstance(judged, WordJudged)
    return Move.of(path, judged)


def played(words: WordList, seed: int, min_words: int = 0, turns: int = 12) -> tuple[Game, list[Move]]:
    """A game as a player plays it: mostly new words, and now and then a short, a wrong or a repeated one."""
    game = Game(words, Draws(seed), HashParams.draw(random.Random(seed)), min_words=min_words)
    moves: list[Move] = []
    for turn in range(turns):
        found = solve(game.board, words)
        repeats = [f for f in found if f.word in game.found]
        fresh = [f for f in found if f.word not in game.found]
        if turn % 4 == 1:
            path: tuple[Pos, ...] = (P(2, 2), P(2, 3))  # too short
        elif turn % 4 == 2:
            path = (P(4, 4), P(3, 3), P(2, 2), P(1, 1), P(0, 0))  # a diagonal: seldom a word
        elif turn % 4 == 3 and repeats:
            path = repeats[0].path
        else:
            path = fresh[turn % len(fresh)].path
        moves.append(release(game, path))
    return game, moves


def record_of(game: Game, moves: list[Move], game_id: str = "g1") -> Record:
    return Record.of(game_id, game.to_doc(), [move.to_doc() for move in moves])


@pytest.fixture(scope="module")
def ab_game() -> tuple[Game, list[Move]]:
    return played(AB, 4)


@pytest.fixture(scope="module")
def english_game(english: WordList) -> tuple[Game, list[Move]]:
    return played(english, 2024, min_words=30)


def test_the_games_recorded_here_hold_every_kind_of_verdict(
    ab_game: tuple[Game, list[Move]], english_game: tuple[Game, list[Move]]
) -> None:
    """The replays below would prove little if every move scored."""
    results = {move.result for _, moves in (ab_game, english_game) for move in moves}
    assert results == set(Result)


@pytest.mark.parametrize("which", ["ab_game", "english_game"])
def test_a_game_replayed_from_its_record_ends_exactly_as_it_was_played(
    which: str, request: pytest.FixtureRequest
) -> None:
    game, moves = request.getfixturevalue(which)
    record = record_of(game, moves)
    seen: list[int] = []

    again = replay(record, game.words, lambda before, move: seen.append(before.version))

    assert differences(again, record.final) is None
    assert seen == list(range(len(moves)))  # the game before each move, in order
    assert again.phase is Phase.IDLE
    assert (again.total, again.version, again.found.in_order) == (
        game.total,
        game.version,
        game.found.in_order,
    )
    assert again.board.rows() == game.board.rows()


def test_a_record_survives_json(english_game: tuple[Game, list[Move]]) -> None:
    record = record_of(*english_game)

    text = json.dumps(record.to_doc())

    assert Record.from_doc(json.loads(text)) == record


def test_a_record_read_back_from_json_still_replays(english_game: tuple[Game, list[Move]]) -> None:
    game, moves = english_game
    record = Record.from_doc(json.loads(json.dumps(record_of(game, moves).to_doc())))

    assert differences(replay(record, game.words), record.final) is None


def test_a_record_with_no_moves_replays_to_the_first_board() -> None:
    game = Game(AB, Draws(9), HashParams.draw(random.Random(9)))

    again = replay(record_of(game, []), AB)

    assert again.board.rows() == game.board.rows()
    assert differences(again, game.to_doc()) is None


# -- a record that was tampered with ---------------------------------------------------------


def edited(record: Record, number: int, **changes: Any) -> Record:
    """``record`` with move ``number`` (from 1) changed."""
    moves = list(record.moves)
    moves[number - 1] = replace(moves[number - 1], **changes)
    return replace(record, moves=tuple(moves))


def mismatch(record: Record, words: WordList) -> RecordError:
    with pytest.raises(RecordError) as refused:
        replay(record, words)
    assert refused.value.code == "record/mismatch"
    return refused.value


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("points", lambda m: m.points + 1),
        ("total", lambda m: m.total + 5),
        ("version", lambda m: m.version + 1),
        ("word", lambda m: m.word + "s"),
        ("result", lambda m: Result.NOT_A_WORD if m.result is Result.SCORED else Result.SCORED),
    ],
)
@pytest.mark.parametrize("number", [1, 5, 12])
def test_an_edited_move_fails_the_replay_naming_the_move_and_the_field(
    english_game: tuple[Game, list[Move]], field: str, change: Any, number: int
) -> None:
    game, moves = english_game
    record = record_of(game, moves)
    bad = edited(record, number, **{field: change(record.moves[number - 1])})

    error = mismatch(bad, game.words)

    assert error.move == number
    assert error.message.startswith(f"move {number}: ")
    assert field in error.message


def test_a_move_whose_path_was_changed_fails_the_replay_at_that_move(
    english_game: tuple[Game, list[Move]],
) -> None:
    game, moves = english_game
    record = record_of(game, moves)
    first = record.moves[0]
    assert first.result is Result.SCORED

    error = mismatch(edited(record, 1, path=first.path[:-1]), game.words)

    assert error.move == 1
    assert "word" in error.message


@pytest.mark.parametrize(
    "path",
    [
        (P(0, 0), P(2, 2)),  # not neighbours
        (P(0, 0), P(0, 1), P(1, 1), P(0, 0)),  # back onto a used tile
        (P(0, 0), P(0, 0)),  # a tile twice
        (P(7, 7),),  # off the board
        (),  # no tiles
    ],
    ids=["apart", "loop", "twice", "off-board", "empty"],
)
def test_a_move_whose_path_cannot_be_played_fails_the_replay_at_that_move(
    ab_game: tuple[Game, list[Move]], path: tuple[Pos, ...]
) -> None:
    game, moves = ab_game
    record = edited(record_of(game, moves), 3, path=path)

    error = mismatch(record, AB)

    assert error.move == 3
    assert error.message.startswith("move 3: ")


def test_a_record_with_another_seed_fails_the_replay_at_its_first_move(
    english_game: tuple[Game, list[Move]],
) -> None:
    game, moves = english_game
    record = record_of(game, moves)

    error = mismatch(replace(record, seed=record.seed + 1), game.words)

    assert error.move == 1


def test_a_record_missing_a_move_fails_the_replay_where_it_is_missing(
    ab_game: tuple[Game, list[Move]],
) -> None:
    game, moves = ab_game
    record = record_of(game, moves[:4] + moves[5:])

    assert mismatch(record, AB).move == 5


def test_a_record_whose_final_state_was_edited_replays_but_differs(ab_game: tuple[Game, list[Move]]) -> None:
    game, moves = ab_game
    record = record_of(game, moves)
    final = {**record.final, "total": record.final["total"] + 1}

    difference = differences(replay(record, AB), final)

    assert difference is not None
    assert difference.startswith("final total")


# -- a record for another list, or no record at all ---------------------------------------------


def test_a_record_made_with_another_version_of_the_list_is_refused(ab_game: tuple[Game, list[Move]]) -> None:
    game, moves = ab_game
    record = record_of(game, moves)
    assert record.wordlist_digest != AB_EDITED.digest

    with pytest.raises(RecordError) as refused:
        replay(record, AB_EDITED)

    assert refused.value.code == "record/wordlist_changed"
    assert "'ab'" in refused.value.message


def test_a_record_made_with_another_list_is_refused(
    ab_game: tuple[Game, list[Move]], english: WordList
) -> None:
    with pytest.raises(RecordError) as refused:
        replay(record_of(*ab_game), english)

    assert refused.value.code == "record/wordlist_changed"


def good_doc() -> dict[str, Any]:
    game, moves = played(AB, 4, turns=3)
    return record_of(game, moves).to_doc()


def without(doc: dict[str, Any], *keys: str | int) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    target: Any = doc
    for key in keys[:-1]:
        target = target[key]
    del target[keys[-1]]
    return doc


def with_(doc: dict[str, Any], value: Any, *keys: str | int) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    target: Any = doc
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value
    return doc


MALFORMED: dict[str, Any] = {
    "null": None,
    "a list": [],
    "text": "record",
    "a number": 3,
    "an empty object": {},
    "another format": with_(good_doc(), 2, "format"),
    "no format": without(good_doc(), "format"),
    "no game id": without(good_doc(), "game_id"),
    "game id a number": with_(good_doc(), 5, "game_id"),
    "wordlist a string": with_(good_doc(), "ab", "wordlist"),
    "no wordlist digest": without(good_doc(), "wordlist", "digest"),
    "seed as text": with_(good_doc(), "4", "seed"),
    "seed true": with_(good_doc(), True, "seed"),
    "no settings": without(good_doc(), "settings"),
    "size as text": with_(good_doc(), "5", "settings", "size"),
    "min_words a float": with_(good_doc(), 1.5, "settings", "min_words"),
    "moves an object": with_(good_doc(), {"1": {}}, "moves"),
    "moves a number": with_(good_doc(), 3, "moves"),
    "a move not an object": with_(good_doc(), "aab", "moves", 1),
    "a move without a path": without(good_doc(), "moves", 1, "path"),
    "a path of single numbers": with_(good_doc(), [0, 1, 2], "moves", 1, "path"),
    "a path of triples": with_(good_doc(), [[0, 0, 0]], "moves", 1, "path"),
    "a path of words": with_(good_doc(), [["a", "b"]], "moves", 1, "path"),
    "an unknown result": with_(good_doc(), "brilliant", "moves", 1, "result"),
    "points as text": with_(good_doc(), "3", "moves", 1, "points"),
    "a word as a number": with_(good_doc(), 3, "moves", 1, "word"),
    "no final state": without(good_doc(), "final"),
    "final state missing the board": without(good_doc(), "final", "board"),
    "final state a list": with_(good_doc(), [], "final"),
}


@pytest.mark.parametrize("doc", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_record_is_refused_as_invalid(doc: Any) -> None:
    with pytest.raises(RecordError) as refused:
        Record.from_doc(doc)

    assert refused.value.code == "record/invalid"


def test_a_malformed_move_is_named_by_its_number() -> None:
    with pytest.raises(RecordError) as refused:
        Record.from_doc(MALFORMED["an unknown result"])

    assert refused.value.move == 2


def test_the_good_record_the_malformed_ones_come_from_is_read() -> None:
    assert len(Record.from_doc(good_doc()).moves) == 3


@pytest.mark.parametrize(
    ("field", "value"),
    [("seed", -1), ("seed", 2**64), ("min_words", -1)],
    ids=["seed<0", "seed>=2**64", "min<0"],
)
def test_a_record_with_settings_no_game_can_have_is_refused_as_invalid(field: str, value: int) -> None:
    changes: dict[str, Any] = {field: value}
    record = replace(Record.from_doc(good_doc()), **changes)

    with pytest.raises(RecordError) as refused:
        replay(record, AB)

    assert refused.value.code == "record/invalid"


# -- a list that changed while a game was being played ------------------------------------------

# The list with fewer words (its 3-letter ones), as after a host's edit between a save and a resume.
AB_SHORTER = build_word_list(
    "ab",
    [word for word in AB_WORDS if len(word) == 3],
    {"letters": {"a": {"score": 1, "weight": 1}, "b": {"score": 2, "weight": 1}}},
    "ab.toml",
    "v3",
)


def test_a_game_played_on_after_its_list_changed_is_refused_by_every_version_of_the_list() -> None:
    game, moves = played(AB, 4, turns=3)
    resumed = Game.from_doc(game.to_doc(), AB_EDITED)
    moves.append(release(resumed, (P(0, 0), P(0, 1), P(1, 1))))
    record = record_of(resumed, moves)

    assert record.wordlist_digest == CHANGED_IN_PLAY
    for words in (AB, AB_EDITED):
        with pytest.raises(RecordError) as refused:
            replay(record, words)
        assert refused.value.code == "record/wordlist_changed"
        assert "changed while the game was being played" in refused.value.message


def test_a_game_resumed_with_its_list_unchanged_records_that_list() -> None:
    game, moves = played(AB, 4, turns=3)
    resumed = Game.from_doc(game.to_doc(), AB)
    moves.append(release(resumed, (P(0, 0), P(0, 1), P(1, 1))))

    assert replay(record_of(resumed, moves), AB).total == resumed.total


def test_a_game_resumed_with_another_version_of_its_list_counts_its_words_left_with_that_version() -> None:
    game, _ = played(AB, 4, turns=3)

    resumed = Game.from_doc(game.to_doc(), AB_SHORTER)

    assert resumed.words_left == count_words(resumed.board, AB_SHORTER, resumed.found.words)
    assert resumed.words_left < game.words_left


def test_a_mismatch_names_a_verdict_as_the_record_writes_it(english_game: tuple[Game, list[Move]]) -> None:
    game, moves = english_game
    record = record_of(game, moves)
    first = record.moves[0]
    assert isinstance(first, Move)
    bad = edited(record, 1, result=Result.NOT_A_WORD if first.result is Result.SCORED else Result.SCORED)

    message = mismatch(bad, game.words).message

    assert "<" not in message
    assert "'scored'" in message
