// A match in the store as a unit (match_moves.js, through the Store): its snapshot, a bot's drag,
// powers, the turn clock, the end screen and a rematch. Driven with fake server messages and a
// recording `send`; no page, no server (these ran in Chromium before).
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { memory, run } from "./support.js";
import { config, makeStore, snapshot } from "./store_support.js";

const S = await import("../../static/js/store.js");
let clock = 1000;
const make = () => makeStore(() => clock);

// A match: its snapshot and messages (3x3, this tab's seat 0 against a bot).
const mtile = (letter, extra = {}) => ({ letter, score: 1, mult: null, word_mult: null, gem: false,
                                         ...extra });
const matchSnapshot = (extra = {}) => ({
  type: "match", match_id: "m1", token: "tok", you: 0, seed: 5, wordlist: "en", wordlist_title: "English",
  language: "en", min_length: 3, letters: { A: {}, B: {}, C: {}, Z: {} }, size: 3,
  seats: [{ name: "You", kind: "human", level: null, score: 0, gems: 3, speed: 1, connected: true },
          { name: "Ada", kind: "bot", level: "easy", score: 0, gems: 3, speed: 1, connected: true }],
  round: 1, rounds: 2, turn: 0, turn_no: 1, deadline: null, remaining: null, phase: "playing",
  board: [[mtile("C", { mult: "DL" }), mtile("A", { gem: true }), mtile("T")],
          [mtile("S"), mtile("O", { word_mult: 2 }), mtile("N")], [mtile("D"), mtile("E"), mtile("R")]],
  chain: [], word: "", points: 0, status: "none", words_left: 9, history: [],
  costs: { shuffle: 1, swap: 3, hint: 4, extend: 1 }, gem_cap: 10,
  settings: { rounds: 2, turn_seconds: null, extend_seconds: 15 }, version: 0, ...extra,
});
const M = await import("../../static/js/match.js");
const W = await import("../../static/js/view/wording.js");
const turn = (extra) => ({ type: "turn", turn: 1, round: 1, turn_no: 2, deadline: null, remaining: null,
                           phase: "playing", passed: null, version: 1, ...extra });
const startMatch = () => {
  const made = make();
  made.store.onOpen();
  made.store.onMessage(snapshot());
  made.store.match.startMatch({ bots: ["easy"], rounds: 2, timed: false });
  made.store.onMessage(matchSnapshot());
  return made;
};

beforeEach(() => {
  clock = 1000; // each test starts at the same time, as each ran on a fresh page
});

const runMatch = run;
test("a match snapshot puts the match on screen and in your games", async () => {
  const result = await runMatch(async () => {
    const { store, sent } = startMatch();
    const m = store.state.match;
    return { sent: sent.slice(1), mode: store.state.mode,
             seats: m.seats.map((s) => [s.name, s.kind, s.level]),
             mine: M.isMyTurn(m), letters: m.letters, tile: store.state.board[0][0],
             entry: store.state.games[0], phase: S.phaseOf(store.state),
             powers: ["shuffle", "swap", "hint", "extend"].map((p) => M.canUse(m, p)) };
  });
  assert.deepStrictEqual(result.sent, [{ "type": "new_match", "bots": [{ "level": "easy" }], "rounds": 2, "turn_seconds": null, "wordlist": "en" }]);
  assert.deepStrictEqual(result.mode, "match");
  assert.deepStrictEqual(result.seats, [["You", "human", null], ["Ada", "bot", "easy"]]);
  assert.strictEqual(result.mine, true);
  assert.deepStrictEqual(result.letters, ["A", "B", "C", "Z"]);
  assert.deepStrictEqual(result.tile, { "letter": "C", "score": 1, "mult": "DL", "word_mult": null, "gem": false });
  assert.deepStrictEqual(result.entry.kind, "match");
  assert.deepStrictEqual(result.entry.match_id, "m1");
  assert.deepStrictEqual(result.phase, "idle");
  // 3 gems: shuffle and swap, not hint (4), not extend (an untimed match).
  assert.deepStrictEqual(result.powers, [true, true, false, false]);
});

test("a bots drag shows live then its word scores and the turn comes back", async () => {
  const result = await runMatch(async () => {
    const { store, sent } = startMatch();
    store.onMessage({ type: "chain", seat: 0, chain: [], word: "", points: 0, status: "none" });
    store.onMessage(turn({ turn: 1 }));
    const pressed = store.press(2, 2);  // not our turn: nothing sent
    store.onMessage({ type: "chain", seat: 1, chain: [[0, 0], [0, 1]], word: "CA", points: 4,
                      status: "prefix" });
    const watching = S.currentChain(store.state);
    store.onMessage({ type: "played", seat: 1, word: "CAT", path: [[0, 0], [0, 1], [0, 2]], points: 8,
                      breakdown: [{ step: "letters", points: 4 },
                                  { step: "word_multiplier", factor: 2, points: 8 }],
                      gems_earned: 1, score: 8, version: 2 });
    const played = { chain: store.state.chain, phase: S.phaseOf(store.state),
                     score: store.state.match.seats[1].score,
                     play: store.state.match.plays.at(-1), message: store.state.message };
    store.onMessage({ type: "board", reason: "refill", words_left: 4, version: 2,
                      changed: [{ row: 0, col: 0, ...mtile("B", { score: 3, gem: true }) }] });
    store.onMessage({ type: "gems", seat: 1, gems: 4 });
    store.onMessage(turn({ turn: 0, turn_no: 3, version: 2 }));
    return { pressed, sent: sent.length, watching, played, phase: S.phaseOf(store.state),
             gems: store.state.match.seats[1].gems, mine: M.isMyTurn(store.state.match),
             message: store.state.message.say, tile: store.state.board[0][0],
             line: W.messageText(store.state.message), heard: W.spokenText(store.state.message) };
  });
  assert.strictEqual(result.pressed, false);
  assert.deepStrictEqual(result.sent, 2);
  assert.deepStrictEqual(result.watching.chain, [[0, 0], [0, 1]]);
  assert.deepStrictEqual(result.watching.seat, 1);
  assert.strictEqual(result.watching.mine, false);
  assert.deepStrictEqual(result.watching.points, 4);
  // Played: the chain is gone, the score is the server's, the tiles wait for their refill.
  assert.deepStrictEqual(result.played.chain, []);
  assert.deepStrictEqual(result.played.phase, "busy");
  assert.deepStrictEqual(result.played.score, 8);
  assert.deepStrictEqual(result.played.play.breakdown.at(-1), { "step": "word_multiplier", "factor": 2, "points": 8 });
  assert.deepStrictEqual(result.played.play.marks.map((m) => m.mult), ["DL", null, null]);
  assert.deepStrictEqual(result.played.message.say, "played");
  assert.deepStrictEqual(result.phase, "idle");
  assert.deepStrictEqual(result.gems, 4);
  assert.strictEqual(result.mine, true);
  assert.deepStrictEqual(result.message, "your_turn");
  // The bot's word is still said, before the turn it hands over: it is not replaced unread.
  assert.deepStrictEqual(result.line, "Ada played CAT: +8 and 1 gem. Your turn.");
  assert.deepStrictEqual(result.heard, "Ada played CAT for 8 points and 1 gem. Your turn.");
  assert.strictEqual(result.tile.gem, true);
});

test("the word that ends a round is said before the round's end, and only that turn's word", async () => {
  const result = await runMatch(async () => {
    const { store } = startMatch();
    store.onMessage(turn({ turn: 1 }));
    store.onMessage({ type: "played", seat: 1, word: "CAT", path: [[0, 0], [0, 1], [0, 2]], points: 8,
                      breakdown: [{ step: "letters", points: 8 }], gems_earned: 0, score: 8, version: 2 });
    store.onMessage(turn({ turn: 0, turn_no: 3, round: 1, phase: "between_rounds", version: 2 }));
    const over = W.messageText(store.state.message);
    store.onMessage(turn({ turn: 0, turn_no: 3, round: 2, phase: "playing", version: 3 }));
    const next = W.messageText(store.state.message);
    // A turn that passes with no word after it: the word said turns ago is not said again.
    store.onMessage(turn({ turn: 1, turn_no: 4, round: 2, version: 4 }));
    store.onMessage(turn({ turn: 0, turn_no: 5, round: 2, version: 5 }));
    return { over, next, later: W.messageText(store.state.message) };
  });
  assert.deepStrictEqual(result.over, "Ada played CAT: +8. Round 1 is over.");
  assert.deepStrictEqual(result.next, "Round 2 — your turn.");
  assert.deepStrictEqual(result.later, "Your turn.");
});

test("my word goes out with seqs and its played reply ends the chain", async () => {
  const result = await runMatch(async () => {
    const { store, sent } = startMatch();
    store.press(0, 0); store.enter(0, 1); store.enter(0, 2);
    const chainReply = (chain, seq, points) =>
      ({ type: "chain", seat: 0, chain, word: "", points, status: "prefix", seq });
    store.onMessage(chainReply([[0, 0]], 1, 2));
    store.onMessage(chainReply([[0, 0], [0, 1]], 2, 3));
    store.onMessage({ ...chainReply([[0, 0], [0, 1], [0, 2]], 3, 4), status: "word" });
    const word = S.currentChain(store.state);
    store.release();
    store.onMessage({ type: "played", seat: 0, word: "CAT", path: [[0, 0], [0, 1], [0, 2]], points: 4,
                      breakdown: [{ step: "letters", points: 4 }], gems_earned: 1, score: 4, version: 1,
                      seq: 4 });
    return { sent: sent.slice(2), word, chain: store.state.chain, mine: store.state.mine,
             saved: store.state.games[0].score };
  });
  assert.deepStrictEqual(result.sent.map((m) => m.type), ["press", "enter", "enter", "release"]);
  assert.deepStrictEqual(result.sent.map((m) => m.seq), [1, 2, 3, 4]);
  assert.deepStrictEqual([result.word.word, result.word.status, result.word.points], ["CAT", "word", 4]);
  assert.deepStrictEqual(result.chain, []);
  assert.strictEqual(result.mine, false);
  assert.deepStrictEqual(result.saved, 4);
});

test("powers a swap mid drag and a refused one", async () => {
  const result = await runMatch(async () => {
    const { store, sent } = startMatch();
    store.press(0, 0); store.enter(0, 1);
    const mine = (word, points, status, seq) =>
      ({ type: "chain", seat: 0, chain: [[0, 0], [0, 1]], word, points, status, seq });
    store.onMessage(mine("CA", 3, "prefix", 2));
    // Swap mid-drag: the tile pressed while choosing is the one to change; the chain stays.
    store.match.usePower("swap");
    store.match.cancelSwap();
    const cancelled = store.state.message; // its instructions go with it
    store.match.usePower("swap");
    const told = W.messageText(store.state.message); // (the focus stays on the board: said as well)
    const pick = store.press(0, 1);
    const chosen = store.state.swap;
    store.match.swapTo("Z");
    const afterSwap = { chain: store.state.chain, swap: store.state.swap };
    store.onMessage({ type: "board", reason: "swap", words_left: 3, version: 1, seq: 3,
                      changed: [{ row: 0, col: 1, ...mtile("Z", { score: 10, gem: true }) }] });
    store.onMessage(mine("CZ", 12, "none", 3));
    store.onMessage({ type: "gems", seat: 0, gems: 0, seq: 3 });
    const respelt = S.currentChain(store.state);
    const hintAllowed = M.canUse(store.state.match, "hint");
    // Refused by the server (the tab thought it could pay): the chain goes back to the server's.
    store.state.match.seats[0].gems = 1;
    store.match.usePower("shuffle");
    store.onMessage({ type: "error", code: "gems/not_enough", request: "shuffle",
                      message: "shuffle costs 1 gem; you have 0", seq: 4 });
    return { sent: sent.slice(4), told, cancelled, pick, chosen, afterSwap, respelt, hintAllowed,
             message: store.state.message, chain: store.state.chain };
  });
  assert.deepStrictEqual(result.sent, [{ "type": "swap", "row": 0, "col": 1, "letter": "Z", "seq": 3 }, { "type": "shuffle", "seq": 4 }]);
  assert.strictEqual(result.told, "Swap (3 gems): pick the tile to change on the board, then its new letter. Esc cancels.");
  assert.strictEqual(result.cancelled, null);
  assert.strictEqual(result.pick, false);
  assert.deepStrictEqual(result.chosen, { "tile": [0, 1] });
  assert.deepStrictEqual(result.afterSwap, { "chain": [[0, 0], [0, 1]], "swap": null });
  assert.deepStrictEqual([result.respelt.word, result.respelt.points], ["CZ", 12]);
  assert.strictEqual(result.hintAllowed, false);
  assert.deepStrictEqual(result.message.text, "shuffle costs 1 gem; you have 0");
  assert.deepStrictEqual(result.chain, [[0, 0], [0, 1]]);
});

test("the turn clock counts down from remaining not from the deadline", async () => {
  const result = await runMatch(async () => {
    const { store, sent } = startMatch();
    // A deadline from a clock hours off: only `remaining` (20 s) counts, from when it arrived.
    store.onMessage(turn({ turn: 0, turn_no: 2, deadline: 1, remaining: 20 }));
    const m = store.state.match;
    const atOnce = M.secondsLeft(m, clock);
    clock += 5500;
    const later = M.secondsLeft(m, clock);
    const extendable = M.canUse(m, "extend");
    store.onMessage({ type: "hint", word: "CAT", path: [[0, 0], [0, 1], [0, 2]], points: 4 });
    store.match.usePower("extend");
    store.onMessage(turn({ turn: 0, turn_no: 2, deadline: 2, remaining: 29.5, seq: 1 }));
    return { atOnce, later, extendable, extended: M.secondsLeft(m, clock), span: M.clockSpan(m),
             sent: sent.at(-1), said: W.messageText(store.state.message), hint: m.hint?.word };
  });
  // The extension is said, and the hint bought this turn stays on the board: the turn goes on.
  assert.deepStrictEqual(result.said, "You added 15 seconds to the turn's clock.");
  assert.deepStrictEqual(result.hint, "CAT");
  assert.deepStrictEqual(result.atOnce, 20);
  assert.ok(Math.abs(result.later - 14.5) <= 1e-6 * Math.abs(14.5), `${result.later} is about 14.5`);
  assert.strictEqual(result.extendable, true);
  assert.deepStrictEqual(result.sent, { "type": "extend", "seq": 1 });
  assert.ok(Math.abs(result.extended - 29.5) <= 1e-6 * Math.abs(29.5), `${result.extended} is about 29.5`);
  assert.ok(Math.abs(result.span - 29.5) <= 1e-6 * Math.abs(29.5), `${result.span} is about 29.5`);
});

test("the end screen data and a rematch", async () => {
  const result = await runMatch(async () => {
    const { store, sent } = startMatch();
    const tooEarly = store.match.rematch();
    const play = (word, points) => ({ word, path: [[0, 0]], points, breakdown: [] });
    store.onMessage(turn({ turn: 0, phase: "over", version: 1 }));
    store.onMessage({ type: "match_over", version: 1,
      ranking: [{ seat: 1, rank: 1, score: 30 }, { seat: 0, rank: 2, score: 12 }],
      best_words: [{ seat: 0, word: play("CAT", 12) }, { seat: 1, word: play("QUARTZ", 30) }],
      turns: [{ seat: 0, round: 1, ended: "played", played: play("CAT", 12), best: play("QUARTZ", 30) },
              { seat: 1, round: 1, ended: "played", played: play("QUARTZ", 30),
                best: play("QUARTZ", 30) },
              { seat: 0, round: 2, ended: "passed", played: null, best: play("ZOO", 14) },
              { seat: 1, round: 2, ended: "timed_out", played: null, best: null }] });
    const m = store.state.match;
    const over = { phase: m.phase, ranking: M.standings(m).map((s) => [s.name, s.rank, s.score]),
                   best: [...m.summary.best.entries()].map(([seat, w]) => [seat, w.word, w.points]),
                   turns: m.summary.turns.map((t) => [t.ended, t.played?.word ?? null,
                                                      t.best?.word ?? null]),
                   message: store.state.message, entry: store.state.games[0] };
    const again = store.match.rematch();
    store.onMessage(matchSnapshot({ match_id: "m2", token: "tok" }));
    const said = store.state.message;
    // A second click's answer, once the new match is on screen: nothing to say of it.
    store.onMessage({ type: "error", code: "match/not_over", request: "rematch", message: "the match is still being played" });
    const secondClick = store.state.message === said;
    return { tooEarly, over, again, secondClick, rematch: sent.at(-1), now: store.state.match.id,
             phase: store.state.match.phase,
             ids: store.state.games.map((g) => g.match_id ?? g.game_id) };
  });
  assert.strictEqual(result.tooEarly, false);
  const over = result.over;
  assert.deepStrictEqual(over.phase, "over");
  assert.deepStrictEqual(over.ranking, [["Ada", 1, 30], ["You", 2, 12]]);
  assert.deepStrictEqual(over.best, [[0, "CAT", 12], [1, "QUARTZ", 30]]);
  assert.deepStrictEqual(over.turns, [["played", "CAT", "QUARTZ"], ["played", "QUARTZ", "QUARTZ"], ["passed", null, "ZOO"], ["timed_out", null, null]]);
  assert.deepStrictEqual(over.message.say, "match_over");
  assert.strictEqual(over.message.won, false);
  assert.strictEqual(over.entry.over, true);
  assert.strictEqual(result.again, true);
  assert.strictEqual(result.secondClick, true);
  assert.deepStrictEqual(result.rematch, { "type": "rematch" });
  assert.deepStrictEqual(result.now, "m2");
  assert.deepStrictEqual(result.phase, "playing");
  assert.deepStrictEqual(result.ids, ["m2", "m1", "g"]);
});

test("a match resumes after a reload and follows a rematch from another tab", async () => {
  const result = await runMatch(async () => {
    const local = memory(), session = memory();
    const tab = () => {
      const sent = [];
      const store = new S.Store({ send: (m) => { sent.push(m); return true; },
                                  storage: S.savedGames(local, session), config, now: () => clock });
      store.onStatus({ state: "open", lost: false });
      return { store, sent };
    };
    const first = tab();
    first.store.onOpen();
    first.store.onMessage(snapshot());
    first.store.match.startMatch({ bots: ["hard"], rounds: 3, timed: true });
    first.store.onMessage(matchSnapshot());
    const reloaded = tab();  // the same tab after a reload: session storage names the match
    reloaded.store.onOpen();
    reloaded.store.onMessage(matchSnapshot());
    reloaded.store.onMessage({ type: "rematch", match_id: "m9" });
    // Back to the endless game: the newest game in "Your games".
    reloaded.store.onMessage(matchSnapshot({ match_id: "m9" }));
    reloaded.store.chooseMode("endless");
    return { resume: reloaded.sent[0], follow: reloaded.sent[1], back: reloaded.sent[2],
             timed: first.sent.at(-1) };
  });
  assert.deepStrictEqual(result.timed.turn_seconds, 30);
  assert.deepStrictEqual(result.timed.bots, [{ "level": "hard" }]);
  assert.deepStrictEqual(result.resume, { "type": "resume", "match_id": "m1", "token": "tok" });
  assert.deepStrictEqual(result.follow, { "type": "resume", "match_id": "m9", "token": "tok" });
  assert.deepStrictEqual(result.back, { "type": "resume", "game_id": "g", "token": "t" });
});

test("a gap in a match's versions asks for the match afresh, once, and late messages are dropped", async () => {
  const result = await runMatch(async () => {
    const { store, sent } = startMatch();
    const before = sent.length;
    store.onMessage(turn({ version: 1 }));  // in order
    const inOrder = store.state.match.turn;
    store.onMessage(turn({ turn: 0, turn_no: 3, version: 3 }));  // version 2 never came
    store.onMessage({ type: "gems", seat: 1, gems: 9, version: 4 });  // still missing 2: asked once
    const asked = sent.slice(before);
    store.onMessage(matchSnapshot({ turn: 0, turn_no: 3, version: 3 }));  // the match afresh
    store.onMessage(turn({ turn: 1, turn_no: 2, version: 2 }));  // a late one: older than the screen
    return { inOrder, asked, turn: store.state.match.turn, version: store.state.match.version };
  });
  assert.strictEqual(result.inOrder, 1);
  assert.deepStrictEqual(result.asked, [{ type: "resume", match_id: "m1", token: "tok" }]);
  assert.strictEqual(result.turn, 0);
  assert.strictEqual(result.version, 3);
});

test("a drag on an older version of the match than the one on screen is dropped", async () => {
  const result = await runMatch(async () => {
    const { store } = startMatch();
    store.onMessage(turn({ turn: 1, version: 1 }));
    store.onMessage(matchSnapshot({ turn: 0, turn_no: 3, version: 3 }));  // a process caught up
    // The bot's drag of turn 2 (version 1), published before that snapshot was read, comes after it.
    store.onMessage({ type: "chain", seat: 1, chain: [[0, 0], [0, 1]], word: "CA", points: 4,
                      status: "prefix", version: 1 });
    const late = S.currentChain(store.state).chain;
    // And one of the seat whose turn it is now, but from its turn before (version 2).
    store.onMessage({ type: "chain", seat: 0, chain: [[2, 2]], word: "R", points: 1,
                      status: "prefix", version: 2 });
    const lateOfThisSeat = S.currentChain(store.state).chain;
    store.onMessage({ type: "chain", seat: 0, chain: [[1, 1]], word: "O", points: 1,
                      status: "prefix", version: 3 });  // a drag on the match as shown
    const now = S.currentChain(store.state);
    store.onMessage({ type: "chain", seat: 0, chain: [[1, 1], [1, 2]], word: "ON", points: 2,
                      status: "word", version: 4 });  // one ahead: a change on its way, shown
    return { late, lateOfThisSeat, now, ahead: S.currentChain(store.state).chain };
  });
  assert.deepStrictEqual(result.late, []);
  assert.deepStrictEqual(result.lateOfThisSeat, []);
  assert.deepStrictEqual(result.now.chain, [[1, 1]]);
  assert.deepStrictEqual(result.now.seat, 0);
  assert.deepStrictEqual(result.ahead, [[1, 1], [1, 2]]);
});

test("a reply to my own move is taken even on an older version of the match", async () => {
  // (a page can be past its own process's copy for a moment: a snapshot from a catch-up)
  const result = await runMatch(async () => {
    const { store, sent } = startMatch();
    store.onMessage(matchSnapshot({ version: 3 }));
    store.press(0, 0);
    const seq = sent.at(-1).seq;
    store.onMessage({ type: "chain", seat: 0, chain: [[0, 0]], word: "C", points: 2,
                      status: "prefix", version: 2, seq });
    return { waiting: store.moves.waiting, chain: S.currentChain(store.state).chain };
  });
  assert.strictEqual(result.waiting, false);  // answered: nothing of ours is in flight
  assert.deepStrictEqual(result.chain, [[0, 0]]);
});

test("the match setup may choose the list's classic letter values instead of Spellcast's", async () => {
  const result = await runMatch(async () => {
    const made = make();
    made.store.onOpen();
    made.store.onMessage(snapshot());
    const chosen = made.store.match.setClassic(true);
    made.store.match.startMatch();
    made.store.match.setClassic(false);
    made.store.match.startMatch();
    return { chosen, sent: made.sent.slice(1).map((m) => [m.type, "values" in m ? m.values : "(none)"]) };
  });
  assert.strictEqual(result.chosen, true);
  // Unchosen, the message names no values: the server's default is Spellcast's.
  assert.deepStrictEqual(result.sent, [["new_match", "classic"], ["new_match", "(none)"]]);
});

test("an older snapshot of the match on screen is dropped, a newer one taken", async () => {
  const { store } = startMatch();
  store.onMessage(matchSnapshot({ version: 5, turn: 1, turn_no: 6 }));
  assert.equal(store.state.match.version, 5);
  store.onMessage(matchSnapshot({ version: 3, turn: 0, turn_no: 4 })); // another process, late
  assert.equal(store.state.match.version, 5);
  assert.equal(store.state.match.turn, 1);
  store.onMessage(matchSnapshot({ version: 7, turn: 0, turn_no: 8 }));
  assert.equal(store.state.match.version, 7);
});

test("a power this seat cannot pay for says what it costs, and sends nothing", async () => {
  const result = await runMatch(async () => {
    const { store, sent } = startMatch();
    store.state.match.seats[0].gems = 1;
    const before = sent.length;
    const used = store.match.usePower("hint");
    return { used, sent: sent.slice(before), message: store.state.message };
  });
  assert.strictEqual(result.used, false);
  assert.deepStrictEqual(result.sent, []);
  assert.deepStrictEqual([result.message.say, result.message.power, result.message.cost, result.message.gems], ["power_cost", "hint", 4, 1]);
});

test("an end screen's turn found the best word only for as many points as the best path", () => {
  const best = { word: "HASHEESHES", points: 54 };
  assert.strictEqual(M.foundTheBest({ played: { word: "HASHEESHES", points: 54 }, best }), true);
  assert.strictEqual(M.foundTheBest({ played: { word: "HASHEESHES", points: 32 }, best }), false);
  assert.strictEqual(M.foundTheBest({ played: { word: "HASH", points: 9 }, best }), false);
  assert.strictEqual(M.foundTheBest({ played: null, best }), false);
  assert.strictEqual(M.foundTheBest({ played: { word: "CAT", points: 5 }, best: null }), false);
});
