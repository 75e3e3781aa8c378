// The chain on screen against the server's (static/js/store/reconcile.js) alone: each function
// answers the change the store would apply, from a plain tab; nothing is sent or written.
import assert from "node:assert/strict";
import { test } from "node:test";
import { EMPTY_CHAIN, Reply } from "../../static/js/chain.js";
import { tabOf } from "./store_support.js";

const R = await import("../../static/js/store/reconcile.js");

const confirmed = (chain, extra = {}) => ({ ...EMPTY_CHAIN, chain, status: "prefix", ...extra });
const ours = (chain) => tabOf({ state: { chain, mine: true, confirmed: confirmed(chain.slice(0, 1)) }, waiting: true });

test("a snapshot shows the server's chain as another tab's, and stops waiting for our moves", () => {
  const change = R.snapshot({ chain: [[0, 0], [0, 1]], word: "CA", points: 2, status: "prefix" });
  assert.equal(change.giveUp, true);
  assert.deepEqual(change.state.chain, [[0, 0], [0, 1]]);
  assert.equal(change.state.mine, false);
  assert.equal(change.state.live, true);
  assert.deepEqual([change.state.refilling, change.state.swap], [null, null]);
});

test("a closed socket drops our chain with us, but another tab's stays on the board", () => {
  const mine = R.socketClosed(ours([[0, 0], [0, 1]]).state);
  assert.equal(mine.reset, true);
  assert.deepEqual([mine.state.live, mine.state.chain, mine.state.mine], [false, [], false]);
  const theirs = R.socketClosed(tabOf({ state: { chain: [[1, 1]], confirmed: confirmed([[1, 1]]) } }).state);
  assert.deepEqual(theirs.state.chain, [[1, 1]]);
});

test("a reply to an older move keeps our chain on screen; the latest one shows the server's", () => {
  const tab = ours([[0, 0], [0, 1], [0, 2]]);
  const stale = R.chainChange(tab, { type: "chain", chain: [[0, 0]], points: 3, seq: 1 }, Reply.STALE);
  assert.equal("chain" in stale.state, false); // what is on screen stays
  assert.deepEqual(stale.state.confirmed.chain, [[0, 0]]);
  assert.deepEqual(stale.event, { type: "chain", reply: "stale" });
  const latest = R.chainChange({ ...tab, waiting: false }, { type: "chain", chain: [[0, 0], [0, 1]], seq: 3 }, Reply.LATEST);
  assert.deepEqual(latest.state.chain, [[0, 0], [0, 1]]);
  assert.equal("mine" in latest.state, false); // still ours to drag on
});

test("in a match, another seat's chain is never ours to play on", () => {
  const state = tabOf({ state: { match: { you: 0 }, mine: true } }).state;
  assert.deepEqual(R.adopted(state, confirmed([[0, 0]], { seat: 1 })), { chain: [[0, 0]], mine: false });
  assert.deepEqual(R.adopted(state, confirmed([[0, 0]], { seat: 0 })), { chain: [[0, 0]] });
});

test("a refused move rolls back to the server's chain; another tab's press first says so", () => {
  const tab = ours([[0, 0], [0, 1]]);
  const refused = R.moveRefused(tab, { type: "error", code: "state/cleaning_up", seq: 2 });
  assert.deepEqual(refused.state, { chain: [[0, 0]] });
  assert.equal(refused.say, undefined); // the endless game says nothing: the chain shows it
  const first = R.moveRefused(tab, { type: "error", code: "state/already_chaining" });
  assert.equal(first.state.mine, false);
  assert.equal(first.say.say, "other_tab");
  const inMatch = R.moveRefused(tabOf({ state: { match: { you: 0 } } }), { type: "error", code: "turn/not_yours", message: "wait" });
  assert.deepEqual(inMatch.say, { kind: "miss", say: "server", text: "wait", code: "turn/not_yours" });
  assert.equal(R.moveRefused(tab, { type: "error", code: "game/gone" }), null); // not a move's
});

test("dropped moves (rate limiting) stop the wait", () => {
  const change = R.rateLimited(ours([[0, 0], [0, 1]]), { type: "error", code: "protocol/rate_limited" });
  assert.equal(change.giveUp, true);
  assert.deepEqual(change.state.chain, [[0, 0]]);
  assert.equal(R.rateLimited(ours([]), { type: "error", code: "state/x" }), null);
});
