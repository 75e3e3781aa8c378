// The daily board in this browser: the player's own id (one scored attempt a day is kept by the
// server against it), the day's game to resume, the days played (streak and best days), and the
// text that shares a result. No DOM; every read and write of localStorage survives a browser
// that refuses it (the day still plays, it is just not remembered).

export const PLAYER_KEY = "wibble.player";
export const DAILY_KEY = "wibble.daily";
export const BEST_DAYS = 5;

/** A word's length as a square: the picture of a play shows how long each word was, never its letters. */
const SQUARES = [[7, "🟥"], [6, "🟪"], [5, "🟦"], [4, "🟩"], [0, "🟨"]];
const PER_ROW = 5;

/** "2026-11-24": the UTC date of `time` (ms), as the server names days. */
export const dateOf = (time) => new Date(time).toISOString().slice(0, 10);

/** The date before `date` ("2026-11-24" → "2026-11-23"). */
export const dayBefore = (date) => dateOf(Date.parse(`${date}T00:00:00Z`) - 86_400_000);

/** The emoji picture of a play: a square per word found, in order, coloured by its length. */
export function pictureOf(found) {
  if (found.length === 0) return "⬜";
  const squares = found.map(({ word }) => SQUARES.find(([min]) => [...word].length >= min)[1]);
  const rows = [];
  for (let i = 0; i < squares.length; i += PER_ROW) rows.push(squares.slice(i, i + PER_ROW).join(""));
  return rows.join("\n");
}

/** What Share copies: a heading (the day's number and the score, worded by wording.js), the
 * picture and the link; no letter of the board. */
export function shareText({ heading, found, url }) {
  return `${heading}\n${pictureOf(found)}\n${url}`;
}

/**
 * The days played in this browser: `{date: {day, score, words}}`, scored attempts only. A day
 * counts once, with its first result (a replay is not scored anywhere).
 */
export function recordDay(days, { date, day, score, words }) {
  if (days[date]) return days;
  return { ...days, [date]: { day, score, words } };
}

/** How many days in a row up to `today` were played (today not played yet does not break it). */
export function streakOf(days, today) {
  let date = days[today] ? today : dayBefore(today);
  let streak = 0;
  while (days[date]) {
    streak += 1;
    date = dayBefore(date);
  }
  return streak;
}

/** The best days played: `[{date, day, score, words}]`, highest score first (earlier first on ties). */
export function bestDays(days, count = BEST_DAYS) {
  return Object.entries(days)
    .map(([date, entry]) => ({ date, ...entry }))
    .sort((a, b) => b.score - a.score || a.date.localeCompare(b.date))
    .slice(0, count);
}

/** The browser's daily memory: its player id, the day's game, the days played, the name last given. */
export function dailyMemory(storage, { random = () => crypto.getRandomValues(new Uint8Array(24)) } = {}) {
  const read = () => {
    try {
      const value = JSON.parse(storage?.getItem(DAILY_KEY) ?? "null");
      return value && typeof value === "object" ? value : {};
    } catch {
      return {};
    }
  };
  const write = (value) => {
    try {
      storage.setItem(DAILY_KEY, JSON.stringify(value));
    } catch {
      // not remembered: the day plays all the same
    }
  };
  let fallback = null; // a player id for this page only, where storage refuses to keep one
  return {
    /** This browser's secret player id (made once: 32 URL-safe characters). */
    player() {
      try {
        const kept = storage?.getItem(PLAYER_KEY);
        if (kept && kept.length >= 16) return kept;
      } catch {
        // below
      }
      const made = fallback ?? Array.from(random(), (b) => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[b % 64]).join("").padEnd(32, "x").slice(0, 32);
      fallback = made;
      try {
        storage.setItem(PLAYER_KEY, made);
      } catch {
        // kept for this page only
      }
      return made;
    },
    name: () => (typeof read().name === "string" ? read().name : ""),
    setName: (name) => write({ ...read(), name }),
    /** The day's game to resume: `{game_id, token, date}`, if it is `date`'s. */
    game(date) {
      const game = read().game;
      return game && game.date === date && typeof game.game_id === "string" ? game : null;
    },
    setGame: (game) => write({ ...read(), game }),
    days: () => (read().days && typeof read().days === "object" ? read().days : {}),
    record(entry) {
      const value = read();
      write({ ...value, days: recordDay(value.days ?? {}, entry) });
    },
  };
}
