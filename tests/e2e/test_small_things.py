"""Small things players noticed: what a chain that spells nothing shows, the replay link, a
shuffle said, and a finished match in "Your games"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_match import MatchPage
from tests.e2e.test_typing import match_server  # noqa: F401 (a fixture)
from tests.e2e.wibble_page import Path, WibblePage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e


def dead_chain(game: WibblePage, trie: Trie, length: int) -> Path:
    """Touching tiles, in a row or a column, whose letters start no word."""
    letters = game.letters()
    lines = [[(r, c + i) for i in range(length)] for r in range(5) for c in range(6 - length)]
    lines += [[(r + i, c) for i in range(length)] for r in range(6 - length) for c in range(5)]
    for path in lines:
        node = trie.root
        for r, c in path:
            node = trie.child(node, letters[r][c]) if node is not None else None
        if node is None:
            return path
    raise AssertionError(f"every line of {length} on this board starts a word: {letters}")


@pytest.fixture
def game(page: Page, server: LiveServer, console_errors: list[str]) -> WibblePage:
    return WibblePage(page).open(server.url)


def test_a_chain_that_spells_nothing_shows_no_points_and_a_short_one_says_too_short(
    game: WibblePage, en_trie: Trie
) -> None:
    status, points = game.page.get_by_test_id("chain-status"), game.page.get_by_test_id("current-points")
    path = dead_chain(game, en_trie, 3)
    game.drag(path, release=False)
    expect(status).to_have_text("✗ no words")
    expect(points).to_have_text("")
    game.page.keyboard.press("Escape")
    game.page.mouse.up()
    game.wait_idle()

    # Two tiles: "too short" while held, and the same on letting go.
    path = dead_chain(game, en_trie, 2)
    game.drag(path, release=False)
    expect(status).to_have_text("✗ too short")
    expect(points).to_have_text("")
    game.page.mouse.up()
    expect(game.message).to_contain_text("Too short")
    game.wait_idle()


def test_the_replay_link_shows_once_a_word_is_played(game: WibblePage, en_trie: Trie) -> None:
    link = game.page.get_by_test_id("replay-link")
    expect(link).to_be_hidden()
    game.score_word(en_trie)
    expect(link).to_be_visible()


def test_a_shuffle_is_said_and_a_finished_match_is_not_playing(
    page: Page,
    match_server: LiveServer,  # noqa: F811
    console_errors: list[str],
) -> None:
    game = MatchPage(page).open(match_server.url)
    game.start(rounds=1)
    game.power("Shuffle").click()
    expect(game.message).to_have_text("You shuffled the letters.")
    game.wait_my_turn()
    game.power("Pass").click()
    expect(game.body).to_have_attribute("data-screen", "over", timeout=20_000)
    entry = page.get_by_test_id("your-games").locator(f'[data-match-id="{game.match_id()}"]')
    expect(entry).to_contain_text("over")
    expect(entry).to_contain_text("on screen")
    expect(entry).not_to_contain_text("playing")


def test_a_message_too_big_is_refused_with_its_close_code_not_a_reset(page: Page, server: LiveServer) -> None:
    # The server refuses a message from its header, with most of it still on its way: it
    # reads the rest out (up to LINGER_BYTES, 64 KiB) before closing, or the browser sees
    # the connection reset and reports 1006 instead of 1009 (some of the twelve did, in
    # every run, without it).
    page.goto(server.url)
    codes = page.evaluate(
        """(size) => Promise.all(Array.from({length: 12}, () => new Promise((resolve) => {
            const ws = new WebSocket(location.origin.replace("http", "ws") + "/ws");
            ws.onopen = () => ws.send("x".repeat(size));
            ws.onclose = (event) => resolve(event.code);
        })))""",
        50_000,
    )
    assert codes == [1009] * 12
