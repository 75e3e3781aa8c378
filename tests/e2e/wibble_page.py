"""Driving the Wibble page as a player does: read the tiles, drag across them, read the results."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from playwright.sync_api import Locator, Page, WebSocketRoute, expect

from tests.support import find_paths, messages_in
from wibble.core import Trie

Path = list[tuple[int, int]]

RECORD = """(() => {
  if (window.__seen) return;
  const seen = (window.__seen = { turn: [], breakdown: [], pause: [], drag: [], powers: [] });
  const text = (id) =>
    (document.querySelector(`[data-testid="${id}"]`)?.textContent ?? "").replace(/\\s+/g, " ").trim();
  const note = (key, value) => {
    const log = seen[key];
    if (value && log[log.length - 1] !== value) log.push(value);
  };
  const look = () => {
    const turn = text("whose-turn");
    note("turn", turn);
    const buttons = document.querySelectorAll('[data-testid="powers"] [data-power]');
    const powers = [...buttons].filter((b) => !b.hidden);
    const usable = powers.some((b) => b.getAttribute("aria-disabled") !== "true") ? "some" : "none";
    if (turn && powers.length) note("powers", `${turn}: ${usable} usable`);
    note("breakdown", text("breakdown"));
    const pause = document.querySelector('[data-testid="round-pause"]');
    if (pause && !pause.hidden) note("pause", text("round-pause"));
    const word = text("current-word");
    if (word && document.querySelector('[data-testid="board"]')?.dataset.owner === "other") {
      note("drag", `${text("word-owner")} ${word}`);
    }
  };
  const start = () => {
    look();
    const all = { attributes: true, childList: true, subtree: true, characterData: true };
    new MutationObserver(look).observe(document.body, all);
  };
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start);
})()"""
"""What a match's page showed, change by change, kept in the page (``window.__seen``): whose turn
it was, each word's breakdown, the pause between rounds, another seat's drag ("Ada: CA"), and
whether any power could be used on that turn ("Ada's turn: none usable").
These pass by themselves (a bot plays 0.2 s a tile in the tests), so on a busy machine a test
that looks for one with a second round trip may come after it has gone; it asks the record."""


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    letter: str
    score: int


class WibblePage:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.board = page.get_by_test_id("board")
        self.total = page.get_by_test_id("total-score")
        self.found = page.get_by_test_id("found-words")
        self.message = page.get_by_test_id("message")
        self.current_word = page.get_by_test_id("current-word")
        self.picker = page.get_by_test_id("wordlist")
        self.submit = page.get_by_role("button", name="Submit")
        self.banner = page.get_by_test_id("connection-status")
        self.tiles = self.board.locator("[data-row][data-col]")

    def record(self) -> None:
        """Keep what the page shows of a match as it changes (``RECORD``), from now on and after
        every reload; ``saw`` asks it."""
        self.page.add_init_script(RECORD)
        if self.page.url != "about:blank":
            self.page.evaluate(RECORD)

    def seen(self, key: str) -> int:
        """How many changes of ``key`` the page has recorded so far (for ``saw``'s ``since``)."""
        return int(self.page.evaluate("(key) => window.__seen?.[key].length ?? 0", key))

    def saw(self, key: str, text: str, timeout: float = 20_000, since: int = 0) -> str:
        """Wait until the page has shown ``text`` in ``key`` of ``RECORD``, however briefly, since
        its ``since``-th change (``seen``: a word played again must be looked for afresh); the
        whole of what it showed."""
        shown = self.page.wait_for_function(
            "([key, text, since]) => window.__seen?.[key].slice(since).find((value) => value.includes(text))",
            arg=[key, text, since],
            timeout=timeout,
        )
        return str(shown.json_value())

    # -- getting there -----------------------------------------------------------

    def open(self, base_url: str, **params: object) -> WibblePage:
        query = urlencode({k: v for k, v in params.items() if v is not None})
        self.page.goto(f"{base_url}/{'?' + query if query else ''}")
        self.wait_idle()
        return self

    def wait_idle(self) -> None:
        """Wait for a game on screen with nothing in flight (no chain, no unanswered move)."""
        expect(self.page.locator("body")).to_have_attribute("data-ready", "true")
        expect(self.page.locator("body")).to_have_attribute("data-phase", "idle")

    def your_games(self) -> Locator:
        """The buttons of "Your games", newest first."""
        return self.page.get_by_test_id("your-games").locator("[data-game-id]")

    def game_id(self) -> str:
        value = self.board.get_attribute("data-game-id")
        assert value
        return value

    def new_game(self) -> None:
        before = self.game_id()
        self.page.get_by_role("button", name="New game").click()
        expect(self.board).not_to_have_attribute("data-game-id", before)
        self.wait_idle()

    # -- reading -------------------------------------------------------------------

    def read_tiles(self) -> list[Tile]:
        rows = self.tiles.evaluate_all(
            "els => els.map(e => [+e.dataset.row, +e.dataset.col, e.dataset.letter, +e.dataset.score])"
        )
        return [Tile(*row) for row in rows]

    def grid(self) -> list[list[Tile]]:
        tiles = sorted(self.read_tiles(), key=lambda t: (t.row, t.col))
        size = max(t.row for t in tiles) + 1
        return [tiles[r * size : (r + 1) * size] for r in range(size)]

    def letters(self) -> list[list[str]]:
        return [[t.letter.lower() for t in row] for row in self.grid()]

    def total_score(self) -> int:
        return int(self.total.inner_text())

    def found_words(self) -> list[str]:
        return [text.split()[0] for text in self.found.locator("li").all_inner_texts()]

    def tile(self, row: int, col: int) -> Locator:
        return self.board.locator(f'[data-row="{row}"][data-col="{col}"]')

    def centre(self, row: int, col: int) -> tuple[float, float]:
        box = self.tile(row, col).bounding_box()
        assert box is not None
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    # -- words on the board ------------------------------------------------------

    def words(self, trie: Trie, min_length: int = 3) -> list[tuple[str, Path]]:
        """Every word the board allows, shortest paths first (quick to drag), then alphabetically."""
        found = list(find_paths(self.letters(), trie, min_length))
        return sorted(found, key=lambda wp: (abs(len(wp[1]) - 4), wp[0], wp[1]))

    def a_word(self, trie: Trie, avoid: Iterable[str] = ()) -> tuple[str, Path]:
        skip = {w.lower() for w in avoid}
        for word, path in self.words(trie):
            if word not in skip:
                return word, path
        raise AssertionError(f"no word on this board: {self.letters()}")

    def points(self, path: Path) -> int:
        grid = self.grid()
        return sum(grid[r][c].score for r, c in path)

    # -- playing -------------------------------------------------------------------

    def drag(self, path: Path, *, release: bool = True, steps: int = 4) -> None:
        """Press on the first tile, glide through the others' centres, and let go."""
        self.page.bring_to_front()  # input to a background tab is slow to be delivered
        mouse = self.page.mouse
        x, y = self.centre(*path[0])
        mouse.move(x, y)
        mouse.down()
        for row, col in path[1:]:
            x, y = self.centre(row, col)
            mouse.move(x, y, steps=steps)
        if release:
            mouse.up()

    def play(self, path: Path) -> None:
        """Drag a chain, let go, and wait until the server has judged it and refilled the board."""
        self.drag(path)
        self.wait_idle()

    def score_word(self, trie: Trie, avoid: Iterable[str] = ()) -> tuple[str, int]:
        """Find a word, drag it, and check that it scored its tiles' points."""
        word, path = self.a_word(trie, avoid)
        before, points = self.total_score(), self.points(path)
        self.play(path)
        expect(self.total).to_have_text(str(before + points))
        expect(self.found).to_contain_text(word.upper())
        return word.upper(), points


def until(predicate: Callable[[], bool], attempts: int, step: Callable[[], None]) -> bool:
    """Try ``predicate``; between failures run ``step`` (e.g. start a new game)."""
    for _ in range(attempts):
        if predicate():
            return True
        step()
    return predicate()


Message = dict[str, Any]


class SlowLink:
    """The page's websocket through a link the test controls, like a slow network.

    Set up before the page opens. Everything passes through at once, except that
    server frames with a message matching ``hold`` wait in ``held`` (in order; later ones queue
    behind them) until ``deliver()``. ``sent`` is every message the page sent.
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self.sent: list[Message] = []
        self.held: list[tuple[WebSocketRoute, str | bytes]] = []
        self.hold: Callable[[Message], bool] | None = None
        page.route_web_socket(re.compile(r"/ws(\?.*)?$"), self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            self.sent.append(json.loads(message))
            server.send(message)

        def down(message: str | bytes) -> None:
            hold = self.hold
            if self.held or (hold is not None and any(hold(m) for m in messages_in(message))):
                self.held.append((ws, message))
            else:
                ws.send(message)

        ws.on_message(up)
        server.on_message(down)

    def sent_of(self, kind: str) -> list[Message]:
        return [message for message in self.sent if message.get("type") == kind]

    def wait_held(self, predicate: Callable[[Message], bool], timeout: float = 5.0) -> None:
        """Wait until a held server message matches."""
        deadline = time.monotonic() + timeout
        while not any(predicate(m) for _, message in self.held for m in messages_in(message)):
            assert time.monotonic() < deadline, f"no such message held: {self.held}"
            self.page.wait_for_timeout(20)  # lets Playwright deliver the link's events

    def deliver(self) -> None:
        """Stop holding and pass on what was held, in order."""
        self.hold = None
        while self.held:
            ws, message = self.held.pop(0)
            ws.send(message)


def past_yesterdays_last_tries(daily_seconds: float) -> None:
    """Wait out the first moments of a UTC day, while the server keeps yesterday's board to itself
    (a try begun just before midnight runs ``daily_seconds`` past it, and ``core.daily.revealed``
    adds its margin): a test that opens yesterday's board runs after them, never in them."""
    from wibble.core.daily import REVEAL_MARGIN

    into_day = time.time() % 86_400
    closed = daily_seconds + REVEAL_MARGIN + 1.0
    if into_day < closed:
        time.sleep(closed - into_day)
