// The tab's state: the connection, which mode it shows (the endless game, a match, or a room),
// the board, the chain, "Your games", and what the player means to do. No DOM, and no
// player-facing wording: a message is a key and its facts (`say`), worded by the view.
//
// The server is the authority and the scorer; the tab is optimistic about the chain
// only. A tile the player drags onto lights up at once, and its move goes out with a
// move number (`seq`, see chain.js): the server's replies are matched to moves by it,
// the latest one puts the server's chain on screen, and a refused move rolls the
// chain back to the server's. Points are always the server's.
// Listeners get `(state, event)` after every change; `event.type` says what happened.

import { EMPTY_CHAIN, Moves, Reply, sameChain, stepChain, tilesOf } from "./chain.js";
import * as M from "./match.js";
import * as P from "./protocol.js";
import { MatchMoves } from "./match_moves.js";
import { joinStateOf, ROOM_MESSAGES, RoomMoves } from "./room_moves.js";
import { idOf, isMatchEntry, savedRooms } from "./saved.js";
import { findPaths, fold } from "./spell.js";
import { endedSprint, sprintOf } from "./sprint.js";
import { dailyMemory, dateOf } from "./daily.js";

export { GAMES_KEY, MAX_SAVED_GAMES, ROOMS_KEY, savedGames, savedRooms } from "./saved.js";

const WORDLIST_ERRORS = new Set(["game/unknown_wordlist", "game/wordlist_unavailable"]);

/** Messages the server sends about a match, each handled by `store.match` (match_moves.js). */
const MATCH_MESSAGES = new Set(["played", "turn", "gems", "presence", "hint", "match_over"]);

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

/**
 * The tab's state and the endless game, and two parts it holds: `match` (match_moves.js),
 * a match's messages and intents, and `room` (room_moves.js), a room's. The store hands
 * each message to the part it is for; the page calls a part's intents on the part
 * (`store.match.pass()`, `store.room.takeSeat(2)`). Not to be confused with
 * `store.state.match` and `store.state.room`, what is on screen.
 */
