"""A race in Chromium, one browser context a person, over two server processes sharing Redis: Ann
hosts on one process; Bo runs and Cy watches on the other, beside a bot. Everyone plays the same
board at once; standings reach every screen as words score, the watcher follows Ann's board, Bo
reloads mid-race and is back on his board with the clock unchanged, and the race ends with
everyone's words side by side and the best words nobody found, whose replay the watcher steps
through from the end screen's link; axe audits each new screen.

A race's minute lasts 15 s here (``WIBBLE_RACE_MINUTE_SECONDS``), so a 1-minute race is short."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.e2e.conftest import watch_console
from tests.e2e.test_accessibility import AXE, Audit
from tests.e2e.test_rooms import ROOM_SERVER, RoomPage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e

RACE_SERVER = {**ROOM_SERVER, "WIBBLE_RACE_MINUTE_SECONDS": "15"}


@pytest.fixture
def processes(start_server: Callable[..., LiveServer], redis_url: str) -> tuple[LiveServer, LiveServer]:
    """Two ``--redis`` processes; each page opens one by its own address, so who is where is known."""
    return (
        start_server("--redis", redis_url, env=RACE_SERVER),
        start_server("--redis", redis_url, env=RACE_SERVER),
    )


@pytest.fixture
def three(browser: Browser, processes: tuple[LiveServer, LiveServer]) -> Iterator[list[RoomPage]]:
    """Ann, Bo and a watcher, each in a context of their own (the audit's script let in)."""
    contexts: list[BrowserContext] = [
        browser.new_context(viewport={"width": 1100, "height": 900}, bypass_csp=True) for _ in range(3)
    ]
    pages = [RoomPage(context.new_page(), context) for context in contexts]
    yield pages
    for page in pages:
        assert page.errors == [], "a page logged errors"
    for context in contexts:
        context.close()


def clock_seconds(page: RoomPage) -> int:
    minutes, seconds = page.page.get_by_test_id("race-clock").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_race_of_three_with_a_watcher_plays_to_its_end_across_two_processes(
    three: list[RoomPage], processes: tuple[LiveServer, LiveServer], en_trie: Trie
) -> None:
    ann, bo, watcher = three
    audit = Audit(AXE.read_text(encoding="utf-8"))
    first, second = processes

    # Ann makes a room on the first process, and makes it race for a minute; a bot runs too.
    ann.open(first.url)
    ann.page.get_by_role("button", name="Friends").click()
    ann.give_name("Ann", "Create a room")
    ann.screen("lobby")
    code = ann.code()
    # The mode's menu is wide enough to read (its help text once squashed it to "Ra" and "Ma").
    mode_box = ann.page.get_by_label("What to play").bounding_box()
    assert mode_box is not None
    assert mode_box["width"] >= 150, mode_box
    ann.page.get_by_label("What to play").select_option("race")
    ann.page.get_by_label("Race length").select_option("60")
    expect(ann.page.get_by_label("Match length")).to_be_hidden()  # a match's rules are not a race's
    ann.seat(2).get_by_role("button", name=re.compile("^Add a bot")).click()
    expect(ann.seat(2)).to_contain_text("Ada")

    # Bo (on the second process) sits; Cy watches from there too.
    bo.page.goto(f"{second.url}/r/{code}")
    bo.give_name("Bo", "Join room")
    bo.screen("lobby")
    expect(bo.page.get_by_test_id("room-rules")).to_contain_text("Play: Race, 1 minute")
    bo.seat(1).get_by_role("button", name=re.compile("^Sit here")).click()
    expect(ann.seat(1)).to_contain_text("Bo")
    watcher.page.goto(f"{second.url}/r/{code}")
    watcher.give_name("Cy", "Join room")
    watcher.screen("lobby")
    audit(ann.page, "race lobby (host)")

    # The race: every runner on their own copy of one board, the watcher on the standings.
    ann.page.get_by_role("button", name="Start race").click()
    for person in three:
        person.screen("race")
        expect(person.page.get_by_test_id("race-standings").locator("li")).to_have_count(3)
    assert ann.letters() == bo.letters()
    expect(watcher.board).to_be_hidden()  # nobody followed yet
    word, _ = ann.score_word(en_trie)
    for person in (bo, watcher):
        expect(person.page.get_by_test_id("race-standings")).to_contain_text(f"last: {word}")
    audit(ann.page, "race (runner)")

    # The watcher follows Ann's board; Bo scores; the watcher sees Bo's standing move.
    watcher.page.get_by_role("button", name="Watch Ann's board").click()
    expect(watcher.board).to_be_visible()
    assert watcher.letters() == ann.letters()
    expect(watcher.board).to_have_attribute("aria-disabled", "true")
    audit(watcher.page, "race (watching a board)")
    bo_word, _ = bo.score_word(en_trie)
    expect(watcher.page.get_by_test_id("race-standings")).to_contain_text(f"last: {bo_word}")

    # Bo reloads: back on his board, his word kept, the clock where it was.
    before, reloading = clock_seconds(bo), time.monotonic()
    bo.page.reload()
    bo.screen("race")
    expect(bo.page.get_by_test_id("found-words")).to_contain_text(bo_word)
    left, took = clock_seconds(bo), time.monotonic() - reloading
    assert before - took - 2 <= left <= before + 1, "the clock runs on from where it was, not from the start"

    # The end: everyone's words side by side, and the best words nobody found on the first board.
    for person in three:
        person.screen("race-over", timeout=30_000)
        columns = person.page.get_by_test_id("race-results").locator(".race-column")
        expect(columns).to_have_count(3)
    results = ann.page.get_by_test_id("race-results")
    expect(results).to_contain_text(word)
    expect(results).to_contain_text(bo_word)
    missed = watcher.page.get_by_test_id("race-missed").locator("button").first
    missed.click()
    expect(missed).to_have_attribute("aria-pressed", "true")
    lit = watcher.page.get_by_test_id("race-start-board").locator('[data-lit="true"]')
    assert lit.count() >= 3
    audit(ann.page, "race over")

    # The race's replay, from the watcher's end screen (in a tab of its own): every word, in the
    # order it was found, on its runner's board; at the end the standings the end screen ranked.
    words = results.locator(".race-column-words button").count()
    winner = results.locator(".race-column-name").first.inner_text()
    href = watcher.page.get_by_test_id("race-replay-link").get_attribute("href")
    assert href is not None
    replay = watcher.context.new_page()
    replay_errors = watch_console(replay)
    replay.goto(second.url + href)
    expect(replay.locator("body")).to_have_attribute("data-ready", "true")
    steps = replay.get_by_test_id("replay-steps").locator("[data-step]")
    expect(steps).to_have_count(words)
    expect(replay.get_by_test_id("replay-step")).to_have_text(f"Word 1 of {words}")
    expect(replay.get_by_test_id("replay-board").locator(".tile.selected").first).to_be_visible()
    audit(replay, "race replay")
    replay.keyboard.press("ArrowRight")
    expect(replay.get_by_test_id("replay-step")).to_have_text(f"Word 2 of {words}")
    replay.get_by_test_id("replay-last").click()
    expect(replay.get_by_test_id("replay-end")).to_be_visible()
    expect(replay.get_by_test_id("replay-standings").locator(".rank-name").first).to_have_text(
        winner.split(" (")[0]
    )
    audit(replay, "race replay (end)")
    replay.close()
    assert replay_errors == [], "the replay page logged errors"
    assert audit.report() == "", f"axe-core found:\n{audit.report()}"

    # Race again: the same seats, a new board.
    ann.page.get_by_role("button", name="Race again").click()
    for person in three:
        person.screen("race")
