// A race's replay in words (static/js/race_replay_steps.js), read without a page: each step's
// line and sentence, the standings with shared places, the counter and the end.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  atText,
  endTitle,
  progressText,
  runnerTag,
  standingLines,
  standingsAfter,
  stepLabel,
  stepSaid,
} from "../../static/js/race_replay_steps.js";

const data = {
  runners: [
    { seat: 0, name: "Ann", kind: "human", level: null },
    { seat: 2, name: "Ada", kind: "bot", level: "easy" },
  ],
  steps: [
    { at: 12.4, seat: 0, word: "CAT", points: 5, total: 5, standings: [{ seat: 0, score: 5, words: 1 }, { seat: 2, score: 0, words: 0 }] },
    { at: 65, seat: 2, word: "QUIET", points: 5, total: 5, standings: [{ seat: 0, score: 5, words: 1 }, { seat: 2, score: 5, words: 1 }] },
  ],
  final: { standings: [{ seat: 0, score: 5, words: 1 }, { seat: 2, score: 5, words: 1 }] },
};

test("a step reads as the clock showed it, who found the word, and its points", () => {
  assert.equal(atText(12.9), "0:12");
  assert.equal(atText(65), "1:05");
  assert.equal(stepLabel(data, data.steps[0]), "0:12 · Ann: CAT +5");
  assert.equal(stepLabel(data, data.steps[1]), "1:05 · Ada: QUIET +5");
  assert.equal(stepSaid(data, data.steps[0]), "At 0:12, Ann found CAT for 5 points, 5 points in all. Ann leads.");
  // Level at the top: a shared lead, never "leads" (whoever the server happened to list first).
  assert.equal(stepSaid(data, data.steps[1]), "At 1:05, Ada found QUIET for 5 points, 5 points in all. Ada shares the lead with Ann.");
  const tiedFirst = { ...data.steps[1], seat: 0, word: "TEA", standings: data.steps[1].standings };
  assert.equal(stepSaid(data, tiedFirst), "At 1:05, Ann found TEA for 5 points, 5 points in all. Ann shares the lead with Ada.");
  assert.equal(runnerTag(data, 2), "Easy bot");
  assert.equal(runnerTag(data, 0), "player");
});

test("standings after a step are best first, a tie sharing its place", () => {
  const lines = standingLines(data, standingsAfter(data, 1));
  assert.deepEqual(lines.map((l) => [l.place, l.name, l.score, l.words]), [
    [1, "Ann", "5 points", "1 word"],
    [1, "Ada", "5 points", "1 word"],
  ]);
  assert.deepEqual(standingLines(data, standingsAfter(data, 0)).map((l) => l.place), [1, 2]);
  assert.equal(standingsAfter(data, 2), data.final.standings);
});

test("the counter, and the end's title", () => {
  assert.equal(progressText(0, 2), "Word 1 of 2");
  assert.equal(progressText(2, 2), "End of the race: 2 words");
  assert.equal(endTitle(data), "A tie at the top");
  assert.equal(endTitle({ ...data, final: { standings: [{ seat: 2, score: 9, words: 2 }, { seat: 0, score: 5, words: 1 }] } }), "Ada won the race");
});
