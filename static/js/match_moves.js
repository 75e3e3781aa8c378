// What the store does in a match (docs/protocol.md, "Matches"): the server's match
// messages, and the player's match intents (the settings, powers, pass, rematch, the
// mode switch). The Store's class chain: MatchMoves <- RoomMoves (room_moves.js) <- Store
// (store.js), so store.js holds the tab and the endless game, and this the match; every
// method here is the Store's by inheritance (`this` is the Store).
// A room's match is played through here too; its snapshot and the room's part are
// room_moves.js's. No DOM; the match's own state is match.js's.

import { EMPTY_CHAIN, tilesOf } from "./chain.js";
import * as M from "./match.js";
import * as P from "./protocol.js";
import { idOf, isMatchEntry } from "./saved.js";

export class MatchMoves {
  // -- the server says --------------------------------------------------------

  onMatch(message) {
    if (typeof message.room === "string") return this.onRoomMatch(message); // room_moves.js
    this.ref = { kind: "match", match_id: message.match_id, token: message.token };
    this.opening = null;
    this.start = null;
    const state = this.state;
    const previous = state.match;
    state.match = M.matchOf(message, this.now());
    state.mode = "match";
    state.setup = false;
    state.board = P.boardOf(message);
    state.wordsLeft = P.wordsLeftOf(message);
    this.snapshotChain(message);
    this.rememberMatch();
    const fresh = !previous || previous.id !== message.match_id;
    if (fresh && this.announce === "open") {
      this.setMessage("info", "match_back");
    } else if (fresh && this.announce) {
      this.setMessage("info", M.isMyTurn(state.match) ? "match_new_you_first" : "match_new", {
        name: M.seatName(state.match, state.match.turn),
      });
    }
    this.announce = null;
    this.emit({ type: "match", fresh });
  }

  /**
   * Another connection of this match asked for a rematch (another tab of ours, or another
   * player): the seats' tokens carry over, so this tab follows with its own.
   */
  onRematch(message) {
    const ref = this.ref;
    if (!isMatchEntry(ref) || typeof message.match_id !== "string" || !this.canPlay) return;
    this.opening = { kind: "match", match_id: message.match_id, token: ref.token };
    this.announce = "new";
    this.send(P.resumeMatch(message.match_id, ref.token));
  }

  onMatchMessage(message, reply) {
    const match = this.state.match;
    if (!match) return; // a late message for a match this tab has left
    const handler = {
      played: this.onPlayed,
      turn: this.onTurn,
      gems: this.onGems,
      presence: this.onPresence,
      hint: this.onHint,
      match_over: this.onMatchOver,
    }[message.type];
    handler.call(this, match, message, reply);
    this.followRoomMatch(); // in a room, its note of the match follows (room_moves.js)
  }

  onPlayed(match, message, reply) {
    const play = M.applyPlayed(match, message, this.state.board);
    // The word was played: no chain is left on the board (no empty `chain` follows).
    this.state.confirmed = EMPTY_CHAIN;
    this.settleChain(reply);
    // The word's tiles are replaced next (`board`); until then they cannot be played.
    this.state.refilling = tilesOf(play.path, this.state.board);
    const mine = play.seat === match.you;
    this.setMessage(mine ? "scored" : "info", "played", {
      mine,
      name: M.seatName(match, play.seat),
      word: play.word,
      points: play.points,
      gemsEarned: play.gemsEarned,
    });
    if (mine) this.rememberMatch();
    this.emit({ type: "played", seat: play.seat, mine });
  }

  onTurn(match, message) {
    const before = { phase: match.phase, turnNo: match.turnNo };
    const ended = M.applyTurn(match, message, this.now());
    const state = this.state;
    if (!M.isMyTurn(match)) state.swap = null;
    const next = { next: M.seatName(match, match.turn), yours: M.isMyTurn(match), round: match.round };
    if (match.phase === M.MatchPhase.BETWEEN) {
      this.setMessage("info", "round_over", next);
    } else if (match.phase === M.MatchPhase.PLAYING && match.passed) {
      const facts = { name: M.seatName(match, ended), mine: ended === match.you, how: match.passed.how };
      this.setMessage("info", "passed", { ...facts, ...next });
    } else if (match.phase === M.MatchPhase.PLAYING && before.phase === M.MatchPhase.BETWEEN) {
      this.setMessage("info", "round_start", next);
    } else if (M.isMyTurn(match) && match.turnNo !== before.turnNo) {
      this.setMessage("info", "your_turn");
    }
    this.rememberMatch();
    this.emit({ type: "turn", ended });
  }

