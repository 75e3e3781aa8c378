// A sprint's panels: its clock in the header while it runs, and its end under the board (the
// result, and the best words missed, each a button that lights its path on the final board).
// Owns those elements only; counts down from the sprint's `endsAt` on the tab's clock.

import { clockText, doneAsked, markPassed, secondsLeft } from "../sprint.js";
import { definable } from "./definition.js";
import { make, setText, setHidden } from "./dom.js";
import { plural, sprintOverText, sprintResultText } from "./wording.js";

const TICK_MS = 250;
const LOW_SECONDS = 10;
const SPRINT_WARNINGS = [60, 30, 10]; // seconds left, said to a screen reader (the clock is silent)

/** The sprint clock a race's screen shows: its board's (the runner's own, or one followed). */
function raceClock(screen, state) {
  if (screen !== "race") return null;
  const sprint = state.game?.race?.race_id === state.race?.id ? state.game?.sprint : null;
  return sprint && !sprint.over ? sprint : null;
}

/**
 * A best word missed, as an item of its list: a button that lights its path (and shows its
 * definition), its word and points; `data` goes on the button (which list, which word).
 */
export function missedItem(document, { word, points, path }, data) {
  const item = make(document, "li");
  const button = make(document, "button", "button small missed-word");
  button.type = "button";
  Object.assign(button.dataset, data, { word });
  definable(button, word); // lighting its path shows what it means too
  button.setAttribute("aria-pressed", "false");
  button.setAttribute("aria-label", `${word}, ${plural(points, "point")}, ${plural(path.length, "tile")}: light its path`);
  button.append(make(document, "span", "missed-text", word), make(document, "span", "found-points", `+${points}`));
  item.append(button);
  return item;
}

export class SprintPanel {
  /** @param {Document} root the page; `now` the tab's monotonic clock in ms; `announce(text)` says a
   * text in the live region */
  constructor(root, now, announce = () => {}) {
    const $ = (selector) => root.querySelector(selector);
    this.document = root;
    this.now = now;
    this.announce = announce;
    this.heardLeft = null; // the seconds left at the last look, for the warnings a screen reader hears
    this.clock = $('[data-testid="sprint-clock"]');
    this.done = $('[data-action="done"]'); // "I'm done": asks once, then ends the sprint
    this.asked = null; // when it was pressed once (the tab's clock), while it waits for the second
    this.over = $('[data-testid="sprint-over"]');
    this.title = $("#sprint-over-title");
    this.result = $('[data-testid="sprint-result"]');
    this.missed = $('[data-testid="missed-words"]');
    this.none = $('[data-testid="missed-none"]');
    this.choice = $('[data-testid="sprint-choice"]');
    this.sprint = null; // the sprint whose clock is running
    this.ticking = null;
    this.shownFor = null; // the game whose end is drawn
  }

  /** The clock chosen for the next new game: seconds, or null (untimed). */
  chosen() {
    const seconds = Number(this.choice.value);
    return seconds > 0 ? seconds : null;
  }

  show(screen, state) {
    const sprint = screen === "endless" || screen === "daily" ? state.game?.sprint ?? null : null;
    setHidden(this.over, !sprint?.over);
    if ((!sprint || sprint.over) && !raceClock(screen, state)) this.stop();
  }

  render(state, event, { screen }) {
    // A race's clock is its runners' sprint clock; its end is the race's own screen, and it is
    // never ended early ("I'm done" is a sprint's alone).
    const race = raceClock(screen, state);
    if (race) {
      this.run(race, { done: false });
      return;
    }
    const sprint = screen === "endless" || screen === "daily" ? state.game?.sprint ?? null : null;
    if (sprint && !sprint.over) this.run(sprint);
    this.asked = sprint && !sprint.over && doneAsked(state, this.now()) ? state.doneAsked : null;
    this.updateDone();
    if (!sprint?.over) {
      this.shownFor = null;
      return;
    }
    const id = state.game.id;
    if (this.shownFor !== id) {
      this.shownFor = id;
      setText(this.title, sprintOverText(state.total, sprint.early));
      setText(this.result, sprintResultText({ total: state.total, words: state.found.length }));
      this.missed.replaceChildren(...sprint.missed.map((entry, index) => this.missedItem(entry, index)));
      setHidden(this.none, sprint.missed.length > 0);
      // The end took the board away from under the player: the focus goes to what replaced it.
      if (event.type === "over") this.title.focus({ preventScroll: true });
    }
    const lit = state.shownPath?.word ?? null;
    for (const button of this.missed.querySelectorAll("button")) {
      button.setAttribute("aria-pressed", String(button.dataset.word === lit));
    }
  }

  missedItem(entry, index) {
    return missedItem(this.document, entry, { missed: index });
  }

  run(sprint, { done = true } = {}) {
    if (sprint !== this.sprint) this.heardLeft = null; // another clock: its warnings start afresh
    this.sprint = sprint;
    this.offersDone = done;
    this.update();
    if (this.ticking === null) this.ticking = setInterval(() => this.update(), TICK_MS);
  }

  stop() {
    clearInterval(this.ticking);
    this.ticking = null;
    this.sprint = null;
    this.asked = null;
    setHidden(this.clock, true);
    this.updateDone();
  }

  /** "I'm done" while a sprint runs; "End now" for a while after one press (then back). */
  updateDone() {
    if (this.asked !== null && !doneAsked({ doneAsked: this.asked }, this.now())) this.asked = null;
    setHidden(this.done, this.sprint === null || this.offersDone === false);
    const text = this.asked === null ? "I'm done" : "End now";
    if (this.done.textContent !== text) this.done.textContent = text;
    this.done.dataset.asked = String(this.asked !== null);
  }

  update() {
    this.updateDone();
    const left = secondsLeft(this.sprint, this.now());
    setHidden(this.clock, left === null);
    const mark = left > 0 ? markPassed(this.heardLeft, left, SPRINT_WARNINGS) : null; // (not once it is up)
    this.heardLeft = left;
    if (mark !== null) this.announce(mark >= 60 ? `${plural(mark / 60, "minute")} left.` : `${plural(mark, "second")} left.`);
    if (left === null) return;
    const text = clockText(left);
    if (this.clock.textContent !== text) {
      this.clock.textContent = text;
      this.clock.setAttribute("aria-label", `${plural(Math.ceil(left), "second")} left`);
      this.clock.dataset.low = String(left <= LOW_SECONDS);
    }
  }
}
