// Type to spell in the store: typed letters become the moves a drag would send (press,
// enter, and enter on the second-to-last tile to step back), and typing gives way to
// anything else that changes the chain.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Store, savedGames } from "../../static/js/store.js";
import { memory } from "./support.js";
import { tabOf } from "./store_support.js";

const SP = await import("../../static/js/store/spelling.js");

const config = { wordlists: [{ name: "en", title: "English" }], default_wordlist: "en" };

/** A store on an open socket, recording what it sends and what it tells its listeners. */
function make(rows, letters = undefined) {
  const sent = [];
  const events = [];
  const store = new Store({ send: (m) => (sent.push(m), true), storage: savedGames(memory(), memory()), config, now: () => 0 });
  store.subscribe((state, event) => events.push(event.type));
  store.onStatus({ state: "open", lost: false });
  const board = rows.split("/").map((row) => [...row].map((letter) => ({ letter, score: letter === "A" ? 1 : 2 })));
  store.onMessage({
    type: "game", game_id: "g", token: "t", seed: 1, wordlist: "en", wordlist_title: "English", language: "en",
    min_length: 3, size: board.length, phase: "idle", board, chain: [], word: "", points: 0, status: "none",
    already_found: false, total: 0, found: [], words_left: 9, version: 0,
    ...(letters && { letters: Object.fromEntries([...letters].map((face) => [face, { score: 1, weight: 1 }])) }),
  });
  sent.length = 0;
  events.length = 0;
  return { store, sent, events };
}

/** What was sent, without the move numbers: `press 0,0`, `enter 0,1`, `release`. */
const moves = (sent) => sent.map((m) => (m.row === undefined ? m.type : `${m.type} ${m.row},${m.col}`));

test("typing a word sends the press and enters of its best path, and Enter its release", () => {
  const { store, sent } = make("CAT/XXX/XXX");
  for (const key of "cat") assert.equal(store.typeLetter(key), true);
  assert.deepEqual(moves(sent), ["press 0,0", "enter 0,1", "enter 0,2"]);
  assert.deepEqual(store.state.chain, [[0, 0], [0, 1], [0, 2]]);
  assert.equal(store.state.spelling.typed, "CAT");
  assert.equal(store.spelling, true);
  // Each move carries its number, as a drag's do.
  assert.deepEqual(sent.map((m) => m.seq), [1, 2, 3]);
  store.release();
  assert.deepEqual(moves(sent).at(-1), "release");
  assert.equal(store.state.spelling, null, "the chain is gone, and the typing with it");
});

test("a letter no path continues sends nothing, and says which letter and why", () => {
  const { store, sent, events } = make("CAT/XXX/XXX");
  store.typeLetter("c");
  sent.length = 0;
  assert.equal(store.typeLetter("t"), false);
  assert.deepEqual(sent, []);
  assert.equal(events.at(-1), "refused");
  assert.equal(store.state.message.say, "no_path");
  assert.equal(store.state.message.typed, "C");
  assert.equal(store.state.message.letter, "T");
  assert.deepEqual(store.state.chain, [[0, 0]], "the letters typed before stay");
  assert.equal(store.typeLetter("q"), false);
  assert.equal(make("CAT/XXX/XXX").store.typeLetter("z"), false);
});

test("letters typed past a refused one stay struck out: nothing lit changes, Enter plays nothing, Backspace takes them back", () => {
  const { store, sent, events } = make("TOA/XXX/XXX");
  store.typeLetter("t");
  store.typeLetter("o");
  sent.length = 0;
  assert.equal(store.typeLetter("b"), false); // no B on the board
  assert.equal(store.typeLetter("a"), false); // "TOA" is on it, but the word typed is TOBA
  assert.deepEqual(sent, []);
  assert.deepEqual(store.state.chain, [[0, 0], [0, 1]]);
  assert.equal(store.state.spelling.extra, "BA");
  assert.equal(events.at(-1), "refused");
  assert.equal(store.release(), false); // Enter: not TO, nor TOA
  assert.deepEqual(sent, []);
  assert.equal(store.state.message.say, "struck_out");
  store.unspell();
  assert.equal(store.state.spelling.extra, "B");
  store.unspell();
  assert.equal(store.state.spelling.extra, "");
  assert.equal(store.state.message, null);
  assert.deepEqual(sent, [], "the path lit was never left: nothing to take back on the board");
  assert.equal(store.typeLetter("a"), true); // TOA now, as typed
  assert.deepEqual(moves(sent), ["enter 0,2"]);
  store.release();
  assert.deepEqual(moves(sent).at(-1), "release");
});

