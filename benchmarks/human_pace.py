"""How fast can a person play the daily board? The figures behind ``wibble.core.pace.MOST_TILES``.

Starts ``wibble serve`` with a short daily sprint and plays it, start to end, as the fastest
person could and as a program does, each a scored try of its own (a player of its own):

- ``type``: a typist in headless Chromium, type-to-spell on /daily: each word's letters typed
  ``--key-ms`` apart (80 ms: 150 words a minute, a fast typist's pace), then Enter, and the
  next word typed the moment the refilled board is on screen. No time at all is spent finding
  a word (the test suite's search finds one at once), which no person can match: the figure
  is an upper bound on people. Two choices of word: ``short`` (the shortest the board holds:
  the most words) and ``long`` (the longest, up to 8 letters: the most tiles per Enter).
- ``drag``: the same on a phone-sized touch page, dragging with the mouse: ``--tile-ms`` (60 ms)
  from each tile's centre to the next, let go, the next word at once.
- ``solver``: a program on a websocket: the best-scoring word of each board (the test suite's
  search), its press, enters and release sent at ``--rate`` messages a second (40: the
  server's per-connection limit), the next word as soon as the refill comes.

Each try is ended by its clock and scored by the server, whose ``leaderboard`` reply tells
its player their pace as the server judged it (``you.pace``: the tiles of the words scored
in its busiest 10 s, from the times the server stamped, never the client's). Reported per
try: words, tiles, points, and that peak; the bound is then set above the fastest person's
peak with a margin (docs/benchmarks.md).

    .venv/bin/python -m benchmarks.human_pace [--seconds 20] [--key-ms 80] [--tile-ms 60] [--rate 40]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, WebSocket, sync_playwright
from websocket import create_connection

from tests.browser import find_chromium
from tests.e2e.wibble_page import WibblePage
from tests.support import WS_PATH, LiveServer, find_paths, messages_in, shipped_list
from wibble.core import Trie
from wibble.core.pace import MOST_TILES, WINDOW

Path = list[tuple[int, int]]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}


def pick(letters: list[list[str]], trie: Trie, found: set[str], choice: str) -> tuple[str, Path]:
    """A word the board holds and the try has not found: the shortest, the longest (≤ 8) or the best."""
    words = [(w, p) for w, p in find_paths(letters, trie, 3) if w not in found and len(w) <= 8]
    if choice == "short":
        return min(words, key=lambda wp: (len(wp[0]), wp[0]))
    if choice == "long":
        return max(words, key=lambda wp: (len(wp[0]), wp[0]))
    raise ValueError(choice)


class Frames:
    """The page's websocket frames as they arrive: the leaderboard, and each word judged."""

    def __init__(self, page: Page) -> None:
        self.board: dict[str, Any] | None = None
        self.words = 0
        self.over = False
        page.on("websocket", self._watch)

    def _watch(self, ws: WebSocket) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        try:
            messages = messages_in(payload)
        except ValueError:
            return
        for message in messages:
            kind = message.get("type")
            if kind == "word" and message.get("result") == "scored":
                self.words += 1
            elif kind == "over":
                self.over = True
            elif kind == "leaderboard" and message.get("you"):
                self.board = message


def play_page(
    page: Page, url: str, trie: Trie, name: str, move: Callable[[WibblePage, Path, str], None], choice: str
) -> dict[str, Any]:
    """One scored try on /daily, each word played by ``move`` as soon as the board is ready."""
    frames = Frames(page)
    page.goto(f"{url}/daily")
    page.get_by_label("Name on the leaderboard").fill(name)
    page.get_by_role("button", name="Play today's board").click()
    game = WibblePage(page)
    game.wait_idle()
    found: set[str] = set()
    tiles = 0
    while not frames.over:
        before = frames.words
        try:
            word, path = pick(game.letters(), trie, found, choice)
        except ValueError:
            break
        move(game, path, word)
        deadline = time.monotonic() + 5
        while frames.words == before and not frames.over and time.monotonic() < deadline:
            page.wait_for_timeout(2)
        if frames.words > before:
            found.add(word)
            tiles += len(path)
        # The refill on screen (the next word is read from it): nothing in flight.
        page.wait_for_function("document.body.dataset.phase !== 'chaining'", timeout=10_000)
    deadline = time.monotonic() + 15
    while frames.board is None and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    return {"words": len(found), "tiles": tiles, **result(frames.board)}


def result(board: dict[str, Any] | None) -> dict[str, Any]:
    you = (board or {}).get("you") or {}
    ranked = you.get("ranked")
    return {
        "points": you.get("score"),
        "peak": you.get("pace"),
        "ranked": "yes" if ranked else f"no ({you.get('why')})",
    }


