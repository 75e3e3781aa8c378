// A room's race: the standings beside the board while it runs (each player's score, word count
// and last word; a spectator's Watch button follows a board), then the end screen, everyone's
// words side by side (the ones only that player found marked), and the best words nobody found,
// each lighting its path on the board everyone started on, and a link to the race's replay.
// Owns those elements only.

import { secondsLeft, standings } from "../race.js";
import { startCheck } from "../room.js";
import { clockText } from "../sprint.js";
import { missedItem } from "./sprint.js";
import { rove, wordButton } from "./definition.js";
import { make, setHidden, setText } from "./dom.js";
import { blockedText, plural } from "./wording.js";

const TICK_MS = 500;

export class RacePanel {
  /** @param {Document} root the page; `now` the tab's monotonic clock in ms */
  constructor(root, now) {
    const $ = (selector) => root.querySelector(selector);
    this.document = root;
    this.now = now;
    this.panel = $('[data-testid="race"]');
    this.clock = $('[data-testid="race-clock"]');
    this.list = $('[data-testid="race-standings"]');
    this.help = $('[data-testid="race-help"]');
    this.over = $('[data-testid="race-over"]');
    this.title = $("#race-over-title");
    this.results = $('[data-testid="race-results"]');
    this.missed = $('[data-testid="race-missed"]');
    this.board = $('[data-testid="race-start-board"]');
    this.again = $('[data-action="race-again"]');
    this.wait = $('[data-testid="race-again-wait"]');
    this.replay = $('[data-testid="race-replay-link"]');
    this.race = null;
    this.ticking = null;
    this.shownFor = null; // the race whose end is drawn
    this.standingsKey = "";
  }

  show(screen) {
    setHidden(this.panel, screen !== "race");
    setHidden(this.over, screen !== "race-over");
    if (screen !== "race") this.stop();
  }

  render(state, event, { screen }) {
    const race = state.race;
    if (screen === "race" && race) {
      this.race = race;
      if (this.ticking === null) this.ticking = setInterval(() => this.tick(), TICK_MS);
      this.tick();
      this.renderStandings(race, state.room);
    }
    if (screen === "race-over" && race?.over) this.renderOver(race, state.room, event);
  }

  stop() {
    clearInterval(this.ticking);
    this.ticking = null;
  }

  tick() {
    const left = secondsLeft(this.race, this.now());
    setText(this.clock, clockText(left));
    this.clock.setAttribute("aria-label", `${plural(left, "second")} left`);
  }

  /** Best first; a spectator may follow any runner's board (the one followed says so). */
  renderStandings(race, room) {
    const watching = race.you === null;
    setHidden(this.help, !watching || race.following !== null);
    const lines = standings(race);
    const key = JSON.stringify([lines, race.following, race.you]);
    if (key === this.standingsKey) return;
    this.standingsKey = key;
    const host = room?.host ?? null;
    // A rebuild must not take the focus from a Watch button (its seat's goes back to it).
    const focused = this.list.contains(this.document.activeElement) ? this.document.activeElement.dataset.follow : undefined;
    this.list.replaceChildren(
      ...lines.map((runner, place) => {
        const item = make(this.document, "li", "race-line");
        item.dataset.seat = String(runner.seat);
        if (runner.seat === race.you) item.dataset.you = "true";
        const name = runner.seat === race.you ? `${runner.name} (you)` : runner.name;
        const who = make(this.document, "span", "race-name", `${place + 1}. ${name}`);
        if (runner.kind === "bot") who.append(make(this.document, "span", "race-bot", ` · ${runner.level ?? "easy"} bot`));
        if (runner.seat === host) who.title = "Host";
        const score = make(this.document, "span", "race-score", plural(runner.score, "point"));
        const count = make(this.document, "span", "race-words", plural(runner.words, "word"));
        item.append(who, score, count);
        if (runner.last) item.append(make(this.document, "span", "race-last", `last: ${runner.last}`));
        if (watching) {
          const follow = make(this.document, "button", "button small", "Watch");
          follow.type = "button";
          follow.dataset.follow = String(runner.seat);
          follow.setAttribute("aria-pressed", String(race.following === runner.seat));
          follow.setAttribute("aria-label", `Watch ${runner.name}'s board`);
          item.append(follow);
        }
        return item;
      }),
    );
    if (focused !== undefined) this.list.querySelector(`[data-follow="${focused}"]`)?.focus();
  }

