// The optimistic chain (chain.js): which steps the server would take, and replies matched to
// moves by their numbers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Moves, Reply, sameChain, stepChain, tilesOf, touches } from "../../static/js/chain.js";

test("a step onto a neighbour grows the chain; back onto the one before shrinks it", () => {
  assert.deepEqual(stepChain([[0, 0]], 1, 1), [[0, 0], [1, 1]]);
  assert.deepEqual(stepChain([[0, 0], [1, 1]], 0, 0), [[0, 0]]);
  assert.equal(stepChain([[0, 0]], 0, 2), null, "not a neighbour");
  assert.equal(stepChain([[0, 0]], 0, 0), null, "the last tile again");
  assert.equal(stepChain([[0, 0], [0, 1], [1, 1]], 0, 0), null, "a tile already used (not the one before)");
  assert.equal(stepChain([], 0, 0), null, "no chain to step from");
  assert.equal(touches([2, 2], [3, 3]), true);
  assert.equal(touches([2, 2], [2, 2]), false);
  assert.equal(sameChain([[0, 0], [0, 1]], [[0, 0], [0, 1]]), true);
  assert.equal(sameChain([[0, 0]], [[0, 1]]), false);
});

test("the tiles of a path, or every tile when the path is not known", () => {
  assert.deepEqual([...tilesOf([[0, 1], [1, 1]], [])], ["0,1", "1,1"]);
  assert.equal(tilesOf([], [[1, 1], [1, 1]]).size, 4);
});

test("replies: the latest move's, an older one's, or somebody else's", () => {
  const moves = new Moves();
  assert.equal(moves.next(), 1);
  assert.equal(moves.next(), 2);
  assert.equal(moves.waiting, true);
  assert.equal(moves.settle({ type: "chain", seq: 1, chain: [] }, []), Reply.STALE);
  assert.equal(moves.waiting, true);
  assert.equal(moves.settle({ type: "chain", seq: 2, chain: [] }, []), Reply.LATEST);
  assert.equal(moves.waiting, false);
  assert.equal(moves.settle({ type: "chain", chain: [] }, []), Reply.OTHER);
  // Numbers only grow: after a new socket, an old reply can never pass for a new move's.
  moves.next();
  moves.reset();
  assert.equal(moves.waiting, false);
  assert.equal(moves.next(), 4);
});
