// The only module that writes the page (its sentences are view/wording.js's). Everything
// from the server or the player goes in through textContent and attributes, never innerHTML.
//
// Its panels so far: view/board.js (tiles, marks, trail, focus; the replay page's too),
// view/clock.js (the turn clock), view/messages.js (the message line, the live region, the
// connection's banner). Still here: the endless game's panels; the match's (seats,
// powers, swap, hint, pause, end screen, settings); a room (the forms, seats, rules);
// and "Your games".

import * as M from "./match.js";
import * as R from "./room.js";
import { idOf, isMatchEntry } from "./saved.js";
import { currentChain, isRefilling, phaseOf } from "./store.js";
import { BoardPanel } from "./view/board.js";
import { ClockPanel } from "./view/clock.js";
import { MessagesPanel } from "./view/messages.js";
import {
  LEVEL_LABELS,
  POWER_NAMES,
  PRESENCE,
  SHORT_LABEL,
  START_BLOCKED,
  STATUS_LABEL,
  breakdownText,
  capital,
  fieldError,
  playedAgo,
  plural,
  pts,
  seatTag,
  turnsText,
  wordAndPoints,
  wordsLeftText,
} from "./view/wording.js";

export { breakdownText, messageText, playedAgo } from "./view/wording.js";

/** The match the page shows: the match mode's, or a room's once its match (or end screen) is up. */
function matchOnScreen(state, screen) {
  if (state.mode === "match") return state.match;
  return state.mode === "room" && (screen === "match" || screen === "over") ? state.match : null;
}

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

export class View {
  constructor(root, config, { now = () => performance.now() } = {}) {
    this.root = root;
    this.body = root.body;
    this.now = now;
    const $ = (selector) => root.querySelector(selector);
    this.el = {
      total: $('[data-testid="total-score"]'),
      wordsLeft: $('[data-testid="words-left"]'),
      endlessTally: $('[data-testid="endless-tally"]'),
      modes: [...root.querySelectorAll("[data-mode]")],
      board: $('[data-testid="board"]'),
      boardWrap: $(".board-wrap"),
      trail: $(".trail"),
      trailLine: $(".trail-line"),
      trailHead: $(".trail-head"),
      wordLine: $(".word-line"),
      wordOwner: $('[data-testid="word-owner"]'),
      wordHint: $(".word-hint"),
      word: $('[data-testid="current-word"]'),
      points: $('[data-testid="current-points"]'),
      status: $('[data-testid="chain-status"]'),
      paths: $('[data-testid="spell-paths"]'),
      refused: $('[data-testid="refused-letter"]'),
      picker: $('[data-testid="wordlist"]'),
      newGame: $('[data-action="new-game"]'),
      submit: $('[data-action="submit"]'),
      controls: $('[data-testid="endless-controls"]'),
      foundPanel: $('[data-testid="found-panel"]'),
      found: $('[data-testid="found-words"]'),
      foundCount: $('[data-testid="found-count"]'),
      foundEmpty: $(".found-empty"),
      games: $('[data-testid="your-games"]'),
      replayLink: $('[data-testid="replay-link"]'),
      // a match
      matchBar: $('[data-testid="match-bar"]'),
      round: $('[data-testid="round"]'),
      whoseTurn: $('[data-testid="whose-turn"]'),
      seats: $('[data-testid="seats"]'),
      powers: $('[data-testid="powers"]'),
      powerButtons: [...root.querySelectorAll("[data-power]")],
      pass: $('[data-action="pass"]'),
      swapPicker: $('[data-testid="swap-picker"]'),
      swapTitle: $(".swap-title"),
      swapLetters: $('[data-testid="swap-letters"]'),
      hint: $('[data-testid="hint"]'),
      pause: $('[data-testid="round-pause"]'),
      pauseTitle: $(".round-pause-title"),
      pauseScores: $(".round-pause-scores"),
      pauseNext: $(".round-pause-next"),
      playsPanel: $('[data-testid="plays-panel"]'),
      breakdown: $('[data-testid="breakdown"]'),
      plays: $('[data-testid="plays"]'),
      over: $('[data-testid="match-over"]'),
      overTitle: $(".over-title"),
      ranking: $('[data-testid="ranking"]'),
      turns: $('[data-testid="turns"]'),
      rematch: $('[data-action="rematch"]'),
      setup: $('[data-testid="match-setup"]'),
      botList: $('[data-testid="bot-list"]'),
      addBot: $('[data-action="add-bot"]'),
      rounds: $('[name="rounds"]'),
      timed: $('[name="timed"]'),
      startMatch: $('[data-action="start-match"]'),
      newMatch: $('[data-action="new-match"]'),
      endless: $('[data-action="endless"]'),
      gamesPanel: $('[data-testid="games-panel"]'),
      // a room
      roomBar: $('[data-testid="room-bar"]'),
      roomBarCode: $(".room-bar-code"),
      roomBarYou: $('[data-testid="room-bar-you"]'),
      roomEntry: $('[data-testid="room-entry"]'),
      roomEntryTitle: $("#room-entry-title"),
      roomEntryIntro: $('[data-testid="room-entry-intro"]'),
      nameForm: $('[data-testid="room-name-form"]'),
      nameField: $("#room-name"),
      nameError: $('[data-testid="name-error"]'),
      roomSubmit: $('[data-action="room-submit"]'),
      codeForm: $('[data-testid="room-code-form"]'),
      codeError: $('[data-testid="code-error"]'),
      roomGone: $('[data-testid="room-gone"]'),
      room: $('[data-testid="room"]'),
      roomTitle: $("#room-title"),
      roomCode: $('[data-testid="room-code"]'),
      roomYou: $('[data-testid="room-you"]'),
      roomLink: $('[data-testid="room-link"]'),
      roomSeats: $('[data-testid="room-seats"]'),
      spectators: $('[data-testid="spectators"]'),
      rulesForm: $('[data-testid="room-rules-form"]'),
      rulesSummary: $('[data-testid="room-rules"]'),
      roomRounds: $("#room-rounds"),
      roomTimed: $("#room-timed"),
      roomWordlist: $("#room-wordlist"),
      roomStandIn: $("#room-stand-in"),
      roomStart: $('[data-action="room-start"]'),
      leaveSeat: $('[data-action="leave-seat"]'),
      roomResults: $('[data-action="room-results"]'),
      roomWait: $('[data-testid="room-wait"]'),
      roomLobby: $('[data-action="room-lobby"]'),
      rematchWait: $('[data-testid="rematch-wait"]'),
    };
    this.wordlists = config.wordlists;
    this.defaultWordlist = config.default_wordlist;
    // The board: its tiles, the chain's trail and the keyboard focus (view/board.js).
    this.board = new BoardPanel(this.el.board, {
      trail: { svg: this.el.trail, line: this.el.trailLine, head: this.el.trailHead },
    });
    // The message line, the live region and the connection's banner (view/messages.js).
    this.messages = new MessagesPanel(root, (element, keyframes, ms) => this.animate(element, keyframes, ms));
    this.shownGame = null;
    this.shownFound = 0;
    this.shown = {}; // what the match panels last drew, to redraw only what changed
    this.clock = new ClockPanel(root, now); // the turn clock (view/clock.js)
    this.fillPicker(config.wordlists, config.default_wordlist);
    for (const { name, title } of config.wordlists) {
      const option = this.make("option", "", title);
      option.value = name;
      this.el.roomWordlist.append(option);
    }
    this.board.build(5);
  }