  onGems(match, message) {
    M.applyGems(match, message);
    this.emit({ type: "gems", seat: message.seat });
  }

  onPresence(match, message) {
    M.applyPresence(match, message);
    this.emit({ type: "presence", seat: message.seat });
  }

  onHint(match, message) {
    M.applyHint(match, message);
    if (match.hint) this.setMessage("info", "hint", { word: match.hint.word, points: match.hint.points });
    else this.setMessage("miss", "no_hint");
    this.emit({ type: "hinted" });
  }

  onMatchOver(match, message) {
    M.applyOver(match, message);
    this.state.swap = null;
    const top = match.summary.ranking.filter((entry) => entry.rank === 1).map((entry) => entry.seat);
    this.setMessage("info", "match_over", {
      won: top.includes(match.you),
      shared: top.length > 1,
      name: M.seatName(match, top[0] ?? 0),
    });
    this.rememberMatch();
    this.emit({ type: "match_over" });
  }

  // -- the player does --------------------------------------------------------

  /** Not a match, or this seat's turn; else say so (false). */
  myTurn() {
    const match = this.state.match;
    if (!match || M.isMyTurn(match)) return true;
    if (match.you === null) {
      // A room's spectator: the board is to watch (a seat can be taken between matches).
      this.setMessage("info", "watching");
      this.emit({ type: "hint" });
      return false;
    }
    this.setMessage("info", match.phase === M.MatchPhase.PLAYING ? "not_your_turn" : "wait_round", {
      name: M.seatName(match, match.turn),
    });
    this.emit({ type: "hint" });
    return false;
  }

  rememberMatch() {
    const match = this.state.match;
    // A room's match is the room's: its seat token is kept per room, and a reload joins the room.
    if (!match || match.room !== null || !isMatchEntry(this.ref)) return false;
    return this.remember({
      ...this.ref,
      wordlist: match.wordlist,
      title: match.title,
      score: M.you(match)?.score ?? 0,
      round: match.round,
      rounds: match.rounds,
      over: match.phase === M.MatchPhase.OVER,
    });
  }

  /**
   * The page's mode switch. Endless goes back to the endless game (the match stays
   * saved, in "Your games"); Match goes back to an unfinished match of this browser,
   * else shows the match settings.
   */
  chooseMode(mode) {
    const state = this.state;
    if (mode === state.mode) return false;
    // On a room's page the other modes are the main page's (the seat stays held meanwhile).
    if (state.join.code) {
      this.emit({ type: "leave_page", to: { mode } });
      return true;
    }
    if (mode === "room") return this.showFriends(); // room_moves.js
    if (mode === "endless") {
      if (state.match) return this.backToEndless();
      state.mode = "endless";
      state.setup = false;
      this.emit({ type: "mode" });
      return true;
    }
    const unfinished = state.games.find((entry) => isMatchEntry(entry) && !entry.over);
    if (unfinished && this.openGame(idOf(unfinished))) return true;
    return this.showSetup();
  }

  /** The match settings (a game on screen stays attached until a match starts). */
  showSetup() {
    this.state.mode = "match";
    this.state.setup = true;
    this.state.swap = null;
    this.emit({ type: "mode" });
    return true;
  }

  // The match settings: kept here, so the form shows them again and they can be checked.

  addBot() {
    const draft = this.state.draft;
    if (draft.bots.length >= P.MAX_BOTS) return false;
    draft.bots = [...draft.bots, draft.bots[draft.bots.length - 1] ?? "easy"];
    this.emit({ type: "draft" });
    return true;
  }