test("Tab moves to the next path with the fewest moves: back to where they part, then on", () => {
  // C, then two As beside it: CA has two paths; CAT only one of them.
  const { store, sent } = make("CAX/AXX/XXX");
  store.typeLetter("c");
  store.typeLetter("a");
  const first = store.state.chain;
  assert.equal(store.state.spelling.paths.length, 2);
  sent.length = 0;
  assert.equal(store.cyclePath(1), true);
  const second = store.state.chain;
  assert.notDeepEqual(second, first);
  // Stepping back onto the C takes the A back; then the other A.
  assert.deepEqual(moves(sent), ["enter 0,0", `enter ${second[1][0]},${second[1][1]}`]);
  assert.equal(store.state.message.say, "spell_path");
  assert.equal(store.state.message.index, 1);
  store.cyclePath(-1);
  assert.deepEqual(store.state.chain, first);
});

test("typing on from a path cycled to stays on it when it can", () => {
  const { store } = make("CAX/ATX/XXX");
  store.typeLetter("c");
  store.typeLetter("a");
  // Both As touch the T: whichever path was chosen, CAT goes on from it.
  store.cyclePath(1);
  const chosen = store.state.chain;
  store.typeLetter("t");
  assert.deepEqual(store.state.chain.slice(0, 2), chosen);
});

test("Backspace takes the last tile back (a step back, as a drag does); the last letter cancels", () => {
  const { store, sent } = make("CAT/XXX/XXX");
  for (const key of "CAT") store.typeLetter(key);
  sent.length = 0;
  store.unspell();
  assert.deepEqual(moves(sent), ["enter 0,1"]);
  assert.equal(store.state.spelling.typed, "CA");
  store.unspell();
  store.unspell();
  assert.deepEqual(moves(sent), ["enter 0,1", "enter 0,0", "cancel"]);
  assert.deepEqual(store.state.chain, []);
  assert.equal(store.state.spelling, null);
});

test("typing goes on from a chain made by keys or a drag", () => {
  const { store, sent } = make("CAT/XXX/XXX");
  store.press(0, 0);
  assert.equal(store.state.spelling, null);
  store.typeLetter("A");
  assert.deepEqual(moves(sent), ["press 0,0", "enter 0,1"]);
  assert.equal(store.state.spelling.typed, "CA");
});

test("a drag or a refused move takes the chain: the typing is over", () => {
  const { store } = make("CAT/XXX/XXX");
  store.typeLetter("C");
  store.press(2, 2); // a finger elsewhere
  assert.equal(store.state.spelling, null);
  assert.deepEqual(store.state.chain, [[2, 2]]);

  const other = make("CAT/XXX/XXX");
  other.store.typeLetter("C");
  other.store.typeLetter("A");
  other.store.onMessage({ type: "error", code: "move/not_adjacent", message: "no", seq: 2 });
  assert.equal(other.store.state.spelling, null);
});

test("nothing is typed without a connection, or over another tab's chain", () => {
  const { store, sent } = make("CAT/XXX/XXX");
  store.onStatus({ state: "closed", lost: true });
  assert.equal(store.typeLetter("C"), false);
  assert.deepEqual(sent, []);

  const busy = make("CAT/XXX/XXX");
  busy.store.onMessage({ type: "chain", chain: [[1, 1]], word: "X", points: 2, status: "none", already_found: false, version: 0 });
  assert.equal(busy.store.typeLetter("C"), false);
  assert.equal(busy.store.state.message.say, "other_tab_chain");
  assert.deepEqual(busy.sent, []);
});

// The spelling part (static/js/store/spelling.js) alone, from a plain tab: the moves it would send.

test("the part: a typed word is the press and enters of its path, and the spelling to keep", () => {
  const change = SP.typeLetter(tabOf({ rows: "CAX/XXX/XXX", state: { spelling: { typed: "C", paths: [], index: 0 } } }), "a");
  assert.deepEqual(change.moves, [{ move: { type: "press", row: 0, col: 0 }, state: { mine: true } }, { type: "enter", row: 0, col: 1 }]);
  assert.deepEqual(change.state.chain, [[0, 0], [0, 1]]);
  assert.equal(change.state.spelling.typed, "CA");
  assert.deepEqual(change.event, { type: "local", spelled: true });
});

