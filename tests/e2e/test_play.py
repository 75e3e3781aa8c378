"""Playing with a mouse and a keyboard: scoring, misses, backtracking, cancelling."""

from __future__ import annotations

import json
from collections import defaultdict
from itertools import combinations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.wibble_page import Path, SlowLink, WibblePage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e


@pytest.fixture
def game(page: Page, server: LiveServer, console_errors: list[str]) -> WibblePage:
    return WibblePage(page).open(server.url)


def test_dragging_a_word_scores_its_tiles_points(game: WibblePage, en_trie: Trie) -> None:
    word, path = game.a_word(en_trie)
    points = game.points(path)
    assert game.total_score() == 0

    game.play(path)

    expect(game.total).to_have_text(str(points))
    expect(game.found.locator("li")).to_have_count(1)
    expect(game.found).to_contain_text(word.upper())
    expect(game.found).to_contain_text(f"+{points}")
    expect(game.message).to_contain_text(word.upper())
    expect(game.tiles).to_have_count(25)
    assert all(tile.letter and tile.score > 0 for tile in game.read_tiles())


def test_scores_add_up_over_several_words(game: WibblePage, en_trie: Trie) -> None:
    total, words = 0, list[str]()
    for _ in range(3):
        word, points = game.score_word(en_trie, avoid=words)
        total += points
        words.append(word)
    expect(game.total).to_have_text(str(total))
    # Newest first.
    assert game.found_words() == list(reversed(words))


def test_a_chain_that_is_not_a_word_scores_nothing(game: WibblePage, en_trie: Trie) -> None:
    letters = game.letters()
    candidates = [[(r, c), (r, c + 1), (r, c + 2)] for r in range(5) for c in range(3)]
    candidates += [[(r, c), (r + 1, c), (r + 2, c)] for r in range(3) for c in range(5)]
    path = next(p for p in candidates if "".join(letters[r][c] for r, c in p) not in en_trie)

    game.play(path)

    expect(game.message).to_contain_text("Not a word")
    expect(game.total).to_have_text("0")
    expect(game.found.locator("li")).to_have_count(0)


def a_word_twice(words: list[tuple[str, Path]]) -> tuple[str, Path, Path] | None:
    """A word the board spells along two paths that share no tile (so the second survives the refill)."""
    paths: dict[str, list[Path]] = defaultdict(list)
    for word, path in words:
        paths[word].append(path)
    for word in sorted(paths, key=len):
        for first, second in combinations(paths[word], 2):
            if not set(first) & set(second):
                return word, first, second
    return None


def test_a_word_found_again_scores_nothing(page: Page, server: LiveServer, en_trie: Trie) -> None:
    game = WibblePage(page)
    for seed in range(1, 30):  # seeded boards are the same every run; the first usually has one
        game.open(server.url, seed=seed)
        twice = a_word_twice(game.words(en_trie))
        if twice:
            break
    else:
        raise AssertionError("no seeded board spells a word twice")
    word, first, second = twice
    points = game.points(first)

    game.play(first)
    expect(game.total).to_have_text(str(points))
    game.play(second)

    expect(game.message).to_contain_text("Already found")
    expect(game.total).to_have_text(str(points))
    expect(game.found.locator("li")).to_have_count(1)
    assert game.found_words() == [word.upper()]


def test_dragging_back_onto_the_previous_tile_undoes_the_last(game: WibblePage) -> None:
    letters = game.letters()
    game.drag([(0, 0), (0, 1), (0, 2)], release=False)
    expect(game.current_word).to_have_text((letters[0][0] + letters[0][1] + letters[0][2]).upper())

    x, y = game.centre(0, 1)
    game.page.mouse.move(x, y, steps=4)

    expect(game.current_word).to_have_text((letters[0][0] + letters[0][1]).upper())
    expect(game.tile(0, 1)).to_have_attribute("aria-selected", "true")
    expect(game.tile(0, 2)).to_have_attribute("aria-selected", "false")
    game.page.mouse.up()
    expect(game.message).to_have_text("Too short — 3 letters minimum")
    expect(game.total).to_have_text("0")


def test_a_diagonal_drag_does_not_pick_up_the_tiles_beside_it(game: WibblePage) -> None:
    game.drag([(0, 0), (1, 1), (2, 2)], release=False, steps=12)
    letters = game.letters()
    expect(game.current_word).to_have_text((letters[0][0] + letters[1][1] + letters[2][2]).upper())
    for row, col in [(0, 1), (1, 0), (1, 2), (2, 1)]:
        expect(game.tile(row, col)).to_have_attribute("aria-selected", "false")
    game.page.keyboard.press("Escape")
    game.page.mouse.up()


