// Definitions asked of the server: a `define` request for a word the page shows, the answer kept
// for the page's life (a word tapped twice costs one request), a request already on its way
// shared. No DOM: view/definition.js shows the answer, and main.js hands this module the
// `definition` messages and the errors of its requests before the store sees any message.

/**
 * How long an answer may take before the page says there is none (a server restarting, say).
 * Long enough for a server that was not set up with `wibble definitions` to compile a list's
 * definitions on the first request (3 s for English, more on a busy machine).
 */
export const ANSWER_MS = 20_000;
/** Answers kept, the oldest forgotten first: a long game shows a few hundred words at most. */
export const KEPT = 500;
// Its own numbers, far from the store's (which count from 1), so an error is known as ours.
const FIRST_SEQ = 2 ** 40;

const keyOf = (word, wordlist) => `${wordlist ?? ""}\u0000${word}`;

/** A `definition` message as the view reads it: `{word, wordlist, source, meanings: [{pos, lemma, senses}]}`. */
export function answerOf(message) {
  const meanings = Array.isArray(message.meanings) ? message.meanings : [];
  return {
    word: String(message.word ?? ""),
    wordlist: String(message.wordlist ?? ""),
    source: typeof message.source === "string" ? message.source : null,
    meanings: meanings
      .filter((m) => m && typeof m.pos === "string" && typeof m.lemma === "string" && Array.isArray(m.senses))
      .map((m) => ({ pos: m.pos, lemma: m.lemma, senses: m.senses.filter((s) => typeof s === "string") })),
  };
}

export class Definitions {
  /**
   * @param {(message: object) => boolean} send sends a request (false when it could not go)
   * @param {{setTimeout?: Function, clearTimeout?: Function}} [timers] for tests
   */
  constructor(send, { setTimeout: later = (fn, ms) => setTimeout(fn, ms), clearTimeout: cancel = (id) => clearTimeout(id) } = {}) {
    this.send = send;
    this.later = later;
    this.cancel = cancel;
    this.kept = new Map(); // key -> answer (insertion order: the oldest first)
    this.waiting = new Map(); // seq -> {key, resolve, reject, timer}
    this.byKey = new Map(); // key -> the promise on its way
    this.seq = FIRST_SEQ;
  }

  /**
   * What `word` means as list `wordlist` (null: the server's default) has it: a promise of an
   * answer, rejected with `{code, message}` when the server refuses or says nothing in time.
   */
  ask(word, wordlist = null) {
    const key = keyOf(word, wordlist);
    const kept = this.kept.get(key);
    if (kept) return Promise.resolve(kept);
    const onItsWay = this.byKey.get(key);
    if (onItsWay) return onItsWay;
    const seq = this.seq++;
    const promise = new Promise((resolve, reject) => {
      const timer = this.later(() => this.settle(seq, null, { code: "client/no_answer", message: "no answer from the server" }), ANSWER_MS);
      this.waiting.set(seq, { key, resolve, reject, timer });
    });
    this.byKey.set(key, promise);
    const message = { type: "define", word, seq };
    if (wordlist) message.wordlist = wordlist;
    if (!this.send(message)) this.settle(seq, null, { code: "client/offline", message: "not connected to the server" });
    return promise;
  }

  /** A message from the server: true if it was an answer or a refusal of ours (then it is handled). */
  receive(message) {
    if (message?.type === "definition") {
      const answer = answerOf(message);
      const seq = Number.isSafeInteger(message.seq) ? message.seq : null;
      if (seq !== null && this.waiting.has(seq)) this.settle(seq, answer, null);
      return true;
    }
    if (message?.type === "error" && message.request === "define") {
      if (this.waiting.has(message.seq)) this.settle(message.seq, null, { code: message.code, message: message.message });
      return true;
    }
    return false;
  }

  settle(seq, answer, error) {
    const waiting = this.waiting.get(seq);
    if (!waiting) return;
    this.waiting.delete(seq);
    this.byKey.delete(waiting.key);
    this.cancel(waiting.timer);
    if (error) {
      waiting.reject(error); // not kept: asking again may work (a limit lifts, the server returns)
      return;
    }
    this.kept.set(waiting.key, answer);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value);
    waiting.resolve(answer);
  }
}
