// Stepping through a replay: bounds, Play to the end and again from the start.
import assert from "node:assert/strict";
import { mock, test } from "node:test";

const { Stepper } = await import("../../static/js/replay_steps_player.js");

test("steps stay within the replay and Play steps to the end, then stops", () => {
  mock.timers.enable({ apis: ["setInterval"] });
  try {
    let renders = 0;
    const stepper = new Stepper({ count: () => 3, render: () => (renders += 1), stepMs: 1000 });
    stepper.go(-5);
    assert.equal(stepper.step, 0);
    stepper.go(99);
    assert.equal(stepper.step, 3);
    stepper.togglePlay(); // at the end: Play starts again from the first step
    assert.equal(stepper.step, 0);
    assert.equal(stepper.playing, true);
    mock.timers.tick(3000);
    assert.equal(stepper.step, 3);
    assert.equal(stepper.playing, false); // it stopped at the end by itself
    mock.timers.tick(5000);
    assert.equal(stepper.step, 3);
    assert.ok(renders >= 5);
  } finally {
    mock.timers.reset();
  }
});
