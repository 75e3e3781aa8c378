// What the store does in a match (docs/protocol.md, "Matches"): the server's match
// messages, and the player's match intents (the settings, powers, pass, rematch). A part
// the Store holds, `store.match` (main.js calls `store.match.pass()`), which reaches the
// tab's state and its ways out through `this.store`; no inheritance either way.
// A room's match is played through here too; its snapshot and the room's part are
// room_moves.js's (`store.room`). No DOM; the match's own state is match.js's.

import { EMPTY_CHAIN, tilesOf } from "./chain.js";
import * as M from "./match.js";
import * as P from "./protocol.js";
import { idOf, isMatchEntry } from "./saved.js";

const CATCH_UP_AGAIN_MS = 5000;

export class MatchMoves {
  /** @param {Store} store the tab (store.js): its state, `emit`, `send`, `move`, messages */
  constructor(store) {
    this.store = store;
    this.catchingUp = null; // when a fresh match was asked for after a gap (null: none awaited)
  }

  get state() {
    return this.store.state;
  }

  // -- the server says --------------------------------------------------------

  onMatch(message) {
    const current = this.state.match;
    if (current && current.id === message.match_id && Number.isFinite(message.version) && message.version < current.version) {
      // An older snapshot of the match on screen (another server process caught up late and told
      // everyone what it had found): what the page holds is newer, so it stays.
      return;
    }
    this.catchingUp = null;
    const store = this.store;
    if (typeof message.room === "string") return store.room.onRoomMatch(message);
    store.ref = { kind: "match", match_id: message.match_id, token: message.token };
    store.opening = null;
    store.start = null;
    const state = this.state;
    const previous = state.match;
    state.match = M.matchOf(message, store.now());
    state.mode = "match";
    state.setup = false;
    state.board = P.boardOf(message);
    state.wordsLeft = P.wordsLeftOf(message);
    store.snapshotChain(message);
    this.rememberMatch();
    const fresh = !previous || previous.id !== message.match_id;
    if (fresh && store.announce === "open") {
      store.setMessage("info", "match_back");
    } else if (fresh && store.announce) {
      store.setMessage("info", M.isMyTurn(state.match) ? "match_new_you_first" : "match_new", {
        name: M.seatName(state.match, state.match.turn),
      });
    }
    store.announce = null;
    store.emit({ type: "match", fresh });
  }

  /**
   * Changes were missed (a gap in the versions): ask for the match as it stands, once (again
   * after five seconds without an answer), and drop what comes meanwhile. In a room the room is joined again (quietly: the server sends
   * this tab the room and its match); a match of our own is resumed.
   */
  catchUp() {
    const store = this.store;
    const now = store.now();
    // Once, not at every message of the gap; again if no answer came (a refused join, say).
    if (this.catchingUp !== null && now - this.catchingUp < CATCH_UP_AGAIN_MS) return;
    this.catchingUp = now;
    if (this.state.room) {
      store.room.rejoinRoom();
      return;
    }
    const ref = store.ref;
    if (isMatchEntry(ref)) store.send(P.resumeMatch(ref.match_id, ref.token));
  }

  /**
   * Another connection of this match asked for a rematch (another tab of ours, or another
   * player): the seats' tokens carry over, so this tab follows with its own.
   */
  onRematch(message) {
    const store = this.store;
    const ref = store.ref;
    if (!isMatchEntry(ref) || typeof message.match_id !== "string" || !store.canPlay) return;
    store.opening = { kind: "match", match_id: message.match_id, token: ref.token };
    store.announce = "new";
    store.send(P.resumeMatch(message.match_id, ref.token));
  }

  onMatchMessage(message, reply) {
    const match = this.state.match;
    if (!match) return; // a late message for a match this tab has left
    const order = M.versionCheck(match, message);
    if (order === "gap") return this.catchUp();
    if (order === "stale") return undefined;
    const handler = {
      played: this.onPlayed,
      turn: this.onTurn,
      gems: this.onGems,
      presence: this.onPresence,
      hint: this.onHint,
      suggestion: this.onSuggestion,
      match_over: this.onMatchOver,
    }[message.type];
    handler.call(this, match, message, reply);
    this.store.room.followRoomMatch(); // in a room, its note of the match follows
  }

