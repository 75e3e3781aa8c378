// Your numbers: each game recorded once from what the server told the store (an endless game a
// word at a time, a sprint and a daily try at their end, a match at its end), added up by mode,
// the daily streak by UTC date, kept in a storage that may be damaged or refuse, exported and
// imported without counting a game twice, and a bad file refused whole.
import assert from "node:assert/strict";
import { test } from "node:test";
import { memory } from "./support.js";
import { snapshot } from "./store_support.js";

const T = await import("../../static/js/store/stats.js");
const K = await import("../../static/js/stats.js");
const S = await import("../../static/js/store.js");
const D = await import("../../static/js/daily.js");
const W = await import("../../static/js/view/stats_wording.js");

const DAY = 86_400_000;
const NOV_28 = Date.parse("2026-11-28T12:00:00Z");

/** A Store whose events are recorded into `stats` (as main.js wires them), on an open socket. */
function playing({ storage = memory(), now = () => NOV_28, daily = false } = {}) {
  const store = new S.Store({
    send: () => true,
    storage: S.savedGames(memory(), memory()),
    daily: D.dailyMemory(memory()),
    config: { wordlists: [{ name: "en", title: "English" }], default_wordlist: "en", daily },
    now: () => 1000,
  });
  store.onStatus({ state: "open", lost: false });
  const stats = K.statsMemory(storage, { now });
  store.subscribe((state, event) => stats.onEvent(state, event));
  return { store, stats, storage };
}

const scored = (word, points, total) => ({ type: "word", word, result: "scored", points, total });
const game = (id, mode, at, words, extra = {}) => ({
  id, mode, at, score: words.reduce((sum, [, points]) => sum + points, 0), words, ...extra,
});
const daily = (date, day, words, scored = true) => game(`g:d${date}`, "daily", Date.parse(`${date}T09:00:00Z`), words, { daily: { date, day, scored } });

test("an endless game is one record that grows a word at a time; a refused word adds nothing", () => {
  const { store, stats } = playing();
  store.onMessage(snapshot());
  assert.deepEqual(stats.games(), []);
  store.onMessage(scored("CAT", 5, 5));
  store.onMessage({ type: "word", word: "XQZ", result: "not_a_word", total: 5 });
  store.onMessage(scored("DOE", 3, 8));
  // The list it was played in comes with it: its words show their definitions from that list.
  assert.deepEqual(stats.games(), [{ id: "g:g", mode: "endless", at: NOV_28, score: 8, words: [["CAT", 5], ["DOE", 3]], wordlist: "en" }]);
});

test("a sprint is recorded at its end with the server's final score, once even if its end is seen again", () => {
  const { store, stats } = playing();
  store.onMessage(snapshot({ sprint: 60, remaining: 60 }));
  store.onMessage(scored("CAT", 5, 5));
  assert.deepEqual(stats.games(), []); // not before it is over
  const over = { type: "over", total: 5, found: [{ word: "CAT", points: 5 }], missed: [], version: 2 };
  store.onMessage(over);
  store.onMessage(snapshot({ sprint: 60, remaining: 0, phase: "over", total: 5, found: over.found, missed: [] }));
  assert.deepEqual(stats.games(), [{ id: "g:g", mode: "sprint", at: NOV_28, score: 5, words: [["CAT", 5]], wordlist: "en", sprint: 60 }]);
});

test("a daily try is recorded at its end with its day, and whether it was scored", () => {
  const { store, stats } = playing({ daily: true }); // (on the daily's page)
  store.onMessage(snapshot({ sprint: 180, remaining: 180, daily: { day: 332, date: "2026-11-28", scored: true } }));
  store.onMessage({ type: "over", total: 7, found: [{ word: "TEA", points: 7 }], missed: [] });
  const [kept] = stats.games();
  assert.equal(kept.mode, "daily");
  assert.deepEqual(kept.daily, { date: "2026-11-28", day: 332, scored: true });
  const summary = stats.summary();
  assert.equal(summary.daily.streak, 1);
  assert.deepEqual(summary.daily.history, [{ date: "2026-11-28", day: 332, scored: true, score: 7, words: 1 }]);
});

test("a match is recorded at its end: our words from every turn, and each bot beaten or not", () => {
  const { store, stats } = playing();
  const seats = [
    { name: "You", kind: "human", level: null, score: 0 },
    { name: "Ada", kind: "bot", level: "easy", score: 0 },
    { name: "Bob", kind: "bot", level: "hard", score: 0 },
  ];
  store.onMessage({ type: "match", match_id: "m1", token: "t", you: 0, seats, round: 1, rounds: 1, turn: 0, phase: "playing",
                    board: [[{ letter: "A", score: 1 }]], chain: [], size: 1, history: [], version: 0 });
  const play = (word, points) => ({ word, points, path: [], breakdown: [] });
  store.onMessage({ type: "match_over", version: 1,
    ranking: [{ seat: 2, rank: 1, score: 40 }, { seat: 0, rank: 2, score: 20 }, { seat: 1, rank: 3, score: 9 }],
    turns: [{ seat: 0, played: play("QUIZ", 20) }, { seat: 1, played: play("AT", 9) }, { seat: 2, played: play("ZAX", 40) }] });
  assert.deepEqual(stats.games(), [{
    id: "m:m1", mode: "match", at: NOV_28, score: 20, words: [["QUIZ", 20]],
    bots: [{ level: "easy", beaten: true }, { level: "hard", beaten: false }],
  }]);
  assert.deepEqual(stats.summary().bots, [{ level: "easy", beaten: 1, played: 1 }, { level: "hard", beaten: 0, played: 1 }]);
});

