// Your numbers: this browser's own games, one record each, added up when the Stats view opens.
// Only what the server told the page goes in (a score, a word and its points are always the
// server's, as the page showed them), read from the store's state at the events that grow or
// end a game. No DOM and no storage: the browser's copy is ../stats.js's, the view is
// ../view/stats.js's. A file to import is checked here, whole, before any of it is kept.
//
// A record: {id, mode, at, score, words: [[word, points], …]}, `wordlist` (the list it was played
// in, so that its words show their definitions from it; records kept before it have none) and, by
// mode, `sprint` (its seconds), `daily` ({date, day, scored}) or `bots` ([{level, beaten}]). `id` is the server's
// game or match id ("g:…" or "m:…"), so a game is one record however often it is recorded or
// imported: that is what keeps an import from counting anything twice.

import { dateOf, streakOf } from "../daily.js";

export const FORMAT = "wibble-stats";
export const STATS_VERSION = 1;
export const MODES = Object.freeze(["endless", "sprint", "daily", "match", "room"]);
export const LEVELS = Object.freeze(["easy", "medium", "hard"]);
/** The newest games kept (a few hundred kB at most in localStorage, which holds 5 MB a site). */
export const MAX_GAMES = 2000;
/** A bigger file is no export of ours (MAX_GAMES long endless games come to about 2 MB). */
export const MAX_FILE_BYTES = 8_000_000;
export const TOP_WORDS = 10;
export const SPRINTS_CHARTED = 30;
export const DAYS_LISTED = 14;

const MAX_WORDS = 5000; // in one game: far more than any board gives in a day of play
const isInt = (value, min, max) => Number.isInteger(value) && value >= min && value <= max;
const isDate = (value) => typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) && dateOf(Date.parse(`${value}T00:00:00Z`) || 0) === value;
const isWord = (value) => typeof value === "string" && value.length <= 40 && /^[\p{L}\p{M}]+$/u.test(value);
const isMatchMode = (mode) => mode === "match" || mode === "room";
const isListName = (value) => typeof value === "string" && /^[\p{L}\p{N}_.-]{1,64}$/u.test(value);
/** `record` with the list it was played in, when the server named one. */
const inList = (record, wordlist) => (isListName(wordlist) ? { ...record, wordlist } : record);

// -- recording ---------------------------------------------------------------------------

const wordsOf = (found) => found.map(({ word, points }) => [word, points]);

/**
 * The record a store event makes, or null: an endless game at each word it scores (it has no
 * end), a sprint or a daily try once it is over (its `over`, or the snapshot of one that ended
 * while away), a match once it is over, for a seat of ours (not when watching a room).
 */
export function recordOf(state, event, now) {
  if (event.type === "match_over" || event.type === "match") return matchRecord(state.match, now);
  const game = state.game;
  if (!game || state.match) return null;
  const sprintOver = game.sprint?.over === true && (event.type === "over" || event.type === "game");
  const endlessWord = !game.sprint && event.type === "word" && event.result === "scored";
  if (!sprintOver && !endlessWord) return null;
  const record = inList({ id: `g:${game.id}`, mode: "endless", at: now, score: state.total, words: wordsOf(state.found) }, game.wordlist);
  // A race counts as a game with friends, for the runner only (a board followed is someone else's),
  // under the race's id, with the bots that ran beside them.
  if (game.race) return raceRecord(state, record);
  if (game.daily) return { ...record, mode: "daily", daily: { date: game.daily.date, day: game.daily.day, scored: game.daily.scored === true } };
  if (game.sprint) return { ...record, mode: "sprint", sprint: game.sprint.seconds };
  return record;
}

function raceRecord(state, record) {
  const { race } = state;
  const you = state.game.race.seat;
  if (!race || race.id !== state.game.race.race_id || you !== race.you) return null;
  const scoreOf = (seat) => race.runners.find((runner) => runner.seat === seat)?.score ?? 0;
  const score = Math.max(record.score, scoreOf(you));
  const bots = race.runners
    .filter((runner) => runner.kind === "bot" && LEVELS.includes(runner.level))
    .map((runner) => ({ level: runner.level, beaten: score > runner.score }));
  return { ...record, id: `m:${race.id}`, mode: "room", bots };
}

function matchRecord(match, now) {
  if (!match || match.phase !== "over" || match.you === null || !match.summary) return null;
  const you = match.you;
  const scoreOf = (seat) => match.summary.ranking.find((entry) => entry.seat === seat)?.score ?? match.seats[seat]?.score ?? 0;
  const score = scoreOf(you);
  // The end screen's turns are every turn of the match; the side panel's plays only the last 50.
  const turns = match.summary.turns.filter((turn) => turn.seat === you && turn.played?.word);
  const plays = turns.length ? turns.map((turn) => turn.played) : match.plays.filter((play) => play.seat === you);
  return inList({
    id: `m:${match.id}`,
    mode: match.room ? "room" : "match",
    at: now,
    score,
    words: plays.map(({ word, points }) => [word, points ?? 0]),
    bots: match.seats
      .filter((seat) => seat.kind === "bot" && LEVELS.includes(seat.level))
      .map((seat) => ({ level: seat.level, beaten: score > scoreOf(seat.index) })),
  }, match.wordlist);
}

