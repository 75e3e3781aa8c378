// The daily board's part of the store (static/js/store/daily.js) alone, from a plain tab: the
// day's game resumed, the name checked, the refusals that are the daily page's.
import assert from "node:assert/strict";
import { test } from "node:test";
import { tabOf } from "./store_support.js";

const DP = await import("../../static/js/store/daily.js");

test("the daily page resumes the day's game of this browser, if any, and asks for the leaderboard", () => {
  const player = "P".repeat(32);
  assert.deepEqual(DP.opened(tabOf({ ref: null })), { send: [{ type: "leaderboard", player }] });
  const game = { game_id: "d", token: "t", date: "2026-11-24" };
  const change = DP.opened(tabOf({ ref: null, dailyGame: (date) => (date === "2026-11-24" ? game : null) }));
  assert.deepEqual(change.tab, { opening: game });
  assert.deepEqual(change.send, [{ type: "resume", game_id: "d", token: "t" }, { type: "leaderboard", player }]);
});

test("the name is checked as the server checks it, kept, and sent with the player's id", () => {
  assert.deepEqual(DP.play(tabOf(), " ".repeat(3)), { state: { dailyError: { say: "name_length" } }, event: { type: "daily_error" }, ok: false });
  assert.equal(DP.play(tabOf(), "x".repeat(21)).ok, false);
  assert.equal(DP.play(tabOf({ state: { connection: { state: "closed" } } }), "Ann"), null);
  const change = DP.play(tabOf(), " Ann ");
  assert.deepEqual(change.daily, { name: "Ann" });
  assert.deepEqual(change.send, [{ type: "new_daily", player: "P".repeat(32), name: "Ann" }]);
  assert.deepEqual(DP.replay(tabOf({ state: { dailyName: "" } })).send[0].name, "Player");
});

test("on the daily page, a day's game that cannot be resumed is forgotten; a refused attempt is said", () => {
  const daily = { state: { mode: "daily" } };
  const gone = DP.refused(tabOf(daily), { type: "error", code: "game/not_found", request: "resume" });
  assert.deepEqual(gone, { daily: { game: null }, tab: { opening: null } });
  const refused = DP.refused(tabOf(daily), { type: "error", code: "daily/played", request: "new_daily", message: "once a day" });
  assert.deepEqual(refused.state, { dailyError: { text: "once a day" } });
  assert.equal(DP.refused(tabOf(), { type: "error", code: "game/not_found", request: "resume" }), null);
});
