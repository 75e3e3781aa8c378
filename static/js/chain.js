// The optimistic chain and the move numbers that tell the tab when the server has
// caught up with it. Shared by the endless game and the match; no DOM, no sockets.
//
// A tile the player drags onto lights up at once; the move goes to the server with
// a `seq` (docs/protocol.md, "Move numbers"), and the server copies that `seq` into
// the replies the move caused, to this connection only. So:
// - a reply carrying the seq of the latest move sent means the server has caught up
//   with everything this tab sent: the tab shows the server's chain;
// - a reply carrying an older seq answers a move the tab has already built on: the
//   server's chain is noted, the tab's is kept;
// - a message without seq is somebody else's doing (another tab, another seat, a bot,
//   a timer): shown as it is, unless moves of ours are still in flight (or, in a match,
//   it is on an older version than the one on screen: store.js drops it).

import { Status, chainOf, seqOf } from "./protocol.js";

/** No chain: what the server's chain is after a release, a cancel, or before any press. */
export const EMPTY_CHAIN = Object.freeze({
  chain: [],
  word: "",
  points: null,
  status: Status.NONE,
  alreadyFound: false,
  seat: null,
});

/** "row,col" keys of the tiles of `path` (every tile of the board when the path is unknown). */
export function tilesOf(path, board) {
  if (path.length > 0) return new Set(path.map(([r, c]) => `${r},${c}`));
  return new Set(board.flatMap((row, r) => row.map((_, c) => `${r},${c}`)));
}

export const sameChain = (a, b) =>
  a.length === b.length && a.every(([r, c], i) => r === b[i][0] && c === b[i][1]);

export const touches = ([r1, c1], [r2, c2]) => Math.max(Math.abs(r1 - r2), Math.abs(c1 - c2)) === 1;

/**
 * The chain after the pointer or a key reaches (row, col): one tile longer, one shorter
 * (stepping back onto the second-to-last tile undoes the last), or null when the move is
 * not one the server would take (not a neighbour, a tile already used, the last tile again).
 */
export function stepChain(chain, row, col) {
  const last = chain[chain.length - 1];
  if (!last || (last[0] === row && last[1] === col)) return null;
  const previous = chain[chain.length - 2];
  if (previous && previous[0] === row && previous[1] === col) return chain.slice(0, -1);
  if (chain.some(([r, c]) => r === row && c === col) || !touches(last, [row, col])) return null;
  return [...chain, [row, col]];
}

/** What a reply is to this tab: the answer to its latest move, to an older one, or someone else's. */
export const Reply = Object.freeze({ LATEST: "latest", STALE: "stale", OTHER: "other" });

/**
 * The numbers of the moves this tab sent on its socket, and how far the server's
 * replies have caught up with them. Numbers only grow (never reused across sockets),
 * so a late reply from an old socket can never pass for a new move's.
 */
export class Moves {
  constructor() {
    this.last = 0; // the seq of the latest move sent
    this.answered = 0; // the latest seq the server has answered (or that we stopped waiting for)
    // Whether this socket's server copies seq back. Until a reply shows it does, a reply
    // without seq may still be ours: see `settle`. Servers from before "Move numbers"
    // never do; once every server does, this and `legacyAnswer` can go.
    this.echoes = false;
  }

  /** The seq for the next move. */
  next() {
    this.last += 1;
    return this.last;
  }

  /** Moves were sent that the server has not answered yet. */
  get waiting() {
    return this.answered < this.last;
  }

  /** A new socket (or a fresh snapshot): nothing of ours is in flight any more. */
  reset() {
    this.answered = this.last;
    this.echoes = false;
  }

  /** Stop waiting: the server dropped moves without answering them (rate limiting). */
  giveUp() {
    this.answered = this.last;
  }

  /**
   * Classify a server message. `shown` is the chain the tab shows now (its own while it
   * drags), needed only for a server that does not copy seq back.
   */
  settle(message, shown) {
    const seq = seqOf(message);
    if (seq !== null) {
      this.echoes = true;
      if (seq >= this.last) {
        this.answered = this.last;
        return Reply.LATEST;
      }
      return Reply.STALE;
    }
    if (!this.echoes && this.waiting && legacyAnswer(message, shown)) {
      this.answered = this.last;
      return Reply.LATEST;
    }
    return Reply.OTHER;
  }
}

/**
 * A server that does not copy seq back: a reply is taken as the answer to our latest
 * move when it leaves the server where the tab already is (the same chain, or no chain
 * after a release), or when it is an error (errors go only to the connection that
 * caused them). An intermediate reply of a fast drag does not match, so the tab's
 * chain stays on screen until the server has caught up; no counting, no timer.
 */
function legacyAnswer(message, shown) {
  switch (message.type) {
    case "error":
      return true;
    case "chain":
      return sameChain(chainOf(message), shown);
    case "word":
      return shown.length === 0;
    default:
      return false;
  }
}
