// The endless game (static/js/store/endless.js) alone: a snapshot, a word judged, tiles
// replaced, a sprint's end and a refused word list, each as the change the store would apply.
import assert from "node:assert/strict";
import { test } from "node:test";
import { config, snapshot, tabOf } from "./store_support.js";

const E = await import("../../static/js/store/endless.js");
const T = await import("../../static/js/sprint.js");

test("a new game's snapshot goes on screen and into Your games, and says why it came", () => {
  const change = E.gameSnapshot(tabOf({ state: { game: null }, announce: "lost" }), snapshot({ total: 7, found: [{ word: "CAT", points: 7 }] }));
  assert.deepEqual(change.remember, { game_id: "g", token: "t", wordlist: "en", title: "English", total: 7, words: 1 });
  assert.equal(change.daily, undefined);
  assert.deepEqual(change.tab, { ref: { game_id: "g", token: "t" }, opening: null, start: null, fellBack: false, announce: null });
  assert.deepEqual([change.state.mode, change.state.total, change.state.board[0][0].letter], ["endless", 7, "C"]);
  assert.deepEqual(change.say, { kind: "info", say: "game_lost", title: "English" });
  // Whether Your games kept it is known once the store has saved it: `saved: null` is filled in.
  assert.deepEqual(change.event, { type: "game", fresh: true, fromUrl: false, saved: null });
});

test("the same game again says nothing, unless no word is left on its board", () => {
  assert.equal(E.gameSnapshot(tabOf({ announce: "open" }), snapshot()).say, undefined);
  assert.equal(E.gameSnapshot(tabOf(), snapshot({ words_left: 0 })).say.say, "no_words_left");
});

test("the daily board's game is kept in the daily memory, not in Your games", () => {
  const daily = { day: 328, date: "2026-11-24", scored: true };
  const onDaily = { ...config, daily: true }; // (the daily's own page, /daily)
  const change = E.gameSnapshot(tabOf({ state: { game: null, config: onDaily } }), snapshot({ daily }));
  assert.deepEqual(change.daily, { game: { game_id: "g", token: "t", date: "2026-11-24" } });
  assert.equal(change.remember, undefined);
  assert.equal(change.state.mode, "daily");
  assert.equal(change.event.saved, true);
  assert.equal(change.say.say, "daily_scored");
  const again = E.gameSnapshot(tabOf({ state: { game: null, config: onDaily } }), snapshot({ daily: { ...daily, scored: false } }));
  assert.equal(again.say.say, "daily_practice"); // a second try says it is for fun
  // Over while away: its end screen asks for the day's leaderboard as it is now.
  const ended = E.gameSnapshot(tabOf({ state: { game: { id: "g" }, config: onDaily } }), snapshot({ daily, sprint: 180, phase: "over" }));
  assert.deepEqual(ended.send, [{ type: "leaderboard", player: "P".repeat(32) }]);
  // Come back to a try already over: never "this try is scored" again (its end screen says how it went).
  const back = E.gameSnapshot(tabOf({ state: { game: null, config: onDaily } }), snapshot({ daily, sprint: 180, phase: "over" }));
  assert.equal(back.say, undefined);
});

test("a daily try resumed on the main page (an older page kept it in Your games) leaves the list for a game of the page's own", () => {
  const daily = { day: 328, date: "2026-11-24", scored: true };
  const change = E.gameSnapshot(tabOf({ state: { game: null } }), snapshot({ daily }));
  assert.deepEqual(change.forget, ["g"]);
  assert.deepEqual(change.send, [{ type: "new_game", wordlist: "en" }]);
  assert.equal(change.state, undefined); // nothing of the try on screen
  // Opened from the list while a game is on screen: that game plays on, nothing new is started.
  const opened = E.gameSnapshot(tabOf({ opening: { game_id: "g", token: "t" } }), snapshot({ daily }));
  assert.deepEqual(opened.forget, ["g"]);
  assert.equal(opened.send, undefined);
  assert.deepEqual(opened.tab, { opening: null, announce: null });
});

