// The endless game (and a sprint, the same game with a clock): its snapshot, the words the
// server judges and the tiles it replaces (a match's too: the board is one), a sprint's end
// and its missed words, and a new game. Each function returns a change (change.js).

import { EMPTY_CHAIN, tilesOf } from "../chain.js";
import * as M from "../match.js";
import * as P from "../protocol.js";
import { DONE_CONFIRM_MS, doneAsked, endedSprint, sprintOf } from "../sprint.js";
import { said, serverSaid } from "./change.js";
import { settled, snapshot } from "./reconcile.js";

const WORDLIST_ERRORS = new Set(["game/unknown_wordlist", "game/wordlist_unavailable"]);

/** What the snapshot of a new game says, by why it came (the store's `announce`). */
const ANNOUNCED = { fallback: "list_fallback", lost: "game_lost", open: "game_back" };

/** A sprint that is over: nothing more can be played on its board. */
export function isOver(state) {
  const mode = state.mode;
  const raceBoard = mode === "room" && !state.match && Boolean(state.game?.race); // (a race's, in its room)
  return (mode === "endless" || mode === "daily" || raceBoard) && state.game?.sprint?.over === true;
}

/** A race's board on screen that is someone else's: a watcher follows it, and never plays on it. */
export function watchingRace(state) {
  const seat = state.game?.race?.seat;
  return state.mode === "room" && !state.match && Number.isInteger(seat) && seat !== state.race?.you;
}

const foundOf = (message) => message.found.map(({ word, points }) => ({ word, points }));

/** The game's `game` snapshot: on screen, in "Your games" (a daily board's game: the daily memory). */
export function gameSnapshot(tab, message) {
  const { state } = tab;
  const ref = { game_id: message.game_id, token: message.token };
  const daily = message.daily ?? null;
  if (daily && !state.config?.daily) {
    // A daily try resumed on the main page: "Your games" kept one when a word was scored on it
    // (until 2026-12-08). It leaves the list; opened from the list, the game on screen plays on,
    // else the main page starts a game of its own.
    if (tab.opening && state.live && state.game) return { forget: [message.game_id], tab: { opening: null, announce: null } };
    return {
      forget: [message.game_id],
      tab: { ref: null, opening: null },
      send: [P.newGame({ wordlist: state.config?.default_wordlist ?? null })],
    };
  }
  // A race runner's board (or one followed): shown in its room, never one of "Your games", never
  // resumed on its own (a reconnect joins the room again, which puts the runner back on it).
  const race = message.race ?? null;
  const game = {
    id: message.game_id,
    seed: message.seed,
    wordlist: message.wordlist,
    title: message.wordlist_title,
    language: message.language,
    minLength: message.min_length,
    size: message.size,
    // The list's letters (their faces): typing reads a letter the list lacks in upper case.
    letters: message.letters && typeof message.letters === "object" ? Object.keys(message.letters) : [],
    sprint: sprintOf(message, tab.now()), // null: untimed
    daily, // {day, date, scored}: a daily board's game
    race, // {race_id, seat}: a race runner's game
  };
  const wordsLeft = P.wordsLeftOf(message);
  const chain = snapshot(message);
  const fresh = !state.game || state.game.id !== message.game_id;
  const title = message.wordlist_title;
  let say;
  if (wordsLeft === 0) say = said("info", "no_words_left");
  else if (fresh && tab.announce) say = said("info", ANNOUNCED[tab.announce] ?? "game_new", { title });
  // A daily try says whether it counts (a second one is for fun), in place of the last try's end.
  // (A try already over says nothing of the kind: its end screen shows how it went.)
  else if (fresh && daily && !game.sprint?.over) say = said("info", daily.scored ? "daily_scored" : "daily_practice");
  return {
    daily: daily ? { game: { ...ref, date: daily.date } } : undefined, // not one of "Your games"
    remember: daily || race ? undefined : {
      ...ref,
      wordlist: message.wordlist,
      title: message.wordlist_title,
      total: message.total,
      words: message.found.length,
    },
    // The first snapshot answers the new_game asked for by the page's URL (or its fallback).
    tab: { ref: race ? null : ref, opening: null, start: null, fellBack: false, announce: null },
    giveUp: chain.giveUp,
    state: {
      game,
      shownPath: null,
      doneAsked: null,
      shared: null,
      dailyError: null,
      mode: race ? "room" : daily ? "daily" : "endless",
      setup: false,
      match: null,
      board: P.boardOf(message),
      total: message.total,
      found: foundOf(message),
      wordsLeft,
      ...chain.state,
    },
    // A daily game that ended while away: its end screen wants the day's leaderboard as it is now.
    send: daily && game.sprint?.over && !fresh ? [P.leaderboard(tab.player())] : undefined,
    say,
    event: { type: "game", fresh, fromUrl: tab.start !== null, saved: daily || race ? true : null },
  };
}

/** A sprint's time is up: the final score and words, and the best words that were missed. */
export function sprintOver(tab, message) {
  const { state } = tab;
  if (!state.game?.sprint) return null;
  const game = { ...state.game, sprint: endedSprint(state.game.sprint, message) };
  const found = foundOf(message);
  const daily = game.daily;
  const words = found.length;
  return {
    remember: daily || game.race ? undefined : { ...tab.ref, wordlist: game.wordlist, title: game.title, total: message.total, words },
    daily: daily?.scored ? { record: { date: daily.date, day: daily.day, score: message.total, words } } : undefined,
    giveUp: true, // the server dropped whatever chain was being dragged
    state: { confirmed: EMPTY_CHAIN, chain: [], mine: false, spelling: null, refilling: null, doneAsked: null, game, total: message.total, found },
    // A race's end is the race's to say (its end screen, for everyone at once).
    say: game.race ? said("info", "race_time_up") : said("info", message.early === true ? "ended_early" : "time_up", { total: message.total, words }),
    event: { type: "over" },
  };
}