  onPlayed(match, message, reply) {
    const store = this.store;
    const state = this.state;
    const play = M.applyPlayed(match, message, state.board);
    // The word was played: no chain is left on the board (no empty `chain` follows).
    state.confirmed = EMPTY_CHAIN;
    store.settleChain(reply);
    // The word's tiles are replaced next (`board`); until then they cannot be played.
    state.refilling = tilesOf(play.path, state.board);
    const mine = play.seat === match.you;
    store.setMessage(mine ? "scored" : "info", "played", {
      mine,
      name: M.seatName(match, play.seat),
      word: play.word,
      points: play.points,
      gemsEarned: play.gemsEarned,
      turnNo: match.turnNo, // (the turn that follows says it after this word, not instead of it)
    });
    if (mine) this.rememberMatch();
    store.emit({ type: "played", seat: play.seat, mine });
  }

  onTurn(match, message) {
    const store = this.store;
    const before = { phase: match.phase, turnNo: match.turnNo };
    const ended = M.applyTurn(match, message, store.now());
    if (!M.isMyTurn(match)) this.state.swap = null;
    const next = { next: M.seatName(match, match.turn), yours: M.isMyTurn(match), round: match.round };
    // The word that ended the turn stays on the line before what follows it ("Ada played KNEED: +14.
    // Round 1 is over."): said alone, the next message would replace it before anyone read or heard it.
    const shown = this.state.message;
    const after = shown?.say === "played" && shown.turnNo === before.turnNo ? shown : null;
    const kind = after?.kind ?? "info";
    if (match.phase === M.MatchPhase.BETWEEN) {
      store.setMessage(kind, "round_over", { ...next, after });
    } else if (match.phase === M.MatchPhase.PLAYING && match.passed) {
      const facts = { name: M.seatName(match, ended), mine: ended === match.you, how: match.passed.how };
      store.setMessage("info", "passed", { ...facts, ...next });
    } else if (match.phase === M.MatchPhase.PLAYING && before.phase === M.MatchPhase.BETWEEN) {
      store.setMessage("info", "round_start", next);
    } else if (M.isMyTurn(match) && match.turnNo !== before.turnNo) {
      store.setMessage(kind, "your_turn", { after });
    } else if (M.sameTurn(match, before) && match.clock !== null) {
      // Only the clock moved: the seat on turn bought more time (`extend`).
      const who = { mine: M.isMyTurn(match), name: M.seatName(match, match.turn), seconds: match.extendSeconds };
      store.setMessage("info", "extended", who);
    }
    this.rememberMatch();
    store.emit({ type: "turn", ended });
  }

  onGems(match, message) {
    M.applyGems(match, message);
    this.store.emit({ type: "gems", seat: message.seat });
  }

  onPresence(match, message) {
    M.applyPresence(match, message);
    this.store.emit({ type: "presence", seat: message.seat });
  }

  onHint(match, message) {
    const store = this.store;
    M.applyHint(match, message);
    if (match.hint) store.setMessage("info", "hint", { word: match.hint.word, points: match.hint.points });
    else store.setMessage("miss", "no_hint");
    store.emit({ type: "hinted" });
  }

  /** A 2v2 teammate's marks (or this seat's own, from another tab): drawn on the board. */
  onSuggestion(match, message) {
    M.applySuggestion(match, message);
    if (message.seat !== match.you && message.marks?.length) {
      this.store.setMessage("info", "suggested", { name: M.seatName(match, message.seat), count: message.marks.length });
    }
    this.store.emit({ type: "suggestion", seat: message.seat });
  }

  onMatchOver(match, message) {
    const store = this.store;
    M.applyOver(match, message);
    this.state.swap = null;
    const { teams, winner } = match.summary;
    if (teams) {
      // A 2v2: the team's total decides, not a seat's.
      store.setMessage("info", "match_over_teams", { winner, mine: M.teamOf(match, match.you) });
      this.rememberMatch();
      return store.emit({ type: "match_over" });
    }
    const top = match.summary.ranking.filter((entry) => entry.rank === 1).map((entry) => entry.seat);
    store.setMessage("info", "match_over", {
      won: top.includes(match.you),
      shared: top.length > 1,
      name: M.seatName(match, top[0] ?? 0),
    });
    this.rememberMatch();
    store.emit({ type: "match_over" });
  }

  // -- the player does --------------------------------------------------------

