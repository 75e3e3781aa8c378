// A room in the page's store, as a unit: room.js's state from the server's messages, and
// room_moves.js's intents and replies (docs/protocol.md, "Rooms"). Driven with fake server
// messages and a recording `send`; each "reload" is a second Store on the same fake local
// storage. No page, no server (these ran in Chromium before).
import assert from "node:assert/strict";
import { test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import { memory, run } from "./support.js";

const ROOMS_KEY = "wibble.rooms"; // static/js/saved.js's ROOMS_KEY

// `make({room})` a Store on fake storage (`room`: the page is that room's link), recording
// what it sends; `roomMsg` a `room` snapshot (Ann hosts in seat 0 and this tab is hers);
// `roomMatch` a 3x3 match snapshot of that room.
const S = await import("../../static/js/store.js");
const R = await import("../../static/js/room.js");
const M = await import("../../static/js/match.js");
const P = await import("../../static/js/protocol.js");
const W = await import("../../static/js/view/wording.js");
const config = { wordlists: [{ name: "en", title: "English" }, { name: "es", title: "Español" }],
                 default_wordlist: "en" };
const person = (name, extra = {}) => ({ name, kind: "human", level: null, speed: 1, connected: true,
                                        away: false, score: 0, gems: 0, ...extra });
const bot = (level = "easy", extra = {}) => person("Ada", { kind: "bot", level, ...extra });
const roomMsg = (extra = {}) => ({
  type: "room", code: "K7QX2M", host: 0, seats: [person("Ann"), null, null, null, null, null],
  spectators: 0, rules: { rounds: 5, turn_seconds: null, wordlist: "en", stand_in: "easy" }, match: null,
  you: 0, token: "tok0", name: "Ann", grace: 120, version: 1, ...extra,
});
const mtile = (letter) => ({ letter, score: 1, mult: null, word_mult: null, gem: false });
const roomMatch = (extra = {}) => ({
  type: "match", room: "K7QX2M", match_id: "rm1", you: 0, seed: 5, wordlist: "en", wordlist_title: "English",
  language: "en", min_length: 3, letters: { A: {}, C: {} }, size: 3,
  seats: [{ name: "Ann", kind: "human", level: null, score: 0, gems: 3, speed: 1, connected: true },
          { name: "Bo", kind: "human", level: null, score: 0, gems: 3, speed: 1, connected: true }],
  round: 1, rounds: 1, turn: 0, turn_no: 1, deadline: null, remaining: null, phase: "playing",
  board: [[mtile("C"), mtile("A"), mtile("T")], [mtile("S"), mtile("O"), mtile("N")],
          [mtile("D"), mtile("E"), mtile("R")]],
  chain: [], word: "", points: 0, status: "none", words_left: 9, history: [],
  costs: { shuffle: 1, swap: 3, hint: 4, extend: 1 }, gem_cap: 10,
  settings: { rounds: 1, turn_seconds: null }, version: 0, ...extra,
});
const running = { match_id: "rm1", phase: "playing", round: 1, rounds: 1 };
const two = () => [person("Ann"), person("Bo"), null, null, null, null]; // Ann and Bo seated
const refusal = (code, request, message = "no") => ({ type: "error", code, message, request });
const make = ({ room = null, local = memory(), gone = false, now = () => 1000 } = {}) => {
  const sent = [];
  const store = new S.Store({ send: (m) => { sent.push(m); return true; },
                              storage: S.savedGames(memory(), memory()), rooms: S.savedRooms(local),
                              config: room ? { ...config, room, ...(gone && { room_gone: true }) } : config,
                              now });
  const events = [];
  store.subscribe((state, event) => events.push(event));
  store.onStatus({ state: "open", lost: false });
  return { store, sent, local, events };
};
const stored = (local) => JSON.parse(local.getItem("wibble.rooms") ?? "null");
const reconnect = (store) => {
  store.onStatus({ state: "waiting", lost: true, retryAt: 0 });
  store.onStatus({ state: "open", lost: true });
  store.onOpen();
};

test("a room snapshot its seats and what each may do", async () => {
  const result = await run(async () => {
    const markup = "<img src=x onerror=1>";
    const room = R.roomOf(roomMsg({ seats: [person("Ann"), bot("hard", { speed: 2 }), null,
                                            person(markup, { connected: false }), null, "junk"] }));
    const watcher = R.roomOf(roomMsg({ you: null, token: undefined }));
    const alone = R.roomOf(roomMsg());
    const busy = R.roomOf(roomMsg({ match: running, seats: [person("Ann"), bot(), null, null, null] }));
    R.applyPresence(room, { type: "presence", seat: 3, connected: false, away: true });
    R.applySpectators(room, { type: "spectators", count: 4 });
    return {
      seats: room.seats.map((s) => s && [s.index, s.name, s.kind, s.level, s.speed]),
      host: [R.isHost(room), R.isHost(watcher), R.hostName(watcher)],
      start: [R.startCheck(room), R.startCheck(alone), R.startCheck(watcher), R.startCheck(busy)],
      take: [R.canTakeSeat(watcher, 1), R.canTakeSeat(watcher, 0), R.canTakeSeat(room, 2),
             R.canTakeSeat(R.roomOf(roomMsg({ you: null, match: running })), 1)],
      leave: [R.canLeaveSeat(room), R.canLeaveSeat(watcher), R.canLeaveSeat(busy)],
      remove: [R.canRemove(room, 1), R.canRemove(room, 0), R.canRemove(room, 2), R.canRemove(busy, 1)],
      presence: room.seats.map((s) => s && R.presenceOf(s)),
      spectators: room.spectators, rules: room.rules, you: [room.you, watcher.you],
    };
  });
  assert.deepStrictEqual(result.seats, [[0, "Ann", "human", null, 1], [1, "Ada", "bot", "hard", 2], null, [3, "<img src=x onerror=1>", "human", null, 1], null, null, null, null]);
  assert.deepStrictEqual(result.host, [true, false, "Ann"]);
  assert.deepStrictEqual(result.start, [{ "ok": true, "why": null }, { "ok": false, "why": "too_few" }, { "ok": false, "why": "not_host" }, { "ok": false, "why": "running" }]);
  assert.deepStrictEqual(result.take, [true, false, false, false]);
  assert.deepStrictEqual(result.leave, [true, false, false]);
  assert.deepStrictEqual(result.remove, [true, false, false, false]);
  assert.deepStrictEqual(result.presence, ["online", "bot", null, "away", null, null, null, null]);
  assert.deepStrictEqual(result.spectators, 4);
  assert.deepStrictEqual(result.rules, { "rounds": 5, "turnSeconds": null, "wordlist": "en", "standIn": "easy", "values": "spellcast", "mode": "match", "raceSeconds": 120 });
  assert.deepStrictEqual(result.you, [0, null]);
});

test("names and codes are checked as the server checks them", async () => {
  const result = await run(async () => {
    return {
      names: ["  Ann  ", "", "   ", "x".repeat(20), "x".repeat(21), "👩‍🚀".repeat(4), "<b>x</b><i>y</i>"]
        .map((n) => P.nameOf(n)),
      codes: ["k7qx2m", " K7QX2M ", "K7QX2", "K7QX2O", "K1QX2M", "K7QX2MM",
              "http://localhost:8000/r/k7qx2m", " https://wibble.example/r/K7QX2M?x=1 ", "example.org/r/K7QX2MM",
              "Room K7QX2M", "k7q x2m", "K7Q-X2M"]
        .map((c) => P.roomCodeOf(c)),
      join: [P.joinRoom("K7QX2M", "Bo"), P.joinRoom("K7QX2M", "Bo", "t")],
      seat: [P.setSeat(2, { bot: "hard" }), P.setSeat(2, { speed: 3 })],
    };
  });
  // 1-20 characters once trimmed, counted by code point (an emoji sequence is several).
  assert.deepStrictEqual(result.names, ["Ann", null, null, "x".repeat(20), null, "👩‍🚀".repeat(4), "<b>x</b><i>y</i>"]);
  assert.deepStrictEqual(result.codes, ["K7QX2M", "K7QX2M", null, null, null, null, "K7QX2M", "K7QX2M", null,
                                        "K7QX2M", "K7QX2M", "K7QX2M"]);
  assert.deepStrictEqual(result.join, [{ "type": "join_room", "code": "K7QX2M", "name": "Bo" }, { "type": "join_room", "code": "K7QX2M", "name": "Bo", "token": "t" }]);
  assert.deepStrictEqual(result.seat, [{ "type": "set_seat", "seat": 2, "bot": "hard" }, { "type": "set_seat", "seat": 2, "speed": 3 }]);
});

test("creating a room checks the name keeps the token and rejoins with it", async () => {
  const result = await run(async () => {
    const { store, sent, local, events } = make();
    store.room.showFriends();
    const form = { mode: store.state.mode, step: store.state.join.step };
    const blank = store.room.createRoom("   ");
    const error = store.state.join.error;
    const long = store.room.createRoom("x".repeat(21));
    store.room.createRoom("  Ann ");
    const twice = store.room.createRoom("Ann");  // one at a time
    store.onMessage(roomMsg());
    const created = events.at(-1);
    const state = { mode: store.state.mode, step: store.state.join.step, code: store.state.join.code,
                    message: store.state.message.say, games: store.state.games.length };
    reconnect(store);
    return { form, blank, error, long, twice, created, state, sent, stored: stored(local),
             name: local.getItem("wibble.name") };
  });
  assert.deepStrictEqual(result.form, { "mode": "room", "step": "create" });
  assert.strictEqual(result.blank, false);
  assert.deepStrictEqual(result.error, { "say": "name_length", "name": true });
  assert.strictEqual(result.long, false);
  assert.strictEqual(result.twice, false);
  assert.deepStrictEqual(result.created, { "type": "room", "created": true, "code": "K7QX2M" });
  assert.deepStrictEqual(result.state, { "mode": "room", "step": "in", "code": "K7QX2M", "message": "room_created", "games": 0 });
  assert.deepStrictEqual(result.sent, [{ "type": "create_room", "name": "Ann" }, { "type": "join_room", "code": "K7QX2M", "name": "Ann", "token": "tok0" }]);
  assert.deepStrictEqual(result.stored.K7QX2M.token, "tok0");
  assert.deepStrictEqual(result.name, "Ann");
});

test("a rooms link asks for a name once then joins at once", async () => {
  const result = await run(async () => {
    const first = make({ room: "K7QX2M" });
    first.store.onOpen();
    const { join, mode } = first.store.state;
    const asked = { step: join.step, sent: first.sent.length, mode };
    first.store.room.joinRoom("  Bo ");
    const joining = first.store.state.join.step;
    first.store.onMessage(roomMsg({ you: null, token: undefined, name: "Bo", spectators: 1 }));
    const watching = { you: first.store.state.room.you, say: first.store.state.message.say };
    // A reload: the same browser's storage, a new page on the same link.
    const again = make({ room: "K7QX2M", local: first.local });
    const before = again.store.state.join.step;
    again.store.onOpen();
    return { asked, joining, watching, sent: first.sent, before, again: again.sent,
             stored: stored(first.local) };
  });
  assert.deepStrictEqual(result.asked, { "step": "name", "sent": 0, "mode": "room" });
  assert.deepStrictEqual(result.joining, "joining");
  assert.deepStrictEqual(result.sent, [{ "type": "join_room", "code": "K7QX2M", "name": "Bo" }]);
  assert.deepStrictEqual(result.watching, { "you": null, "say": "room_watching" });
  assert.deepStrictEqual(result.before, "joining");
  assert.deepStrictEqual(result.again, [{ "type": "join_room", "code": "K7QX2M", "name": "Bo" }]);
  assert.strictEqual(result.stored.K7QX2M.token, null);
});

test("no such room says so and forgets it", async () => {
  const result = await run(async () => {
    const local = memory();
    S.savedRooms(local).save("K7QX2M", "old", "Bo");
    const { store } = make({ room: "K7QX2M", local });
    store.onOpen();
    store.onMessage(refusal("room/not_found", "join_room"));
    const step = store.state.join.step;
    reconnect(store);  // and no join is sent again
    return { step, stored: stored(local), after: store.state.join.step };
  });
  assert.deepStrictEqual(result.step, "gone");
  assert.deepStrictEqual(result.after, "gone");
  assert.deepStrictEqual(result.stored, {  });
});

test("a link the server knows no room for says so at once: no name asked, nothing sent", async () => {
  const result = await run(async () => {
    const local = memory();
    S.savedRooms(local).save("K7QX2M", "old", "Bo");
    const { store, sent, events } = make({ room: "K7QX2M", local, gone: true });
    const first = store.state.join.step;
    store.onOpen();
    reconnect(store);
    return { first, step: store.state.join.step, sent, stored: stored(local), mode: store.state.mode,
             events: events.map((e) => e.type) };
  });
  assert.deepStrictEqual(result.first, "gone");
  assert.deepStrictEqual(result.step, "gone");
  assert.deepStrictEqual(result.mode, "room");
  assert.deepStrictEqual(result.stored, {  });
  assert.deepStrictEqual(result.sent, []);
  assert.ok(result.events.includes("join"));
});

test("a refused name is said beside the field", async () => {
  const result = await run(async () => {
    const link = make({ room: "K7QX2M" });
    link.store.room.joinRoom("Bo​");
    link.store.onMessage(refusal("protocol/bad_field", "join_room", "name: invisible characters"));
    const host = make();
    host.store.room.showFriends();
    host.store.room.createRoom("Ann");
    host.store.onMessage(refusal("limit/rooms", "create_room", "too many rooms"));
    return { link: link.store.state.join, host: host.store.state.join };
  });
  assert.deepStrictEqual(result.link.step, "name");
  assert.deepStrictEqual(result.link.error.text, "name: invisible characters");
  assert.strictEqual(result.link.error.name, true);
  assert.deepStrictEqual(result.host.step, "create");
  assert.deepStrictEqual(result.host.error.text, "too many rooms");
});

test("a rooms match is not one of your games and a spectator only watches", async () => {
  const result = await run(async () => {
    const { store, sent } = make({ room: "K7QX2M" });
    store.room.joinRoom("Cy");
    store.onMessage(roomMsg({ you: null, token: undefined, name: "Cy", match: running,
                              seats: [person("Ann"), person("Bo"), null, null, null, null] }));
    store.onMessage(roomMatch({ you: null }));
    const state = store.state;
    const shown = { mode: state.mode, you: state.match.you, room: state.match.room,
                    games: state.games.length, ref: store.ref, live: state.live };
    const pressed = store.press(0, 0);
    const said = state.message.say;
    const powers = ["shuffle", "swap", "hint", "extend"].map((p) => store.match.usePower(p));
    const passed = store.match.pass();
    // Another seat's drag shows, and is never this tab's.
    store.onMessage({ type: "chain", seat: 0, chain: [[0, 0], [0, 1]], word: "CA", points: 2,
                      status: "prefix" });
    const chain = S.currentChain(state);
    const count = sent.length;
    reconnect(store);
    return { shown, pressed, said, powers, passed, chain: [chain.word, chain.mine, chain.seat],
             count, rejoin: sent.slice(count) };
  });
  assert.deepStrictEqual(result.shown, { "mode": "room", "you": null, "room": "K7QX2M", "games": 0, "ref": null, "live": true });
  assert.strictEqual(result.pressed, false);
  assert.deepStrictEqual(result.said, "watching");
  assert.deepStrictEqual(result.powers, [false, false, false, false]);
  assert.strictEqual(result.passed, false);
  assert.deepStrictEqual(result.chain, ["CA", false, 0]);
  assert.deepStrictEqual(result.count, 1);
  assert.deepStrictEqual(result.rejoin, [{ "type": "join_room", "code": "K7QX2M", "name": "Cy" }]);
});

test("a seated players room match plays and stays out of your games", async () => {
  const result = await run(async () => {
    const { store, sent } = make();
    store.room.showFriends();
    store.room.createRoom("Ann");
    store.onMessage(roomMsg({ seats: [person("Ann"), person("Bo"), null, null, null, null] }));
    store.room.startRoomMatch();
    store.onMessage(roomMsg({ token: undefined, match: running, seats: two() }));
    store.onMessage(roomMatch());
    const announced = store.state.message.say;
    store.press(0, 0);
    store.onMessage({ type: "played", seat: 0, word: "CAT", path: [[0, 0], [0, 1], [0, 2]], points: 5,
                      breakdown: [], gems_earned: 0, score: 5, version: 1 });
    const ranking = [{ seat: 0, rank: 1, score: 5 }, { seat: 1, rank: 2, score: 0 }];
    store.onMessage({ type: "match_over", ranking, best_words: [], turns: [] });
    const over = { phase: store.state.match.phase, note: store.state.room.match.phase,
                   canStart: R.canStart(store.state.room), games: store.state.games.length };
    store.match.rematch();
    return { sent: sent.map((m) => m.type), announced, over, last: sent.at(-1) };
  });
  assert.deepStrictEqual(result.sent, ["create_room", "start_match", "press", "rematch"]);
  assert.deepStrictEqual(result.announced, "match_new_you_first");
  // match_over reaches the room's note of its match: the host may start again.
  assert.deepStrictEqual(result.over, { "phase": "over", "note": "over", "canStart": true, "games": 0 });
  assert.deepStrictEqual(result.last, { "type": "rematch" });
});

test("presence reaches the room and its match", async () => {
  const result = await run(async () => {
    const { store } = make({ room: "K7QX2M" });
    store.room.joinRoom("Ann");
    store.onMessage(roomMsg({ match: running, seats: two() }));
    store.onMessage(roomMatch());
    const seen = [];
    const { room, match } = store.state;
    const look = () => seen.push([room, match].map((r) => R.presenceOf(r.seats[1])));
    const said = [];
    const heard = () => said.push(W.messageText(store.state.message));
    store.onMessage({ type: "presence", seat: 1, connected: false, away: false }); look();
    store.onMessage({ type: "presence", seat: 1, connected: false, away: true }); look(); heard();
    store.onMessage({ type: "presence", seat: 1, connected: true, away: false }); look(); heard();
    store.onMessage({ type: "spectators", count: 3 });
    return { seen, said, spectators: store.state.room.spectators };
  });
  assert.deepStrictEqual(result.seen, [["offline", "offline"], ["away", "away"], ["online", "online"]]);
  // Mid-match, a seat passing to a stand-in and back is said to the others.
  assert.deepStrictEqual(result.said, ["Bo is away: a stand-in bot plays their seat.", "Bo is back in their seat."]);
  assert.deepStrictEqual(result.spectators, 3);
});

test("removed takes the seat and its token away", async () => {
  const result = await run(async () => {
    const local = memory();
    S.savedRooms(local).save("K7QX2M", "tok1", "Bo");
    const { store } = make({ room: "K7QX2M", local });
    store.onOpen();
    store.onMessage(roomMsg({ you: 1, token: "tok1", name: "Bo", match: running,
                              seats: [person("Ann"), person("Bo"), null, null, null, null] }));
    store.onMessage(roomMatch({ you: 1 }));
    store.onMessage({ type: "removed" });
    const said = store.state.message.say;
    store.onMessage(roomMsg({ you: null, token: undefined, name: "Bo", match: running,
                              seats: [person("Ann"), person("Bo", { away: true }), null, null] }));
    return { said, after: store.state.message.say, you: [store.state.room.you, store.state.match.you],
             stored: stored(local) };
  });
  assert.deepStrictEqual(result.said, "room_removed");
  assert.deepStrictEqual(result.after, "room_removed");
  assert.deepStrictEqual(result.you, [null, null]);
  assert.strictEqual(result.stored.K7QX2M.token, null);
});

test("the hosts commands and nobody elses", async () => {
  const result = await run(async () => {
    const host = make({ room: "K7QX2M" });
    host.store.room.joinRoom("Ann");
    host.store.onMessage(roomMsg({ seats: [person("Ann"), bot(), null, person("Bo"), null, null] }));
    const s = host.store.room;
    const results = [
      s.setRules({ rounds: "3" }), s.setRules({ rounds: "99" }), s.setRules({ rounds: "x" }),
      s.setRules({ timed: true }), s.setRules({ timed: false }), s.setRules({ wordlist: "es" }),
      s.setRules({ wordlist: "nope" }), s.setRules({ standIn: "hard" }), s.setRules({ standIn: "super" }),
      s.setSeatBot(2, "medium"), s.setSeatBot(1, "hard"), s.setSeatBot(3, "hard"),
      s.setSeatSpeed(0, "2"), s.setSeatSpeed(2, "2"), s.setSeatSpeed(1, "9"),
      s.removeSeat(1), s.removeSeat(3), s.removeSeat(3), s.removeSeat(0), s.removeSeat(4),
      s.startRoomMatch(),
    ];
    const guest = make({ room: "K7QX2M" });
    guest.store.room.joinRoom("Bo");
    guest.store.onMessage(roomMsg({ you: 3, token: "tok3", name: "Bo",
                                    seats: [person("Ann"), bot(), null, person("Bo"), null, null] }));
    const g = guest.store.room;
    const refused = [g.setRules({ rounds: 3 }), g.setSeatBot(2, "easy"), g.setSeatSpeed(3, 2),
                     g.removeSeat(1), g.startRoomMatch(), guest.store.match.rematch(), g.takeSeat(2)];
    // Once a match is on, the host changes nothing until it ends.
    host.store.onMessage(roomMsg({ match: running, seats: [person("Ann"), bot(), null, person("Bo")] }));
    const busy = [s.setRules({ rounds: 2 }), s.setSeatBot(2, "easy"), s.startRoomMatch(), s.leaveSeat()];
    return { results, sent: host.sent.slice(1), refused, guestSent: guest.sent.length, busy,
             hostSent: host.sent.length };
  });
  // (A bot's seat is taken at once; a person's at the second press: the first only asks.)
  assert.deepStrictEqual(result.results, [true, true, false, true, true, true, false, true, false, true, true, false, true, false, false, true, false, true, false, false, true]);
  assert.deepStrictEqual(result.sent, [{ "type": "set_rules", "rounds": 3 }, { "type": "set_rules", "rounds": 20 }, { "type": "set_rules", "turn_seconds": 30 }, { "type": "set_rules", "turn_seconds": null }, { "type": "set_rules", "wordlist": "es" }, { "type": "set_rules", "stand_in": "hard" }, { "type": "set_seat", "seat": 2, "bot": "medium" }, { "type": "set_seat", "seat": 1, "bot": "hard" }, { "type": "set_seat", "seat": 0, "speed": 2 }, { "type": "remove", "seat": 1 }, { "type": "remove", "seat": 3 }, { "type": "start_match" }]);
  assert.deepStrictEqual(result.refused, Array(7).fill(false));
  assert.deepStrictEqual(result.guestSent, 1);
  assert.deepStrictEqual(result.busy, Array(4).fill(false));
  assert.deepStrictEqual(result.hostSent, 13);
});

test("sitting getting up and leaving", async () => {
  const result = await run(async () => {
    const { store, sent, local, events } = make({ room: "K7QX2M" });
    store.room.joinRoom("Cy");
    store.onMessage(roomMsg({ you: null, token: undefined, name: "Cy" }));
    const taken = store.room.takeSeat(0);
    const sat = store.room.takeSeat(2);
    const cy = [person("Ann"), null, person("Cy")];
    store.onMessage(roomMsg({ you: 2, token: "tok2", name: "Cy", seats: cy }));
    const seated = { say: store.state.message.say, token: stored(local).K7QX2M.token };
    const up = store.room.leaveSeat();
    store.onMessage(roomMsg({ you: null, token: undefined, name: "Cy" }));
    const watching = { say: store.state.message.say, token: stored(local).K7QX2M.token };
    store.room.leaveRoom();
    return { taken, sat, up, seated, watching, sent: sent.slice(1), left: events.at(-1),
             stored: stored(local) };
  });
  assert.strictEqual(result.taken, false);
  assert.strictEqual(result.sat, true);
  assert.deepStrictEqual(result.seated, { "say": "room_seated", "token": "tok2" });
  assert.strictEqual(result.up, true);
  assert.deepStrictEqual(result.watching, { "say": "room_got_up", "token": null });
  assert.deepStrictEqual(result.sent, [{ "type": "take_seat", "seat": 2 }, { "type": "leave_seat" }, { "type": "leave_room" }]);
  assert.deepStrictEqual(result.left, { "type": "leave_page", "to": { "home": true } });
  assert.deepStrictEqual(result.stored, {  });
});

test("a seat given under another name says so: someone there goes by the one asked for", async () => {
  const result = await run(async () => {
    const { store } = make({ room: "K7QX2M" });
    store.room.joinRoom("Ann");
    store.onMessage(roomMsg({ you: null, token: undefined, name: "Ann" }));
    store.room.takeSeat(2);
    store.onMessage(roomMsg({ you: 2, token: "tok2", name: "Ann 2", seats: [person("Ann"), null, person("Ann 2")] }));
    return { text: W.messageText(store.state.message), name: store.state.join.name };
  });
  assert.deepStrictEqual(result.text, "You sat down in seat 3 as Ann 2: someone here goes by Ann already.");
  assert.deepStrictEqual(result.name, "Ann 2");
});

test("leaving mid-match asks once: a second press within a few seconds leaves, a late one asks again", async () => {
  const result = await run(async () => {
    let clock = 1000;
    const { store, sent, events } = make({ room: "K7QX2M", now: () => clock });
    store.room.joinRoom("Bo");
    store.onMessage(roomMsg({ you: 1, token: "tok1", name: "Bo", match: running, seats: two() }));
    const before = sent.length;
    const first = store.room.leaveRoom();
    const asked = { say: store.state.message.say, text: W.messageText(store.state.message), lasts: store.state.message.lasts,
                    sent: sent.length - before, asked: R.leaveAsked(store.state, clock) };
    clock += R.LEAVE_CONFIRM_MS + 1; // too late: it asks again
    const late = store.room.leaveRoom();
    clock += 2000;
    const second = store.room.leaveRoom();
    return { first, asked, late, second, sent: sent.slice(before), left: events.at(-1) };
  });
  assert.strictEqual(result.first, false);
  assert.deepStrictEqual(result.asked.say, "leave_confirm");
  assert.match(result.asked.text, /^Leave the room\? A bot plays your seat until the match ends/);
  assert.deepStrictEqual([result.asked.sent, result.asked.asked], [0, true]);
  assert.strictEqual(result.asked.lasts, R.LEAVE_CONFIRM_MS); // the line asks only while a press leaves
  assert.strictEqual(result.late, false);
  assert.strictEqual(result.second, true);
  assert.deepStrictEqual(result.sent, [{ "type": "leave_room" }]);
  assert.deepStrictEqual(result.left, { "type": "leave_page", "to": { "home": true } });
});

test("the mode switch on a rooms page goes to the main page", async () => {
  const result = await run(async () => {
    const { store, events } = make({ room: "K7QX2M" });
    store.chooseMode("endless");
    const endless = events.at(-1);
    store.chooseMode("match");
    const match = events.at(-1);
    const friends = store.chooseMode("room");  // already there
    const home = make();
    home.store.chooseMode("room");
    const shown = [home.store.state.mode, home.store.state.join.step];
    home.store.room.goToRoom("k7qx2m");
    const go = home.events.at(-1);
    const bad = home.store.room.goToRoom("nope");
    return { endless, match, friends, shown, go, bad, error: home.store.state.join.error };
  });
  assert.deepStrictEqual(result.endless, { "type": "leave_page", "to": { "mode": "endless" } });
  assert.deepStrictEqual(result.match, { "type": "leave_page", "to": { "mode": "match" } });
  assert.strictEqual(result.friends, false);
  assert.deepStrictEqual(result.shown, ["room", "create"]);
  assert.deepStrictEqual(result.go, { "type": "leave_page", "to": { "room": "K7QX2M" } });
  assert.strictEqual(result.bad, false);
  assert.deepStrictEqual(result.error, { "say": "bad_code", "code": true });
});

test("saved rooms survive bad storage", async () => {
  const result = await run(async () => {
    const local = memory();
    local.setItem("wibble.rooms", "[1, 2]");
    const rooms = S.savedRooms(local);
    const fromJunk = rooms.get("K7QX2M");
    rooms.save("K7QX2M", "tok", "Ann");
    local.setItem("wibble.rooms", JSON.stringify({ ...stored(local), BAD: "x", OTHER: { token: 5 } }));
    const blocked = { getItem() { throw new Error("no"); }, setItem() { throw new Error("no"); } };
    const none = S.savedRooms(blocked);
    return { fromJunk, got: rooms.get("K7QX2M"), bad: rooms.get("BAD"), other: rooms.get("OTHER"),
             proto: rooms.get("__proto__"),
             blocked: [none.get("K7QX2M"), none.save("K7QX2M", "t"), none.name()] };
  });
  assert.strictEqual(result.fromJunk, null);
  assert.deepStrictEqual(result.got, { "token": "tok", "name": "Ann" });
  assert.strictEqual(result.bad, null);
  assert.deepStrictEqual(result.other, { "token": null, "name": "" });
  assert.strictEqual(result.proto, null);
  assert.deepStrictEqual(result.blocked, [null, false, ""]);
});

for (const [code, say] of [["room/removed", "room_removed"], ["room/bad_token", "room_seat_lost"]]) {
  test(`a token that opens no seat is forgotten and the tab watches (${code})`, async () => {
    const result = await run(async () => {
      const local = memory();
      S.savedRooms(local).save("K7QX2M", "old", "Bo");
      const { store, sent } = make({ room: "K7QX2M", local });
      store.onOpen();
      store.onMessage(refusal(code, "join_room"));
      const said = store.state.message.say;
      store.onMessage(roomMsg({ you: null, token: undefined, name: "Bo" }));
      return { sent, said, stored: stored(local), screen: store.state.join.step };
    });
    assert.deepStrictEqual(result.sent, [
      { type: "join_room", code: "K7QX2M", name: "Bo", token: "old" },
      { type: "join_room", code: "K7QX2M", name: "Bo" },
    ]);
    assert.deepStrictEqual(result.said, say);
    assert.strictEqual(result.stored.K7QX2M.token, null);
    assert.deepStrictEqual(result.screen, "in");
  });
}

test("a 2v2: its lobby's four seats in two teams, a teammate's marks, and the team totals", async () => {
  const result = await run(async () => {
    const teams = { rounds: 5, turn_seconds: null, wordlist: "en", stand_in: "easy", mode: "teams" };
    const room = R.roomOf(roomMsg({ rules: teams }));
    const watcher = R.roomOf(roomMsg({ rules: teams, you: null, seats: two() }));
    const four = ["Ann", "Bo", "Cy", "Di"].map((name) => person(name, { score: 10 }));
    const match = M.matchOf(roomMatch({ seats: four, teams: [0, 1, 0, 1], you: 2 }), 0);
    const before = M.canSuggest(match);
    M.applySuggestion(match, { type: "suggestion", seat: 2, marks: [[0, 1], [1, 1]] });
    M.applySuggestion(match, { type: "suggestion", seat: 0, marks: [[0, 1]] });
    const marked = [...M.markedTiles(match)];
    const { store, sent } = make();
    store.onMessage(roomMsg({ rules: teams, seats: four }));
    store.onMessage(roomMatch({ seats: four, teams: [0, 1, 0, 1], you: 2 }));
    const tapped = store.match.suggest(1, 2);
    const nothingToClear = store.match.clearSuggestions();
    store.onMessage({ type: "suggestion", seat: 2, marks: [[1, 2]] });
    const cleared = store.match.clearSuggestions() && sent.at(-1);
    M.applyTurn(match, { type: "turn", turn: 1, round: 1, turn_no: 2, phase: "playing" }, 0);
    return {
      shown: R.seatsShown(room).length,
      teamOf: [0, 1, 2, 3, 4].map((i) => R.teamOfSeat(room, i)),
      start: R.startCheck(room),
      take: [R.canTakeSeat(watcher, 2), R.canTakeSeat(watcher, 4)],
      before, marked, tapped, sent: sent.at(-2), nothingToClear, cleared,
      after: [M.canSuggest(match), match.marks.size],
      totals: M.teamTotals(match),
    };
  });
  assert.equal(result.shown, 4);
  assert.deepStrictEqual(result.teamOf, [0, 1, 0, 1, null]);
  assert.deepStrictEqual(result.start, { ok: true, why: null }); // bots fill the empty seats
  assert.deepStrictEqual(result.take, [true, false]);
  assert.equal(result.before, true); // Ann (A1) plays: Cy (A2) may mark tiles for her
  assert.deepStrictEqual(result.marked, [["0,1", ["you", "Ann"]], ["1,1", ["you"]]]);
  assert.equal(result.tapped, true);
  assert.deepStrictEqual(result.sent, { type: "suggest", row: 1, col: 2 });
  assert.equal(result.nothingToClear, false);
  assert.deepStrictEqual(result.cleared, { type: "suggest" }); // Escape takes this seat's marks back
  assert.deepStrictEqual(result.after, [false, 0]); // team B's turn: no marks, none to make
  assert.deepStrictEqual(result.totals, [20, 20]);
});

test("the form to make a room offers the way back to the room this browser holds a seat in", async () => {
  const result = await run(async () => {
    const local = memory();
    let clock = Date.now() - 2 * 24 * 3600 * 1000;
    const rooms = S.savedRooms(local, { now: () => clock });
    rooms.save("GONE11", "tok-gone", "Bo"); // two days ago: long closed, most likely
    clock = Date.now() - 60_000;
    rooms.save("OLD111", "tok-old", "Bo");
    clock += 1;
    rooms.save("K7QX2M", "tok", "Bo"); // the latest, with a seat
    clock += 1;
    rooms.save("WATCH1", null, "Bo"); // only watched: nothing to go back to
    const { store } = make({ local });
    return { back: store.state.join.back, none: S.savedRooms(memory()).latest() };
  });
  assert.deepStrictEqual(result.back, { code: "K7QX2M", name: "Bo" });
  assert.deepStrictEqual(result.none, null);
});

test("the host hears who sits down, moves and gets up in the lobby, but not the seats a match's start moves", async () => {
  const result = await run(async () => {
    const { store } = make({ room: "K7QX2M" });
    store.room.joinRoom("Ann");
    store.onMessage(roomMsg());
    const said = () => W.messageText(store.state.message);
    store.onMessage(roomMsg({ seats: [person("Ann"), null, person("Bo"), null, null, null], version: 2 }));
    const sat = said();
    store.onMessage(roomMsg({ seats: [person("Ann"), null, null, person("Bo"), null, null], version: 3 }));
    const moved = said();
    store.onMessage(roomMsg({ seats: [person("Ann"), bot(), null, person("Bo"), null, null], version: 4 }));
    const bots = said(); // a bot is the host's own doing: nothing new said
    store.onMessage(roomMsg({ seats: [person("Ann"), bot(), null, null, null, null], version: 5 }));
    const left = said();
    store.onMessage(roomMsg({ seats: [person("Ann"), person("Cy"), null, null, null, null], version: 6, match: running }));
    const started = said();
    return { sat, moved, bots, left, started };
  });
  assert.strictEqual(result.sat, "Bo sat down in seat 3.");
  assert.strictEqual(result.moved, "Bo moved to seat 4.");
  assert.strictEqual(result.bots, "Bo moved to seat 4.");
  assert.strictEqual(result.left, "Bo left their seat.");
  assert.strictEqual(result.started, result.left); // a start's moves say nothing new
});

/** Ann hosts, Bo sits in seat 4; `clock.now` is the tab's clock (ms). */
const hostWithBo = (clock) => {
  const made = make({ room: "K7QX2M", now: () => clock.now });
  made.store.room.joinRoom("Ann");
  made.store.onMessage(roomMsg({ seats: [person("Ann"), null, null, person("Bo"), null, null] }));
  return { ...made, before: made.sent.length };
};

test("removing a person asks once: a second press within a few seconds removes, a late one asks again", async () => {
  const result = await run(async () => {
    const clock = { now: 1000 };
    const { store, sent, before } = hostWithBo(clock);
    const first = store.room.removeSeat(3);
    const asked = { text: W.messageText(store.state.message), lasts: store.state.message.lasts,
                    seat: R.removeAsked(store.state, clock.now) };
    clock.now += R.LEAVE_CONFIRM_MS + 1;
    const late = store.room.removeSeat(3);
    clock.now += 1000;
    const second = store.room.removeSeat(3);
    store.onMessage(roomMsg({ seats: [person("Ann"), null, null, null, null, null], version: 2 }));
    return { first, asked, late, second, sent: sent.slice(before), told: W.messageText(store.state.message) };
  });
  assert.strictEqual(result.told, "You removed Bo: they are watching.");
  assert.strictEqual(result.first, false);
  assert.match(result.asked.text, /^Remove Bo\? They lose the seat and are left watching\./);
  assert.deepStrictEqual([result.asked.lasts, result.asked.seat], [R.LEAVE_CONFIRM_MS, 3]);
  assert.strictEqual(result.late, false);
  assert.strictEqual(result.second, true);
  assert.deepStrictEqual(result.sent, [{ "type": "remove", "seat": 3 }]);
});

test("someone who comes to watch mid-match is told a seat waits for the match's end", async () => {
  const result = await run(async () => {
    const late = make({ room: "K7QX2M" });
    late.store.room.joinRoom("Di");
    late.store.onMessage(roomMsg({ you: null, token: undefined, name: "Di", match: running, seats: two() }));
    const between = make({ room: "K7QX2M" });
    between.store.room.joinRoom("Di");
    between.store.onMessage(roomMsg({ you: null, token: undefined, name: "Di", seats: two() }));
    return [W.messageText(late.store.state.message), W.messageText(between.store.state.message)];
  });
  assert.deepStrictEqual(result, ["You are watching. A free seat can be taken once the match is over.",
                                  "You are watching. Take a free seat to play."]);
});

test("a Remove asked about one person never removes another who sat in that seat meanwhile", async () => {
  const result = await run(async () => {
    const clock = { now: 1000 };
    const { store, sent, before } = hostWithBo(clock);
    store.room.removeSeat(3); // asks about Bo
    clock.now += 1000;
    store.onMessage(roomMsg({ seats: [person("Ann"), null, null, person("Cy"), null, null], version: 2 }));
    const cy = store.room.removeSeat(3); // Cy sits there now: asked about afresh
    return { cy, said: W.messageText(store.state.message), sent: sent.slice(before) };
  });
  assert.strictEqual(result.cy, false);
  assert.match(result.said, /^Remove Cy\?/);
  assert.deepStrictEqual(result.sent, []);
});

test("a seat whose person left mid-match does not count toward a rematch", () => {
  const over = { match_id: "rm1", phase: "over", round: 1, rounds: 1 };
  const left = R.roomOf(roomMsg({ match: over, seats: [person("Ann"), person("Bo", { away: true, gone: true }), null, null, null, null] }));
  assert.deepStrictEqual(R.startCheck(left), { ok: false, why: R.Blocked.TOO_FEW });
  const away = R.roomOf(roomMsg({ match: over, seats: [person("Ann"), person("Bo", { away: true }), null, null, null, null] }));
  assert.deepStrictEqual(R.startCheck(away), { ok: true, why: null }); // away, not gone: still in the seat
});
