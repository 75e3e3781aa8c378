// The websocket to the server: open it, hand frames up, and when it drops, try
// again after an exponentially growing, jittered delay. No DOM and no game rules.
//
// A heartbeat keeps it honest both ways. The server sends no websocket pings and
// closes a connection it has heard nothing from for 30 s; and a server that stops
// (SIGSTOP, or hung behind a load balancer) leaves the TCP connection open with
// nothing arriving, which no browser notices by itself. So, while a socket is open,
// every HEARTBEAT_MS: if it has brought nothing for SILENT_MS, it is given up;
// otherwise, if it has brought nothing for HEARTBEAT_MS or we have sent nothing for
// SEND_GAP_MS, it gets a `ping`, which the server answers with a `pong`.

import { encode, ping, read } from "./protocol.js";

/** The close code a server sends when it stops to restart (RFC 6455 registry: "Service Restart"). */
export const SERVICE_RESTART = 1012;

/** How often the heartbeat looks at an open socket. */
export const HEARTBEAT_MS = 5_000;
/**
 * Nothing received for this long and the server is taken for gone. It is past two
 * pings (sent at 5 s and 10 s of silence), so a live server has had two chances and
 * at least 2 s to answer; a tick comes at most HEARTBEAT_MS later, so a stopped
 * server is noticed 12 to 17 s after its last word.
 */
export const SILENT_MS = 12_000;
/**
 * Nothing sent for this long and a ping goes, even to a server that talks (a
 * spectator only listens): with a tick at most HEARTBEAT_MS later, the server never
 * waits more than 15 s for a word, half its 30 s.
 */
export const SEND_GAP_MS = 10_000;
/**
 * A socket not open this long after it was asked for is given up: a stopped server (or a
 * load balancer waiting on one) accepts the TCP connection and then never answers, and a
 * browser can wait minutes before it says so.
 */
export const CONNECT_MS = 6_000;

/**
 * `ws://host/ws` for an http page, `wss://host/ws` for https: never a hard-coded scheme. The
 * page reads frames holding several messages (`read`), and says so: `frames=array`.
 */
