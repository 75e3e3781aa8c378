"""Named value tables: a word list may carry Spellcast's letter values beside its own, a match in English
plays with them by default, and a match saved before matches named a table still plays its classic ones.

``records/en-before-values.json`` was made with ``tests/live/match_record.py`` (``recorded_match("en",
23)``) at commit ef1d1d6, the last before value tables: its document names no table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.core.matches import new_match, play_best
from tests.core.test_wordlists import load_error, write_list
from tests.support import shipped_list
from wibble.core import GameDataError, Pos, RecordError
from wibble.core.match import MatchRecord, Settings, match_differences, replay_match
from wibble.core.match import restore as restore_match
from wibble.core.solver import solve
from wibble.wordlists import load

SPELLCAST = {
    **dict.fromkeys("aeio", 1),
    **dict.fromkeys("nrst", 2),
    **dict.fromkeys("dgl", 3),
    **dict.fromkeys("bhmpuy", 4),
    **dict.fromkeys("cfvw", 5),
    "k": 6,
    **dict.fromkeys("jx", 7),
    **dict.fromkeys("qz", 8),
}
RECORD = Path(__file__).parent / "records" / "en-before-values.json"


@pytest.mark.parametrize("name", ["en", "en-easy"])
def test_the_english_lists_carry_spellcasts_table_beside_scrabbles(name: str) -> None:
    words = shipped_list(name)

    spellcast = words.with_values("spellcast")

    assert {letter.symbol: letter.score for letter in spellcast.letters} == SPELLCAST
    assert (words.letters["q"].score, words.letters["k"].score) == (10, 5)  # the list's own, unchanged
    assert [letter.weight for letter in spellcast.letters] == [letter.weight for letter in words.letters]
    assert spellcast.digest != words.digest
    assert words.with_values("classic") is words
    assert spellcast.with_values("spellcast") is spellcast


def test_a_list_without_tables_plays_its_own_values() -> None:
    spanish = shipped_list("es")

    assert spanish.tables == {}
    assert spanish.values_for("spellcast") == "classic"
    assert new_match(words=spanish).settings.values == "classic"


BASE = "[letters]\na = { score = 1 }\nb = { score = 3 }\nc = { score = 3 }\n"


def test_adding_a_value_table_leaves_the_lists_digest_as_it_was(tmp_path: Path) -> None:
    for name in ("one", "two", "three"):
        (tmp_path / name).mkdir()
    before = load(write_list(tmp_path / "one", "abc", "cab\nabc\n", BASE))
    table = "\n# values as another game has them\n[values.other]\na = 2\nb = 2\nc = 7\n"
    after = load(write_list(tmp_path / "two", "abc", "cab\nabc\n", BASE + table))
    changed = load(write_list(tmp_path / "three", "abc", "cab\nabc\n", BASE + table.replace("7", "8")))

    assert after.digest == before.digest
    assert after.with_values("other").digest != changed.with_values("other").digest
    assert [letter.score for letter in after.with_values("other").letters] == [2, 2, 7]


@pytest.mark.parametrize(
    ("settings", "complaint"),
    [
        (BASE + "[values.other]\na = 2\nb = 2\n", "gives no score for C"),
        (BASE + "[values.other]\na = 2\nb = 2\nc = 2\nd = 1\n", "'d' is not one of the list's tiles"),
        (BASE + "[values.other]\na = 2\nb = 2\nc = -1\n", "must score a whole number 0-100"),
        (BASE + "[values.classic]\na = 2\nb = 2\nc = 2\n", "not 'classic'"),
        (BASE + "[values.Other]\na = 2\nb = 2\nc = 2\n", "a name is 1-20 lower-case"),
        ("values = 3\n" + BASE, "'values' must hold tables"),
        ("[values.other]\na = 2\nb = 2\nc = 2\n" + BASE, "after the list's other settings"),
        ("values.other = { a = 2, b = 2, c = 2 }\n" + BASE, "after the list's other settings"),
    ],
)
def test_a_bad_value_table_is_refused_naming_the_file(tmp_path: Path, settings: str, complaint: str) -> None:
    path = write_list(tmp_path, "abc", "cab\n", settings)

    error = load_error(path)

    assert str(error).startswith(f"{path.with_suffix('.toml')}: ")
    assert complaint in str(error)


def test_a_match_in_english_scores_by_spellcasts_table_unless_its_host_chooses_the_classic_one() -> None:
    spellcast, classic = new_match(5), new_match(5, values="classic")

    assert spellcast.settings.values == "spellcast"
    assert classic.settings.values == "classic"
    assert [t.symbol for row in spellcast.board.rows() for t in row] == [
        t.symbol for row in classic.board.rows() for t in row
    ]  # the same draws; only the scores differ
    for row, col in [(r, c) for r in range(5) for c in range(5)]:
        letter = spellcast.board[Pos(row, col)]
        assert letter.score == SPELLCAST[letter.symbol]
        assert classic.board[Pos(row, col)].score == shipped_list("en").letters[letter.symbol].score
    tiles = [tile for row in spellcast.tiles() for tile in row]
    assert all(tile["score"] == SPELLCAST[tile["letter"].lower()] for tile in tiles)
    assert spellcast.to_doc()["settings"]["values"] == "spellcast"
    assert spellcast.to_doc()["wordlist_digest"] == shipped_list("en").with_values("spellcast").digest
    assert classic.to_doc()["wordlist_digest"] == shipped_list("en").digest


def test_a_word_scores_the_sum_of_its_spellcast_values() -> None:
    match = new_match(3, word_mult_from=99)
    match.specials.letter_mult = None
    best = match.best()
    assert best is not None

    [played] = [e for e in play_best(match) if type(e).__name__ == "Played"]

    letters = sum(SPELLCAST[match.words.letters[ch].symbol] for ch in best.word)
    assert played.score.points == letters + (10 if len(best.word) >= 6 else 0)  # type: ignore[attr-defined]


def test_the_solvers_best_words_follow_the_table() -> None:
    """Every word with its best path under Spellcast's values, checked against scoring each classic path
    afresh by those values; on some boards the best word itself is another."""
    differs = 0
    for seed in range(1, 13):
        spellcast, classic = new_match(seed), new_match(seed, values="classic")
        found = {f.word: f.score for f in spellcast.solve()}
        rescored = {f.word: spellcast.path_score(f.path).points for f in classic.solve()}
        assert set(found) == set(rescored)
        assert all(found[word] >= rescored[word] for word in found)  # the best path, by these values
        values = [
            spellcast.specials.value(Pos(r, c), spellcast.board[Pos(r, c)])
            for r in range(5)
            for c in range(5)
        ]
        assert spellcast.solve() == solve(
            spellcast.board, spellcast.words, values, spellcast.settings.scoring
        )
        best_spellcast, best_classic = spellcast.best(), classic.best()
        assert best_spellcast is not None
        assert best_classic is not None
        assert best_spellcast.score == max(found.values())
        differs += best_spellcast.word != best_classic.word
    assert differs > 0


def test_a_match_restores_with_the_table_it_was_played_with() -> None:
    match = new_match(9)
    play_best(match)
    doc = json.loads(json.dumps(match.to_doc()))

    restored = restore_match(doc, shipped_list("en"))

    assert restored.settings.values == "spellcast"
    assert restored.words.digest == match.words.digest
    assert json.loads(json.dumps(restored.to_doc())) == doc
    assert restored.best() == match.best()


def test_a_match_naming_a_table_its_list_lacks_is_refused() -> None:
    doc = json.loads(json.dumps(new_match(9).to_doc()))
    doc["settings"]["values"] = "nowhere"

    with pytest.raises(GameDataError, match="'nowhere' values"):
        restore_match(doc, shipped_list("en"))


def test_settings_refuse_a_value_that_names_no_table() -> None:
    with pytest.raises(ValueError, match="values"):
        Settings(values="Not A Name")
    with pytest.raises(GameDataError):
        Settings.from_doc({"values": 3})


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(RECORD.read_text())
    return doc


def test_a_record_made_before_value_tables_names_none(record: dict[str, Any]) -> None:
    assert "values" not in record["settings"]
    assert "values" not in record["final"]["settings"]
    assert record["wordlist"] == {"name": "en", "digest": shipped_list("en").digest}
    assert MatchRecord.from_doc(record).settings.values == "classic"


def test_a_record_made_before_value_tables_replays_with_the_classic_values(record: dict[str, Any]) -> None:
    parsed = MatchRecord.from_doc(record)

    match = replay_match(parsed, shipped_list("en"))

    assert match_differences(match, parsed.final) is None
    assert match.settings.values == "classic"
    assert [seat.score for seat in match.seats] == [seat["score"] for seat in record["final"]["seats"]]


def test_the_same_record_under_spellcasts_values_would_not_replay(record: dict[str, Any]) -> None:
    """The check has teeth: the record's words score otherwise by Spellcast's table."""
    doc = json.loads(json.dumps(record))
    doc["settings"]["values"] = "spellcast"

    with pytest.raises(RecordError) as caught:
        replay_match(MatchRecord.from_doc(doc), shipped_list("en"))

    assert caught.value.code == "record/wordlist_changed"  # its digest names the classic list


def test_an_old_document_restores_with_the_classic_values_and_plays_on(record: dict[str, Any]) -> None:
    final = record["final"]

    restored = restore_match(final, shipped_list("en"))

    assert restored.settings.values == "classic"
    assert restored.words is shipped_list("en")
    assert restored.words.digest == final["wordlist_digest"]
    doc = json.loads(json.dumps(restored.to_doc()))
    assert doc == {**final, "settings": {**final["settings"], "values": "classic"}}
    board = [tile for row in restored.tiles() for tile in row]
    assert all(tile["score"] == shipped_list("en").letters[tile["letter"].lower()].score for tile in board)
