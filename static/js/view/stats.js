// The Stats view: a modal <dialog> (the browser gives it the focus trap, Esc and the backdrop)
// drawn from a summary (store/stats.js's summaryOf) each time it opens or a game is recorded
// meanwhile, with export and import. Owns the dialog, which it builds itself (the page's markup
// has only the header's Stats button). Everything shown goes in as textContent or an attribute,
// never markup.

import { chartOf } from "../store/stats.js";
import { rove, wordButton } from "./definition.js";
import { make, setText } from "./dom.js";
import { LEVEL_NAMES, MODE_NAMES, STATS, dayText, importText, minutesText } from "./stats_wording.js";

const SVG = "http://www.w3.org/2000/svg";

export class StatsPanel {
  /** @param {Document} root the page */
  constructor(root) {
    this.document = root;
    const dialog = make(root, "dialog", "stats-dialog");
    dialog.dataset.testid = "stats";
    dialog.setAttribute("aria-labelledby", "stats-title");
    const head = make(root, "div", "stats-head");
    const title = make(root, "h2", "stats-title", STATS.title);
    title.id = "stats-title";
    this.closeButton = this.button("button small", "close-stats", STATS.close);
    head.append(title, this.closeButton);
    this.body = make(root, "div", "stats-body");
    this.body.dataset.testid = "stats-body";

    const files = this.section("files");
    const actions = make(root, "div", "setup-actions");
    actions.append(this.button("button", "export-stats", STATS.export), this.button("button", "import-stats", STATS.import));
    this.fileInput = make(root, "input", "visually-hidden");
    Object.assign(this.fileInput, { type: "file", accept: ".json,application/json", tabIndex: -1 });
    this.fileInput.dataset.testid = "stats-file";
    this.fileInput.setAttribute("aria-hidden", "true");
    this.status = make(root, "p", "stats-status");
    this.status.dataset.testid = "stats-status";
    this.status.setAttribute("role", "status");
    files.append(actions, this.fileInput, this.status);

    dialog.append(head, make(root, "p", "stats-intro", STATS.intro), this.body, files);
    root.body.append(dialog);
    this.dialog = dialog;
  }

  get isOpen() {
    return this.dialog.open;
  }

