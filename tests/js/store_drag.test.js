// Pressing, dragging, releasing and the keys on a tile (static/js/store/drag.js) alone: the moves
// each one would send and the chain it shows at once, or the hint of why not.
import assert from "node:assert/strict";
import { test } from "node:test";
import { EMPTY_CHAIN } from "../../static/js/chain.js";
import { tabOf } from "./store_support.js";

const D = await import("../../static/js/store/drag.js");

const dragging = (chain, extra = {}) => tabOf({ state: { chain, mine: true, ...extra } });
const theirs = tabOf({ state: { chain: [[1, 1]], confirmed: { ...EMPTY_CHAIN, chain: [[1, 1]] } } });

test("a press sends the press and lights the tile at once", () => {
  assert.deepEqual(D.press(tabOf(), 0, 0), {
    moves: [{ type: "press", row: 0, col: 0 }], state: { mine: true, chain: [[0, 0]] }, event: { type: "local" },
  });
});

test("a new word's press takes away the last word's miss, and only that", () => {
  const tooShort = { kind: "miss", say: "result", result: "too_short", id: 3 };
  assert.equal(D.press(tabOf({ state: { message: tooShort } }), 0, 0).state.message, null);
  const lost = { kind: "miss", say: "server", code: "server/storage", id: 4 };
  assert.equal("message" in D.press(tabOf({ state: { message: lost } }), 0, 0).state, false);
  const scored = { kind: "scored", say: "result", result: "scored", id: 5 };
  assert.equal("message" in D.press(tabOf({ state: { message: scored } }), 0, 0).state, false);
});

test("a press over a chain of ours left on the board cancels it first; over another tab's, says whose it is", () => {
  const again = D.press(dragging([[2, 2]]), 0, 0);
  assert.deepEqual(again.moves, [{ move: { type: "cancel" }, optional: true }, { type: "press", row: 0, col: 0 }]);
  const refused = D.press(theirs, 0, 0);
  assert.equal(refused.moves, undefined);
  assert.deepEqual([refused.say.say, refused.event.type, refused.ok], ["other_tab_chain", "hint", false]);
});

test("nothing is pressed offline, off the board, on a tile being replaced, or after a sprint", () => {
  assert.equal(D.press(tabOf({ canPlay: false }), 0, 0), null);
  assert.equal(D.press(tabOf(), 5, 0), null);
  assert.equal(D.press(tabOf({ state: { refilling: new Set(["0,0"]) } }), 0, 0), null);
  const over = { id: "g", sprint: { over: true } };
  assert.equal(D.press(tabOf({ state: { game: over } }), 0, 0), null);
});

test("in a match, a press is the swap's tile while one is chosen, and waits for our turn", () => {
  const match = { you: 0, turn: 1, phase: "playing" };
  assert.deepEqual(D.press(tabOf({ state: { match, swap: { tile: null } } }), 1, 2), { match: ["pickSwapTile", 1, 2], ok: false });
  assert.deepEqual(D.press(tabOf({ state: { match } }), 1, 2), { match: ["myTurn"], ok: false });
});

test("a drag goes on to a neighbour, steps back onto the tile before, and ignores the rest", () => {
  const tab = dragging([[0, 0], [0, 1]]);
  assert.deepEqual(D.enter(tab, 1, 2).state.chain, [[0, 0], [0, 1], [1, 2]]);
  assert.deepEqual(D.enter(tab, 0, 0).state.chain, [[0, 0]]);
  assert.deepEqual(D.enter(tab, 0, 0).moves, [{ type: "enter", row: 0, col: 0 }]);
  assert.equal(D.enter(tab, 2, 2), null); // not touching
  assert.equal(D.enter(tabOf({ state: { chain: [[0, 0]] } }), 0, 1), null); // not our chain
});

test("release and cancel clear the chain at once; undo takes the last tile back", () => {
  const tab = dragging([[0, 0], [0, 1]]);
  assert.deepEqual(D.release(tab), { moves: [{ type: "release" }], state: { chain: [] }, event: { type: "local" } });
  assert.deepEqual(D.cancel(tab).moves, [{ type: "cancel" }]);
  assert.deepEqual(D.undo(tab).moves, [{ type: "enter", row: 0, col: 0 }]);
  assert.deepEqual(D.undo(dragging([[0, 0]])).moves, [{ type: "cancel" }]);
  assert.equal(D.undo(tabOf()), null);
});

test("Space and Enter on a tile: start, go on, submit on the last, and say why not", () => {
  assert.deepEqual(D.activate(tabOf(), 0, 0, false).moves, [{ type: "press", row: 0, col: 0 }]);
  const tab = dragging([[0, 0]]);
  assert.deepEqual(D.activate(tab, 0, 0, true).moves, [{ type: "release" }]);
  assert.equal(D.activate(tab, 0, 0, false).say.say, "press_enter");
  assert.equal(D.activate(tab, 2, 2, false).say.say, "pick_touching");
  // A touching tile goes on; if the move cannot go out, the hint is said instead.
  const on = D.activate(tab, 0, 1, false);
  assert.deepEqual(on.state.chain, [[0, 0], [0, 1]]);
  assert.equal(on.orElse.say.say, "pick_touching");
});

test("Escape puts away a swap being chosen, and does nothing else", () => {
  assert.deepEqual(D.dismiss(tabOf({ state: { swap: { tile: null } } })), { match: ["cancelSwap"], ok: true });
  assert.equal(D.dismiss(tabOf()), null);
});
