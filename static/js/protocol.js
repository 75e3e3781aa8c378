// The wire format, the browser's side of wibble/protocol.py (see docs/protocol.md).
// Building messages for the server and reading what it sends; no sockets, no DOM.

export const MAX_SEED = 2 ** 53 - 1; // the server refuses larger seeds

/** Results of a released chain (`word.result`). */
export const Result = Object.freeze({
  SCORED: "scored",
  NOT_A_WORD: "not_a_word",
  ALREADY_FOUND: "already_found",
  TOO_SHORT: "too_short",
});

/** What a chain spells so far (`chain.status`). */
export const Status = Object.freeze({ WORD: "word", PREFIX: "prefix", NONE: "none" });

// -- client -> server -------------------------------------------------------------

/** `new_game`; both fields optional (the server picks its default list and a random seed). */
export function newGame({ wordlist = null, seed = null } = {}) {
  const message = { type: "new_game" };
  if (wordlist) message.wordlist = wordlist;
  if (seed !== null && seed !== undefined) message.seed = seed;
  return message;
}

export const resume = (gameId, token) => ({ type: "resume", game_id: gameId, token });
export const press = (row, col) => ({ type: "press", row, col });
export const enter = (row, col) => ({ type: "enter", row, col });
export const release = () => ({ type: "release" });
export const cancel = () => ({ type: "cancel" });

/** One text frame. */
export const encode = (message) => JSON.stringify(message);

/** A seed from text (a URL parameter), or null unless it is a whole number the server accepts. */
export function parseSeed(text) {
  if (typeof text !== "string" || !/^\d{1,16}$/.test(text)) return null;
  const seed = Number(text);
  return Number.isSafeInteger(seed) && seed <= MAX_SEED ? seed : null;
}

// -- server -> client -------------------------------------------------------------

const KNOWN = new Set(["game", "chain", "word", "board", "error"]);

/** A server frame as an object with a known `type`, or null for anything else. */
export function read(frame) {
  if (typeof frame !== "string") return null;
  let message;
  try {
    message = JSON.parse(frame);
  } catch {
    return null;
  }
  if (message === null || typeof message !== "object" || Array.isArray(message)) return null;
  return KNOWN.has(message.type) ? message : null;
}

/** A `[row, col]` list from a message, as fresh arrays the caller may keep. */
export const chainOf = (message) =>
  Array.isArray(message.chain) ? message.chain.map(([row, col]) => [row, col]) : [];

/** The chain in progress as a `game` or `chain` message describes it. */
export const chainStateOf = (message) => ({
  chain: chainOf(message),
  word: message.word,
  points: message.points,
  status: message.status,
  alreadyFound: Boolean(message.already_found),
});

/** `words_left` of a `game` or `board` message (words on the board not found yet), or null if absent. */
export const wordsLeftOf = (message) =>
  Number.isSafeInteger(message.words_left) && message.words_left >= 0 ? message.words_left : null;

/** Errors after which the client's optimistic chain is wrong and must fall back to the server's. */
export const isMoveError = (code) =>
  typeof code === "string" && (code.startsWith("move/") || code.startsWith("state/"));

/** Errors meaning a saved game cannot be resumed: start a new one instead. */
export const isLostGame = (code) =>
  code === "game/not_found" || code === "game/bad_token" || code === "game/unavailable";
