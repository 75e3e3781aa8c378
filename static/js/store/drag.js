// What the player does with the chain, by pointer or keys: press a tile, drag on (or back),
// release to submit, cancel, undo; Space and Enter on a tile. Each intent returns a change
// (change.js): the moves to send and the chain to show at once, or a hint of why not.

import { stepChain } from "../chain.js";
import * as M from "../match.js";
import * as P from "../protocol.js";
import { clearsMiss, clearsTyping, hint } from "./change.js";
import { isOver, watchingRace } from "./endless.js";
import { dangling, isRefilling } from "./reconcile.js";

/** Not a match, or this seat's turn; else the match part says why not (match_moves.js's myTurn). */
export function turnRefused(state) {
  const match = state.match;
  return !match || M.isMyTurn(match) ? null : { match: ["myTurn"], ok: false };
}

/** Another tab's (or seat's) chain is on the board: only its presser may play it on. */
export const othersChain = (state) => hint(state.match ? "other_seat_chain" : "other_tab_chain");

/**
 * Start a chain on a tile (dropping a chain of ours left on the board). Refused on a tile
 * whose replacement is still on its way. While a swap is being chosen, a tile pressed is
 * the one to change instead.
 */
export function press(tab, row, col) {
  const state = tab.state;
  if (!tab.canPlay || isOver(state) || watchingRace(state) || !state.board[row]?.[col]) return null;
  if (state.swap) return { match: ["pickSwapTile", row, col], ok: false };
  if (isRefilling(state, row, col)) return null;
  const turn = turnRefused(state);
  if (turn) return turn;
  const moves = [];
  if (dangling(tab)) {
    if (!state.mine) return othersChain(state);
    moves.push({ move: P.cancel(), optional: true }); // refused, the press is tried all the same
  }
  moves.push(P.press(row, col));
  return { moves, state: { mine: true, chain: [[row, col]], ...clearsMiss(state) }, event: { type: "local" } };
}

/**
 * Extend the chain onto a neighbouring tile, or step back onto the second-to-last tile to
 * undo the last one. Anything else is ignored (null).
 */
export function enter(tab, row, col) {
  const state = tab.state;
  if (!tab.canPlay || !state.mine || !state.board[row]?.[col] || isRefilling(state, row, col)) return null;
  const next = stepChain(state.chain, row, col);
  if (next === null) return null;
  return { moves: [P.enter(row, col)], state: { chain: next }, event: { type: "local" } };
}

/** Send the message that ends our chain (release: submit it; cancel: drop it) and clear it at once. */
function endChain(tab, message) {
  if (!tab.canPlay || !tab.state.mine || tab.state.chain.length === 0) return null;
  return { moves: [message], state: { chain: [] }, event: { type: "local" } };
}

export const release = (tab) => endChain(tab, P.release());

/** Drop our chain; what the message line said of the word being typed goes with it ("Path 1 of 4"). */
export function cancel(tab) {
  const ended = endChain(tab, P.cancel());
  return ended && { ...ended, state: { ...ended.state, ...clearsTyping(tab.state) } };
}

/** Take back the last tile (cancelling a one-tile chain). */
export function undo(tab) {
  const chain = tab.state.chain;
  if (chain.length >= 2) return enter(tab, ...chain[chain.length - 2]);
  return chain.length === 1 ? cancel(tab) : null;
}

/**
 * The keyboard's Space or Enter on a tile: start a chain, add the tile, step back onto it,
 * or (Enter on the last tile) submit. While a swap is being chosen, pick it.
 */
export function activate(tab, row, col, submitOnLast) {
  const state = tab.state;
  if (!tab.canPlay || watchingRace(state)) return null;
  if (state.swap) return { match: ["pickSwapTile", row, col] };
  if (isRefilling(state, row, col)) return null;
  const chain = state.chain;
  if (chain.length === 0) return press(tab, row, col);
  const last = chain[chain.length - 1];
  if (last[0] === row && last[1] === col) return submitOnLast ? release(tab) : hint("press_enter");
  const entered = enter(tab, row, col);
  const touching = hint("pick_touching");
  return entered ? { ...entered, orElse: touching } : touching;
}

/** Escape: put away a swap being chosen first (else nothing: the page drops the chain). */
export function dismiss(tab) {
  return tab.state.swap ? { match: ["cancelSwap"], ok: true } : null;
}
