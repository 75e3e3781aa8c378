// static/js/connection.js's heartbeat, as a unit: a fake WebSocket the test opens, feeds and
// closes by hand, and a fake clock whose timers run only when the test moves time on. No
// browser, no server, no waiting.
import assert from "node:assert/strict";
import { test } from "node:test";

const C = await import("../../static/js/connection.js");
const { Connection, CONNECT_MS, HEARTBEAT_MS, SILENT_MS, SEND_GAP_MS } = C;
const PING = JSON.stringify({ type: "ping" });

/** Time that moves only on `advance(ms)`, running the timers due on the way, in order. */
const fakeClock = () => {
  let time = 0;
  let nextId = 1;
  const timers = new Map(); // id -> {at, fn, every}
  const add = (fn, ms, every) => {
    const id = nextId++;
    timers.set(id, { at: time + ms, fn, every });
    return id;
  };
  const remove = (id) => timers.delete(id);
  return {
    now: () => time,
    setTimeout: (fn, ms) => add(fn, ms, null),
    clearTimeout: remove,
    setInterval: (fn, ms) => add(fn, ms, ms),
    clearInterval: remove,
    intervals: () => [...timers.values()].filter((t) => t.every !== null).length,
    timeouts: () => [...timers.values()].filter((t) => t.every === null).length,
    advance(ms) {
      const end = time + ms;
      for (;;) {
        let due = null;
        for (const [id, timer] of timers) {
          if (timer.at <= end && (due === null || timer.at < due[1].at)) due = [id, timer];
        }
        if (due === null) break;
        const [id, timer] = due;
        time = timer.at;
        if (timer.every === null) timers.delete(id);
        else timer.at += timer.every;
        timer.fn();
      }
      time = end;
    },
  };
};

/**
 * A Connection on a fake clock and fake sockets. Each socket records what it was sent (with
 * the time) and its close() calls; `open()`, `receive(message)` and `closed(code)` play the
 * browser's events. close() only marks it closing: the `close` event comes when the test says.
 */
const setup = () => {
  const clock = fakeClock();
  const sockets = [];
  class FakeSocket {
    static CONNECTING = 0;
    static OPEN = 1;
    static CLOSING = 2;
    static CLOSED = 3;
    constructor(url) {
      this.url = url;
      this.readyState = FakeSocket.CONNECTING;
      this.listeners = {};
      this.sent = [];
      this.closes = [];
      sockets.push(this);
    }
    addEventListener(type, fn) {
      (this.listeners[type] ??= []).push(fn);
    }
    fire(type, event = {}) {
      for (const fn of this.listeners[type] ?? []) fn(event);
    }
    send(data) {
      this.sent.push({ at: clock.now(), data });
    }
    close(code) {
      this.closes.push(code);
      this.readyState = FakeSocket.CLOSING;
    }
    open() {
      this.readyState = FakeSocket.OPEN;
      this.fire("open");
    }
    receive(message) {
      this.fire("message", { data: JSON.stringify(message) });
    }
    closed(code = 1006) {
      this.readyState = FakeSocket.CLOSED;
      this.fire("close", { code });
    }
    pings() {
      return this.sent.filter((s) => s.data === PING).map((s) => s.at);
    }
  }
  const messages = [];
  const statuses = [];
  const connection = new Connection(
    "ws://wibble.test/ws",
    { onMessage: (m) => messages.push(m), onStatus: (s) => statuses.push(s) },
    {
      WebSocket: FakeSocket,
      now: clock.now,
      setTimeout: clock.setTimeout,
      clearTimeout: clock.clearTimeout,
      setInterval: clock.setInterval,
      clearInterval: clock.clearInterval,
      random: () => 0, // the back-off's shortest delay: 250 ms for the first retry
    },
  );
  return { clock, sockets, messages, statuses, connection };
};

const SPECTATORS = { type: "spectators", count: 2 }; // any message the game knows

test("the constants are the heartbeat's rule", () => {
  assert.deepEqual([HEARTBEAT_MS, SILENT_MS, SEND_GAP_MS], [5000, 12000, 10000]);
});

