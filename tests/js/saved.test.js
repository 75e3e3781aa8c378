// "Your games" and the store's handling of a lost game, as units: driven with fake storages
// and a recording `send` (what a player would meet after many games, a blocked storage, a
// browser from before the list, or a game the server no longer has). No page, no server
// (these ran in Chromium before).
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import { includes, memory, run } from "./support.js";

const GAMES_KEY = "wibble.games"; // static/js/store.js's GAMES_KEY

const S = await import("../../static/js/store.js");
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

beforeEach(() => {
  clock = 1000; // each test starts at the same time, as each ran on a fresh page
});

test("games are listed newest first and the oldest beyond the cap drop off", async () => {
  const result = await run(async () => {
    const games = S.savedGames(memory(), memory(), { now });
    for (let i = 0; i < S.MAX_SAVED_GAMES + 5; i += 1) {
      clock += 1;
      games.save({ game_id: "g" + i, token: "t" + i, total: i });
    }
    clock += 1;
    games.save({ game_id: "g10", token: "t10", total: 99 });  // played again: to the top
    return { ids: games.list().map((g) => g.game_id), max: S.MAX_SAVED_GAMES, top: games.list()[0] };
  });
  assert.deepStrictEqual(result.ids.length, result.max);
  assert.deepStrictEqual(result.ids.slice(0, 3), ["g10", "g34", "g33"]);
  assert.ok(!includes(result.ids, "g0"));
  assert.deepStrictEqual(result.top.total, 99);
});

test("each tab resumes its own game and a new tab the newest", async () => {
  const result = await run(async () => {
    const local = memory();
    const tabOne = S.savedGames(local, memory(), { now });
    const tabTwo = S.savedGames(local, memory(), { now });
    clock += 1; tabOne.save({ game_id: "one", token: "a" });
    clock += 1; tabTwo.save({ game_id: "two", token: "b" });
    const newTab = S.savedGames(local, memory(), { now });
    return [tabOne.current().game_id, tabTwo.current().game_id, newTab.current().game_id,
            tabOne.list().length];
  });
  assert.deepStrictEqual(result, ["one", "two", "two", 2]);
});

test("a browser from before the list keeps its game", async () => {
  const result = await run(async () => {
    const local = memory();
    local.setItem("wibble.game", JSON.stringify({ game_id: "old", token: "x" }));
    const games = S.savedGames(local, memory(), { now });
    const before = games.current().game_id;
    games.save({ game_id: "old", token: "x", total: 4 });
    return { before, ids: games.list().map((g) => g.game_id), keys: local.keys() };
  });
  assert.deepStrictEqual(result, { "before": "old", "ids": ["old"], "keys": [GAMES_KEY] });
});

test("blocked storage never breaks the game", async () => {
  const result = await run(async () => {
    const games = S.savedGames(blocked, blocked, { now });
    const { store, sent } = storeWith(games);
    store.onOpen();
    store.onMessage(snapshot("g1"));
    const saved = games.save({ game_id: "g", token: "t" });
    return { saved, list: games.list(), current: games.current(), sent: sent.map((m) => m.type),
             shown: store.state.game.id, listed: store.state.games };
  });
  assert.deepStrictEqual(result, { "saved": false, "list": [], "current": null, "sent": ["new_game"], "shown": "g1", "listed": [] });
});

test("a game the server no longer has is forgotten and replaced in its list", async () => {
  const result = await run(async () => {
    const games = S.savedGames(memory(), memory(), { now });
    clock += 1; games.save({ game_id: "keep", token: "k", wordlist: "en" });
    clock += 1; games.save({ game_id: "gone", token: "g", wordlist: "es" });
    const { store, sent } = storeWith(games);
    store.onOpen();  // a reload: resumes this tab's game, the newest
    store.onMessage(gone);
    return { sent, ids: store.state.games.map((g) => g.game_id) };
  });
  assert.deepStrictEqual(result.sent, [{ "type": "resume", "game_id": "gone", "token": "g" }, { "type": "new_game", "wordlist": "es" }]);
  assert.deepStrictEqual(result.ids, ["keep"]);
});

test("opening a listed game that is gone keeps the game on screen", async () => {
  const result = await run(async () => {
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
  });
  assert.deepStrictEqual(result, { "sent": ["resume", "resume"], "shown": "new", "message": "no such game", "ids": ["new"], "opening": null });
});

test("a resume cut off by a lost connection blames no game", async () => {
  const result = await run(async () => {
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
  });
  // a is gone, b is not: b stays listed, and the new game is in a's list.
  assert.deepStrictEqual(result.sent, [{ "type": "resume", "game_id": "a", "token": "t-a" }, { "type": "new_game", "wordlist": "en" }]);
  assert.deepStrictEqual(result.ids, ["b"]);
});
