// Chain reconciliation: the chain the tab shows against the one the server confirmed.
//
// The server is the authority and the scorer; the tab is optimistic about the chain only. A
// tile the player drags onto lights up at once, and its move goes out with a move number
// (`seq`, see chain.js): the server's replies are matched to moves by it, the latest one
// puts the server's chain on screen, and a refused move rolls the chain back to the
// server's. Points are always the server's. Each function returns a change (change.js).

import { EMPTY_CHAIN, Reply, sameChain } from "../chain.js";
import * as P from "../protocol.js";
import { said, serverSaid } from "./change.js";

/** True while the tile's replacement has not arrived: it still shows the old letter. */
export function isRefilling(state, row, col) {
  return state.refilling !== null && state.refilling.has(`${row},${col}`);
}

/**
 * What to draw for the chain: the tab's own chain, with the server's verdict when the
 * server has confirmed that very chain, and `status: "pending"` until then.
 *
 * Points are the server's, never summed here (in a match, multipliers and bonuses
 * count, and only the server knows the rules). For a chain the server has not
 * confirmed yet the points are the last ones it sent, marked `stale`: a blank would
 * blink at every tile of a drag (each step is one round trip), while the right number
 * follows a few milliseconds later. A chain with nothing confirmed yet has none.
 */
export function currentChain(state) {
  const { chain, board, confirmed } = state;
  const tiles = chain.map(([r, c]) => board[r]?.[c]).filter(Boolean);
  const word = tiles.map((tile) => tile.letter).join("");
  const known = chain.length > 0 && sameChain(chain, confirmed.chain);
  const points = chain.length > 0 && confirmed.chain.length > 0 ? confirmed.points : null;
  return {
    chain,
    word,
    points,
    stale: !known,
    status: chain.length === 0 ? "empty" : known ? confirmed.status : "pending",
    alreadyFound: known && confirmed.alreadyFound,
    // Whose chain it is, in a match: ours while we drag, else the seat the server named.
    seat: state.mine && state.match ? state.match.you : confirmed.seat,
    mine: state.mine,
  };
}

/**
 * One word for where the tab stands: `loading` (nothing on screen yet), `offline`
 * (connection lost), `chaining` (a chain is on the board), `busy` (waiting for the
 * server to answer moves or refill tiles) or `idle`.
 */
export function phaseOf(state) {
  if (!state.game && !state.match && !state.room) return "loading";
  if (!state.live) return "offline";
  if (state.chain.length > 0) return "chaining";
  if (state.waiting || state.refilling) return "busy";
  return "idle";
}

/** A chain is on the board that a new press would replace: one on screen, or the server's with nothing of ours in flight. */
export const dangling = (tab) => tab.state.chain.length > 0 || (tab.state.confirmed.chain.length > 0 && !tab.waiting);

/**
 * The state's fields that show the server's chain (`confirmed`, the state's unless given):
 * nothing of ours is in flight, or ours was refused. An empty chain, or in a match another
 * seat's, is not ours to play on.
 */
export function adopted(state, confirmed = state.confirmed) {
  const seat = confirmed.seat;
  const theirs = confirmed.chain.length === 0 || (state.match && seat !== null && seat !== state.match.you);
  return theirs ? { chain: confirmed.chain, mine: false } : { chain: confirmed.chain };
}

/** A fresh snapshot (a game's or a match's): nothing of ours is in flight on what it replaced. */
export function snapshot(message) {
  const confirmed = P.chainStateOf(message);
  return {
    giveUp: true,
    state: {
      confirmed,
      chain: confirmed.chain,
      mine: false, // a chain in a snapshot is another tab's: ours ended with our connection
      refilling: null,
      swap: null,
      live: true,
    },
  };
}

/** The socket closed: until a new snapshot arrives, nothing on screen can be trusted or played. */
export function socketClosed(state) {
  // Nothing sent on the old socket will be answered, and the server drops our chain with us.
  const confirmed = state.mine ? EMPTY_CHAIN : state.confirmed;
  const fields = { live: false, refilling: null, swap: null, confirmed };
  return { reset: true, state: { ...fields, ...adopted({ ...state, ...fields }) } };
}

/** Our chain is answered, or nothing of ours is in flight: show the server's chain (`confirmed`). */
export function settled(tab, reply, confirmed = tab.state.confirmed) {
  return reply === Reply.LATEST || !tab.waiting ? adopted(tab.state, confirmed) : {};
}

/** The server's `chain`: what it holds now, shown once our moves are answered. */
export function chainChange(tab, message, reply) {
  const confirmed = P.chainStateOf(message);
  return { state: { confirmed, ...settled(tab, reply, confirmed) }, event: { type: "chain", reply } };
}

/** A move or a power refused: whatever was built on it is refused too, back to the server's chain. */
export function moveRefused(tab, message) {
  const code = message.code;
  if (!P.isMoveError(code)) return null;
  const state = tab.state;
  if (code === "state/already_chaining" || code === "state/not_your_chain") {
    // Another connection's press landed first: the chain on the board is theirs, even when
    // our optimistic chain has already been replaced by it.
    return { state: { mine: false, ...adopted(state) }, say: said("info", "other_tab") };
  }
  return { state: adopted(state), say: state.match ? serverSaid(message) : undefined };
}

/** Some moves were dropped without a reply (rate limiting): their seq will never come back. */
export function rateLimited(tab, message) {
  if (message.code !== "protocol/rate_limited") return null;
  return { giveUp: true, state: adopted(tab.state) };
}
