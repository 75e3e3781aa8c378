// The word line above the board: the word being spelt (and whose, in a match), its points
// and status, the hint while nothing is spelt, which of the typed word's paths is lit, a
// letter refused, and Submit. Shared by the endless game and a match. Owns those elements.

import * as M from "../match.js";
import { runnerName } from "../race.js";
import { watchingRace } from "../store/endless.js";
import { animate, reducedMotion } from "./motion.js";
import { setData, setHidden, setProp, setText } from "./dom.js";
import { SHORT_LABEL, STATUS_LABEL, pts } from "./wording.js";

/** What the line (and the board) shows of the chain: its status, a word already found apart. */
export const statusOf = (current) => (current.alreadyFound ? "found" : current.status);

/** In a match, another seat's drag, shown live under its name. */
export const isOthers = (current, match) =>
  Boolean(match) && current.chain.length > 0 && current.seat !== null && current.seat !== match.you;

export class WordPanel {
  /** @param {Document} root the page */
  constructor(root) {
    const $ = (selector) => root.querySelector(selector);
    this.line = $(".word-line");
    this.owner = $('[data-testid="word-owner"]');
    this.hint = $(".word-hint");
    this.word = $('[data-testid="current-word"]');
    this.points = $('[data-testid="current-points"]');
    this.status = $('[data-testid="chain-status"]');
    this.paths = $('[data-testid="spell-paths"]');
    this.refused = $('[data-testid="refused-letter"]');
    this.submit = $('[data-action="submit"]');
  }

  /** Shown with the board: the endless game and a match being played. */
  show(screen, state) {
    const over = state.game?.sprint?.over === true && screen !== "match"; // a sprint's final board is not played on
    const race = screen === "race" && Boolean(state.game?.race);
    setHidden(this.line, over || !(screen === "endless" || screen === "match" || screen === "daily" || race));
  }

  /** `current` is store/reconcile.js's currentChain; `match` the match on screen, or null. */
  render(state, event, { current, match, canPlay, language }) {
    const status = statusOf(current);
    setData(this.line, "status", status);
    if (language) setProp(this.word, "lang", language);
    // A chain shorter than a word can be, that starts no word: what letting go will say.
    const minLength = (match ?? state.game)?.minLength ?? 3;
    const short = status === "none" && current.chain.length < minLength;
    const other = isOthers(current, match);
    setData(this.line, "owner", other ? "other" : "");
    setText(this.owner, other ? `${M.seatName(match, current.seat)}:` : "");
    setText(this.word, current.word);
    // The server's points (store/reconcile.js's currentChain says why they may be a step behind).
    // A chain that spells no word scores nothing: its letters' sum would read as points.
    const points = status === "none" ? null : current.points;
    setText(this.points, points === null ? "" : pts(points));
    setData(this.points, "stale", String(current.stale));
    setText(this.status, short ? SHORT_LABEL : STATUS_LABEL[status] ?? "");
    let hint = "Drag across touching letters, or type a word";
    if (match && !M.isMyTurn(match)) {
      hint = match.phase === M.MatchPhase.PLAYING ? `${M.seatName(match, match.turn)} is playing…` : "Between rounds";
    } else if (watchingRace(state)) {
      hint = `${runnerName(state.race, state.game.race.seat)}'s board: you are watching`;
    }
    setText(this.hint, hint);
    setProp(this.submit, "disabled", !canPlay || !state.mine || current.chain.length === 0);
    this.renderSpelling(state, event);
  }

  /** Type to spell: how many paths spell what is typed, and the letters refused, struck out. */
  renderSpelling(state, event) {
    const spelling = state.spelling;
    const count = spelling ? spelling.paths.length : 0;
    setText(this.paths, count > 1 ? `${spelling.index + 1}/${count}` : "");
    setProp(this.paths, "title", count > 1 ? `Path ${spelling.index + 1} of ${count}: Tab for the next` : "");
    setData(this.line, "spelling", String(spelling !== null));
    // Drawn from the state (typing over, a turn ended: gone with it), seen and not only heard.
    const extra = spelling?.extra ?? "";
    setText(this.refused, extra);
    setData(this.line, "refused", String(extra !== ""));
    if (event.type === "refused") {
      const shake = reducedMotion()
        ? [{ opacity: 0.4 }, { opacity: 1 }]
        : [{ transform: "translateX(0)" }, { transform: "translateX(-6px)" }, { transform: "translateX(6px)" }, { transform: "translateX(0)" }];
      animate(this.line, shake, 260);
    }
  }
}
