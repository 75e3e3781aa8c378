"""'Your games' and the store's handling of a lost game, as units, in the real Chromium.

The page's modules are imported on a page of the live server (no game running on
it) and driven with fake storages and a recording ``send``: what a player would
meet after many games, a blocked storage, a browser from before the list, or a
game the server no longer has.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.support import LiveServer

pytestmark = pytest.mark.e2e

GAMES_KEY = "wibble.games"  # static/js/store.js's GAMES_KEY

# Fakes shared by the scripts below: a Storage-like map, one that throws on every
# access (a privacy setting), and a Store wired to them that records what it sends.
PRELUDE = """
const S = await import("/static/js/store.js");
const memory = () => {
  const data = new Map();
  return {
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => data.set(k, String(v)),
    removeItem: (k) => data.delete(k),
    keys: () => [...data.keys()],
  };
};
const blocked = { getItem() { throw new Error("denied"); }, setItem() { throw new Error("denied"); },
                  removeItem() { throw new Error("denied"); } };
let clock = 1000;
const now = () => clock;
const config = { wordlists: [{ name: "en", title: "English" }, { name: "es", title: "Español" }],
                 default_wordlist: "en" };
const storeWith = (storage) => {
  const sent = [];
  const store = new S.Store({ send: (m) => { sent.push(m); return true; }, storage, config });
  return { store, sent };
};
const snapshot = (id, wordlist = "en", total = 0) => ({
  type: "game", game_id: id, token: "t-" + id, seed: 1, wordlist, wordlist_title: wordlist.toUpperCase(),
  language: wordlist, min_length: 3, size: 1, board: [[{ letter: "A", score: 1 }]], phase: "idle",
  chain: [], word: "", points: 0, status: "none", already_found: false, total, found: [], words_left: 5,
  version: 0,
});
const gone = { type: "error", code: "game/not_found", request: "resume", message: "no such game" };
"""


def run(page: Page, server: LiveServer, body: str) -> Any:
    page.goto(f"{server.url}/healthz")
    return page.evaluate(f"async () => {{ {PRELUDE}\n{body} }}")


def test_games_are_listed_newest_first_and_the_oldest_beyond_the_cap_drop_off(
    page: Page, server: LiveServer
) -> None:
    result = run(
        page,
        server,
        """
        const games = S.savedGames(memory(), memory(), { now });
        for (let i = 0; i < S.MAX_SAVED_GAMES + 5; i += 1) {
          clock += 1;
          games.save({ game_id: "g" + i, token: "t" + i, total: i });
        }
        clock += 1;
        games.save({ game_id: "g10", token: "t10", total: 99 });  // played again: to the top
        return { ids: games.list().map((g) => g.game_id), max: S.MAX_SAVED_GAMES, top: games.list()[0] };
        """,
    )
    assert len(result["ids"]) == result["max"]
    assert result["ids"][:3] == ["g10", "g34", "g33"]
    assert "g0" not in result["ids"]
    assert result["top"]["total"] == 99


def test_each_tab_resumes_its_own_game_and_a_new_tab_the_newest(page: Page, server: LiveServer) -> None:
    result = run(
        page,
        server,
        """
        const local = memory();
        const tabOne = S.savedGames(local, memory(), { now });
        const tabTwo = S.savedGames(local, memory(), { now });
        clock += 1; tabOne.save({ game_id: "one", token: "a" });
        clock += 1; tabTwo.save({ game_id: "two", token: "b" });
        const newTab = S.savedGames(local, memory(), { now });
        return [tabOne.current().game_id, tabTwo.current().game_id, newTab.current().game_id,
                tabOne.list().length];
        """,
    )
    assert result == ["one", "two", "two", 2]


def test_a_browser_from_before_the_list_keeps_its_game(page: Page, server: LiveServer) -> None:
    result = run(
        page,
        server,
        """
        const local = memory();
        local.setItem("wibble.game", JSON.stringify({ game_id: "old", token: "x" }));
        const games = S.savedGames(local, memory(), { now });
        const before = games.current().game_id;
        games.save({ game_id: "old", token: "x", total: 4 });
        return { before, ids: games.list().map((g) => g.game_id), keys: local.keys() };
        """,
    )
    assert result == {"before": "old", "ids": ["old"], "keys": [GAMES_KEY]}


def test_blocked_storage_never_breaks_the_game(page: Page, server: LiveServer) -> None:
    result = run(
        page,
        server,
        """
        const games = S.savedGames(blocked, blocked, { now });
        const { store, sent } = storeWith(games);
        store.onOpen();
        store.onMessage(snapshot("g1"));
        const saved = games.save({ game_id: "g", token: "t" });
        return { saved, list: games.list(), current: games.current(), sent: sent.map((m) => m.type),
                 shown: store.state.game.id, listed: store.state.games };
        """,
    )
    assert result == {
        "saved": False,
        "list": [],
        "current": None,
        "sent": ["new_game"],
        "shown": "g1",
        "listed": [],
    }


def test_a_game_the_server_no_longer_has_is_forgotten_and_replaced_in_its_list(
    page: Page, server: LiveServer
) -> None:
    result = run(
        page,
        server,
        """
        const games = S.savedGames(memory(), memory(), { now });
        clock += 1; games.save({ game_id: "keep", token: "k", wordlist: "en" });
        clock += 1; games.save({ game_id: "gone", token: "g", wordlist: "es" });
        const { store, sent } = storeWith(games);
        store.onOpen();  // a reload: resumes this tab's game, the newest
        store.onMessage(gone);
        return { sent, ids: store.state.games.map((g) => g.game_id) };
        """,
    )
    assert result["sent"] == [
        {"type": "resume", "game_id": "gone", "token": "g"},
        {"type": "new_game", "wordlist": "es"},
    ]
    assert result["ids"] == ["keep"]


def test_opening_a_listed_game_that_is_gone_keeps_the_game_on_screen(page: Page, server: LiveServer) -> None:
    result = run(
        page,
        server,
        """
        const games = S.savedGames(memory(), memory(), { now });
        clock += 1; games.save({ game_id: "old", token: "o", wordlist: "es" });
        const { store, sent } = storeWith(games);
        store.onStatus({ state: "open", lost: false });
        store.onOpen();
        store.onMessage(snapshot("old", "es"));
        clock += 1; store.onMessage(snapshot("new"));  // a new game, now on screen
        store.openGame("old");
        store.onMessage(gone);
        return { sent: sent.map((m) => m.type), shown: store.state.game.id, message: store.state.message.text,
                 ids: store.state.games.map((g) => g.game_id), opening: store.opening };
        """,
    )
    assert result == {
        "sent": ["resume", "resume"],
        "shown": "new",
        "message": "no such game",
        "ids": ["new"],
        "opening": None,
    }


def test_a_resume_cut_off_by_a_lost_connection_blames_no_game(page: Page, server: LiveServer) -> None:
    result = run(
        page,
        server,
        """
        const games = S.savedGames(memory(), memory(), { now });
        clock += 1; games.save({ game_id: "b", token: "tb", wordlist: "es" });
        clock += 1; games.save({ game_id: "a", token: "ta", wordlist: "en" });
        const { store, sent } = storeWith(games);
        store.onStatus({ state: "open", lost: false });
        store.onOpen();
        store.onMessage(snapshot("a"));
        store.openGame("b");                                      // asked for b...
        store.onStatus({ state: "waiting", lost: true, restarting: true });  // ...and the server restarted
        store.onStatus({ state: "open", lost: true });
        store.onOpen();                                           // resumes a, the game on screen
        store.onMessage(gone);
        return { sent: sent.slice(2), ids: store.state.games.map((g) => g.game_id) };
        """,
    )
    # a is gone, b is not: b stays listed, and the new game is in a's list.
    assert result["sent"] == [
        {"type": "resume", "game_id": "a", "token": "t-a"},  # the token its snapshot gave
        {"type": "new_game", "wordlist": "en"},
    ]
    assert result["ids"] == ["b"]
