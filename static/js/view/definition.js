// The definition popover: a word the page shows (a button marked `data-define`), tapped, clicked
// or focused by keyboard, shows what it means, under it or above it. One popover for the page;
// it writes only its own elements and the `aria-expanded` of the word it is open for. The focus
// stays on the word, so arrow keys move on to the next word of a list and its definition, and a
// screen reader hears each answer as it comes (the text is a polite live region).
//
// Words in a list are one tab stop (`data-rove` on the list): the arrows move between them.

import { DEFINE } from "./wording.js";
import { make, setHidden, setText } from "./dom.js";

const GAP = 6; // px between the word and the popover
const MARGIN = 8; // px kept clear of the window's edges

/**
 * A button that shows `word`'s definition when pressed (and when focused by keyboard).
 * `className` is the element's own look; `text` what it shows (the word itself by default).
 */
export function wordButton(document, word, className = "", text = word) {
  const button = make(document, "button", `define ${className}`.trim(), text);
  button.type = "button";
  return definable(button, word);
}

/** Make `element` (a button) show `word`'s definition when it is pressed or focused by keyboard. */
export function definable(element, word) {
  element.dataset.define = word;
  element.setAttribute("aria-controls", "definition");
  element.setAttribute("aria-expanded", "false");
  return element;
}

/**
 * Make one word of a `data-rove` list its tab stop (`data-stop`: the one that was, if it is still
 * there, else the first); the rest are reached with the arrow keys. Called after a panel changes
 * the list, so that words added keep the player's place.
 */
export function rove(list) {
  const words = [...list.querySelectorAll("[data-define]")];
  const stop = words.find((word) => "stop" in word.dataset) ?? words[0];
  for (const word of words) setStop(word, word === stop);
}

function setStop(word, stop) {
  word.tabIndex = stop ? 0 : -1;
  if (stop) word.dataset.stop = "";
  else delete word.dataset.stop;
}

const ROVE_KEYS = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };

export class DefinitionPanel {
  /**
   * @param {Document} root the page
   * @param {{ask: (word: string, wordlist: string|null) => Promise<object>, wordlist: () => string|null,
   *          titleOf: (name: string) => string}} options `ask` the server (definitions.js), the
   *   list of the words on screen, and a list's title for "no definitions for …"
   */
  constructor(root, { ask, wordlist, titleOf = (name) => name }) {
    this.document = root;
    this.ask = ask;
    this.wordlist = wordlist;
    this.titleOf = titleOf;
    this.box = root.getElementById("definition");
    this.title = this.box.querySelector(".definition-word");
    this.text = this.box.querySelector(".definition-text");
    this.source = this.box.querySelector(".definition-source");
    this.anchor = null; // the word it is open for
    this.asked = 0; // answers to older questions are dropped
    // A panel that draws its words again (a new game) takes the word away: the popover goes too.
    this.watch = new MutationObserver(() => {
      if (this.anchor && !this.anchor.isConnected) this.close(false);
    });
    this.bind();
  }

