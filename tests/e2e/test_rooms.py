"""Playing with friends, in three browsers against the real server: a host on a desktop, a
friend on a phone (touch), and someone who watches. A room is made, its link shared and
opened, seats taken, a short match played to its end (the friend's page reloaded in the
middle of it), and a rematch; names are shown as text, never as markup.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect

from tests.deployment import Deployment
from tests.e2e.conftest import free_port, watch_console
from tests.e2e.test_resume import retry_now
from tests.e2e.test_touch import finger_drag
from tests.e2e.wibble_page import WibblePage
from tests.support import LiveServer
from wibble.core import Trie

pytestmark = pytest.mark.e2e

# A bot that does not think and drags a tile every 0.2 s (as in test_match.py); rooms and
# joins without budgets (every test comes from 127.0.0.1).
ROOM_SERVER = {
    "WIBBLE_BOT_THINK_SECONDS": "0",
    "WIBBLE_BOT_STEP_SECONDS": "0.2",
    "WIBBLE_ROOMS_PER_MINUTE": "1000000",
    "WIBBLE_FAILED_JOINS_PER_MINUTE": "1000000",
}
PHONE: ViewportSize = {"width": 390, "height": 844}
# Markup as a name, 20 characters: shown as these characters, never as an element.
MARKUP_NAME = "<i>Bo</i><img src=x>"
ROOM_LINK = re.compile(r"/r/([2-9A-HJKMNP-Z]{6})$")


@pytest.fixture
def room_server(
    request: pytest.FixtureRequest, start_server: Callable[..., LiveServer], tmp_path: Path
) -> Iterator[LiveServer | Deployment]:
    """One server process; or, asked for "behind nginx", two ``--redis`` processes behind nginx as
    docs/deploy.md sets them up (each page's socket lands on either, a reload maybe on the other)."""
    if getattr(request, "param", "one process") == "behind nginx":
        site = Deployment(request.getfixturevalue("redis_url"), tmp_path, env=ROOM_SERVER)
        yield site
        site.stop()
    else:
        yield start_server(env=ROOM_SERVER)


class RoomPage(WibblePage):
    """One person's page in a room: the forms, the lobby's seats and rules, the match on top."""

    def __init__(self, page: Page, context: BrowserContext) -> None:
        super().__init__(page)
        self.context = context
        self.body = page.locator("body")
        self.seats = page.get_by_test_id("room-seats").locator("li")
        self.name_field = page.get_by_label("Your name")
        self.name_error = page.get_by_test_id("name-error")
        self.whose_turn = page.get_by_test_id("whose-turn")
        self.breakdown = page.get_by_test_id("breakdown")
        self.match_seats = page.get_by_test_id("seats").locator("li")
        self.errors = watch_console(page)
        self.record()  # (a bot's turn passes in a second: what it showed is asked of the record)
        self.dialogs: list[str] = []
        page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))

    def screen(self, name: str, timeout: float = 15_000) -> None:
        expect(self.body).to_have_attribute("data-screen", name, timeout=timeout)

    def give_name(self, name: str, button: str) -> None:
        self.name_field.fill(name)
        self.page.get_by_role("button", name=button).click()

    def code(self) -> str:
        found = ROOM_LINK.search(self.page.url)
        assert found, f"not a room's link: {self.page.url}"
        return found.group(1)

    def seat(self, index: int) -> Locator:
        return self.seats.nth(index)

    def match_id(self) -> str:
        value = self.board.get_attribute("data-match-id")
        assert value
        return value

    def wait_my_turn(self) -> None:
        expect(self.whose_turn).to_have_text("Your turn", timeout=20_000)
        expect(self.body).to_have_attribute("data-phase", "idle")

    def tap(self, locator: Locator) -> None:
        """A finger on a phone, a click elsewhere."""
        if self.page.viewport_size == PHONE:
            locator.tap()
        else:
            locator.click()

    def play_a_word(self, trie: Trie) -> str:
        """Drag a word (with a finger on the phone), and wait for the server to score it."""
        word, path = self.a_word(trie)
        shown = self.seen("breakdown")
        if self.page.viewport_size == PHONE:
            finger_drag(self.context, self.page, [self.centre(r, c) for r, c in path])
        else:
            self.drag(path)
        self.saw("breakdown", f"You played {word.upper()}: ", since=shown)  # (a bot's may follow at once)
        return word.upper()

    def saved_games(self) -> str:
        return str(self.page.evaluate("localStorage.getItem('wibble.games') ?? ''"))

    def saved_rooms(self) -> dict[str, dict[str, object]]:
        return dict(json.loads(self.page.evaluate("localStorage.getItem('wibble.rooms') ?? '{}'")))