/** The fuller of two records of one game: more words, else more points; `kept` on a tie. */
const fuller = (kept, other) =>
  other.words.length > kept.words.length || (other.words.length === kept.words.length && other.score > kept.score) ? other : kept;

const newestFirst = (a, b) => b.at - a.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * `games` with `incoming` added: a game already there keeps its first time and takes the
 * fuller record (an endless game grows a word at a time); newest first, the newest MAX_GAMES.
 * Returns {games, added, updated}; adding the same records again changes nothing.
 */
export function merge(games, incoming) {
  const byId = new Map(games.map((game) => [game.id, game]));
  let added = 0;
  let updated = 0;
  for (const game of incoming) {
    const kept = byId.get(game.id);
    if (!kept) {
      byId.set(game.id, game);
      added += 1;
    } else if (fuller(kept, game) !== kept) {
      byId.set(game.id, { ...game, at: Math.min(kept.at, game.at) });
      updated += 1;
    }
  }
  return { games: [...byId.values()].sort(newestFirst).slice(0, MAX_GAMES), added, updated };
}

// -- checking what is read ---------------------------------------------------------------

/** A record as kept, with only its known fields, or null if any of it is not what we write. */
export function cleanGame(value) {
  if (!value || typeof value !== "object") return null;
  const { id, mode, at, score, words } = value;
  if (!MODES.includes(mode) || typeof id !== "string" || !/^[gm]:[\x21-\x7e]{1,120}$/.test(id)) return null;
  if (id[0] !== (isMatchMode(mode) ? "m" : "g")) return null;
  if (!isInt(at, 1, 8.64e15) || !isInt(score, 0, 1e7) || !Array.isArray(words) || words.length > MAX_WORDS) return null;
  if (!words.every((pair) => Array.isArray(pair) && pair.length === 2 && isWord(pair[0]) && isInt(pair[1], 0, 1e5))) return null;
  const game = { id, mode, at, score, words: words.map(([word, points]) => [word, points]) };
  if (value.wordlist !== undefined) {
    if (!isListName(value.wordlist)) return null;
    game.wordlist = value.wordlist;
  }
  if (mode === "sprint") {
    if (!isInt(value.sprint, 1, 86_400)) return null;
    game.sprint = value.sprint;
  }
  if (mode === "daily") {
    const daily = value.daily;
    if (!daily || !isDate(daily.date) || !isInt(daily.day, 0, 1e6) || typeof daily.scored !== "boolean") return null;
    game.daily = { date: daily.date, day: daily.day, scored: daily.scored };
  }
  if (isMatchMode(mode)) {
    const bots = value.bots;
    if (!Array.isArray(bots) || bots.length > 10) return null;
    if (!bots.every((bot) => bot && LEVELS.includes(bot.level) && typeof bot.beaten === "boolean")) return null;
    game.bots = bots.map(({ level, beaten }) => ({ level, beaten }));
  }
  return game;
}

const parse = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const isOurs = (value) => Boolean(value) && typeof value === "object" && value.format === FORMAT && Number.isInteger(value.version) && value.version >= 1;

/**
 * What this browser kept, read forgivingly: a damaged record is dropped, the rest kept; anything
 * else (not JSON, someone else's value) reads as no games. A newer Wibble's value reads as no
 * games with `newer` set, so that this page leaves it alone rather than write over it.
 */
export function readKept(text) {
  const value = typeof text === "string" ? parse(text) : undefined;
  if (!isOurs(value)) return { games: [], newer: false };
  if (value.version > STATS_VERSION) return { games: [], newer: true };
  const games = Array.isArray(value.games) ? value.games.map(cleanGame).filter(Boolean) : [];
  return { games: merge([], games).games, newer: false };
}

/**
 * A file to import, read strictly: {games} if all of it is right, else {error} (and `index`,
 * the first damaged game's number), and nothing of it is to be kept.
 */
export function readFile(text) {
  if (typeof text !== "string") return { error: "unreadable" };
  if (text.length > MAX_FILE_BYTES) return { error: "too_big" };
  const value = parse(text);
  if (value === undefined) return { error: "not_json" };
  if (!isOurs(value)) return { error: "not_stats" };
  if (value.version > STATS_VERSION) return { error: "newer" };
  if (!Array.isArray(value.games)) return { error: "damaged", index: 0 };
  const games = [];
  for (const [index, entry] of value.games.entries()) {
    const game = cleanGame(entry);
    if (!game) return { error: "damaged", index: index + 1 };
    games.push(game);
  }
  return { games };
}

