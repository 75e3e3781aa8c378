// The game as this tab knows it, and what the player means to do with it. No DOM.
//
// The server is the authority; the tab is optimistic. A tile the player drags onto
// lights up at once (the chain is checked here against the board: neighbours only,
// each tile once, stepping back undoes), the move goes to the server, and the
// server's `chain` replies are counted against the moves still pending:
// - `confirmed` is the last chain the server sent;
// - when the reply to the last pending move arrives, the tab adopts the server's chain;
// - a `move/...` or `state/...` error rolls the tab back to `confirmed`.
// Listeners get `(state, event)` after every change; `event.type` says what happened.

import * as P from "./protocol.js";

const EMPTY_CHAIN = Object.freeze({
  chain: [],
  word: "",
  points: 0,
  status: P.Status.NONE,
  alreadyFound: false,
});

const MOVES = new Set(["press", "enter", "release", "cancel"]);

// If replies stop coming (the server drops rate-limited moves, sending one warning a
// second at most), stop waiting after this long and show the server's chain.
const RESYNC_MS = 3000;

const sameChain = (a, b) =>
  a.length === b.length && a.every(([r, c], i) => r === b[i][0] && c === b[i][1]);

const touches = ([r1, c1], [r2, c2]) =>
  Math.max(Math.abs(r1 - r2), Math.abs(c1 - c2)) === 1;

// Refills come only after a scored word, so a board with no word left to find stays that way.
const NO_WORDS_LEFT = "No words left — start a new game.";

const WORDLIST_ERRORS = new Set(["game/unknown_wordlist", "game/wordlist_unavailable"]);

/** The tiles a scored word used, as "row,col" keys (every tile when the chain is unknown). */
function tilesOf(chain, board) {
  if (chain.length > 0) return new Set(chain.map(([r, c]) => `${r},${c}`));
  return new Set(board.flatMap((row, r) => row.map((_, c) => `${r},${c}`)));
}

/** True while the tile's replacement has not arrived: it still shows the old letter. */
export function isRefilling(state, row, col) {
  return state.refilling !== null && state.refilling.has(`${row},${col}`);
}

/**
 * What to draw for the chain: the tab's own chain, with the server's verdict when
 * the server has confirmed that very chain, and `status: "pending"` until then.
 */
export function currentChain(state) {
  const { chain, board, confirmed } = state;
  const tiles = chain.map(([r, c]) => board[r]?.[c]).filter(Boolean);
  const word = tiles.map((tile) => tile.letter).join("");
  const points = tiles.reduce((sum, tile) => sum + tile.score, 0);
  const known = chain.length > 0 && sameChain(chain, confirmed.chain);
  return {
    chain,
    word,
    points,
    status: chain.length === 0 ? "empty" : known ? confirmed.status : "pending",
    alreadyFound: known && confirmed.alreadyFound,
  };
}

/**
 * One word for where the tab stands: `loading` (no game yet), `offline` (connection
 * lost), `chaining` (a chain is on the board), `busy` (waiting for the server to
 * answer moves or refill tiles) or `idle`.
 */
export function phaseOf(state) {
  if (!state.game) return "loading";
  if (!state.live) return "offline";
  if (state.chain.length > 0) return "chaining";
  if (state.pending > 0 || state.refilling) return "busy";
  return "idle";
}

