// The wire format, the browser's side of wibble/protocol/ (see docs/protocol.md).
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

/**
 * `new_game`; every field optional (the server picks its default list and a random seed).
 * `sprint`: seconds on the clock (60, 180 or 300); none is untimed Endless.
 */
export function newGame({ wordlist = null, seed = null, sprint = null } = {}) {
  const message = { type: "new_game" };
  if (wordlist) message.wordlist = wordlist;
  if (seed !== null && seed !== undefined) message.seed = seed;
  if (sprint) message.sprint = sprint;
  return message;
}

export const resume = (gameId, token) => ({ type: "resume", game_id: gameId, token });
/** Today's daily board: `player` the browser's own id, `name` the leaderboard's. */
export const newDaily = (player, name) => ({ type: "new_daily", player, name });
/** Today's leaderboard (and yesterday's board); with `player`, one's own rank too. */
export const leaderboard = (player) => (player ? { type: "leaderboard", player } : { type: "leaderboard" });
export const press = (row, col) => ({ type: "press", row, col });
export const enter = (row, col) => ({ type: "enter", row, col });
export const release = () => ({ type: "release" });
export const cancel = () => ({ type: "cancel" });
/** "I'm done": end this sprint now, as if its clock ran out (the server scores a daily try then). */
export const done = () => ({ type: "done" });

// -- matches (docs/protocol.md, "Matches") --

export const LEVELS = Object.freeze(["easy", "medium", "hard"]);
export const MAX_BOTS = 5;
export const DEFAULT_ROUNDS = 5;
export const MAX_ROUNDS = 20;
export const TIMED_TURN_SECONDS = 30; // what the page offers when the turn timer is on

/** The powers a seat pays gems for, in the order the page shows them. */
export const POWERS = Object.freeze(["shuffle", "swap", "hint", "extend"]);

/**
 * `new_match`: `bots` a list of levels, `rounds` 1-20, `turnSeconds` null (untimed) or
 * 5-600; the rest optional (`values`: "spellcast", the server's default, or "classic").
 */
export function newMatch({ bots = [], rounds = DEFAULT_ROUNDS, turnSeconds = null, wordlist = null, seed = null, name = null, values = null } = {}) {
  const message = {
    type: "new_match",
    bots: bots.map((level) => ({ level })),
    rounds,
    turn_seconds: turnSeconds,
  };
  if (wordlist) message.wordlist = wordlist;
  if (seed !== null && seed !== undefined) message.seed = seed;
  if (name) message.name = name;
  if (values) message.values = values;
  return message;
}

export const resumeMatch = (matchId, token) => ({ type: "resume", match_id: matchId, token });
export const pass = () => ({ type: "pass" });
export const shuffle = () => ({ type: "shuffle" });
export const swap = (row, col, letter) => ({ type: "swap", row, col, letter });
export const hint = () => ({ type: "hint" });
export const extend = () => ({ type: "extend" });
export const rematch = () => ({ type: "rematch" });
/** `suggest`: in a 2v2, mark (or unmark) a tile for your teammate; no tile clears your marks. */
export const suggest = (row = null, col = null) => (row === null ? { type: "suggest" } : { type: "suggest", row, col });

// -- rooms (docs/protocol.md, "Rooms: playing with friends") --

export const ROOM_SEATS = 8; // a room's table: eight seats, free or taken (a race runs all eight)
export const MATCH_SEATS = 6; // of which a match plays in the first six
export const NAME_MAX = 20; // a display name, once trimmed
export const SPEEDS = Object.freeze([1, 2, 3, 4]); // turns a seat plays a round (a handicap)
/** The letters of a room code: no 0/O, 1/I/L look-alikes. */
export const CODE_LETTERS = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const CODE = new RegExp(`^[${CODE_LETTERS}]{6}$`);

/** A room's link: a code after /r/ (as "Copy link" puts it on the clipboard), anywhere in the text. */
const LINKED = /\/r\/([0-9a-z]{6})(?![0-9a-z])/i;

/** A typed, pasted or linked code as the server knows it (read case-blind), or null if it cannot
 * be one: the code alone, with spaces around it or not, or the room's whole link. */
export function roomCodeOf(text) {
  const typed = String(text ?? "").trim();
  // Also as shown or read out: "Room 469NY4" (the room's heading), "469 NY4", "469-NY4".
  const code = (LINKED.exec(typed)?.[1] ?? typed.replace(/^room\s*/i, "").replace(/[\s-]/g, "")).toUpperCase();
  return CODE.test(code) ? code : null;
}

/**
 * A display name as sent: trimmed, and `null` when the server would refuse its length
 * (1-20 characters). Characters are counted as the server counts them, by code point.
 * Control and invisible characters are the server's to refuse (protocol/bad_field).
 */
export function nameOf(text) {
  const name = String(text ?? "").trim();
  const length = [...name].length;
  return length >= 1 && length <= NAME_MAX ? name : null;
}

/** `create_room`: you host it, in seat 0; `rules` as in `set_rules`, optional. */
export function createRoom(name, rules = null) {
  const message = { type: "create_room", name };
  if (rules) message.rules = rules;
  return message;
}

/** `join_room`: with a seat's token, back in that seat; without, as a spectator. */
export function joinRoom(code, name, token = null) {
  const message = { type: "join_room", code, name };
  if (token) message.token = token;
  return message;
}