  renderOver(race, room, event) {
    const over = race.over;
    const host = room !== null && room.you !== null && room.host === room.you;
    // The host races again as the lobby starts, and is told why not as the lobby tells it.
    const check = host ? startCheck(room) : null;
    setHidden(this.again, !host);
    this.again.disabled = host && !check.ok;
    const wait = host ? blockedText(check) : "The host can start another race.";
    setHidden(this.wait, wait === "");
    setText(this.wait, wait);
    if (this.shownFor !== race.id) {
      this.shownFor = race.id;
      const best = over.results[0];
      const tie = over.results.length > 1 && over.results[1].score === best.score;
      setText(this.title, !best ? "The race is over" : tie ? "A tie at the top!" : `${best.seat === race.you ? "You win" : `${best.name} wins`} the race!`);
      this.results.replaceChildren(...over.results.map((result) => this.column(result, race)));
      for (const list of this.results.querySelectorAll("ul")) rove(list);
      this.missed.replaceChildren(...over.missed.map((entry, index) => missedItem(this.document, entry, { raceMissed: index })));
      rove(this.missed);
      this.drawBoard(over.board);
      this.replay.href = `/replay/${encodeURIComponent(race.id)}`; // its words, step by step
      if (event.type === "race_over") this.title.focus({ preventScroll: true });
    }
    const lit = race.shownPath;
    for (const button of this.missed.querySelectorAll("button")) {
      button.setAttribute("aria-pressed", String(button.dataset.word === lit?.word));
    }
    const tiles = new Set((lit?.path ?? []).map(([r, c]) => `${r},${c}`));
    for (const tile of this.board.children) tile.dataset.lit = String(tiles.has(tile.dataset.at));
    this.board.setAttribute(
      "aria-label",
      lit ? `The board everyone started on, ${lit.word} lit` : "The board everyone started on",
    );
  }

  /** One runner's column: their score and words, the ones only they found marked. */
  column(result, race) {
    const column = make(this.document, "section", "race-column");
    const you = result.seat === race.you ? " (you)" : "";
    column.append(
      make(this.document, "h3", "race-column-name", `${result.name}${you}`),
      make(this.document, "p", "race-column-score", `${plural(result.score, "point")}, ${plural(result.words.length, "word")}`),
    );
    const list = make(this.document, "ul", "race-column-words");
    list.setAttribute("aria-label", `${result.name}'s words`);
    list.dataset.rove = ""; // one tab stop, walked with the arrows (definition.js)
    for (const { word, points } of result.words) {
      const only = result.only.has(word);
      const item = make(this.document, "li", only ? "race-only" : "");
      const button = wordButton(this.document, word, "race-word", `${word} +${points}`);
      if (only) {
        button.append(make(this.document, "span", "race-only-mark", " ★"));
        button.setAttribute("aria-label", `${word}, ${plural(points, "point")}, only ${result.name} found it`);
      }
      item.append(button);
      list.append(item);
    }
    if (result.words.length === 0) list.append(make(this.document, "li", "race-none", "No words"));
    column.append(list);
    return column;
  }


  /** The board everyone started on, small: its tiles lit for the word chosen. */
  drawBoard(rows) {
    this.board.style.setProperty("--size", String(rows.length || 5));
    this.board.replaceChildren(
      ...rows.flatMap((row, r) =>
        row.map((tile, c) => {
          const cell = make(this.document, "span", "mini-tile", String(tile?.letter ?? ""));
          cell.dataset.at = `${r},${c}`;
          cell.dataset.lit = "false";
          cell.setAttribute("aria-hidden", "true");
          return cell;
        }),
      ),
    );
  }
}
