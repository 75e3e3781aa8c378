"""The word-list picker and the page's URL parameters."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.wibble_page import SlowLink, WibblePage
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
    # Once the game has started, the parameters leave the address bar (a reload resumes it).
    assert page.url == f"{server.url}/"


def test_stepping_through_the_picker_with_arrow_keys_starts_one_game(
    page: Page, server: LiveServer, es_trie: Trie, console_errors: list[str]
) -> None:
    link = SlowLink(page)
    game = WibblePage(page).open(server.url, wordlist="es")
    lists = game.picker.locator("option").evaluate_all("options => options.map(o => o.value)")
    at = lists.index("es")
    assert at >= 2, lists
    above, two_above = lists[at - 1], lists[at - 2]
    word, points = game.score_word(es_trie)
    first = game.game_id()
    assert len(link.sent_of("new_game")) == 1
    keyboard = page.keyboard

    # Up and back down to the list being played: no new game, nothing lost.
    game.picker.focus()
    keyboard.press("ArrowUp")
    keyboard.press("ArrowDown")
    page.wait_for_timeout(1_500)
    assert len(link.sent_of("new_game")) == 1
    assert game.game_id() == first
    expect(game.total).to_have_text(str(points))
    assert game.found_words() == [word]

    # Up twice, past the list in between: one new game, once the keys have stopped.
    keyboard.press("ArrowUp")
    keyboard.press("ArrowUp")
    expect(game.picker).to_have_value(two_above)
    expect(game.board).to_have_attribute("data-wordlist", two_above)
    game.wait_idle()
    page.wait_for_timeout(1_000)
    assert [m.get("wordlist") for m in link.sent_of("new_game")] == ["es", two_above]
    expect(game.found.locator("li")).to_have_count(0)

    # Enter takes the choice at once; so does leaving the picker.
    keyboard.press("ArrowDown")
    keyboard.press("Enter")
    expect(game.board).to_have_attribute("data-wordlist", above, timeout=600)
    keyboard.press("ArrowDown")
    keyboard.press("Tab")
    expect(game.board).to_have_attribute("data-wordlist", "es", timeout=600)
    game.wait_idle()
    assert [m.get("wordlist") for m in link.sent_of("new_game")] == ["es", two_above, above, "es"]
