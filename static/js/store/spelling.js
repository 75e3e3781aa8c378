// Type to spell: typed letters choose a path (spell.js), and the page plays it as a drag would:
// press, enter, and enter onto the second-to-last tile to step back. The server sees only
// tiles. Each function returns a change (change.js); `state.spelling` is {typed, paths, index,
// extra}: the letters typed, the paths that spell them (best first) and the one on the board,
// and the letters typed past one no path continues (struck out: none is lit, and Enter plays
// nothing until Backspace has taken them back, so a slip never plays a word not typed).

import { sameChain } from "../chain.js";
import * as P from "../protocol.js";
import { findPaths, fold, readAs } from "../spell.js";
import { clearsMiss, clearsTyping, said } from "./change.js";
import { cancel, othersChain, release, turnRefused, undo } from "./drag.js";
import { isOver, watchingRace } from "./endless.js";
import { dangling, isRefilling } from "./reconcile.js";

const lettersOf = (board, path) => fold(path.map(([r, c]) => board[r]?.[c]?.letter ?? "").join(""));

/**
 * The list's letters (their faces), as the game or match on screen has them, and the board's
 * (a game saved before its list changed may show a tile the list has no more); null if unknown.
 */
function alphabetOf(state) {
  const letters = (state.match ? state.match.letters : state.game?.letters) ?? [];
  if (letters.length === 0) return null;
  return [...letters, ...(state.board ?? []).flat().map((tile) => tile?.letter).filter(Boolean)];
}

/**
 * The spelling to keep after any change: typing is over (null) once the chain on the board is
 * not the path typed. A drag, a refused move, another tab, a swap of one of its letters: the
 * chain is no longer the one typed, and typing on starts from whatever chain is there.
 */
export function checked(state) {
  const { spelling, chain, board, mine } = state;
  if (!spelling) return spelling;
  if (spelling.paths.length === 0) return mine && chain.length > 0 ? null : spelling; // (only struck letters)
  const path = spelling.paths[spelling.index].path;
  return !mine || !sameChain(chain, path) || lettersOf(board, path) !== readAs(spelling.typed, alphabetOf(state)) ? null : spelling;
}

/** Letters may be typed now (null): a chain of ours, or none, on our turn; else why not. */
function typingRefused(tab) {
  const state = tab.state;
  if (!tab.canPlay || isOver(state) || watchingRace(state)) return { ok: false };
  const turn = turnRefused(state);
  if (turn) return turn;
  if (!state.mine && dangling(tab)) return othersChain(state);
  return null;
}

/**
 * A letter typed: the best path spelling what is typed so far lights up (one that goes on from
 * the path on the board, if any does). A letter no path continues is refused, and said so: it
 * stays struck out, with every letter typed after it, until Backspace takes them back.
 * While a swap's letter is being chosen, the letter is that choice.
 */
export function typeLetter(tab, key) {
  const state = tab.state;
  if (state.swap) {
    if (!state.swap.tile || !state.match) return null;
    const letters = state.match.letters;
    const letter = letters.find((name) => fold(name) === readAs(key, letters)); // (as a letter typed on the board)
    return letter ? { match: ["swapTo", letter] } : null;
  }
  const refused = typingRefused(tab);
  if (refused) return refused;
  if (state.spelling?.extra) return struck(state.spelling, state.spelling.extra + fold(key)); // past a refusal
  const on = state.mine ? state.chain : [];
  const typed = state.spelling?.typed ?? lettersOf(state.board, on);
  return spell(tab, typed + fold(key), on, key);
}

/** The word typed stops at a letter no path continues: that letter and any typed after it
 * (`extra`) show struck out, the path lit stays the one before them, and the message says so. */
function struck(spelling, extra) {
  return {
    state: { spelling: { ...spelling, extra } },
    say: said("miss", "no_path", { typed: spelling.typed, letter: extra }),
    event: { type: "refused", letter: extra },
    ok: false,
  };
}

/** Enter while typing: the word lit is played, unless letters past a refusal are still struck out. */
export function submit(tab) {
  const spelling = tab.state.spelling;
  if (spelling?.extra) {
    return { say: said("miss", "struck_out", { typed: spelling.typed, extra: spelling.extra }), event: { type: "refused", letter: spelling.extra }, ok: false };
  }
  return release(tab);
}

