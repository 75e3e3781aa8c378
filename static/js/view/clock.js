// The turn clock: the ring and its seconds on a timed turn, and between rounds the line
// counting down to the next one. Counts from what was `remaining` when the server last
// said (match.js's secondsLeft), never from the wall clock. Owns those elements only.

import * as M from "../match.js";
import { markPassed } from "../sprint.js";
import { plural } from "./wording.js";
import { setHidden } from "./dom.js";

const TICK_MS = 200;
const TURN_WARNINGS = [10]; // seconds left of one's own turn, said to a screen reader

export class ClockPanel {
  /** @param {Document} root the page; `now` the tab's monotonic clock in ms; `announce(text)` says a
   * text in the live region (view/messages.js) */
  constructor(root, now, announce = () => {}) {
    const $ = (selector) => root.querySelector(selector);
    this.timer = $('[data-testid="timer"]');
    this.ring = $(".timer-left");
    this.text = $(".timer-text");
    this.next = $(".round-pause-next");
    this.now = now;
    this.announce = announce;
    this.ticking = null;
    this.match = null;
    this.heard = { turnNo: null, left: null }; // the turn last looked at, and its seconds left then
  }

  /** Show `match`'s clock and keep it going (or hide it: an untimed match). */
  run(match) {
    if (!match.clock) {
      this.stop();
      return;
    }
    this.update(match);
    if (this.ticking === null) this.ticking = setInterval(() => this.update(this.match), TICK_MS);
    this.match = match;
  }

  stop() {
    clearInterval(this.ticking);
    this.ticking = null;
    this.match = null;
    setHidden(this.timer, true);
  }

  update(match) {
    if (!match) return;
    const left = M.secondsLeft(match, this.now());
    const playing = match.phase === M.MatchPhase.PLAYING;
    setHidden(this.timer, left === null || !playing);
    if (left === null) return;
    const seconds = Math.ceil(left);
    if (playing) {
      const fraction = Math.min(1, left / M.clockSpan(match));
      this.ring.style.strokeDashoffset = String(100 - 100 * fraction);
      const text = String(seconds);
      if (this.text.textContent !== text) {
        this.text.textContent = text;
        this.timer.setAttribute("aria-label", `${plural(seconds, "second")} left`);
        this.timer.dataset.low = String(seconds <= 5);
      }
      // The clock itself is silent (a timer announcing every second would drown the game): the
      // player whose turn it is hears once that it is running out.
      const before = this.heard.turnNo === match.turnNo ? this.heard.left : null;
      this.heard = { turnNo: match.turnNo, left };
      const mark = M.isMyTurn(match) && left > 0 ? markPassed(before, left, TURN_WARNINGS) : null;
      if (mark !== null) this.announce(`${plural(mark, "second")} left in your turn.`);
    } else if (match.phase === M.MatchPhase.BETWEEN) {
      const next = `Round ${match.round + 1} starts in ${Math.max(1, seconds)}…`;
      if (this.next.textContent !== next) this.next.textContent = next;
    }
  }
}