@pytest.fixture
def people(
    browser: Browser, room_server: LiveServer | Deployment
) -> Iterator[tuple[RoomPage, RoomPage, RoomPage]]:
    """The host (desktop, with the clipboard allowed), the friend (a phone), and a watcher."""
    host = browser.new_context(viewport={"width": 1100, "height": 900})
    host.grant_permissions(["clipboard-read", "clipboard-write"], origin=room_server.url)
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    watcher = browser.new_context(viewport={"width": 1000, "height": 800})
    pages = (
        RoomPage(host.new_page(), host),
        RoomPage(phone.new_page(), phone),
        RoomPage(watcher.new_page(), watcher),
    )
    yield pages
    for page in pages:
        assert page.errors == [], "a page logged errors"
        assert page.dialogs == [], "a name ran as markup"
    for context in (host, phone, watcher):
        context.close()


def make_a_room(host: RoomPage, server: LiveServer | Deployment) -> str:
    """From the main page: Friends, a name, "Create a room"; the address bar becomes the room's link."""
    host.open(server.url)
    host.page.get_by_role("button", name="Friends").click()
    host.screen("room-entry")
    expect(host.name_field).to_be_focused()
    host.give_name("   ", "Create a room")
    expect(host.name_error).to_have_text("Your name needs 1 to 20 characters.")
    host.give_name("Ann", "Create a room")
    host.screen("lobby")
    expect(host.page).to_have_url(ROOM_LINK)
    code = host.code()
    expect(host.page.get_by_test_id("room-code")).to_have_text(code)
    expect(host.seat(0)).to_contain_text("Ann")
    expect(host.seat(0)).to_contain_text("Host")
    expect(host.seats.filter(has_text="Free seat")).to_have_count(5)
    return code


