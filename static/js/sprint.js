// A sprint: an endless game with a clock, and what its end shows (the words missed). Read
// from the server's `game` and `over` messages (docs/protocol.md, "Sprints"); no DOM.
// The clock counts down from the `remaining` the server last sent, on the tab's own
// monotonic clock, never from the wall clock (the two machines' clocks may differ).

/**
 * The sprint a `game` message describes, or null for an untimed game: its length, when it
 * ends on the tab's clock (`now()` in ms, when the message arrived), whether it is over, and
 * the words missed once it is.
 */
export function sprintOf(message, now) {
  if (typeof message.sprint !== "number") return null;
  const remaining = typeof message.remaining === "number" ? message.remaining : message.sprint;
  return {
    seconds: message.sprint,
    endsAt: now + remaining * 1000,
    over: message.phase === "over",
    early: message.early === true, // its player ended it before its clock ("I'm done")
    missed: missedOf(message),
  };
}

/** The same sprint, over, as an `over` message says. */
export const endedSprint = (sprint, message) => ({ ...sprint, over: true, early: message.early === true, missed: missedOf(message) });

/** The words missed: `[{word, points, path: [[row, col], …]}]`, best first. */
export function missedOf(message) {
  const missed = Array.isArray(message.missed) ? message.missed : [];
  return missed.map(({ word, points, path }) => ({ word, points, path: path.map(([r, c]) => [r, c]) }));
}

/** How long "I'm done" waits for its second press (a mis-tap must not end a try), in ms. */
export const DONE_CONFIRM_MS = 5000;

/** Whether "I'm done" was pressed once within DONE_CONFIRM_MS of `now` (ms): the next press ends the sprint. */
export const doneAsked = (state, now) => typeof state.doneAsked === "number" && now - state.doneAsked <= DONE_CONFIRM_MS;

/** Seconds left (0 once over or past its end); null for no sprint. */
export function secondsLeft(sprint, now) {
  if (!sprint) return null;
  if (sprint.over) return 0;
  return Math.max(0, (sprint.endsAt - now) / 1000);
}

/** "2:05": the clock as shown, rounded up (it reads 0:00 only once time is up). */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** The warning a clock passed between two looks, if any: of `marks` (seconds left) with
 * `after <= mark < before`, the nearest to the end (a tab asleep past two says the one now true).
 * A screen reader hears it; sighted players see the clock. */
export function markPassed(before, after, marks) {
  if (before === null || after === null || after >= before) return null;
  const passed = marks.filter((mark) => after <= mark && mark < before);
  return passed.length ? Math.min(...passed) : null;
}