test("a scored word adds to the words found and the total, and its tiles wait for their replacements", () => {
  const tab = tabOf({ state: { confirmed: { chain: [[0, 0], [0, 1], [0, 2]], seat: null } } });
  const change = E.wordJudged(tab, { type: "word", word: "CAT", result: "scored", points: 5, total: 5 }, "latest");
  assert.deepEqual(change.state.found, [{ word: "CAT", points: 5 }]);
  assert.equal(change.state.total, 5);
  assert.deepEqual([...change.state.refilling], ["0,0", "0,1", "0,2"]);
  assert.deepEqual(change.state.chain, []);
  assert.deepEqual(change.remember, { game_id: "g", token: "t", total: 5, words: 1 });
  assert.deepEqual([change.say.kind, change.say.total], ["scored", 5]);
});

test("a word scored on the daily board or a race's board leaves Your games as they were", () => {
  const word = { type: "word", word: "CAT", result: "scored", points: 5, total: 5 };
  const confirmed = { chain: [[0, 0], [0, 1], [0, 2]], seat: null };
  for (const kind of [{ daily: { day: 3, date: "2026-12-08", scored: true } }, { race: { race_id: "r", seat: 0 } }]) {
    const change = E.wordJudged(tabOf({ state: { confirmed, game: { id: "g", ...kind } } }), word, "latest");
    assert.equal(change.state.total, 5);
    assert.equal(change.remember, undefined);
  }
});

test("in a match, another seat's refused word is not ours to be told", () => {
  const tab = tabOf({ state: { match: { you: 0, minLength: 4 } } });
  const theirs = E.wordJudged(tab, { type: "word", word: "XQ", result: "not_a_word", seat: 1 }, "other");
  assert.equal(theirs.say, undefined);
  assert.deepEqual(theirs.event, { type: "word", result: "not_a_word", word: "XQ", seat: 1 });
  const mine = E.wordJudged(tab, { type: "word", word: "XQ", result: "too_short", seat: 0 }, "latest");
  assert.equal(mine.say.minLength, 4);
});

test("replaced tiles come as the server sent them; a shuffle in a match says who did it", () => {
  const tab = tabOf({ state: { refilling: new Set(["0,0"]) } });
  const change = E.boardChanged(tab, { type: "board", changed: [{ row: 0, col: 0, letter: "B", score: 3 }, { row: 9, col: 0, letter: "Z" }], words_left: 0 });
  assert.deepEqual(change.state.board[0][0], { letter: "B", score: 3 });
  assert.equal(tab.state.board[0][0].letter, "C"); // the board on screen is not written
  assert.deepEqual(change.event, { type: "board", changed: [[0, 0]], reason: "refill" });
  assert.equal(change.say.say, "no_words_left");
  const match = { you: 0, turn: 1, hint: { word: "CAT" }, seats: [{ name: "You" }, { name: "Ada" }] };
  const shuffled = E.boardChanged(tabOf({ state: { match } }), { type: "board", changed: [], reason: "shuffle", words_left: 3 });
  assert.equal(shuffled.state.match.hint, null); // its path may no longer spell it
  assert.equal(match.hint.word, "CAT");
  assert.deepEqual([shuffled.say.say, shuffled.say.mine, shuffled.say.name], ["shuffled", false, "Ada"]);
  const yours = { ...match, turn: 0 };
  const board = [[{ letter: "C" }, { letter: "A" }]];
  const swap = { type: "board", changed: [{ row: 0, col: 1, letter: "E", score: 1 }], reason: "swap", words_left: 3 };
  const swapped = E.boardChanged(tabOf({ state: { match: yours, board } }), swap);
  assert.deepEqual([swapped.say.say, swapped.say.mine, swapped.say.was, swapped.say.letter], ["swapped", true, "A", "E"]);
});

