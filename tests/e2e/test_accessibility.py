"""Every screen, audited by axe-core (from npm: package.json, installed by `make test`), in the
light and the dark theme, on a desktop and a phone: no violation at all. And with forced
colours (Windows high contrast), every state of the board still shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.e2e.conftest import watch_console
from tests.e2e.test_rooms import ROOM_SERVER
from tests.e2e.wibble_page import past_yesterdays_last_tries
from tests.support import LiveServer

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
SCREENS = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="session")
def axe_source() -> str:
    # Not a skip: without axe-core the audit cannot run, and that is a failure.
    assert AXE.exists(), f"{AXE} is missing: run `make test` (or `npm ci`) to install axe-core from npm"
    return AXE.read_text(encoding="utf-8")


@pytest.fixture
def a11y_server(start_server: Callable[..., LiveServer]) -> LiveServer:
    return start_server(env=ROOM_SERVER)


# Everything a finger can press on screen that is less than 44 CSS px high or wide.
SMALL_TARGETS = """() => {
    // A checkbox or a radio button is pressed through its label too: the two together are the target.
    const target = (el) => {
        const r = el.getBoundingClientRect();
        const label = ['checkbox', 'radio'].includes(el.type) && el.labels[0]?.getBoundingClientRect();
        if (!label) return r;
        const top = Math.min(r.top, label.top), left = Math.min(r.left, label.left);
        return {width: Math.max(r.right, label.right) - left, height: Math.max(r.bottom, label.bottom) - top};
    };
    // A list focusable so that keys can scroll it is no target: a finger scrolls it by its content.
    return [...document.querySelectorAll(
        'button, a[href], select, input:not([type=hidden]), summary, [role=gridcell],'
        + ' [tabindex="0"]:not(ol, ul)')]
    .filter(el => el.checkVisibility() && !el.closest('[hidden], .visually-hidden'))
    .map(el => [el, target(el)])
    .filter(([el, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
    .map(([el, r]) => `${el.tagName.toLowerCase()}${el.dataset.testid ? '#' + el.dataset.testid : ''}`
        + `${el.dataset.action ? '.' + el.dataset.action : ''}`
        + ` "${(el.textContent || el.value || '').trim().slice(0, 20)}"`
        + ` ${Math.round(r.width)}x${Math.round(r.height)}`);
}"""


class Audit:
    """axe-core run on pages as they reach each screen; violations kept by screen and theme."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.found: dict[str, list[str]] = {}

    def __call__(self, page: Page, screen: str) -> None:
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            if not page.evaluate("typeof window.axe === 'object'"):
                page.add_script_tag(content=self.source)
            settled(page)  # axe measures colours as they end up, not halfway through a fade
            result: list[dict[str, Any]] = page.evaluate(
                "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                ".map(v => ({id: v.id, impact: v.impact,"
                " nodes: v.nodes.map(n => n.target.join(' ') + ' ' + (n.any[0]?.message ?? ''))}))"
            )
            self.found[f"{screen} ({scheme})"] = [
                f"{v['id']} ({v['impact']}) x{len(v['nodes'])}: {', '.join(v['nodes'][:3])}" for v in result
            ]
        page.emulate_media(color_scheme="light")
        if page.viewport_size == PHONE:
            small = page.evaluate(SMALL_TARGETS)
            if small:
                self.found[f"{screen} (tap targets under 44 px)"] = small

    def report(self) -> str:
        return "\n".join(f"{screen}: {'; '.join(found)}" for screen, found in self.found.items() if found)


def settled(page: Page) -> None:
    """Wait for the page's transitions and animations to end (colours are read as they stay)."""
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")


def context_of(browser: Browser, kind: str) -> BrowserContext:
    # The page's Content-Security-Policy allows no inline script, rightly: the audit's
    # script is let in by the browser instead (it is not the page's).
    if kind == "phone":
        return browser.new_context(
            viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2, bypass_csp=True
        )
    return browser.new_context(viewport=DESKTOP, bypass_csp=True)


@pytest.fixture(params=["desktop", "phone"])
def form_factor(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def contexts(
    browser: Browser, form_factor: str, start_server: Callable[..., LiveServer]
) -> Iterator[Callable[[], Page]]:
    # (Asks for start_server so that the servers stop after the pages close: a page whose server
    # stopped first tries to reconnect, and logs the refusal as an error.)
    made: list[tuple[BrowserContext, list[str]]] = []

    def new_page() -> Page:
        context = context_of(browser, form_factor)
        page = context.new_page()
        made.append((context, watch_console(page)))
        return page

    yield new_page
    for context, errors in made:
        assert errors == [], "a page logged errors"
        context.close()


def screen(page: Page, name: str) -> None:
    expect(page.locator("body")).to_have_attribute("data-screen", name, timeout=20_000)


def idle(page: Page) -> None:
    expect(page.locator("body")).to_have_attribute("data-phase", "idle")


UNREACHABLE_SCROLLERS = """() => [...document.querySelectorAll('body *')].filter((el) => {
    const style = getComputedStyle(el);
    if (!['auto', 'scroll'].includes(style.overflowY) || el.offsetParent === null) return false;
    const focusable = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';
    // A list of words (data-rove) is reached through them: one is always a tab stop (rove()).
    return el.tabIndex < 0 && !el.hasAttribute('data-rove') && !el.querySelector(focusable);
}).map((el) => el.dataset.testid || el.className)"""


def unreachable_scrollers(page: Page) -> list[str]:
    """Every element shown that scrolls when its content is long (whether it is long now or not)
    and that the keyboard cannot reach: not focusable, holding nothing focusable (axe's
    scrollable-region-focusable, before the content is long enough for axe to see it)."""
    found: list[str] = page.evaluate(UNREACHABLE_SCROLLERS)
    return found


def test_no_axe_violations_on_any_screen(
    contexts: Callable[[], Page], a11y_server: LiveServer, axe_source: str, form_factor: str
) -> None:
    audit = Audit(axe_source)
    page = contexts()
    page.goto(a11y_server.url)
    screen(page, "endless")
    idle(page)
    game_id = page.get_by_test_id("board").get_attribute("data-game-id")
    # A word played, so that the found list and the replay have something in them.
    first = (
        page.get_by_test_id("board").locator('[data-row="0"][data-col="0"]').get_attribute("data-letter")
        or ""
    )
    page.keyboard.press(first)
    page.keyboard.press("Enter")
    idle(page)
    audit(page, "endless")
    assert unreachable_scrollers(page) == [], "a list that scrolls cannot be reached with the keyboard"
    # The settings panel, open.
    page.locator(".settings summary").click()
    expect(page.get_by_label("Sound")).to_be_visible()
    audit(page, "endless, settings open")
    page.locator(".settings summary").click()

    # A match: the settings, a turn of ours, and its end.
    page.get_by_role("button", name="Match", exact=True).click()
    screen(page, "setup")
    audit(page, "match setup")
    page.get_by_label("Rounds").fill("1")
    page.get_by_role("button", name="Start match").click()
    screen(page, "match")
    expect(page.get_by_test_id("whose-turn")).to_have_text("Your turn", timeout=20_000)
    idle(page)
    audit(page, "match, our turn")
    page.get_by_role("button", name="Pass").click()
    screen(page, "over")
    audit(page, "match over")
    # On a short screen (a phone on its side) its lists scroll: each can be scrolled by keys.
    size = page.viewport_size
    assert size is not None
    page.set_viewport_size({"width": size["width"], "height": 150})
    audit(page, "match over, a short screen")
    # And whatever it holds: a list that scrolls once it is long is reachable by keys already.
    assert unreachable_scrollers(page) == [], "a list that scrolls cannot be reached with the keyboard"
    page.set_viewport_size(size)
    match_id = page.get_by_test_id("board").get_attribute("data-match-id")

    # The match's replay: a turn with its best word's path lit, and the end with its ranking.
    page.goto(f"{a11y_server.url}/replay/{match_id}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.get_by_role("button", name="Light its path").click()
    expect(page.get_by_test_id("replay-board").locator(".tile.hinted").first).to_be_visible()
    audit(page, "match replay")
    page.get_by_test_id("replay-last").click()
    expect(page.get_by_test_id("replay-end")).to_be_visible()
    audit(page, "match replay, the end")

    # The replay of the endless game.
    page.goto(f"{a11y_server.url}/replay/{game_id}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    audit(page, "replay")

    # The page the service worker shows with no connection.
    page.goto(f"{a11y_server.url}/offline")
    audit(page, "offline")

    # A room: its entry form, its lobby (the host's), and its match for a player and a watcher.
    page.goto(a11y_server.url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.get_by_role("button", name="Friends").click()
    screen(page, "room-entry")
    audit(page, "room entry")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Create a room").click()
    screen(page, "lobby")
    audit(page, "lobby (host)")
    watcher = contexts()
    watcher.goto(page.url)
    screen(watcher, "room-entry")
    audit(watcher, "room entry (a link)")
    watcher.get_by_label("Your name").fill("Cy")
    watcher.get_by_role("button", name="Join room").click()
    screen(watcher, "lobby")
    expect(page.get_by_test_id("spectators")).to_have_text("1 watching")
    audit(watcher, "lobby (watching)")
    page.get_by_test_id("room-seats").locator("li").nth(1).get_by_role(
        "button", name=re.compile("^Add a bot")
    ).click()
    page.get_by_role("button", name="Start match").click()
    screen(page, "match")
    screen(watcher, "match")
    expect(page.get_by_test_id("whose-turn")).to_have_text("Your turn", timeout=20_000)
    idle(page)
    audit(page, "room match (player)")
    audit(watcher, "room match (watching)")

    assert audit.report() == "", f"axe-core found, on {form_factor}:\n{audit.report()}"


def test_every_state_of_the_board_shows_in_forced_colours(browser: Browser, a11y_server: LiveServer) -> None:
    context = browser.new_context(viewport=DESKTOP, forced_colors="active")
    page = context.new_page()
    errors = watch_console(page)
    try:
        page.goto(a11y_server.url)
        idle(page)
        assert page.evaluate("matchMedia('(forced-colors: active)').matches")
        style = """(el, props) => { const s = getComputedStyle(el);
            return Object.fromEntries(props.map(p => [p, s.getPropertyValue(p)])); }"""
        looks = ["background-color", "color", "outline-style", "border-top-width"]
        tile = lambda r, c: page.get_by_test_id("board").locator(f'[data-row="{r}"][data-col="{c}"]')  # noqa: E731
        plain = tile(2, 2).evaluate(style, looks)

        # The active mode tab is not drawn like the others.
        modes = page.locator(".modes .mode")
        on = modes.nth(0).evaluate(style, ["background-color"])
        off = modes.nth(1).evaluate(style, ["background-color"])
        behind = page.locator(".modes").evaluate(style, ["background-color"])
        assert on != off, f"the active mode tab looks like the others: {on}"
        assert on != behind, f"the active mode tab is the colour of what is behind it: {on}"

        # A single pressed tile (the mouse held down on it): it and only it shows it.
        box = tile(0, 0).bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        expect(tile(0, 0)).to_have_class(re.compile(r"\bselected\b"))
        settled(page)
        pressed = tile(0, 0).evaluate(style, looks)
        assert pressed["background-color"] != plain["background-color"], (pressed, plain)
        assert pressed["outline-style"] != "none", "the last (here the only) tile of the chain has a ring"

        # A chain of two: both selected, the last one ringed, the first not.
        box = tile(0, 1).bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=4)
        expect(tile(0, 1)).to_have_class(re.compile(r"\blast\b"))
        settled(page)
        first, last = tile(0, 0).evaluate(style, looks), tile(0, 1).evaluate(style, looks)
        assert first["background-color"] == last["background-color"] != plain["background-color"]
        assert first["outline-style"] == "none"
        assert last["outline-style"] != "none"
        # The trail between them is drawn, in a colour that is not the board's (where it shows).
        line = page.locator(".trail-line")
        expect(line).to_have_attribute("points", re.compile(r"\S+ \S+"))  # from the first tile to the second
        assert page.locator(".trail").evaluate(style, ["display"])["display"] != "none"
        drawn = line.evaluate(style, ["stroke", "opacity"])
        board = page.get_by_test_id("board").evaluate(style, ["background-color"])["background-color"]
        assert drawn["opacity"] == "1"
        assert drawn["stroke"] not in ("none", board), (drawn, board)
        page.keyboard.press("Escape")
        page.mouse.up()
        idle(page)

        # A match's gems: each marker a shape in a colour that is not its tile's.
        page.get_by_role("button", name="Match", exact=True).click()
        page.get_by_role("button", name="Start match").click()
        expect(page.get_by_test_id("whose-turn")).to_have_text("Your turn", timeout=20_000)
        gems = page.locator(".tile-gem:not([hidden])")
        expect(gems.first).to_be_visible()
        settled(page)
        for i in range(gems.count()):
            gem = gems.nth(i)
            marker = gem.evaluate(style, ["background-color"])["background-color"]
            under = gem.evaluate("el => getComputedStyle(el.closest('.tile')).backgroundColor")
            assert marker != under, f"a gem marker is {marker} on a tile of {under}"
        on = page.locator('.mode[data-mode="match"]').evaluate(style, ["background-color"])
        off = page.locator('.mode[data-mode="endless"]').evaluate(style, ["background-color"])
        assert on != off
    finally:
        context.close()
    assert errors == [], "the page logged errors"


def test_no_axe_violations_on_the_daily_board(
    contexts: Callable[[], Page], start_server: Callable[..., LiveServer], axe_source: str, form_factor: str
) -> None:
    server = start_server("--data-dir", "", env={"WIBBLE_DAILY_SECONDS": "5"})
    audit = Audit(axe_source)
    page = contexts()
    past_yesterdays_last_tries(5)  # (yesterday's board is opened below)
    page.goto(f"{server.url}/daily")
    screen(page, "daily-intro")
    expect(page.get_by_test_id("daily-rank")).not_to_be_empty()
    page.get_by_test_id("yesterday").locator("summary").click()
    audit(page, "daily, before playing")
    page.get_by_label("Name on the leaderboard").fill("Ann")
    page.get_by_role("button", name="Play today's board").click()
    screen(page, "daily")
    idle(page)
    audit(page, "daily, playing")
    expect(page.locator("#sprint-over-title")).to_be_visible(timeout=20_000)
    expect(page.get_by_test_id("daily-top").locator("li")).to_have_count(1)
    page.get_by_test_id("missed-words").locator("button").first.click()
    audit(page, "daily, its end")
    # Stats, on the day's try: a modal dialog over the page.
    page.get_by_role("button", name="Stats").click()
    expect(page.get_by_role("dialog", name="Your numbers")).to_contain_text("1 game")
    audit(page, "stats")
    assert audit.report() == "", f"axe-core found, on {form_factor}:\n{audit.report()}"


def test_no_axe_violations_on_the_page_of_a_replay_link_to_no_game(
    browser: Browser, a11y_server: LiveServer, axe_source: str
) -> None:
    # Its own context, with no watch on the console: the browser logs the page's 404 as an error.
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)  # (axe is put in the page)
    try:
        page = context.new_page()
        page.goto(f"{a11y_server.url}/replay/no-such-game")
        expect(page.get_by_role("heading", name="No such game")).to_be_visible()
        audit = Audit(axe_source)
        audit(page, "a replay link to no game")
        assert audit.report() == "", f"axe-core found:\n{audit.report()}"
    finally:
        context.close()
