// A match as this tab knows it (docs/protocol.md, "Matches"): seats, turns, rounds, the
// turn clock, the plays and their breakdowns, the hint, the end. Plain functions over a
// plain object; no DOM, no sockets. The store keeps the object and calls these as the
// server's messages arrive; the server decides everything, this only records it.

import { POWERS } from "./protocol.js";

export const MatchPhase = Object.freeze({ PLAYING: "playing", BETWEEN: "between_rounds", OVER: "over" });

const DEFAULT_COSTS = Object.freeze({ shuffle: 1, swap: 3, hint: 4, extend: 1 });
const PLAYS_KEPT = 50; // the side panel's log of plays; the end screen has every turn from the server

const int = (value, fallback = 0) => (Number.isFinite(value) ? value : fallback);

const seatOf = (seat, index) => ({
  index,
  name: typeof seat.name === "string" && seat.name ? seat.name : `Seat ${index + 1}`,
  kind: seat.kind === "bot" ? "bot" : "human",
  level: seat.level ?? null,
  score: int(seat.score),
  gems: int(seat.gems),
  speed: int(seat.speed, 1),
  connected: seat.connected !== false,
  away: Boolean(seat.away), // in a room: a stand-in bot plays for the seat's person
});

/**
 * The turn clock as received: seconds `remaining` when the message arrived, and when
 * (`at`, the tab's monotonic clock in ms). Counting down from this, never from the
 * tab's wall clock against `deadline`, keeps a wrong clock from showing a wrong time.
 */
function clockOf(message, now) {
  if (message.deadline === null || !Number.isFinite(message.remaining)) return null;
  return { remaining: Math.max(0, message.remaining), at: now };
}

/** A `path` as `[row, col]` pairs, fresh. */
const pathOf = (path) => (Array.isArray(path) ? path.map(([r, c]) => [r, c]) : []);

/** A played word as the end screen and the log show it: `{word, points, path, breakdown}`, or null. */
function wordOf(entry) {
  if (entry === null || entry === undefined) return null;
  // `best_words` may name the word alone or the whole play (the spec says "word").
  if (typeof entry === "string") return { word: entry, points: null, path: [], breakdown: [] };
  return {
    word: String(entry.word ?? ""),
    points: Number.isFinite(entry.points) ? entry.points : null,
    path: pathOf(entry.path),
    breakdown: Array.isArray(entry.breakdown) ? entry.breakdown : [],
  };
}

/** A turn of `history` or of `match_over.turns`. */
const turnOf = (turn) => ({
  seat: int(turn.seat),
  round: int(turn.round, 1),
  ended: turn.ended ?? "played",
  played: wordOf(turn.played),
  best: wordOf(turn.best),
});

/** A 2v2's teams on the end screen: `[{team, name, seats, score, rank, words}]`, or null. */
function teamsOf(message) {
  if (!Array.isArray(message.teams)) return null;
  return message.teams.map((team, index) => ({
    team: int(team.team, index),
    name: typeof team.name === "string" ? team.name : TEAM_NAMES[index] ?? "",
    seats: Array.isArray(team.seats) ? team.seats.filter(Number.isInteger) : [],
    score: int(team.score),
    rank: int(team.rank, 1),
    words: (Array.isArray(team.words) ? team.words : []).map((entry) => ({
      seat: int(entry.seat),
      round: int(entry.round, 1),
      ...(wordOf(entry.word) ?? { word: "", points: null, path: [], breakdown: [] }),
    })),
  }));
}

/** The end screen's data, from `match_over` or a snapshot's `summary`. */
export function summaryOf(message) {
  const ranking = (Array.isArray(message.ranking) ? message.ranking : []).map((entry) => ({
    seat: int(entry.seat),
    rank: int(entry.rank, 1),
    score: int(entry.score),
  }));
  const best = new Map();
  for (const entry of Array.isArray(message.best_words) ? message.best_words : []) {
    best.set(int(entry.seat), wordOf(entry.word));
  }
  const turns = (Array.isArray(message.turns) ? message.turns : []).map(turnOf);
  const winner = Number.isInteger(message.winner) ? message.winner : null;
  return { ranking, best, turns, teams: teamsOf(message), winner };
}