@pytest.mark.parametrize("room_server", ["one process", "behind nginx"], indirect=True)
def test_friends_make_a_room_play_a_match_reload_and_rematch(
    people: tuple[RoomPage, RoomPage, RoomPage], room_server: LiveServer | Deployment, en_trie: Trie
) -> None:
    host, friend, watcher = people
    code = make_a_room(host, room_server)
    link = f"{room_server.url}/r/{code}"

    # The link, copied for the friends.
    expect(host.page.get_by_test_id("room-link")).to_have_value(link)
    host.page.get_by_role("button", name="Copy link").click()
    expect(host.message).to_have_text("Link copied. Send it to your friends.")
    assert host.page.evaluate("navigator.clipboard.readText()") == link

    # The friend opens it on a phone: a name is asked for; the server's refusal shows by the field.
    friend.page.goto(link)
    friend.screen("room-entry")
    expect(friend.page.get_by_role("heading", name=f"Room {code}")).to_be_visible()
    friend.give_name("Bo\u200b", "Join room")  # an invisible character: the server refuses it
    expect(friend.name_error).to_contain_text("name")
    expect(friend.name_field).to_have_attribute("aria-invalid", "true")
    friend.give_name(MARKUP_NAME, "Join room")
    friend.screen("lobby")
    expect(friend.page.get_by_test_id("room-you")).to_have_text("You are watching. Take a free seat to play.")
    friend.tap(friend.seat(1).get_by_role("button", name=re.compile("^Sit here")))
    expect(friend.seat(1)).to_contain_text("you")
    expect(friend.page.get_by_test_id("room-you")).to_have_text("You are in seat 2.")
    assert friend.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Everyone sees the name as the characters typed, and no element made of them.
    name = host.seat(1).locator(".room-seat-name")
    expect(name).to_have_text(MARKUP_NAME)
    expect(host.page.get_by_test_id("room-seats").locator("img, i")).to_have_count(0)

    # Someone else watches.
    watcher.page.goto(link)
    watcher.give_name("Cy", "Join room")
    watcher.screen("lobby")
    expect(host.page.get_by_test_id("spectators")).to_have_text("1 watching")
    expect(watcher.seat(1).locator(".room-seat-name")).to_have_text(MARKUP_NAME)
    expect(watcher.page.get_by_test_id("room-wait")).to_have_text("Waiting for Ann to start the match…")

    # The host's rules: one round, a bot in the third seat. Only the host sees the form. A length
    # past the longest is set as the longest, and the field says so at once.
    host.page.get_by_label("Match length").fill("50")
    host.page.get_by_label("Match length").press("Enter")
    expect(watcher.page.get_by_test_id("room-rules")).to_contain_text("20 rounds")
    expect(host.page.get_by_label("Match length")).to_have_value("20")
    host.page.get_by_label("Match length").fill("1")
    host.page.get_by_label("Match length").press("Enter")
    expect(watcher.page.get_by_test_id("room-rules")).to_contain_text("1 round")
    expect(friend.page.get_by_test_id("room-rules-form")).to_be_hidden()
    host.seat(2).get_by_role("button", name=re.compile("^Add a bot")).click()
    expect(host.seat(2)).to_contain_text("Bot · easy")
    expect(watcher.seat(2)).to_contain_text("Bot · easy")

    # The match: the host plays first, the friend waits, the watcher watches.
    host.page.get_by_role("button", name="Start match").click()
    for person in people:
        person.screen("match")
        expect(person.page.get_by_test_id("round")).to_have_text("Round 1 of 1")
        expect(person.match_seats).to_have_count(3)
    host.wait_my_turn()
    expect(friend.whose_turn).to_have_text("Ann's turn")
    expect(watcher.whose_turn).to_have_text("Ann's turn")
    expect(watcher.page.get_by_test_id("room-bar")).to_contain_text("Watching")
    expect(watcher.page.get_by_test_id("powers")).to_be_hidden()
    expect(friend.page.get_by_test_id("powers")).to_be_visible()
    expect(host.match_seats.nth(1).locator(".seat-name")).to_have_text(MARKUP_NAME)
    mid = host.match_id()

    word = host.play_a_word(en_trie)
    expect(watcher.breakdown).to_contain_text(f"Ann played {word}: ")
    friend.wait_my_turn()

    # The friend's phone reloads mid-match: back in the seat, on the same turn, no name asked.
    friend.page.reload()
    friend.screen("match")
    friend.wait_my_turn()
    assert friend.match_id() == mid
    expect(host.match_seats.nth(1)).to_have_attribute("data-presence", "online")
    friend_word = friend.play_a_word(en_trie)
    host.saw("breakdown", f"{MARKUP_NAME} played {friend_word}: ")  # (the bot plays next, at once)

    # The bot plays the last turn; everyone gets the end screen, and only the host a Rematch.
    for person in people:
        person.screen("over", timeout=20_000)
        expect(person.page.get_by_test_id("ranking").locator("li")).to_have_count(3)
    expect(host.page.get_by_role("button", name="Rematch")).to_be_visible()
    for person in (friend, watcher):
        expect(person.page.get_by_role("button", name="Rematch")).to_be_hidden()
    expect(friend.page.get_by_test_id("rematch-wait")).to_have_text("Waiting for Ann to start a rematch…")
    expect(watcher.page.get_by_test_id("rematch-wait")).to_have_text(
        "You are watching. Waiting for Ann to start a rematch…"
    )
    # A room's match is the room's, never one of "Your games".
    assert mid not in host.saved_games()
    assert mid not in friend.saved_games()
    assert friend.saved_rooms()[code]["token"], "the friend's seat token is kept for the room"

    # Rematch: the same room, seats and host, a new match.
    host.page.get_by_role("button", name="Rematch").click()
    for person in people:
        person.screen("match")
        expect(person.board).not_to_have_attribute("data-match-id", mid)
        expect(person.page.get_by_test_id("round")).to_have_text("Round 1 of 1")
    host.wait_my_turn()
    expect(friend.match_seats.nth(0)).to_contain_text("Ann")
    expect(friend.match_seats.nth(1)).to_have_attribute("data-you", "true")
    assert friend.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_removed_friend_watches_and_stays_a_watcher_after_a_reload(
    people: tuple[RoomPage, RoomPage, RoomPage], room_server: LiveServer
) -> None:
    host, friend, _ = people
    code = make_a_room(host, room_server)
    # The friend pastes the room's link (as "Copy link" gave it, a space and all) into "Have a code?".
    friend.open(room_server.url)
    friend.page.get_by_role("button", name="Friends").click()
    friend.page.get_by_label("Have a code?").fill(f" {room_server.url}/r/{code.lower()} ")
    friend.page.get_by_label("Have a code?").press("Enter")
    expect(friend.page).to_have_url(f"{room_server.url}/r/{code}")
    friend.give_name("Bo", "Join room")
    friend.screen("lobby")
    friend.tap(friend.seat(3).get_by_role("button", name=re.compile("^Sit here")))
    expect(host.seat(3)).to_contain_text("Bo")
    expect(host.page.get_by_role("button", name="Start match")).to_be_enabled()

    # With the keyboard: a bot in seat 2, and the focus stays in that seat (on its level now).
    host.seat(1).get_by_role("button", name=re.compile("^Add a bot")).focus()
    host.page.keyboard.press("Enter")
    expect(host.seat(1)).to_contain_text("Bot · easy")
    level = host.seat(1).get_by_label("Level of Ada")
    expect(level).to_be_focused()
    level.select_option("hard")
    expect(friend.seat(1)).to_contain_text("Bot · hard")
    host.seat(1).get_by_role("button", name=re.compile("^Remove")).click()
    expect(friend.seat(1)).to_contain_text("Free seat")

    # A person's seat takes a second press (a bot's, above, one): the first only asks.
    host.seat(3).get_by_role("button", name=re.compile("^Remove")).click()
    expect(host.message).to_contain_text("Remove Bo? They lose the seat")
    expect(friend.seat(3)).to_contain_text("Bo")
    host.seat(3).get_by_role("button", name=re.compile("^Remove now")).click()

    expect(friend.message).to_have_text("The host removed you from your seat; you are watching.")
    expect(friend.page.get_by_test_id("room-you")).to_have_text("You are watching. Take a free seat to play.")
    expect(host.seat(3)).to_contain_text("Free seat")
    expect(host.page.get_by_role("button", name="Start match")).to_be_disabled()
    why = host.page.get_by_test_id("room-wait")
    expect(why).to_have_text("Fill at least two seats (friends or bots) to start.")
    assert friend.saved_rooms()[code]["token"] is None
    friend.page.reload()
    friend.screen("lobby")  # no name asked again
    expect(friend.page.get_by_test_id("room-you")).to_have_text("You are watching. Take a free seat to play.")

    # Leaving the room goes home, and the room is forgotten here.
    friend.page.get_by_role("button", name="Leave room").click()
    expect(friend.page).to_have_url(f"{room_server.url}/")
    friend.wait_idle()
    assert code not in friend.saved_rooms()
    expect(host.page.get_by_test_id("spectators")).to_have_text("Nobody is watching.")