export class Store {
  /**
   * @param {{send: (message: object) => boolean, storage: {list, current, save, forget},
   *          config: {wordlists: object[], default_wordlist: string},
   *          start?: {wordlist?: string|null, seed?: number|null}}} options
   *   `start` comes from the page's URL: it asks for a particular new game on load.
   */
  constructor({ send, storage, config, start = null }) {
    this.send = send;
    this.storage = storage;
    this.start = start && (start.wordlist || start.seed !== null) ? start : null;
    this.listeners = new Set();
    this.state = {
      config,
      connection: { state: "connecting", lost: false, restarting: false, retryAt: null },
      live: false, // a snapshot arrived on the current socket: the board is current
      game: null,
      board: [],
      total: 0,
      found: [],
      wordsLeft: null, // words the board allows that are not found yet (null until the server says)
      confirmed: EMPTY_CHAIN,
      chain: [],
      pending: 0,
      // A word scored and its tiles' replacements have not arrived yet: the "row,col"
      // keys of those tiles (null when none). They cannot be played until they have.
      refilling: null,
      mine: false, // this tab pressed the chain on the board (only the presser may play it on)
      message: null,
      games: storage.list(), // "Your games": this browser's games, newest first
    };
    this.ref = null; // {game_id, token} of the game this tab plays
    this.opening = null; // the entry of "Your games" being resumed, until the server answers
    this.announce = null; // what to say when the next snapshot is a new game
    this.fellBack = false; // a new_game without a list was sent after the list was refused
    this.messageId = 0;
  }

  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event) {
    this.watch();
    for (const listener of this.listeners) listener(this.state, event);
  }

  watch() {
    clearTimeout(this.watchdog);
    if (this.state.pending === 0) return;
    this.watchdog = setTimeout(() => {
      if (this.state.pending === 0) return;
      this.state.pending = 0;
      this.adopt();
      this.emit({ type: "resync" });
    }, RESYNC_MS);
  }

  /** True when a move would reach the server: connected and showing a current game. */
  get canPlay() {
    return this.state.live && this.state.connection.state === "open";
  }

  setMessage(kind, text) {
    this.messageId += 1;
    this.state.message = { kind, text, id: this.messageId };
  }

  // -- the connection ---------------------------------------------------------

  onStatus(status) {
    this.state.connection = {
      state: status.state,
      lost: status.lost,
      restarting: Boolean(status.restarting),
      retryAt: status.retryAt ?? null,
    };
    if (status.state !== "open") {
      // Until a new snapshot arrives, nothing on screen can be trusted or played.
      this.state.live = false;
      this.state.pending = 0;
      this.state.refilling = null;
      if (this.state.mine) this.state.confirmed = EMPTY_CHAIN; // the server drops our chain with us
      this.adopt();
      // A resume in flight dies with the socket; the next one is sent by onOpen.
      this.opening = null;
      if (this.announce === "open") this.announce = null;
    }
    this.emit({ type: "status" });
  }

  /** A socket opened: pick the game back up, or start the one asked for. */
  onOpen() {
    this.fellBack = false;
    const ref = this.ref ?? (this.start ? null : this.storage.current());
    if (ref) {
      // Remember which game is asked for (with its list, from "Your games"), in case it is gone.
      this.opening = this.state.games.find((game) => game.game_id === ref.game_id) ?? ref;
      this.send(P.resume(ref.game_id, ref.token));
    } else {
      const { wordlist = null, seed = null } = this.start ?? {};
      this.send(P.newGame({ wordlist: wordlist ?? this.state.config.default_wordlist, seed }));
    }
  }

  onMessage(message) {
    const handler = {
      game: this.onGame,
      chain: this.onChain,
      word: this.onWord,
      board: this.onBoard,
      error: this.onError,
    }[message.type];
    handler.call(this, message);
  }

  onGame(message) {
    this.ref = { game_id: message.game_id, token: message.token };
    this.opening = null;
    const saved = this.remember({
      ...this.ref,
      wordlist: message.wordlist,
      title: message.wordlist_title,
      total: message.total,
      words: message.found.length,
    });
    // The first snapshot answers the new_game asked for by the page's URL (or its fallback).
    const fromUrl = this.start !== null;
    this.start = null;
    this.fellBack = false;
    const state = this.state;
    const previous = state.game;
    state.game = {
      id: message.game_id,
      seed: message.seed,
      wordlist: message.wordlist,
      title: message.wordlist_title,
      language: message.language,
      minLength: message.min_length,
      size: message.size,
    };
    state.board = message.board.map((row) => row.map(({ letter, score }) => ({ letter, score })));
    state.total = message.total;
    state.found = message.found.map(({ word, points }) => ({ word, points }));
    state.wordsLeft = P.wordsLeftOf(message);
    state.confirmed = P.chainStateOf(message);
    state.chain = state.confirmed.chain;
    state.mine = false; // a chain in a snapshot is another tab's: ours ended with our connection
    state.pending = 0;
    state.refilling = null;
    state.live = true;
    const fresh = !previous || previous.id !== message.game_id;
    if (state.wordsLeft === 0) {
      this.setMessage("info", NO_WORDS_LEFT);
    } else if (fresh && this.announce === "fallback") {
      this.setMessage("info", `That word list is not available — here is a new game (${message.wordlist_title}).`);
    } else if (fresh && this.announce === "lost") {
      this.setMessage("info", `That game is no longer on the server — here is a new one (${message.wordlist_title}).`);
    } else if (fresh && this.announce === "open") {
      this.setMessage("info", `Back to your ${message.wordlist_title} game.`);
    } else if (fresh && this.announce) {
      this.setMessage("info", `New game — ${message.wordlist_title}`);
    }
    this.announce = null;
    this.emit({ type: "game", fresh, fromUrl, saved });
  }

  onChain(message) {
    const state = this.state;
    state.confirmed = P.chainStateOf(message);
    if (state.pending > 0) state.pending -= 1;
    if (state.pending === 0) this.adopt();
    this.emit({ type: "chain" });
  }

  onWord(message) {
    const state = this.state;
    const judged = state.confirmed.chain; // the server's chain is the one it just judged
    state.confirmed = EMPTY_CHAIN;
    if (state.pending > 0) state.pending -= 1;
    if (state.pending === 0) this.adopt();
    state.total = message.total;
    const word = message.word;
    switch (message.result) {
      case P.Result.SCORED:
        state.found = [...state.found, { word, points: message.points }];
        if (this.ref) this.remember({ ...this.ref, total: state.total, words: state.found.length });
        state.refilling = tilesOf(judged, state.board);
        this.setMessage("scored", `${word} +${message.points}`);
        break;
      case P.Result.NOT_A_WORD:
        this.setMessage("miss", `Not a word: ${word}`);
        break;
      case P.Result.ALREADY_FOUND:
        this.setMessage("miss", `Already found: ${word}`);
        break;
      case P.Result.TOO_SHORT:
        this.setMessage("miss", `Too short — ${state.game?.minLength ?? 3} letters minimum`);
        break;
      default:
        this.setMessage("miss", `${word}: ${message.result}`);
    }
    this.emit({ type: "word", result: message.result, word, points: message.points });
  }

  onBoard(message) {
    const board = this.state.board.map((row) => row.slice());
    const changed = [];
    for (const { row, col, letter, score } of message.changed) {
      if (board[row]?.[col] === undefined) continue;
      board[row][col] = { letter, score };
      changed.push([row, col]);
    }
    this.state.board = board;
    this.state.wordsLeft = P.wordsLeftOf(message);
    this.state.refilling = null;
    if (this.state.wordsLeft === 0) this.setMessage("info", NO_WORDS_LEFT);
    this.emit({ type: "board", changed });
  }

  onError(message) {
    const state = this.state;
    const code = message.code;
    if (MOVES.has(message.request) && state.pending > 0) state.pending -= 1;

    if (message.request === "resume" && P.isLostGame(code) && this.opening && state.live) {
      // One of "Your games" that cannot be opened: the game on screen plays on.
      if (code !== "game/unavailable") this.forget(this.opening.game_id);
      this.opening = null;
      this.announce = null;
      this.setMessage("miss", message.message || code);
    } else if (message.request === "resume" && P.isLostGame(code)) {
      // The game asked for cannot be played here (expired, or its list is gone from the
      // server): start a new one in the same list, or the server's default if that fails.
      const lost = this.opening;
      const wordlist = lost?.wordlist || state.game?.wordlist || state.config.default_wordlist;
      // A game the server no longer has leaves the list; one it cannot load now (its
      // list was removed, say) stays, in case the host brings the list back.
      if (lost && code !== "game/unavailable") this.forget(lost.game_id);
      this.ref = null;
      this.opening = null;
      this.announce = "lost";
      this.send(P.newGame({ wordlist }));
    } else if (P.isMoveError(code)) {
      if (code === "state/already_chaining" || code === "state/not_your_chain") {
        // Another connection's press landed first: the chain on the board is theirs,
        // even when our optimistic chain has already been replaced by it.
        state.mine = false;
        this.setMessage("info", "Another tab is playing this game.");
      }
      this.adopt();
    } else if (code === "protocol/rate_limited") {
      // Some moves were dropped without a reply: the count is off, so trust the server.
      state.pending = 0;
      this.adopt();
    } else if (WORDLIST_ERRORS.has(code) && !state.live && !this.fellBack) {
      // No game on screen (loading, or the saved one is gone after a restart) and the
      // list asked for is not there: play the server's default list rather than nothing.
      this.fellBack = true;
      this.announce = "fallback";
      this.send(P.newGame({ seed: this.start?.seed ?? null }));
      this.setMessage("miss", message.message || code);
    } else {
      if (message.request === "resume") this.opening = null; // refused for now (a budget, say)
      this.setMessage("miss", message.message || code);
    }
    this.emit({ type: "error", code });
  }

  /** Show the server's chain: nothing of ours is in flight, or ours was refused. */
  adopt() {
    const state = this.state;
    state.chain = state.confirmed.chain;
    if (state.chain.length === 0) state.mine = false;
  }

  // -- what the player does ---------------------------------------------------

  move(message) {
    if (!this.send(message)) return false;
    this.state.pending += 1;
    return true;
  }

  /**
   * Start a chain on a tile (dropping a chain of ours left on the board). Refused
   * (false) on a tile whose replacement is still on its way.
   */
  press(row, col) {
    const state = this.state;
    if (!this.canPlay || !state.board[row]?.[col] || isRefilling(state, row, col)) return false;
    if (state.chain.length > 0 || (state.confirmed.chain.length > 0 && state.pending === 0)) {
      if (!state.mine) {
        this.setMessage("info", "Another tab is playing a word — wait for it to finish.");
        this.emit({ type: "hint" });
        return false;
      }
      this.move(P.cancel());
    }
    if (!this.move(P.press(row, col))) return false;
    state.mine = true;
    state.chain = [[row, col]];
    this.emit({ type: "local" });
    return true;
  }

  /**
   * Extend the chain onto a neighbouring tile, or step back onto the second-to-last
   * tile to undo the last one. Anything else is ignored (false).
   */
  enter(row, col) {
    if (!this.canPlay) return false;
    const chain = this.state.chain;
    if (!this.state.mine || chain.length === 0 || !this.state.board[row]?.[col]) return false;
    if (isRefilling(this.state, row, col)) return false;
    const last = chain[chain.length - 1];
    if (last[0] === row && last[1] === col) return false;
    const previous = chain[chain.length - 2];
    let next;
    if (previous && previous[0] === row && previous[1] === col) {
      next = chain.slice(0, -1);
    } else if (chain.some(([r, c]) => r === row && c === col) || !touches(last, [row, col])) {
      return false;
    } else {
      next = [...chain, [row, col]];
    }
    if (!this.move(P.enter(row, col))) return false;
    this.state.chain = next;
    this.emit({ type: "local" });
    return true;
  }

  /** Submit the chain for judging. */
  release() {
    return this.endChain(P.release());
  }

  /** Drop the chain without judging it. */
  cancel() {
    return this.endChain(P.cancel());
  }

  /** Send the message that ends our chain (release or cancel) and clear it at once. */
  endChain(message) {
    if (!this.canPlay || !this.state.mine || this.state.chain.length === 0) return false;
    if (!this.move(message)) return false;
    this.state.chain = [];
    this.emit({ type: "local" });
    return true;
  }

  /** Take back the last tile (cancelling a one-tile chain). */
  undo() {
    const chain = this.state.chain;
    if (chain.length >= 2) return this.enter(...chain[chain.length - 2]);
    return chain.length === 1 ? this.cancel() : false;
  }

  /**
   * The keyboard's Space or Enter on a tile: start a chain, add the tile, step back
   * onto it, or (Enter on the last tile) submit.
   */
  activate(row, col, submitOnLast) {
    if (!this.canPlay || isRefilling(this.state, row, col)) return false;
    const chain = this.state.chain;
    if (chain.length === 0) return this.press(row, col);
    const last = chain[chain.length - 1];
    if (last[0] === row && last[1] === col) {
      if (submitOnLast) return this.release();
      this.setMessage("info", "Press Enter to submit the word.");
      this.emit({ type: "hint" });
      return false;
    }
    if (this.enter(row, col)) return true;
    this.setMessage("info", "Pick a tile that touches the last one, and not one already used.");
    this.emit({ type: "hint" });
    return false;
  }

  /** Start a new game with this word list (the one on screen stays in "Your games"). */
  newGame(wordlist) {
    if (this.state.connection.state !== "open") return false;
    this.announce = "new";
    return this.send(P.newGame({ wordlist }));
  }

  /** Go back to one of "Your games". */
  openGame(gameId) {
    // Only from a game on screen: while one is being loaded, a second resume would race it.
    if (!this.canPlay || this.opening || gameId === this.ref?.game_id) return false;
    const game = this.state.games.find((entry) => entry.game_id === gameId);
    if (!game) return false;
    this.opening = game;
    this.announce = "open";
    return this.send(P.resume(game.game_id, game.token));
  }

  /** Read "Your games" again (another tab changed it, or the "… ago" labels are due). */
  refreshGames() {
    this.state.games = this.storage.list();
    this.emit({ type: "games" });
  }

  remember(game) {
    const saved = this.storage.save(game);
    this.state.games = this.storage.list();
    return saved;
  }

  forget(gameId) {
    this.storage.forget(gameId);
    this.state.games = this.storage.list();
  }
}