test("a sprint's end: the final score, kept in Your games, or in the days played for a scored daily", () => {
  const sprint = { seconds: 60, endsAt: 0, over: false, missed: [] };
  const over = { type: "over", total: 12, found: [{ word: "CAT", points: 5 }], missed: [{ word: "TON", points: 3, path: [[0, 2]] }] };
  const endless = E.sprintOver(tabOf({ state: { game: { id: "g", wordlist: "en", title: "English", sprint, daily: null } } }), over);
  assert.deepEqual(endless.remember, { game_id: "g", token: "t", wordlist: "en", title: "English", total: 12, words: 1 });
  assert.deepEqual([endless.state.game.sprint.over, endless.state.game.sprint.missed[0].word], [true, "TON"]);
  assert.deepEqual(endless.say, { kind: "info", say: "time_up", total: 12, words: 1 });
  const daily = { day: 3, date: "2026-11-24", scored: true };
  const scored = E.sprintOver(tabOf({ state: { game: { id: "g", sprint, daily } } }), over);
  assert.deepEqual(scored.daily, { record: { date: "2026-11-24", day: 3, score: 12, words: 1 } });
  assert.equal(scored.remember, undefined);
  assert.equal(E.sprintOver(tabOf(), over), null); // an untimed game has no end
});

test("a missed word's path lights on the final board, and goes out when asked again", () => {
  const missed = [{ word: "TON", points: 3, path: [[0, 2], [1, 1]] }];
  const game = { id: "g", sprint: { over: true, missed } };
  const shown = E.showMissed(tabOf({ state: { game } }), 0);
  assert.deepEqual(shown.state.shownPath, { word: "TON", path: [[0, 2], [1, 1]] });
  assert.equal(E.showMissed(tabOf({ state: { game, shownPath: shown.state.shownPath } }), 0).state.shownPath, null);
  assert.equal(E.showMissed(tabOf({ state: { game: { id: "g", sprint: { over: false, missed } } } }), 0), null);
});

test("a word list the server lacks, with nothing on screen: the default list, once", () => {
  const refused = { type: "error", code: "game/unknown_wordlist", message: "no such list" };
  const change = E.listRefused(tabOf({ state: { live: false }, start: { wordlist: "xx", seed: 4 } }), refused);
  assert.deepEqual(change.send, [{ type: "new_game", seed: 4 }]);
  assert.deepEqual(change.tab, { fellBack: true, announce: "fallback" });
  assert.equal(E.listRefused(tabOf({ state: { live: false }, fellBack: true }), refused), null);
  assert.equal(E.listRefused(tabOf(), refused), null); // a game on screen plays on
});

test("I'm done asks once, ends the sprint at a second press soon after, and never outside a running sprint", () => {
  const sprint = { seconds: 60, endsAt: 61_000, over: false, missed: [] };
  const game = { id: "g", sprint, daily: { day: 328, date: "2026-11-24", scored: true } };
  const first = E.done(tabOf({ state: { game, mode: "daily", doneAsked: null }, now: () => 1000 }));
  assert.deepEqual(first.state, { doneAsked: 1000 });
  assert.equal(first.send, undefined); // a mis-tap throws nothing away
  assert.deepEqual([first.say.say, first.say.daily, first.ok], ["done_confirm", true, false]);
  assert.equal(first.say.lasts, T.DONE_CONFIRM_MS); // the line asks no longer than a press would end it
  const second = E.done(tabOf({ state: { game, mode: "daily", doneAsked: 1000 }, now: () => 3000 }));
  assert.deepEqual(second.send, [{ type: "done" }]);
  assert.deepEqual(second.state, { doneAsked: null });
  // Confirmed with no connection: said so, nothing sent, and the button asks afresh next time.
  const offline = E.done(tabOf({ state: { game, mode: "daily", doneAsked: 1000, connection: { state: "waiting" } }, now: () => 3000 }));
  assert.deepEqual([offline.send, offline.say.say, offline.state.doneAsked], [undefined, "done_offline", null]);
  // Too long after the first press, it asks again.
  const late = E.done(tabOf({ state: { game, mode: "daily", doneAsked: 1000 }, now: () => 7000 }));
  assert.equal(late.send, undefined);
  assert.equal(E.done(tabOf()), null); // untimed
  assert.equal(E.done(tabOf({ state: { game: { ...game, sprint: { ...sprint, over: true } }, mode: "daily" } })), null);
  // Ended early: the end says so.
  const over = E.sprintOver(tabOf({ state: { game } }), { type: "over", total: 9, found: [], missed: [], early: true });
  assert.deepEqual([over.say.say, over.state.game.sprint.early, over.state.doneAsked], ["ended_early", true, null]);
});
