"""``define``: a word's short definition, to the player who asked, within the address's budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.test_wordlists import write_list
from tests.live.players import Live, LiveFactory, errors
from wibble.definitions import Definitions
from wibble.live.budgets import Limits
from wibble.wordlists import WordLists


@pytest.fixture
def lists(tmp_path: Path) -> WordLists:
    write_list(tmp_path, "casero", "casa\ncasas\nperro\n", 'language = "es"\n')
    (tmp_path / "casero.definitions.tsv").write_text(
        "casa\tsustantivo\tedificio para habitar\ncasas\t=\tcasa\n", "utf-8"
    )
    write_list(tmp_path, "plain", "cat\ndog\n")
    return WordLists(tmp_path, default="casero")


@pytest.fixture
def live(make_live: LiveFactory, lists: WordLists) -> Live:
    return make_live(wordlists=lists, definitions=Definitions(lists), limits=Limits(definitions_per_minute=3))


def test_a_player_is_told_what_a_word_means_and_nobody_else_is(live: Live) -> None:
    ann, bo = live.player(), live.player("198.51.100.7")
    [frame] = ann.send(type="define", word="CASAS", wordlist="casero", seq=4)
    assert frame == {
        "type": "definition",
        "word": "casas",
        "wordlist": "casero",
        "source": "casero.definitions.tsv",
        "meanings": [{"pos": "sustantivo", "lemma": "casa", "senses": ["edificio para habitar"]}],
        "seq": 4,
    }
    assert bo.frames == []


def test_a_word_without_an_entry_and_a_list_without_definitions_say_so(live: Live) -> None:
    ann = live.player()
    [perro] = ann.send(type="define", word="perro")  # the default list
    assert (perro["wordlist"], perro["source"], perro["meanings"]) == ("casero", "casero.definitions.tsv", [])
    [cat] = ann.send(type="define", word="cat", wordlist="plain")
    assert (cat["source"], cat["meanings"]) == (None, [])


def test_an_unknown_list_and_an_address_past_its_budget_are_refused(live: Live) -> None:
    ann, bo = live.player(), live.player("198.51.100.7")
    assert errors(ann.send(type="define", word="casa", wordlist="klingon")) == ["game/unknown_wordlist"]
    for _ in range(3):  # (the refusal above spent nothing)
        assert ann.send(type="define", word="casa")[0]["type"] == "definition"
    assert errors(ann.send(type="define", word="casa")) == ["limit/definitions"]
    assert bo.send(type="define", word="casa")[0]["type"] == "definition"  # another address, its own budget


def test_a_broken_definitions_file_is_refused_and_a_game_plays_on(
    live: Live, lists: WordLists, caplog: pytest.LogCaptureFixture
) -> None:
    (lists.directory / "casero.definitions.tsv").write_text("casa sustantivo edificio\n", "utf-8")
    ann = live.player()
    assert errors(ann.send(type="define", word="casa")) == ["define/unavailable"]
    assert "casero.definitions.tsv:1" in caplog.text  # the host's log says where
    assert ann.send(type="new_game", wordlist="plain")[0]["type"] == "game"
