"""Your numbers, as a player meets them: a daily try played to its end on a desktop shows in
Stats; its export, imported on a phone's browser, shows the same numbers (and a second import
changes nothing); a bad file is refused with a reason; a file with sprints draws their chart,
also in forced colours, with no sideways scroll at 375 px."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.conftest import watch_console
from tests.e2e.wibble_page import WibblePage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e

SPRINT = 120  # seconds: the daily's length on this test's server (the try is ended at once, by hand)
# The README's picture of the Stats view: `WIBBLE_README_SCREENSHOTS=1` takes it again.
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "images" / "stats.png"
# The shipped English list's letter values (Scrabble's), for the sample's words.
POINTS = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyz",
        [1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10],
        strict=True,
    )
)
COMMON = "tone rates stone heat near tears notes earth hare rest ties line".split()


def record(game_id: str, mode: str, at: datetime, words: str, score: int = 0, **extra: Any) -> dict[str, Any]:
    """A game as the page exports it (static/js/store/stats.js); its score, its words' unless given."""
    played = [[word.upper(), sum(POINTS[c] for c in word)] for word in words.split()]
    score = score or sum(points for _, points in played)
    ms = int(at.timestamp() * 1000)
    return {"id": game_id, "mode": mode, "at": ms, "score": score, "words": played, **extra}