test("a ping is sent after 5 s of silence", () => {
  const { clock, sockets, connection } = setup();
  connection.start();
  sockets[0].open();
  clock.advance(HEARTBEAT_MS - 1);
  assert.deepEqual(sockets[0].sent, []);
  clock.advance(1);
  assert.deepEqual(sockets[0].sent, [{ at: 5000, data: PING }]);
});

test("a page that keeps receiving still sends a ping every 10 s", () => {
  const { clock, sockets, messages, connection } = setup();
  connection.start();
  const socket = sockets[0];
  socket.open();
  for (let second = 1; second <= 60; second += 1) {
    clock.advance(1000);
    socket.receive(SPECTATORS);
  }
  assert.deepEqual(socket.pings(), [10000, 20000, 30000, 40000, 50000, 60000]);
  assert.equal(messages.length, 60);
  assert.equal(sockets.length, 1); // never given up
  assert.deepEqual(socket.closes, []);
});

test("a page that talks and hears sends no ping at all", () => {
  const { clock, sockets, connection } = setup();
  connection.start();
  const socket = sockets[0];
  socket.open();
  for (let second = 1; second <= 60; second += 1) {
    clock.advance(1000);
    socket.receive(SPECTATORS);
    if (second % 3 === 0) assert.equal(connection.send({ type: "release" }), true);
  }
  assert.deepEqual(socket.pings(), []);
  assert.equal(socket.sent.length, 20);
});

test("an idle page whose server answers pings one ping every 10 s, and keeps its socket", () => {
  const { clock, sockets, connection } = setup();
  connection.start();
  const socket = sockets[0];
  socket.open();
  const send = socket.send.bind(socket);
  socket.send = (data) => {
    send(data);
    clock.setTimeout(() => socket.receive({ type: "pong" }), 100); // a server 100 ms away
  };
  clock.advance(120_000);
  assert.deepEqual(socket.pings(), [5000, 15000, 25000, 35000, 45000, 55000, 65000, 75000,
                                    85000, 95000, 105000, 115000]);
  assert.equal(sockets.length, 1);
  assert.deepEqual(socket.closes, []);
});

test("pongs are not passed to onMessage", () => {
  const { clock, sockets, messages, connection } = setup();
  connection.start();
  sockets[0].open();
  clock.advance(HEARTBEAT_MS);
  sockets[0].receive({ type: "pong" });
  sockets[0].receive(SPECTATORS);
  sockets[0].receive({ type: "pong" });
  assert.deepEqual(messages, [SPECTATORS]);
});

test("a frame holding an array is its messages, in order; what the page does not know is left out", () => {
  const { sockets, messages, connection } = setup();
  connection.start();
  sockets[0].open();
  const played = { type: "played", seat: 0, word: "CAT", version: 4 };
  const turn = { type: "turn", turn: 1, version: 4 };
  sockets[0].receive([played, { type: "nonsense" }, 7, null, turn]);
  sockets[0].receive(SPECTATORS);
  sockets[0].fire("message", { data: "[{" }); // not JSON: nothing
  assert.deepEqual(messages, [played, turn, SPECTATORS]);
});

test("a message the page fails on leaves the rest of its frame to be read", () => {
  const { sockets, connection } = setup();
  const seen = [];
  connection.handlers.onMessage = (message) => {
    seen.push(message.type);
    if (message.type === "played") throw new Error("a bug in the page");
  };
  connection.start();
  sockets[0].open();
  const logged = console.error;
  console.error = () => {};
  try {
    sockets[0].receive([{ type: "played" }, { type: "board" }, { type: "turn" }]);
  } finally {
    console.error = logged;
  }
  assert.deepEqual(seen, ["played", "board", "turn"]);
});

