"""The count of words still to find on the board, as a player sees it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import watch_console
from tests.e2e.test_touch import PHONE
from tests.e2e.wibble_page import SlowLink, WibblePage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e


def to_find(game: WibblePage, trie: Trie, found: set[str]) -> str:
    """What the page should say, counted from the letters it shows."""
    count = len({word for word, _ in game.words(trie)} - found)
    return f"{count} words to find"


def test_the_count_is_shown_and_follows_each_word_scored(
    page: Page, server: LiveServer, en_trie: Trie, console_errors: list[str]
) -> None:
    game = WibblePage(page).open(server.url, seed=2718)
    words_left = page.get_by_test_id("words-left")
    shown = to_find(game, en_trie, set())
    expect(words_left).to_have_text(shown)

    word, _ = game.score_word(en_trie)

    after = to_find(game, en_trie, {word.lower()})
    assert after != shown, "this seed's first word changes the count"
    expect(words_left).to_have_text(after)
    page.reload()  # a resumed game shows the same count
    game.wait_idle()
    expect(words_left).to_have_text(after)


def test_one_word_then_none(
    page: Page, start_server: Callable[..., LiveServer], tmp_path: Path, console_errors: list[str]
) -> None:
    # Every tile is an X and the only word is XXX: one word on every board, until it is found.
    (tmp_path / "xs.txt").write_text("xxx\n", encoding="utf-8")
    server = start_server("--words-dir", str(tmp_path))
    game = WibblePage(page).open(server.url)
    words_left = page.get_by_test_id("words-left")
    expect(words_left).to_have_text("1 word to find")

    game.play([(0, 0), (0, 1), (0, 2)])

    expect(game.total).not_to_have_text("0")
    expect(words_left).to_have_text("No words left")
    expect(game.message).to_contain_text("start a new game")
    game.new_game()
    expect(words_left).to_have_text("1 word to find")


def test_the_count_fits_a_phone_screen_and_moves_nothing_when_it_arrives(
    browser: Browser, server: LiveServer
) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    try:
        page = context.new_page()
        errors = watch_console(page)
        link = SlowLink(page)
        link.hold = lambda message: message["type"] == "game"
        page.goto(f"{server.url}/?seed=2718")
        link.wait_held(lambda message: message["type"] == "game")
        game = WibblePage(page)
        words_left = page.get_by_test_id("words-left")
        expect(words_left).to_have_text("")
        board_before = game.board.bounding_box()

        link.deliver()
        game.wait_idle()

        expect(words_left).to_have_text(re.compile(r"^\d+ words to find$"))
        assert game.board.bounding_box() == board_before
        expect(words_left).to_be_in_viewport()
        expect(game.total).to_be_in_viewport()
        # Nothing sticks out sideways (the page would scroll or zoom out on a phone).
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert errors == []
    finally:
        context.close()
