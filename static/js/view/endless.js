// The endless game's panels: the score and the words left (in the header), the found words,
// and the controls under the board (the word-list picker and New game). Owns those elements.

import { rove, wordButton } from "./definition.js";
import { animate, pulse } from "./motion.js";
import { addWordlistOptions, make, setData, setHidden, setProp, setText } from "./dom.js";
import { wordsLeftText } from "./wording.js";

export class EndlessPanel {
  /** @param {Document} root the page; `config` the page's (its word lists and the default) */
  constructor(root, config) {
    const $ = (selector) => root.querySelector(selector);
    this.document = root;
    this.tally = $('[data-testid="endless-tally"]');
    this.total = $('[data-testid="total-score"]');
    this.wordsLeft = $('[data-testid="words-left"]');
    this.controls = $('[data-testid="endless-controls"]');
    this.picker = $('[data-testid="wordlist"]');
    this.newGame = $('[data-action="new-game"]');
    this.foundPanel = $('[data-testid="found-panel"]');
    this.found = $('[data-testid="found-words"]');
    this.foundCount = $('[data-testid="found-count"]');
    this.foundEmpty = $(".found-empty");
    this.shownGame = null; // the game whose found words are listed
    this.shownFound = 0; // how many of them
    addWordlistOptions(this.picker, config.wordlists);
    this.picker.value = config.default_wordlist;
  }

  show(screen, state) {
    const endless = screen === "endless";
    // The day's game, and a race's board, have a score and words, not a picker.
    const playing = endless || screen === "daily" || (screen === "race" && Boolean(state?.game?.race));
    setHidden(this.tally, !playing);
    setHidden(this.controls, !endless);
    setHidden(this.foundPanel, !playing);
  }

  /** The picker goes back to the list being played (Escape after stepping through it). */
  showWordlist(name) {
    if (name) this.picker.value = name;
  }

  render(state, event, { language }) {
    if (language) setProp(this.found, "lang", language);
    this.renderFound(state, event);
    setText(this.total, String(state.total));
    // A sprint that is over has nothing left to find on its board: the count is not shown.
    this.renderWordsLeft(state.game?.sprint?.over ? null : state.wordsLeft);
    const open = state.connection.state === "open";
    setProp(this.newGame, "disabled", !open);
    setProp(this.picker, "disabled", !open);
    // The picker shows the list being played; after a refused list, it goes back to it.
    const game = state.game;
    const refused = event.type === "error" && String(event.code).startsWith("game/");
    if (game && (event.type === "game" || refused || this.picker.value === "")) {
      this.picker.value = game.wordlist;
    }
    if (event.type === "word" && event.result === "scored") pulse(this.total);
    this.shownGame = game?.id ?? null;
  }

  renderWordsLeft(count) {
    const el = this.wordsLeft;
    const text = wordsLeftText(count);
    setText(el, text);
    setData(el, "count", count === null ? "" : String(count));
  }

  /** The found words, newest first: the new ones slide in; another game's are replaced. */
  renderFound(state, event) {
    const list = this.found;
    const found = state.found;
    const sameGame = state.game && state.game.id === this.shownGame && event.type !== "game";
    if (!sameGame || found.length < this.shownFound) {
      list.replaceChildren(...found.map((entry) => this.foundItem(entry)).reverse());
    } else {
      for (const entry of found.slice(this.shownFound)) {
        const item = this.foundItem(entry);
        list.prepend(item);
        animate(item, [
          { opacity: 0, transform: "translateY(-6px)" },
          { opacity: 1, transform: "none" },
        ], 260);
      }
    }
    // The list's one tab stop is its top word, the newest, unless the keys moved it and are still
    // in the list (a stop kept on the first word found would sink to the bottom as words come).
    if (!list.contains(this.document.activeElement)) {
      for (const word of list.querySelectorAll("[data-stop]")) delete word.dataset.stop;
    }
    rove(list);
    this.shownFound = found.length;
    setText(this.foundCount, String(found.length));
    setHidden(this.foundEmpty, found.length > 0);
  }

  foundItem({ word, points }) {
    const item = make(this.document, "li");
    item.append(wordButton(this.document, word, "found-word"), make(this.document, "span", "found-points", `+${points}`));
    return item;
  }
}
