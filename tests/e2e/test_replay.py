"""A game's replay page, reached from the game: every move drawn on the board as it was played."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.wibble_page import WibblePage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e


def test_the_replay_steps_through_every_move_with_its_path_and_the_score_as_it_went(
    page: Page, server: LiveServer, en_trie: Trie, console_errors: list[str]
) -> None:
    game = WibblePage(page).open(server.url)
    first_word, first_points = game.score_word(en_trie)
    second_word, second_points = game.score_word(en_trie, avoid=[first_word])
    final_letters, total, game_id = game.letters(), game.total_score(), game.game_id()

    page.get_by_test_id("replay-link").click()

    expect(page).to_have_url(f"{server.url}/replay/{game_id}")
    board = page.get_by_test_id("replay-board")
    step = page.get_by_test_id("replay-step")
    word = page.get_by_test_id("replay-word")
    score = page.get_by_test_id("replay-score")
    expect(step).to_have_text("Move 1 of 2")
    expect(word).to_have_text(first_word.upper())
    expect(score).to_have_text("0")
    expect(board.locator(".tile.selected")).to_have_count(len(first_word))
    expect(page.get_by_test_id("replay-points")).to_have_text(f"+{first_points}")

    page.get_by_test_id("replay-next").click()
    expect(step).to_have_text("Move 2 of 2")
    expect(word).to_have_text(second_word.upper())
    expect(score).to_have_text(str(first_points))
    expect(board.locator(".tile.selected")).to_have_count(len(second_word))

    # Play runs on by itself to the end, where the board is the one the game shows now.
    page.get_by_role("button", name="Start").click()
    page.get_by_test_id("replay-play").click()
    expect(page.get_by_test_id("replay-play")).to_have_text("Pause")
    expect(step).to_have_text("End of the game: 2 moves")
    expect(score).to_have_text(str(total))
    assert total == first_points + second_points
    tiles = [letter.lower() for letter in board.locator(".tile-letter").all_text_contents()]
    assert [tiles[r * 5 : r * 5 + 5] for r in range(5)] == final_letters
    expect(page.get_by_test_id("replay-play")).to_have_text("Play")


def test_a_replay_link_that_names_no_game_is_a_page_of_its_own(page: Page, server: LiveServer) -> None:
    # (Not watched for console errors: the 404 answering the page is itself logged as one.)
    response = page.goto(f"{server.url}/replay/no-such-game-at-all")
    assert response is not None
    assert response.status == 404
    expect(page.get_by_role("heading", name="No such game")).to_be_visible()
    expect(page.get_by_role("button")).to_have_count(0)  # no board, no replay controls beside it
    expect(page.get_by_test_id("replay-board")).to_have_count(0)
    page.get_by_role("link", name="Play a game of your own").click()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")  # a game of one's own
