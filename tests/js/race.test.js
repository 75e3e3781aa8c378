// A room's race in the page: its standings as words score, its end, a runner's own board that
// is never one of "Your games", and a spectator who follows a board and cannot play on it.
import assert from "node:assert/strict";
import { test } from "node:test";
const W = await import("../../static/js/view/wording.js");
import { memory } from "./support.js";

const S = await import("../../static/js/store.js");
const R = await import("../../static/js/race.js");
const V = await import("../../static/js/view.js");
const Stats = await import("../../static/js/stats.js");

let clock = 5000;
const config = { wordlists: [{ name: "en", title: "English" }], default_wordlist: "en" };
const tile = (letter) => ({ letter, score: 1 });
const seat = (name) => ({ name, kind: "human", level: null, speed: 1, connected: true, away: false, score: 0, gems: 0 });
const room = (you, race = { race_id: "r1", phase: "racing", deadline: 1e9, seconds: 60 }) => ({
  type: "room", code: "ABCDEF", host: 0, you, name: you === null ? "Di" : "Ann",
  seats: [seat("Ann"), seat("Bo"), null, null, null, null], spectators: 1,
  rules: { rounds: 5, turn_seconds: null, wordlist: "en", stand_in: "easy", values: "spellcast", mode: "race", race_seconds: 60 },
  match: null, race, grace: 120, version: 3,
});
const race = (you, extra = {}) => ({
  type: "race", race_id: "r1", wordlist: "en", seconds: 60, deadline: 1e9, remaining: 30, phase: "racing", you,
  runners: [{ seat: 0, name: "Ann", kind: "human", level: null, score: 0, words: 0, last: null },
            { seat: 1, name: "Bo", kind: "human", level: null, score: 0, words: 0, last: null }],
  version: 1, ...extra,
});
const game = (seat) => ({
  type: "game", game_id: `g${seat}`, token: "", seed: 1, wordlist: "en", wordlist_title: "English",
  language: "en", min_length: 3, size: 3, phase: "idle",
  board: [[tile("C"), tile("A"), tile("T")], [tile("S"), tile("O"), tile("N")], [tile("D"), tile("E"), tile("R")]],
  chain: [], word: "", points: 0, status: "none", already_found: false, total: 0, found: [], words_left: 9,
  version: 0, sprint: 60, deadline: 1e9, remaining: 30, race: { race_id: "r1", seat },
});
const overMessage = {
  type: "race_over", race_id: "r1",
  results: [{ seat: 1, name: "Bo", kind: "human", level: null, score: 9, words: [{ word: "TONE", points: 5 }, { word: "CAT", points: 4 }], only: ["TONE"] },
            { seat: 0, name: "Ann", kind: "human", level: null, score: 4, words: [{ word: "CAT", points: 4 }], only: [] }],
  board: [[tile("C"), tile("A"), tile("T")], [tile("S"), tile("O"), tile("N")], [tile("D"), tile("E"), tile("R")]],
  missed: [{ word: "DOES", points: 4, path: [[2, 0], [1, 1], [2, 1], [1, 0]] }],
};
const make = (you) => {
  const sent = [];
  const saved = S.savedGames(memory(), memory());
  const store = new S.Store({ send: (m) => { sent.push(m); return true; }, storage: saved, config, now: () => clock });
  store.onStatus({ state: "open", lost: false });
  store.onMessage(room(you));
  store.onMessage(race(you));
  return { store, sent, saved };
};

test("a runner races on their own board, in the room, and it never becomes one of Your games", () => {
  const { store, saved } = make(0);
  store.onMessage(game(0));
  assert.equal(V.screenOf(store.state), "race");
  assert.equal(store.state.mode, "room");
  assert.deepEqual(saved.list(), []);
  assert.equal(store.press(0, 0), true); // the runner's own board plays
  assert.equal(R.secondsLeft(store.state.race, clock + 10_000), 20);
});

test("standings move as anyone scores, best first", () => {
  const { store } = make(null);
  store.onMessage({ type: "race_standing", race_id: "r1", seat: 1, score: 7, words: 2, last: "TONE" });
  store.onMessage({ type: "race_standing", race_id: "other", seat: 0, score: 99, words: 9, last: "X" }); // another race's
  const lines = R.standings(store.state.race);
  assert.deepEqual(lines.map((r) => [r.name, r.score, r.words, r.last]), [["Bo", 7, 2, "TONE"], ["Ann", 0, 0, null]]);
});

