"""Type to spell: letters typed light up the best path, Tab tries the others, Enter plays it.

What reaches the server is what a drag sends (press, enter, release with tile
coordinates), watched here through the page's own websocket.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_match import BOT_PACE, MatchPage
from tests.e2e.wibble_page import Path, SlowLink, WibblePage
from tests.support import LiveServer, find_paths
from wibble.core import Trie

pytestmark = pytest.mark.e2e


def selected(game: WibblePage) -> Path:
    """The chain lit on the board, in its order (the trail's polyline has it)."""
    points = game.page.locator(".trail-line").get_attribute("points") or ""
    return [(int(float(y)), int(float(x))) for x, y in (p.split(",") for p in points.split())]


def chain_after(moves: list[dict[str, Any]]) -> Path:
    """The chain the server builds from these moves, by a drag's rules: a press starts it, an
    enter onto the tile before the last steps back, any other enter goes on, a cancel ends it."""
    chain: Path = []
    for move in moves:
        if move["type"] == "cancel":
            chain = []
        elif move["type"] == "press":
            chain = [(move["row"], move["col"])]
        elif len(chain) >= 2 and chain[-2] == (move["row"], move["col"]):
            chain.pop()
        else:
            chain.append((move["row"], move["col"]))
    return chain


def paths_of(game: WibblePage, trie: Trie, word: str) -> list[Path]:
    """Every path spelling `word` on the board (the tests' own search, not the page's)."""
    return [path for found, path in find_paths(game.letters(), trie, len(word)) if found == word]


def match_points(game: WibblePage, path: Path) -> int:
    """A match's points of a path, read from the tiles' marks as the page shows them."""
    marks = game.tiles.evaluate_all(
        "els => els.map(e => [+e.dataset.row, +e.dataset.col, +e.dataset.score,"
        " e.dataset.mult, e.dataset.wordMult])"
    )
    tiles = {
        (r, c): (score, {"DL": 2, "TL": 3}.get(mult, 1), 2 if word_mult == "true" else 1)
        for r, c, score, mult, word_mult in marks
    }
    letters = sum(tiles[t][0] * tiles[t][1] for t in path)
    factor = 1
    for t in path:
        factor *= tiles[t][2]
    return letters * factor + (10 if len(path) >= 6 else 0)


@pytest.fixture
def match_server(start_server: Callable[..., LiveServer]) -> LiveServer:
    return start_server(env=BOT_PACE)


@pytest.fixture
def link(page: Page) -> SlowLink:
    return SlowLink(page)


@pytest.fixture
def game(page: Page, link: SlowLink, server: LiveServer, console_errors: list[str]) -> WibblePage:
    return WibblePage(page).open(server.url)


def test_typing_a_word_and_enter_plays_it_as_a_drag_would(
    game: WibblePage, link: SlowLink, en_trie: Trie
) -> None:
    word, _ = game.a_word(en_trie)
    paths = paths_of(game, en_trie, word)
    points = max(game.points(path) for path in paths)
    page = game.page
    page.keyboard.type(word.upper())
    expect(game.current_word).to_have_text(word.upper())
    expect(page.get_by_test_id("chain-status")).to_contain_text("word")
    lit = selected(game)
    assert lit in paths
    assert game.points(lit) == points, "the best-scoring path is the one lit"
    sent_before = len(link.sent)
    page.keyboard.press("Enter")
    game.wait_idle()
    expect(game.total).to_have_text(str(points))
    expect(game.found).to_contain_text(word.upper())
    # Only tiles went to the server: a press, enters along the path, a release.
    moves = [m for m in link.sent if m.get("type") in {"press", "enter", "release", "cancel"}]
    assert chain_after(moves[:-1]) == lit
    assert moves[-1]["type"] == "release"
    assert len(link.sent) == sent_before + 1


def test_a_word_typed_after_a_too_short_one_is_not_shown_under_its_miss(
    game: WibblePage, en_trie: Trie
) -> None:
    word, path = game.a_word(en_trie)
    letters = game.letters()
    page = game.page
    page.keyboard.type("".join(letters[r][c] for r, c in path[:2]).upper())
    page.keyboard.press("Enter")
    expect(game.message).to_contain_text("Too short")
    page.keyboard.type(word.upper())  # the next word: the last one's miss is gone
    expect(page.get_by_test_id("chain-status")).to_contain_text("word")
    expect(game.message).to_have_text("")
    expect(game.message).not_to_have_attribute("data-kind", "miss")  # (whose ::before draws a ✗)
    page.keyboard.press("Enter")
    expect(game.message).to_contain_text(word.upper())


def test_a_letter_no_path_continues_is_refused_where_it_shows(game: WibblePage) -> None:
    letters = {letter.upper() for row in game.letters() for letter in row}
    absent = next(c for c in string.ascii_uppercase if c not in letters)
    page = game.page
    page.keyboard.press(absent)
    expect(game.message).to_contain_text(f"No {absent} on the board to start with.")
    expect(page.get_by_test_id("refused-letter")).to_have_text(absent)
    expect(game.board.locator(".tile.selected")).to_have_count(0)
    # What is typed after it is struck out too, until Backspace takes the letters back.
    page.keyboard.press(game.letters()[0][0].upper())
    expect(page.get_by_test_id("refused-letter")).to_have_text(absent + game.letters()[0][0].upper())
    expect(game.board.locator(".tile.selected")).to_have_count(0)
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    expect(page.get_by_test_id("refused-letter")).to_have_text("")

    # Started on a letter, a second letter that touches none of its tiles is refused too,
    # and the letter already typed stays lit. (Which letters those are depends on the board.)
    grid = game.letters()
    first, far = next(
        (first, far)
        for first in sorted({letter.upper() for row in grid for letter in row})
        for far in sorted(letters)
        if far not in {grid[r][c].upper() for r0, c0 in _tiles_of(grid, first) for r, c in _around(r0, c0)}
    )
    page.keyboard.press(first)
    expect(game.current_word).to_have_text(first)
    page.keyboard.press(far)
    expect(game.message).to_contain_text(f"No path on the board spells {first}{far}.")
    expect(page.get_by_test_id("refused-letter")).to_have_text(far)
    expect(game.current_word).to_have_text(first)
    expect(game.board.locator(".tile.selected")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(game.board.locator(".tile.selected")).to_have_count(0)
    game.wait_idle()


def _tiles_of(grid: list[list[str]], letter: str) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(grid) for c, found in enumerate(row) if found.upper() == letter]


def _around(row: int, col: int) -> list[tuple[int, int]]:
    return [
        (r, c)
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if 0 <= r < 5 and 0 <= c < 5 and (r, c) != (row, col)
    ]


def test_tab_cycles_the_paths_backspace_takes_a_letter_back_and_esc_clears(game: WibblePage) -> None:
    page = game.page
    # A letter on two tiles or more: each tile is a path of its own.
    counts = Counter(letter.upper() for row in game.letters() for letter in row)
    twice = [letter for letter, n in counts.items() if n >= 2]
    if not twice:
        game.new_game()
        counts = Counter(letter.upper() for row in game.letters() for letter in row)
        twice = [letter for letter, n in counts.items() if n >= 2]
    assert twice, "a 5x5 board of 25 letters repeats one (there are fewer letters in use)"
    letter = twice[0]
    page.keyboard.press(letter)
    first = selected(game)
    assert len(first) == 1
    paths = page.get_by_test_id("spell-paths")
    expect(paths).to_have_text(f"1/{counts[letter]}")
    page.keyboard.press("Tab")
    expect(paths).to_have_text(f"2/{counts[letter]}")
    expect(game.message).to_contain_text(f"Path 2 of {counts[letter]}")
    second = selected(game)
    assert second != first
    assert len(second) == 1
    page.keyboard.press("Shift+Tab")
    expect(paths).to_have_text(f"1/{counts[letter]}")
    assert selected(game) == first
    page.keyboard.press("Backspace")
    expect(game.board.locator(".tile.selected")).to_have_count(0)
    game.wait_idle()

    # Backspace on a longer word takes its last letter only.
    grid = game.letters()
    r, c = 0, 0
    pair = grid[r][c].upper() + grid[r][c + 1].upper()
    page.keyboard.type(pair)
    expect(game.current_word).to_have_text(pair)
    page.keyboard.press("Backspace")
    expect(game.current_word).to_have_text(pair[0])
    page.keyboard.press("Escape")
    expect(game.current_word).to_have_text("")
    game.wait_idle()


def test_a_drag_takes_over_from_typing(game: WibblePage, en_trie: Trie) -> None:
    word, path = game.a_word(en_trie)
    page = game.page
    page.keyboard.press(game.letters()[4][4].upper())
    expect(game.board.locator(".tile.selected")).to_have_count(1)
    before, points = game.total_score(), game.points(path)
    game.play(path)  # the drag's chain, not the letter typed
    expect(game.total).to_have_text(str(before + points))
    expect(game.found).to_contain_text(word.upper())
    # Typing again starts afresh.
    letter = game.letters()[0][0].upper()
    page.keyboard.press(letter)
    expect(game.current_word).to_have_text(letter)
    page.keyboard.press("Escape")
    game.wait_idle()


def test_new_game_puts_the_focus_on_the_board(game: WibblePage) -> None:
    game.page.get_by_role("button", name="New game").click()
    game.wait_idle()
    expect(game.board.locator(".tile:focus")).to_have_count(1)


@pytest.fixture
def slow_bot_server(start_server: Callable[..., LiveServer]) -> LiveServer:
    """A bot that thinks for a minute: its turn lasts while the test types during it."""
    return start_server(env={**BOT_PACE, "WIBBLE_BOT_THINK_SECONDS": "60"})


def test_a_match_word_typed_on_your_turn_with_the_multipliers_counted(
    page: Page,
    slow_bot_server: LiveServer,
    en_trie: Trie,
    console_errors: list[str],
) -> None:
    game = MatchPage(page).open(slow_bot_server.url)
    game.start(rounds=1)
    expect(game.board.locator(".tile:focus")).to_have_count(1)  # Start match: the board has the focus
    words = {w for w, _ in find_paths(game.letters(), en_trie, 3)}
    word = min(words, key=lambda w: (abs(len(w) - 5), w))
    best = max(match_points(game, path) for path in paths_of(game, en_trie, word))
    page.keyboard.type(word.upper())
    expect(game.current_word).to_have_text(word.upper())
    assert match_points(game, selected(game)) == best
    page.keyboard.press("Enter")
    mine = game.plays.locator("li").filter(has_text=f"You{word.upper()}")
    expect(mine.locator(".found-points")).to_contain_text(str(best))
    expect(game.whose_turn).to_have_text("Ada's turn")
    # Not our turn: typing is refused, and says whose turn it is.
    page.keyboard.press(game.letters()[0][0].upper())
    expect(game.message).to_have_text("It is Ada's turn — wait for yours.")
    expect(game.current_word).to_have_text("")


def test_the_powers_by_their_keys_and_a_swapped_letter_typed(
    page: Page,
    match_server: LiveServer,
    console_errors: list[str],
) -> None:
    game = MatchPage(page).open(match_server.url)
    game.start(rounds=1)
    for name, key in [("Shuffle", "1"), ("Swap", "2"), ("Hint", "3"), ("Pass", "5")]:
        expect(game.power(name)).to_have_attribute("aria-keyshortcuts", key)
        expect(game.power(name).locator("kbd")).to_have_text(key)
    # Extend (4) adds time to a timed turn: this match's turns are not timed, so it is not offered.
    expect(page.get_by_test_id("powers").locator('[data-power="extend"]')).to_be_hidden()

    # 2: Swap. The tile is picked on the board (Space on the focused tile), the letter by typing it.
    page.keyboard.press("2")
    expect(page.get_by_test_id("swap-picker")).to_contain_text("pick the tile")
    focused = game.board.locator(".tile:focus")
    expect(focused).to_have_count(1)
    row, col = int(focused.get_attribute("data-row") or 0), int(focused.get_attribute("data-col") or 0)
    page.keyboard.press("Space")
    letter = "Z" if game.letters()[row][col] != "z" else "Q"
    page.keyboard.press(letter)
    expect(game.tile(row, col)).to_have_attribute("data-letter", letter)
    expect(game.seats.nth(0).locator(".seat-gems")).to_contain_text("0")
    # The swapped tile is typed like any other.
    page.keyboard.press(letter)
    expect(game.current_word).to_have_text(letter)
    if sum(found == letter.lower() for line in game.letters() for found in line) == 1:
        expect(game.tile(row, col)).to_have_class(re.compile(r"\bselected\b"))
    page.keyboard.press("Escape")
    expect(game.current_word).to_have_text("")

    # 1: Shuffle needs a gem and there are none: the key says so, and shuffles nothing.
    letters = game.letters()
    page.keyboard.press("1")
    expect(game.power("Shuffle")).to_be_disabled()
    expect(game.message).to_have_text("Shuffle costs 1 gem; you have 0.")
    assert game.letters() == letters
    # 5: Pass. The bot's turn.
    page.keyboard.press("5")
    expect(game.whose_turn).not_to_have_text("Your turn")
