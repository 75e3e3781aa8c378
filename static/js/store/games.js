// "Your games": this browser's games and matches (saved.js keeps them), what a new socket
// resumes, opening one of them, and what happens when the server cannot give one back. Each
// function returns a change (change.js); the store reads and writes the storage.

import * as P from "../protocol.js";
import { idOf, isMatchEntry } from "../saved.js";
import { adopted } from "./reconcile.js";
import { serverSaid } from "./change.js";

/** The message that resumes a saved game or match. */
export const resumeOf = (ref) => (isMatchEntry(ref) ? P.resumeMatch(ref.match_id, ref.token) : P.resume(ref.game_id, ref.token));

/** A socket opened on the main page: pick the game or match back up, or start the game asked for. */
export function opened(tab) {
  const { state } = tab;
  const ref = tab.ref ?? (tab.start ? null : tab.current());
  if (ref) {
    // Remember which entry is asked for (with its list, from "Your games"), in case it is gone.
    const opening = state.games.find((entry) => idOf(entry) === idOf(ref)) ?? ref;
    return { tab: { opening }, send: [resumeOf(ref)] };
  }
  const { wordlist = null, seed = null } = tab.start ?? {};
  return { send: [P.newGame({ wordlist: wordlist ?? state.config.default_wordlist, seed })] };
}

/** The socket closed: a resume in flight dies with it (the next one is sent when one opens). */
export function socketClosed(tab) {
  return { tab: tab.announce === "open" ? { opening: null, announce: null } : { opening: null } };
}

/** Go back to one of "Your games" (a game or a match). */
export function open(tab, id) {
  // Only from a game on screen: while one is being loaded, a second resume would race it.
  if (!tab.canPlay || tab.opening || id === idOf(tab.ref)) return null;
  const entry = tab.state.games.find((game) => idOf(game) === id);
  if (!entry) return null;
  return { tab: { opening: entry, announce: "open" }, send: [resumeOf(entry)] };
}

/** The game or match asked for cannot be resumed (expired, its list gone, a bad token). */
export function resumeRefused(tab, message) {
  const code = message.code;
  if (message.request !== "resume" || !P.isLostGame(code)) return null;
  // A game the server no longer has leaves the list; one it cannot load now (its list was
  // removed, say) stays, in case the host brings the list back.
  const forgets = (entry) => (entry && code !== "game/unavailable" ? [idOf(entry)] : undefined);
  if (tab.opening && tab.state.live) {
    // One of "Your games" that cannot be opened: the game on screen plays on.
    return { forget: forgets(tab.opening), tab: { opening: null, announce: null }, say: serverSaid(message) };
  }
  // Nothing to play on: start a new one in the same list, or the server's default if that fails.
  const lost = tab.opening;
  const wordlist = lost?.wordlist || tab.state.game?.wordlist || tab.state.config.default_wordlist;
  return {
    forget: forgets(lost),
    tab: { ref: null, opening: null, announce: "lost" },
    send: [P.newGame({ wordlist })],
  };
}

/**
 * The server no longer has the game on screen (its storage lost it): it leaves "Your
 * games", and the message says to start a new one.
 */
export function gone(tab, message) {
  if (message.code !== "game/gone") return null;
  return {
    forget: tab.ref ? [idOf(tab.ref)] : undefined,
    tab: { ref: null },
    giveUp: true,
    state: adopted(tab.state),
    say: serverSaid(message),
  };
}
