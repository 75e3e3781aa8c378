// Type to spell: which chains of tiles spell the letters typed so far. Pure: a board in,
// paths out; no DOM, no store, no sockets (node --test runs it as it is).
//
// A path is a chain the server would take: each tile a neighbour of the one before (in
// any of 8 directions), no tile twice. Paths are ranked by the points the server would
// give them (in a match the multipliers count), so the highlighted one is the best. A
// board where one letter repeats can hold a great many paths for a long word (every
// tile an A: more than there are atoms), so the search is bounded: it explores the
// most promising tiles first and stops after `budget` steps, keeping the best paths it
// found. Bounded, it can only miss a path on such a degenerate board; on any board
// a word game deals, a word's paths number a handful and all of them are found.

/** Points of a long word's bonus, and from how many tiles (wibble/core/scoring.py). */
const LONG_WORD_TILES = 6;
const LONG_WORD_BONUS = 10;
const LETTER_MULTS = { DL: 2, TL: 3 };

/** Steps of the search before it stops (each step tries one tile). */
export const SEARCH_BUDGET = 20_000;
/** Paths kept, best first: enough to cycle through, few enough to rank at every key. */
export const MAX_PATHS = 12;

/**
 * One letter as the page compares it: in upper case, unless upper case would make it another
 * letter or two (ς is not σ, ı is not i, ß is not SS: a list may hold both, and the server's
 * tiles show such letters in lower case to keep them apart).
 */
const foldLetter = (letter) => {
  const upper = letter.toUpperCase();
  return [...upper].length === 1 && upper.toLowerCase() === letter.toLowerCase() ? upper : letter;
};

/** Letters as typed or shown, for comparing: one Unicode form, and one case where case is all that differs. */
export const fold = (text) => Array.from(String(text ?? "").normalize("NFC"), foldLetter).join("");

/** Letters compared more loosely: all in upper case, so ς reads as σ and ß as SS. */
export const foldLoose = (text) => String(text ?? "").normalize("NFC").toUpperCase();

/**
 * The letters typed, as the tiles of a list whose letters are `alphabet` (their faces; none
 * known: every letter as `fold` makes it) would spell them: each as `fold` makes it, unless
 * the list has no such letter, when it is read in upper case (ς typed on a list that keeps
 * one sigma is its Σ, ß on a list without ß is SS). A list that has both keeps both apart.
 */
export function readAs(typed, alphabet = null) {
  const letters = alphabet && alphabet.length > 0 ? new Set(Array.from(alphabet, fold)) : null;
  return Array.from(String(typed ?? "").normalize("NFC"), (letter) => {
    const strict = fold(letter);
    return letters === null || letters.has(strict) ? strict : foldLoose(letter);
  }).join("");
}

/**
 * What one tile adds, as scoring.py's modifiers see it: its letter score times its
 * letter multiplier, and the word multiplier it carries. Outside a match (`match` false)
 * the endless game sums letter scores only.
 */
function valueOf(tile, match) {
  const score = Number.isFinite(tile?.score) ? tile.score : 0;
  if (!match) return { letters: score, word: 1 };
  return { letters: score * (LETTER_MULTS[tile.mult] ?? 1), word: Number.isFinite(tile.word_mult) ? tile.word_mult : 1 };
}

/** The points the server gives `path` on `board`: letters, then the word multiplier, then the bonus. */
export function pointsOf(board, path, { match = false } = {}) {
  let letters = 0;
  let factor = 1;
  for (const [r, c] of path) {
    const value = valueOf(board[r]?.[c], match);
    letters += value.letters;
    factor *= value.word;
  }
  if (!match) return letters;
  return letters * factor + (path.length >= LONG_WORD_TILES ? LONG_WORD_BONUS : 0);
}

const NEIGHBOURS = [
  [-1, -1], [-1, 0], [-1, 1],
  [0, -1], [0, 1],
  [1, -1], [1, 0], [1, 1],
];

/** Which tiles' letters can start the rest of `typed`, as `[length]` of each: longest tries first. */
function readsAt(letter, typed, at) {
  return letter !== "" && typed.startsWith(letter, at) ? letter.length : 0;
}

/**
 * Every path on `board` that spells `typed` (as far as the bounded search goes), best first.
 *
 * @param {Array<Array<{letter: string, score: number, mult?: string, word_mult?: number}|null>>} board
 * @param {string} typed the letters typed so far (any case)
 * @param {object} options
 *   `match`: score as a match does (multipliers, the long-word bonus); `blocked(row, col)`:
 *   a tile that cannot be played now (its replacement is on its way); `prefer`: a path to
 *   rank first among equals (the one on screen, so typing on does not jump elsewhere);
 *   `limit`, `budget`: how many paths to keep and how far to search; `alphabet`: the list's
 *   letters (their faces), to read a typed letter the list lacks in upper case (`readAs`).
 * @returns {{paths: Array<{path: number[][], points: number}>, exhausted: boolean}}
 *   `exhausted`: the search stopped at its budget (more paths may exist).
 */
