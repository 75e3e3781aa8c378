// "Your games": this browser's games and matches, newest first, the one on screen marked,
// and the link to the endless game's replay. Owns that side panel.

import { idOf, isMatchEntry } from "../saved.js";
import { make, setHidden } from "./dom.js";
import { playedAgo } from "./wording.js";

export class GamesPanel {
  /** @param {Document} root the page */
  constructor(root) {
    const $ = (selector) => root.querySelector(selector);
    this.document = root;
    this.panel = $('[data-testid="games-panel"]');
    this.list = $('[data-testid="your-games"]');
    this.replayLink = $('[data-testid="replay-link"]');
    this.shown = null; // what the list was last drawn from
  }

  show(screen, state) {
    // A room's page is the room's: "Your games" would take the tab out of it.
    // /daily's page is the day's: "Your games" would take the tab out of it too.
    setHidden(this.panel, Boolean(state.join.code) || state.mode === "daily");
  }

  /** `open`: something on screen and a connection, so another game can be opened. */
  render(state, { open }) {
    const playing = state.mode === "match" && state.match ? state.match.id : state.game?.id ?? null;
    // The game on screen is played no more once its sprint is over (a match's end is in its entry).
    const ended = state.mode !== "match" && state.game?.sprint?.over === true;
    // The store replaces the list whenever it changes, so this is cheap on every drag step.
    // A replay of nothing played would be one still board; a match's replay opens once it is over.
    const replayable = state.mode === "endless" && state.game && state.found.length > 0 ? state.game.id
      : state.mode === "match" && state.match?.summary ? state.match.id : null;
    const shown = this.shown;
    if (shown && shown.games === state.games && shown.playing === playing && shown.open === open
        && shown.replayable === replayable && shown.ended === ended) return;
    this.shown = { games: state.games, playing, open, replayable, ended };
    setHidden(this.replayLink, replayable === null);
    if (replayable !== null) this.replayLink.href = `/replay/${encodeURIComponent(replayable)}`;
    // Rebuilding the buttons must not throw away keyboard focus on one of them.
    const focused = this.document.activeElement?.closest?.("[data-entry-id]")?.dataset.entryId;
    const items = state.games.map((entry) => this.item(entry, playing, open, ended));
    this.list.replaceChildren(...items);
    if (focused) items.find((item) => item.firstChild.dataset.entryId === focused)?.firstChild.focus();
  }

  item(entry, playing, open, ended = false) {
    const id = idOf(entry);
    const item = make(this.document, "li");
    const button = make(this.document, "button", "game-entry");
    button.type = "button";
    button.dataset.entryId = id;
    if (isMatchEntry(entry)) button.dataset.matchId = id;
    else button.dataset.gameId = id;
    button.disabled = !open;
    if (id === playing) button.setAttribute("aria-current", "true");
    let title;
    let score;
    if (isMatchEntry(entry)) {
      title = `Match · ${entry.title || entry.wordlist || "?"}`;
      const progress = entry.over ? "over" : `round ${entry.round} of ${entry.rounds}`;
      score = `${entry.score} pts · ${progress}`;
    } else {
      title = entry.title || entry.wordlist || "Game";
      score = `${entry.total} pts · ${entry.words} word${entry.words === 1 ? "" : "s"}`;
    }
    // The one on screen is "playing", unless it is a match that has ended, or a sprint.
    const over = isMatchEntry(entry) ? entry.over : ended;
    const when = id === playing ? (over ? "on screen" : "playing") : playedAgo(entry.played);
    button.append(
      make(this.document, "span", "game-title", title),
      make(this.document, "span", "game-score", score),
      make(this.document, "span", "game-when", when),
    );
    item.append(button);
    return item;
  }
}