  bind() {
    const doc = this.document;
    doc.addEventListener("click", (event) => {
      const word = event.target.closest?.("[data-define]");
      if (word) this.open(word);
      else if (event.target.closest?.("[data-action=close-definition]")) this.close(true);
      else if (!this.box.contains(event.target)) this.close(false);
    });
    // A keyboard's focus opens it too (a mouse's click does, above; a focus by script does not).
    doc.addEventListener("focusin", (event) => {
      const word = event.target.closest?.("[data-define]");
      const list = word?.closest("[data-rove]");
      if (list) for (const other of list.querySelectorAll("[data-define]")) setStop(other, other === word);
      if (word && word.matches(":focus-visible")) this.open(word);
      else if (!this.box.contains(event.target) && this.anchor) this.close(false);
    });
    doc.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.anchor) {
        event.preventDefault(); // (in a dialog: the popover closes, not the dialog)
        this.close(true);
        return;
      }
      const word = event.target.closest?.("[data-rove] [data-define]");
      if (!word || event.altKey || event.ctrlKey || event.metaKey) return;
      const words = [...word.closest("[data-rove]").querySelectorAll("[data-define]")];
      const at = words.indexOf(word);
      const to = event.key === "Home" ? 0 : event.key === "End" ? words.length - 1 : at + (ROVE_KEYS[event.key] ?? NaN);
      if (!(to >= 0 && to < words.length)) return;
      event.preventDefault();
      words[to].focus(); // (focusin makes it the list's tab stop)
    });
    window.addEventListener("resize", () => this.close(false));
    // A list scrolled under the popover would leave it pointing at another word.
    doc.addEventListener("scroll", (event) => {
      if (this.anchor && !this.box.contains(event.target)) this.place();
    }, true);
  }

  /** Show `word`'s definition under it (or above, where there is no room below). */
  open(element) {
    const word = element.dataset.define;
    const wordlist = element.closest("[data-wordlist]")?.dataset.wordlist || this.wordlist();
    if (this.anchor === element && !this.box.hidden) return;
    // A word in a modal dialog (Stats): the popover goes into it, else the dialog would cover it.
    const host = element.closest("dialog[open]") ?? this.document.body;
    if (this.box.parentElement !== host) host.append(this.box);
    this.anchor?.setAttribute("aria-expanded", "false");
    this.anchor = element;
    element.setAttribute("aria-expanded", "true");
    this.watch.observe(this.document.body, { childList: true, subtree: true });
    const asked = ++this.asked;
    setText(this.title, word.toUpperCase());
    this.title.lang = element.closest("[lang]")?.lang ?? "";
    setText(this.source, "");
    this.text.replaceChildren(make(this.document, "p", "definition-wait", DEFINE.looking(word)));
    setHidden(this.box, false);
    this.place();
    this.ask(word, wordlist).then(
      (answer) => asked === this.asked && this.show(answer),
      (error) => asked === this.asked && this.refused(error),
    );
  }

  close(refocus) {
    if (!this.anchor) return;
    const anchor = this.anchor;
    this.anchor = null;
    this.asked += 1;
    this.watch.disconnect();
    anchor.setAttribute("aria-expanded", "false");
    setHidden(this.box, true);
    if (refocus && anchor.isConnected) anchor.focus({ preventScroll: true });
  }

  show(answer) {
    const doc = this.document;
    if (answer.source === null) {
      this.text.replaceChildren(make(doc, "p", "", DEFINE.noSource(this.titleOf(answer.wordlist))));
    } else if (answer.meanings.length === 0) {
      this.text.replaceChildren(make(doc, "p", "", DEFINE.noEntry(answer.word, DEFINE.sourceName(answer.source))));
    } else {
      this.text.replaceChildren(
        ...answer.meanings.map(({ pos, lemma, senses }) => {
          const meaning = make(doc, "div", "meaning");
          const head = make(doc, "p", "meaning-head");
          if (lemma.toLowerCase() !== answer.word.toLowerCase()) head.append(make(doc, "span", "meaning-lemma", DEFINE.formOf(lemma)));
          head.append(make(doc, "span", "meaning-pos", pos));
          const list = make(doc, senses.length > 1 ? "ol" : "ul", "meaning-senses");
          list.append(...senses.map((sense) => make(doc, "li", "", sense)));
          meaning.append(head, list);
          return meaning;
        }),
      );
      setText(this.source, DEFINE.source(answer.source));
    }
    this.place();
  }

  refused(error) {
    this.text.replaceChildren(make(this.document, "p", "definition-refused", DEFINE.refused(error)));
    this.place();
  }

  /**
   * A word of a list: beside the list where there is room (so the list's other words stay in
   * reach); any other word, or a list with no room beside it (a phone): under the word if it
   * fits, else above it. Never past the window's edges.
   */
  place() {
    if (!this.anchor || this.box.hidden) return;
    if (!this.anchor.isConnected) {
      this.close(false); // its list was drawn again (a new game): nothing to point at
      return;
    }
    const word = this.anchor.getBoundingClientRect();
    const { innerWidth: width, innerHeight: height } = window;
    const box = this.box.getBoundingClientRect();
    const list = this.anchor.closest("[data-rove]")?.getBoundingClientRect();
    let top;
    let left;
    if (list && list.left - GAP - box.width >= MARGIN) {
      [top, left] = [word.top, list.left - GAP - box.width];
    } else if (list && list.right + GAP + box.width <= width - MARGIN) {
      [top, left] = [word.top, list.right + GAP];
    } else {
      const below = word.bottom + GAP;
      const fits = below + box.height <= height - MARGIN || word.top - GAP - box.height < MARGIN;
      [top, left] = [fits ? below : word.top - GAP - box.height, word.left];
    }
    top = Math.max(MARGIN, Math.min(top, height - MARGIN - box.height));
    left = Math.max(MARGIN, Math.min(left, width - MARGIN - box.width));
    this.box.style.top = `${Math.round(top)}px`;
    this.box.style.left = `${Math.round(left)}px`;
  }
}
