"""Games outlive the page: reload, several tabs, a lost connection."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.conftest import free_port, watch_console
from tests.e2e.wibble_page import SlowLink, WibblePage
from tests.support import WORDS, LiveServer
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


def test_new_game_starts_afresh_and_the_old_one_waits_in_your_games(
    page: Page, server: LiveServer, en_trie: Trie, console_errors: list[str]
) -> None:
    game = WibblePage(page).open(server.url)
    word, points = game.score_word(en_trie)
    old_id, old_letters = game.game_id(), game.letters()

    game.new_game()
    expect(game.total).to_have_text("0")
    expect(game.found.locator("li")).to_have_count(0)
    expect(game.message).to_contain_text("New game")
    new_id = game.game_id()
    assert new_id != old_id

    # Both games are listed, newest first, the one on screen marked.
    entries = game.your_games()
    expect(entries).to_have_count(2)
    expect(entries.nth(0)).to_have_attribute("data-game-id", new_id)
    expect(entries.nth(0)).to_have_attribute("aria-current", "true")
    expect(entries.nth(1)).to_have_attribute("data-game-id", old_id)
    expect(entries.nth(1)).to_contain_text(f"{points} pts · 1 word")

    # Going back to the old game finds it as it was; the new one stays listed.
    entries.nth(1).click()
    expect(game.board).to_have_attribute("data-game-id", old_id)
    game.wait_idle()
    expect(game.total).to_have_text(str(points))
    assert game.found_words() == [word]
    assert game.letters() == old_letters
    expect(game.message).to_contain_text("Back to your")
    expect(entries).to_have_count(2)
    expect(entries.nth(0)).to_have_attribute("data-game-id", old_id)
    expect(entries.nth(0)).to_have_attribute("aria-current", "true")

    # And a reload stays on the game this tab was playing.
    page.reload()
    game.wait_idle()
    assert game.game_id() == old_id


def test_a_new_game_in_another_tab_or_a_seed_link_never_takes_this_tabs_game(
    context: BrowserContext, server: LiveServer, en_trie: Trie
) -> None:
    one, two = context.new_page(), context.new_page()
    first = WibblePage(one).open(server.url)
    word, points = first.score_word(en_trie)
    mine = first.game_id()

    second = WibblePage(two).open(server.url)
    assert second.game_id() == mine  # the same browser: it opens the newest game
    second.new_game()
    expect(second.board).not_to_have_attribute("data-game-id", mine)
    seeded = WibblePage(context.new_page()).open(server.url, seed=77, wordlist="en")
    assert seeded.game_id() not in (mine, second.game_id())

    one.reload()
    first.wait_idle()
    assert first.game_id() == mine
    expect(first.total).to_have_text(str(points))
    assert first.found_words() == [word]
    expect(first.your_games()).to_have_count(3)


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


def retry_now(page: Page) -> None:
    """Press "Retry now" to skip the back-off, whether or not the button shows just now.

    The button hides while an attempt is under way, and the page may start one on
    its own just before the click, one that may even succeed: then the button never
    shows again. So the button is found by its attribute, not by its role (a role
    query skips hidden elements, and waited 30 s for it: the flaky failure the
    suite used to have), and clicked as it is; a click while it is hidden does no
    harm (the page is already trying).
    """
    page.locator('[data-action="retry"]').dispatch_event("click")


def test_a_server_killed_mid_game_comes_back_with_the_game_as_it_was(
    page: Page, server_on: Callable[..., LiveServer], en_trie: Trie, tmp_path: Path
) -> None:
    errors = watch_console(page)
    port = free_port()
    live = server_on(port, "--data-dir", str(tmp_path))
    game = WibblePage(page).open(live.url)
    first, _ = game.score_word(en_trie)
    second, _ = game.score_word(en_trie, avoid=[first])
    game_id, total, letters = game.game_id(), game.total_score(), game.letters()
    banner = page.get_by_test_id("connection-status")
    expect(banner).to_be_hidden()

    live.kill()  # SIGKILL: no goodbye, as in a crash

    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Connection lost")
    expect(page.locator("body")).to_have_attribute("data-phase", "offline")
    expect(game.board).to_have_attribute("aria-disabled", "true")
    expect(page.get_by_role("button", name="New game")).to_be_disabled()

    # The server comes back on the same data folder: the page resumes the same game.
    server_on(port, "--data-dir", str(tmp_path))
    retry_now(page)
    expect(banner).to_be_hidden()
    game.wait_idle()
    expect(game.board).to_have_attribute("aria-disabled", "false")
    assert game.game_id() == game_id
    expect(game.total).to_have_text(str(total))
    assert game.found_words() == [second, first]
    assert game.letters() == letters
    game.score_word(en_trie, avoid=[first, second])
    # Chromium logs each refused connection attempt; nothing else may go wrong.
    assert [e for e in errors if "WebSocket connection to" not in e] == []


def test_a_server_stopped_for_a_restart_says_so_and_the_page_carries_on(
    page: Page, server_on: Callable[..., LiveServer], en_trie: Trie, tmp_path: Path
) -> None:
    errors = watch_console(page)
    port = free_port()
    live = server_on(port, "--data-dir", str(tmp_path))
    game = WibblePage(page).open(live.url)
    word, points = game.score_word(en_trie)
    game_id = game.game_id()

    live.stop()  # SIGTERM: the server closes every websocket with 1012, "service restart"

    expect(game.banner).to_be_visible()
    expect(game.banner).to_contain_text("Server restarting, reconnecting")
    expect(game.banner).not_to_contain_text("Connection lost")

    server_on(port, "--data-dir", str(tmp_path))
    retry_now(page)
    expect(game.banner).to_be_hidden()
    game.wait_idle()
    assert game.game_id() == game_id
    expect(game.total).to_have_text(str(points))
    assert game.found_words() == [word]
    expect(game.message).not_to_contain_text("new one")
    assert [e for e in errors if "WebSocket connection to" not in e] == []


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


def test_a_press_that_loses_the_race_to_another_tab_leaves_that_tab_the_chain(
    context: BrowserContext, server: LiveServer, en_trie: Trie
) -> None:
    one, two = context.new_page(), context.new_page()
    errors_one, errors_two = watch_console(one), watch_console(two)
    link = SlowLink(two)
    first = WibblePage(one).open(server.url)
    second = WibblePage(two).open(server.url)
    assert second.game_id() == first.game_id()
    letters = first.letters()

    # Tab two's network is slow: it presses while tab one's chain is on its way to it.
    link.hold = lambda message: True
    first.drag([(0, 0), (0, 1)], release=False)
    expect(one.locator("body")).to_have_attribute("data-phase", "chaining")
    expect(first.board.locator('[aria-selected="true"]')).to_have_count(2)
    second.drag([(4, 4), (4, 3)], release=False)
    expect(second.current_word).to_have_text((letters[4][4] + letters[4][3]).upper())
    link.wait_held(lambda message: message.get("code") == "state/already_chaining")
    link.deliver()

    # Tab two now shows tab one's chain, and knows it is not its own.
    theirs = (letters[0][0] + letters[0][1]).upper()
    expect(second.current_word).to_have_text(theirs)
    expect(second.submit).to_be_disabled()
    expect(second.message).to_have_text("Another tab is playing this game.")
    second.page.mouse.up()  # letting go sends nothing: the chain is not ours to submit
    x, y = second.centre(2, 2)
    second.page.mouse.click(x, y)
    expect(second.message).to_contain_text("wait for it to finish")
    assert link.sent_of("release") == []
    expect(second.current_word).to_have_text(theirs)
    expect(first.current_word).to_have_text(theirs)

    # Tab one lets go; then tab two plays as usual.
    first.page.bring_to_front()
    first.page.keyboard.press("Escape")
    first.page.mouse.up()
    second.wait_idle()
    second.score_word(en_trie)
    assert errors_one == []
    assert errors_two == []


def test_a_restarted_server_without_the_list_being_played_starts_its_default_list(
    page: Page, server_on: Callable[..., LiveServer], tmp_path: Path, en_trie: Trie
) -> None:
    errors = watch_console(page)
    port = free_port()
    live = server_on(port)
    game = WibblePage(page).open(live.url)
    game.picker.select_option("es")
    expect(game.board).to_have_attribute("data-wordlist", "es")
    game.wait_idle()
    live.stop()
    expect(game.banner).to_be_visible()

    # The server comes back with English only: the Spanish game is gone, and so is Spanish.
    for name in ("en.txt", "en.toml"):
        shutil.copy(Path(WORDS) / name, tmp_path / name)
    server_on(port, "--words-dir", str(tmp_path))
    retry_now(page)

    expect(game.banner).to_be_hidden(timeout=15_000)
    expect(game.board).to_have_attribute("data-wordlist", "en")
    game.wait_idle()
    expect(game.picker).to_have_value("en")
    expect(game.message).to_contain_text("not available")
    expect(game.total).to_have_text("0")
    game.score_word(en_trie)
    # Chromium logs each refused connection attempt; nothing else may go wrong.
    assert [e for e in errors if "WebSocket connection to" not in e] == []


def test_a_page_opened_with_a_seed_resumes_its_game_on_reload(
    page: Page, server: LiveServer, en_trie: Trie, console_errors: list[str]
) -> None:
    game = WibblePage(page).open(server.url, seed=123, wordlist="en", theme="dark")
    # Once the game has started, the parameters that asked for it leave the address bar.
    expect(page).to_have_url(f"{server.url}/?theme=dark")
    word, points = game.score_word(en_trie)
    game_id = game.game_id()

    page.reload()
    game.wait_idle()

    assert game.game_id() == game_id
    expect(game.total).to_have_text(str(points))
    assert game.found_words() == [word]


def test_a_game_the_server_no_longer_has_leaves_your_games_for_a_new_one_in_its_list(
    page: Page, server_on: Callable[..., LiveServer]
) -> None:
    errors = watch_console(page)
    port = free_port()
    live = server_on(port, "--data-dir", "")  # games in memory only: a restart forgets them
    game = WibblePage(page).open(live.url, wordlist="es")
    old = game.game_id()
    # Off the page while the server restarts: told 1012, it would reconnect by itself, and on a
    # busy machine could reach the new server (its game refused, a new one made) before a reload.
    page.goto("about:blank")
    live.stop()
    server_on(port, "--data-dir", "")

    page.goto(live.url)  # as a reload: the page resumes the game this browser keeps

    # The lost game leaves the screen at once; the new one comes after the page's resume was
    # refused and its new game made, round trips that a loaded 2-core machine can take seconds
    # over. A fallback to the default list would fail this however long it waited.
    expect(game.message).to_contain_text("no longer on the server", timeout=15_000)
    expect(game.board).not_to_have_attribute("data-game-id", old)
    game.wait_idle()
    expect(game.board).to_have_attribute("data-wordlist", "es")
    entries = game.your_games()
    expect(entries).to_have_count(1)
    expect(entries.nth(0)).to_have_attribute("data-game-id", game.game_id())
    assert [e for e in errors if "WebSocket connection to" not in e] == []