test("a room's match watched from no seat is not ours to record", () => {
  const state = { match: { id: "m", phase: "over", you: null, room: "ABCDEF", seats: [], plays: [], summary: { ranking: [], turns: [] } } };
  assert.equal(T.recordOf(state, { type: "match_over" }, 1), null);
  assert.equal(T.recordOf({ ...state, match: { ...state.match, you: 0 } }, { type: "match_over" }, 1).mode, "room");
});

test("the summary adds up games, words and points by mode, the best word, and the words played most", () => {
  const games = [
    game("g:1", "endless", NOV_28 - 3 * DAY, [["CAT", 5], ["DOG", 5]]),
    game("g:2", "sprint", NOV_28 - 2 * DAY, [["CAT", 5], ["QUIZ", 22]], { sprint: 60, wordlist: "en" }),
    game("g:3", "sprint", NOV_28 - DAY, [["CAT", 5], ["JINX", 22]], { sprint: 180 }),
    game("m:4", "match", NOV_28, [["DOG", 6]], { bots: [{ level: "medium", beaten: true }] }),
  ];
  const summary = T.summaryOf(games, "2026-11-28");
  assert.equal(summary.games, 4);
  assert.equal(summary.words, 7);
  assert.deepEqual(summary.byMode, [
    { mode: "endless", games: 1, words: 2, points: 10 },
    { mode: "sprint", games: 2, words: 4, points: 54 },
    { mode: "match", games: 1, words: 1, points: 6 },
  ]);
  // The first of a tie, with the list it was played in (for its definition).
  assert.deepEqual(summary.best, { word: "QUIZ", points: 22, mode: "sprint", at: NOV_28 - 2 * DAY, wordlist: "en" });
  assert.deepEqual(summary.sprints.map((s) => [s.seconds, s.score]), [[60, 27], [180, 27]]); // oldest first
  assert.deepEqual(summary.topWords.slice(0, 2), [
    { word: "CAT", count: 3, wordlist: "en" }, // the latest list it was played in (a record made before lists were kept has none)
    { word: "DOG", count: 2, wordlist: null },
  ]);
  assert.equal(T.summaryOf([], "2026-11-28").empty, true);
});

test("the daily streak counts UTC days in a row up to today, and today not played yet does not break it", () => {
  const days = [daily("2026-11-24", 328, []), daily("2026-11-26", 330, []), daily("2026-11-27", 331, [["CAT", 5]]), daily("2026-11-27", 331, [], false)];
  Object.assign(days[3], { id: "g:second-try", at: days[3].at + 60_000 }); // played again, unscored
  assert.equal(T.summaryOf(days, "2026-11-27").daily.streak, 2);
  assert.equal(T.summaryOf(days, "2026-11-28").daily.streak, 2);
  assert.equal(T.summaryOf(days, "2026-11-29").daily.streak, 0);
  const summary = T.summaryOf(days, "2026-11-28");
  assert.equal(summary.daily.days, 3);
  assert.deepEqual(summary.daily.history.map((d) => [d.day, d.scored]), [[331, false], [331, true], [330, true], [328, true]]);
  assert.equal(W.STATS.day(summary.daily.history[0]), "#331, 27 Nov 2026: 0 points, 0 words (not scored)");
});

test("an export imported elsewhere gives the same numbers, and importing it twice changes nothing", () => {
  const here = playing();
  here.store.onMessage(snapshot());
  here.store.onMessage(scored("CAT", 5, 5));
  const file = here.stats.exportFile();
  assert.equal(file.name, "wibble-stats-2026-11-28.json");

  const there = K.statsMemory(memory(), { now: () => NOV_28 + DAY });
  assert.deepEqual(there.importText(file.text), { games: there.games(), added: 1, updated: 0 });
  assert.deepEqual(there.games(), here.stats.games());
  assert.deepEqual(there.importText(file.text).added, 0);
  assert.deepEqual(there.games(), here.stats.games());
  const { newer, ...numbers } = there.summary();
  assert.equal(newer, false);
  assert.equal(numbers.words, 1);
  assert.equal(W.importText({ added: 0, updated: 0 }), "Nothing new in that file: every game in it is here already.");
});