export class Store {
  /**
   * @param {{send: (message: object) => boolean, storage: {list, current, save, forget},
   *          rooms?: {get, save, forget, name, setName},
   *          config: {wordlists: object[], default_wordlist: string, room?: string},
   *          start?: {wordlist?: string|null, seed?: number|null}, now?: () => number}} options
   *   `start` comes from the page's URL: it asks for a particular new game on load.
   *   `rooms` keeps the rooms joined and their seats' tokens (saved.js's savedRooms).
   *   `config.room` is set on a room's link (/r/<code>): the tab joins it instead, unless
   *   `config.room_gone` says there is no such room.
   *   `now` is a monotonic clock in ms (the turn clock counts down from it).
   */
  constructor({
    send,
    storage,
    rooms = savedRooms(null),
    daily = dailyMemory(null),
    config,
    start = null,
    now = () => performance.now(),
    today = () => dateOf(Date.now()),
  }) {
    this.send = send;
    this.storage = storage;
    const roomCode = typeof config.room === "string" && config.room ? config.room : null;
    this.now = now;
    this.today = today;
    this.daily = daily; // this browser's daily memory (daily.js): its player id, the day's game, its days
    this.start = start && (start.wordlist || start.seed !== null) ? start : null;
    this.listeners = new Set();
    this.moves = new Moves();
    this.state = {
      config,
      connection: { state: "connecting", lost: false, restarting: false, retryAt: null },
      live: false, // a snapshot arrived on the current socket: the board is current
      // What the page shows: "endless" (the game), "match", "room", or "daily" (/daily's page).
      mode: roomCode ? "room" : config.daily ? "daily" : "endless",
      setup: false, // in match mode: the match settings are shown (no match started yet)
      game: null, // the endless game attached to this tab
      match: null, // the match attached to this tab (see match.js)
      board: [], // the board on screen: the game's or the match's
      total: 0,
      found: [],
      wordsLeft: null, // words the board allows that are not found yet (null until the server says)
      confirmed: EMPTY_CHAIN, // the last chain the server sent
      chain: [], // the chain on screen: ours while we drag, else the server's
      waiting: false, // moves of ours the server has not answered yet
      // A word scored and its tiles' replacements have not arrived yet: the "row,col"
      // keys of those tiles (null when none). They cannot be played until they have.
      refilling: null,
      mine: false, // this tab pressed the chain on the board (only the presser may play it on)
      swap: null, // a swap being chosen: {tile: [row, col] | null}
      // Type to spell: the letters typed, the paths that spell them (best first, spell.js) and
      // the one on the board. Only while the chain on the board is that path (see `emit`).
      spelling: null, // {typed, paths: [{path, points}], index}
      // The match settings being chosen: a level per bot, rounds, whether turns are timed, and
      // whether the letters score the list's classic values rather than Spellcast's.
      draft: { bots: ["easy"], rounds: P.DEFAULT_ROUNDS, timed: false, classic: false },
      message: null, // {kind, say, ...facts, id}: the view words it
      games: storage.list(), // "Your games": this browser's games and matches, newest first
      // Playing with friends (room.js, `this.room`): the room this tab is in, and how far
      // it got into one (`join.step`: the create form, a name asked for, joining, in, gone).
      room: null,
      join: joinStateOf(roomCode, rooms, { gone: roomCode !== null && config.room_gone === true }),
      lobby: false, // after a room's match: the seats and rules shown instead of the end screen
      shownPath: null, // a missed word's path lit on a sprint's final board: {word, path}
      // The daily board: the day's leaderboard as the server last sent it, a refusal of the
      // name or the attempt, whether Share worked, the name last given and the days played here.
      dailyBoard: null,
      dailyError: null, // {say} or {text}
      shared: null, // "copied", "shared", "failed" or null
      dailyName: daily.name(),
      days: daily.days(),
    };
    this.ref = null; // {game_id, token} or {kind: "match", match_id, token}: what this tab plays
    this.opening = null; // the entry of "Your games" being resumed, until the server answers
    this.announce = null; // what to say when the next snapshot is a new game or match
    this.fellBack = false; // a new_game without a list was sent after the list was refused
    this.messageId = 0;
    this.match = new MatchMoves(this); // a match's messages and intents
    this.room = new RoomMoves(this, rooms); // a room's, and the rooms this browser has joined
  }

  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event) {
    this.state.waiting = this.moves.waiting;
    this.checkSpelling();
    for (const listener of this.listeners) listener(this.state, event);
  }

  /** True when a move would reach the server: connected and showing a current game or match. */
  get canPlay() {
    return this.state.live && this.state.connection.state === "open";
  }

  /** A message for the player: `say` names it, the rest are the facts the view words it with. */
  setMessage(kind, say, facts = {}) {
    this.messageId += 1;
    this.state.message = { kind, say, ...facts, id: this.messageId };
  }

  /** A message in the server's own words (an error it explained). */
  setServerMessage(message) {
    this.setMessage("miss", "server", { text: message.message || message.code, code: message.code });
  }

  // -- the connection ---------------------------------------------------------

  onStatus(status) {
    this.state.connection = {
      state: status.state,
      lost: status.lost,
      restarting: Boolean(status.restarting),
      retryAt: status.retryAt ?? null,
      host: status.host ?? null, // "refused": the name the server does not accept
    };
    if (status.state !== "open") {
      // Until a new snapshot arrives, nothing on screen can be trusted or played.
      this.state.live = false;
      this.moves.reset(); // nothing sent on the old socket will be answered
      this.state.refilling = null;
      this.state.swap = null;
      if (this.state.mine) this.state.confirmed = EMPTY_CHAIN; // the server drops our chain with us
      this.adopt();
      // A resume in flight dies with the socket; the next one is sent by onOpen.
      this.opening = null;
      if (this.announce === "open") this.announce = null;
      this.room.socketLost(); // and so does a join or a create
    }
    this.emit({ type: "status" });
  }

  /** A socket opened: pick the game or match back up, or start the game asked for. */
  onOpen() {
    this.fellBack = false;
    this.match.catchingUp = null; // a new socket brings the match afresh anyway
    if (this.state.join.code) return this.room.rejoinRoom(); // a room's page: the room, never a game
    if (this.state.mode === "daily") return this.openDaily();
    const ref = this.ref ?? (this.start ? null : this.storage.current());
    if (ref) {
      // Remember which entry is asked for (with its list, from "Your games"), in case it is gone.
      this.opening = this.state.games.find((entry) => idOf(entry) === idOf(ref)) ?? ref;
      this.send(this.resumeOf(ref));
    } else {
      const { wordlist = null, seed = null } = this.start ?? {};
      this.send(P.newGame({ wordlist: wordlist ?? this.state.config.default_wordlist, seed }));
    }
  }

  /** /daily's page: the day's game of this browser if it has one (else the form), and the leaderboard. */
  openDaily() {
    const ref = this.ref ?? this.daily.game(this.today());
    if (ref) {
      this.opening = ref;
      this.send(P.resume(ref.game_id, ref.token));
    }
    this.send(P.leaderboard(this.daily.player()));
  }

  resumeOf(ref) {
    return isMatchEntry(ref) ? P.resumeMatch(ref.match_id, ref.token) : P.resume(ref.game_id, ref.token);
  }

  onMessage(message) {
    if (ROOM_MESSAGES.has(message.type) || (message.type === "presence" && this.state.room)) {
      return this.room.onRoomMessage(message);
    }
    if (message.type === "game") return this.onGame(message);
    if (message.type === "over") return this.onOver(message);
    if (message.type === "leaderboard") return this.onLeaderboard(message);
    if (message.type === "match") return this.match.onMatch(message);
    if (message.type === "rematch") return this.match.onRematch(message);
    const reply = this.moves.settle(message, this.state.chain);
    if (MATCH_MESSAGES.has(message.type)) return this.match.onMatchMessage(message, reply);
    const handler = { chain: this.onChain, word: this.onWord, board: this.onBoard, error: this.onError }[message.type];
    return handler.call(this, message, reply);
  }

  /** A fresh snapshot: nothing of ours is in flight on what it replaced. */
  snapshotChain(message) {
    const state = this.state;
    this.moves.giveUp();
    state.confirmed = P.chainStateOf(message);
    state.chain = state.confirmed.chain;
    state.mine = false; // a chain in a snapshot is another tab's: ours ended with our connection
    state.refilling = null;
    state.swap = null;
    state.live = true;
  }

  onGame(message) {
    this.ref = { game_id: message.game_id, token: message.token };
    this.opening = null;
    const daily = message.daily ?? null;
    if (daily) this.daily.setGame({ ...this.ref, date: daily.date }); // not one of "Your games"
    const saved = daily ? true : this.remember({
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
      sprint: sprintOf(message, this.now()), // null: untimed
      daily, // {day, date, scored}: a daily board's game
    };
    state.shownPath = null;
    state.shared = null;
    state.dailyError = null;
    state.mode = daily ? "daily" : "endless";
    state.setup = false;
    state.match = null;
    state.board = P.boardOf(message);
    state.total = message.total;
    state.found = message.found.map(({ word, points }) => ({ word, points }));
    state.wordsLeft = P.wordsLeftOf(message);
    this.snapshotChain(message);
    const fresh = !previous || previous.id !== message.game_id;
    const title = message.wordlist_title;
    if (state.wordsLeft === 0) {
      this.setMessage("info", "no_words_left");
    } else if (fresh && this.announce === "fallback") {
      this.setMessage("info", "list_fallback", { title });
    } else if (fresh && this.announce === "lost") {
      this.setMessage("info", "game_lost", { title });
    } else if (fresh && this.announce === "open") {
      this.setMessage("info", "game_back", { title });
    } else if (fresh && this.announce) {
      this.setMessage("info", "game_new", { title });
    }
    this.announce = null;
    // A daily game that ended while away: its end screen wants the day's leaderboard as it is now.
    if (daily && state.game.sprint?.over && !fresh) this.send(P.leaderboard(this.daily.player()));
    this.emit({ type: "game", fresh, fromUrl, saved });
  }

  /** A sprint's time is up: the final score and words, and the best words that were missed. */
  onOver(message) {
    const state = this.state;
    if (!state.game?.sprint) return;
    this.moves.giveUp(); // the server dropped whatever chain was being dragged
    state.confirmed = EMPTY_CHAIN;
    state.chain = [];
    state.mine = false;
    state.spelling = null;
    state.refilling = null;
    state.game = { ...state.game, sprint: endedSprint(state.game.sprint, message) };
    state.total = message.total;
    state.found = message.found.map(({ word, points }) => ({ word, points }));
    const daily = state.game.daily;
    if (!daily) {
      this.remember({ ...this.ref, wordlist: state.game.wordlist, title: state.game.title, total: message.total, words: state.found.length });
    } else if (daily.scored) {
      this.daily.record({ date: daily.date, day: daily.day, score: message.total, words: state.found.length });
      state.days = this.daily.days();
    }
    this.setMessage("info", "time_up", { total: message.total, words: state.found.length });
    this.emit({ type: "over" });
  }

  /** A sprint that is over: nothing more can be played on its board. */
  get over() {
    const mode = this.state.mode;
    return (mode === "endless" || mode === "daily") && this.state.game?.sprint?.over === true;
  }

  // -- the daily board --------------------------------------------------------------

  onLeaderboard(message) {
    this.state.dailyBoard = message;
    this.emit({ type: "leaderboard" });
  }

  /** Play today's board under `name` (checked here as the server checks it, to say why at once). */
  playDaily(name) {
    const state = this.state;
    const trimmed = String(name ?? "").normalize("NFC").trim();
    if (trimmed.length < 1 || trimmed.length > 20) {
      state.dailyError = { say: "name_length" };
      this.emit({ type: "daily_error" });
      return false;
    }
    if (state.connection.state !== "open") return false;
    this.daily.setName(trimmed);
    state.dailyName = trimmed;
    state.dailyError = null;
    return this.send(P.newDaily(this.daily.player(), trimmed));
  }

  /** Today's board again, after the scored try: the server makes it a replay, not scored. */
  replayDaily() {
    return this.playDaily(this.state.dailyName || "Player");
  }

  /** Share worked ("copied" to the clipboard, or "shared" through the phone's sheet), or not. */
  dailyShared(how) {
    this.state.shared = how;
    this.emit({ type: "shared" });
  }

  /** Light a missed word's path on the final board (again: put it out). */
  showMissed(index) {
    const state = this.state;
    const entry = state.game?.sprint?.missed?.[index];
    if (!this.over || !entry) return false;
    state.shownPath = state.shownPath?.word === entry.word ? null : { word: entry.word, path: entry.path };
    this.emit({ type: "missed" });
    return true;
  }

  /** Our chain is answered, or nothing of ours is in flight: show the server's chain. */
  settleChain(reply) {
    if (reply === Reply.LATEST || !this.moves.waiting) this.adopt();
  }

  onChain(message, reply) {
    this.state.confirmed = P.chainStateOf(message);
    this.settleChain(reply);
    this.emit({ type: "chain", reply });
  }

  onWord(message, reply) {
    const state = this.state;
    const judged = state.confirmed.chain; // the server's chain is the one it just judged
    state.confirmed = EMPTY_CHAIN;
    this.settleChain(reply);
    const word = message.word;
    if (state.match) {
      // In a match only a refused word comes as `word` (a scored one is `played`), and the
      // turn goes on; another seat's miss is theirs to see.
      if (message.seat === state.match.you || message.seat === undefined) this.sayResult(message);
      this.emit({ type: "word", result: message.result, word, seat: message.seat ?? null });
      return;
    }
    state.total = message.total;
    if (message.result === P.Result.SCORED) {
      state.found = [...state.found, { word, points: message.points }];
      if (this.ref) this.remember({ ...this.ref, total: state.total, words: state.found.length });
      state.refilling = tilesOf(judged, state.board);
    }
    this.sayResult(message);
    this.emit({ type: "word", result: message.result, word, points: message.points });
  }

  sayResult(message) {
    const { word, result, points } = message;
    const facts = { word, result, points, total: this.state.total, minLength: this.minLength() };
    this.setMessage(result === P.Result.SCORED ? "scored" : "miss", "result", facts);
  }

  minLength() {
    return (this.state.match ?? this.state.game)?.minLength ?? 3;
  }

  onBoard(message) {
    const state = this.state;
    const board = state.board.map((row) => row.slice());
    const changed = [];
    for (const { row, col, tile } of P.changesOf(message)) {
      if (board[row]?.[col] === undefined) continue;
      board[row][col] = tile; // every field as the server sent it
      changed.push([row, col]);
    }
    state.board = board;
    state.wordsLeft = P.wordsLeftOf(message);
    state.refilling = null;
    if (state.match) {
      state.match.hint = null; // its path may no longer spell it
      // Only the seat whose turn it is can shuffle: say who did (the board moved under everyone).
      if (message.reason === "shuffle") {
        const match = state.match;
        this.setMessage("info", "shuffled", { mine: match.turn === match.you, name: M.seatName(match, match.turn) });
      }
    } else if (state.wordsLeft === 0) {
      this.setMessage("info", "no_words_left");
    }
    this.emit({ type: "board", changed, reason: message.reason ?? "refill" });
  }

  onError(message) {
    if (this.room.onRoomError(message)) return;
    const state = this.state;
    const code = message.code;

    if (state.mode === "daily" && (message.request === "new_daily" || (message.request === "resume" && P.isLostGame(code)))) {
      // The day's game cannot be resumed (the form takes its place), or the attempt was refused.
      if (message.request === "resume") this.daily.setGame(null);
      else state.dailyError = { text: message.message || code };
      this.opening = null;
      this.emit({ type: "error", code });
      return;
    }

    if (message.request === "resume" && P.isLostGame(code) && this.opening && state.live) {
      // One of "Your games" that cannot be opened: the game on screen plays on.
      if (code !== "game/unavailable") this.forget(idOf(this.opening));
      this.opening = null;
      this.announce = null;
      this.setServerMessage(message);
    } else if (message.request === "resume" && P.isLostGame(code)) {
      // The game asked for cannot be played here (expired, or its list is gone from the
      // server): start a new one in the same list, or the server's default if that fails.
      const lost = this.opening;
      const wordlist = lost?.wordlist || state.game?.wordlist || state.config.default_wordlist;
      // A game the server no longer has leaves the list; one it cannot load now (its
      // list was removed, say) stays, in case the host brings the list back.
      if (lost && code !== "game/unavailable") this.forget(idOf(lost));
      this.ref = null;
      this.opening = null;
      this.announce = "lost";
      this.send(P.newGame({ wordlist }));
    } else if (P.isMoveError(code)) {
      // Whatever was built on a refused move is refused too: back to the server's chain.
      if (code === "state/already_chaining" || code === "state/not_your_chain") {
        // Another connection's press landed first: the chain on the board is theirs,
        // even when our optimistic chain has already been replaced by it.
        state.mine = false;
        this.setMessage("info", "other_tab");
      } else if (state.match) {
        this.setServerMessage(message);
      }
      this.adopt();
    } else if (code === "game/gone") {
      // The server no longer has it (its storage lost it): it leaves "Your games", and the
      // message says to start a new one.
      if (this.ref) this.forget(idOf(this.ref));
      this.ref = null;
      this.moves.giveUp();
      this.adopt();
      this.setServerMessage(message);
    } else if (code === "protocol/rate_limited") {
      // Some moves were dropped without a reply: their seq will never come back.
      this.moves.giveUp();
      this.adopt();
    } else if (WORDLIST_ERRORS.has(code) && !state.live && !this.fellBack) {
      // No game on screen (loading, or the saved one is gone after a restart) and the
      // list asked for is not there: play the server's default list rather than nothing.
      this.fellBack = true;
      this.announce = "fallback";
      this.send(P.newGame({ seed: this.start?.seed ?? null }));
      this.setServerMessage(message);
    } else {
      if (message.request === "resume") this.opening = null; // refused for now (a budget, say)
      this.setServerMessage(message);
    }
    this.emit({ type: "error", code });
  }

  /** Show the server's chain: nothing of ours is in flight, or ours was refused. */
  adopt() {
    const state = this.state;
    state.chain = state.confirmed.chain;
    // An empty chain, or in a match another seat's, is not ours to play on.
    const seat = state.confirmed.seat;
    if (state.chain.length === 0 || (state.match && seat !== null && seat !== state.match.you)) state.mine = false;
  }

  // -- what the player does ---------------------------------------------------

  /** Send a move or a power with its move number; false (nothing sent) when the socket is closed. */
  move(message) {
    const seq = this.moves.next();
    if (this.send(P.withSeq(message, seq))) return true;
    this.moves.giveUp();
    return false;
  }

  /**
   * Start a chain on a tile (dropping a chain of ours left on the board). Refused
   * (false) on a tile whose replacement is still on its way. While a swap is being
   * chosen, a tile pressed is the one to change instead.
   */
  press(row, col) {
    const state = this.state;
    if (!this.canPlay || this.over || !state.board[row]?.[col]) return false;
    if (state.swap) {
      this.match.pickSwapTile(row, col);
      return false;
    }
    if (isRefilling(state, row, col) || !this.match.myTurn()) return false;
    if (state.chain.length > 0 || (state.confirmed.chain.length > 0 && !this.moves.waiting)) {
      if (!state.mine) {
        this.setMessage("info", state.match ? "other_seat_chain" : "other_tab_chain");
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
    const state = this.state;
    if (!this.canPlay || !state.mine || !state.board[row]?.[col] || isRefilling(state, row, col)) return false;
    const next = stepChain(state.chain, row, col);
    if (next === null || !this.move(P.enter(row, col))) return false;
    state.chain = next;
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
   * onto it, or (Enter on the last tile) submit. While a swap is being chosen, pick it.
   */
  activate(row, col, submitOnLast) {
    if (!this.canPlay) return false;
    if (this.state.swap) return this.match.pickSwapTile(row, col);
    if (isRefilling(this.state, row, col)) return false;
    const chain = this.state.chain;
    if (chain.length === 0) return this.press(row, col);
    const last = chain[chain.length - 1];
    if (last[0] === row && last[1] === col) {
      if (submitOnLast) return this.release();
      this.setMessage("info", "press_enter");
      this.emit({ type: "hint" });
      return false;
    }
    if (this.enter(row, col)) return true;
    this.setMessage("info", "pick_touching");
    this.emit({ type: "hint" });
    return false;
  }

  /** Escape: put away a swap being chosen first; else drop the chain. */
  dismiss() {
    if (this.state.swap) {
      this.match.cancelSwap();
      return true;
    }
    return false;
  }

  // -- type to spell ------------------------------------------------------------------
  // Typed letters choose a path (spell.js), and the page plays it as a drag would: press,
  // enter, and enter onto the second-to-last tile to step back. The server sees only tiles.

  /** The spelled path, or null: typing is over once the chain on the board is not it. */
  checkSpelling() {
    const { spelling, chain, board, mine } = this.state;
    if (!spelling) return;
    const path = spelling.paths[spelling.index].path;
    const word = fold(path.map(([r, c]) => board[r]?.[c]?.letter ?? "").join(""));
    // A drag, a refused move, another tab, a swap of one of its letters: the chain is no
    // longer the one typed, and typing on starts from whatever chain is there.
    if (!mine || !sameChain(chain, path) || word !== spelling.typed) this.state.spelling = null;
  }

  /** Letters that may be typed now: a chain of ours, or none, on our turn. */
  mayType() {
    const state = this.state;
    if (!this.canPlay || this.over) return false;
    if (!this.match.myTurn()) return false;
    if (!state.mine && (state.chain.length > 0 || (state.confirmed.chain.length > 0 && !this.moves.waiting))) {
      this.setMessage("info", state.match ? "other_seat_chain" : "other_tab_chain");
      this.emit({ type: "hint" });
      return false;
    }
    return true;
  }

  /**
   * A letter typed: the best path spelling what is typed so far lights up (one that goes
   * on from the path on the board, if any does). A letter no path continues is refused,
   * and said so. While a swap's letter is being chosen, the letter is that choice.
   */
  typeLetter(key) {
    const state = this.state;
    if (state.swap) {
      if (!state.swap.tile || !state.match) return false;
      const letter = state.match.letters.find((name) => fold(name) === fold(key));
      return letter ? this.match.swapTo(letter) : false;
    }
    if (!this.mayType()) return false;
    const on = state.mine ? state.chain : [];
    const typed = state.spelling?.typed ?? fold(on.map(([r, c]) => state.board[r]?.[c]?.letter ?? "").join(""));
    return this.spell(typed + fold(key), on, key);
  }

  /** Light up a path spelling `typed`, going on from `prefer` when one does; false if none. */
  spell(typed, prefer, key = null) {
    const state = this.state;
    const { paths } = findPaths(state.board, typed, {
      match: state.match !== null,
      blocked: (r, c) => isRefilling(state, r, c),
      prefer,
    });
    if (paths.length === 0) {
      this.setMessage("miss", "no_path", { typed: typed.slice(0, typed.length - fold(key ?? "").length), letter: fold(key ?? "") });
      this.emit({ type: "refused", letter: fold(key ?? "") });
      return false;
    }
    const onward = paths.findIndex(({ path }) => prefer.length > 0 && prefer.every(([r, c], i) => path[i]?.[0] === r && path[i]?.[1] === c));
    const index = Math.max(0, onward);
    if (!this.follow(paths[index].path)) return false;
    state.spelling = { typed, paths, index };
    this.emit({ type: "local", spelled: true });
    return true;
  }

  /**
   * Make our chain `path` with the fewest moves a drag would send: step back to where the
   * two part (entering the second-to-last tile takes the last one back), then go forward.
   */
  follow(path) {
    const state = this.state;
    const on = state.mine ? state.chain : [];
    let shared = 0;
    while (shared < on.length && shared < path.length && sameChain([on[shared]], [path[shared]])) shared += 1;
    if (shared === 0) {
      const dangling = state.chain.length > 0 || (state.confirmed.chain.length > 0 && !this.moves.waiting);
      if (state.mine && dangling && !this.move(P.cancel())) return false;
      if (!this.move(P.press(...path[0]))) return false;
      state.mine = true;
      shared = 1;
    } else {
      for (let i = on.length - 1; i >= shared; i -= 1) {
        if (!this.move(P.enter(...on[i - 1]))) return false;
      }
    }
    for (let i = shared; i < path.length; i += 1) {
      if (!this.move(P.enter(...path[i]))) return false;
    }
    state.chain = path.map(([r, c]) => [r, c]);
    return true;
  }

  /** Tab (1) or Shift+Tab (-1): the next or the previous path spelling the same letters. */
  cyclePath(step) {
    const spelling = this.state.spelling;
    if (!spelling || !this.canPlay) return false;
    const count = spelling.paths.length;
    if (count > 1) {
      const index = (spelling.index + step + count) % count;
      if (!this.follow(spelling.paths[index].path)) return false;
      this.state.spelling = { ...spelling, index };
    }
    this.setMessage("info", "spell_path", { index: this.state.spelling.index, count });
    this.emit({ type: "local", spelled: true });
    return count > 1;
  }

  /** Backspace while typing: the last tile goes, and the path keeps the rest of its tiles. */
  unspell() {
    const state = this.state;
    const spelling = state.spelling;
    if (!spelling) return this.undo();
    const path = spelling.paths[spelling.index].path;
    if (path.length <= 1) return this.cancel();
    const last = path[path.length - 1];
    const typed = spelling.typed.slice(0, spelling.typed.length - fold(state.board[last[0]][last[1]].letter).length);
    return this.spell(typed, path.slice(0, -1));
  }

  /** The page's input is spelling: Enter, Backspace and Tab are the spelling's. */
  get spelling() {
    return this.state.spelling !== null;
  }

  /**
   * The page's mode switch. Endless goes back to the endless game (a match stays saved, in
   * "Your games"); Match goes back to an unfinished match of this browser, else shows the
   * match settings; Friends shows the form to make a room.
   */
  chooseMode(mode) {
    const state = this.state;
    if (mode === state.mode) return false;
    // On a room's page the other modes are the main page's (the seat stays held meanwhile).
    if (state.join.code || state.config.daily || mode === "daily") {
      this.emit({ type: "leave_page", to: { mode } });
      return true;
    }
    if (mode === "room") return this.room.showFriends();
    if (mode !== "endless") return this.match.showMatch();
    if (state.match) return this.match.backToEndless();
    state.mode = "endless";
    state.setup = false;
    this.emit({ type: "mode" });
    return true;
  }

  /** Start a new game with this word list, untimed or a sprint of `sprint` seconds (the one on
   * screen stays in "Your games"). */
  newGame(wordlist, sprint = null) {
    if (this.state.connection.state !== "open") return false;
    this.announce = "new";
    return this.send(P.newGame({ wordlist, sprint }));
  }

  /** Go back to one of "Your games" (a game or a match). */
  openGame(id) {
    // Only from a game on screen: while one is being loaded, a second resume would race it.
    if (!this.canPlay || this.opening || id === idOf(this.ref)) return false;
    const entry = this.state.games.find((game) => idOf(game) === id);
    if (!entry) return false;
    this.opening = entry;
    this.announce = "open";
    return this.send(this.resumeOf(entry));
  }

  /** Read "Your games" again (another tab changed it, or the "… ago" labels are due). */
  refreshGames() {
    this.state.games = this.storage.list();
    this.emit({ type: "games" });
  }

  remember(entry) {
    const saved = this.storage.save(entry);
    this.state.games = this.storage.list();
    return saved;
  }

  forget(id) {
    this.storage.forget(id);
    this.state.games = this.storage.list();
  }
}
