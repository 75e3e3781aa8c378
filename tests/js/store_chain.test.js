// The store's chain as a unit: moves matched to replies by `seq`, tiles kept as the server sent
// them, points taken from the server (store/reconcile.js and store/drag.js, through the Store).
// Driven with fake server messages and a recording `send`; no page, no server.
import assert from "node:assert/strict";
import { test } from "node:test";
import { run } from "./support.js";
import { makeStore as make, reply, snapshot, tile, view } from "./store_support.js";

const S = await import("../../static/js/store.js");

test("moves carry counting seqs and the chain is optimistic until the latest is answered", async () => {
  const result = await run(async () => {
    const { store, sent } = make();
    store.onMessage(snapshot());
    store.press(0, 0); store.enter(0, 1); store.enter(0, 2);
    const before = view(store);
    // The server answers the first two: older seqs, the tab keeps its own three tiles.
    store.onMessage(reply([[0, 0]], { seq: 1, word: "C", points: 3 }));
    store.onMessage(reply([[0, 0], [0, 1]], { seq: 2, word: "CA", points: 4 }));
    const stale = view(store);
    store.onMessage(reply([[0, 0], [0, 1], [0, 2]], { seq: 3, word: "CAT", points: 5, status: "word" }));
    return { sent, before, stale, after: view(store) };
  });
  assert.deepStrictEqual(result.sent, [{ "type": "press", "row": 0, "col": 0, "seq": 1 }, { "type": "enter", "row": 0, "col": 1, "seq": 2 }, { "type": "enter", "row": 0, "col": 2, "seq": 3 }]);
  assert.deepStrictEqual(result.before.chain, [[0, 0], [0, 1], [0, 2]]);
  assert.deepStrictEqual(result.before.phase, "chaining");
  assert.deepStrictEqual(result.before.current.status, "pending");
  assert.strictEqual(result.before.current.points, null);
  // A stale reply: the tab's chain stays, the last points the server sent show, marked stale.
  assert.deepStrictEqual(result.stale.chain, [[0, 0], [0, 1], [0, 2]]);
  assert.deepStrictEqual(result.stale.current.status, "pending");
  assert.deepStrictEqual(result.stale.current.points, 4);
  assert.strictEqual(result.stale.current.stale, true);
  // The latest seq: caught up, the server's verdict and points.
  const after = result.after.current;
  assert.deepStrictEqual([after.word, after.status, after.points, after.stale], ["CAT", "word", 5, false]);
});

test("points are the servers never the tiles sum", async () => {
  const result = await run(async () => {
    const { store } = make();
    store.onMessage(snapshot());
    store.press(0, 0); store.enter(0, 1); store.enter(0, 2);
    // Tiles of 1 point each, but the server says 26 (multipliers, a bonus): 26 it is.
    store.onMessage(reply([[0, 0], [0, 1], [0, 2]], { seq: 3, word: "CAT", points: 26, status: "word" }));
    return S.currentChain(store.state).points;
  });
  assert.deepStrictEqual(result, 26);
});

test("an error with seq rolls the chain back to the servers", async () => {
  const result = await run(async () => {
    const { store } = make();
    store.onMessage(snapshot());
    store.press(0, 0); store.enter(0, 1);
    store.onMessage(reply([[0, 0]], { seq: 1, word: "C", points: 3 }));
    store.onMessage({ type: "error", code: "state/cleaning_up", request: "enter", message: "wait",
                      seq: 2 });
    return view(store);
  });
  assert.deepStrictEqual(result.chain, [[0, 0]]);
  assert.deepStrictEqual(result.current.status, "prefix");
  assert.deepStrictEqual(result.phase, "chaining");
});

test("a refused press leaves the other tabs chain and says so", async () => {
  const result = await run(async () => {
    const { store } = make();
    store.onMessage(snapshot());
    store.press(2, 2); store.enter(2, 1);
    // Another tab's chain arrives (no seq: not ours), then both our moves are refused.
    store.onMessage(reply([[0, 0], [0, 1]], { word: "CA", points: 2 }));
    const meanwhile = view(store);
    const refused = (code, request, seq) => ({ type: "error", code, request, message: "x", seq });
    store.onMessage(refused("state/already_chaining", "press", 1));
    store.onMessage(refused("state/not_your_chain", "enter", 2));
    return { meanwhile, after: view(store), message: store.state.message.say, release: store.release() };
  });
  assert.deepStrictEqual(result.meanwhile.chain, [[2, 2], [2, 1]]);
  assert.deepStrictEqual(result.after.chain, [[0, 0], [0, 1]]);
  assert.strictEqual(result.after.mine, false);
  assert.deepStrictEqual(result.message, "other_tab");
  assert.strictEqual(result.release, false);
});