  /** A power that cannot be used now (its key pressed, say): why, when it is this seat's turn (false). */
  cannotUse(power) {
    const match = this.state.match;
    if (!this.store.canPlay || !match) return false;
    if (!M.isMyTurn(match)) return this.myTurn(); // (says whose turn it is)
    if (power === "extend" && !M.isTimed(match)) this.store.setMessage("info", "power_untimed");
    else this.store.setMessage("info", "power_cost", { power, cost: match.costs[power], gems: M.you(match)?.gems ?? 0 });
    this.store.emit({ type: "hint" });
    return false;
  }

  /** Not a match, or this seat's turn; else say so (false). */
  myTurn() {
    const store = this.store;
    const match = this.state.match;
    if (!match || M.isMyTurn(match)) return true;
    if (match.you === null) {
      // A room's spectator: the board is to watch (a seat can be taken between matches).
      store.setMessage("info", "watching");
      store.emit({ type: "hint" });
      return false;
    }
    store.setMessage("info", match.phase === M.MatchPhase.PLAYING ? "not_your_turn" : "wait_round", {
      name: M.seatName(match, match.turn),
    });
    store.emit({ type: "hint" });
    return false;
  }

  rememberMatch() {
    const store = this.store;
    const match = this.state.match;
    // A room's match is the room's: its seat token is kept per room, and a reload joins the room.
    if (!match || match.room !== null || !isMatchEntry(store.ref)) return false;
    return store.remember({
      ...store.ref,
      wordlist: match.wordlist,
      title: match.title,
      score: M.you(match)?.score ?? 0,
      round: match.round,
      rounds: match.rounds,
      over: match.phase === M.MatchPhase.OVER,
    });
  }

  /** The Match tab: an unfinished match of this browser, else the match settings. */
  showMatch() {
    const unfinished = this.state.games.find((entry) => isMatchEntry(entry) && !entry.over);
    if (unfinished && this.store.openGame(idOf(unfinished))) return true;
    return this.showSetup();
  }

  /** The match settings (a game on screen stays attached until a match starts). */
  showSetup() {
    this.state.mode = "match";
    this.state.setup = true;
    this.state.swap = null;
    this.store.emit({ type: "mode" });
    return true;
  }

  // The match settings: kept here, so the form shows them again and they can be checked.

  addBot() {
    const draft = this.state.draft;
    if (draft.bots.length >= P.MAX_BOTS) return false;
    draft.bots = [...draft.bots, draft.bots[draft.bots.length - 1] ?? "easy"];
    this.store.emit({ type: "draft" });
    return true;
  }

  removeBot(index) {
    const draft = this.state.draft;
    if (draft.bots.length <= 1 || !(index in draft.bots)) return false; // a match needs someone to play
    draft.bots = draft.bots.filter((_, i) => i !== index);
    this.store.emit({ type: "draft", removed: index });
    return true;
  }

  setBotLevel(index, level) {
    const draft = this.state.draft;
    if (!(index in draft.bots) || !P.LEVELS.includes(level)) return false;
    draft.bots = draft.bots.map((old, i) => (i === index ? level : old));
    this.store.emit({ type: "draft" });
    return true;
  }

  /** Rounds as typed: kept within 1-20 (anything else leaves the setting as it was). */
  setRounds(value) {
    const rounds = Math.round(Number(value));
    if (!Number.isFinite(rounds) || rounds < 1) return false;
    this.state.draft.rounds = Math.min(P.MAX_ROUNDS, rounds);
    this.store.emit({ type: "draft" });
    return true;
  }

  setTimed(timed) {
    this.state.draft.timed = Boolean(timed);
    this.store.emit({ type: "draft" });
    return true;
  }

  setClassic(classic) {
    this.state.draft.classic = Boolean(classic);
    this.store.emit({ type: "draft" });
    return true;
  }

  /** The word list the next match is played in (a list's name). */
  setWordlist(name) {
    if (!this.state.config.wordlists.some((list) => list.name === name)) return false;
    this.state.draft.wordlist = name;
    this.store.emit({ type: "draft" });
    return true;
  }

