"""A 2v2 in Chromium, one browser context a person, over two server processes sharing Redis: Ann
and Bo are team A (seats 1 and 3), two bots team B; someone watches. Ann's page is on one
process and Bo's and the watcher's on the other, so everything they see of each other crossed
Redis. Bo marks tiles for Ann (a click and the keyboard); Ann sees the marks, the watcher does
not; the match plays to its end screen with each team's words and total, and its replay shows the
teams; axe audits each new screen."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.e2e.test_accessibility import AXE, Audit
from tests.e2e.test_rooms import ROOM_SERVER, RoomPage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e


@pytest.fixture
def processes(start_server: Callable[..., LiveServer], redis_url: str) -> tuple[LiveServer, LiveServer]:
    """Two ``--redis`` processes; each page opens one by its own address, so who is where is known."""
    return (
        start_server("--redis", redis_url, env=ROOM_SERVER),
        start_server("--redis", redis_url, env=ROOM_SERVER),
    )


@pytest.fixture
def three(browser: Browser, processes: tuple[LiveServer, LiveServer]) -> Iterator[list[RoomPage]]:
    """Ann, Bo and a watcher, each in a context of their own (the audit's script let in)."""
    contexts: list[BrowserContext] = [
        browser.new_context(viewport={"width": 1100, "height": 900}, bypass_csp=True) for _ in range(3)
    ]
    pages = [RoomPage(context.new_page(), context) for context in contexts]
    yield pages
    for page in pages:
        assert page.errors == [], "a page logged errors"
    for context in contexts:
        context.close()


def test_a_2v2_with_two_people_and_two_bots_plays_to_its_end_across_two_processes(
    three: list[RoomPage], processes: tuple[LiveServer, LiveServer], en_trie: Trie
) -> None:
    ann, bo, watcher = three
    audit = Audit(AXE.read_text(encoding="utf-8"))
    first, second = processes

    # Ann makes a room on the first process and turns it into a 2v2 of one round.
    ann.open(first.url)
    ann.page.get_by_role("button", name="Friends").click()
    ann.give_name("Ann", "Create a room")
    ann.screen("lobby")
    code = ann.code()
    ann.page.get_by_label("What to play").select_option("teams")
    expect(ann.seats).to_have_count(4)
    expect(ann.seat(0)).to_contain_text("Team A")
    expect(ann.seat(1)).to_contain_text("Team B")
    ann.page.get_by_label("Match length").fill("1")
    ann.page.get_by_label("Match length").press("Enter")

    # Bo (on the second process) sits in seat 3, Ann's teammate; someone watches from there too.
    bo.page.goto(f"{second.url}/r/{code}")
    bo.give_name("Bo", "Join room")
    bo.screen("lobby")
    expect(bo.page.get_by_test_id("room-rules")).to_contain_text("Play: 2v2")
    bo.seat(2).get_by_role("button", name=re.compile("^Sit here")).click()
    expect(ann.seat(2)).to_contain_text("Bo")
    watcher.page.goto(f"{second.url}/r/{code}")
    watcher.give_name("Cy", "Join room")
    watcher.screen("lobby")
    audit(ann.page, "2v2 lobby (host)")

    # The match: bots fill team B; Ann plays first, and Bo may mark tiles for her.
    ann.page.get_by_role("button", name="Start match").click()
    for person in three:
        person.screen("match")
        expect(person.match_seats).to_have_count(4)
        expect(person.page.get_by_test_id("team-totals")).to_contain_text("Team A")
    expect(watcher.match_seats.nth(1)).to_contain_text("Team B")
    ann.wait_my_turn()
    expect(bo.whose_turn).to_have_text("Ann's turn: tap tiles to suggest")
    bo.page.bring_to_front()
    bo.tile(0, 0).click()
    bo.tile(1, 1).focus()
    bo.page.keyboard.press("Space")
    marked = ann.board.locator(".tile.suggested")
    expect(marked).to_have_count(2)
    expect(ann.tile(1, 1)).to_contain_text("suggested by Bo")
    expect(ann.message).to_have_text("Bo marks 2 tiles for you.")
    expect(bo.board.locator(".tile.suggested")).to_have_count(2)  # Bo sees what he marked
    expect(watcher.board.locator(".tile.suggested")).to_have_count(0)
    audit(ann.page, "2v2 match, a teammate's marks")
    bo.page.keyboard.press("Escape")  # Bo takes his marks back, then marks one again
    expect(marked).to_have_count(0)
    bo.tile(2, 2).click()
    expect(marked).to_have_count(1)

    # Each person plays a word on their turn; the bots play theirs.
    ann.play_a_word(en_trie)
    expect(marked).to_have_count(0)  # a suggestion is for the turn it was made in
    bo.wait_my_turn()
    bo.play_a_word(en_trie)

    # The end: each team's words and total, for everyone.
    for person in three:
        person.screen("over", timeout=20_000)
        results = person.page.get_by_test_id("team-results").locator(".team-result")
        expect(results).to_have_count(2)
        expect(results.nth(0)).to_contain_text("Team A")
        expect(results.nth(0).locator("li")).to_have_count(2)  # Ann's word and Bo's
        expect(results.nth(1)).to_contain_text("Team B")
    title = re.compile(r"^(Your team wins!|Team B wins|A tie!)$")
    expect(ann.page.locator("#over-title")).to_have_text(title)
    expect(ann.message).to_have_text(re.compile(r"^Match over — (your team wins|Team B wins|a tie)!$"))
    audit(ann.page, "2v2 over")

    # Its replay, from the other process: the seats in their teams, and each team's total at the end.
    bo.page.get_by_test_id("match-replay-link").click()
    seats = bo.page.get_by_test_id("replay-seats").locator("li")
    expect(seats).to_have_count(4)
    expect(seats.nth(2)).to_contain_text("Team A")
    bo.page.get_by_test_id("replay-last").click()
    expect(bo.page.get_by_test_id("replay-teams").locator("li")).to_have_count(2)
    audit(bo.page, "2v2 replay, the end")
    assert audit.report() == "", f"axe-core found:\n{audit.report()}"
