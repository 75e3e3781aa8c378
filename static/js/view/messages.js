// The messages panel: the message line under the board, the one live region a screen reader
// hears (the chain being built, what became of it, every message), and the connection's
// banner. Owns those elements; the words are view/wording.js's.

import { CHAIN_SPOKEN, messageText, plural, refusedHostText, spokenText } from "./wording.js";
import { setData, setHidden } from "./dom.js";

export class MessagesPanel {
  /** @param {Document} root the page; `animate(element, keyframes, ms)` the view's motion */
  constructor(root, animate) {
    const $ = (selector) => root.querySelector(selector);
    this.line = $('[data-testid="message"]');
    this.announcer = $('[data-testid="announcer"]');
    this.banner = $('[data-testid="connection-status"]');
    this.bannerText = $(".connection-text");
    this.retry = $('[data-action="retry"]');
    this.animate = animate;
    this.shown = 0; // the id of the message on screen
    this.lapse = null; // the timer taking a message that lasts a while off the line
    this.spokenChain = "";
    this.countdown = null;
  }

  /** A new message on the line and in the live region; else the chain, once judged. */
  render(state, current) {
    if (!this.renderMessage(state)) this.speakChain(current);
    this.renderConnection(state);
  }

  /** A new message on screen and in the live region; true when there was one. */
  renderMessage(state) {
    const message = state.message;
    if (!message) {
      if (this.shown !== 0) {
        this.line.textContent = ""; // a stale one taken away (store/change.js)
        delete this.line.dataset.kind; // and its ✓ or ✗ with it
      }
      this.shown = 0;
      return false;
    }
    if (message.id === this.shown) return false;
    this.shown = message.id;
    this.line.textContent = messageText(message);
    this.line.dataset.kind = message.kind;
    this.announce(spokenText(message));
    clearTimeout(this.lapse);
    // A message that holds only for a while ("Press “Leave now” to confirm", for its five seconds)
    // leaves the line when it no longer holds, so that it never asks for a press that does nothing.
    if (typeof message.lasts === "number") {
      const spoken = this.announcer.textContent;
      this.lapse = setTimeout(() => this.lapsed(message.id, spoken), message.lasts);
    }
    this.animate(this.line, [{ opacity: 0, transform: "translateY(3px)" }, { opacity: 1, transform: "none" }], 180);
    return true;
  }

  /** The message `id` no longer holds: off the line, if it is still there (the state keeps it, so no
   * render brings it back; the next message takes its place as usual). */
  lapsed(id, spoken) {
    if (this.shown !== id) return;
    this.line.textContent = "";
    delete this.line.dataset.kind;
    if (this.announcer.textContent === spoken) this.announcer.textContent = ""; // (and nothing said since)
  }

  /** Say the chain being built once the server has judged it (each step, politely). */
  speakChain(current) {
    if (!current.mine || current.chain.length === 0) {
      this.spokenChain = "";
      return;
    }
    if (current.stale) return;
    const status = current.alreadyFound ? "found" : current.status;
    const points = current.points === null ? "" : `, ${plural(current.points, "point")}`;
    const text = `${current.word}: ${CHAIN_SPOKEN[status] ?? status}${points}`;
    if (text === this.spokenChain) return;
    this.spokenChain = text;
    this.announce(text);
  }

  /** Put `text` in the live region; the same text twice is still read twice. */
  announce(text) {
    const el = this.announcer;
    el.textContent = el.textContent === text ? `${text}\u00a0` : text;
  }

  renderConnection(state) {
    const { state: phase, lost, retryAt, restarting, host } = state.connection;
    const el = this.banner;
    setData(el, "state", phase);
    if (phase === "refused") {
      setHidden(el, false);
      setHidden(this.retry, true); // retrying changes nothing: the host must allow the name
      this.bannerText.textContent = refusedHostText(host);
      return;
    }
    // The banner is for trouble: shown once a connection is lost or the first one
    // fails, and hidden again only when a fresh game snapshot has arrived.
    const show = !state.live && (lost || phase === "waiting");
    setHidden(el, !show);
    setHidden(this.retry, phase !== "waiting");
    clearInterval(this.countdown);
    this.countdown = null;
    if (!show) return;
    const update = () => {
      const seconds = Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
      if (restarting) {
        // The server said so (close code 1012): the game is saved and will be back.
        this.bannerText.textContent =
          phase === "waiting" ? `Server restarting, reconnecting in ${seconds}s…` : "Server restarting, reconnecting…";
      } else if (phase === "waiting") {
        this.bannerText.textContent = `Connection lost — reconnecting in ${seconds}s…`;
      } else {
        this.bannerText.textContent = "Reconnecting…";
      }
    };
    update();
    if (phase === "waiting") this.countdown = setInterval(update, 250);
  }
}
