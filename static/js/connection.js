// The websocket to the server: open it, hand frames up, and when it drops, try
// again after an exponentially growing, jittered delay. No DOM and no game rules.

import { encode, read } from "./protocol.js";

/** The close code a server sends when it stops to restart (RFC 6455 registry: "Service Restart"). */
export const SERVICE_RESTART = 1012;

/** `ws://host/ws` for an http page, `wss://host/ws` for https: never a hard-coded scheme. */
export function socketUrl(location) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
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
   */
  constructor(url, handlers, options = {}) {
    this.url = url;
    this.handlers = handlers;
    this.options = options;
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
    this.now = options.now ?? (() => Date.now());
    this.socket = null;
    this.attempt = 0;
    this.timer = null;
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
    clearTimeout(this.timer);
    this.timer = null;
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
    return true;
  }

  /** Give up on the socket (the browser says it went offline); the usual retries follow. */
  drop() {
    if (this.socket) this.socket.close();
  }

  /** Skip the rest of the wait (after "Retry now", or when the browser comes back online). */
  reconnectNow() {
    if (this.stopped || this.socket !== null) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.open();
  }

  open() {
    this.status({ state: "connecting" });
    let socket;
    try {
      socket = new this.WebSocket(this.url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    let heard = false;
    socket.addEventListener("open", () => {
      if (this.socket !== socket) return;
      this.restarting = false;
      this.status({ state: "open" });
      this.handlers.onOpen?.();
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;
      if (!heard) {
        heard = true;
        this.attempt = 0; // only a connection that worked resets the back-off
      }
      const message = read(event.data);
      if (message) this.handlers.onMessage?.(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return; // a socket we already gave up on
      this.socket = null;
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
    this.timer = setTimeout(() => {
      this.timer = null;
      this.open();
    }, delay);
  }

  status(status) {
    this.handlers.onStatus?.({ ...status, lost: this.lost, restarting: this.restarting });
  }
}