/** A match from its `match` snapshot; `now` is the tab's monotonic clock in ms. */
export function matchOf(message, now) {
  const seats = (Array.isArray(message.seats) ? message.seats : []).map(seatOf);
  const letters = message.letters && typeof message.letters === "object" ? Object.keys(message.letters) : [];
  const history = (Array.isArray(message.history) ? message.history : []).map(turnOf);
  return {
    id: message.match_id,
    // A room's spectator has no seat (`you: null`): every seat is someone else's.
    you: Number.isInteger(message.you) ? message.you : null,
    room: typeof message.room === "string" ? message.room : null, // the room's code, for a room's match
    seats,
    round: int(message.round, 1),
    rounds: int(message.rounds, int(message.settings?.rounds, 1)),
    turn: int(message.turn),
    turnNo: int(message.turn_no),
    phase: message.phase ?? MatchPhase.PLAYING,
    clock: clockOf(message, now),
    // The ring's full circle: the match's turn length (an extended turn may start fuller).
    turnSeconds: Number.isFinite(message.settings?.turn_seconds) ? message.settings.turn_seconds : null,
    extendSeconds: int(message.settings?.extend_seconds, 15),
    costs: { ...DEFAULT_COSTS, ...(message.costs ?? {}) },
    gemCap: int(message.gem_cap, 10),
    version: int(message.version),
    wordlist: message.wordlist,
    title: message.wordlist_title ?? message.wordlist ?? "",
    language: message.language || "en",
    minLength: int(message.min_length, 3),
    size: int(message.size, 5),
    letters, // the list's letters, for the swap picker
    // Every play so far, newest last: the board of a play is gone, so its breakdown is kept.
    plays: history.filter((turn) => turn.played).map((turn) => ({ seat: turn.seat, round: turn.round, ...turn.played, marks: [] })),
    // {word, path, points}: the last hint bought, until the board or the turn changes (a
    // snapshot carries it to the seat that paid, so a reload or a reconnect keeps it).
    hint: hintOf(message.hint),
    passed: null, // how the last turn ended without a word: {seat, how: "pass"|"timeout"}
    summary: message.summary ? summaryOf(message.summary) : null,
    // A 2v2: each seat's team (0: A, 1: B), and the tiles each seat marks for its teammate
    // this turn (seat -> [[row, col], ...]); null and empty in a match of each for themselves.
    teams: Array.isArray(message.teams) && message.teams.length === seats.length ? message.teams.map((t) => (t === 1 ? 1 : 0)) : null,
    marks: new Map(),
  };
}

/** How the page names team 0 and team 1. */
export const TEAM_NAMES = Object.freeze(["A", "B"]);

export const isTeams = (match) => Boolean(match?.teams);
/** The team of `seat` (0 or 1), or null outside a 2v2. */
export const teamOf = (match, seat) => (isTeams(match) ? match.teams[seat] ?? null : null);
/** Each team's total, from its seats' scores: [A, B]. */
export const teamTotals = (match) =>
  [0, 1].map((team) => match.seats.reduce((sum, seat, index) => sum + (match.teams?.[index] === team ? seat.score : 0), 0));

/**
 * This tab's seat may mark tiles for its teammate now: a 2v2, its team's turn, the teammate's
 * (on its own turn a tap drags, as ever). The server checks again.
 */
export const canSuggest = (match) =>
  isTeams(match) && match.you !== null && match.phase === MatchPhase.PLAYING && match.turn !== match.you
  && teamOf(match, match.turn) === teamOf(match, match.you);

/** `suggestion`: every tile `seat` marks now. */
export function applySuggestion(match, message) {
  if (!isTeams(match) || !Number.isInteger(message.seat)) return;
  match.marks.set(message.seat, pathOf(message.marks));
}

/** The tiles marked on the board now, each with who marked it: key "row,col" -> names. */
export function markedTiles(match) {
  const marked = new Map();
  for (const [seat, tiles] of match?.marks ?? []) {
    for (const [r, c] of tiles) {
      const key = `${r},${c}`;
      marked.set(key, [...(marked.get(key) ?? []), seat === match.you ? "you" : seatName(match, seat)]);
    }
  }
  return marked;
}

export const you = (match) => match.seats[match.you] ?? null;
export const seatName = (match, seat) => match.seats[seat]?.name ?? `Seat ${seat + 1}`;

export const isMyTurn = (match) =>
  match !== null && match.phase === MatchPhase.PLAYING && match.turn === match.you;

/** The word list a new match is played in: the one chosen for it, else the one being played. */
export const nextMatchWordlist = (state) =>
  state.draft.wordlist ?? state.game?.wordlist ?? state.config.default_wordlist;

export const isTimed = (match) => match !== null && match.clock !== null;

/** Seconds left on the turn (or the pause between rounds), or null when untimed. */
export function secondsLeft(match, now) {
  if (!match?.clock) return null;
  return Math.max(0, match.clock.remaining - (now - match.clock.at) / 1000);
}

/** The ring's full circle, in seconds: the turn's length, or what was left when it was last set if more. */
export function clockSpan(match) {
  if (!match?.clock) return null;
  const full = match.phase === MatchPhase.PLAYING ? match.turnSeconds ?? 0 : 0;
  return Math.max(full, match.clock.remaining, 1);
}

/**
 * Whether this seat may use `power` now: its turn, enough gems, and for `extend` a timed
 * turn. The server checks again; this only keeps the buttons honest.
 */
