"""The word-list picker and the page's URL parameters."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.wibble_page import SlowLink, WibblePage
from tests.support import ROOT, WORDS, LiveServer
from wibble.core import Trie
from wibble.wordlists import WordLists

pytestmark = pytest.mark.e2e

PICKER_SETTLE_MS = int(re.search(r"PICKER_SETTLE_MS = (\d+);", (ROOT / "static/js/input.js").read_text())[1])
"""How long the picker waits, after a stepping key, before it chooses (static/js/input.js)."""

# The page's own clock on each key pressed and each new game it asks for (window.__stamps).
STAMP_KEYS_AND_NEW_GAMES = """() => {
  window.__stamps = [];
  const stamp = (e) => window.__stamps.push({ key: e.key, t: performance.now() });
  document.addEventListener("keydown", stamp, true);
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try {
      for (const m of [].concat(JSON.parse(data))) {
        if (m.type === "new_game") window.__stamps.push({ new_game: m.wordlist, t: performance.now() });
      }
    } catch (e) {}
    return send.call(this, data);
  };
}"""


def asked_after(page: Page, key: str, wordlist: str) -> float:
    """Milliseconds, on the page's clock, from the last ``key`` pressed to the new game of
    ``wordlist`` it asked for after it."""
    stamps = page.evaluate("() => window.__stamps")
    pressed = max(s["t"] for s in stamps if s.get("key") == key)
    asked = [s["t"] for s in stamps if s.get("new_game") == wordlist and s["t"] >= pressed]
    assert asked, stamps
    return float(asked[0] - pressed)


def test_the_picker_lists_every_word_list_by_title(page: Page, server: LiveServer) -> None:
    game = WibblePage(page).open(server.url)
    options = game.picker.locator("option")
    values = options.evaluate_all("options => options.map(o => o.value)")
    shipped = {info.name: info.title for info in WordLists(WORDS).info()}
    assert dict(zip(values, options.all_inner_texts(), strict=True)) == shipped
    assert {"en", "es"} <= set(shipped)
    expect(game.picker).to_have_value("en")
    # Each title reads whole in the closed menu (beside the clock's menu it was cut to "English (ENABL").
    cut = game.picker.evaluate(FITS)
    assert cut == [], f"titles cut in a {game.picker.bounding_box()} menu: {cut}"


# The titles wider than the menu's room for text (its width less its padding and its arrow).
FITS = """select => {
    const style = getComputedStyle(select);
    const ink = document.createElement("canvas").getContext("2d");
    ink.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const arrow = 24;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
    return [...select.options].map(o => o.text).filter(text => ink.measureText(text).width > room);
}"""


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

    # Enter takes the choice at once; so does leaving the picker. "At once" is timed in the page,
    # from the key to the new game asked for (a busy machine delays both alike), well inside the
    # pause after which stepping keys choose by themselves.
    page.evaluate(STAMP_KEYS_AND_NEW_GAMES)
    keyboard.press("ArrowDown")
    keyboard.press("Enter")
    expect(game.board).to_have_attribute("data-wordlist", above)
    assert asked_after(page, "Enter", above) < PICKER_SETTLE_MS / 2
    keyboard.press("ArrowDown")
    keyboard.press("Tab")
    expect(game.board).to_have_attribute("data-wordlist", "es")
    assert asked_after(page, "Tab", "es") < PICKER_SETTLE_MS / 2
    game.wait_idle()
    assert [m.get("wordlist") for m in link.sent_of("new_game")] == ["es", two_above, above, "es"]