  removeBot(index) {
    const draft = this.state.draft;
    if (draft.bots.length <= 1 || !(index in draft.bots)) return false; // a match needs someone to play
    draft.bots = draft.bots.filter((_, i) => i !== index);
    this.emit({ type: "draft", removed: index });
    return true;
  }

  setBotLevel(index, level) {
    const draft = this.state.draft;
    if (!(index in draft.bots) || !P.LEVELS.includes(level)) return false;
    draft.bots = draft.bots.map((old, i) => (i === index ? level : old));
    this.emit({ type: "draft" });
    return true;
  }

  /** Rounds as typed: kept within 1-20 (anything else leaves the setting as it was). */
  setRounds(value) {
    const rounds = Math.round(Number(value));
    if (!Number.isFinite(rounds) || rounds < 1) return false;
    this.state.draft.rounds = Math.min(P.MAX_ROUNDS, rounds);
    this.emit({ type: "draft" });
    return true;
  }

  setTimed(timed) {
    this.state.draft.timed = Boolean(timed);
    this.emit({ type: "draft" });
    return true;
  }

  /** Start a match with the settings chosen (or these: `bots` levels, `rounds`, `timed`). */
  startMatch({ bots, rounds, timed } = this.state.draft) {
    if (this.state.connection.state !== "open") return false;
    this.announce = "new";
    const wordlist = this.state.game?.wordlist ?? this.state.config.default_wordlist;
    return this.send(P.newMatch({ bots, rounds, turnSeconds: timed ? P.TIMED_TURN_SECONDS : null, wordlist }));
  }

  /** Once a match is over: the same seats and settings on a new board. */
  rematch() {
    if (this.state.room) return this.rematchRoom(); // the host's, for the whole room
    const match = this.state.match;
    if (!this.canPlay || match?.phase !== M.MatchPhase.OVER) return false;
    this.announce = "new";
    return this.send(P.rematch());
  }

  /** Leave the match for the newest endless game of this browser (or a new one). */
  backToEndless() {
    if (this.state.connection.state !== "open") return false;
    const game = this.state.games.find((entry) => !isMatchEntry(entry));
    if (game && this.canPlay && this.openGame(game.game_id)) return true;
    this.announce = "new";
    return this.send(P.newGame({ wordlist: this.state.match?.wordlist ?? this.state.config.default_wordlist }));
  }

  pass() {
    if (!this.canPlay || !M.canPass(this.state.match)) return false;
    this.state.swap = null;
    return this.move(P.pass());
  }

  /** Shuffle, hint or extend (a swap needs a tile and a letter: `startSwap`). */
  usePower(power) {
    if (power === "swap") return this.startSwap();
    if (!this.canPlay || !M.canUse(this.state.match, power)) return false;
    this.state.swap = null;
    if (!this.move({ shuffle: P.shuffle, hint: P.hint, extend: P.extend }[power]())) return false;
    // A shuffle drops the chain on the server; a drag still going on here ends with it.
    if (power === "shuffle" && this.state.mine) this.state.chain = [];
    this.emit({ type: "local" });
    return true;
  }

  /** Swap, step 1: the next tile pressed (or the tile given) is the one to change. Works mid-drag. */
  startSwap() {
    if (!this.canPlay || !M.canUse(this.state.match, "swap")) return false;
    this.state.swap = { tile: null };
    this.emit({ type: "swap" });
    return true;
  }

  /** Swap, step 2: this tile. */
  pickSwapTile(row, col) {
    if (!this.state.swap || !this.state.board[row]?.[col]) return false;
    this.state.swap = { tile: [row, col] };
    this.emit({ type: "swap" });
    return true;
  }

  /** Swap, step 3: the tile shows `letter` from now on (a chain over it spells the new letter). */
  swapTo(letter) {
    const tile = this.state.swap?.tile;
    if (!tile || !this.canPlay || !M.canUse(this.state.match, "swap")) return false;
    if (!this.move(P.swap(tile[0], tile[1], letter))) return false;
    this.state.swap = null;
    this.emit({ type: "local" });
    return true;
  }

  cancelSwap() {
    if (!this.state.swap) return false;
    this.state.swap = null;
    this.emit({ type: "swap" });
    return true;
  }
}
