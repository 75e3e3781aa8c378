"""A phone: real touch input on a small screen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.e2e.conftest import watch_console
from tests.e2e.wibble_page import WibblePage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e

PHONE: ViewportSize = {"width": 375, "height": 667}


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    yield context
    context.close()


def finger_drag(
    context: BrowserContext, page: Page, points: list[tuple[float, float]], steps: int = 5
) -> None:
    """Touch the first point, slide through the others, lift: Chromium turns it into touch pointer events."""
    cdp = context.new_cdp_session(page)

    def send(kind: str, at: tuple[float, float] | None = None) -> None:
        touch_points = [] if at is None else [{"x": at[0], "y": at[1], "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points})

    send("touchStart", points[0])
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        for i in range(1, steps + 1):
            send("touchMove", (x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps))
    send("touchEnd")
    cdp.detach()


def test_a_word_dragged_with_a_finger_scores(
    phone: BrowserContext, server: LiveServer, en_trie: Trie
) -> None:
    page = phone.new_page()
    errors = watch_console(page)
    game = WibblePage(page).open(server.url)
    word, path = game.a_word(en_trie)
    points = game.points(path)

    finger_drag(phone, page, [game.centre(r, c) for r, c in path])

    expect(game.total).to_have_text(str(points))
    expect(game.found).to_contain_text(word.upper())
    game.wait_idle()
    assert errors == []


def test_the_page_fits_a_phone_screen(phone: BrowserContext, server: LiveServer) -> None:
    page = phone.new_page()
    WibblePage(page).open(server.url)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the page scrolls sideways"
    for test_id in ("board", "total-score", "current-word", "message", "wordlist"):
        box = page.get_by_test_id(test_id).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= PHONE["width"]
        assert box["y"] + box["height"] <= PHONE["height"], f"{test_id} is below the fold"
    expect(page.get_by_role("button", name="New game")).to_be_in_viewport()


def test_a_finger_sliding_diagonally_takes_only_the_diagonal(
    phone: BrowserContext, server: LiveServer
) -> None:
    page = phone.new_page()
    game = WibblePage(page).open(server.url)
    letters = game.letters()
    centres = [game.centre(i, i) for i in range(3)]
    cdp = phone.new_cdp_session(page)
    cdp.send(
        "Input.dispatchTouchEvent",
        {"type": "touchStart", "touchPoints": [{"x": centres[0][0], "y": centres[0][1]}]},
    )
    for (x0, y0), (x1, y1) in zip(centres, centres[1:], strict=False):
        for i in range(1, 11):
            point = {"x": x0 + (x1 - x0) * i / 10, "y": y0 + (y1 - y0) * i / 10}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})

    expect(game.current_word).to_have_text((letters[0][0] + letters[1][1] + letters[2][2]).upper())
    expect(game.board.locator('[aria-selected="true"]')).to_have_count(3)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchCancel", "touchPoints": []})
    expect(game.current_word).to_have_text("")
    game.wait_idle()
    expect(game.message).to_have_text("")  # a cancelled touch submits nothing