@pytest.mark.parametrize("code", ["ZZZZZZ", "no-such-room"])
def test_a_link_to_no_room_says_so_before_asking_a_name(
    page: Page, room_server: LiveServer, console_errors: list[str], code: str
) -> None:
    """A code no room has, or one that cannot be a code: said at once, and no name is asked."""
    page.goto(f"{room_server.url}/r/{code}")
    gone = page.get_by_test_id("room-gone")
    expect(gone).to_be_visible()
    expect(gone).to_have_text("No room with that code (it may have closed). Back to Wibble")
    expect(page.get_by_role("heading", name=f"Room {code.upper()}")).to_be_visible()
    expect(page.get_by_label("Your name")).to_be_hidden()
    expect(page.get_by_role("button", name="Join room")).to_be_hidden()
    gone.get_by_role("link", name="Back to Wibble").click()
    expect(page).to_have_url(f"{room_server.url}/")
    WibblePage(page).wait_idle()


def closed(page: Page, server: LiveServer) -> None:
    """Wait until the server holds no room (its health check says so), asking from ``page``.
    The predicate itself is synchronous: one returning a promise would count as true at once."""
    page.wait_for_function(
        """(url) => {
            window.healthProbe ??= fetch(url).then((r) => r.json()).then((health) => {
                window.roomsOpen = health.rooms;
                window.healthProbe = null;
            });
            return window.roomsOpen === 0;
        }""",
        arg=f"{server.url}/healthz",
        polling=100,
        timeout=15_000,
    )