test("a silent server is given up at the first tick 12 s after its last message, and a reconnect follows without a close event", () => {
  const { clock, sockets, messages, statuses, connection } = setup();
  connection.start();
  const first = sockets[0];
  first.open();
  clock.advance(3000);
  first.receive(SPECTATORS); // its last word: silent from 3 s, given up at the tick of 15 s
  clock.advance(15_000 - 3000 - 1);
  assert.deepEqual(first.pings(), [10000]);
  assert.deepEqual(first.closes, []);
  assert.equal(statuses.at(-1).state, "open");

  clock.advance(1); // 15 s: the tick finds 12 s of silence
  assert.equal(first.closes.length, 1);
  assert.equal(first.readyState, 2); // closing, and no `close` event has come
  assert.equal(connection.socket, null);
  assert.equal(connection.isOpen, false);
  assert.deepEqual(statuses.at(-1), { state: "waiting", retryAt: 15_250, lost: true, restarting: false });
  assert.equal(clock.intervals(), 0); // its heartbeat went with it
  assert.equal(clock.timeouts(), 1); // the retry

  clock.advance(250);
  assert.equal(sockets.length, 2);
  assert.deepEqual(statuses.at(-1), { state: "connecting", lost: true, restarting: false });

  // The old socket's late events change nothing.
  const seen = statuses.length;
  first.receive(SPECTATORS);
  first.closed(1006);
  assert.equal(statuses.length, seen);
  assert.deepEqual(messages, [SPECTATORS]);
  assert.equal(clock.timeouts(), 1); // the new socket's CONNECT_MS, nothing of the old one's

  // The new socket has one heartbeat, its own, from when it opened.
  sockets[1].open();
  assert.equal(clock.intervals(), 1);
  clock.advance(HEARTBEAT_MS);
  assert.deepEqual(sockets[1].pings(), [15_250 + HEARTBEAT_MS]);
});

test("stop() clears the heartbeat", () => {
  const { clock, sockets, statuses, connection } = setup();
  connection.start();
  sockets[0].open();
  clock.advance(HEARTBEAT_MS); // one ping
  connection.stop();
  assert.equal(clock.intervals(), 0);
  assert.deepEqual(sockets[0].closes, [1000]);
  const seen = statuses.length;
  clock.advance(60_000);
  assert.deepEqual(sockets[0].pings(), [5000]);
  assert.equal(sockets.length, 1);
  assert.equal(statuses.length, seen);
});

test("a close clears the heartbeat, and only the retry is left", () => {
  const { clock, sockets, statuses, connection } = setup();
  connection.start();
  sockets[0].open();
  sockets[0].closed(1006);
  assert.equal(clock.intervals(), 0);
  assert.equal(clock.timeouts(), 1);
  assert.deepEqual(statuses.at(-1), { state: "waiting", retryAt: 250, lost: true, restarting: false });
});

test("nothing is sent while the socket is not open", () => {
  const { clock, sockets, connection } = setup();
  connection.start();
  const socket = sockets[0];
  // Connecting: no heartbeat, and send() refuses.
  clock.advance(CONNECT_MS - 1);
  assert.equal(clock.intervals(), 0);
  assert.equal(connection.send({ type: "release" }), false);
  assert.deepEqual(socket.sent, []);

  // Closing (the browser went offline): the ticks send no ping.
  socket.open();
  connection.drop();
  assert.equal(socket.readyState, 2);
  clock.advance(HEARTBEAT_MS * 2);
  assert.equal(connection.send({ type: "release" }), false);
  assert.deepEqual(socket.sent, []);
});

test("a socket that never opens is given up after CONNECT_MS and tried again", () => {
  const { clock, sockets, statuses, connection } = setup();
  connection.start();
  clock.advance(CONNECT_MS - 1);
  assert.deepEqual(sockets[0].closes, []);
  clock.advance(1); // a stopped server accepted the TCP connection and says nothing
  assert.equal(sockets[0].closes.length, 1);
  assert.equal(connection.socket, null);
  assert.deepEqual(statuses.at(-1), { state: "waiting", retryAt: CONNECT_MS + 250, lost: true, restarting: false });
  clock.advance(250);
  assert.equal(sockets.length, 2);
  sockets[1].open(); // this one answers: its timer is gone, and its heartbeat runs
  clock.advance(CONNECT_MS * 2);
  assert.deepEqual(sockets[1].closes, []);
  assert.equal(sockets.length, 2);
});
