"""The daily board as a player meets it: a name, today's sprint to its end, Share, the leaderboard."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import watch_console
from tests.e2e.wibble_page import WibblePage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e

SPRINT = 12  # seconds: the daily's length on this test's server (3 minutes on a real one)
# The README's picture of the daily end screen: `WIBBLE_README_SCREENSHOTS=1` takes it again.
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "images" / "daily.png"


@pytest.fixture
def daily_server(start_server: Callable[..., LiveServer]) -> LiveServer:
    return start_server("--data-dir", "", env={"WIBBLE_DAILY_SECONDS": str(SPRINT)})


@pytest.fixture
def context(browser: Browser, daily_server: LiveServer) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=daily_server.url)
    yield context
    context.close()


def open_daily(page: Page, server: LiveServer) -> None:
    page.goto(f"{server.url}/daily")
    expect(page.locator("body")).to_have_attribute("data-screen", "daily-intro")


def test_a_daily_sprint_plays_to_its_end_screen_and_shares_no_letter_of_the_board(
    context: BrowserContext, daily_server: LiveServer, en_trie: Trie
) -> None:
    page = context.new_page()
    errors = watch_console(page)
    open_daily(page, daily_server)
    expect(page.get_by_label("Name on the leaderboard")).to_be_focused()  # typing goes there at once
    expect(page.get_by_test_id("daily-rank")).to_have_text("Nobody has finished today's board yet.")
    # The side box, its word panels hidden before the game, starts with its help, no gap above.
    side, help_ = (page.locator(sel).bounding_box() for sel in ("aside.side", "aside.side .help"))
    assert side is not None
    assert help_ is not None
    assert help_["y"] - side["y"] <= 17  # the box's own padding

    page.get_by_label("Name on the leaderboard").fill("Ann")
    page.get_by_role("button", name="Play today's board").click()
    expect(page.locator("body")).to_have_attribute("data-screen", "daily")
    game = WibblePage(page)
    game.wait_idle()
    expect(page.get_by_test_id("sprint-clock")).to_be_visible()
    expect(game.message).to_have_text("Today's board: this try is scored.")
    expect(page.get_by_test_id("words-left")).to_contain_text("to find")
    letters = {letter for row in game.letters() for letter in row}
    words = []
    for _ in range(2):
        word, _points = game.score_word(en_trie, avoid=words)
        words.append(word)

    # Time runs out: the end screen, read out, with the score, the words and what was missed.
    title = page.locator("#sprint-over-title")
    expect(title).to_have_text(re.compile(r"Time's up: \d+ points?"), timeout=(SPRINT + 10) * 1000)
    expect(title).to_be_focused()
    expect(page.get_by_test_id("missed-words").locator("button").first).to_be_visible()
    expect(page.get_by_test_id("words-left")).to_have_text("")  # nothing more to find: it is over
    total = game.total_score()
    expect(page.get_by_test_id("daily-top").locator("li")).to_have_count(1)
    expect(page.get_by_test_id("daily-top")).to_contain_text(f"Ann: {total} points")
    expect(page.get_by_test_id("daily-rank")).to_have_text("You are 1st of 1 player today.")
    expect(page.get_by_test_id("daily-streak")).to_contain_text("Streak: 1 day in a row")

    # A missed word lights its path on the final board.
    first_missed = page.get_by_test_id("missed-words").locator("button").first
    first_missed.click()
    expect(first_missed).to_have_attribute("aria-pressed", "true")
    assert game.board.locator(".tile.hinted, [data-hint]").count() >= 3

    if os.environ.get("WIBBLE_README_SCREENSHOTS"):
        page.screenshot(path=str(SCREENSHOT), full_page=True)

    page.get_by_role("button", name="Share").click()
    expect(page.get_by_test_id("share-status")).to_have_text("Copied: paste it to your friends.")
    shared = page.evaluate("navigator.clipboard.readText()")
    heading, *picture, link = shared.split("\n")
    assert re.fullmatch(rf"Wibble daily #\d+: {total} points?, 2 words", heading)
    assert link == f"{daily_server.url}/daily"
    assert picture
    assert all(re.fullmatch(r"[🟨🟩🟦🟪🟥⬜]+", line) for line in picture)
    # Nothing of the board: the heading is fixed words and numbers (matched whole above), the
    # link is the page's, and the picture holds no letter at all.
    assert not re.search(r"\w", "".join(picture))
    assert not (letters & set(shared.replace(heading, "").replace(link, "")))
    assert errors == []


def test_endless_from_a_try_under_way_opens_an_endless_game_not_the_try(
    page: Page, daily_server: LiveServer, en_trie: Trie, console_errors: list[str]
) -> None:
    open_daily(page, daily_server)
    page.get_by_label("Name on the leaderboard").fill("Ann")
    page.get_by_role("button", name="Play today's board").click()
    game = WibblePage(page)
    game.wait_idle()
    daily_board = game.letters()
    game.score_word(en_trie)  # (a try with a word scored was once kept among "Your games")
    # Every screen the next page shows, from its first moment.
    page.add_init_script(
        "window.__screens = []; setInterval(() => { const s = document.body?.dataset.screen;"
        " if (s && window.__screens.at(-1) !== s) window.__screens.push(s); }, 20);"
    )
    page.get_by_role("button", name="Endless").click()
    expect(page).to_have_url(f"{daily_server.url}/")
    expect(page.locator("body")).to_have_attribute("data-screen", "endless")
    assert "daily" not in page.evaluate("window.__screens")
    expect(page.get_by_test_id("endless-controls")).to_be_visible()
    game.wait_idle()
    assert game.letters() != daily_board
    expect(page.get_by_test_id("sprint-clock")).to_be_hidden()


def test_i_m_done_on_a_phone_asks_once_then_ends_the_try_with_the_end_screen_and_its_score_entered(
    browser: Browser, daily_server: LiveServer, en_trie: Trie
) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    page = context.new_page()
    errors = watch_console(page)
    open_daily(page, daily_server)
    page.get_by_label("Name on the leaderboard").fill("Di")
    page.get_by_role("button", name="Play today's board").tap()
    game = WibblePage(page)
    game.wait_idle()
    game.score_word(en_trie)
    total = game.total_score()

    done = page.get_by_role("button", name="I'm done")
    expect(done).to_be_in_viewport()
    box = done.bounding_box()
    assert box is not None
    assert box["height"] >= 44  # a finger's target
    done.tap()
    # One tap asks again, and ends nothing: a mis-tap must not throw a try away.
    expect(game.message).to_contain_text("End your try now")
    expect(page.get_by_role("button", name="End now")).to_be_visible()
    expect(page.locator("#sprint-over-title")).to_be_hidden()
    # The second press (from the keyboard here: the button takes the focus like any other).
    page.get_by_role("button", name="End now").focus()
    page.keyboard.press("Enter")

    title = page.locator("#sprint-over-title")
    expect(title).to_have_text(f"Done: {total} points")  # well before its clock (SPRINT s) runs out
    expect(title).to_be_focused()
    expect(page.get_by_test_id("missed-words").locator("button").first).to_be_visible()
    expect(page.get_by_role("button", name="I'm done")).to_be_hidden()
    expect(page.get_by_test_id("daily-rank")).to_have_text("You are 1st of 1 player today.")
    expect(page.get_by_test_id("daily-top")).to_contain_text(f"Di: {total} points")
    assert errors == []
    context.close()


def test_a_second_try_the_same_day_is_a_replay_and_a_bad_name_is_refused_in_place(
    context: BrowserContext, daily_server: LiveServer
) -> None:
    page = context.new_page()
    open_daily(page, daily_server)
    page.get_by_label("Name on the leaderboard").fill("   ")
    page.get_by_role("button", name="Play today's board").click()
    expect(page.get_by_test_id("daily-error")).to_have_text("Your name needs 1 to 20 characters.")
    expect(page.get_by_label("Name on the leaderboard")).to_be_focused()

    page.get_by_label("Name on the leaderboard").fill("Bo")
    page.get_by_role("button", name="Play today's board").click()
    expect(page.locator("body")).to_have_attribute("data-screen", "daily")
    # Done at once (the clock's own end is the test above's): "I'm done", then "End now".
    page.get_by_role("button", name="I'm done").click()
    page.get_by_role("button", name="End now").click()
    expect(page.locator("#sprint-over-title")).to_have_text("Done: 0 points")
    expect(page.get_by_test_id("share-status")).to_have_text("This try counts on today's leaderboard.")

    page.get_by_role("button", name="Play it again (not scored)").click()
    expect(page.get_by_test_id("share-status")).to_have_text(
        "A replay: it does not count on the leaderboard."
    )
    expect(page.get_by_test_id("sprint-clock")).to_be_visible()
    # Under the board, where the first try's "Time's up!" was: this one is for fun.
    expect(WibblePage(page).message).to_have_text(
        "Today's board again, for fun: only your first try of the day is scored."
    )
