// The Stats view's sentences (view/stats.js draws them). No DOM: node --test reads it.

import { plural, pts } from "./wording.js";

export const MODE_NAMES = {
  endless: "Endless",
  sprint: "Sprints",
  daily: "Daily board",
  match: "Matches with bots",
  room: "Rooms with friends",
};
export const LEVEL_NAMES = { easy: "Easy bots", medium: "Medium bots", hard: "Hard bots" };
const MODE_PLACES = { endless: "in Endless", sprint: "in a sprint", daily: "on a daily board", match: "in a match", room: "in a room" };

/** "28 Nov 2026": a day as this browser's clock saw it (a record's `at`), or a daily board's UTC date. */
export const dayText = (at, timeZone = undefined) =>
  new Date(at).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone });
const dateText = (date) => dayText(Date.parse(`${date}T00:00:00Z`), "UTC");

export const minutesText = (seconds) => (seconds % 60 === 0 ? plural(seconds / 60, "minute") : plural(seconds, "second"));

export const STATS = {
  title: "Your numbers",
  intro: "Kept in this browser only: nothing is sent anywhere. Export them to keep a copy, or to carry them to another browser.",
  empty:
    "No games here yet. Play one (Endless, a sprint, the daily board, a match or a room) and this shows your games and words by mode, " +
    "your best word, your points per sprint, your daily streak, the bots you beat and the words you play most.",
  newer: "These numbers were kept by a newer Wibble: this page cannot read them, and leaves them as they are.",
  total: ({ games, words }) => `${plural(games, "game")} and ${plural(words, "word")} so far.`,
  headings: {
    modes: "Games and words",
    best: "Best word",
    sprints: "Points per sprint",
    daily: "Daily board",
    bots: "Bots beaten",
    words: "Words you play most",
    files: "Another browser",
  },
  columns: { mode: "Mode", games: "Games", words: "Words", points: "Points", level: "Level", beaten: "Beaten", played: "Played", when: "When", length: "Length" },
  best: ({ word, points, mode, at }) => `${word}: ${pts(points)}, ${MODE_PLACES[mode]} on ${dayText(at)}.`,
  /** What follows the best word itself, which the view makes a button for its definition. */
  bestAfter: ({ points, mode, at }) => `: ${pts(points)}, ${MODE_PLACES[mode]} on ${dayText(at)}.`,
  noBest: "No word scored yet.",
  noSprints: "No sprints yet: choose a Clock under the board, then New game.",
  sprintsIntro: ({ shown, count }) =>
    shown === count ? `Your ${plural(count, "sprint")}, oldest first.` : `Your last ${shown} sprints of ${count}, oldest first.`,
  chartLabel: (sprints) => {
    const scores = sprints.map((sprint) => sprint.score);
    return `A chart of points per sprint, oldest to newest: ${plural(sprints.length, "sprint")}, from ${pts(Math.min(...scores))} to ${pts(Math.max(...scores))}. The table below has each one.`;
  },
  chartAxis: "oldest → newest",
  tableSummary: "The sprints, as a table",
  streak: ({ streak, days }) =>
    days === 0 ? "No daily boards yet." : `Streak: ${plural(streak, "day")} in a row. Days played: ${days}.`,
  day: ({ day, date, score, words, scored }) =>
    `#${day}, ${dateText(date)}: ${plural(score, "point")}, ${plural(words, "word")}${scored ? "" : " (not scored)"}`,
  noBots: "No matches against bots yet.",
  timesPlayed: (count) => (count === 1 ? "once" : count === 2 ? "twice" : `${count} times`),
  export: "Export to a file",
  import: "Import a file…",
  close: "Close",
  exported: (name) => `Saved as ${name} (in your downloads).`,
  imported: ({ added, updated }) =>
    added === 0 && updated === 0
      ? "Nothing new in that file: every game in it is here already."
      : `Imported: ${plural(added, "new game")}${updated ? `, ${plural(updated, "game")} brought up to date` : ""}.`,
  errors: {
    too_big: "That file is too big to be Wibble stats. Nothing was imported.",
    not_json: "That file is not Wibble stats (it is not JSON). Nothing was imported.",
    not_stats: "That file is not Wibble stats. Nothing was imported.",
    newer: "That file comes from a newer Wibble: this page cannot read it. Nothing was imported.",
    damaged: ({ index }) => `That file is damaged${index ? ` (game ${index} in it)` : ""}. Nothing was imported.`,
    storage: "This browser would not keep them (its storage is full or switched off). Nothing was imported.",
    newer_kept: "The numbers here were kept by a newer Wibble: this page cannot add to them. Nothing was imported.",
    unreadable: "That file could not be read. Nothing was imported.",
  },
};

/** What an import says: how many games it brought, or why it brought none. */
export function importText(result) {
  if (!result.error) return STATS.imported(result);
  const error = STATS.errors[result.error] ?? STATS.errors.unreadable;
  return typeof error === "function" ? error(result) : error;
}