def test_escape_cancels_the_chain(game: WibblePage) -> None:
    game.drag([(1, 1), (1, 2), (2, 2)], release=False)
    expect(game.page.locator("body")).to_have_attribute("data-phase", "chaining")
    expect(game.board.locator('[aria-selected="true"]')).to_have_count(3)

    game.page.keyboard.press("Escape")

    expect(game.current_word).to_have_text("")
    expect(game.board.locator('[aria-selected="true"]')).to_have_count(0)
    game.page.mouse.up()  # letting go after a cancel submits nothing
    game.wait_idle()
    expect(game.message).to_have_text("")
    expect(game.total).to_have_text("0")


def test_dragging_off_the_board_cancels_the_chain(game: WibblePage) -> None:
    game.drag([(0, 1), (0, 2), (0, 3)], release=False)
    expect(game.board.locator('[aria-selected="true"]')).to_have_count(3)
    box = game.board.bounding_box()
    assert box is not None

    game.page.mouse.move(box["x"] + box["width"] / 2, box["y"] - 40, steps=6)

    expect(game.current_word).to_have_text("")
    expect(game.board.locator('[aria-selected="true"]')).to_have_count(0)
    game.page.mouse.up()
    game.wait_idle()
    expect(game.message).to_have_text("")
    expect(game.found.locator("li")).to_have_count(0)


def test_a_word_can_be_played_with_the_keyboard(game: WibblePage, en_trie: Trie) -> None:
    word, path = game.a_word(en_trie)
    points = game.points(path)
    keyboard = game.page.keyboard
    game.tile(0, 0).focus()
    at = (0, 0)
    for i, (row, col) in enumerate(path):
        for _ in range(abs(row - at[0])):
            keyboard.press("ArrowDown" if row > at[0] else "ArrowUp")
        for _ in range(abs(col - at[1])):
            keyboard.press("ArrowRight" if col > at[1] else "ArrowLeft")
        at = (row, col)
        expect(game.tile(row, col)).to_be_focused()
        keyboard.press("Space")
        expect(game.board.locator('[aria-selected="true"]')).to_have_count(i + 1)
    expect(game.current_word).to_have_text(word.upper())

    # Backspace takes the last letter back; Space puts it back; Enter on it submits.
    keyboard.press("Backspace")
    expect(game.board.locator('[aria-selected="true"]')).to_have_count(len(path) - 1)
    keyboard.press("Space")
    expect(game.current_word).to_have_text(word.upper())
    keyboard.press("Enter")

    expect(game.total).to_have_text(str(points))
    expect(game.found).to_contain_text(word.upper())


def test_a_scored_words_new_letters_show_with_its_points_never_after(
    page: Page, server: LiveServer, en_trie: Trie, console_errors: list[str]
) -> None:
    """The verdict and the refill are one message: there is no moment when the points are counted
    and the word's tiles still show their old letters (a tap there would start on a letter about
    to go)."""
    link = SlowLink(page)
    game = WibblePage(page).open(server.url)
    word, path = next(iter(game.words(en_trie)))
    points = game.points(path)
    link.hold = lambda message: message["type"] == "word"  # a slow network: the verdict comes late
    game.drag(path)
    link.wait_held(lambda message: message["type"] == "word")
    [(_, held)] = link.held
    verdict = json.loads(held)
    assert verdict["result"] == "scored"
    new = {(t["row"], t["col"]): t["letter"] for t in verdict["changed"]}
    assert set(new) == set(path)
    # The board as it stands the moment the points show.
    page.evaluate(
        """() => { window.__seen = null;
            const total = document.querySelector('[data-testid="total-score"]');
            new MutationObserver(() => { if (window.__seen === null) window.__seen =
                [...document.querySelectorAll('[data-testid="board"] [data-row]')]
                    .map(t => [+t.dataset.row, +t.dataset.col, t.dataset.letter]); })
                .observe(total, { childList: true, subtree: true, characterData: true }); }"""
    )
    link.deliver()
    expect(game.total).to_have_text(str(points))
    seen = {(r, c): letter for r, c, letter in page.evaluate("window.__seen")}
    assert {tile: seen[tile].upper() for tile in new} == {
        tile: letter.upper() for tile, letter in new.items()
    }
    game.wait_idle()
    assert game.found_words() == [word.upper()]
