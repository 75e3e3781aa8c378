"""A match in the browser against the real server and a real bot: set up, play, watch, finish, rematch.

The server's bots are paced by BOT_THINK_SECONDS and BOT_STEP_SECONDS (wibble/web/app.py):
here a bot does not think, and drags a tile every BOT_STEP seconds, slow enough to watch.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect

from tests.e2e.conftest import watch_console
from tests.e2e.test_touch import finger_drag
from tests.e2e.wibble_page import Path, WibblePage
from tests.support import LiveServer, find_paths
from wibble.core import Trie

pytestmark = pytest.mark.e2e

BOT_PACE = {"WIBBLE_BOT_THINK_SECONDS": "0", "WIBBLE_BOT_STEP_SECONDS": "0.2"}
BOT = "Ada"  # the first bot's name (BOT_NAMES, wibble/core/match/settings.py)


@pytest.fixture
def match_server(start_server: Callable[..., LiveServer]) -> LiveServer:
    return start_server(env=BOT_PACE)


class MatchPage(WibblePage):
    """The page in match mode: its settings, its bar, its seats, its powers and its end screen."""

    def __init__(self, page: Page) -> None:
        super().__init__(page)
        self.body = page.locator("body")
        self.round = page.get_by_test_id("round")
        self.whose_turn = page.get_by_test_id("whose-turn")
        self.seats = page.get_by_test_id("seats").locator("li")
        self.plays = page.get_by_test_id("plays")
        self.breakdown = page.get_by_test_id("breakdown")
        self.hint = page.get_by_test_id("hint")
        self.pause = page.get_by_test_id("round-pause")
        self.over = page.get_by_test_id("match-over")
        self.record()  # (a bot's turn passes in a second: what it showed is asked of the record)

    def start(self, rounds: int) -> None:
        self.page.get_by_role("button", name="Match", exact=True).click()
        expect(self.page.get_by_test_id("match-setup")).to_be_visible()
        # One bot, an easy one: the default.
        expect(self.page.get_by_test_id("bot-list").locator("select")).to_have_count(1)
        expect(self.page.get_by_label("Bot 1", exact=True)).to_have_value("easy")
        self.page.get_by_label("Rounds").fill(str(rounds))
        self.page.get_by_role("button", name="Start match").click()
        self.wait_my_turn()

    def wait_my_turn(self) -> None:
        expect(self.whose_turn).to_have_text("Your turn", timeout=20_000)
        expect(self.body).to_have_attribute("data-phase", "idle")

    def match_id(self) -> str:
        value = self.board.get_attribute("data-match-id")
        assert value
        return value

    def power(self, name: str) -> Locator:
        return self.page.get_by_test_id("powers").get_by_role("button", name=name)

    def my_gems(self) -> int:
        return int(self.seats.nth(0).locator(".seat-gems").inner_text().split()[0])

    def gems(self) -> list[list[bool]]:
        rows = self.tiles.evaluate_all("els => els.map(e => [+e.dataset.row, +e.dataset.col, e.dataset.gem])")
        grid = [[False] * 5 for _ in range(5)]
        for row, col, gem in rows:
            grid[row][col] = gem == "true"
        return grid

    def gem_word(self, trie: Trie) -> tuple[str, Path, int]:
        """The word crossing the most gem tiles (a word earns a gem for each), shortest first."""
        gems = self.gems()
        found = [
            (word, path, sum(gems[r][c] for r, c in path))
            for word, path in find_paths(self.letters(), trie, 3)
        ]
        assert found, f"no word on this board: {self.letters()}"
        return max(found, key=lambda wpg: (wpg[2], -len(wpg[1]), wpg[0]))

    def hinted_path(self) -> Path:
        cells = self.board.locator(".tile.hinted").evaluate_all(
            "els => els.map(e => [+e.dataset.hint, +e.dataset.row, +e.dataset.col])"
        )
        return [(row, col) for _, row, col in sorted(cells)]

    def watch_the_bot_drag(self) -> str:
        """Wait until the bot's chain has shown on the board, under its name; the word it spelt
        (a drag lasts a few tenths of a second: it is asked of the page's record)."""
        return self.saw("drag", f"{BOT}: ").removeprefix(f"{BOT}: ")


@pytest.fixture
def match_page(page: Page, match_server: LiveServer, console_errors: list[str]) -> MatchPage:
    game = MatchPage(page)
    game.open(match_server.url)
    return game


def test_a_whole_match_against_an_easy_bot(match_page: MatchPage, en_trie: Trie) -> None:
    game, page = match_page, match_page.page
    endless = game.game_id()
    game.start(rounds=2)
    expect(game.round).to_have_text("Round 1 of 2")
    expect(game.seats).to_have_count(2)
    expect(game.seats.nth(0)).to_have_attribute("aria-current", "true")
    expect(game.seats.nth(1)).to_contain_text(BOT)
    expect(game.seats.nth(1)).to_contain_text("Bot · easy")
    expect(game.power("Hint")).to_be_disabled()  # 4 gems; a seat starts with 3
    # Pressed all the same (a finger has no key to try), it says why nothing happens.
    game.power("Hint").click(force=True)  # (force: Playwright will not click what reads disabled)
    expect(game.message).to_have_text("Hint costs 4 gems; you have 3.")
    # Turns are not timed: Extend (more time for a turn) is not offered at all.
    expect(page.get_by_test_id("powers").locator('[data-power="extend"]')).to_be_hidden()
    expect(game.power("Shuffle").locator(".key")).to_have_text("1")  # a desktop's keys, shown
    assert game.my_gems() == 3

    # Shuffle: the letters change places, the gems stay where they were.
    letters, gems = game.letters(), game.gems()
    game.power("Shuffle").click()
    expect(game.seats.nth(0).locator(".seat-gems")).to_contain_text("2")
    game.wait_my_turn()
    assert Counter(sum(game.letters(), [])) == Counter(sum(letters, []))
    assert game.letters() != letters
    assert game.gems() == gems

    # A word over as many gem tiles as the board has: it scores, and earns those gems.
    word, path, crossed = game.gem_word(en_trie)
    assert crossed >= 2, "a board with ten gems has a word over two of them"
    shown = game.seen("breakdown")
    game.drag(path)
    # (the bot plays next, at once: the breakdown may be its word's by the time one looks)
    assert "letters" in game.saw("breakdown", f"You played {word.upper()}: ", since=shown)
    mine_row = game.plays.locator("li").filter(has_text=f"R1 · You{word.upper()}")
    mine = int(re.findall(r"\d+", mine_row.locator(".found-points").inner_text())[0])
    expect(game.seats.nth(0).locator(".seat-score")).to_contain_text(str(mine))
    # (the gems come in a message of their own, after the word's: wait for them, don't read at once)
    expect(game.seats.nth(0).locator(".seat-gems")).to_have_text(re.compile(rf"^{2 + crossed}\b"))

    # The bot's turn: its drag shows live, then its word, then the pause before round 2.
    game.saw("powers", f"{BOT}'s turn: none usable")
    assert game.watch_the_bot_drag()
    expect(game.plays).to_contain_text(f"R1 · {BOT}")
    assert "Round 2 starts in" in game.saw("pause", "Round 1 of 2 done")
    game.wait_my_turn()
    expect(game.round).to_have_text("Round 2 of 2")
    expect(game.pause).to_be_hidden()

    # A hint: its path lit on the board and said in words; dragging it plays it.
    expect(game.power("Hint")).to_be_enabled()
    game.power("Hint").click()
    expect(game.hint).to_be_visible()
    expect(game.hint).to_contain_text("Hint: ")
    hinted = game.hint.inner_text().split()[1]
    expect(game.board.locator(".tile.hinted")).to_have_count(len(hinted))
    path = game.hinted_path()
    assert "".join(game.letters()[r][c] for r, c in path).upper() == hinted
    game.drag(path)
    expect(game.plays).to_contain_text(f"R2 · You{hinted}")
    expect(game.hint).to_be_hidden()
    hinted_points = int(
        re.findall(
            r"\d+",
            game.plays.locator("li")
            .filter(has_text=f"R2 · You{hinted}")
            .first.locator(".found-points")
            .inner_text(),
        )[0]
    )
    # Your best word on the end screen: the hint (the best of round 2's board) unless round 1's
    # gem word scored as much or more (the boards are random: seen once, PUSHER 27 over CHRONON).
    best = hinted if hinted_points > mine else word.upper()  # (a tie keeps the earlier word)

    # The bot plays its last turn, and the match is over.
    expect(game.body).to_have_attribute("data-screen", "over", timeout=20_000)
    expect(game.over).to_be_visible()
    expect(game.over.get_by_role("heading", level=2)).to_be_focused()
    ranking = game.page.get_by_test_id("ranking").locator("li")
    expect(ranking).to_have_count(2)
    scores = [int(re.findall(r"\d+", text)[0]) for text in ranking.locator(".rank-score").all_inner_texts()]
    assert scores == sorted(scores, reverse=True)
    expect(ranking.filter(has_text="You")).to_contain_text(f"Best word: {best}")
    # By its row, not by its name's text: a word of yours may contain it ("RADARS" holds "Ada").
    bots_row = game.page.get_by_test_id("ranking").locator('li[data-you="false"]')
    expect(bots_row).to_contain_text(BOT)
    expect(bots_row).to_contain_text("Best word: ")
    turns = game.page.get_by_test_id("turns").locator("li")
    expect(turns).to_have_count(4)  # two rounds, two seats
    expect(turns.nth(0)).to_contain_text(f"Round 1 · You{word.upper()}")
    expect(turns.nth(2)).to_contain_text(f"Round 2 · You{hinted}")
    for i in range(4):
        expect(turns.nth(i)).to_contain_text("Best on the board: ")
    # The hint was the best word on the board: beside it, the end screen says so.
    expect(turns.nth(2)).to_have_attribute("data-best", "true")
    entry = game.page.get_by_test_id("your-games").locator(f'[data-match-id="{game.match_id()}"]')
    expect(entry).to_contain_text("over")
    # A reload draws the same end screen from the snapshot alone: the best word of each turn,
    # hidden while the match ran (a hint sells it), is there once the match is over.
    page.reload()
    expect(game.body).to_have_attribute("data-screen", "over")
    turns = game.page.get_by_test_id("turns").locator("li")
    expect(turns).to_have_count(4)
    for i in range(4):
        expect(turns.nth(i)).to_contain_text("Best on the board: ")
    expect(turns.nth(2)).to_have_attribute("data-best", "true")

    # Rematch: a fresh match, the same seats.
    old = game.match_id()
    page.get_by_role("button", name="Rematch").click()
    expect(game.board).not_to_have_attribute("data-match-id", old)
    game.wait_my_turn()
    expect(game.round).to_have_text("Round 1 of 2")
    expect(game.seats.nth(1)).to_contain_text(BOT)
    expect(game.seats.nth(0).locator(".seat-score")).to_contain_text("0")
    expect(game.plays.locator("li")).to_have_count(0)

    # And back to the endless game this tab was playing.
    page.get_by_role("button", name="Endless").click()
    expect(game.body).to_have_attribute("data-screen", "endless")
    game.wait_idle()
    assert game.game_id() == endless


def test_the_match_set_up_says_which_word_list_it_plays_and_another_can_be_chosen(
    match_page: MatchPage, match_server: LiveServer
) -> None:
    game, page = match_page, match_page.page
    page.get_by_role("button", name="Match", exact=True).click()
    picker = page.get_by_label("Word list", exact=True).and_(page.get_by_test_id("setup-wordlist"))
    expect(picker).to_have_value("en")  # the list being played, unless another is chosen
    expect(picker.locator("option:checked")).to_have_text("English (ENABLE)")
    picker.select_option("es")
    page.get_by_role("button", name="Start match").click()
    game.wait_my_turn()
    record = page.request.get(f"{match_server.url}/games/{game.match_id()}/record").json()
    assert record["wordlist"]["name"] == "es"


def test_a_match_resumes_after_a_reload_and_keeps_its_turn_clock(match_page: MatchPage) -> None:
    game, page = match_page, match_page.page
    page.get_by_role("button", name="Match", exact=True).click()
    page.get_by_label("Turn timer (30 seconds a turn)").check()
    page.get_by_role("button", name="Start match").click()
    game.wait_my_turn()
    timer = page.get_by_test_id("timer")
    expect(timer).to_be_visible()
    # A few seconds in, so that a clock started again (30) cannot pass for one that went on.
    expect(timer).to_have_attribute("aria-label", re.compile(r"^2[0-7] seconds left$"), timeout=10_000)
    mid = game.match_id()
    before, reloading = int(page.locator(".timer-text").inner_text()), time.monotonic()

    page.reload()

    game.wait_my_turn()
    assert game.match_id() == mid
    left, took = int(page.locator(".timer-text").inner_text()), time.monotonic() - reloading
    assert before - took - 2 <= left <= before + 1, "the clock goes on where it was, it does not start again"
    game.power("Extend").click()  # 15 seconds more, for a gem
    expect(page.locator(".timer-text")).to_have_text(re.compile(r"^[34]\d$"))
    expect(game.seats.nth(0).locator(".seat-gems")).to_contain_text("2")
    # Pass: the turn goes to the bot, which plays and hands it back.
    game.power("Pass").click()
    expect(game.plays).to_contain_text(BOT, timeout=20_000)
    game.wait_my_turn()


def test_a_word_played_with_the_keyboard_and_a_swap_in_the_middle_of_it(
    match_page: MatchPage, en_trie: Trie
) -> None:
    game, page = match_page, match_page.page
    game.start(rounds=1)
    keyboard = page.keyboard
    # Two tiles chosen with the keyboard, then a swap of the second one, mid-word.
    game.tile(0, 0).focus()
    keyboard.press("Space")
    keyboard.press("ArrowRight")
    keyboard.press("Space")
    first = game.letters()[0][0].upper()
    game.power("Swap").click()
    expect(page.get_by_test_id("swap-picker")).to_contain_text("pick the tile")
    expect(game.tile(0, 1)).to_be_focused()  # back on the board, to pick with Space
    keyboard.press("Space")
    picker = page.get_by_test_id("swap-letters")
    letter = "Z" if game.letters()[0][1] != "z" else "Q"
    expect(picker.get_by_role("button", name=game.letters()[0][1].upper(), exact=True)).to_be_disabled()
    was = game.letters()[0][1].upper()
    picker.get_by_role("button", name=letter, exact=True).click()
    expect(game.message).to_have_text(f"You swapped {was} for {letter}.")  # as Shuffle and Hint say theirs
    expect(game.current_word).to_have_text(first + letter)
    expect(game.tile(0, 1)).to_have_attribute("data-letter", letter)
    expect(game.seats.nth(0).locator(".seat-gems")).to_contain_text("0")
    keyboard.press("Escape")
    expect(game.current_word).to_have_text("")

    # Then a whole word with the keyboard, submitted with Enter.
    word, path = game.a_word(en_trie)
    game.tile(0, 0).focus()
    at = (0, 0)
    for row, col in path:
        for _ in range(abs(row - at[0])):
            keyboard.press("ArrowDown" if row > at[0] else "ArrowUp")
        for _ in range(abs(col - at[1])):
            keyboard.press("ArrowRight" if col > at[1] else "ArrowLeft")
        at = (row, col)
        keyboard.press("Space")
    expect(game.current_word).to_have_text(word.upper())
    keyboard.press("Enter")
    game.saw("breakdown", f"You played {word.upper()}: ")  # (the bot's word may follow at once)


PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    yield context
    context.close()


def test_a_match_on_a_phone(phone: BrowserContext, match_server: LiveServer, en_trie: Trie) -> None:
    page = phone.new_page()
    errors = watch_console(page)
    game = MatchPage(page)
    game.open(match_server.url)
    game.start(rounds=1)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (
        "the page scrolls sideways"
    )
    for part in (game.board, game.whose_turn, page.get_by_test_id("powers")):
        expect(part).to_be_in_viewport()
    # A phone has no keys 1 to 5: its power buttons show none.
    keys = page.get_by_test_id("powers").locator(".key")
    expect(keys).to_have_count(5)
    for n in range(5):
        expect(keys.nth(n)).to_be_hidden()
    word, path = game.a_word(en_trie)

    finger_drag(phone, page, [game.centre(r, c) for r, c in path])

    game.saw("breakdown", f"You played {word.upper()}: ")  # (the bot's word may follow at once)
    assert game.watch_the_bot_drag()
    expect(game.body).to_have_attribute("data-screen", "over", timeout=20_000)
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == []
