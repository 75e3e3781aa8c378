// What the page says (view.js's wording), read without a page: the store names a message
// and its facts, the view words it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { LEVELS } from "../../static/js/protocol.js";
import { LEVEL_LABELS, breakdownText, capital, messageText, playedAgo } from "../../static/js/view/wording.js";

test("type to spell: a refused letter says which, and from where", () => {
  assert.equal(messageText({ say: "no_path", typed: "CA", letter: "Q" }), "No path on the board spells CAQ.");
  assert.equal(messageText({ say: "no_path", typed: "", letter: "Q" }), "No Q on the board to start with.");
  assert.equal(messageText({ say: "spell_path", index: 1, count: 3 }), "Path 2 of 3 (Tab for the next, Shift+Tab back).");
  assert.equal(messageText({ say: "spell_path", index: 0, count: 1 }), "Only one path spells this.");
});

test("a shuffle is said, by whoever made it", () => {
  assert.equal(messageText({ say: "shuffled", mine: true, name: "Ann" }), "You shuffled the letters.");
  assert.equal(messageText({ say: "shuffled", mine: false, name: "Ada" }), "Ada shuffled the letters.");
});

test("results: a word's points, a miss's reason, one point and many", () => {
  assert.equal(messageText({ say: "result", word: "CAT", result: "scored", points: 5 }), "CAT +5");
  assert.equal(messageText({ say: "result", word: "CA", result: "too_short", minLength: 3 }), "Too short — 3 letters minimum");
  assert.equal(messageText({ say: "played", mine: false, name: "Ada", word: "AX", points: 9, gemsEarned: 1 }), "Ada played AX: +9 and 1 gem");
  assert.equal(messageText({ say: "played", mine: true, word: "AXE", points: 10, gemsEarned: 2 }), "You played AXE: +10 and 2 gems");
  // A message the page has no words for shows the server's text as it came.
  assert.equal(messageText({ say: "server", text: "Slow down" }), "Slow down");
});

test("a play's breakdown: the multiplied letters, then each step with its running total", () => {
  const play = {
    marks: [{ letter: "C", mult: "DL" }, { letter: "A", mult: null }, { letter: "T", mult: "TL" }],
    breakdown: [
      { step: "letters", points: 8 },
      { step: "word_multiplier", factor: 2, points: 16 },
      { step: "long_word", bonus: 10, points: 26 },
    ],
  };
  assert.equal(breakdownText(play), "C×2 A T×3 → letters 8 → ×2 word 16 → +10 long word 26");
  assert.equal(breakdownText({ marks: [{ letter: "A", mult: null }], breakdown: [{ step: "letters", points: 1 }] }), "letters 1");
});

test("when a game was last played", () => {
  const now = 10 * 86_400_000;
  assert.equal(playedAgo(now - 30_000, now), "just now");
  assert.equal(playedAgo(now - 5 * 60_000, now), "5 min ago");
  assert.equal(playedAgo(now - 3 * 3_600_000, now), "3 h ago");
  assert.equal(playedAgo(now - 86_400_000, now), "1 day ago");
  assert.equal(playedAgo(now - 4 * 86_400_000, now), "4 days ago");
  assert.equal(playedAgo(0, now), "");
});

test("every bot level the server knows has a name in the pickers", () => {
  assert.deepEqual(Object.keys(LEVEL_LABELS), [...LEVELS]);
  for (const level of LEVELS) assert.equal(LEVEL_LABELS[level], capital(level));
});

test("a daily try that is not ranked says its score and why", async () => {
  const { DAILY } = await import("../../static/js/view/wording.js");
  const rules = { pace: { tiles: 180, seconds: 10 }, places: 2 };
  const fast = { rank: null, name: "Bot", score: 1000, words: 88, ranked: false, why: "pace", pace: 357 };
  assert.equal(
    DAILY.rank({ you: fast, players: 3, played: true, rules }),
    "Your try: 1000 points, not ranked: it was played faster than a person can (357 tiles in 10 seconds; the most a person plays is 180).",
  );
  const third = { ...fast, score: 12, why: "address", pace: 20 };
  assert.match(DAILY.rank({ you: third, players: 3, played: true, rules }), /^Your try: 12 points, not ranked: your address already holds its 2 places today/);
  assert.equal(DAILY.rank({ you: { rank: 2, ranked: true }, players: 3, played: true, rules }), "You are 2nd of 3 players today.");
});

test("the daily's status line agrees with its rank line, and a replay's share says it was one", async () => {
  const { DAILY } = await import("../../static/js/view/wording.js");
  const third = { rank: null, name: "Ann", score: 12, words: 2, ranked: false, why: "address", pace: 20 };
  assert.equal(DAILY.scoredOrNot(true, null), "This try counts on today's leaderboard."); // still running
  assert.equal(DAILY.scoredOrNot(true, { rank: 1, ranked: true }), "This try counts on today's leaderboard.");
  assert.equal(DAILY.scoredOrNot(true, third), "Your scored try of the day, not ranked: below says why.");
  assert.equal(DAILY.scoredOrNot(false, third), "A replay: it does not count on the leaderboard.");
  assert.equal(DAILY.share(342, 24, 2, false), "Wibble daily #342, played again for fun: 24 points, 2 words");
  assert.equal(DAILY.share(342, 12, 2), "Wibble daily #342: 12 points, 2 words");
});

test("a room's refusal is said in the page's words, or the server's as a sentence", () => {
  const said = (code, text) => messageText({ say: "server", code, text });
  assert.equal(said("room/too_few", "a race needs at least two seats filled (people or bots)"),
               "Fill at least two seats (friends or bots) to start.");
  assert.match(said("room/removed", "the host removed someone..."), /^The host removed someone who played from your network address/);
  assert.equal(said("room/team_full", "team B has both its seats taken"), "Team B has both its seats taken.");
  assert.equal(said("limit/rooms", "too many new rooms from your address; wait a minute"),
               "Too many new rooms from your address; wait a minute.");
  assert.equal(said("turn/not_your_turn", "it is Bo's turn"), "it is Bo's turn"); // a game's own: as sent
});
