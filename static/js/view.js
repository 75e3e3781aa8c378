// The only module that writes the page, composed of panels (view/), each owning its elements
// and its render: board.js (the tiles; the replay page's too), word.js (the word line),
// endless.js, match.js (with clock.js), room.js, games.js ("Your games") and messages.js.
// The sentences are view/wording.js's. Everything from the server or the player goes in
// through textContent and attributes, never innerHTML. This file only picks the screen,
// marks the board's state and hands the state to each panel.

import * as M from "./match.js";
import { currentChain, isRefilling, phaseOf } from "./store.js";
import { watchingRace } from "./store/endless.js";
import { BoardPanel } from "./view/board.js";
import { EndlessPanel } from "./view/endless.js";
import { GamesPanel } from "./view/games.js";
import { MatchPanel, matchOnScreen } from "./view/match.js";
import { MessagesPanel } from "./view/messages.js";
import { animate, dropIn } from "./view/motion.js";
import { RacePanel } from "./view/race.js";
import { RoomPanel } from "./view/room.js";
import { SprintPanel } from "./view/sprint.js";
import { DailyPanel } from "./view/daily.js";
import { WordPanel, isOthers, statusOf } from "./view/word.js";
import { setAttr, setData, setHidden, setProp } from "./view/dom.js";

/**
 * Which screen shows: the endless game, the match settings, a match, or a match's end;
 * in a room, the create or name form (`room-entry`), the room between matches
 * (`lobby`), or its match and end screen, the same as any match's.
 */
export function screenOf(state) {
  if (state.mode === "room") return roomScreenOf(state);
  // /daily's page: the form (and the day's leaderboard) until the day's game is on, then that game.
  if (state.mode === "daily") return state.game?.daily ? "daily" : "daily-intro";
  if (state.mode !== "match") return "endless";
  if (state.setup || !state.match) return "setup";
  return state.match.phase === M.MatchPhase.OVER ? "over" : "match";
}

function roomScreenOf(state) {
  const { room, match, race } = state;
  if (!room) return "room-entry";
  if (room.race && race?.id === room.race.id) {
    if (race.phase !== "over") return "race";
    return state.lobby ? "lobby" : "race-over";
  }
  const ours = match !== null && match.room === room.code && room.match?.id === match.id;
  if (ours && match.phase !== M.MatchPhase.OVER) return "match";
  return ours && !state.lobby ? "over" : "lobby";
}

/** The screens whose board is played on. */
const PLAYED_SCREENS = new Set(["endless", "match", "daily", "race"]);
/** The screens that show a sprint's board (its end too). */
const SPRINT_SCREENS = new Set(["endless", "daily", "race"]);

/** A race's board that is someone else's: a spectator follows it, and cannot play on it. */
const followed = (state, screen) => screen === "race" && watchingRace(state);

export class View {
  constructor(root, config, { now = () => performance.now() } = {}) {
    const $ = (selector) => root.querySelector(selector);
    this.body = root.body;
    this.modes = [...root.querySelectorAll(".modes [data-mode]")]; // (the body has a data-mode too)
    this.boardWrap = $(".board-wrap");
    this.board = new BoardPanel($('[data-testid="board"]'), {
      trail: { svg: $(".trail"), line: $(".trail-line"), head: $(".trail-head") },
    });
    this.messages = new MessagesPanel(root, animate);
    this.word = new WordPanel(root);
    this.endless = new EndlessPanel(root, config);
    const announce = (text) => this.messages.announce(text);
    this.match = new MatchPanel(root, { board: this.board, now, config, announce });
    this.room = new RoomPanel(root, config, { announce: (text) => this.messages.announce(text), now });
    this.race = new RacePanel(root, now);
    this.games = new GamesPanel(root);
    this.sprint = new SprintPanel(root, now, announce);
    this.daily = new DailyPanel(root);
    this.board.build(5);
  }