  fillPicker(lists, chosen) {
    for (const { name, title } of lists) {
      const option = this.root.createElement("option");
      option.value = name;
      option.textContent = title;
      this.el.picker.append(option);
    }
    this.el.picker.value = chosen;
  }

  make(tag, className, text) {
    const element = this.root.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined) element.textContent = text;
    return element;
  }

  /** How many tiles a side the board has (input.js measures it). */
  get size() {
    return this.board.size;
  }

  moveFocus(dRow, dCol) {
    this.board.moveFocus(dRow, dCol);
  }

  /** The board's tab stop takes the focus (after New game, Start match, Rematch). */
  focusBoard() {
    if (!this.boardShown()) return;
    this.board.focusTile(...this.board.focus);
  }

  /** The board is on screen to play on: the endless game, or a match being played. */
  boardShown() {
    const screen = this.body.dataset.screen;
    return !this.el.boardWrap.hidden && (screen === "endless" || screen === "match");
  }

  /** The power's (or Pass's) button is on screen and may be pressed now. */
  powerShown(name) {
    if (this.el.powers.hidden || !this.boardShown()) return false;
    const button = name === "pass" ? this.el.pass : this.el.powerButtons.find((b) => b.dataset.power === name);
    return Boolean(button && !button.disabled);
  }

  /** The picker goes back to the list being played (Escape after stepping through it). */
  showWordlist(name) {
    if (name) this.el.picker.value = name;
  }

  // -- rendering ---------------------------------------------------------------------

  /**
   * Which screen shows: the endless game, the match settings, a match, or a match's end;
   * in a room, the create or name form (`room-entry`), the room between matches
   * (`lobby`), or its match and end screen, the same as any match's.
   */
  screenOf(state) {
    if (state.mode === "room") return this.roomScreenOf(state);
    if (state.mode !== "match") return "endless";
    if (state.setup || !state.match) return "setup";
    return state.match.phase === M.MatchPhase.OVER ? "over" : "match";
  }

  roomScreenOf(state) {
    const { room, match } = state;
    if (!room) return "room-entry";
    const ours = match !== null && match.room === room.code && room.match?.id === match.id;
    if (ours && match.phase !== M.MatchPhase.OVER) return "match";
    return ours && !state.lobby ? "over" : "lobby";
  }

  render(state, event = {}, canPlay = false) {
    const screen = this.screenOf(state);
    const match = matchOnScreen(state, screen);
    const shown = match ?? state.game; // what the board belongs to
    if (shown && shown.size !== this.board.size) this.board.build(shown.size);
    if (state.room) this.body.dataset.ready = "true";
    if (shown) {
      this.body.dataset.ready = "true";
      // The words are in the list's language; the rest of the page stays English.
      for (const el of [this.el.board, this.el.word, this.el.found]) el.lang = shown.language || "en";
    }
    if (state.game) {
      this.el.board.dataset.gameId = state.game.id;
      this.el.board.dataset.wordlist = state.game.wordlist;
    }
    if (match) this.el.board.dataset.matchId = match.id;
    else delete this.el.board.dataset.matchId;
    this.body.dataset.mode = state.mode;
    this.body.dataset.screen = screen;
    const current = currentChain(state);
    this.body.dataset.phase = phaseOf(state);
    this.showScreen(screen, state);

    this.board.render({
      board: state.board,
      chain: current.chain,
      marks: Boolean(match),
      hint: match?.hint?.path ?? [],
      swapTile: state.swap?.tile ?? null,
      refilling: (r, c) => isRefilling(state, r, c),
    });
    // While a swap is being chosen, the board is where the tile is picked.
    this.el.board.dataset.swap = state.swap ? (state.swap.tile ? "letter" : "tile") : "";
    this.renderWordLine(state, current, match);
    this.renderFound(state, event);
    this.renderMatch(state, event, screen, canPlay);
    this.messages.render(state, current);
    this.renderGames(state, canPlay);
    this.renderRoom(state, event, screen);

    this.el.total.textContent = String(state.total);
    this.renderWordsLeft(state.wordsLeft);
    // A room's spectator watches the board (not dimmed), but cannot play on it.
    const watching = match !== null && match.you === null;
    this.el.board.setAttribute("aria-disabled", String(!canPlay || watching));
    this.el.board.classList.toggle("disabled", !canPlay);
    this.el.board.dataset.watching = String(watching);
    const open = state.connection.state === "open";
    this.el.newGame.disabled = !open;
    this.el.picker.disabled = !open;
    this.el.submit.disabled = !canPlay || !state.mine || current.chain.length === 0;
    // The picker shows the list being played; after a refused list, it goes back to it.
    const game = state.game;
    const refused = event.type === "error" && String(event.code).startsWith("game/");
    if (game && (event.type === "game" || refused || this.el.picker.value === "")) {
      this.el.picker.value = game.wordlist;
    }

    this.renderSpelling(state, event);
    if (event.type === "board") this.animateRefill(event.changed);
    if (event.type === "word" && event.result === "scored") this.pulse(this.el.total);
    this.shownGame = game?.id ?? null;
  }

  /** Show the parts of the page that belong to the screen, hide the rest. */
  showScreen(screen, state) {
    const el = this.el;
    const inMatch = screen === "match";
    const roomMatch = state.mode === "room" && state.room !== null && (inMatch || screen === "over");
    const watching = roomMatch && state.match?.you === null;
    const parts = [
      [el.roomEntry, screen === "room-entry"],
      [el.room, screen === "lobby"],
      [el.roomBar, roomMatch],
      // A room's page is the room's: "Your games" would take the tab out of it.
      [el.gamesPanel, !state.join.code],
      [el.endlessTally, screen === "endless"],
      [el.controls, screen === "endless"],
      [el.foundPanel, screen === "endless"],
      [el.matchBar, inMatch],
      [el.seats, inMatch],
      [el.powers, inMatch && !watching],
      [el.playsPanel, inMatch || screen === "over"],
      [el.wordLine, screen === "endless" || inMatch],
      [el.boardWrap, screen === "endless" || inMatch],
      [el.setup, screen === "setup"],
      [el.over, screen === "over"],
    ];
    for (const [element, visible] of parts) element.hidden = !visible;
    for (const button of el.modes) button.setAttribute("aria-pressed", String(button.dataset.mode === state.mode));
  }

  renderWordsLeft(count) {
    const el = this.el.wordsLeft;
    const text = wordsLeftText(count);
    if (el.textContent === text) return;
    el.textContent = text;
    el.dataset.count = count === null ? "" : String(count);
  }

  renderWordLine(state, current, match) {
    const status = current.alreadyFound ? "found" : current.status;
    this.el.board.dataset.status = status;
    this.el.wordLine.dataset.status = status;
    // A chain shorter than a word can be, that starts no word: what letting go will say.
    const minLength = (match ?? state.game)?.minLength ?? 3;
    const short = status === "none" && current.chain.length < minLength;
    // In a match, another seat's drag shows live, under its name.
    const other = match && current.chain.length > 0 && current.seat !== null && current.seat !== match.you;
    this.el.board.dataset.owner = other ? "other" : "";
    this.el.wordLine.dataset.owner = other ? "other" : "";
    this.el.wordOwner.textContent = other ? `${M.seatName(match, current.seat)}:` : "";
    this.el.word.textContent = current.word;
    // The server's points (store.js's currentChain says why they may be a step behind).
    // A chain that spells no word scores nothing: its letters' sum would read as points.
    const points = status === "none" ? null : current.points;
    this.el.points.textContent = points === null ? "" : pts(points);
    this.el.points.dataset.stale = String(current.stale);
    this.el.status.textContent = short ? SHORT_LABEL : STATUS_LABEL[status] ?? "";
    let hint = "Drag across touching letters, or type a word";
    if (match && !M.isMyTurn(match)) {
      hint = match.phase === M.MatchPhase.PLAYING ? `${M.seatName(match, match.turn)} is playing…` : "Between rounds";
    }
    if (this.el.wordHint.textContent !== hint) this.el.wordHint.textContent = hint;
  }

  /** Type to spell: how many paths spell what is typed, and a letter refused, shaken off. */
  renderSpelling(state, event) {
    const spelling = state.spelling;
    const count = spelling ? spelling.paths.length : 0;
    const text = count > 1 ? `${spelling.index + 1}/${count}` : "";
    if (this.el.paths.textContent !== text) this.el.paths.textContent = text;
    this.el.paths.title = count > 1 ? `Path ${spelling.index + 1} of ${count}: Tab for the next` : "";
    this.el.wordLine.dataset.spelling = String(spelling !== null);
    if (event.type === "refused") {
      // Seen, not only heard (the message says which letter): the line shakes and shows it struck.
      this.el.refused.textContent = event.letter;
      this.el.wordLine.dataset.refused = "true";
      const shake = reducedMotion()
        ? [{ opacity: 0.4 }, { opacity: 1 }]
        : [{ transform: "translateX(0)" }, { transform: "translateX(-6px)" }, { transform: "translateX(6px)" }, { transform: "translateX(0)" }];
      this.animate(this.el.wordLine, shake, 260);
    } else if (event.type === "local" || event.type === "word") {
      this.el.wordLine.dataset.refused = "false";
      this.el.refused.textContent = "";
    }
  }

  renderFound(state, event) {
    const list = this.el.found;
    const found = state.found;
    const sameGame = state.game && state.game.id === this.shownGame && event.type !== "game";
    if (!sameGame || found.length < this.shownFound) {
      list.replaceChildren(...found.map((entry) => this.foundItem(entry)).reverse());
    } else {
      for (const entry of found.slice(this.shownFound)) {
        const item = this.foundItem(entry);
        list.prepend(item);
        this.animate(item, [
          { opacity: 0, transform: "translateY(-6px)" },
          { opacity: 1, transform: "none" },
        ], 260);
      }
    }
    this.shownFound = found.length;
    this.el.foundCount.textContent = String(found.length);
    this.el.foundEmpty.hidden = found.length > 0;
  }

  foundItem({ word, points }) {
    const item = this.make("li");
    item.append(this.make("span", "found-word", word), this.make("span", "found-points", `+${points}`));
    return item;
  }

  // -- a match -----------------------------------------------------------------------

  renderMatch(state, event, screen, canPlay) {
    const match = matchOnScreen(state, screen);
    if (screen === "setup") this.renderSetup(state, event);
    if (!match) {
      this.clock.stop();
      this.el.swapPicker.hidden = true;
      this.el.hint.hidden = true;
      this.el.pause.hidden = true;
      return;
    }
    this.renderBar(match);
    this.renderSeats(match);
    this.renderPowers(state, match, canPlay);
    this.renderSwap(state, match, event);
    this.renderHint(match);
    this.renderPause(match);
    this.renderPlays(match);
    if (screen === "over") this.renderOver(match, event);
    this.clock.run(match);
  }

  renderBar(match) {
    this.el.round.textContent = `Round ${match.round} of ${match.rounds}`;
    let whose;
    if (match.phase === M.MatchPhase.BETWEEN) whose = "Between rounds";
    else if (match.phase === M.MatchPhase.OVER) whose = "Match over";
    else whose = M.isMyTurn(match) ? "Your turn" : `${M.seatName(match, match.turn)}'s turn`;
    this.el.whoseTurn.textContent = whose;
    this.el.matchBar.dataset.mine = String(M.isMyTurn(match));
  }

  renderSeats(match) {
    const key = JSON.stringify([match.seats, match.turn, match.phase, match.you]);
    if (this.shown.seats === key) return;
    this.shown.seats = key;
    const items = match.seats.map((seat, index) => {
      const item = this.make("li", "seat");
      item.dataset.seat = String(index);
      item.dataset.kind = seat.kind;
      const turn = match.phase === M.MatchPhase.PLAYING && match.turn === index;
      item.dataset.turn = String(turn);
      if (turn) item.setAttribute("aria-current", "true");
      item.dataset.you = String(index === match.you);
      item.dataset.connected = String(seat.connected);
      const name = this.make("span", "seat-name", seat.name);
      const tag = this.make("span", "seat-tag", seatTag(seat) || (index === match.you ? "you" : "player"));
      const score = this.make("span", "seat-score");
      score.append(this.make("span", "", String(seat.score)), this.make("span", "visually-hidden", seat.score === 1 ? " point" : " points"));
      const gems = this.make("span", "seat-gems");
      const shape = this.make("span", "gem-shape");
      shape.setAttribute("aria-hidden", "true");
      gems.append(shape, this.make("span", "", String(seat.gems)), this.make("span", "visually-hidden", ` gem${seat.gems === 1 ? "" : "s"}`));
      item.append(name, tag, score, gems);
      // Who is here (a room's players come and go): "away" once a stand-in bot plays for them.
      const presence = R.presenceOf(seat);
      item.dataset.presence = presence;
      if (presence === R.Presence.AWAY) item.append(this.make("span", "seat-away", "away · a stand-in plays"));
      else if (presence === R.Presence.OFFLINE) item.append(this.make("span", "seat-away", "offline"));
      if (turn) item.append(this.make("span", "visually-hidden", ", playing now"));
      return item;
    });
    this.el.seats.replaceChildren(...items);
  }

  renderPowers(state, match, canPlay) {
    const gems = M.you(match)?.gems ?? 0;
    const mine = M.isMyTurn(match);
    for (const button of this.el.powerButtons) {
      const power = button.dataset.power;
      const cost = match.costs[power];
      const costEl = button.querySelector(".cost");
      const costKey = String(cost);
      if (costEl.dataset.cost !== costKey) {
        costEl.dataset.cost = costKey;
        const shown = this.make("span", "", `◆${cost}`);
        shown.setAttribute("aria-hidden", "true");
        // The button's name is its content (its name, then the cost in words), so that it
        // holds the words shown on it, as speech input expects.
        costEl.replaceChildren(shown, this.make("span", "visually-hidden", `, ${plural(cost, "gem")}`));
      }
      const usable = canPlay && M.canUse(match, power);
      button.disabled = !usable;
      button.setAttribute("aria-pressed", String(power === "swap" && state.swap !== null));
      let why = "";
      if (!mine) why = "Not your turn";
      else if (power === "extend" && !M.isTimed(match)) why = "Turns are not timed in this match";
      else if (gems < cost) why = `Needs ${plural(cost, "gem")}; you have ${gems}`;
      button.title = why ? `${POWER_NAMES[power]}: ${why}` : `${POWER_NAMES[power]} (${plural(cost, "gem")})`;
    }
    this.el.pass.disabled = !(canPlay && M.canPass(match));
  }

  renderSwap(state, match, event) {
    const swap = state.swap;
    const picker = this.el.swapPicker;
    const wasOpen = !picker.hidden;
    picker.hidden = swap === null;
    if (swap === null) {
      // Back to the board after a swap chosen with the keyboard.
      if (wasOpen && picker.contains(this.root.activeElement)) this.board.focusTile(...this.board.focus);
      return;
    }
    const letters = match.letters.join("");
    if (this.shown.letters !== letters) {
      this.shown.letters = letters;
      this.el.swapLetters.replaceChildren(
        ...match.letters.map((letter) => {
          const button = this.make("button", "button swap-letter", letter);
          button.type = "button";
          button.dataset.letter = letter;
          return button;
        }),
      );
    }
    const tile = swap.tile ? state.board[swap.tile[0]]?.[swap.tile[1]] : null;
    this.el.swapTitle.textContent = tile
      ? `Change ${tile.letter} to:`
      : "Swap (3 gems): pick the tile to change, on the board.";
    this.el.swapLetters.lang = match.language;
    // The letters show once the tile is picked: until then the sheet stays small, clear of the board.
    this.el.swapLetters.hidden = !tile;
    for (const button of this.el.swapLetters.children) {
      button.disabled = !tile || button.dataset.letter === tile.letter;
    }
    if (event.type === "swap" && tile) {
      // The letters are next: the first one takes the focus (keyboard and screen readers).
      [...this.el.swapLetters.children].find((button) => !button.disabled)?.focus();
    } else if (event.type === "swap" && this.root.activeElement?.dataset?.power === "swap") {
      this.board.focusTile(...this.board.focus); // pick the tile with the arrows and Space
    }
  }

  renderHint(match) {
    const hint = match.hint;
    this.el.hint.hidden = !hint;
    if (hint) this.el.hint.textContent = `Hint: ${hint.word} · ${pts(hint.points)} — lit on the board`;
  }

  renderPause(match) {
    const between = match.phase === M.MatchPhase.BETWEEN;
    this.el.pause.hidden = !between;
    if (!between) return;
    this.el.pauseTitle.textContent = `Round ${match.round} of ${match.rounds} done`;
    const items = M.standings(match).map((seat) => {
      const item = this.make("li");
      item.append(this.make("span", "", seat.name), this.make("span", "pause-score", pts(seat.score)));
      return item;
    });
    this.el.pauseScores.replaceChildren(...items);
    this.clock.update(match);
  }

  renderPlays(match) {
    const plays = match.plays;
    const latest = plays[plays.length - 1];
    const key = `${plays.length}:${latest?.word ?? ""}:${match.you}`;
    if (this.shown.plays === key) return;
    this.shown.plays = key;
    const who = (play) => (play.seat === match.you ? "You" : M.seatName(match, play.seat));
    this.el.breakdown.textContent = latest
      ? `${who(latest)} played ${latest.word}: ${breakdownText(latest)} = ${pts(latest.points)}`
      : "No words yet. Each turn's word shows here, with how it scored.";
    const items = [...plays].reverse().map((play) => {
      const item = this.make("li");
      item.append(
        this.make("span", "play-who", `R${play.round} · ${who(play)}`),
        this.make("span", "play-word", play.word),
        this.make("span", "found-points", `+${play.points}`),
      );
      item.title = breakdownText(play);
      return item;
    });
    this.el.plays.replaceChildren(...items);
  }

  renderOver(match, event) {
    const summary = match.summary;
    const key = `${match.id}:${summary ? summary.turns.length : "-"}`;
    if (this.shown.over === key) return;
    this.shown.over = key;
    const standings = M.standings(match);
    const top = standings.filter((seat) => seat.rank === 1);
    const won = top.some((seat) => seat.index === match.you);
    this.el.overTitle.textContent = won
      ? top.length > 1 ? "A shared win!" : "You win!"
      : `${top[0]?.name ?? "Nobody"} wins`;
    this.el.ranking.replaceChildren(
      ...standings.map((seat) => {
        const item = this.make("li", "rank");
        item.dataset.rank = String(seat.rank);
        item.dataset.you = String(seat.index === match.you);
        const best = summary?.best.get(seat.index) ?? null;
        item.append(
          this.make("span", "rank-place", `#${seat.rank}`),
          this.make("span", "rank-name", seat.index === match.you && seat.name !== "You" ? `${seat.name} (you)` : seat.name),
          this.make("span", "rank-score", pts(seat.score)),
          this.make("span", "rank-best", best ? `Best word: ${wordAndPoints(best)}` : "No word played"),
        );
        return item;
      }),
    );
    const turns = summary?.turns ?? [];
    this.root.querySelector('[data-testid="match-replay-link"]').href = `/replay/${encodeURIComponent(match.id)}`;
    this.el.turns.replaceChildren(
      ...turns.map((turn) => {
        const item = this.make("li", "turn");
        item.dataset.ended = turn.ended;
        const name = turn.seat === match.you ? "You" : M.seatName(match, turn.seat);
        const played = turn.played
          ? wordAndPoints(turn.played)
          : turn.ended === "timed_out" ? "ran out of time" : "passed";
        const best = this.make("span", "turn-best", turn.best ? `Best on the board: ${wordAndPoints(turn.best)}` : "No word on the board");
        const same = turn.played && turn.best && turn.played.word === turn.best.word;
        item.dataset.best = String(Boolean(same));
        item.append(
          this.make("span", "turn-who", `Round ${turn.round} · ${name}`),
          this.make("span", "turn-played", capital(played)),
          best,
        );
        return item;
      }),
    );
    // The end of a match just played: the end screen's heading takes the focus, so
    // a keyboard or a screen reader starts there (a reload or a resume leaves it be).
    if (event.type === "match_over") this.el.overTitle.focus();
  }

  renderSetup(state, event) {
    const draft = state.draft;
    const key = draft.bots.join(",");
    if (this.shown.bots !== key) {
      this.shown.bots = key;
      this.el.botList.replaceChildren(
        ...draft.bots.map((level, index) => {
          const item = this.make("li", "bot-row");
          const id = `bot-level-${index}`;
          const label = this.make("label", "bot-label", `Bot ${index + 1}`);
          label.htmlFor = id;
          const select = this.make("select", "bot-level");
          select.id = id;
          select.dataset.botLevel = String(index);
          select.setAttribute("aria-describedby", "levels-help");
          for (const name of ["easy", "medium", "hard"]) {
            const option = this.make("option", "", capital(name));
            option.value = name;
            select.append(option);
          }
          select.value = level;
          const remove = this.make("button", "button small", "Remove");
          remove.type = "button";
          remove.dataset.removeBot = String(index);
          remove.setAttribute("aria-label", `Remove bot ${index + 1}`);
          remove.disabled = draft.bots.length <= 1;
          item.append(label, select, remove);
          return item;
        }),
      );
      if (event.type === "draft" && event.removed !== undefined) this.el.addBot.focus(); // the button pressed is gone
    } else {
      for (const select of this.el.botList.querySelectorAll("select")) {
        const level = draft.bots[Number(select.dataset.botLevel)];
        if (select.value !== level) select.value = level;
      }
    }
    this.el.addBot.disabled = draft.bots.length >= 5;
    // Not while typing in it: the field shows what is typed until it is left.
    if (this.root.activeElement !== this.el.rounds && this.el.rounds.value !== String(draft.rounds)) {
      this.el.rounds.value = String(draft.rounds);
    }
    this.el.timed.checked = draft.timed;
    this.el.startMatch.disabled = state.connection.state !== "open";
  }

  // -- a room ------------------------------------------------------------------------

  /** The parts of the page a room changes, on every screen; the forms and the lobby when shown. */
  renderRoom(state, event, screen) {
    const room = state.room;
    const inRoom = state.mode === "room";
    const host = room !== null && R.isHost(room);
    // The end screen: a room's rematch is the host's; the others wait for it.
    this.el.rematch.hidden = inRoom && !host;
    this.el.newMatch.hidden = inRoom;
    this.el.endless.hidden = inRoom;
    this.el.roomLobby.hidden = !inRoom;
    this.el.rematchWait.hidden = !inRoom || host;
    if (inRoom && room && !host) this.setText(this.el.rematchWait, this.waitingText(room, "a rematch"));
    if (screen === "room-entry") this.renderRoomEntry(state, event);
    if (!inRoom || !room) return;
    this.renderRoomBar(room);
    if (screen === "lobby") this.renderLobby(state, room, event);
  }

  setText(element, text) {
    if (element.textContent !== text) element.textContent = text;
  }

  waitingText(room, what) {
    const host = R.hostName(room);
    return host === null ? "Nobody hosts yet: the next person to sit down does." : `Waiting for ${host} to start ${what}…`;
  }

  /** The link friends open: this page's origin, /r/<code>. */
  roomLink(code) {
    return new URL(`/r/${encodeURIComponent(code)}`, this.root.location.href).href;
  }

  /** The link's text, selected: to copy by hand where the clipboard is not allowed. */
  selectRoomLink() {
    this.el.roomLink.focus({ preventScroll: true });
    this.el.roomLink.select();
  }

  /** "Play with friends" (make a room), or a room's link asking for a name; or no such room. */
  renderRoomEntry(state, event) {
    const { join } = state;
    const el = this.el;
    const creating = !join.code;
    const gone = join.step === "gone";
    const busy = join.step === "creating" || join.step === "joining" || join.step === "left";
    const asking = !gone && (creating || join.step === "name" || join.error !== null);
    this.setText(el.roomEntryTitle, creating ? "Play with friends" : `Room ${join.code}`);
    let intro = "";
    if (creating) {
      intro = "Make a room and send its link. Up to six players, friends or bots, take turns on one board; anyone else with the link watches.";
    } else if (join.step === "joining") {
      intro = "Joining the room…";
    } else if (!gone) {
      intro = "Friends are playing Wibble here. Give your name to watch, then take a free seat.";
    }
    this.setText(el.roomEntryIntro, intro);
    el.nameForm.hidden = !asking;
    el.codeForm.hidden = !creating;
    el.roomGone.hidden = !gone;
    this.setText(el.roomSubmit, creating ? (join.step === "creating" ? "Creating…" : "Create a room") : "Join room");
    el.roomSubmit.disabled = busy || state.connection.state !== "open";
    // The name this browser used last time, offered once; after that the field is the player's.
    if (this.shown.nameOffered !== true && join.name) {
      el.nameField.value = join.name;
      this.shown.nameOffered = true;
    }
    const error = join.error;
    const onCode = Boolean(error?.say === "bad_code");
    const nameText = error && !onCode ? fieldError(error) : "";
    const codeText = onCode ? fieldError(error) : "";
    el.nameError.hidden = nameText === "";
    this.setText(el.nameError, nameText);
    el.nameField.setAttribute("aria-invalid", String(nameText !== ""));
    el.codeError.hidden = codeText === "";
    this.setText(el.codeError, codeText);
    el.codeForm.elements.code.setAttribute("aria-invalid", String(codeText !== ""));
    // The field to fix takes the focus, and so does the name when the player asked for this form.
    if ((event.type === "join" || event.type === "error") && (nameText || codeText)) {
      (onCode ? el.codeForm.elements.code : el.nameField).focus();
      if (nameText) this.messages.announce(nameText);
    } else if (event.type === "mode" && asking) {
      el.nameField.focus();
    }
  }

  /** Above a room's match and its end screen: the room, and where this tab is in it. */
  renderRoomBar(room) {
    this.setText(this.el.roomBarCode, `Room ${room.code}`);
    const watchers = room.spectators > 0 ? ` · ${room.spectators} watching` : "";
    const you = room.you === null
      ? "· Watching: you can take a seat between matches"
      : `· Seat ${room.you + 1}${R.isHost(room) ? " · host" : ""}`;
    this.setText(this.el.roomBarYou, `${you}${watchers}`);
  }

  /** The room between matches: its link, its six seats, its rules, and starting. */
  renderLobby(state, room, event) {
    const el = this.el;
    const host = R.isHost(room);
    const open = state.connection.state === "open" && state.live;
    this.setText(el.roomCode, room.code);
    const link = this.roomLink(room.code);
    if (el.roomLink.value !== link) el.roomLink.value = link;
    let you;
    if (room.you === null) you = "You are watching. Take a free seat to play.";
    else if (host) you = `You are in seat ${room.you + 1}, and you host: the rules and the start are yours.`;
    else you = `You are in seat ${room.you + 1}.`;
    this.setText(el.roomYou, you);
    this.renderRoomSeats(room, open);
    this.setText(el.spectators, room.spectators === 0 ? "Nobody is watching." : `${room.spectators} watching`);
    this.renderRules(room, host);

    const check = R.startCheck(room);
    el.roomStart.hidden = !host;
    el.roomStart.disabled = !check.ok || !open;
    let wait;
    if (host) wait = check.ok ? "" : START_BLOCKED[check.why] ?? "";
    else wait = this.waitingText(room, "the match");
    this.setText(el.roomWait, wait);
    el.leaveSeat.hidden = !R.canLeaveSeat(room);
    el.leaveSeat.disabled = !open;
    const match = state.match;
    el.roomResults.hidden = !(match && match.room === room.code && match.phase === M.MatchPhase.OVER);
    // Just made: the room's heading takes the focus (its link is the next thing to use).
    if (event.type === "room" && event.created) el.roomTitle.focus();
  }

  renderRoomSeats(room, open) {
    const editing = R.canEdit(room) && open;
    const key = JSON.stringify([room.seats, room.host, room.you, editing, R.matchRunning(room), open]);
    if (this.shown.roomSeats === key) return;
    this.shown.roomSeats = key;
    // Rebuilding must not throw away keyboard focus on one of its controls.
    const focused = this.root.activeElement?.closest?.("[data-focus]")?.dataset.focus;
    const items = room.seats.map((seat, index) => this.roomSeat(room, seat, index, { editing, open }));
    this.el.roomSeats.replaceChildren(...items);
    if (focused) {
      const again = this.el.roomSeats.querySelector(`[data-focus="${focused}"]`);
      // A control that went away (a seat taken): the seat's first control, else the list's heading.
      (again ?? this.el.roomSeats.children[Number(focused.split("-")[1])]?.querySelector("button, select"))?.focus();
    }
  }

  roomSeat(room, seat, index, { editing, open }) {
    const item = this.make("li", "room-seat");
    item.dataset.seat = String(index);
    item.dataset.state = seat ? "taken" : "free";
    const number = this.make("span", "room-seat-no", `Seat ${index + 1}`);
    if (!seat) {
      item.append(number, this.make("span", "room-seat-name free", "Free seat"));
      const actions = this.make("span", "room-seat-actions");
      if (R.canTakeSeat(room, index)) actions.append(this.seatButton("Sit here", `, seat ${index + 1}`, { takeSeat: index }, open, `sit-${index}`));
      if (editing) actions.append(this.seatButton("Add a bot", ` in seat ${index + 1}`, { addBot: index }, open, `bot-${index}`));
      if (actions.childElementCount) item.append(actions);
      return item;
    }
    const presence = R.presenceOf(seat);
    item.dataset.kind = seat.kind;
    item.dataset.presence = presence;
    item.dataset.you = String(index === room.you);
    item.dataset.host = String(index === room.host);
    const dot = this.make("span", "presence-dot");
    dot.setAttribute("aria-hidden", "true");
    const name = this.make("span", "room-seat-name", seat.name); // text, never markup
    const tags = this.make("span", "room-seat-tags");
    if (index === room.host) {
      const crown = this.make("span", "host-badge", "Host");
      crown.title = "Host: sets the rules and starts";
      tags.append(crown);
    }
    if (index === room.you) tags.append(this.make("span", "you-badge", "you"));
    if (seat.kind === "bot") tags.append(this.make("span", "bot-badge", `Bot · ${seat.level}`));
    if (seat.speed !== 1) tags.append(this.make("span", "speed-badge", turnsText(seat.speed)));
    const status = this.make("span", "room-seat-status", seat.kind === "bot" ? "" : PRESENCE[presence]);
    item.append(number, dot, name, tags, status);
    if (!editing) return item;
    const actions = this.make("span", "room-seat-actions");
    if (seat.kind === "bot") {
      actions.append(this.seatSelect(`Level of ${seat.name}`, LEVEL_LABELS, seat.level, { seatLevel: index }, `level-${index}`));
    }
    const speeds = Object.fromEntries([1, 2, 3, 4].map((n) => [String(n), turnsText(n)]));
    actions.append(this.seatSelect(`Turns a round for ${seat.name}`, speeds, String(seat.speed), { seatSpeed: index }, `speed-${index}`));
    if (index !== room.you) actions.append(this.seatButton("Remove", ` ${seat.name}`, { removeSeat: index }, open, `remove-${index}`));
    item.append(actions);
    return item;
  }

  /** A seat's button: its visible words, and more for a screen reader (which seat, whom). */
  seatButton(text, more, data, enabled, focus) {
    const button = this.make("button", "button small", text);
    button.type = "button";
    button.append(this.make("span", "visually-hidden", more));
    for (const [key, value] of Object.entries(data)) button.dataset[key] = String(value);
    button.dataset.focus = focus;
    button.disabled = !enabled;
    return button;
  }

  seatSelect(label, options, value, data, focus) {
    const select = this.make("select", "seat-select");
    select.setAttribute("aria-label", label);
    for (const [optionValue, text] of Object.entries(options)) {
      const option = this.make("option", "", text);
      option.value = optionValue;
      select.append(option);
    }
    select.value = value;
    for (const [key, item] of Object.entries(data)) select.dataset[key] = String(item);
    select.dataset.focus = focus;
    return select;
  }

  /** The rules: a form for the host between matches, in words for everyone else. */
  renderRules(room, host) {
    const el = this.el;
    const rules = room.rules;
    const editing = host && R.canEdit(room);
    el.rulesForm.hidden = !editing;
    el.rulesSummary.hidden = editing;
    if (editing) {
      // Not while typing in it: the field shows what is typed until it is left.
      if (this.root.activeElement !== el.roomRounds && el.roomRounds.value !== String(rules.rounds)) {
        el.roomRounds.value = String(rules.rounds);
      }
      el.roomTimed.checked = rules.turnSeconds !== null;
      const wordlist = rules.wordlist ?? this.defaultWordlist; // null: the server's default list
      if (el.roomWordlist.value !== wordlist) el.roomWordlist.value = wordlist;
      if (el.roomStandIn.value !== rules.standIn) el.roomStandIn.value = rules.standIn;
      return;
    }
    const wordlist = rules.wordlist ?? this.defaultWordlist;
    const title = this.wordlists.find((list) => list.name === wordlist)?.title ?? wordlist;
    const lines = [
      plural(rules.rounds, "round"),
      rules.turnSeconds === null ? "No turn timer" : `${plural(rules.turnSeconds, "second")} a turn`,
      `Word list: ${title}`,
      `Stand-in for an away player: ${capital(rules.standIn)} bot`,
    ];
    const key = lines.join("|");
    if (this.shown.rules === key) return;
    this.shown.rules = key;
    el.rulesSummary.replaceChildren(...lines.map((line) => this.make("li", "", line)));
  }

  // -- messages, the connection, "Your games" --------------------------------------------

  /** "Your games": this browser's games and matches, newest first, the one on screen marked. */
  renderGames(state, canPlay) {
    const playing = state.mode === "match" && state.match ? state.match.id : state.game?.id ?? null;
    const open = canPlay; // something on screen and a connection: another can be opened
    // The store replaces the list whenever it changes, so this is cheap on every drag step.
    // A replay of nothing played would be one still board; a match's replay opens once it is over.
    const replayable = state.mode === "endless" && state.game && state.found.length > 0 ? state.game.id
      : state.mode === "match" && state.match?.summary ? state.match.id : null;
    const shown = this.shownGames;
    if (shown && shown.games === state.games && shown.playing === playing && shown.open === open
        && shown.replayable === replayable) return;
    this.shownGames = { games: state.games, playing, open, replayable };
    this.el.replayLink.hidden = replayable === null;
    if (replayable !== null) this.el.replayLink.href = `/replay/${encodeURIComponent(replayable)}`;
    // Rebuilding the buttons must not throw away keyboard focus on one of them.
    const focused = this.root.activeElement?.closest?.("[data-entry-id]")?.dataset.entryId;
    const items = state.games.map((entry) => {
      const id = idOf(entry);
      const item = this.make("li");
      const button = this.make("button", "game-entry");
      button.type = "button";
      button.dataset.entryId = id;
      if (isMatchEntry(entry)) button.dataset.matchId = id;
      else button.dataset.gameId = id;
      button.disabled = !open;
      if (id === playing) button.setAttribute("aria-current", "true");
      let title;
      let score;
      if (isMatchEntry(entry)) {
        title = `Match · ${entry.title || entry.wordlist || "?"}`;
        const progress = entry.over ? "over" : `round ${entry.round} of ${entry.rounds}`;
        score = `${entry.score} pts · ${progress}`;
      } else {
        title = entry.title || entry.wordlist || "Game";
        score = `${entry.total} pts · ${entry.words} word${entry.words === 1 ? "" : "s"}`;
      }
      // The one on screen is "playing", unless it is a match that has ended.
      const when = id === playing ? (isMatchEntry(entry) && entry.over ? "on screen" : "playing") : playedAgo(entry.played);
      button.append(this.make("span", "game-title", title), this.make("span", "game-score", score), this.make("span", "game-when", when));
      item.append(button);
      return item;
    });
    this.el.games.replaceChildren(...items);
    if (focused) items.find((item) => item.firstChild.dataset.entryId === focused)?.firstChild.focus();
  }

  // -- motion --------------------------------------------------------------------------

  animate(element, keyframes, duration, delay = 0) {
    if (reducedMotion() || !element.animate) return;
    element.animate(keyframes, { duration, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  }

  animateRefill(changed) {
    changed.forEach(([r, c], i) => {
      const tile = this.board.tiles[r]?.[c];
      if (!tile) return;
      this.animate(tile, [
        { opacity: 0, transform: "translateY(-35%) scale(0.7)" },
        { opacity: 1, transform: "translateY(4%) scale(1.03)", offset: 0.7 },
        { opacity: 1, transform: "none" },
      ], 340, Math.min(i, 12) * 45);
    });
  }

  pulse(element) {
    this.animate(element, [{ transform: "scale(1.25)" }, { transform: "none" }], 300);
  }
}
