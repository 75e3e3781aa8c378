// static/js/definitions.js: one request per word and list, answers kept, refusals and silence
// told to the asker, and only its own messages taken from the server's stream.
import assert from "node:assert/strict";
import { test } from "node:test";

const { ANSWER_MS, Definitions, KEPT, answerOf } = await import("../../static/js/definitions.js");

/** Definitions over a fake socket (`sent`) and timers the test runs by hand. */
function setup({ connected = true } = {}) {
  const sent = [];
  const timers = new Map();
  let next = 1;
  const definitions = new Definitions((message) => connected && sent.push(message) > 0, {
    setTimeout: (fn, ms) => {
      timers.set(next, { fn, ms });
      return next++;
    },
    clearTimeout: (id) => timers.delete(id),
  });
  const fire = () => [...timers.values()].forEach(({ fn }) => fn());
  return { definitions, sent, timers, fire };
}

const RUNS = {
  type: "definition",
  word: "runs",
  wordlist: "en",
  source: "WordNet 3.0",
  meanings: [{ pos: "verb", lemma: "run", senses: ["move fast"] }],
};

test("a word is asked for once, and a second tap is answered from what was kept", async () => {
  const { definitions, sent, timers } = setup();
  const first = definitions.ask("runs", "en");
  const again = definitions.ask("runs", "en"); // while the first is on its way
  assert.equal(sent.length, 1);
  assert.deepEqual({ ...sent[0], seq: 0 }, { type: "define", word: "runs", wordlist: "en", seq: 0 });
  assert.equal(definitions.receive({ ...RUNS, seq: sent[0].seq }), true);
  assert.deepEqual(await first, answerOf(RUNS));
  assert.equal(await again, await first);
  assert.deepEqual(await definitions.ask("runs", "en"), answerOf(RUNS));
  assert.equal(sent.length, 1);
  assert.equal(timers.size, 0); // the answer's deadline was cleared
});

test("the same word in another list is another question", () => {
  const { definitions, sent } = setup();
  definitions.ask("casa", "es");
  definitions.ask("casa", null);
  assert.equal(sent.length, 2);
  assert.equal("wordlist" in sent[1], false); // the server's default list
});

test("a refusal is told to the asker and not kept", async () => {
  const { definitions, sent } = setup();
  const asked = definitions.ask("runs", "en");
  const error = { type: "error", code: "limit/definitions", message: "wait a minute", request: "define", seq: sent[0].seq };
  assert.equal(definitions.receive(error), true);
  await assert.rejects(asked, { code: "limit/definitions", message: "wait a minute" });
  definitions.ask("runs", "en");
  assert.equal(sent.length, 2); // asked again
});

test("silence and no connection are refusals too", async () => {
  const { definitions, fire } = setup();
  const asked = definitions.ask("runs", "en");
  fire();
  await assert.rejects(asked, { code: "client/no_answer" });
  assert.ok(ANSWER_MS >= 5_000);
  const offline = setup({ connected: false });
  await assert.rejects(offline.definitions.ask("runs", "en"), { code: "client/offline" });
});

test("other messages are left for the game", () => {
  const { definitions } = setup();
  assert.equal(definitions.receive({ type: "word", word: "runs" }), false);
  assert.equal(definitions.receive({ type: "error", code: "move/not_adjacent", request: "enter", seq: 3 }), false);
  assert.equal(definitions.receive({ ...RUNS, seq: 12345 }), true); // an answer nobody waits for: dropped
});

test("a malformed answer is read as far as it goes", () => {
  const answer = answerOf({ type: "definition", word: "x", meanings: [null, { pos: "noun" }, { pos: "noun", lemma: "x", senses: ["a", 3] }] });
  assert.deepEqual(answer, { word: "x", wordlist: "", source: null, meanings: [{ pos: "noun", lemma: "x", senses: ["a"] }] });
});

test("only the latest answers are kept", async () => {
  const { definitions, sent } = setup();
  for (let i = 0; i <= KEPT; i += 1) {
    definitions.ask(`w${i}`, "en");
    definitions.receive({ ...RUNS, word: `w${i}`, seq: sent[i].seq });
  }
  definitions.ask("w0", "en");
  assert.equal(sent.length, KEPT + 2); // the oldest was forgotten and is asked again
});