/** The text kept in this browser and written to an exported file: one format for both. */
export const fileText = (games, now) =>
  JSON.stringify({ format: FORMAT, version: STATS_VERSION, exported: new Date(now).toISOString(), games });

/** The exported file's name: "wibble-stats-2026-11-28.json". */
export const fileName = (now) => `wibble-stats-${dateOf(now)}.json`;

// -- adding up ---------------------------------------------------------------------------

/**
 * Everything the Stats view shows, from the records and `today` (the UTC date, as the daily
 * board names days): games, words and points by mode; the best word; the sprints in order; the
 * daily streak and the days played; the bots beaten by level; the words played most.
 */
export function summaryOf(games, today) {
  const modes = new Map(MODES.map((mode) => [mode, { mode, games: 0, words: 0, points: 0 }]));
  const counts = new Map();
  const lists = new Map(); // word -> the list it was last played in
  const bots = new Map(LEVELS.map((level) => [level, { level, beaten: 0, played: 0 }]));
  let best = null;
  let words = 0;
  const oldestFirst = [...games].sort((a, b) => -newestFirst(a, b));
  for (const game of oldestFirst) {
    const mode = modes.get(game.mode);
    mode.games += 1;
    mode.words += game.words.length;
    mode.points += game.score;
    words += game.words.length;
    for (const [word, points] of game.words) {
      counts.set(word, (counts.get(word) ?? 0) + 1);
      if (game.wordlist) lists.set(word, game.wordlist); // the latest list it was played in
      // The first time a word scored the most (a later tie does not take its place).
      if (!best || points > best.points) best = { word, points, mode: game.mode, at: game.at, wordlist: game.wordlist ?? null };
    }
    for (const bot of game.bots ?? []) {
      const level = bots.get(bot.level);
      level.played += 1;
      if (bot.beaten) level.beaten += 1;
    }
  }
  const sprints = oldestFirst.filter((game) => game.mode === "sprint");
  const dailies = oldestFirst.filter((game) => game.mode === "daily");
  const days = Object.fromEntries(dailies.map((game) => [game.daily.date, true]));
  return {
    empty: games.length === 0,
    games: games.length,
    words,
    byMode: [...modes.values()].filter((mode) => mode.games > 0),
    best,
    sprintCount: sprints.length,
    sprints: sprints.slice(-SPRINTS_CHARTED).map(({ at, sprint, score, words: found }) => ({ at, seconds: sprint, score, words: found.length })),
    daily: {
      streak: streakOf(days, today),
      days: Object.keys(days).length,
      history: dailies
        .slice(-DAYS_LISTED)
        .reverse()
        .map(({ daily, score, words: found }) => ({ ...daily, score, words: found.length })),
    },
    bots: [...bots.values()].filter((level) => level.played > 0),
    topWords: [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, TOP_WORDS)
      .map(([word, count]) => ({ word, count, wordlist: lists.get(word) ?? null })),
  };
}

/**
 * The sprint chart's geometry, in a `width` x `height` box with `pad` around the plot: a
 * series per sprint length (a minute's points are not five minutes'), each sprint at its
 * place in time order, the y axis from 0 to a round top. Pure numbers: the view draws them.
 */
export function chartOf(sprints, { width = 320, height = 160, pad = { top: 10, right: 10, bottom: 22, left: 34 } } = {}) {
  const top = niceTop(Math.max(0, ...sprints.map((sprint) => sprint.score)));
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const step = sprints.length > 1 ? plotW / (sprints.length - 1) : 0;
  const at = (index, score) => [
    round1(pad.left + (sprints.length > 1 ? index * step : plotW / 2)),
    round1(pad.top + plotH - (score / top) * plotH),
  ];
  const series = new Map();
  sprints.forEach((sprint, index) => {
    if (!series.has(sprint.seconds)) series.set(sprint.seconds, { seconds: sprint.seconds, points: [] });
    series.get(sprint.seconds).points.push(at(index, sprint.score));
  });
  const ticks = [0, top / 2, top].map((value) => ({ value, y: at(0, value)[1] }));
  return {
    width,
    height,
    plot: { left: pad.left, right: width - pad.right, top: pad.top, bottom: pad.top + plotH },
    series: [...series.values()].sort((a, b) => a.seconds - b.seconds),
    ticks,
  };
}

const round1 = (value) => Math.round(value * 10) / 10;

/** A round top for the y axis at or above `max` (an even number, so its half is whole): 10, 20, 40, 50, 100, … */
export function niceTop(max) {
  if (max <= 10) return 10;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const factor of [1, 2, 4, 5, 10]) {
    if (factor * magnitude >= max) return factor * magnitude;
  }
  return 10 * magnitude;
}