test("a spectator follows a runner's board and cannot play on it", () => {
  const { store, sent } = make(null);
  assert.equal(store.room.follow(5), false); // nobody runs there
  assert.equal(store.room.follow(1), true);
  assert.deepEqual(sent.at(-1), { type: "follow", seat: 1 });
  store.onMessage(game(1));
  assert.equal(V.screenOf(store.state), "race");
  assert.equal(store.state.race.following, 1);
  // Whose board it is, in words: the score and words left shown are theirs.
  assert.match(W.messageText(store.state.message), /^Following Bo's board: the score above is theirs/);
});

test("a runner may not follow someone else's board while the race is on", () => {
  const { store, sent } = make(0);
  const before = sent.length;
  assert.equal(store.room.follow(1), false);
  assert.equal(sent.length, before);
});

test("the end shows everyone's words, the ones only one found, and lights a word nobody found", () => {
  const { store } = make(0);
  store.onMessage(game(0));
  store.onMessage(overMessage);
  assert.equal(V.screenOf(store.state), "race-over");
  const over = store.state.race.over;
  assert.deepEqual(over.results.map((r) => r.name), ["Bo", "Ann"]);
  assert.equal(over.results[0].only.has("TONE"), true);
  assert.equal(store.room.showRaceMissed(0), true);
  assert.deepEqual(store.state.race.shownPath.path, [[2, 0], [1, 1], [2, 1], [1, 0]]);
  assert.equal(store.room.showRaceMissed(0), true);
  assert.equal(store.state.race.shownPath, null);
  store.room.showLobby(true);
  assert.equal(V.screenOf(store.state), "lobby");
});

test("a race counts in Stats as a game with friends, for the runner, never for someone who followed a board", () => {
  const over = { type: "over", total: 4, found: [{ word: "CAT", points: 4 }], version: 2, missed: [] };
  const runner = make(0);
  const stats = Stats.statsMemory(memory(), { now: () => 1e12 });
  runner.store.subscribe((state, event) => stats.onEvent(state, event));
  runner.store.onMessage(game(0));
  runner.store.onMessage(over);
  const kept = stats.games();
  assert.equal(kept.length, 1); // kept, as a file of them would be read back
  assert.equal(kept[0].mode, "room");
  assert.deepEqual(kept[0].words, [["CAT", 4]]);
  const watcher = make(null);
  const theirs = Stats.statsMemory(memory(), { now: () => 1e12 });
  watcher.store.subscribe((state, event) => theirs.onEvent(state, event));
  watcher.store.room.follow(0);
  watcher.store.onMessage(game(0));
  watcher.store.onMessage(over);
  assert.deepEqual(theirs.games(), []);
});

test("a watcher's followed board takes no press, tap or typed letter; a runner's takes none once over", () => {
  const { store, sent } = make(null);
  store.room.follow(0);
  store.onMessage(game(0));
  const before = sent.length;
  assert.equal(store.press(0, 0), false);
  assert.equal(store.activate(0, 0, false), false);
  store.typeLetter("c");
  assert.equal(sent.length, before);
  assert.equal(store.state.spelling, null);
  const runner = make(0);
  runner.store.onMessage(game(0));
  runner.store.onMessage({ type: "over", total: 0, found: [], version: 1, missed: [] });
  assert.equal(runner.store.press(0, 0), false); // the clock ran out: the race's end is on its way
});

test("after a race, the room's next match plays: the race's board, over, is gone", () => {
  const { store, sent } = make(0);
  store.onMessage(game(0));
  store.onMessage({ type: "over", total: 0, found: [], version: 1, missed: [] });
  store.onMessage(overMessage);
  store.onMessage(room(0, null));
  store.onMessage({
    type: "match", match_id: "m1", room: "ABCDEF", you: 0, seats: [seat("Ann"), seat("Bo")].map((s, i) => ({ ...s, index: i })),
    turn: 0, round: 1, rounds: 1, phase: "playing", board: game(0).board, size: 3, specials: [], gems: [], chain: [],
    word: "", points: 0, status: "none", wordlist: "en", language: "en", min_length: 3, letters: {}, version: 1,
    deadline: null, plays: [], history: [], settings: {}, words_left: 9, turn_no: 1,
  });
  assert.equal(store.state.game, null);
  assert.equal(V.screenOf(store.state), "match");
  const before = sent.length;
  assert.equal(store.press(0, 0), true);
  assert.equal(sent.length, before + 1);
});

test("a runner is named as the race lists them, or by their seat when it does not", () => {
  const listed = R.raceOf(race(0), clock);
  assert.equal(R.runnerName(listed, 1), "Bo");
  assert.equal(R.runnerName(listed, 4), "Seat 5");
  assert.equal(R.runnerName(null, 2), "Seat 3");
});
