// The player's settings (static/js/settings.js): defaults, what storage may hold, a change kept
// and told, and the cues each event calls for (static/js/sound.js), played as the settings allow.
import assert from "node:assert/strict";
import { test } from "node:test";
import { memory } from "./support.js";

const { DEFAULTS, SETTINGS_KEY, Settings, settingsOf } = await import("../../static/js/settings.js");
const { CUES, Cue, Feedback, LAST_SECONDS, cueOf, sprintTickOf, tickOf } = await import("../../static/js/sound.js");

const blocked = { getItem() { throw new Error("denied"); }, setItem() { throw new Error("denied"); } };

test("sound starts off, vibration on, the theme follows the system", () => {
  assert.deepEqual(new Settings(memory()).values, { sound: false, vibration: true, theme: "system" });
  assert.deepEqual(DEFAULTS, { sound: false, vibration: true, theme: "system" });
});

test("a change is kept in storage, told once, and read back by the next page", () => {
  const storage = memory();
  const settings = new Settings(storage);
  const told = [];
  settings.subscribe((values, changed) => told.push(changed));

  assert.equal(settings.set({ sound: true, theme: "dark" }), true);
  assert.equal(settings.set({ sound: true }), false); // no change, nothing told

  assert.deepEqual(told, [["sound", "theme"]]);
  assert.deepEqual(JSON.parse(storage.getItem(SETTINGS_KEY)), { sound: true, vibration: true, theme: "dark" });
  assert.deepEqual(new Settings(storage).values, { sound: true, vibration: true, theme: "dark" });
});

test("whatever storage holds, the settings read back are whole and valid", () => {
  for (const held of ["not json", "null", "[]", '{"sound":"yes","theme":"purple","vibration":0}', '{"sound":true}']) {
    const storage = memory();
    storage.setItem(SETTINGS_KEY, held);
    const values = new Settings(storage).values;
    assert.deepEqual(Object.keys(values).sort(), ["sound", "theme", "vibration"]);
    assert.ok(["system", "light", "dark"].includes(values.theme));
  }
  assert.deepEqual(settingsOf({ sound: true }), { sound: true, vibration: true, theme: "system" });
  assert.equal(new Settings(null).set({ theme: "purple" }), false);
});

test("blocked storage: the settings still change for this page, and nothing throws", () => {
  const settings = new Settings(blocked);
  assert.equal(settings.set({ theme: "light" }), true);
  assert.equal(settings.theme, "light");
});

test("another tab's change is read again and told", () => {
  const storage = memory();
  const here = new Settings(storage);
  const told = [];
  here.subscribe((values, changed) => told.push(changed));
  new Settings(storage).set({ vibration: false });
  here.refresh();
  assert.equal(here.vibration, false);
  assert.deepEqual(told, [["vibration"]]);
});

// -- the cues ---------------------------------------------------------------------------

const match = (over = {}) => ({
  id: "m1", phase: "playing", you: 0, turn: 0, turnNo: 3, clock: { remaining: 30, at: 0 }, ...over,
});

test("each event calls for its cue: a scored or refused word, your turn; others' plays are quiet", () => {
  const endless = { match: null };
  assert.equal(cueOf(endless, { type: "word", result: "scored" }), Cue.SCORED);
  assert.equal(cueOf(endless, { type: "word", result: "not_a_word" }), Cue.REFUSED);
  assert.equal(cueOf(endless, { type: "word", result: "already_found" }), Cue.REFUSED);
  assert.equal(cueOf(endless, { type: "chain" }), null);

  const mine = { match: match() };
  assert.equal(cueOf(mine, { type: "played", mine: true }), Cue.SCORED);
  assert.equal(cueOf(mine, { type: "played", mine: false }), null);
  assert.equal(cueOf(mine, { type: "word", result: "not_a_word", seat: 0 }), Cue.REFUSED);
  assert.equal(cueOf(mine, { type: "word", result: "not_a_word", seat: 2 }), null);
  assert.equal(cueOf(mine, { type: "turn" }), Cue.TURN);
  assert.equal(cueOf(mine, { type: "match", fresh: true }), Cue.TURN); // a match starting on your turn
  assert.equal(cueOf({ match: match({ turn: 1 }) }, { type: "turn" }), null);
  assert.equal(cueOf({ match: match({ you: null }) }, { type: "turn" }), null); // watching
});

