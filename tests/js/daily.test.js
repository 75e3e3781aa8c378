// The daily board in this browser: the share text (no letter of the board), the streak and the
// best days, the player's id and the day's game kept in localStorage, and the store's flow.
import assert from "node:assert/strict";
import { test } from "node:test";
import { memory } from "./support.js";

const D = await import("../../static/js/daily.js");
const S = await import("../../static/js/store.js");
const W = await import("../../static/js/view/wording.js");

const found = [
  { word: "CAT", points: 5 }, { word: "CATS", points: 6 }, { word: "COATS", points: 7 },
  { word: "CASTLE", points: 9 }, { word: "CASTLES", points: 11 }, { word: "ACT", points: 5 },
];

test("the picture is a square a word, coloured by its length, five to a row, and holds no letter", () => {
  assert.equal(D.pictureOf(found), "🟨🟩🟦🟪🟥\n🟨");
  assert.equal(D.pictureOf([]), "⬜");
  const text = D.shareText({ heading: W.DAILY.share(328, 43, found.length), found, url: "https://wibble.example/daily" });
  assert.equal(text, "Wibble daily #328: 43 points, 6 words\n🟨🟩🟦🟪🟥\n🟨\nhttps://wibble.example/daily");
  const [, ...rest] = text.split("\n");
  assert.doesNotMatch(rest.slice(0, -1).join(""), /\p{L}/u); // the picture: no letter at all
  for (const { word } of found) assert.ok(!text.toUpperCase().includes(word));
});

test("a streak counts the days in a row up to today, and today not played yet does not break it", () => {
  let days = {};
  for (const date of ["2026-11-20", "2026-11-22", "2026-11-23"]) days = D.recordDay(days, { date, day: 1, score: 10, words: 2 });
  assert.equal(D.streakOf(days, "2026-11-23"), 2);
  assert.equal(D.streakOf(days, "2026-11-24"), 2);
  assert.equal(D.streakOf(days, "2026-11-25"), 0);
  assert.equal(D.dayBefore("2026-03-01"), "2026-02-28");
});

test("a day counts once, with its first result, and the best days come highest first", () => {
  let days = D.recordDay({}, { date: "2026-11-20", day: 324, score: 30, words: 5 });
  days = D.recordDay(days, { date: "2026-11-20", day: 324, score: 90, words: 9 });
  days = D.recordDay(days, { date: "2026-11-21", day: 325, score: 40, words: 6 });
  assert.deepEqual(D.bestDays(days).map((d) => [d.day, d.score]), [[325, 40], [324, 30]]);
});

test("the player's id is made once and kept; a browser that refuses storage still plays", () => {
  const storage = memory();
  const kept = D.dailyMemory(storage);
  const id = kept.player();
  assert.equal(id.length, 32);
  assert.equal(D.dailyMemory(storage).player(), id);
  const refusing = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("denied"); } };
  const page = D.dailyMemory(refusing);
  assert.equal(page.player(), page.player());
  assert.deepEqual(page.days(), {});
});

test("on /daily the page asks for the leaderboard, plays under a checked name, and records a scored day", () => {
  const sent = [];
  const storage = memory();
  const store = new S.Store({
    send: (m) => { sent.push(m); return true; }, storage: S.savedGames(memory(), memory()),
    daily: D.dailyMemory(storage), config: { wordlists: [], default_wordlist: "en", daily: true },
    now: () => 0, today: () => "2026-11-24",
  });
  store.onStatus({ state: "open", lost: false });
  store.onOpen();
  assert.equal(sent[0].type, "leaderboard");
  assert.equal(sent[0].player.length, 32);
  assert.equal(store.playDaily("   "), false);
  assert.deepEqual(store.state.dailyError, { say: "name_length" });
  assert.equal(store.playDaily(" Ann "), true);
  assert.deepEqual(sent.at(-1), { type: "new_daily", player: sent[0].player, name: "Ann" });
  const tile = (letter) => ({ letter, score: 1 });
  store.onMessage({
    type: "game", game_id: "g", token: "t", seed: 1, wordlist: "en", wordlist_title: "English", language: "en",
    min_length: 3, size: 1, phase: "idle", board: [[tile("A")]], chain: [], word: "", points: 0, status: "none",
    already_found: false, total: 0, found: [], words_left: 1, version: 0, sprint: 180, remaining: 180,
    daily: { day: 328, date: "2026-11-24", scored: true },
  });
  assert.equal(store.state.mode, "daily");
  assert.deepEqual(store.state.games, []); // the day's game is not one of "Your games"
  assert.deepEqual(D.dailyMemory(storage).game("2026-11-24"), { game_id: "g", token: "t", date: "2026-11-24" });
  store.onMessage({ type: "over", total: 12, found: [{ word: "CAT", points: 5 }, { word: "TEA", points: 7 }], missed: [], version: 3 });
  assert.deepEqual(store.state.days, { "2026-11-24": { day: 328, score: 12, words: 2 } });
});
