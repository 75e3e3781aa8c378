// A sprint in the page: its clock read from the server's `remaining` on the tab's own clock,
// its end (`over`) taking the board out of play, and a missed word's path lit on demand.
import assert from "node:assert/strict";
import { test } from "node:test";
import { memory } from "./support.js";

const S = await import("../../static/js/store.js");
const T = await import("../../static/js/sprint.js");
const P = await import("../../static/js/protocol.js");

let clock = 5000;
const config = { wordlists: [{ name: "en", title: "English" }], default_wordlist: "en" };
const tile = (letter) => ({ letter, score: 1 });
const snapshot = (extra = {}) => ({
  type: "game", game_id: "g", token: "t", seed: 1, wordlist: "en", wordlist_title: "English",
  language: "en", min_length: 3, size: 3, phase: "idle",
  board: [[tile("C"), tile("A"), tile("T")], [tile("S"), tile("O"), tile("N")], [tile("D"), tile("E"), tile("R")]],
  chain: [], word: "", points: 0, status: "none", already_found: false, total: 0, found: [], words_left: 9,
  version: 0, sprint: 60, deadline: 1e9, remaining: 42.5, ...extra,
});
const over = { type: "over", total: 5, found: [{ word: "CAT", points: 5 }], version: 2,
               missed: [{ word: "DOES", points: 4, path: [[2, 0], [1, 1], [2, 1], [1, 0]] },
                        { word: "TON", points: 3, path: [[0, 2], [1, 1], [1, 2]] }] };
const make = () => {
  const sent = [];
  const store = new S.Store({ send: (m) => { sent.push(m); return true; },
                              storage: S.savedGames(memory(), memory()), config, now: () => clock });
  store.onStatus({ state: "open", lost: false });
  return { store, sent };
};

test("the clock counts down from what the server said was left, on the tab's clock", () => {
  const sprint = T.sprintOf(snapshot(), 5000);
  assert.equal(sprint.seconds, 60);
  assert.equal(T.secondsLeft(sprint, 5000), 42.5);
  assert.equal(T.secondsLeft(sprint, 5000 + 40_000), 2.5);
  assert.equal(T.secondsLeft(sprint, 5000 + 90_000), 0);
  assert.equal(T.sprintOf(snapshot({ sprint: undefined }), 0), null);
});

test("the clock reads minutes and seconds, rounded up until time is really up", () => {
  assert.deepEqual([125, 59.2, 0.1, 0, -3].map(T.clockText), ["2:05", "1:00", "0:01", "0:00", "0:00"]);
});

test("a new sprint asks for its clock, and an untimed game asks for none", () => {
  assert.deepEqual(P.newGame({ wordlist: "en", sprint: 180 }), { type: "new_game", wordlist: "en", sprint: 180 });
  assert.deepEqual(P.newGame({ wordlist: "en" }), { type: "new_game", wordlist: "en" });
});

test("when time is up the board is out of play, the score is the server's, and missed words light up", () => {
  const { store, sent } = make();
  store.onMessage(snapshot());
  assert.equal(store.press(0, 0), true);
  store.onMessage(over);
  assert.equal(store.over, true);
  assert.deepEqual(store.state.chain, []); // the server dropped the chain being dragged
  assert.equal(store.state.total, 5);
  assert.deepEqual(store.state.found, [{ word: "CAT", points: 5 }]);
  const before = sent.length;
  assert.equal(store.press(1, 1), false);
  assert.equal(store.typeLetter("c"), false);
  assert.equal(sent.length, before); // nothing more goes to the server
  assert.equal(store.showMissed(1), true);
  assert.deepEqual(store.state.shownPath, { word: "TON", path: [[0, 2], [1, 1], [1, 2]] });
  store.showMissed(1); // pressed again: put out
  assert.equal(store.state.shownPath, null);
});

test("a sprint resumed after its end shows the end at once", () => {
  const { store } = make();
  store.onMessage(snapshot({ phase: "over", total: 5, missed: over.missed }));
  assert.equal(store.over, true);
  assert.equal(store.state.game.sprint.missed.length, 2);
});

test("an untimed game is never over", () => {
  const { store } = make();
  store.onMessage(snapshot({ sprint: undefined, remaining: undefined, deadline: undefined }));
  store.onMessage(over);
  assert.equal(store.over, false);
  assert.equal(store.showMissed(0), false);
});

test("a clock's warnings: the mark passed between two looks, once, and none going up or at the start", async () => {
  const { markPassed } = await import("../../static/js/sprint.js");
  const marks = [60, 30, 10];
  assert.equal(markPassed(null, 59.8, marks), null); // the first look: nothing passed
  assert.equal(markPassed(60, 59.8, marks), null); // a minute's sprint starts at its mark
  assert.equal(markPassed(30.1, 29.9, marks), 30);
  assert.equal(markPassed(29.9, 29.7, marks), null);
  assert.equal(markPassed(10.2, 9.9, marks), 10);
  assert.equal(markPassed(9.9, 24.9, marks), null); // more time (an extended turn)
  assert.equal(markPassed(65, 5, marks), 10); // a tab asleep a while: the mark now true
  assert.equal(markPassed(12, null, marks), null);
});