test("the clock ticks at each of its last seconds on your own timed turn only", () => {
  const clock = (remaining) => match({ clock: { remaining, at: 0 } });
  assert.equal(tickOf(clock(12), 0), null);
  assert.equal(tickOf(clock(LAST_SECONDS), 0), LAST_SECONDS);
  assert.equal(tickOf(clock(5), 4200), 1);
  assert.equal(tickOf(clock(5), 5000), null); // time is up
  assert.equal(tickOf(match({ clock: null }), 0), null); // untimed
  assert.equal(tickOf({ ...clock(3), turn: 1 }, 0), null); // someone else's turn
});

/** An AudioContext that records the notes it was asked to play. */
function fakeAudio() {
  const notes = [];
  const param = () => ({ setValueAtTime() {}, linearRampToValueAtTime() {}, exponentialRampToValueAtTime() {} });
  const context = {
    state: "running", currentTime: 0, destination: {}, notes,
    createOscillator: () => {
      const node = { type: "", frequency: { setValueAtTime: (f) => notes.push(f) }, connect: (next) => next, start() {}, stop() {} };
      return node;
    },
    createGain: () => ({ gain: param(), connect: (next) => next }),
  };
  return context;
}

const feedbackWith = (values) => {
  const settings = new Settings(memory());
  settings.set(values);
  const context = fakeAudio();
  const buzzes = [];
  let made = 0;
  const feedback = new Feedback({
    settings,
    audio: () => { made += 1; return context; },
    vibrate: (pattern) => { buzzes.push(pattern); return true; },
  });
  return { feedback, context, buzzes, made: () => made };
};

test("with sound off (as it starts) no audio is even made; the phone still buzzes", () => {
  const { feedback, buzzes, made } = feedbackWith({});
  assert.deepEqual(feedback.onEvent({ match: null }, { type: "word", result: "scored" }), ["vibration"]);
  assert.equal(made(), 0);
  assert.deepEqual(buzzes, [CUES.scored.vibrate]);
});

test("with sound on, a cue plays its notes; with vibration off, nothing buzzes", () => {
  const { feedback, context, buzzes } = feedbackWith({ sound: true, vibration: false });
  assert.deepEqual(feedback.onEvent({ match: null }, { type: "word", result: "scored" }), ["sound"]);
  assert.deepEqual(context.notes, CUES.scored.notes.map(([f]) => f));
  assert.deepEqual(buzzes, []);
});

test("your turn is heard once per turn, and each last second once", () => {
  const { feedback, context } = feedbackWith({ sound: true });
  const state = { match: match({ clock: { remaining: 3, at: 0 } }) };
  assert.ok(feedback.onEvent(state, { type: "turn" }));
  assert.equal(feedback.onEvent(state, { type: "turn" }), null); // the same turn told again
  const ticks = [0, 100, 250, 1100, 1300, 2100].map((now) => feedback.onClock(state, now)).filter(Boolean);
  assert.equal(ticks.length, 3); // 3, 2, 1
  assert.equal(context.notes.filter((f) => f === CUES.tick.notes[0][0]).length, 3);
});

test("a browser without Web Audio or that refuses to vibrate stays quiet, and nothing throws", () => {
  const settings = new Settings(memory());
  settings.set({ sound: true });
  const feedback = new Feedback({
    settings,
    audio: () => { throw new Error("no audio"); },
    vibrate: () => { throw new Error("no gesture yet"); },
  });
  assert.deepEqual(feedback.play(Cue.REFUSED), []);
  feedback.unlock();
});

test("a sprint ticks its last seconds, once each, and not once it is over", () => {
  const sprint = { seconds: 60, endsAt: 60_000, over: false, missed: [] };
  assert.equal(sprintTickOf(sprint, 40_000), null); // 20 s left
  assert.equal(sprintTickOf(sprint, 60_000 - LAST_SECONDS * 1000), LAST_SECONDS);
  assert.equal(sprintTickOf(sprint, 59_500), 1);
  assert.equal(sprintTickOf({ ...sprint, over: true }, 59_500), null);
  assert.equal(sprintTickOf(null, 0), null); // untimed

  const played = [];
  const feedback = new Feedback({ settings: { sound: false, vibration: true }, vibrate: (p) => played.push(p) });
  const state = { mode: "endless", game: { id: "g1", sprint } };
  for (const now of [57_100, 57_500, 58_200, 59_900]) feedback.onClock(state, now);
  assert.equal(played.length, 3); // the 3rd, 2nd and last second: each once
});