/** How many games "Your games" keeps (the oldest beyond it are forgotten here, not on the server). */
export const MAX_SAVED_GAMES = 30;

/** The storage key of "Your games" (and, in session storage, of this tab's game). */
export const GAMES_KEY = "wibble.games";
const OLD_KEY = "wibble.game"; // before the list, a browser kept its one game here

const isRef = (ref) => typeof ref?.game_id === "string" && typeof ref?.token === "string";

/**
 * This browser's games: every game it started or opened, newest first, in `local`
 * storage (shared by its tabs), and the game this tab plays in `session` storage
 * (its own, kept across a reload). Starting a game in one tab never takes another
 * tab's game away: each resumes its own, and every game stays in the list.
 * Quiet when storage is unavailable (private mode, full, blocked): the game still
 * plays, it just will not resume.
 */
export function savedGames(local, session, { key = GAMES_KEY, now = () => Date.now() } = {}) {
  const read = (storage, name) => {
    try {
      return JSON.parse(storage?.getItem(name) ?? "null");
    } catch {
      return null;
    }
  };
  const write = (storage, name, value) => {
    try {
      storage.setItem(name, JSON.stringify(value));
      return true;
    } catch {
      return false;
    }
  };
  const list = () => {
    let games = read(local, key);
    if (!Array.isArray(games)) {
      // A browser from before the list: carry its one game over (save() then drops the old key).
      const single = read(local, OLD_KEY);
      games = isRef(single) ? [{ ...single, played: 0 }] : [];
    }
    return games
      .filter(isRef)
      .map(({ game_id, token, wordlist = "", title = "", total = 0, words = 0, played = 0 }) => ({
        game_id,
        token,
        wordlist: String(wordlist),
        title: String(title),
        total: Number(total) || 0,
        words: Number(words) || 0,
        played: Number(played) || 0,
      }))
      .sort((a, b) => b.played - a.played)
      .slice(0, MAX_SAVED_GAMES);
  };
  return {
    list,
    /** The game this tab was playing (across a reload), else the newest in the list, else null. */
    current() {
      const games = list();
      const mine = read(session, key);
      return games.find((game) => game.game_id === mine) ?? games[0] ?? null;
    },
    /** Add or update a game (and make it this tab's); true when it will resume on the next visit. */
    save(game) {
      const games = list();
      const old = games.find((entry) => entry.game_id === game.game_id);
      const entry = { ...old, ...game, played: now() };
      if (!isRef(entry)) return false;
      const rest = games.filter((other) => other.game_id !== game.game_id);
      write(session, key, entry.game_id);
      const saved = write(local, key, [entry, ...rest].slice(0, MAX_SAVED_GAMES));
      if (saved) {
        try {
          local.removeItem(OLD_KEY);
        } catch {
          // as in write()
        }
      }
      return saved;
    },
    /** Drop a game the server no longer has. */
    forget(gameId) {
      write(local, key, list().filter((game) => game.game_id !== gameId));
    },
  };
}