def sample_stats(now: datetime) -> dict[str, Any]:
    """Three weeks of a regular player's games, in the format the page exports."""
    games = []
    for i, score in enumerate([14, 22, 19, 31, 27, 36, 33, 41, 38, 47, 44, 52]):
        seconds = 180 if i % 3 == 2 else 60
        at = now - timedelta(days=21 - i * 1.7)
        words = f"{COMMON[i % 12]} quit jest {COMMON[(i + 5) % 12]}"
        games.append(record(f"g:sprint{i}", "sprint", at, words, score * seconds // 60, sprint=seconds))
    for i, days_ago in enumerate([11, 10, 8, 7, 4, 3, 2, 1, 0]):
        day = (now - timedelta(days=days_ago)).replace(hour=8)
        daily = {"date": day.date().isoformat(), "day": 332 - days_ago, "scored": True}
        games.append(record(f"g:daily{i}", "daily", day, f"{COMMON[i]} stone zest", 40 + 3 * i, daily=daily))
    bots = [["easy"], ["easy", "medium"], ["medium"], ["hard"], ["medium", "hard"], ["easy"]]
    for i, (levels, won) in enumerate(zip(bots, [True, True, False, False, True, True], strict=True)):
        beaten = [{"level": level, "beaten": won} for level in levels]
        at = now - timedelta(days=15 - 2 * i, hours=3)
        games.append(record(f"m:match{i}", "match", at, "quartz stone jinx heart", 60 + 7 * i, bots=beaten))
    for i in range(3):
        games.append(record(f"g:endless{i}", "endless", now - timedelta(days=18 - 6 * i), " ".join(COMMON)))
    return {"format": "wibble-stats", "version": 1, "exported": now.isoformat(), "games": games}


def open_stats(page: Page, *, by: str = "click") -> Locator:
    button = page.get_by_role("button", name="Stats")
    if by == "keys":
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.tap() if by == "tap" else button.click()
    dialog = page.get_by_role("dialog", name="Your numbers")
    expect(dialog).to_be_visible()
    return dialog


def rows(table: Locator) -> list[list[str]]:
    """A table's body, cell by cell (once it is drawn: the view draws it whole)."""
    expect(table).to_be_visible()
    found: list[list[str]] = table.locator("tbody tr").evaluate_all(
        "rows => rows.map(row => [...row.cells].map(cell => cell.textContent))"
    )
    return found


def import_file(page: Page, dialog: Locator, path: Path) -> None:
    with page.expect_file_chooser() as chooser:
        dialog.get_by_role("button", name="Import a file…").click()
    chooser.value.set_files(str(path))


@pytest.mark.usefixtures("definitions_compiled")
def test_a_daily_try_shows_in_stats_and_carries_to_a_phone_by_file(
    browser: Browser, start_server: Callable[..., LiveServer], en_trie: Trie, tmp_path: Path
) -> None:
    server = start_server("--data-dir", "", env={"WIBBLE_DAILY_SECONDS": str(SPRINT)})
    desktop = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    phone = browser.new_context(viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True)
    try:
        page = desktop.new_page()
        errors = watch_console(page)
        page.goto(f"{server.url}/daily")
        dialog = open_stats(page, by="keys")
        expect(dialog).to_contain_text("No games here yet.")  # what will appear, said before any game
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        expect(page.get_by_role("button", name="Stats")).to_be_focused()

        page.get_by_label("Name on the leaderboard").fill("Ann")
        page.get_by_role("button", name="Play today's board").click()
        game = WibblePage(page)
        game.wait_idle()
        word, points = game.score_word(en_trie)
        total = game.total_score()
        page.get_by_role("button", name="I'm done").click()
        page.get_by_role("button", name="End now").click()
        expect(page.locator("#sprint-over-title")).to_have_text(f"Done: {total} points")

        dialog = open_stats(page)
        numbers = dialog.get_by_test_id("stats-body")
        expect(numbers).to_contain_text("1 game and 1 word so far.")
        assert rows(dialog.get_by_test_id("stats-modes-table")) == [["Daily board", "1", "1", str(total)]]
        expect(dialog.get_by_test_id("stats-best")).to_contain_text(
            f"{word}: {points} pts, on a daily board on "
        )
        expect(dialog.get_by_test_id("stats-streak")).to_have_text("Streak: 1 day in a row. Days played: 1.")
        expect(dialog.get_by_test_id("stats-words").locator("li")).to_have_text(
            [re.compile(f"^{word}\\s*once$")]
        )
        shown = numbers.inner_text()
        with page.expect_download() as download:
            dialog.get_by_role("button", name="Export to a file").click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        assert re.fullmatch(r"wibble-stats-\d{4}-\d\d-\d\d\.json", saved.name)
        expect(dialog.get_by_test_id("stats-status")).to_have_text(
            f"Saved as {saved.name} (in your downloads)."
        )
        assert errors == [], "the page logged errors"

        # Another browser, a phone's: the same numbers from the file, and the same file again adds nothing.
        page = phone.new_page()
        errors = watch_console(page)
        page.goto(server.url)
        game = WibblePage(page)
        game.wait_idle()
        dialog = open_stats(page, by="tap")
        page.keyboard.type("ta1")  # keys are the dialog's, not the board's under it
        expect(game.current_word).to_have_text("")
        import_file(page, dialog, saved)
        status = dialog.get_by_test_id("stats-status")
        expect(status).to_have_text("Imported: 1 new game.")
        expect(dialog.get_by_test_id("stats-body")).to_have_text(shown, use_inner_text=True)
        import_file(page, dialog, saved)
        expect(status).to_have_text("Nothing new in that file: every game in it is here already.")
        expect(dialog.get_by_test_id("stats-body")).to_have_text(shown, use_inner_text=True)

        # Its words show their definitions, from the list they were played in, over the dialog.
        dialog.get_by_test_id("stats-words").get_by_role("button", name=word.upper(), exact=True).tap()
        popover = dialog.get_by_test_id("definition")
        expect(popover).to_be_visible()
        expect(popover.get_by_test_id("definition-text")).not_to_contain_text("Looking up")
        expect(popover).to_be_in_viewport(ratio=1)
        on_top = "el => { const r = el.getBoundingClientRect();"
        on_top += " return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }"
        assert popover.evaluate(on_top), "the definition is covered"
        page.keyboard.press("Escape")  # the definition closes; the dialog stays
        expect(popover).to_be_hidden()
        expect(dialog).to_be_visible()

        # A bad file: said why, and nothing changed.
        bad = tmp_path / "notes.json"
        bad.write_text(
            json.dumps({"format": "wibble-stats", "version": 1, "games": [{"id": "g:1", "mode": "sprint"}]})
        )
        import_file(page, dialog, bad)
        expect(status).to_have_text("That file is damaged (game 1 in it). Nothing was imported.")
        expect(dialog.get_by_test_id("stats-body")).to_have_text(shown, use_inner_text=True)

        # Sprints: their chart, described for a screen reader and as a table, within the phone's width.
        sample = tmp_path / "sample.json"
        sample.write_text(json.dumps(sample_stats(datetime.now(UTC))))
        import_file(page, dialog, sample)
        expect(status).to_have_text("Imported: 30 new games.")
        chart = dialog.get_by_role("img", name=re.compile(r"points per sprint, oldest to newest: 12 sprints"))
        expect(chart).to_be_visible()
        expect(dialog.get_by_test_id("stats-sprints-table").locator("tbody tr")).to_have_count(12)
        assert rows(dialog.get_by_test_id("stats-bots-table")) == [
            ["Easy bots", "3", "3"],
            ["Medium bots", "2", "3"],
            ["Hard bots", "1", "2"],
        ]
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        assert dialog.evaluate("d => d.scrollWidth <= d.clientWidth"), "the dialog scrolls sideways"
        # In forced colours the lines and markers are drawn in the text's colour, and the dialog has an edge.
        page.emulate_media(forced_colors="active")
        marker = dialog.locator(".stats-marker").first
        assert marker.evaluate("m => getComputedStyle(m).fill") not in ("none", "rgba(0, 0, 0, 0)")
        assert dialog.evaluate("d => getComputedStyle(d).borderTopStyle") == "solid"
        page.emulate_media(forced_colors="none")
        if os.environ.get("WIBBLE_README_SCREENSHOTS"):
            shoot_readme(browser, server, sample)
        dialog.get_by_role("button", name="Close").tap()
        expect(dialog).to_be_hidden()
        assert errors == [], "the page logged errors"
    finally:
        desktop.close()
        phone.close()


def shoot_readme(browser: Browser, server: LiveServer, sample: Path) -> None:
    """The README's picture: the Stats view on a sample of three weeks' play, on a desktop."""
    context = browser.new_context(viewport={"width": 900, "height": 1800}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(server.url)
        WibblePage(page).wait_idle()
        dialog = open_stats(page)
        import_file(page, dialog, sample)
        expect(dialog.get_by_test_id("stats-status")).to_contain_text("Imported")
        dialog.evaluate("d => d.querySelector('.stats-table-details').open = false")
        dialog.screenshot(path=str(SCREENSHOT))
    finally:
        context.close()