  /** The board is on screen to play on: the endless game, a match being played, or a race. */
  boardShown() {
    const screen = this.body.dataset.screen;
    // (a race's board a watcher follows is shown, not played: its keys are not the board's)
    return !this.boardWrap.hidden && PLAYED_SCREENS.has(screen) && this.body.dataset.watching !== "true";
  }

  /** The board's tab stop takes the focus (after New game, Start match, Rematch). */
  focusBoard() {
    if (this.boardShown()) this.board.focusTile(...this.board.focus);
  }

  render(state, event = {}, canPlay = false) {
    const screen = screenOf(state);
    const match = matchOnScreen(state, screen);
    const shown = match ?? state.game; // what the board belongs to
    if (shown && shown.size !== this.board.size) this.board.build(shown.size);
    if (state.room || shown) setData(this.body, "ready", "true");
    // The words are in the list's language; the rest of the page stays English.
    const language = shown ? shown.language || "en" : null;
    setData(this.body, "mode", state.mode);
    setData(this.body, "screen", screen);
    setData(this.body, "watching", String(followed(state, screen)));
    setData(this.body, "phase", phaseOf(state));
    this.show(screen, state);

    const current = currentChain(state);
    // A sprint that is over keeps its final board on screen, to look at, not to play on.
    const playable = canPlay && !(SPRINT_SCREENS.has(screen) && state.game?.sprint?.over) && !followed(state, screen);
    this.renderBoard(state, event, { match, current, canPlay: playable, language, screen });
    this.word.render(state, event, { current, match, canPlay: playable, language });
    this.sprint.render(state, event, { screen });
    this.daily.render(state, event, { screen });
    this.endless.render(state, event, { language });
    this.match.render(state, event, { screen, canPlay });
    this.messages.render(state, current);
    this.games.render(state, { open: canPlay });
    this.room.render(state, event, { screen });
    this.race.render(state, event, { screen });
  }

  /** Show the parts of the page that belong to the screen, hide the rest. */
  show(screen, state) {
    // A race's board: the runner's own, or the one a spectator follows (none until they pick one).
    const raceBoard = screen === "race" && state.game?.race?.race_id === state.race?.id;
    setHidden(this.boardWrap, !(screen === "endless" || screen === "match" || screen === "daily" || raceBoard));
    const panels = [this.word, this.endless, this.match, this.room, this.games, this.sprint, this.daily, this.race];
    for (const panel of panels) panel.show(screen, state);
    for (const button of this.modes) setAttr(button, "aria-pressed", String(button.dataset.mode === state.mode));
  }

  /** The tiles, and on the board's element what it shows: whose game, the chain's state, who may play. */
  renderBoard(state, event, { match, current, canPlay, language, screen }) {
    const element = this.board.element;
    this.board.render({
      board: state.board,
      chain: current.chain,
      marks: Boolean(match),
      hint: match?.hint?.path ?? (match ? [] : state.shownPath?.path ?? []),
      suggested: M.markedTiles(match),
      swapTile: state.swap?.tile ?? null,
      refilling: (r, c) => isRefilling(state, r, c),
    });
    if (language) setProp(element, "lang", language);
    if (state.game) {
      setData(element, "gameId", state.game.id);
      setData(element, "wordlist", state.game.wordlist);
    }
    setData(element, "matchId", match ? match.id : undefined);
    // While a swap is being chosen, the board is where the tile is picked.
    setData(element, "swap", state.swap ? (state.swap.tile ? "letter" : "tile") : "");
    setData(element, "status", statusOf(current));
    setData(element, "owner", isOthers(current, match) ? "other" : "");
    // A room's spectator watches the board (not dimmed), but cannot play on it.
    const watching = (match !== null && match.you === null) || followed(state, screen);
    setAttr(element, "aria-disabled", String(!canPlay || watching));
    element.classList.toggle("disabled", !canPlay);
    setData(element, "watching", String(watching));
    if (event.type === "board") dropIn(this.board.tiles, event.changed); // the new letters drop in
  }
}