test("a game in both browsers is counted once, with its fuller record and its first time", () => {
  const early = game("g:1", "endless", 100, [["CAT", 5]]);
  const later = game("g:1", "endless", 200, [["CAT", 5], ["DOG", 5]]);
  const merged = T.merge([early], [later]);
  assert.deepEqual(merged.games, [{ ...later, at: 100 }]);
  assert.deepEqual([merged.added, merged.updated], [0, 1]);
  assert.deepEqual(T.merge(merged.games, [early]).games, merged.games); // and the other way, nothing
});

test("a bad file is refused whole with a reason, and nothing of it is kept", () => {
  const storage = memory();
  const stats = K.statsMemory(storage, { now: () => NOV_28 });
  const good = game("g:1", "endless", 100, [["CAT", 5]]);
  const file = (games, extra = {}) => JSON.stringify({ format: T.FORMAT, version: 1, games, ...extra });
  assert.deepEqual(stats.importText("{not json"), { error: "not_json" });
  assert.deepEqual(stats.importText(JSON.stringify({ hello: 1 })), { error: "not_stats" });
  assert.deepEqual(stats.importText(file([good], { version: 2 })), { error: "newer" });
  assert.deepEqual(stats.importText(file([good, { ...good, id: "g:2", score: -1 }])), { error: "damaged", index: 2 });
  assert.deepEqual(stats.importText(file([{ ...good, words: [["<b>", 1]] }])), { error: "damaged", index: 1 });
  assert.deepEqual(stats.importText(file([{ ...good, wordlist: "../en" }])), { error: "damaged", index: 1 }); // not a list's name
  assert.deepEqual(stats.importText(file([{ ...good, mode: "match" }])), { error: "damaged", index: 1 }); // a match without its bots, a game's id
  assert.deepEqual(stats.importText(file([{ ...good, mode: "daily", id: "g:d", daily: { date: "2026-02-30", day: 1, scored: true } }])), { error: "damaged", index: 1 });
  assert.deepEqual(stats.importText("x".repeat(T.MAX_FILE_BYTES + 1)), { error: "too_big" });
  assert.deepEqual(storage.keys(), []);
  assert.equal(W.importText({ error: "damaged", index: 2 }), "That file is damaged (game 2 in it). Nothing was imported.");
  assert.equal(W.importText({ error: "not_stats" }), "That file is not Wibble stats. Nothing was imported.");
});

test("a damaged or foreign value in storage never breaks the page; a newer Wibble's is left alone", () => {
  const storage = memory();
  const good = game("g:1", "endless", 100, [["CAT", 5]]);
  for (const value of ["{oops", "null", "42", JSON.stringify({ format: "other" }), JSON.stringify({ format: T.FORMAT, version: 1, games: "x" })]) {
    storage.setItem(K.STATS_KEY, value);
    assert.deepEqual(K.statsMemory(storage).games(), []);
  }
  // One damaged record is dropped; the rest stay.
  storage.setItem(K.STATS_KEY, JSON.stringify({ format: T.FORMAT, version: 1, games: [good, { id: 3 }] }));
  assert.deepEqual(K.statsMemory(storage).games(), [good]);
  const newer = JSON.stringify({ format: T.FORMAT, version: 9, games: [{ whatever: true }] });
  storage.setItem(K.STATS_KEY, newer);
  const stats = K.statsMemory(storage);
  assert.equal(stats.summary().newer, true);
  assert.deepEqual(stats.importText(T.fileText([good], 0)), { error: "newer_kept" });
  assert.equal(storage.getItem(K.STATS_KEY), newer);
  // A browser that refuses storage: nothing is counted, nothing breaks.
  const refusing = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("denied"); } };
  const nowhere = K.statsMemory(refusing);
  nowhere.onEvent({ game: { id: "g", sprint: null, daily: null }, match: null, total: 5, found: [{ word: "CAT", points: 5 }] }, scored("CAT", 5, 5));
  assert.deepEqual(nowhere.games(), []);
  assert.deepEqual(nowhere.importText(T.fileText([good], 0)), { error: "storage" });
});

test("the chart draws a series per sprint length on a round scale, in time order", () => {
  const sprints = [{ seconds: 60, score: 10 }, { seconds: 180, score: 35 }, { seconds: 60, score: 20 }];
  const chart = T.chartOf(sprints, { width: 100, height: 60, pad: { top: 0, right: 0, bottom: 0, left: 0 } });
  assert.deepEqual(chart.ticks.map((t) => t.value), [0, 20, 40]);
  assert.deepEqual(chart.series.map((s) => [s.seconds, s.points]), [[60, [[0, 45], [100, 30]]], [180, [[50, 7.5]]]]);
  assert.deepEqual([T.niceTop(0), T.niceTop(11), T.niceTop(45), T.niceTop(101), T.niceTop(999)], [10, 20, 50, 200, 1000]);
  assert.match(W.STATS.chartLabel(sprints), /3 sprints, from 10 pts to 35 pts/);
});
