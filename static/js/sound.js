// What the player hears and feels: a few notes made in the page with Web Audio (no files) and a
// short vibration on a phone, for a scored word, a refused one, your turn, and the last seconds
// of a timed turn or a sprint. Which cue an event calls for is decided here, purely (cueOf,
// tickOf, sprintTickOf); Feedback plays it as the settings allow. No DOM.

import * as M from "./match.js";
import * as P from "./protocol.js";
import * as S from "./sprint.js";

export const Cue = Object.freeze({ SCORED: "scored", REFUSED: "refused", TURN: "turn", TICK: "tick" });

/** Each cue's notes (Hz, start and length in seconds), its wave and loudness, and its vibration (ms). */
export const CUES = Object.freeze({
  // a rising major arpeggio, C5 E5 G5
  scored: { wave: "triangle", gain: 0.2, vibrate: [30], notes: [[523.25, 0, 0.09], [659.25, 0.08, 0.09], [783.99, 0.16, 0.18]] },
  // two low falling notes, soft: a miss should not sting
  refused: { wave: "square", gain: 0.05, vibrate: [60, 50, 60], notes: [[196, 0, 0.11], [146.83, 0.1, 0.2]] },
  // G4 then C5: "over to you"
  turn: { wave: "sine", gain: 0.25, vibrate: [40, 60, 40], notes: [[392, 0, 0.12], [523.25, 0.13, 0.22]] },
  // one short high tick a second
  tick: { wave: "sine", gain: 0.15, vibrate: [15], notes: [[1046.5, 0, 0.05]] },
});

/** The seconds of a timed turn that tick. */
export const LAST_SECONDS = 5;

/** The cue a store event calls for (store.js's events), or null. */
export function cueOf(state, event) {
  const match = state.match ?? null;
  switch (event.type) {
    case "word": {
      // In a match a scored word comes as `played`; a refused one as `word`, to every seat.
      if (match) return event.seat === null || event.seat === match.you ? Cue.REFUSED : null;
      return event.result === P.Result.SCORED ? Cue.SCORED : Cue.REFUSED;
    }
    case "played":
      return event.mine ? Cue.SCORED : null;
    case "turn":
    case "match": // a match that starts (or is opened again) on the player's turn
      return M.isMyTurn(match) ? Cue.TURN : null;
    default:
      return null;
  }
}

/** The second to tick now in a sprint's last seconds (LAST_SECONDS … 1), or null. */
export function sprintTickOf(sprint, now) {
  const left = S.secondsLeft(sprint ?? null, now);
  if (left === null || left <= 0) return null;
  const second = Math.ceil(left);
  return second <= LAST_SECONDS ? second : null;
}

/** The second to tick now on the player's own timed turn (LAST_SECONDS … 1), or null. */
export function tickOf(match, now) {
  if (!M.isMyTurn(match ?? null)) return null;
  const left = M.secondsLeft(match, now);
  if (left === null || left <= 0) return null;
  const second = Math.ceil(left);
  return second <= LAST_SECONDS ? second : null;
}

/**
 * Plays the cues the settings allow. `audio()` makes the AudioContext, only once a cue is to be
 * heard (browsers start one made before any gesture suspended: `unlock` makes it during one);
 * `vibrate(pattern)` is navigator.vibrate where there is one.
 */
export class Feedback {
  constructor({ settings, audio = null, vibrate = null }) {
    this.settings = settings;
    this.makeAudio = audio;
    this.vibrateWith = vibrate;
    this.context = null;
    this.heardTurn = null; // the turn whose cue was played, so a repeated `turn` message is quiet
    this.heardTick = null;
  }

  /** A store event: its cue, if it calls for one. */
  onEvent(state, event) {
    const cue = cueOf(state, event);
    if (cue === Cue.TURN) {
      const turn = `${state.match.id}:${state.match.turnNo}`;
      if (turn === this.heardTurn) return null;
      this.heardTurn = turn;
    }
    return cue ? this.play(cue) : null;
  }

  /** The clock moved on (called a few times a second): a tick at each of the last seconds. */
  onClock(state, now) {
    const match = state.match ?? null;
    const sprint = state.game?.sprint ?? null;
    const onMatch = state.mode !== "endless" && state.mode !== "daily";
    const second = onMatch ? tickOf(match, now) : sprintTickOf(sprint, now);
    if (second === null) return null;
    const tick = onMatch ? `${match.id}:${match.turnNo}:${second}` : `${state.game.id}:${second}`;
    if (tick === this.heardTick) return null;
    this.heardTick = tick;
    return this.play(Cue.TICK);
  }

  /** Play `cue` as the settings allow; returns what was done, e.g. ["sound", "vibration"]. */
  play(cue) {
    const spec = CUES[cue];
    const done = [];
    if (this.settings.sound && this.tone(spec)) done.push("sound");
    if (this.settings.vibration && this.vibrateWith) {
      try {
        if (this.vibrateWith(spec.vibrate)) done.push("vibration");
      } catch {
        // a browser that refuses (no gesture yet): no vibration, nothing else changes
      }
    }
    return done;
  }

  /** Called in the gesture that turned sound on: make (or wake) the audio, and say so with a note. */
  unlock() {
    if (this.audio()) this.tone(CUES.turn);
  }

  audio() {
    if (this.context === null && this.makeAudio) {
      try {
        this.context = this.makeAudio();
      } catch {
        this.makeAudio = null; // no Web Audio here: the page stays silent
      }
    }
    if (this.context?.state === "suspended") this.context.resume().catch(() => {});
    return this.context;
  }

  tone({ wave, gain, notes }) {
    const context = this.audio();
    if (!context) return false;
    const start = context.currentTime + 0.01;
    for (const [frequency, at, length] of notes) {
      const oscillator = context.createOscillator();
      const volume = context.createGain();
      oscillator.type = wave;
      oscillator.frequency.setValueAtTime(frequency, start + at);
      // A quick rise and an exponential fall: no click at either end.
      volume.gain.setValueAtTime(0.0001, start + at);
      volume.gain.linearRampToValueAtTime(gain, start + at + 0.01);
      volume.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      oscillator.connect(volume).connect(context.destination);
      oscillator.start(start + at);
      oscillator.stop(start + at + length + 0.02);
    }
    return true;
  }
}
