// The tab's state: the connection, which mode it shows (the endless game, the daily board, a
// match, or a room), the board, the chain, "Your games", and what the player means to do. No
// DOM, and no player-facing wording: a message is a key and its facts (`say`), worded by the view.
//
// This file composes the parts and applies what they return. Each role is a module of store/
// whose functions read the tab and return a change (store/change.js says what one holds),
// never writing the state themselves:
//   store/reconcile.js  the chain on screen against the server's (moves matched by `seq`)
//   store/drag.js       press, drag, release, cancel, undo; Space and Enter on a tile
//   store/spelling.js   type to spell
//   store/endless.js    the endless game and sprints: snapshots, words judged, tiles replaced
//   store/daily.js      the daily board
//   store/games.js      "Your games": what a socket resumes, opening one, one that is lost
// A match's and a room's messages and intents are the two parts the store holds,
// `store.match` (match_moves.js) and `store.room` (room_moves.js).
// Listeners get `(state, event)` after every change; `event.type` says what happened.

import { EMPTY_CHAIN, Moves } from "./chain.js";
import { dailyMemory, dateOf } from "./daily.js";
import { versionCheck } from "./match.js";
import { MatchMoves } from "./match_moves.js";
import * as P from "./protocol.js";
import { joinStateOf, RACE_MESSAGES, ROOM_MESSAGES, RoomMoves } from "./room_moves.js";
import { savedRooms } from "./saved.js";
import { serverSaid } from "./store/change.js";
import * as dailyPage from "./store/daily.js";
import * as drag from "./store/drag.js";
import * as endless from "./store/endless.js";
import * as games from "./store/games.js";
import * as reconcile from "./store/reconcile.js";
import * as spelling from "./store/spelling.js";

export { GAMES_KEY, MAX_SAVED_GAMES, ROOMS_KEY, savedGames, savedRooms } from "./saved.js";
export { currentChain, isRefilling, phaseOf } from "./store/reconcile.js";

/** Messages the server sends about a match, each handled by `store.match` (match_moves.js). */
const MATCH_MESSAGES = new Set(["played", "turn", "gems", "presence", "hint", "suggestion", "match_over"]);