def test_a_room_that_closes_after_its_link_was_opened_says_so_once_the_name_is_given(
    browser: Browser, start_server: Callable[..., LiveServer]
) -> None:
    live = start_server(env={**ROOM_SERVER, "WIBBLE_ROOM_EMPTY_SECONDS": "1"})
    contexts = [browser.new_context(), browser.new_context()]
    host, friend = (RoomPage(context.new_page(), context) for context in contexts)
    code = make_a_room(host, live)
    friend.page.goto(f"{live.url}/r/{code}")
    expect(friend.name_field).to_be_visible()
    # The host leaves; nobody is in the room, and it closes a second later.
    host.page.get_by_role("button", name="Leave room").click()
    expect(host.page).to_have_url(f"{live.url}/")
    closed(friend.page, live)
    friend.give_name("Bo", "Join room")
    gone = friend.page.get_by_test_id("room-gone")
    expect(gone).to_be_visible()
    expect(gone).to_have_text("No room with that code (it may have closed). Back to Wibble")
    expect(friend.name_field).to_be_hidden()
    assert code not in friend.saved_rooms()
    for page in (host, friend):
        assert page.errors == []
    for context in contexts:
        context.close()


def test_a_room_and_its_match_come_back_after_a_server_restart(
    browser: Browser, start_server: Callable[..., LiveServer], tmp_path: Path, en_trie: Trie
) -> None:
    port = free_port()
    serve = ("--port", str(port), "--data-dir", str(tmp_path))
    live = start_server(*serve, env=ROOM_SERVER)
    context = browser.new_context()
    host = RoomPage(context.new_page(), context)
    code = make_a_room(host, live)
    host.seat(1).get_by_role("button", name=re.compile("^Add a bot")).click()
    host.page.get_by_label("Timed turns, 30 seconds each").check()
    expect(host.page.get_by_label("Timed turns, 30 seconds each")).to_be_checked()
    host.page.get_by_role("button", name="Start match").click()
    host.screen("match")
    host.wait_my_turn()
    mid = host.match_id()

    live.stop()  # SIGTERM: every websocket is closed with 1012, "service restart"
    expect(host.banner).to_contain_text("Server restarting, reconnecting")
    start_server(*serve, env=ROOM_SERVER)
    retry_now(host.page)

    # Joined again with the seat's token: the same match, the same turn, its clock still running.
    expect(host.banner).to_be_hidden()
    host.screen("match")
    host.wait_my_turn()
    assert host.match_id() == mid
    assert host.page.url.endswith(f"/r/{code}")
    expect(host.page.get_by_test_id("timer")).to_be_visible()
    host.play_a_word(en_trie)
    host.saw("turn", "Ada's turn")
    assert [e for e in host.errors if "WebSocket connection to" not in e] == []
    context.close()
