"""The settings panel, as a player uses it: reached by keyboard, sound off until turned on, then a
scored word heard (and felt on a phone), and a theme that applies at once and after a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.wibble_page import WibblePage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e

# Before the page's scripts: count the notes the page starts and the vibrations it asks for.
LISTEN = """
window.__notes = [];
window.__buzzes = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__notes.push(performance.now());
  return start.apply(this, args);
};
navigator.vibrate = (pattern) => { window.__buzzes.push(pattern); return true; };
"""

DARK_BG = "rgb(23, 26, 32)"  # --bg of the dark palette
LIGHT_BG = "rgb(244, 241, 234)"  # --bg of the light one


def background(page: Page) -> str:
    return str(page.evaluate("() => getComputedStyle(document.body).backgroundColor"))


def open_settings_by_keyboard(page: Page) -> None:
    summary = page.locator(".settings summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_label("Sound")).to_be_visible()


@pytest.fixture
def game(page: Page, server: LiveServer, console_errors: list[str]) -> WibblePage:
    page.add_init_script(LISTEN)
    return WibblePage(page).open(server.url)


def test_sound_is_off_until_the_player_turns_it_on_then_a_scored_word_is_heard(
    game: WibblePage, en_trie: Trie
) -> None:
    page = game.page
    game.score_word(en_trie)
    assert page.evaluate("() => window.__notes.length") == 0  # off: no sound at all
    assert page.evaluate("() => window.__buzzes.length") == 1  # vibration starts on

    open_settings_by_keyboard(page)
    sound = page.get_by_label("Sound")
    expect(sound).not_to_be_checked()
    page.keyboard.press("Tab")  # from the summary to the first setting
    expect(sound).to_be_focused()
    page.keyboard.press("Space")
    expect(sound).to_be_checked()
    heard = page.evaluate("() => window.__notes.length")
    assert heard > 0  # turning it on says so with a note

    game.score_word(en_trie, avoid=game.found_words())
    page.wait_for_function(f"() => window.__notes.length > {heard}")

    page.get_by_label("Vibration").uncheck()
    game.score_word(en_trie, avoid=game.found_words())
    assert page.evaluate("() => window.__buzzes.length") == 2  # the first word's and the second's
    assert page.evaluate("() => JSON.parse(localStorage.getItem('wibble.settings'))") == {
        "sound": True,
        "vibration": False,
        "theme": "system",
    }


def test_the_theme_applies_at_once_and_is_kept_after_a_reload(game: WibblePage) -> None:
    page = game.page
    page.emulate_media(color_scheme="light")
    assert background(page) == LIGHT_BG

    open_settings_by_keyboard(page)
    page.get_by_label("Dark").check()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert background(page) == DARK_BG

    page.reload()
    game.wait_idle()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert background(page) == DARK_BG
    page.locator(".settings summary").click()
    expect(page.get_by_label("Dark")).to_be_checked()

    # Light wins over a system in dark mode; System follows it again.
    page.emulate_media(color_scheme="dark")
    page.get_by_label("Light").check()
    assert background(page) == LIGHT_BG
    page.get_by_label("System").check()
    assert background(page) == DARK_BG
    expect(page.locator("html")).not_to_have_attribute("data-theme", "dark")


def test_the_replay_page_shows_the_chosen_theme(game: WibblePage, en_trie: Trie) -> None:
    page = game.page
    page.emulate_media(color_scheme="light")
    game.score_word(en_trie)
    open_settings_by_keyboard(page)
    page.get_by_label("Dark").check()

    page.goto(f"{page.url.split('/?')[0].rstrip('/')}/replay/{game.game_id()}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert background(page) == DARK_BG


def test_your_turn_is_heard_when_a_match_starts_on_it(
    page: Page, server: LiveServer, console_errors: list[str]
) -> None:
    page.add_init_script(LISTEN)
    page.add_init_script("localStorage.setItem('wibble.settings', JSON.stringify({sound: true}))")
    WibblePage(page).open(server.url)
    page.get_by_role("button", name="Match", exact=True).click()
    page.get_by_label("Rounds").fill("1")
    page.get_by_role("button", name="Start match").click()
    expect(page.get_by_test_id("whose-turn")).to_have_text("Your turn", timeout=20_000)

    # Two notes, G4 then C5: the "your turn" cue (static/js/sound.js), once.
    page.wait_for_function("() => window.__notes.length === 2", polling=100)
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__notes.length") == 2