  /** Open the view on `summary` (the focus goes to its first control: Close). */
  open(summary) {
    setText(this.status, "");
    this.render(summary);
    if (!this.dialog.open) this.dialog.showModal();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  /** Offer the exported file as a download, and say where it went. */
  download({ name, text }) {
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const link = make(this.document, "a");
    link.href = url;
    link.download = name;
    this.dialog.append(link); // (inside the dialog: outside a modal one, a click is inert)
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    setText(this.status, STATS.exported(name));
  }

  /** Ask for a file to import (the browser's own file picker). */
  pickFile() {
    this.fileInput.value = ""; // the same file picked twice is a change both times
    this.fileInput.click();
  }

  /** What an import did ({added, updated} or {error}), then the numbers as they now are. */
  imported(result, summary) {
    this.render(summary);
    setText(this.status, importText(result));
  }

  // -- drawing -----------------------------------------------------------------------------

  button(className, action, text) {
    const button = make(this.document, "button", className, text);
    button.type = "button";
    button.dataset.action = action;
    return button;
  }

  section(key) {
    const section = make(this.document, "section", "stats-section");
    const heading = make(this.document, "h3", "stats-heading", STATS.headings[key]);
    heading.id = `stats-${key}-title`;
    section.setAttribute("aria-labelledby", heading.id);
    section.append(heading);
    return section;
  }

  /** The numbers: each part a section with its heading, or what will appear once there are games. */
  render(summary) {
    const doc = this.document;
    if (summary.empty) {
      this.body.replaceChildren(make(doc, "p", "stats-empty", summary.newer ? STATS.newer : STATS.empty));
      return;
    }
    this.body.replaceChildren(
      make(doc, "p", "stats-total", STATS.total(summary)),
      this.modes(summary),
      this.best(summary),
      this.sprints(summary),
      this.daily(summary),
      this.bots(summary),
      this.words(summary),
    );
  }

  modes(summary) {
    const section = this.section("modes");
    const c = STATS.columns;
    section.append(
      this.table(
        [c.mode, c.games, c.words, c.points],
        summary.byMode.map((mode) => [MODE_NAMES[mode.mode], mode.games, mode.words, mode.points]),
        "stats-modes-table",
      ),
    );
    return section;
  }

  best(summary) {
    const section = this.section("best");
    const best = summary.best;
    const line = make(this.document, "p", "stats-best-word", best ? undefined : STATS.noBest);
    if (best) line.append(this.word(best), STATS.bestAfter(best));
    line.dataset.testid = "stats-best";
    section.append(line);
    return section;
  }

  sprints(summary) {
    const section = this.section("sprints");
    const sprints = summary.sprints;
    if (sprints.length === 0) {
      section.append(make(this.document, "p", "stats-none", STATS.noSprints));
      return section;
    }
    const c = STATS.columns;
    const details = make(this.document, "details", "stats-table-details");
    details.append(
      make(this.document, "summary", "", STATS.tableSummary),
      this.table(
        [c.when, c.length, c.points, c.words],
        sprints.map((sprint) => [dayText(sprint.at), minutesText(sprint.seconds), sprint.score, sprint.words]),
        "stats-sprints-table",
      ),
    );
    section.append(
      make(this.document, "p", "stats-note", STATS.sprintsIntro({ shown: sprints.length, count: summary.sprintCount })),
      this.chart(sprints),
      this.legend(chartOf(sprints).series),
      details,
    );
    return section;
  }

  daily(summary) {
    const section = this.section("daily");
    const streak = make(this.document, "p", "stats-streak", STATS.streak(summary.daily));
    streak.dataset.testid = "stats-streak";
    const list = make(this.document, "ol", "stats-days");
    list.append(...summary.daily.history.map((day) => make(this.document, "li", "", STATS.day(day))));
    section.append(streak, list);
    return section;
  }

  bots(summary) {
    const section = this.section("bots");
    if (summary.bots.length === 0) {
      section.append(make(this.document, "p", "stats-none", STATS.noBots));
      return section;
    }
    const c = STATS.columns;
    section.append(this.table([c.level, c.beaten, c.played], summary.bots.map((bot) => [LEVEL_NAMES[bot.level], bot.beaten, bot.played]), "stats-bots-table"));
    return section;
  }

  words(summary) {
    const section = this.section("words");
    const list = make(this.document, "ol", "stats-words");
    list.dataset.testid = "stats-words";
    list.dataset.rove = "";
    for (const entry of summary.topWords) {
      const item = make(this.document, "li");
      item.append(this.word(entry, "stats-word"), make(this.document, "span", "stats-count", STATS.timesPlayed(entry.count)));
      list.append(item);
    }
    rove(list);
    section.append(list);
    return section;
  }

  /** A word that shows its definition, from the list it was played in (the page's own if not known). */
  word({ word, wordlist }, className = "") {
    const button = wordButton(this.document, word, className);
    if (wordlist) button.dataset.wordlist = wordlist;
    return button;
  }

  /** A table with a header row; each row's first cell heads its row. */
  table(headings, rows, testid) {
    const doc = this.document;
    const table = make(doc, "table", "stats-table");
    table.dataset.testid = testid;
    const head = make(doc, "tr");
    for (const text of headings) {
      const cell = make(doc, "th", "", text);
      cell.scope = "col";
      head.append(cell);
    }
    const body = make(doc, "tbody");
    for (const [first, ...rest] of rows) {
      const row = make(doc, "tr");
      const cell = make(doc, "th", "", String(first));
      cell.scope = "row";
      row.append(cell, ...rest.map((value) => make(doc, "td", "", String(value))));
      body.append(row);
    }
    const thead = make(doc, "thead");
    thead.append(head);
    table.append(thead, body);
    return table;
  }

  /** The chart: one line a sprint length, each its own dash and marker shape, on a 0-to-top scale. */
  chart(sprints) {
    const geometry = chartOf(sprints);
    const svg = this.svg("svg", { class: "stats-chart", viewBox: `0 0 ${geometry.width} ${geometry.height}`, role: "img", "aria-label": STATS.chartLabel(sprints) });
    svg.dataset.testid = "stats-chart";
    const { plot } = geometry;
    for (const tick of geometry.ticks) {
      svg.append(
        this.svg("line", { class: "stats-grid", x1: plot.left, x2: plot.right, y1: tick.y, y2: tick.y }),
        this.svg("text", { class: "stats-tick", x: plot.left - 6, y: tick.y, "text-anchor": "end", "dominant-baseline": "middle" }, String(tick.value)),
      );
    }
    svg.append(this.svg("text", { class: "stats-tick", x: (plot.left + plot.right) / 2, y: geometry.height - 4, "text-anchor": "middle" }, STATS.chartAxis));
    geometry.series.forEach((series, index) => {
      const style = `stats-series-${index % 3}`;
      if (series.points.length > 1) svg.append(this.svg("polyline", { class: `stats-line ${style}`, points: series.points.map((p) => p.join(",")).join(" ") }));
      for (const [x, y] of series.points) svg.append(this.marker(index % 3, x, y, style));
    });
    return svg;
  }

  legend(series) {
    const list = make(this.document, "ul", "stats-legend");
    series.forEach(({ seconds }, index) => {
      const item = make(this.document, "li");
      const key = this.svg("svg", { class: "stats-key", viewBox: "0 0 28 12", "aria-hidden": "true", focusable: "false" });
      key.append(this.svg("line", { class: `stats-line stats-series-${index % 3}`, x1: 1, x2: 27, y1: 6, y2: 6 }), this.marker(index % 3, 14, 6, `stats-series-${index % 3}`));
      item.append(key, make(this.document, "span", "", minutesText(seconds)));
      list.append(item);
    });
    return list;
  }

  /** A sprint's point: a circle, a square or a triangle, so that no series is told by its colour alone. */
  marker(shape, x, y, style) {
    const className = `stats-marker ${style}`;
    if (shape === 0) return this.svg("circle", { class: className, cx: x, cy: y, r: 3.5 });
    if (shape === 1) return this.svg("rect", { class: className, x: x - 3.2, y: y - 3.2, width: 6.4, height: 6.4 });
    return this.svg("polygon", { class: className, points: `${x},${y - 4.2} ${x + 4},${y + 3} ${x - 4},${y + 3}` });
  }

  svg(tag, attributes, text = undefined) {
    const element = this.document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
    if (text !== undefined) element.textContent = text;
    return element;
  }
}