export function socketUrl(location) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws?frames=array`;
}

/**
 * The delay before reconnect attempt number `attempt` (0, 1, 2, ...): `min` doubling
 * up to `max`, then "equal jitter" (between half and all of it) so that many tabs
 * dropped together do not all come back in the same millisecond.
 */
export function backoff(attempt, { min = 500, max = 10_000, random = Math.random } = {}) {
  const ceiling = Math.min(max, min * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export class Connection {
  /**
   * @param {string} url
   * @param {{onOpen?: Function, onMessage?: Function, onStatus?: Function}} handlers
   *   onStatus gets `{state: "connecting"|"open"|"waiting", retryAt?: number, lost: boolean,
   *   restarting: boolean}`; `lost` is true once a connection has been lost (not on the very
   *   first try), `restarting` while the last one was closed by a server restarting (1012).
   *   A `pong` is the connection's own business: onMessage never gets one.
   * @param {object} [options] for tests: `WebSocket`, `now`, `setTimeout`/`clearTimeout`,
   *   `setInterval`/`clearInterval`, and backoff()'s `min`, `max`, `random`.
   */
  constructor(url, handlers, options = {}) {
    this.url = url;
    this.handlers = handlers;
    this.options = options;
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
    this.now = options.now ?? (() => Date.now());
    // Timers are injectable so the tests can drive time. Called through arrows: a
    // browser's own setTimeout refuses to run as a method of another object.
    this.setTimeout = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimeout = options.clearTimeout ?? ((id) => clearTimeout(id));
    this.setInterval = options.setInterval ?? ((fn, ms) => setInterval(fn, ms));
    this.clearInterval = options.clearInterval ?? ((id) => clearInterval(id));
    this.socket = null;
    this.attempt = 0;
    this.timer = null;
    this.heartbeat = null;
    this.connecting = null; // the CONNECT_MS timer of a socket not open yet
    this.receivedAt = 0; // when the open socket last brought anything (a pong too)
    this.sentAt = 0; // when it last took anything (a ping too)
    this.lost = false;
    this.restarting = false;
    this.stopped = false;
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    this.clearTimeout(this.timer);
    this.timer = null;
    this.stopHeartbeat();
    this.stopConnecting();
    if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      socket.close(1000);
    }
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === this.WebSocket.OPEN;
  }

  /** Send one message; false (and nothing sent) while the socket is not open. */
  send(message) {
    if (!this.isOpen) return false;
    this.socket.send(encode(message));
    this.sentAt = this.now();
    return true;
  }

  /** Give up on the socket (the browser says it went offline); the usual retries follow. */
  drop() {
    if (this.socket) this.socket.close();
  }

  /** Skip the rest of the wait (after "Retry now", or when the browser comes back online). */
  reconnectNow() {
    if (this.stopped || this.socket !== null) return;
    this.clearTimeout(this.timer);
    this.timer = null;
    this.open();
  }

  open() {
    this.stopHeartbeat(); // a socket replaced takes its heartbeat with it
    this.stopConnecting();
    this.status({ state: "connecting" });
    let socket;
    try {
      socket = new this.WebSocket(this.url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    this.connecting = this.setTimeout(() => {
      this.connecting = null;
      if (this.socket === socket) this.abandon();
    }, CONNECT_MS);
    let heard = false;
    socket.addEventListener("open", () => {
      if (this.socket !== socket) return;
      this.stopConnecting();
      this.restarting = false;
      this.startHeartbeat();
      this.status({ state: "open" });
      this.handlers.onOpen?.();
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;
      this.receivedAt = this.now(); // any frame at all says the server is alive
      if (!heard) {
        heard = true;
        this.attempt = 0; // only a connection that worked resets the back-off
      }
      for (const message of read(event.data)) {
        if (this.socket !== socket) return; // a message of the frame gave this socket up
        if (message.type === "pong") continue;
        try {
          this.handlers.onMessage?.(message);
        } catch (error) {
          // A message the page failed on: the rest of its frame (the refill, the next turn) still count.
          console.error(error);
        }
      }
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return; // a socket we already gave up on
      this.socket = null;
      this.stopHeartbeat();
      this.stopConnecting();
      this.lost = true;
      // The server said it is restarting: it will be back, and so will the game. A
      // failed attempt while it is down keeps saying so, until a connection works.
      if (event.code === SERVICE_RESTART) this.restarting = true;
      this.retry();
    });
    // "error" is always followed by "close", which does the work.
  }

  retry() {
    if (this.stopped) return;
    const delay = backoff(this.attempt, this.options);
    this.attempt += 1;
    this.status({ state: "waiting", retryAt: this.now() + delay });
    this.timer = this.setTimeout(() => {
      this.timer = null;
      this.open();
    }, delay);
  }

  /** Opening counts as hearing from the server and as speaking to it: the clocks start there. */
  startHeartbeat() {
    this.stopHeartbeat();
    this.receivedAt = this.sentAt = this.now();
    this.heartbeat = this.setInterval(() => this.beat(), HEARTBEAT_MS);
  }

  stopConnecting() {
    if (this.connecting === null) return;
    this.clearTimeout(this.connecting);
    this.connecting = null;
  }

  stopHeartbeat() {
    if (this.heartbeat === null) return;
    this.clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** One tick: give up on a silent server, or ping one that is quiet or has not heard from us. */
  beat() {
    if (this.socket === null) return;
    const now = this.now();
    if (now - this.receivedAt >= SILENT_MS) {
      this.abandon();
    } else if (now - this.receivedAt >= HEARTBEAT_MS || now - this.sentAt >= SEND_GAP_MS) {
      this.send(ping()); // nothing while the socket is not open (closing after drop())
    }
  }

  /**
   * Give up on a socket whose server went silent, and retry at once. Detached first:
   * a stopped server never answers the close handshake and a browser can take long to
   * fire `close`, which then finds a socket no longer ours and is ignored.
   */
  abandon() {
    const socket = this.socket;
    this.socket = null;
    this.stopHeartbeat();
    this.stopConnecting();
    this.lost = true;
    socket.close();
    this.retry();
  }

  status(status) {
    this.handlers.onStatus?.({ ...status, lost: this.lost, restarting: this.restarting });
  }
}
