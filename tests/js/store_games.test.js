// "Your games" (static/js/store/games.js) alone: what a new socket resumes, opening an entry, and
// a game the server cannot give back, each as the change the store would apply.
import assert from "node:assert/strict";
import { test } from "node:test";
import { tabOf } from "./store_support.js";

const G = await import("../../static/js/store/games.js");

const entry = { game_id: "g2", token: "t2", wordlist: "es", title: "Español" };
const match = { kind: "match", match_id: "m1", token: "tok" };
const lost = (code, extra = {}) => ({ type: "error", code, request: "resume", message: "gone", ...extra });

test("a new socket resumes what the tab plays, else this tab's saved game, else starts the game asked for", () => {
  assert.deepEqual(G.opened(tabOf()), { tab: { opening: { game_id: "g", token: "t" } }, send: [{ type: "resume", game_id: "g", token: "t" }] });
  const saved = G.opened(tabOf({ ref: null, current: () => match, state: { games: [{ ...match, title: "M" }] } }));
  assert.deepEqual(saved.tab.opening, { ...match, title: "M" }); // the entry, with its list, in case it is gone
  assert.deepEqual(saved.send, [{ type: "resume", match_id: "m1", token: "tok" }]);
  const asked = G.opened(tabOf({ ref: null, start: { wordlist: "es", seed: 3 }, current: () => entry }));
  assert.deepEqual(asked, { send: [{ type: "new_game", wordlist: "es", seed: 3 }] });
});

test("an entry of Your games opens once, from a game on screen, and not the one already shown", () => {
  const tab = tabOf({ state: { games: [entry] } });
  assert.deepEqual(G.open(tab, "g2"), { tab: { opening: entry, announce: "open" }, send: [{ type: "resume", game_id: "g2", token: "t2" }] });
  assert.equal(G.open({ ...tab, opening: entry }, "g2"), null);
  assert.equal(G.open(tab, "g"), null);
  assert.equal(G.open({ ...tab, canPlay: false }, "g2"), null);
  assert.equal(G.open(tab, "nothing"), null);
});

test("an entry that cannot be opened leaves the list, and the game on screen plays on", () => {
  const change = G.resumeRefused(tabOf({ opening: entry }), lost("game/not_found"));
  assert.deepEqual(change.forget, ["g2"]);
  assert.deepEqual(change.tab, { opening: null, announce: null });
  assert.equal(change.say.text, "gone");
  assert.equal(change.send, undefined);
  // One the server cannot load now (its list removed, say) stays, in case the list comes back.
  assert.equal(G.resumeRefused(tabOf({ opening: entry }), lost("game/unavailable")).forget, undefined);
});

test("with nothing on screen, a game that cannot be resumed is replaced by a new one in its list", () => {
  const change = G.resumeRefused(tabOf({ opening: entry, state: { live: false } }), lost("game/bad_token"));
  assert.deepEqual(change.forget, ["g2"]);
  assert.deepEqual(change.tab, { ref: null, opening: null, announce: "lost" });
  assert.deepEqual(change.send, [{ type: "new_game", wordlist: "es" }]);
  assert.equal(G.resumeRefused(tabOf(), lost("game/not_found", { request: "press" })), null);
  assert.equal(G.resumeRefused(tabOf(), lost("budget/resumes")), null);
});

test("a game the server no longer has leaves Your games, and nothing of ours is awaited", () => {
  const change = G.gone(tabOf({ state: { chain: [[0, 0]], mine: true } }), { type: "error", code: "game/gone", message: "lost" });
  assert.deepEqual(change.forget, ["g"]);
  assert.deepEqual(change.tab, { ref: null });
  assert.equal(change.giveUp, true);
  assert.deepEqual(change.state, { chain: [], mine: false });
  assert.equal(change.say.text, "lost");
});

test("a closed socket ends a resume in flight, and what it would have said", () => {
  assert.deepEqual(G.socketClosed(tabOf({ announce: "open" })), { tab: { opening: null, announce: null } });
  assert.deepEqual(G.socketClosed(tabOf({ announce: "new" })), { tab: { opening: null } });
});
