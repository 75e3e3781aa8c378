"""Games outlive the page: reload, several tabs, a lost connection."""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.conftest import watch_console
from tests.e2e.wibble_page import WibblePage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e


def test_reloading_the_page_resumes_the_game(
    page: Page, server: LiveServer, en_trie: Trie, console_errors: list[str]
) -> None:
    game = WibblePage(page).open(server.url)
    first, _ = game.score_word(en_trie)
    second, _ = game.score_word(en_trie, avoid=[first])
    game_id, total, letters = game.game_id(), game.total_score(), game.letters()

    page.reload()
    game.wait_idle()

    assert game.game_id() == game_id
    expect(game.total).to_have_text(str(total))
    assert game.found_words() == [second, first]
    assert game.letters() == letters


def test_new_game_starts_afresh(page: Page, server: LiveServer, en_trie: Trie) -> None:
    game = WibblePage(page).open(server.url)
    game.score_word(en_trie)
    game.new_game()
    expect(game.total).to_have_text("0")
    expect(game.found.locator("li")).to_have_count(0)
    expect(game.message).to_contain_text("New game")


def test_two_tabs_on_one_game_both_see_a_word(
    context: BrowserContext, server: LiveServer, en_trie: Trie
) -> None:
    one, two = context.new_page(), context.new_page()
    errors_one, errors_two = watch_console(one), watch_console(two)
    first = WibblePage(one).open(server.url)
    second = WibblePage(two).open(server.url)  # the same browser: it resumes the saved game
    assert second.game_id() == first.game_id()

    word, points = first.score_word(en_trie)

    expect(second.total).to_have_text(str(points))
    expect(second.found).to_contain_text(word)
    second.wait_idle()
    assert second.letters() == first.letters()

    # And back the other way.
    other, more = second.score_word(en_trie, avoid=[word])
    expect(first.total).to_have_text(str(points + more))
    expect(first.found).to_contain_text(other)
    assert errors_one == []
    assert errors_two == []


def test_a_chain_dragged_in_one_tab_shows_in_the_other(context: BrowserContext, server: LiveServer) -> None:
    one, two = context.new_page(), context.new_page()
    first = WibblePage(one).open(server.url)
    second = WibblePage(two).open(server.url)
    letters = first.letters()

    first.drag([(0, 0), (0, 1)], release=False)

    expect(second.current_word).to_have_text((letters[0][0] + letters[0][1]).upper())
    expect(second.board.locator('[aria-selected="true"]')).to_have_count(2)
    one.keyboard.press("Escape")
    expect(second.current_word).to_have_text("")
    one.mouse.up()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server_on(start_server: Callable[..., LiveServer]) -> Callable[[int], LiveServer]:
    """Start servers on a chosen port (so one can stop and come back where the page expects it)."""
    return lambda port: start_server("--port", str(port))


def test_a_lost_connection_shows_a_banner_and_comes_back(
    page: Page, server_on: Callable[[int], LiveServer], en_trie: Trie
) -> None:
    port = free_port()
    live = server_on(port)
    game = WibblePage(page).open(live.url)
    game.score_word(en_trie)
    banner = page.get_by_test_id("connection-status")
    expect(banner).to_be_hidden()

    live.stop()

    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Connection lost")
    expect(page.locator("body")).to_have_attribute("data-phase", "offline")
    expect(game.board).to_have_attribute("aria-disabled", "true")
    expect(page.get_by_role("button", name="New game")).to_be_disabled()

    # The server comes back (empty: games live in memory), so the page starts a new game.
    server_on(port)
    page.get_by_role("button", name="Retry now").click()
    expect(banner).to_be_hidden(timeout=15_000)
    game.wait_idle()
    expect(game.board).to_have_attribute("aria-disabled", "false")
    expect(game.total).to_have_text("0")
    expect(game.message).to_contain_text("new one")
    game.score_word(en_trie)


def test_going_offline_and_back_resumes_the_same_game(
    page: Page, context: BrowserContext, server: LiveServer, en_trie: Trie
) -> None:
    game = WibblePage(page).open(server.url)
    word, points = game.score_word(en_trie)
    game_id = game.game_id()
    banner = page.get_by_test_id("connection-status")

    context.set_offline(True)

    expect(banner).to_be_visible()
    expect(banner).to_contain_text("reconnecting")
    expect(game.board).to_have_attribute("aria-disabled", "true")
    game.drag([(0, 0), (0, 1), (0, 2)])  # ignored while offline
    expect(game.board.locator('[aria-selected="true"]')).to_have_count(0)

    context.set_offline(False)

    expect(banner).to_be_hidden()
    game.wait_idle()
    assert game.game_id() == game_id
    expect(game.total).to_have_text(str(points))
    assert game.found_words() == [word]
    game.score_word(en_trie, avoid=[word])