test("a message without seq is someone elses and shown when nothing of ours is in flight", async () => {
  const result = await run(async () => {
    const { store } = make();
    store.onMessage(snapshot());
    store.press(0, 0);
    store.onMessage(reply([[0, 0]], { seq: 1, word: "C" }));  // the server says it copies seq
    store.cancel();
    store.onMessage(reply([], { seq: 2, status: "none" }));
    const idle = view(store);
    // Another tab drags: adopted at once, and not ours.
    store.onMessage(reply([[1, 1], [1, 2]], { word: "ON", points: 2 }));
    return { idle, other: view(store) };
  });
  assert.deepStrictEqual(result.idle.phase, "idle");
  assert.deepStrictEqual(result.other.chain, [[1, 1], [1, 2]]);
  assert.strictEqual(result.other.mine, false);
  assert.deepStrictEqual(result.other.current.status, "prefix");
  assert.deepStrictEqual(result.other.current.points, 2);
});

test("a server that does not copy seq back still catches up", async () => {
  // Servers from before "Move numbers": a reply that leaves the server where the tab is answers it.
  const result = await run(async () => {
    const { store } = make();
    store.onMessage(snapshot());
    store.press(0, 0); store.enter(0, 1); store.enter(0, 2);
    store.onMessage(reply([[0, 0]], { word: "C" }));
    store.onMessage(reply([[0, 0], [0, 1]], { word: "CA" }));
    const midway = view(store);
    store.onMessage(reply([[0, 0], [0, 1], [0, 2]], { word: "CAT", points: 5, status: "word" }));
    const caught = view(store);
    store.release();
    store.onMessage({ type: "word", word: "CAT", result: "scored", points: 5, total: 5, version: 1 });
    const judged = view(store);
    store.onMessage({ type: "board", changed: [{ row: 0, col: 0, letter: "B", score: 3 }], words_left: 8,
                      version: 1 });
    return { midway, caught, judged, after: view(store), total: store.state.total };
  });
  assert.deepStrictEqual(result.midway.chain, [[0, 0], [0, 1], [0, 2]]);
  assert.deepStrictEqual(result.midway.current.status, "pending");
  assert.deepStrictEqual(result.caught.current.status, "word");
  assert.deepStrictEqual(result.judged.phase, "busy");
  assert.deepStrictEqual(result.after.phase, "idle");
  assert.deepStrictEqual(result.total, 5);
});

test("every field of a tile reaches the view", async () => {
  const result = await run(async () => {
    const { store } = make();
    const odd = tile("Q", { mult: "TL", gem: true, sparkle: 7 });
    store.onMessage(snapshot({ board: [[odd, tile("A"), tile("T")], [tile("S"), tile("O"), tile("N")],
                                       [tile("D"), tile("E"), tile("R")]] }));
    const first = store.state.board[0][0];
    store.onMessage({ type: "board", changed: [{ row: 1, col: 1, letter: "X", score: 8, word_mult: 2,
                                                 glow: "new" }], words_left: 3, version: 1 });
    return { first, changed: store.state.board[1][1] };
  });
  assert.deepStrictEqual(result.first, { "letter": "Q", "score": 1, "mult": "TL", "gem": true, "sparkle": 7 });
  assert.deepStrictEqual(result.changed, { "letter": "X", "score": 8, "word_mult": 2, "glow": "new" });
});

test("rate limited moves stop the wait", async () => {
  const result = await run(async () => {
    const { store } = make();
    store.onMessage(snapshot());
    store.press(0, 0);
    store.onMessage(reply([[0, 0]], { seq: 1, word: "C" }));
    store.enter(0, 1); store.enter(0, 2);  // both dropped by the server: no reply will come
    // The warning names no move (it stands for all the dropped ones): stop waiting anyway.
    store.onMessage({ type: "error", code: "protocol/rate_limited", message: "slow down" });
    return view(store);
  });
  assert.deepStrictEqual(result.chain, [[0, 0]]);
  assert.deepStrictEqual(result.phase, "chaining");
});

test("a game the server no longer has leaves your games and the message says so", async () => {
  const { store } = make();
  store.onOpen();
  store.onMessage(snapshot());
  assert.ok(store.state.games.some((g) => g.game_id === "g"));
  store.onMessage({ type: "error", code: "game/gone", request: "press",
                    message: "the server no longer has this game (its storage lost it); start a new one" });
  assert.ok(!store.state.games.some((g) => g.game_id === "g"));
  assert.match(JSON.stringify(store.state.message), /no longer has this game/);
});
