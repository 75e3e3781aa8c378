// What both replay pages (a game's, a match's) do with their steps: a step number moved by
// Start, Back, Next, End and the arrow keys, and Play, which steps on every `stepMs` until
// the end. No DOM of its own but the controls it is handed; the page renders each step.

export class Stepper {
  /** @param {{count: () => number, render: () => void, stepMs: number}} page */
  constructor({ count, render, stepMs }) {
    this.count = count;
    this.render = render;
    this.stepMs = stepMs;
    this.step = 0;
    this.timer = null;
  }

  get playing() {
    return this.timer !== null;
  }

  go(index) {
    this.step = Math.max(0, Math.min(index, this.count()));
    if (this.step >= this.count()) this.pause();
    this.render();
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
  }

  togglePlay() {
    if (this.timer) {
      this.pause();
    } else {
      if (this.step >= this.count()) this.step = 0;
      this.timer = setInterval(() => this.go(this.step + 1), this.stepMs);
    }
    this.render();
  }

  /** The page's controls: `button(action)` finds Start, Back, Next and End; `play` is Play/Pause. */
  wire(button, play, doc = document) {
    const moves = { first: () => 0, back: () => this.step - 1, next: () => this.step + 1, last: () => Infinity };
    for (const [action, to] of Object.entries(moves)) {
      button(action).addEventListener("click", () => (this.pause(), this.go(to())));
    }
    play.addEventListener("click", () => this.togglePlay());
    doc.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      // (in a list of words the arrows walk the words: definition.js's)
      if (event.defaultPrevented || event.target?.closest?.("[data-rove]")) return;
      if (event.key === "ArrowRight") this.go(this.step + 1);
      else if (event.key === "ArrowLeft") this.go(this.step - 1);
      else return;
      event.preventDefault();
      this.pause();
      this.render();
    });
  }
}

/**
 * The replay of the game, match or race `id`, from the server (/games/<id>/replay), with its record
 * linked; null when there is none, once `title` says why (the server's own words, or `cannot`).
 * `complete(body)` says whether a reply holds what the page draws.
 */
export async function loadReplay(doc, id, { title, record, cannot, complete }) {
  const path = `/games/${encodeURIComponent(id)}`;
  record.href = `${path}/record`;
  let response;
  try {
    response = await fetch(`${path}/replay`);
  } catch {
    title.textContent = "The server cannot be reached.";
    doc.body.dataset.ready = "error";
    return null;
  }
  const body = await response.json().catch(() => null);
  if (!response.ok || !body || !complete(body)) {
    // (a match or a race still being played: its replay waits for the end)
    title.textContent = body?.message ?? cannot;
    doc.body.dataset.ready = "error";
    return null;
  }
  return body;
}
