// Your numbers in this browser: the records of store/stats.js kept in localStorage, one value
// under one key, read afresh before every write (another tab may have added a game since). No
// DOM. Every read and write survives a browser that refuses storage: the games play the same,
// they are just not counted. Nothing here is ever sent to the server.

import { dateOf } from "./daily.js";
import { cleanGame, fileName, fileText, merge, readFile, readKept, recordOf, summaryOf } from "./store/stats.js";

export const STATS_KEY = "wibble.stats";

/**
 * This browser's stats: `onEvent` (a store listener) records what the server said of a game,
 * `summary` adds them up, `exportFile` and `importText` carry them to another browser.
 */
export function statsMemory(storage, { now = () => Date.now() } = {}) {
  const listeners = new Set();
  const read = () => {
    try {
      return readKept(storage?.getItem(STATS_KEY) ?? null);
    } catch {
      return readKept(null);
    }
  };
  /** Keep `incoming` beside what is there: {added, updated}, or {error} and nothing changed. */
  const keep = (incoming) => {
    const kept = read();
    // A newer Wibble's value is left as it is: writing ours would lose what it holds.
    if (kept.newer) return { error: "newer_kept" };
    const merged = merge(kept.games, incoming);
    if (merged.added === 0 && merged.updated === 0) return merged;
    try {
      storage.setItem(STATS_KEY, fileText(merged.games, now()));
    } catch {
      return { error: "storage" };
    }
    for (const listener of listeners) listener();
    return merged;
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** A store listener: the record an event makes, kept (store/stats.js's recordOf says which). */
    onEvent(state, event) {
      // Checked as a file's would be: a record this page could not read back is not written.
      const record = cleanGame(recordOf(state, event, now()));
      if (record) keep([record]);
    },
    games: () => read().games,
    /** What a newer Wibble kept here, which this page can neither read nor add to. */
    newer: () => read().newer,
    /** The numbers the Stats view shows (`newer`: a newer Wibble's value is here, unread). */
    summary() {
      const kept = read();
      return { ...summaryOf(kept.games, dateOf(now())), newer: kept.newer };
    },
    exportFile: () => ({ name: fileName(now()), text: fileText(read().games, now()) }),
    /** A file's text, checked whole and then merged: {added, updated} or {error, index?}. */
    importText(text) {
      const file = readFile(text);
      return file.error ? file : keep(file.games);
    },
  };
}