/**
 * "I'm done": the sprint being played ends now, as if its clock ran out. The first press only
 * asks again (a mis-tap must not throw a try away); a second within DONE_CONFIRM_MS (sprint.js) sends `done`.
 */
export function done(tab) {
  const { state } = tab;
  const sprint = state.game?.sprint;
  if (!sprint || sprint.over || (state.mode !== "endless" && state.mode !== "daily")) return null;
  const now = tab.now();
  if (!doneAsked(state, now)) {
    const daily = Boolean(state.game.daily?.scored);
    return { state: { doneAsked: now }, say: said("info", "done_confirm", { daily, lasts: DONE_CONFIRM_MS }), event: { type: "done_asked" }, ok: false };
  }
  if (state.connection.state !== "open") {
    return { state: { doneAsked: null }, say: said("error", "done_offline"), event: { type: "done_offline" }, ok: false };
  }
  return { state: { doneAsked: null }, send: [P.done()], event: { type: "done_sent" } };
}

/** Light a missed word's path on the final board (again: put it out). */
export function showMissed(tab, index) {
  const state = tab.state;
  const entry = state.game?.sprint?.missed?.[index];
  if (!isOver(state) || !entry) return null;
  const shownPath = state.shownPath?.word === entry.word ? null : { word: entry.word, path: entry.path };
  return { state: { shownPath }, event: { type: "missed" } };
}

/** A new game with this word list, untimed or a sprint of `sprint` seconds (the one on screen stays in "Your games"). */
export function newGame(tab, wordlist, sprint = null) {
  if (tab.state.connection.state !== "open") return null;
  return { tab: { announce: "new" }, send: [P.newGame({ wordlist, sprint })] };
}

/** The result of a word, for the player (a match's own word, or the endless game's). */
function resultSaid(state, message) {
  const { word, result, points } = message;
  const minLength = (state.match ?? state.game)?.minLength ?? 3;
  return said(result === P.Result.SCORED ? "scored" : "miss", "result", { word, result, points, total: state.total, minLength });
}

/** The server judged the chain: a word scored (its tiles are replaced next) or refused. */
export function wordJudged(tab, message, reply) {
  const state = tab.state;
  const judged = state.confirmed.chain; // the server's chain is the one it just judged
  const chain = { confirmed: EMPTY_CHAIN, ...settled(tab, reply, EMPTY_CHAIN) };
  const word = message.word;
  if (state.match) {
    // In a match only a refused word comes as `word` (a scored one is `played`), and the
    // turn goes on; another seat's miss is theirs to see.
    const ours = message.seat === state.match.you || message.seat === undefined;
    return {
      state: chain,
      say: ours ? resultSaid(state, message) : undefined,
      event: { type: "word", result: message.result, word, seat: message.seat ?? null },
    };
  }
  const fields = { ...chain, total: message.total };
  let remember;
  if (message.result === P.Result.SCORED) {
    fields.found = [...state.found, { word, points: message.points }];
    // (A daily try or a race runner's board is not one of "Your games": kept there, the main page
    // would resume it as the tab's game, and its Endless button would open the daily board again.)
    const yours = !state.game?.daily && !state.game?.race;
    if (tab.ref && yours) remember = { ...tab.ref, total: fields.total, words: fields.found.length };
    fields.refilling = tilesOf(judged, state.board);
  }
  return {
    remember,
    state: fields,
    say: resultSaid({ ...state, ...fields }, message),
    event: { type: "word", result: message.result, word, points: message.points },
  };
}

/** Tiles replaced (after a word, a swap or a shuffle): every field as the server sent it. */
export function boardChanged(tab, message) {
  const state = tab.state;
  const board = state.board.map((row) => row.slice());
  const changed = [];
  for (const { row, col, tile } of P.changesOf(message)) {
    if (board[row]?.[col] === undefined) continue;
    board[row][col] = tile;
    changed.push([row, col]);
  }
  const wordsLeft = P.wordsLeftOf(message);
  const fields = { board, wordsLeft, refilling: null };
  let say;
  if (state.match) {
    const match = state.match;
    fields.match = { ...match, hint: null }; // its path may no longer spell it
    // Only the seat whose turn it is can shuffle or swap: say who did (the board moved under everyone).
    const who = { mine: match.turn === match.you, name: M.seatName(match, match.turn) };
    if (message.reason === "shuffle") say = said("info", "shuffled", who);
    const [swapped] = changed;
    if (message.reason === "swap" && swapped) {
      const [row, col] = swapped;
      say = said("info", "swapped", { ...who, was: state.board[row][col]?.letter ?? "?", letter: board[row][col].letter });
    }
  } else if (wordsLeft === 0) {
    say = said("info", "no_words_left");
  }
  return { state: fields, say, event: { type: "board", changed, reason: message.reason ?? "refill" } };
}

/**
 * No game on screen (loading, or the saved one is gone after a restart) and the list asked
 * for is not there: play the server's default list rather than nothing.
 */
export function listRefused(tab, message) {
  if (!WORDLIST_ERRORS.has(message.code) || tab.state.live || tab.fellBack) return null;
  return {
    tab: { fellBack: true, announce: "fallback" },
    send: [P.newGame({ seed: tab.start?.seed ?? null })],
    say: serverSaid(message),
  };
}
