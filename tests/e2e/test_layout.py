"""What a player needs fits the screen without scrolling: on their turn (the board, the word,
the powers, the hint and the message), when watching, and the host's Start match; on a
1280x800 desktop and a 390x844 phone. And the text there is whole, never cut off.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.e2e.conftest import watch_console
from tests.e2e.test_match import MatchPage
from tests.e2e.test_rooms import ROOM_SERVER
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e

SCREENS: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
}


@pytest.fixture
def layout_server(start_server: Callable[..., LiveServer]) -> LiveServer:
    return start_server(env=ROOM_SERVER)


@pytest.fixture(params=list(SCREENS))
def screen_size(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def new_page(browser: Browser, screen_size: str, layout_server: LiveServer) -> Iterator[Callable[[], Page]]:
    # (Asks for the server so that it stops after the pages close: a page whose server stopped
    # first tries to reconnect, and logs the refusal as an error.)
    made = []

    def make() -> Page:
        if screen_size == "phone":
            context = browser.new_context(
                viewport=SCREENS["phone"], has_touch=True, is_mobile=True, device_scale_factor=2
            )
        else:
            context = browser.new_context(viewport=SCREENS["desktop"])
        page = context.new_page()
        made.append((context, watch_console(page)))
        return page

    yield make
    for context, errors in made:
        assert errors == [], "a page logged errors"
        context.close()


def in_view(page: Page, parts: dict[str, Locator]) -> list[str]:
    """The parts that are not wholly on screen with the page scrolled to the top."""
    page.evaluate("window.scrollTo(0, 0)")
    size = page.viewport_size
    assert size is not None
    out = []
    for name, part in parts.items():
        box = part.bounding_box()
        assert box is not None, f"{name} is not shown"
        if (
            box["y"] < 0
            or box["y"] + box["height"] > size["height"]
            or box["x"] + box["width"] > size["width"]
        ):
            out.append(f"{name} at y {box['y']:.0f}-{box['y'] + box['height']:.0f}")
    return out


# Whether an element's text is all there: neither it nor any ancestor that clips (overflow
# other than visible: the word line, its text) holds more than it shows, and its text's boxes
# lie inside every such ancestor's box. An ellipsis counts as cut off.
CUT_OFF = """(element) => {
    const inside = (box, outer) => box.left >= outer.left - 0.5 && box.right <= outer.right + 0.5
        && box.top >= outer.top - 0.5 && box.bottom <= outer.bottom + 0.5;
    const boxes = [...element.getClientRects()];
    for (let at = element; at && at !== document.body; at = at.parentElement) {
        const style = getComputedStyle(at);
        if (at !== element && style.overflowX === "visible" && style.overflowY === "visible") continue;
        if (at.scrollWidth > at.clientWidth || at.scrollHeight > at.clientHeight) return true;
        if (at !== element && !boxes.every((box) => inside(box, at.getBoundingClientRect()))) return true;
    }
    return false;
}"""


def cut_off(parts: dict[str, Locator]) -> list[str]:
    """The parts whose text does not wholly show (clipped, or ended with an ellipsis)."""
    return [name for name, part in parts.items() if part.evaluate(CUT_OFF)]


def test_a_players_turn_with_a_hint_fits_the_screen(
    new_page: Callable[[], Page], layout_server: LiveServer, en_trie: Trie, screen_size: str
) -> None:
    game = MatchPage(new_page()).open(layout_server.url)
    page = game.page
    game.start(rounds=2)
    # A word over gem tiles (a seat starts with 3 gems, a hint costs 4), then the hint next turn.
    word, path, _ = game.gem_word(en_trie)
    page.keyboard.type(word.upper())
    expect(game.current_word).to_have_text(word.upper())
    page.keyboard.press("Enter")
    game.wait_my_turn()
    expect(game.power("Hint")).to_be_enabled()
    game.power("Hint").click()
    expect(game.hint).to_be_visible()
    parts = {
        "the turn line": page.get_by_test_id("whose-turn"),
        "the word line": page.locator(".word-line"),
        "the board": game.board,
        "the powers": page.get_by_test_id("powers"),
        "the hint": game.hint,
        "the message": game.message,
    }
    assert in_view(page, parts) == [], f"off the {screen_size} screen"
    # Every line of text there is whole: the word line's hint wraps on a phone, never cut short.
    texts = {
        "the word line's hint": page.locator(".word-hint"),
        "the turn line": page.get_by_test_id("whose-turn"),
        "the hint": game.hint,
        "the message": game.message,
    }
    expect(texts["the word line's hint"]).to_have_text("Drag across touching letters, or type a word")
    assert cut_off(texts) == [], f"cut off on the {screen_size} screen"


def test_the_hosts_start_and_a_watchers_board_fit_the_screen(
    new_page: Callable[[], Page], layout_server: LiveServer, screen_size: str
) -> None:
    host = new_page()
    host.goto(layout_server.url)
    expect(host.locator("body")).to_have_attribute("data-ready", "true")
    host.get_by_role("button", name="Friends").click()
    host.get_by_label("Your name").fill("Ann")
    host.get_by_role("button", name="Create a room").click()
    expect(host.locator("body")).to_have_attribute("data-screen", "lobby")
    host.get_by_test_id("room-seats").locator("li").nth(1).get_by_role(
        "button", name=re.compile("^Add a bot")
    ).click()
    start = host.get_by_role("button", name="Start match")
    expect(start).to_be_enabled()
    off = in_view(host, {"the host's Start match": start})

    watcher = new_page()
    watcher.goto(host.url)
    watcher.get_by_label("Your name").fill("Cy")
    watcher.get_by_role("button", name="Join room").click()
    expect(host.get_by_test_id("spectators")).to_have_text("1 watching")
    start.click()
    expect(watcher.locator("body")).to_have_attribute("data-screen", "match")
    board = watcher.get_by_test_id("board")
    parts = {
        "the turn line": watcher.get_by_test_id("whose-turn"),
        "the board's bottom row": board.locator('[data-row="4"]').first,
        "the board": board,
        "the message": watcher.get_by_test_id("message"),
    }
    off += in_view(watcher, parts)
    assert off == [], f"off the {screen_size} screen"


# What a room's entry screen shows: each part's visibility and text, and the mode pressed.
ENTRY_PARTS = {
    "the score": '[data-testid="endless-tally"]',
    "the word line": ".word-line",
    "the board": ".board-wrap",
    "the word-list controls": '[data-testid="endless-controls"]',
    "the found words": '[data-testid="found-panel"]',
    "your games": '[data-testid="games-panel"]',
    "the room's form": '[data-testid="room-entry"]',
    "its heading": "#room-entry-title",
    "its intro": '[data-testid="room-entry-intro"]',
    "the name form": '[data-testid="room-name-form"]',
    "its button": '[data-action="room-submit"]',
    "the code form": '[data-testid="room-code-form"]',
    "no such room": '[data-testid="room-gone"]',
    "Friends pressed": '.mode[data-mode="room"][aria-pressed="true"]',
}


def entry_screen(page: Page) -> dict[str, tuple[bool, str]]:
    return {
        name: (part.is_visible(), part.inner_text() if part.is_visible() else "")
        for name, selector in ENTRY_PARTS.items()
        for part in [page.locator(selector)]
    }


@pytest.mark.parametrize("link", ["a room", "no such room"])
def test_a_room_links_first_paint_is_the_screen_the_script_draws(
    browser: Browser, new_page: Callable[[], Page], layout_server: LiveServer, link: str
) -> None:
    """The server draws a room's link as its entry form (or as no such room), not as the endless
    game the script would then replace: nothing moves when the script takes over."""
    code = "ZZZZZZ"
    if link == "a room":
        host = new_page()
        host.goto(layout_server.url)
        # The script's handlers first: a click on the server-drawn button before them opens nothing.
        expect(host.locator("body")).to_have_attribute("data-ready", "true")
        host.get_by_role("button", name="Friends").click()
        host.get_by_label("Your name").fill("Ann")
        host.get_by_role("button", name="Create a room").click()
        expect(host.locator("body")).to_have_attribute("data-screen", "lobby")
        code = host.get_by_test_id("room-code").inner_text()
    url = f"{layout_server.url}/r/{code}"

    still = browser.new_context(java_script_enabled=False)
    first = still.new_page()
    first.goto(url)
    painted = entry_screen(first)
    still.close()

    page = new_page()
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-screen", "room-entry")
    if link == "a room":
        expect(page.get_by_role("button", name="Join room")).to_be_enabled()  # connected
    drawn = entry_screen(page)
    assert painted == drawn
    assert drawn["the room's form"][0]
    assert not drawn["the board"][0]
    assert drawn["no such room"][0] == (link == "no such room")


# Every layout shift a page makes without input, summed (the Cumulative Layout Shift of the
# page's first seconds), as the browser itself reports them.
WATCH_SHIFTS = """() => {
    window.wibbleShifts = [];
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            if (!entry.hadRecentInput) window.wibbleShifts.push(entry.value);
        }
    }).observe({type: "layout-shift", buffered: true});
}"""


@pytest.mark.parametrize("path", ["/daily", "/"])
def test_a_page_does_not_jump_while_it_loads(
    new_page: Callable[[], Page], layout_server: LiveServer, path: str
) -> None:
    page = new_page()
    page.add_init_script(f"({WATCH_SHIFTS})()")
    # A phone's slower processor and network (Lighthouse's mobile runs: 4x, and a slow 4G): the
    # script takes over late, so whatever the first paint drew differently moves while the player
    # looks at it.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    cdp.send("Network.enable")
    slow_4g = {"offline": False, "latency": 150, "downloadThroughput": 204_800, "uploadThroughput": 96_000}
    cdp.send("Network.emulateNetworkConditions", slow_4g)
    page.goto(layout_server.url + path)
    heading = "Daily board" if path == "/daily" else "Found words"
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
    page.wait_for_load_state("networkidle")  # (the day's leaderboard, yesterday's board: all in)
    shifts: list[float] = page.evaluate("window.wibbleShifts")
    assert sum(shifts) <= 0.05, f"the page moved while it loaded: layout shifts {shifts}"