/**
 * The tab's state, the parts of store/ composed, and two parts it holds: `match`
 * (match_moves.js), a match's messages and intents, and `room` (room_moves.js), a room's. The
 * store hands each message to the part it is for; the page calls a part's intents on the part
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
      draft: { bots: ["easy"], rounds: P.DEFAULT_ROUNDS, timed: false, classic: false, wordlist: null },
      message: null, // {kind, say, ...facts, id}: the view words it
      games: storage.list(), // "Your games": this browser's games and matches, newest first
      // Playing with friends (room.js, `this.room`): the room this tab is in, and how far
      // it got into one (`join.step`: the create form, a name asked for, joining, in, gone).
      room: null,
      race: null, // the room's race (race.js): its standings, and once over its end
      join: joinStateOf(roomCode, rooms, { gone: roomCode !== null && config.room_gone === true }),
      lobby: false, // after a room's match: the seats and rules shown instead of the end screen
      shownPath: null, // a missed word's path lit on a sprint's final board: {word, path}
      doneAsked: null, // when "I'm done" was pressed once (the tab's clock, ms): a second press ends the sprint
      leaveAsked: null, // when "Leave room" was pressed once mid-match (the tab's clock, ms): a second leaves
      removeAsked: null, // {seat, name, at}: the host pressed "Remove" on a person's seat once; a second removes
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
    // Typing is over once the chain on the board is not the path typed.
    this.state.spelling = spelling.checked(this.state);
    for (const listener of this.listeners) listener(this.state, event);
  }

  /** True when a move would reach the server: connected and showing a current game or match. */
  get canPlay() {
    return this.state.live && this.state.connection.state === "open";
  }

  /** A sprint that is over: nothing more can be played on its board. */
  get over() {
    return endless.isOver(this.state);
  }

  /** The page's input is spelling: Enter, Backspace and Tab are the spelling's. */
  get spelling() {
    return this.state.spelling !== null;
  }

  /** A message for the player: `say` names it, the rest are the facts the view words it with. */
  setMessage(kind, say, facts = {}) {
    this.messageId += 1;
    this.state.message = { kind, say, ...facts, id: this.messageId };
  }

  /** A message in the server's own words (an error it explained). */
  setServerMessage(message) {
    const { kind, say, ...facts } = serverSaid(message);
    this.setMessage(kind, say, facts);
  }

  // -- what the parts read, and what they return ------------------------------------

  /** What a part of store/ reads: the state, and the store's own fields (a copy: never written). */
  get tab() {
    return {
      state: this.state,
      ref: this.ref,
      opening: this.opening,
      announce: this.announce,
      start: this.start,
      fellBack: this.fellBack,
      waiting: this.moves.waiting,
      canPlay: this.canPlay,
      now: () => this.now(),
      today: () => this.today(),
      player: () => this.daily.player(),
      dailyGame: (date) => this.daily.game(date),
      current: () => this.storage.current(),
    };
  }

  /**
   * Apply a change a part returned (store/change.js), in the order written there, and answer
   * what the player's intent answers: false for no change, a move or a message refused.
   */
  apply(change) {
    if (!change) return false;
    if (change.moves && !this.sendMoves(change.moves)) return change.orElse ? this.apply(change.orElse) : false;
    for (const id of change.forget ?? []) this.forget(id);
    const saved = change.remember ? this.remember(change.remember) : null;
    if (change.daily) this.keepDaily(change.daily);
    Object.assign(this, change.tab);
    if (change.giveUp) this.moves.giveUp();
    if (change.reset) this.moves.reset();
    Object.assign(this.state, change.state);
    let sent = true;
    for (const message of change.send ?? []) sent = this.send(message) && sent;
    if (change.say) {
      const { kind, say, ...facts } = change.say;
      this.setMessage(kind, say, facts);
    }
    let answer = change.ok ?? true;
    if (change.match) {
      const [intent, ...args] = change.match;
      const result = this.match[intent](...args);
      answer = change.ok ?? result;
    }
    if (change.event) this.emit(change.event.saved === null ? { ...change.event, saved } : change.event);
    return sent && answer;
  }

  /** Send a change's moves in order (store/change.js); false when one that must go out was refused. */
  sendMoves(steps) {
    for (const step of steps) {
      const { move, optional = false, state = null } = "move" in step ? step : { move: step };
      if (this.move(move)) Object.assign(this.state, state);
      else if (!optional) return false;
    }
    return true;
  }

  /** What this browser's daily memory keeps (daily.js): the day's game, the name, a scored day. */
  keepDaily(change) {
    if ("game" in change) this.daily.setGame(change.game);
    if ("name" in change) this.daily.setName(change.name);
    if (change.record) {
      this.daily.record(change.record);
      this.state.days = this.daily.days();
    }
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
      this.apply({ ...reconcile.socketClosed(this.state), ...games.socketClosed(this.tab) });
      this.room.socketLost(); // and so does a join or a create
    }
    this.emit({ type: "status" });
  }

  /** A socket opened: pick the game or match back up, or start the game asked for. */
  onOpen() {
    this.fellBack = false;
    this.match.catchingUp = null; // a new socket brings the match afresh anyway
    if (this.state.join.code) return this.room.rejoinRoom(); // a room's page: the room, never a game
    this.apply(this.state.mode === "daily" ? dailyPage.opened(this.tab) : games.opened(this.tab));
  }

  onMessage(message) {
    if (ROOM_MESSAGES.has(message.type) || (message.type === "presence" && this.state.room)) {
      return this.room.onRoomMessage(message);
    }
    if (RACE_MESSAGES.has(message.type)) return this.room.onRaceMessage(message);
    if (message.type === "game") return this.apply(endless.gameSnapshot(this.tab, message));
    if (message.type === "over") return this.apply(endless.sprintOver(this.tab, message));
    if (message.type === "leaderboard") return this.apply(dailyPage.leaderboard(this.tab, message));
    if (message.type === "match") return this.match.onMatch(message);
    if (message.type === "rematch") return this.match.onRematch(message);
    // A match's drag on a version older than the one on screen came late, after a fresh snapshot
    // (another process caught up meanwhile): dropped, as any older event (never a reply to ours).
    if (message.type === "chain" && message.seq == null && this.state.match
        && versionCheck(this.state.match, message) === "stale") return undefined;
    const reply = this.moves.settle(message, this.state.chain);
    if (MATCH_MESSAGES.has(message.type)) return this.match.onMatchMessage(message, reply);
    if (message.type === "error") return this.onError(message);
    const handler = { chain: reconcile.chainChange, word: endless.wordJudged, board: endless.boardChanged }[message.type];
    this.apply(handler(this.tab, message, reply));
    // A scored word comes with the refill of its tiles (`changed`): the word first, then the tiles.
    if (message.type === "word" && message.changed) this.apply(endless.boardChanged(this.tab, message));
  }

  /**
   * An error: the room's, if it is about the room; else the first part it is for, asked in this
   * order; else it is said in the server's words.
   */
  onError(message) {
    if (this.room.onRoomError(message)) return;
    // A second Rematch click, answered once the first had brought the new match: that one plays.
    if (message.request === "rematch" && message.code === "match/not_over" && this.state.match?.phase !== "over") return;
    const tab = this.tab;
    const change = dailyPage.refused(tab, message)
      ?? games.resumeRefused(tab, message)
      ?? reconcile.moveRefused(tab, message)
      ?? games.gone(tab, message)
      ?? reconcile.rateLimited(tab, message)
      ?? endless.listRefused(tab, message)
      // Refused for now (a budget, say): a resume asked for is no longer on its way.
      ?? { tab: message.request === "resume" ? { opening: null } : undefined, say: serverSaid(message) };
    this.apply({ ...change, event: { type: "error", code: message.code } });
  }

  // -- for the parts the store holds (match_moves.js, room_moves.js) ------------

  /** A fresh snapshot (a game's or a match's): nothing of ours is in flight on what it replaced. */
  snapshotChain(message) {
    this.apply(reconcile.snapshot(message));
  }

  /** Show the server's chain: nothing of ours is in flight, or ours was refused. */
  adopt() {
    Object.assign(this.state, reconcile.adopted(this.state));
  }

  /** Our chain is answered, or nothing of ours is in flight: show the server's chain. */
  settleChain(reply) {
    Object.assign(this.state, reconcile.settled(this.tab, reply));
  }

  /** Send a move or a power with its move number; false (nothing sent) when the socket is closed. */
  move(message) {
    const seq = this.moves.next();
    if (this.send(P.withSeq(message, seq))) return true;
    this.moves.giveUp();
    return false;
  }

  // -- what the player does (store/drag.js, store/spelling.js) -----------------------

  press(row, col) {
    return this.apply(drag.press(this.tab, row, col));
  }

  enter(row, col) {
    return this.apply(drag.enter(this.tab, row, col));
  }

  release() {
    return this.apply(spelling.submit(this.tab));
  }

  cancel() {
    return this.apply(drag.cancel(this.tab) ?? spelling.drop(this.tab));
  }

  undo() {
    return this.apply(drag.undo(this.tab));
  }

  activate(row, col, submitOnLast) {
    return this.apply(drag.activate(this.tab, row, col, submitOnLast));
  }

  dismiss() {
    return this.apply(drag.dismiss(this.tab));
  }

  typeLetter(key) {
    return this.apply(spelling.typeLetter(this.tab, key));
  }

  cyclePath(step) {
    return this.apply(spelling.cyclePath(this.tab, step));
  }

  unspell() {
    return this.apply(spelling.unspell(this.tab));
  }

  // -- the endless game and the daily board (store/endless.js, store/daily.js) ------

  newGame(wordlist, sprint = null) {
    return this.apply(endless.newGame(this.tab, wordlist, sprint));
  }

  showMissed(index) {
    return this.apply(endless.showMissed(this.tab, index));
  }

  /** "I'm done": asks first, ends the sprint at the second press (store/endless.js). */
  done() {
    return this.apply(endless.done(this.tab));
  }

  playDaily(name) {
    return this.apply(dailyPage.play(this.tab, name));
  }

  replayDaily() {
    return this.apply(dailyPage.replay(this.tab));
  }

  dailyShared(how) {
    this.apply(dailyPage.shared(this.tab, how));
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
    return this.apply({ state: { mode: "endless", setup: false }, event: { type: "mode" } });
  }

  // -- "Your games" (store/games.js; the storage is read and written here only) -------------

  /** Go back to one of "Your games" (a game or a match). */
  openGame(id) {
    return this.apply(games.open(this.tab, id));
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