export function canUse(match, power) {
  if (!isMyTurn(match) || !POWERS.includes(power)) return false;
  if (power === "extend" && !isTimed(match)) return false;
  return (you(match)?.gems ?? 0) >= match.costs[power];
}

export const canPass = (match) => isMyTurn(match);

// -- the server's messages ------------------------------------------------------------

/**
 * `played`: a seat scored a word. `board` is the board as it was when the word was
 * played (its refill comes next), read for the marks its tiles carried, so the
 * breakdown can say which letter was doubled. Returns the play.
 */
export function applyPlayed(match, message, board) {
  const seat = match.seats[message.seat];
  if (seat && Number.isFinite(message.score)) seat.score = message.score;
  const path = pathOf(message.path);
  const play = {
    seat: int(message.seat),
    round: match.round,
    word: String(message.word ?? ""),
    points: int(message.points),
    path,
    breakdown: Array.isArray(message.breakdown) ? message.breakdown : [],
    gemsEarned: int(message.gems_earned),
    marks: path.map(([r, c]) => {
      const tile = board[r]?.[c];
      return { letter: tile?.letter ?? "", mult: tile?.mult ?? null, wordMult: tile?.word_mult ?? null };
    }),
  };
  match.plays = [...match.plays, play].slice(-PLAYS_KEPT);
  if (Number.isFinite(message.version)) match.version = message.version;
  return play;
}

/** `turn`: whose turn, which round, the clock. Returns the seat whose turn just ended. */
export function applyTurn(match, message, now) {
  const ended = match.turn;
  const before = { turnNo: match.turnNo, phase: match.phase };
  match.turn = int(message.turn, match.turn);
  match.round = int(message.round, match.round);
  match.turnNo = int(message.turn_no, match.turnNo);
  match.phase = message.phase ?? match.phase;
  match.clock = clockOf(message, now);
  match.passed = message.passed ? { seat: ended, how: message.passed } : null;
  if (!sameTurn(match, before)) {
    match.hint = null; // (the server keeps a hint for its turn, extended or not)
    match.marks = new Map(); // a suggestion is for the turn it was made in
  }
  if (Number.isFinite(message.version)) match.version = message.version;
  return ended;
}

/** Whether the match is still on the turn `before` ({turnNo, phase}) was: a `turn` message
 * that only moved the clock (an `extend`). */
export const sameTurn = (match, before) =>
  match.turnNo === before.turnNo && match.phase === before.phase && match.phase === MatchPhase.PLAYING && !match.passed;

export function applyGems(match, message) {
  const seat = match.seats[message.seat];
  if (seat && Number.isFinite(message.gems)) seat.gems = message.gems;
  if (Number.isFinite(message.version)) match.version = message.version;
}

/**
 * Where a message stands against the match on screen: every committed change raises the
 * version by one, and its messages carry it. "gap": one or more changes were missed (a
 * server process lost its subscription, say), so the page asks for the match afresh;
 * "stale": older than what is shown (it came late, after a fresh snapshot); null: in order.
 */
export function versionCheck(match, message) {
  if (!Number.isFinite(message.version)) return null;
  if (message.version > match.version + 1) return "gap";
  return message.version < match.version ? "stale" : null;
}

export function applyPresence(match, message) {
  const seat = match.seats[message.seat];
  if (!seat) return;
  seat.connected = Boolean(message.connected);
  if (typeof message.away === "boolean") seat.away = message.away;
}

/** A hint as a `hint` message or a snapshot's `hint` gives it; null if none (or the board holds no word). */
function hintOf(hint) {
  return typeof hint?.word === "string" && hint.word ? { word: hint.word, path: pathOf(hint.path), points: int(hint.points) } : null;
}

/** `hint`: the best word on the board now, with its path (null word: the board holds none). */
export function applyHint(match, message) {
  match.hint = hintOf(message);
}

export function applyOver(match, message) {
  match.summary = summaryOf(message);
  match.phase = MatchPhase.OVER;
  match.clock = null;
  for (const { seat, score } of match.summary.ranking) {
    if (match.seats[seat]) match.seats[seat].score = score;
  }
}

/** The seats best first, as the end screen ranks them (by the server's ranking when there is one). */
export function standings(match) {
  if (match.summary?.ranking.length) {
    return match.summary.ranking.map(({ seat, rank, score }) => ({ ...match.seats[seat], index: seat, rank, score }));
  }
  const scores = match.seats.map((seat) => seat.score);
  return [...match.seats]
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((seat) => ({ ...seat, rank: 1 + scores.filter((s) => s > seat.score).length }));
}

/** Whether an end screen's turn played the best word on its board: the word, for its points too
 * (the same word by another path may score less, a DL or 2× tile left out, and "found it" would
 * hide the points missed). */
export function foundTheBest({ played, best }) {
  return Boolean(played && best && played.word === best.word && played.points >= best.points);
}
