"""Definitions on tap: every word the page shows can be pressed, clicked or focused by keyboard
for a short definition, fetched from the server only when asked, on a desktop and a phone."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect

from tests.e2e.conftest import watch_console
from tests.e2e.test_accessibility import PHONE
from tests.e2e.test_match import MatchPage
from tests.e2e.wibble_page import SlowLink, WibblePage, past_yesterdays_last_tries
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("definitions_compiled")]

DAILY = 120  # seconds: the daily sprint on the phone's server (the try is ended at once, by hand)
# The README's picture of a definition: `WIBBLE_README_SCREENSHOTS=1` takes it again.
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "images" / "definition.png"


def define_requests(page: Page) -> list[dict[str, object]]:
    """The `define` messages the page sends, as they go."""
    sent: list[dict[str, object]] = []

    def watch(socket: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            message = json.loads(payload)
            if isinstance(message, dict) and message.get("type") == "define":
                sent.append(message)

        socket.on("framesent", on_frame)

    page.on("websocket", watch)
    return sent


def test_a_found_word_shows_its_definition_by_click_and_by_keyboard(
    page: Page, server: LiveServer, console_errors: list[str], en_trie: Trie
) -> None:
    sent = define_requests(page)
    game = WibblePage(page).open(server.url)
    first, _ = game.score_word(en_trie)
    second, _ = game.score_word(en_trie, avoid=[first])
    assert sent == []  # nothing is asked for until a player asks
    # The list's one tab stop is its top word, the newest (it once stayed on the first word found,
    # at the bottom, where the arrow down led nowhere).
    stops = game.found.locator("[data-define]").evaluate_all(
        "els => els.map(e => [e.textContent, e.tabIndex])"
    )
    assert [tab for _, tab in stops] == [0, -1]
    assert stops[0][0].startswith(second.upper())

    popover = page.get_by_test_id("definition")
    expect(popover).to_be_hidden()
    word = game.found.get_by_role("button", name=first.upper(), exact=True)
    word.click()
    expect(popover).to_be_visible()
    expect(popover.locator(".definition-word")).to_have_text(first.upper())
    # A word of the list that WordNet lacks says so; the rest show a part of speech and a sense.
    text = page.get_by_test_id("definition-text")
    expect(text).not_to_contain_text("Looking up")
    if text.locator(".meaning-pos").count():
        expect(page.get_by_test_id("definition-source")).to_have_text(
            "From WordNet 3.0 (Princeton University)"
        )
    else:
        expect(text).to_have_text(f"WordNet 3.0 (Princeton University) has no entry for {first.upper()}.")
    expect(word).to_have_attribute("aria-expanded", "true")
    assert [m["word"] for m in sent] == [first]

    page.keyboard.press("Escape")
    expect(popover).to_be_hidden()
    expect(word).to_be_focused()
    word.click()  # asked again: answered by the page from what it kept
    expect(popover).not_to_contain_text("Looking up")
    assert len(sent) == 1
    page.mouse.click(5, 5)  # anywhere else closes it
    expect(popover).to_be_hidden()

    # By keyboard: the list is one tab stop; the arrows walk it, each word's definition following.
    words = game.found.locator("[data-define]")
    expect(words).to_have_count(2)
    assert words.evaluate_all("els => els.map(e => e.tabIndex)").count(0) == 1
    words.first.focus()  # (then the arrows: a focus by keyboard, not by a script or a click)
    page.keyboard.press("ArrowDown")
    expect(words.nth(1)).to_be_focused()
    expect(popover.locator(".definition-word")).to_have_text(
        first.upper()
    )  # newest first: the first is second
    expect(popover).to_be_visible()
    page.keyboard.press("ArrowUp")
    expect(popover.locator(".definition-word")).to_have_text(second.upper())
    box, viewport = popover.bounding_box(), page.viewport_size
    assert box is not None
    assert viewport is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= viewport["width"]

    if os.environ.get("WIBBLE_README_SCREENSHOTS"):
        for _ in range(10):  # more words: the picture shows a form's headword and two meanings
            game.score_word(en_trie, avoid=game.found_words())
        for word in game.found.locator("[data-define]").all():
            page.keyboard.press("Escape")
            word.click()
            expect(text).not_to_contain_text("Looking up")
            if text.locator(".meaning").count() == 2 and text.locator(".meaning-lemma").count():
                break
        page.screenshot(path=str(SCREENSHOT))


def test_on_a_phone_yesterdays_words_missed_words_and_a_replays_word_show_theirs(
    browser: Browser, start_server: Callable[..., LiveServer], en_trie: Trie
) -> None:
    server = start_server("--data-dir", "", env={"WIBBLE_DAILY_SECONDS": str(DAILY)})
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    errors = watch_console(page)
    popover = page.get_by_test_id("definition")
    past_yesterdays_last_tries(DAILY)  # (yesterday's board is opened below)
    page.goto(f"{server.url}/daily")
    expect(page.locator("body")).to_have_attribute("data-screen", "daily-intro")

    page.get_by_test_id("yesterday").locator("summary").tap()
    yesterday = page.get_by_test_id("yesterday-best").locator("[data-define]").first
    yesterday.tap()
    expect(popover).to_be_visible()
    expect(page.get_by_test_id("definition-text")).not_to_contain_text("Looking up")
    expect(popover).to_be_in_viewport(ratio=1)

    page.get_by_label("Name on the leaderboard").fill("Ann")
    page.get_by_role("button", name="Play today's board").click()
    game = WibblePage(page)
    game.wait_idle()
    expect(popover).to_be_hidden()  # its word went with the intro
    game.score_word(en_trie)
    page.get_by_role("button", name="I'm done").tap()
    page.get_by_role("button", name="End now").tap()
    missed = page.get_by_test_id("missed-words").locator("[data-define]").first
    expect(missed).to_be_visible()
    missed.tap()
    expect(missed).to_have_attribute("aria-pressed", "true")  # its path is lit, as before
    expect(popover).to_be_visible()
    expect(popover.locator(".definition-word")).to_have_text(missed.get_attribute("data-define").upper())
    expect(popover).to_be_in_viewport(ratio=1)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]

    # A daily try's replay waits for the day's end (its seed draws every refill others still
    # play for places); an endless game's replay shows the word of each step, on a page that
    # opens a socket only to ask.
    page.goto(f"{server.url}/replay/{game.game_id()}")
    expect(page.locator("body")).to_have_attribute("data-ready", "error")
    expect(page.locator("main")).to_contain_text("its record opens when the day is over")
    assert [e for e in errors if "409" not in e] == []
    errors.clear()  # (the browser logs the 409 it was answered)
    desk = browser.new_context()  # (another player's game: this phone's page is the daily's)
    endless = WibblePage(desk.new_page()).open(server.url)
    endless.score_word(en_trie)
    game_id = endless.game_id()
    desk.close()
    page.goto(f"{server.url}/replay/{game_id}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    step_word = page.get_by_test_id("replay-word").locator("[data-define]")
    step_word.tap()
    expect(popover).to_be_visible()
    expect(page.get_by_test_id("definition-text")).not_to_contain_text("Looking up")
    expect(page.get_by_test_id("definition-text")).not_to_contain_text("did not answer")
    assert errors == []
    context.close()


def test_in_a_match_a_played_word_keeps_the_focus_and_its_definition_while_the_bot_plays(
    page: Page, start_server: Callable[..., LiveServer], console_errors: list[str], en_trie: Trie
) -> None:
    # The bot's word is held on its way to the page until the player's word is focused, its
    # definition shown: then it comes, and the list grows around the focus.
    server = start_server(env={"WIBBLE_BOT_THINK_SECONDS": "0.5", "WIBBLE_BOT_STEP_SECONDS": "0.05"})
    link = SlowLink(page)
    match = MatchPage(page)
    match.open(server.url)
    match.start(rounds=2)
    link.hold = lambda message: message.get("type") == "played" and message.get("seat") != 0
    word, path = match.a_word(en_trie)
    match.drag(path)
    mine = match.plays.get_by_role("button", name=word.upper(), exact=True)
    expect(mine).to_be_visible()
    page.keyboard.press("Shift+Tab")  # (the keyboard in use: a focus by it shows the definition)
    mine.focus()
    expect(page.get_by_test_id("definition")).to_be_visible()
    expect(match.plays.locator("li")).to_have_count(1)
    link.wait_held(lambda message: message.get("type") == "played", timeout=20)
    link.deliver()
    expect(match.plays.locator("li")).to_have_count(2)  # the bot's word came
    expect(mine).to_be_focused()  # the list grew around it: the player is where they were
    expect(mine).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_test_id("definition").locator(".definition-word")).to_have_text(word.upper())
    assert match.plays.locator('[data-define][tabindex="0"]').count() == 1
