// A match's replay in words (static/js/replay_steps.js), read without a page: each kind of
// step, the seats' standing before a step, the turns grouped by round, and the end.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  bestText,
  breakdownSpoken,
  byRound,
  describe,
  progressText,
  rankingLines,
  standingBefore,
  stepLabel,
} from "../../static/js/replay_steps.js";

const best = { word: "QUIET", path: [[0, 0]], points: 30 };
const data = {
  seats: [{ name: "Ann", kind: "human" }, { name: "Ada", kind: "bot", level: "easy" }],
  costs: { shuffle: 1, swap: 3, hint: 4, extend: 1 },
  start: { scores: [0, 0], gems: [3, 3] },
  steps: [
    { action: "shuffle", seat: 0, round: 1, scores: [0, 0], gems: [2, 3] },
    { action: "swap", seat: 0, round: 1, row: 1, col: 2, was: "Q", letter: "E", scores: [0, 0], gems: [0, 3] },
    {
      action: "play", seat: 0, round: 1, word: "CAT", points: 12, gems_earned: 2, ended: "played", best,
      marks: [{ letter: "C", mult: "DL" }, { letter: "A", mult: null }, { letter: "T", mult: null }],
      breakdown: [{ step: "letters", points: 6 }, { step: "word_multiplier", factor: 2, points: 12 }],
      scores: [12, 0], gems: [2, 3],
    },
    { action: "timeout", seat: 1, round: 1, ended: "timed_out", best, scores: [12, 0], gems: [2, 3] },
    { action: "hint", seat: 0, round: 2, hint: best, scores: [12, 0], gems: [0, 3] },
    { action: "extend", seat: 0, round: 2, seconds: 15, scores: [12, 0], gems: [0, 3] },
    { action: "pass", seat: 0, round: 2, ended: "passed", best: null, scores: [12, 0], gems: [0, 3] },
    { action: "away", seat: 1, round: 2, ended: "passed", best, scores: [12, 0], gems: [0, 3] },
  ],
  final: {
    ranking: [{ seat: 0, rank: 1, score: 12 }, { seat: 1, rank: 2, score: 0 }],
    best_words: [{ seat: 0, word: { word: "CAT", points: 12 } }, { seat: 1, word: null }],
  },
};

test("each kind of step says who did what, and what a power cost", () => {
  const said = data.steps.map((step) => describe(data, step).said);
  assert.deepEqual(said, [
    "Ann shuffled the letters, for 1 gem.",
    "Ann swapped the Q at row 2, column 3 for E, for 3 gems.",
    "Ann played CAT for 12 points and 2 gems.",
    "Ada ran out of time.",
    "Ann bought a hint: QUIET 30 pts, for 4 gems.",
    "Ann extended the turn by 15 seconds, for 1 gem.",
    "Ann passed.",
    "Ada was away, so the turn passed.",
  ]);
  const play = describe(data, data.steps[2]);
  assert.deepEqual([play.what, play.word, play.points], ["Ann played", "CAT", "+12"]);
  assert.deepEqual([describe(data, data.steps[3]).word, describe(data, data.steps[3]).points], ["", ""]);
});

test("the list beside the board names each step shortly", () => {
  assert.deepEqual(data.steps.map((step) => stepLabel(data, step)), [
    "Ann: shuffle",
    "Ann: swap Q for E",
    "Ann: CAT +12",
    "Ada: ran out of time",
    "Ann: hint",
    "Ann: extend",
    "Ann: passed",
    "Ada: away, passed",
  ]);
});

test("a play's breakdown in words: no arrows or times signs for a screen reader to read out", () => {
  const spoken = breakdownSpoken(data.steps[2]);
  assert.equal(spoken, "C doubled, A, T; letters 6; word times 2, 12");
  assert.doesNotMatch(spoken, /[→×+]/);
  assert.equal(
    breakdownSpoken({ marks: [{ letter: "A", mult: null }], breakdown: [{ step: "letters", points: 4 }, { step: "long_word", bonus: 10, points: 14 }] }),
    "letters 4; plus 10 for a long word, 14",
  );
});

test("the seats stand before a step where the step before left them, and at the start as they began", () => {
  assert.deepEqual(standingBefore(data, 0), { scores: [0, 0], gems: [3, 3] });
  assert.deepEqual(standingBefore(data, 3), { scores: [12, 0], gems: [2, 3] });
  assert.deepEqual(standingBefore(data, data.steps.length), { scores: [12, 0], gems: [0, 3] });
});

test("the best word beside a turn, and whether it was the one played", () => {
  assert.equal(bestText(data.steps[2]), "Best on the board: QUIET 30 pts");
  assert.equal(bestText({ ...data.steps[2], word: "QUIET", points: 30 }), "Best on the board: QUIET 30 pts (played)");
  assert.equal(bestText(data.steps[6]), "No word on the board");
});

test("steps are grouped by round, each keeping its place among all the steps", () => {
  const rounds = byRound(data);
  assert.deepEqual(rounds.map((r) => r.round), [1, 2]);
  assert.deepEqual(rounds[1].steps.map((s) => s.index), [4, 5, 6, 7]);
});

test("the end ranks the seats with their best words, and the counter says where we are", () => {
  assert.deepEqual(rankingLines(data), [
    { seat: 0, rank: 1, name: "Ann", score: "12 pts", best: "Best word: CAT 12 pts" },
    { seat: 1, rank: 2, name: "Ada", score: "0 pts", best: "No word played" },
  ]);
  assert.equal(progressText(0, 8), "Step 1 of 8");
  assert.equal(progressText(8, 8), "End of the match: 8 steps");
});