export function findPaths(board, typed, { match = false, blocked = () => false, prefer = null, limit = MAX_PATHS, budget = SEARCH_BUDGET, alphabet = null } = {}) {
  const target = readAs(typed, alphabet);
  const rows = Array.isArray(board) ? board.length : 0;
  if (target === "" || rows === 0) return { paths: [], exhausted: false };
  const letters = board.map((row) => (Array.isArray(row) ? row.map((tile) => (tile ? fold(tile.letter) : "")) : []));
  const playable = (r, c) => letters[r]?.[c] !== undefined && letters[r][c] !== "" && !blocked(r, c);

  // A tile's worth for ordering the search: what it adds to the letters, doubled again on
  // a word multiplier, so the most valuable continuations are tried (and kept) first.
  const worth = (r, c) => {
    const value = valueOf(board[r][c], match);
    return value.letters * value.word + (value.word > 1 ? 100 : 0);
  };

  // The best `limit` paths so far, best first, and the best that continues `prefer` (kept
  // even when it ranks lower, so typing on from a path cycled to can stay on it).
  const kept = [];
  let keptPreferred = null;
  const seen = new Set(); // a path is found once, even if two readings of its tiles spell it
  const multiLetter = letters.some((row) => row.some((letter) => letter.length > 1));
  const used = letters.map((row) => row.map(() => false));
  const path = [];
  let steps = 0;
  let exhausted = false;

  const extendsPrefer = (candidate) =>
    Array.isArray(prefer) && prefer.length > 0 && prefer.length <= candidate.length &&
    prefer.every(([pr, pc], i) => candidate[i][0] === pr && candidate[i][1] === pc);
  const keep = (tiles) => {
    const points = pointsOf(board, tiles, { match });
    const entry = { path: null, points };
    const isPreferred = extendsPrefer(tiles);
    const worst = kept[kept.length - 1];
    const fits = kept.length < limit || points > worst.points;
    if (!fits && !(isPreferred && (keptPreferred === null || points > keptPreferred.points))) return;
    entry.path = tiles.map(([tr, tc]) => [tr, tc]);
    if (isPreferred && (keptPreferred === null || points > keptPreferred.points)) keptPreferred = entry;
    if (!fits) return;
    let i = kept.length;
    while (i > 0 && kept[i - 1].points < points) i -= 1;
    kept.splice(i, 0, entry);
    if (kept.length > limit) kept.pop();
  };

  const walk = (r, c, at) => {
    steps += 1;
    if (steps > budget) {
      exhausted = true;
      return;
    }
    const next = at + letters[r][c].length;
    used[r][c] = true;
    path.push([r, c]);
    if (next === target.length) {
      const key = multiLetter ? path.join(" ") : "";
      if (!multiLetter || !seen.has(key)) {
        seen.add(key);
        keep(path);
      }
    } else {
      // The most valuable first; among equals, the tile with the fewest free neighbours
      // (Warnsdorff's rule), so a long word on repeated letters does not strand a corner.
      const onward = [];
      for (const [dr, dc] of NEIGHBOURS) {
        const nr = r + dr;
        const nc = c + dc;
        if (playable(nr, nc) && !used[nr][nc] && readsAt(letters[nr][nc], target, next) > 0) {
          let free = 0;
          for (const [er, ec] of NEIGHBOURS) if (playable(nr + er, nc + ec) && !used[nr + er][nc + ec]) free += 1;
          onward.push({ r: nr, c: nc, worth: worth(nr, nc), free });
        }
      }
      onward.sort((a, b) => b.worth - a.worth || a.free - b.free);
      for (const tile of onward) {
        if (exhausted) break;
        walk(tile.r, tile.c, next);
      }
    }
    path.pop();
    used[r][c] = false;
  };

  const starts = [];
  let tiles = 0;
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < letters[r].length; c += 1) {
      if (!playable(r, c)) continue;
      tiles += letters[r][c].length;
      if (readsAt(letters[r][c], target, 0) > 0) starts.push([r, c]);
    }
  }
  if (tiles < target.length) return { paths: [], exhausted: false }; // more letters than the board holds
  starts.sort((a, b) => worth(b[0], b[1]) - worth(a[0], a[1]));
  // The path on screen is searched first, so a budget cut never loses it.
  const preferred = Array.isArray(prefer) && prefer.length > 0 ? prefer[0] : null;
  if (preferred) {
    const i = starts.findIndex(([r, c]) => r === preferred[0] && c === preferred[1]);
    if (i > 0) starts.unshift(...starts.splice(i, 1));
  }
  for (const [r, c] of starts) {
    if (exhausted) break;
    walk(r, c, 0);
  }

  if (keptPreferred !== null && !kept.includes(keptPreferred)) {
    kept[kept.length - 1] = keptPreferred; // `limit` is at least 1: keptPreferred made `kept` non-empty
  }
  kept.sort((a, b) => b.points - a.points || comparePaths(a.path, b.path));
  return { paths: kept, exhausted };
}

/** Reading order of two paths (row, then column, tile by tile): a stable tie-break. */
function comparePaths(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const d = a[i][0] - b[i][0] || a[i][1] - b[i][1];
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** The index in `paths` of `path` (the same tiles in the same order), or -1. */
export function indexOfPath(paths, path) {
  return paths.findIndex(
    (candidate) => candidate.path.length === path.length && candidate.path.every(([r, c], i) => path[i][0] === r && path[i][1] === c),
  );
}
