// The daily board (/daily's page): the day's game of this browser or the form to play it, the
// day's leaderboard, the name checked as the server checks it, Share, and the refusals that
// are the daily board's. Each function returns a change (change.js); the day's game itself
// plays as an endless game (endless.js), and this browser's days are daily.js's memory.

import * as P from "../protocol.js";

/** /daily's page opened: the day's game of this browser if it has one (else the form), and the leaderboard. */
export function opened(tab) {
  const ref = tab.ref ?? tab.dailyGame(tab.today());
  const send = [P.leaderboard(tab.player())];
  return ref ? { tab: { opening: ref }, send: [P.resume(ref.game_id, ref.token), ...send] } : { send };
}

/** The day's leaderboard, as the server sends it (after a game, and when asked). */
export function leaderboard(tab, message) {
  return { state: { dailyBoard: message }, event: { type: "leaderboard" } };
}

/** Play today's board under `name` (checked here as the server checks it, to say why at once). */
export function play(tab, name) {
  const trimmed = String(name ?? "").normalize("NFC").trim();
  if (trimmed.length < 1 || trimmed.length > 20) {
    return { state: { dailyError: { say: "name_length" } }, event: { type: "daily_error" }, ok: false };
  }
  if (tab.state.connection.state !== "open") return null;
  return {
    daily: { name: trimmed },
    state: { dailyName: trimmed, dailyError: null },
    send: [P.newDaily(tab.player(), trimmed)],
  };
}

/** Today's board again, after the scored try: the server makes it a replay, not scored. */
export const replay = (tab) => play(tab, tab.state.dailyName || "Player");

/** Share worked ("copied" to the clipboard, or "shared" through the phone's sheet), or not. */
export const shared = (tab, how) => ({ state: { shared: how }, event: { type: "shared" } });

/** On /daily's page: the day's game cannot be resumed (the form takes its place), or the attempt was refused. */
export function refused(tab, message) {
  const code = message.code;
  const request = message.request;
  if (tab.state.mode !== "daily" || !(request === "new_daily" || (request === "resume" && P.isLostGame(code)))) return null;
  if (request === "resume") return { daily: { game: null }, tab: { opening: null } };
  return { state: { dailyError: { text: message.message || code } }, tab: { opening: null } };
}