test("the part: following another path steps back to where the two part, then goes on", () => {
  const tab = tabOf({ rows: "CAT/XAX/XTX", state: { chain: [[0, 0], [0, 1], [0, 2]], mine: true } });
  assert.deepEqual(SP.follow(tab, [[0, 0], [1, 1], [2, 1]]).moves, [
    { type: "enter", row: 0, col: 1 }, { type: "enter", row: 0, col: 0 }, { type: "enter", row: 1, col: 1 }, { type: "enter", row: 2, col: 1 },
  ]);
});

test("the part: typing is over once the chain on the board is not the path typed", () => {
  const spelling = { typed: "CA", paths: [{ path: [[0, 0], [0, 1]], points: 2 }], index: 0 };
  const state = tabOf({ state: { spelling, chain: [[0, 0], [0, 1]], mine: true } }).state;
  assert.equal(SP.checked(state), spelling);
  assert.equal(SP.checked({ ...state, chain: [[0, 0]] }), null);
  assert.equal(SP.checked({ ...state, mine: false }), null);
});

test("the part: while a swap's letter is chosen, a letter typed is that letter", () => {
  const match = { you: 0, turn: 0, phase: "playing", letters: ["A", "Ñ"] };
  assert.deepEqual(SP.typeLetter(tabOf({ state: { match, swap: { tile: [0, 0] } } }), "ñ"), { match: ["swapTo", "Ñ"] });
  assert.equal(SP.typeLetter(tabOf({ state: { match, swap: { tile: null } } }), "a"), null);
});

test("on a list that keeps one sigma, ς typed is its Σ, and Backspace keeps the rest of the path", () => {
  const { store, sent } = make("ΛΟΓ/XXΟ/XXΣ", "ΛΟΓΣX");
  for (const key of "λογος") assert.equal(store.typeLetter(key), true, key);
  assert.deepEqual(store.state.chain, [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2]]);
  assert.notEqual(store.state.spelling, null, "typing goes on: the path spells what was typed");
  sent.length = 0;
  store.unspell();
  assert.deepEqual(store.state.chain, [[0, 0], [0, 1], [0, 2], [1, 2]]);
  assert.deepEqual(moves(sent), ["enter 1,2"]);
});

test("Esc takes what was said of the word being typed away with it", () => {
  const { store } = make("CAT/CAT/XXX");
  for (const key of "cat") store.typeLetter(key);
  store.cyclePath(1);
  assert.equal(store.state.message.say, "spell_path");
  store.cancel();
  assert.equal(store.state.message, null);
  store.typeLetter("c");
  store.typeLetter("q");
  assert.equal(store.state.message.say, "no_path");
  store.cancel();
  assert.equal(store.state.message, null);
});

test("a refused first letter, or one typed on a dragged chain, is struck out too: Enter never plays a word not typed", () => {
  const first = make("OAT/XXX/XXX");
  assert.equal(first.store.typeLetter("b"), false); // no B to start with
  for (const key of "oat") assert.equal(first.store.typeLetter(key), false);
  assert.deepEqual(first.sent, [], "OAT is on the board, but BOAT was typed");
  assert.equal(first.store.state.spelling.extra, "BOAT");
  assert.equal(first.store.release(), false);
  assert.deepEqual(first.sent, []);
  for (let i = 0; i < 4; i += 1) first.store.unspell();
  assert.equal(first.store.state.spelling, null, "nothing struck, nothing typed");
  first.store.typeLetter("b");
  first.store.cancel(); // Esc: no chain to drop, and the struck letter goes
  assert.equal(first.store.state.spelling, null);
  assert.equal(first.store.state.message, null);
  assert.equal(first.store.typeLetter("o"), true);

  const dragged = make("TOA/XXX/XXX");
  dragged.store.press(0, 0);
  dragged.store.enter(0, 1);
  dragged.sent.length = 0;
  assert.equal(dragged.store.typeLetter("b"), false);
  assert.equal(dragged.store.typeLetter("a"), false); // TOA is there; TOBA was typed
  assert.deepEqual(dragged.sent, []);
  assert.equal(dragged.store.release(), false);
  assert.deepEqual(dragged.sent, []);
  assert.deepEqual(dragged.store.state.chain, [[0, 0], [0, 1]]);
});