def typist(key_ms: int) -> Callable[[WibblePage, Path, str], None]:
    def type_word(game: WibblePage, path: Path, word: str) -> None:
        keyboard = game.page.keyboard
        keyboard.type(word.upper(), delay=key_ms)
        time.sleep(key_ms / 1000)
        keyboard.press("Enter")

    return type_word


def dragger(tile_ms: int) -> Callable[[WibblePage, Path, str], None]:
    def drag(game: WibblePage, path: Path, word: str) -> None:
        centres = [game.centre(r, c) for r, c in path]
        mouse = game.page.mouse
        mouse.move(*centres[0])
        mouse.down()
        for x, y in centres[1:]:
            time.sleep(tile_ms / 1000)
            mouse.move(x, y, steps=3)
        mouse.up()

    return drag


def solver(url: str, trie: Trie, rate: float) -> dict[str, Any]:
    """A program: the best word of each board, its messages at ``rate`` a second."""
    ws = create_connection(url.replace("http://", "ws://") + WS_PATH, timeout=30)
    ws.send(json.dumps({"type": "new_daily", "player": "solver-" + "s" * 25, "name": "Solver"}))
    message = json.loads(ws.recv())
    letters = [[t["letter"].lower() for t in row] for row in message["board"]]
    scores = {t["letter"].lower(): t["score"] for row in message["board"] for t in row}
    found: set[str] = set()
    tiles = 0
    gap, last = 1 / rate, time.monotonic()
    board = None
    over = False
    while not over:
        words = [(w, p) for w, p in find_paths(letters, trie, 3) if w not in found]
        if not words:
            break
        word, path = max(words, key=lambda wp: sum(scores.get(ch, 1) for ch in wp[0]))
        sends = [{"type": "press", "row": path[0][0], "col": path[0][1]}]
        sends += [{"type": "enter", "row": r, "col": c} for r, c in path[1:]] + [{"type": "release"}]
        for send in sends:
            last = max(last + gap, time.monotonic())
            time.sleep(max(0.0, last - time.monotonic()))
            ws.send(json.dumps(send))
        while True:
            reply = json.loads(ws.recv())
            if reply["type"] == "word":
                if reply["result"] == "scored":
                    found.add(word)
                    tiles += len(path)
                    for tile in reply["changed"]:
                        letters[tile["row"]][tile["col"]] = tile["letter"].lower()
                        scores[tile["letter"].lower()] = tile["score"]
                break
            if reply["type"] == "over":
                over = True
                break
            if reply["type"] == "error" and reply["code"] == "game/over":
                over = True
                break
    while board is None:
        reply = json.loads(ws.recv())
        if reply["type"] == "leaderboard":
            board = reply
    ws.close()
    return {"words": len(found), "tiles": tiles, **result(board)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=int, default=20, help="the daily sprint's length")
    parser.add_argument("--key-ms", type=int, default=80, help="between a typist's keys")
    parser.add_argument("--tile-ms", type=int, default=60, help="a drag's time from tile to tile")
    parser.add_argument("--rate", type=float, default=40.0, help="the solver's messages a second")
    args = parser.parse_args()
    trie = shipped_list("en").trie
    server = LiveServer("--data-dir", "", env={"WIBBLE_DAILY_SECONDS": str(args.seconds)})
    rows: list[tuple[str, dict[str, Any]]] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=find_chromium())
            for choice in ("short", "long"):
                context = browser.new_context(viewport={"width": 1100, "height": 900})
                label = f"type {choice} words, {args.key_ms} ms a key"
                rows.append(
                    (
                        label,
                        play_page(
                            context.new_page(), server.url, trie, f"T{choice}", typist(args.key_ms), choice
                        ),
                    )
                )
                context.close()
            for choice in ("short", "long"):
                context = browser.new_context(**PHONE)
                label = f"drag {choice} words, {args.tile_ms} ms a tile"
                rows.append(
                    (
                        label,
                        play_page(
                            context.new_page(), server.url, trie, f"D{choice}", dragger(args.tile_ms), choice
                        ),
                    )
                )
                context.close()
            browser.close()
        rows.append((f"solver, {args.rate:g} messages a second", solver(server.url, trie, args.rate)))
    finally:
        server.stop()
    print(
        f"daily sprint of {args.seconds} s; peak: tiles of scored words in the busiest {WINDOW:g} s, "
        "as the server judged"
    )
    print(f"{'try':40} {'words':>6} {'tiles':>6} {'points':>7} {'peak':>6} ranked")
    for label, row in rows:
        print(
            f"{label:40} {row['words']:>6} {row['tiles']:>6} {row['points']!s:>7} {row['peak']!s:>6} "
            f"{row['ranked']}"
        )
    print(f"bound (wibble.core.pace.MOST_TILES): {MOST_TILES} tiles in {WINDOW:g} s")


if __name__ == "__main__":
    main()
