"""A sprint chosen under the board: its clock runs in the header; untimed Endless has none."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.wibble_page import WibblePage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e


def test_a_one_minute_sprint_counts_down_while_words_score(
    page: Page, server: LiveServer, console_errors: list[str], en_trie: Trie
) -> None:
    game = WibblePage(page).open(server.url)
    clock = page.get_by_test_id("sprint-clock")
    expect(clock).to_be_hidden()

    page.get_by_label("Clock").select_option(label="Sprint, 1 minute")
    game.new_game()

    expect(clock).to_have_text(re.compile(r"^(1:00|0:5\d)$"))
    expect(clock).to_have_attribute("role", "timer")
    _, points = game.score_word(en_trie)
    expect(game.total).to_have_text(str(points))
    expect(clock).to_have_text(re.compile(r"^0:[0-5]\d$"))

    # Ended: "Your games" no longer says the sprint on screen is being played.
    entry = page.get_by_test_id("your-games").locator(f'[data-game-id="{game.game_id()}"]')
    expect(entry).to_contain_text("playing")
    page.get_by_role("button", name="I'm done").click()
    page.get_by_role("button", name="End now").click()
    expect(entry).to_contain_text("on screen")
    expect(entry).not_to_contain_text("playing")

    page.get_by_label("Clock").select_option(label="None: Endless")
    game.new_game()
    expect(clock).to_be_hidden()
