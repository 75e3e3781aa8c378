// The store's parts return changes and the Store applies them (static/js/store/change.js): no part
// writes the tab it reads, a refused move stops a change, and a change's answer is the intent's.
import assert from "node:assert/strict";
import { test } from "node:test";
import { EMPTY_CHAIN } from "../../static/js/chain.js";
import { memory } from "./support.js";
import { config, snapshot, tabOf } from "./store_support.js";

const S = await import("../../static/js/store.js");
const parts = {
  daily: await import("../../static/js/store/daily.js"),
  drag: await import("../../static/js/store/drag.js"),
  endless: await import("../../static/js/store/endless.js"),
  games: await import("../../static/js/store/games.js"),
  reconcile: await import("../../static/js/store/reconcile.js"),
  spelling: await import("../../static/js/store/spelling.js"),
};

/** `value` frozen all the way down: writing any of it throws (modules are strict). */
const frozen = (value) => {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozen(inner);
  }
  return value;
};

test("no part writes the tab it reads, whatever it is asked", () => {
  const spelling = { typed: "CA", paths: [{ path: [[0, 0], [0, 1]], points: 2 }, { path: [[0, 0], [1, 1]], points: 2 }], index: 0 };
  const tabs = [
    tabOf(),
    tabOf({ rows: "CAT/XAX/XXX", state: { chain: [[0, 0], [0, 1]], mine: true, spelling, confirmed: { ...EMPTY_CHAIN, chain: [[0, 0]] } }, waiting: true }),
    tabOf({ state: { match: { you: 0, turn: 0, phase: "playing", letters: ["A"], seats: [{ name: "You" }], hint: null }, swap: { tile: [0, 0] } } }),
    tabOf({ state: { mode: "daily", live: false, game: { id: "g", sprint: { over: true, missed: [{ word: "CAT", path: [[0, 0]] }] }, daily: { day: 1, date: "d", scored: true } } }, opening: { game_id: "x" } }),
  ].map(frozen);
  const errors = ["state/already_chaining", "game/gone", "protocol/rate_limited", "game/unknown_wordlist", "game/not_found", "daily/x"]
    .flatMap((code) => [{ type: "error", code, request: "resume" }, { type: "error", code, request: "new_daily" }]);
  const heard = [
    [parts.endless.gameSnapshot, [snapshot(), snapshot({ daily: { day: 1, date: "d", scored: true }, sprint: 60, phase: "over" })]],
    [parts.endless.sprintOver, [{ type: "over", total: 1, found: [], missed: [] }]],
    [parts.endless.wordJudged, [{ type: "word", word: "CAT", result: "scored", points: 5, total: 5 }]],
    [parts.endless.boardChanged, [{ type: "board", changed: [{ row: 0, col: 0, letter: "Q" }], reason: "shuffle" }]],
    [parts.reconcile.chainChange, [{ type: "chain", chain: [[0, 0]], seq: 1 }]],
    [parts.daily.leaderboard, [{ type: "leaderboard", day: 1 }]],
    ...[parts.endless.listRefused, parts.reconcile.moveRefused, parts.reconcile.rateLimited, parts.games.resumeRefused,
      parts.games.gone, parts.daily.refused].map((fn) => [fn, errors]),
  ];
  let calls = 0;
  for (const tab of tabs) {
    const ask = (fn, ...args) => { calls += 1; fn(tab, ...args); };
    for (const [name, fn] of Object.entries(parts.drag)) if (typeof fn === "function" && name !== "othersChain" && name !== "turnRefused") ask(fn, 0, 1, true);
    for (const key of ["c", "a", "x"]) ask(parts.spelling.typeLetter, key);
    ask(parts.spelling.cyclePath, 1);
    ask(parts.spelling.unspell);
    for (const [fn, messages] of heard) for (const message of messages) ask(fn, message, "latest");
    for (const fn of [parts.games.opened, parts.games.socketClosed, parts.daily.opened, parts.daily.replay]) ask(fn);
    ask(parts.games.open, "g2");
    ask(parts.endless.showMissed, 0);
    ask(parts.endless.newGame, "en", 60);
    ask(parts.daily.play, "Ann");
  }
  assert.ok(calls > 100);
});

/** A Store whose socket refuses the `refuse`-th message sent (1-based), and what went out. */
const storeRefusing = (refuse) => {
  const sent = [];
  let count = 0;
  const store = new S.Store({ send: (m) => { count += 1; if (count === refuse) return false; sent.push(m); return true; },
                              storage: S.savedGames(memory(), memory()), config, now: () => 0 });
  store.onStatus({ state: "open", lost: false });
  store.onMessage(snapshot());
  return { store, sent, events: [] };
};

test("a refused move stops the change there: nothing after it is applied, its `orElse` instead", () => {
  const { store, sent } = storeRefusing(2);
  const events = [];
  store.subscribe((state, event) => events.push(event.type));
  const answer = store.apply({
    moves: [{ type: "press", row: 0, col: 0 }, { move: { type: "enter", row: 0, col: 1 }, state: { mine: true } }],
    state: { chain: [[0, 0], [0, 1]] }, event: { type: "local" },
    orElse: { say: { kind: "info", say: "pick_touching" }, event: { type: "hint" }, ok: false },
  });
  assert.equal(answer, false);
  assert.deepEqual(sent, [{ type: "press", row: 0, col: 0, seq: 1 }]);
  assert.deepEqual([store.state.chain, store.state.mine], [[], false]);
  assert.deepEqual(events, ["hint"]);
  assert.equal(store.state.message.say, "pick_touching");
  assert.equal(store.moves.waiting, false); // no reply will come for the refused one
});

test("an optional move refused lets the rest go out; a step's state is set once its move went out", () => {
  const { store, sent } = storeRefusing(1);
  const answer = store.apply({
    moves: [{ move: { type: "cancel" }, optional: true }, { move: { type: "press", row: 1, col: 1 }, state: { mine: true } }],
  });
  assert.equal(answer, true);
  assert.deepEqual(sent, [{ type: "press", row: 1, col: 1, seq: 2 }]);
  assert.equal(store.state.mine, true);
});

test("a change's answer: false for none, a refused message or `ok: false`; a saved entry fills in `saved`", () => {
  const { store } = storeRefusing(1);
  const events = [];
  store.subscribe((state, event) => events.push(event));
  assert.equal(store.apply(null), false);
  assert.equal(store.apply({ send: [{ type: "leaderboard" }] }), false);
  assert.equal(store.apply({ send: [{ type: "leaderboard" }] }), true);
  assert.equal(store.apply({ state: { shared: "copied" }, ok: false }), false);
  assert.equal(store.state.shared, "copied");
  store.apply({ remember: { game_id: "g9", token: "t" }, event: { type: "game", saved: null } });
  assert.deepEqual(events.at(-1), { type: "game", saved: true });
  assert.ok(store.state.games.some((entry) => entry.game_id === "g9"));
  store.apply({ forget: ["g9"] });
  assert.ok(!store.state.games.some((entry) => entry.game_id === "g9"));
});
