"""The word-list picker and the page's URL parameters."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.wibble_page import WibblePage
from tests.support import WORDS, LiveServer
from wibble.core import Trie
from wibble.wordlists import WordLists

pytestmark = pytest.mark.e2e


def test_the_picker_lists_every_word_list_by_title(page: Page, server: LiveServer) -> None:
    game = WibblePage(page).open(server.url)
    options = game.picker.locator("option")
    values = options.evaluate_all("options => options.map(o => o.value)")
    shipped = {info.name: info.title for info in WordLists(WORDS).info()}
    assert dict(zip(values, options.all_inner_texts(), strict=True)) == shipped
    assert {"en", "es"} <= set(shipped)
    expect(game.picker).to_have_value("en")


def test_choosing_spanish_starts_a_spanish_game(
    page: Page, server: LiveServer, es_trie: Trie, console_errors: list[str]
) -> None:
    game = WibblePage(page).open(server.url)
    english = game.game_id()

    game.picker.select_option("es")

    expect(game.board).not_to_have_attribute("data-game-id", english)
    expect(game.board).to_have_attribute("data-wordlist", "es")
    game.wait_idle()
    expect(game.picker).to_have_value("es")
    expect(game.message).to_contain_text("Español")
    for attempt in range(3):
        letters = {tile.letter for tile in game.read_tiles()}
        assert not letters & {"K", "W"}, f"Spanish board {attempt} has {letters & {'K', 'W'}}"
        game.new_game()  # New game keeps the chosen list
        expect(game.picker).to_have_value("es")
        expect(game.board).to_have_attribute("data-wordlist", "es")

    word, path = game.a_word(es_trie)
    points = game.points(path)
    game.play(path)
    expect(game.total).to_have_text(str(points))
    expect(game.found).to_contain_text(word.upper())


def test_url_parameters_choose_the_list_and_the_seed(page: Page, server: LiveServer) -> None:
    game = WibblePage(page).open(server.url, wordlist="es", seed=12345)
    expect(game.picker).to_have_value("es")
    board = game.letters()
    first = game.game_id()

    game.open(server.url, wordlist="es", seed=12345)

    assert game.game_id() != first  # a new game...
    assert game.letters() == board  # ...on the same board
    assert page.url.endswith("?wordlist=es&seed=12345")