export const takeSeat = (seat) => ({ type: "take_seat", seat });
/** What a room plays (`set_rules {mode}`), in the order the host's chooser lists them. */
export const ROOM_MODES = Object.freeze(["match", "teams", "race"]);
/** A race's lengths, in seconds (the host's choice). */
export const RACE_SECONDS = Object.freeze([60, 120, 180]);
/** Watch a race runner's board as it changes (a spectator, or anyone once the race is over). */
export const follow = (seat) => ({ type: "follow", seat });
/** A 2v2's seats: team A in 0 and 2, team B in 1 and 3 (docs/protocol.md, "2v2"). */
export const TEAM_SEATS = Object.freeze({ a: Object.freeze([0, 2]), b: Object.freeze([1, 3]) });
export const leaveSeat = () => ({ type: "leave_seat" });
export const leaveRoom = () => ({ type: "leave_room" });
/** `set_rules`: any of `rounds`, `turn_seconds`, `wordlist`, `stand_in`, `values` (host only). */
export const setRules = (rules) => ({ type: "set_rules", ...rules });
/** `set_seat`: `bot` (a level) and/or `speed` (1-4) for one seat (host only). */
export const setSeat = (seat, { bot = null, speed = null } = {}) => {
  const message = { type: "set_seat", seat };
  if (bot) message.bot = bot;
  if (speed !== null) message.speed = speed;
  return message;
};
export const removeSeat = (seat) => ({ type: "remove", seat });
export const startRoomMatch = () => ({ type: "start_match" });

/** The heartbeat (static/js/connection.js): the server answers each with a `pong`. */
export const ping = () => ({ type: "ping" });

/** The message with its move number (docs/protocol.md, "Move numbers"). */
export const withSeq = (message, seq) => ({ ...message, seq });

/** One text frame. */
export const encode = (message) => JSON.stringify(message);

/** A seed from text (a URL parameter), or null unless it is a whole number the server accepts. */
export function parseSeed(text) {
  if (typeof text !== "string" || !/^\d{1,16}$/.test(text)) return null;
  const seed = Number(text);
  return Number.isSafeInteger(seed) && seed <= MAX_SEED ? seed : null;
}

// -- server -> client -------------------------------------------------------------

const KNOWN = new Set([
  "game", "chain", "word", "board", "error", "over", "leaderboard",
  "match", "played", "turn", "gems", "presence", "hint", "suggestion", "match_over", "rematch",
  "room", "spectators", "removed",
  "race", "race_standing", "race_over", // a room's race (race.js)
  "definition", // a word's meanings, asked for by the page (definitions.js)
  "pong", // the heartbeat's answer: the connection swallows it, the game never sees one
]);

const known = (message) =>
  message !== null && typeof message === "object" && !Array.isArray(message) && KNOWN.has(message.type);

/**
 * The messages of a server frame, in order: one message is its object; what one change said
 * (a word played in a match, its refill, the next turn) an array of them. Anything else, or
 * a message of an unknown `type`, is left out.
 */
export function read(frame) {
  if (typeof frame !== "string") return [];
  let data;
  try {
    data = JSON.parse(frame);
  } catch {
    return [];
  }
  return (Array.isArray(data) ? data : [data]).filter(known);
}

/** A `[row, col]` list from a message, as fresh arrays the caller may keep. */
export const chainOf = (message) =>
  Array.isArray(message.chain) ? message.chain.map(([row, col]) => [row, col]) : [];

/** The chain in progress as a `game`, `match` or `chain` message describes it (`points` as the server scored it). */
export const chainStateOf = (message) => ({
  chain: chainOf(message),
  word: typeof message.word === "string" ? message.word : "",
  points: Number.isFinite(message.points) ? message.points : null,
  status: message.status ?? Status.NONE,
  alreadyFound: Boolean(message.already_found),
  seat: Number.isInteger(message.seat) ? message.seat : null, // whose chain, in a match
});

/** The `seq` a reply carries back (the move it answers), or null: somebody else's doing. */
export const seqOf = (message) => (Number.isSafeInteger(message.seq) && message.seq >= 0 ? message.seq : null);

/**
 * A tile as the server sent it: every field kept (`letter`, `score`, and in a match
 * `mult`, `word_mult`, `gem`, and whatever comes next), fresh so the caller may keep it.
 */
export const tileOf = (tile) => ({ ...tile });

/** A snapshot's board, row by row. */
export const boardOf = (message) => (Array.isArray(message.board) ? message.board.map((row) => row.map(tileOf)) : []);

/** A `board` message's changes as `{row, col, tile}`, the tile without its position. */
export const changesOf = (message) =>
  (Array.isArray(message.changed) ? message.changed : []).map(({ row, col, ...tile }) => ({ row, col, tile }));

/** `words_left` of a `game` or `board` message (words on the board not found yet), or null if absent. */
export const wordsLeftOf = (message) =>
  Number.isSafeInteger(message.words_left) && message.words_left >= 0 ? message.words_left : null;

/** Errors after which the client's optimistic chain is wrong and must fall back to the server's. */
export const isMoveError = (code) =>
  typeof code === "string" && (REFUSALS.some((prefix) => code.startsWith(prefix)) || code === "match/over");
// A move or a power refused by the rules (in a match: not your turn, not enough gems, ...).
const REFUSALS = ["move/", "state/", "turn/", "gems/", "swap/", "hint/", "game/over"];

/** Errors meaning a saved game (or match) cannot be resumed: start a new one instead. */
export const isLostGame = (code) => LOST.has(code);
// A match that cannot be resumed is answered with the game's codes (docs/protocol.md).
const LOST = new Set(["game/not_found", "game/bad_token", "game/unavailable"]);