/** Light up a path spelling `typed`, going on from `prefer` when one does; a refusal if none. */
export function spell(tab, typed, prefer, key = null) {
  const state = tab.state;
  const { paths } = findPaths(state.board, typed, {
    alphabet: alphabetOf(state),
    match: state.match !== null,
    blocked: (r, c) => isRefilling(state, r, c),
    prefer,
  });
  const letter = fold(key ?? "");
  if (paths.length === 0 && key !== null) {
    // Struck out, with the chain on the board (typed, dragged, or none) as the word typed so far.
    const before = typed.slice(0, typed.length - letter.length);
    return struck(state.spelling ?? { typed: before, paths: prefer.length ? [{ path: prefer }] : [], index: 0 }, letter);
  }
  if (paths.length === 0) {
    return {
      say: said("miss", "no_path", { typed: typed.slice(0, typed.length - letter.length), letter }),
      event: { type: "refused", letter },
      ok: false,
    };
  }
  const onward = paths.findIndex(({ path }) => prefer.length > 0 && prefer.every(([r, c], i) => path[i]?.[0] === r && path[i]?.[1] === c));
  const index = Math.max(0, onward);
  const followed = follow(tab, paths[index].path);
  const spelling = { typed, paths, index };
  return { ...followed, state: { ...followed.state, ...clearsMiss(state), spelling }, event: { type: "local", spelled: true } };
}

/**
 * Our chain made `path` with the fewest moves a drag would send: step back to where the two
 * part (entering the second-to-last tile takes the last one back), then go forward.
 */
export function follow(tab, path) {
  const state = tab.state;
  const on = state.mine ? state.chain : [];
  let shared = 0;
  while (shared < on.length && shared < path.length && sameChain([on[shared]], [path[shared]])) shared += 1;
  const moves = [];
  if (shared === 0) {
    if (state.mine && dangling(tab)) moves.push(P.cancel());
    moves.push({ move: P.press(...path[0]), state: { mine: true } });
    shared = 1;
  } else {
    for (let i = on.length - 1; i >= shared; i -= 1) moves.push(P.enter(...on[i - 1]));
  }
  for (let i = shared; i < path.length; i += 1) moves.push(P.enter(...path[i]));
  return { moves, state: { chain: path.map(([r, c]) => [r, c]) } };
}

/** Tab (1) or Shift+Tab (-1): the next or the previous path spelling the same letters. */
export function cyclePath(tab, step) {
  const spelling = tab.state.spelling;
  if (!spelling || !tab.canPlay) return null;
  const count = spelling.paths.length;
  const index = count > 1 ? (spelling.index + step + count) % count : spelling.index;
  const followed = count > 1 ? follow(tab, spelling.paths[index].path) : { state: {} };
  return {
    ...followed,
    state: count > 1 ? { ...followed.state, spelling: { ...spelling, index } } : followed.state,
    say: said("info", "spell_path", { index, count }),
    event: { type: "local", spelled: true },
    ok: count > 1,
  };
}

/** Backspace while typing: the last tile goes, and the path keeps the rest of its tiles. */
export function unspell(tab) {
  const state = tab.state;
  const spelling = state.spelling;
  if (!spelling) return undo(tab);
  if (spelling.extra) {
    // A struck-out letter goes first; once none is left, the word lit is the one typed again.
    const extra = [...spelling.extra].slice(0, -1).join("");
    if (extra) return struck(spelling, extra);
    const kept = spelling.paths.length ? { ...spelling, extra: "" } : null; // (nothing was lit: nothing typed)
    return { state: { spelling: kept, message: null }, event: { type: "local", spelled: true } };
  }
  const path = spelling.paths[spelling.index].path;
  if (path.length <= 1) return cancel(tab);
  const last = path[path.length - 1];
  const all = readAs(spelling.typed, alphabetOf(state)); // (as the tiles spell it)
  const typed = all.slice(0, all.length - fold(state.board[last[0]][last[1]].letter).length);
  return spell(tab, typed, path.slice(0, -1));
}

/** Esc with only struck letters typed (no chain to drop): they go, and what was said of them. */
export function drop(tab) {
  const state = tab.state;
  if (!state.spelling) return null;
  return { state: { spelling: null, ...clearsTyping(state) }, event: { type: "local" } };
}