  /**
   * Start a match with the settings chosen (or these: `bots` levels, `rounds`, `timed`, `classic`,
   * `wordlist`: by default the list being played).
   */
  startMatch({ bots, rounds, timed, classic, wordlist = null } = this.state.draft) {
    const store = this.store;
    if (this.state.connection.state !== "open") return false;
    store.announce = "new";
    wordlist = wordlist ?? M.nextMatchWordlist(this.state);
    const values = classic ? "classic" : null; // null: the server's default, Spellcast's
    return store.send(P.newMatch({ bots, rounds, turnSeconds: timed ? P.TIMED_TURN_SECONDS : null, wordlist, values }));
  }

  /** Once a match is over: the same seats and settings on a new board (in a room, the host's). */
  rematch() {
    const store = this.store;
    if (this.state.room) return store.room.rematchRoom();
    const match = this.state.match;
    if (!store.canPlay || match?.phase !== M.MatchPhase.OVER) return false;
    store.announce = "new";
    return store.send(P.rematch());
  }

  /** Leave the match for the newest endless game of this browser (or a new one). */
  backToEndless() {
    const store = this.store;
    if (this.state.connection.state !== "open") return false;
    const game = this.state.games.find((entry) => !isMatchEntry(entry));
    if (game && store.canPlay && store.openGame(game.game_id)) return true;
    store.announce = "new";
    return store.send(P.newGame({ wordlist: this.state.match?.wordlist ?? this.state.config.default_wordlist }));
  }

  /** A 2v2: mark (or unmark) a tile for the teammate whose turn it is. */
  suggest(row, col) {
    if (!this.store.canPlay || !M.canSuggest(this.state.match)) return false;
    return this.store.send(P.suggest(row, col));
  }

  /** A 2v2: take back every mark this seat made this turn (Escape); false when it has none. */
  clearSuggestions() {
    const match = this.state.match;
    if (!this.store.canPlay || !M.canSuggest(match) || !match.marks.get(match.you)?.length) return false;
    return this.store.send(P.suggest());
  }

  pass() {
    if (!this.store.canPlay || !M.canPass(this.state.match)) {
      const match = this.state.match;
      return this.store.canPlay && match && !M.isMyTurn(match) ? this.myTurn() : false; // (says whose turn)
    }
    this.state.swap = null;
    return this.store.move(P.pass());
  }

  /** Shuffle, hint or extend (a swap needs a tile and a letter: `startSwap`). */
  usePower(power) {
    const store = this.store;
    if (power === "swap") return this.startSwap();
    if (!store.canPlay || !M.canUse(this.state.match, power)) return this.cannotUse(power);
    this.state.swap = null;
    if (!store.move({ shuffle: P.shuffle, hint: P.hint, extend: P.extend }[power]())) return false;
    // A shuffle drops the chain on the server; a drag still going on here ends with it.
    if (power === "shuffle" && this.state.mine) this.state.chain = [];
    store.emit({ type: "local" });
    return true;
  }

  /** Swap, step 1: the next tile pressed (or the tile given) is the one to change. Works mid-drag. */
  startSwap() {
    if (!this.store.canPlay || !M.canUse(this.state.match, "swap")) return this.cannotUse("swap");
    this.state.swap = { tile: null };
    // Said as well as shown: the focus stays on the board, so a screen reader hears nothing else.
    this.store.setMessage("info", "swap_pick", { cost: this.state.match.costs.swap });
    this.store.emit({ type: "swap" });
    return true;
  }

  /** Swap, step 2: this tile. */
  pickSwapTile(row, col) {
    if (!this.state.swap || !this.state.board[row]?.[col]) return false;
    this.state.swap = { tile: [row, col] };
    this.store.emit({ type: "swap" });
    return true;
  }

  /** Swap, step 3: the tile shows `letter` from now on (a chain over it spells the new letter). */
  swapTo(letter) {
    const tile = this.state.swap?.tile;
    if (!tile || !this.store.canPlay || !M.canUse(this.state.match, "swap")) return false;
    if (!this.store.move(P.swap(tile[0], tile[1], letter))) return false;
    this.state.swap = null;
    this.dropSwapMessage();
    this.store.emit({ type: "local" });
    return true;
  }

  /** The swap's instructions leave the line (and the live region's next word) once it is done. */
  dropSwapMessage() {
    if (this.state.message?.say === "swap_pick") this.state.message = null;
  }

  cancelSwap() {
    if (!this.state.swap) return false;
    this.state.swap = null;
    this.dropSwapMessage();
    this.store.emit({ type: "swap" });
    return true;
  }
}
