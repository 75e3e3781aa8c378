// The only module that writes the page. Everything from the server or the player
// goes in through textContent and attributes, never innerHTML.

import { currentChain, isRefilling, phaseOf } from "./store.js";

const SVG = "http://www.w3.org/2000/svg";

const STATUS_LABEL = {
  empty: "",
  pending: "…",
  word: "✓ word",
  prefix: "… keep going",
  none: "✗ no words",
  found: "↺ already found",
};

/** "just now", "5 min ago", "3 h ago", "2 days ago": when a game was last played. */
export function playedAgo(played, now = Date.now()) {
  const minutes = Math.floor((now - played) / 60_000);
  if (!played || minutes < 1) return played ? "just now" : "";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}

/** What the header says about the words still on the board. */
function wordsLeftText(count) {
  if (count === null) return "";
  if (count === 0) return "No words left";
  return `${count} word${count === 1 ? "" : "s"} to find`;
}

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

export class View {
  constructor(root, config) {
    this.root = root;
    this.body = root.body;
    const $ = (selector) => root.querySelector(selector);
    this.el = {
      total: $('[data-testid="total-score"]'),
      wordsLeft: $('[data-testid="words-left"]'),
      board: $('[data-testid="board"]'),
      trail: $(".trail"),
      trailLine: $(".trail-line"),
      trailHead: $(".trail-head"),
      wordLine: $(".word-line"),
      word: $('[data-testid="current-word"]'),
      points: $('[data-testid="current-points"]'),
      status: $('[data-testid="chain-status"]'),
      message: $('[data-testid="message"]'),
      picker: $('[data-testid="wordlist"]'),
      newGame: $('[data-action="new-game"]'),
      submit: $('[data-action="submit"]'),
      found: $('[data-testid="found-words"]'),
      foundCount: $('[data-testid="found-count"]'),
      foundEmpty: $(".found-empty"),
      games: $('[data-testid="your-games"]'),
      replayLink: $('[data-testid="replay-link"]'),
      connection: $('[data-testid="connection-status"]'),
      connectionText: $(".connection-text"),
      retry: $('[data-action="retry"]'),
    };
    this.tiles = []; // tiles[row][col] -> element
    this.size = 0;
    this.focus = [0, 0];
    this.shownMessage = 0;
    this.shownGame = null;
    this.shownFound = 0;
    this.countdown = null;
    this.fillPicker(config.wordlists, config.default_wordlist);
    this.buildBoard(5);
    // A tile focused by Tab or a click becomes the roving tab stop.
    this.el.board.addEventListener("focusin", (event) => {
      const tile = event.target.closest?.("[data-row]");
      if (tile) this.setTabStop(Number(tile.dataset.row), Number(tile.dataset.col));
    });
  }

  fillPicker(lists, chosen) {
    for (const { name, title } of lists) {
      const option = this.root.createElement("option");
      option.value = name;
      option.textContent = title;
      this.el.picker.append(option);
    }
    this.el.picker.value = chosen;
  }

  buildBoard(size) {
    const board = this.el.board;
    for (const row of board.querySelectorAll(".row")) row.remove();
    this.tiles = [];
    for (let r = 0; r < size; r += 1) {
      const row = this.root.createElement("div");
      row.className = "row";
      row.setAttribute("role", "row");
      const tiles = [];
      for (let c = 0; c < size; c += 1) {
        const tile = this.root.createElement("div");
        tile.className = "tile";
        tile.setAttribute("role", "gridcell");
        tile.dataset.row = String(r);
        tile.dataset.col = String(c);
        tile.tabIndex = r === 0 && c === 0 ? 0 : -1;
        const letter = this.root.createElement("span");
        letter.className = "tile-letter";
        const score = this.root.createElement("span");
        score.className = "tile-score";
        score.setAttribute("aria-hidden", "true");
        tile.append(letter, score);
        row.append(tile);
        tiles.push(tile);
      }
      board.append(row);
      this.tiles.push(tiles);
    }
    board.style.setProperty("--size", String(size));
    this.el.trail.setAttribute("viewBox", `0 0 ${size} ${size}`);
    this.size = size;
    this.focus = [0, 0];
  }

  // -- focus (roving tabindex) -----------------------------------------------------

  moveFocus(dRow, dCol) {
    const clamp = (v) => Math.max(0, Math.min(this.size - 1, v));
    const [row, col] = this.focus;
    this.focusTile(clamp(row + dRow), clamp(col + dCol));
  }

  focusTile(row, col) {
    this.setTabStop(row, col);
    this.tiles[row][col].focus();
  }

  setTabStop(row, col) {
    const [oldRow, oldCol] = this.focus;
    this.tiles[oldRow][oldCol].tabIndex = -1;
    this.focus = [row, col];
    this.tiles[row][col].tabIndex = 0;
  }

  // -- rendering ---------------------------------------------------------------------

  render(state, event = {}, canPlay = false) {
    const game = state.game;
    if (game && game.size !== this.size) this.buildBoard(game.size);
    if (game) {
      this.body.dataset.ready = "true";
      this.el.board.dataset.gameId = game.id;
      this.el.board.dataset.wordlist = game.wordlist;
      // The words are in the list's language; the rest of the page stays English.
      for (const el of [this.el.board, this.el.word, this.el.found]) el.lang = game.language || "en";
    }
    const current = currentChain(state);
    this.body.dataset.phase = phaseOf(state);

    this.renderTiles(state, current);
    this.renderTrail(current);
    this.renderWordLine(current);
    this.renderFound(state, event);
    this.renderMessage(state);
    this.renderConnection(state);
    this.renderGames(state, canPlay);

    this.el.total.textContent = String(state.total);
    this.renderWordsLeft(state.wordsLeft);
    this.el.board.setAttribute("aria-disabled", String(!canPlay));
    this.el.board.classList.toggle("disabled", !canPlay);
    const open = state.connection.state === "open";
    this.el.newGame.disabled = !open;
    this.el.picker.disabled = !open;
    this.el.submit.disabled = !canPlay || !state.mine || current.chain.length === 0;
    // The picker shows the list being played; after a refused list, it goes back to it.
    const refused = event.type === "error" && String(event.code).startsWith("game/");
    if (game && (event.type === "game" || refused || this.el.picker.value === "")) {
      this.el.picker.value = game.wordlist;
    }

    if (event.type === "board") this.animateRefill(event.changed);
    if (event.type === "word" && event.result === "scored") this.pulse(this.el.total);
    this.shownGame = game?.id ?? null;
  }

  renderWordsLeft(count) {
    const el = this.el.wordsLeft;
    const text = wordsLeftText(count);
    if (el.textContent === text) return;
    el.textContent = text;
    el.dataset.count = count === null ? "" : String(count);
  }

  renderTiles(state, current) {
    const order = new Map(current.chain.map(([r, c], i) => [`${r},${c}`, i]));
    const last = current.chain.length - 1;
    for (let r = 0; r < this.size; r += 1) {
      for (let c = 0; c < this.size; c += 1) {
        const tile = this.tiles[r][c];
        const data = state.board[r]?.[c];
        const letter = data ? data.letter : "";
        const score = data ? String(data.score) : "";
        if (tile.dataset.letter !== letter) {
          tile.dataset.letter = letter;
          tile.firstChild.textContent = letter;
        }
        if (tile.dataset.score !== score) {
          tile.dataset.score = score;
          tile.lastChild.textContent = score;
        }
        const index = order.get(`${r},${c}`);
        const selected = index !== undefined;
        tile.classList.toggle("selected", selected);
        tile.classList.toggle("last", selected && index === last);
        tile.setAttribute("aria-selected", String(selected));
        tile.classList.toggle("refilling", isRefilling(state, r, c));
        const label = data ? `${letter}, ${data.score} point${data.score === 1 ? "" : "s"}` : "empty";
        if (tile.getAttribute("aria-label") !== label) tile.setAttribute("aria-label", label);
      }
    }
  }

  renderTrail(current) {
    const points = current.chain.map(([r, c]) => `${c + 0.5},${r + 0.5}`).join(" ");
    this.el.trailLine.setAttribute("points", points);
    const end = current.chain[current.chain.length - 1];
    this.el.trailHead.setAttribute("r", end ? "0.13" : "0");
    if (end) {
      this.el.trailHead.setAttribute("cx", String(end[1] + 0.5));
      this.el.trailHead.setAttribute("cy", String(end[0] + 0.5));
    }
  }

  renderWordLine(current) {
    const status = current.alreadyFound ? "found" : current.status;
    this.el.board.dataset.status = status;
    this.el.wordLine.dataset.status = status;
    this.el.word.textContent = current.word;
    this.el.points.textContent = current.chain.length ? `${current.points} pt${current.points === 1 ? "" : "s"}` : "";
    this.el.status.textContent = STATUS_LABEL[status] ?? "";
  }

  renderFound(state, event) {
    const list = this.el.found;
    const found = state.found;
    const sameGame = state.game && state.game.id === this.shownGame && event.type !== "game";
    if (!sameGame || found.length < this.shownFound) {
      list.replaceChildren(...found.map((entry) => this.foundItem(entry)).reverse());
    } else {
      for (const entry of found.slice(this.shownFound)) {
        const item = this.foundItem(entry);
        list.prepend(item);
        this.animate(item, [
          { opacity: 0, transform: "translateY(-6px)" },
          { opacity: 1, transform: "none" },
        ], 260);
      }
    }
    this.shownFound = found.length;
    this.el.foundCount.textContent = String(found.length);
    this.el.foundEmpty.hidden = found.length > 0;
  }

  foundItem({ word, points }) {
    const item = this.root.createElement("li");
    const text = this.root.createElement("span");
    text.className = "found-word";
    text.textContent = word;
    const score = this.root.createElement("span");
    score.className = "found-points";
    score.textContent = `+${points}`;
    item.append(text, score);
    return item;
  }

  renderMessage(state) {
    const message = state.message;
    if (!message || message.id === this.shownMessage) return;
    this.shownMessage = message.id;
    const el = this.el.message;
    el.textContent = message.text;
    el.dataset.kind = message.kind;
    this.animate(el, [{ opacity: 0, transform: "translateY(3px)" }, { opacity: 1, transform: "none" }], 180);
  }

  /** "Your games": this browser's games, newest first, the one on screen marked. */
  renderGames(state, canPlay) {
    const playing = state.game?.id ?? null;
    const open = canPlay; // a game on screen and a connection: another can be opened
    // The store replaces the list whenever it changes, so this is cheap on every drag step.
    const shown = this.shownGames;
    if (shown && shown.games === state.games && shown.playing === playing && shown.open === open) return;
    this.shownGames = { games: state.games, playing, open };
    this.el.replayLink.hidden = playing === null;
    if (playing !== null) this.el.replayLink.href = `/replay/${encodeURIComponent(playing)}`;
    // Rebuilding the buttons must not throw away keyboard focus on one of them.
    const focused = this.root.activeElement?.closest?.("[data-game-id]")?.dataset.gameId;
    const items = state.games.map((game) => {
      const item = this.root.createElement("li");
      const button = this.root.createElement("button");
      button.type = "button";
      button.className = "game-entry";
      button.dataset.gameId = game.game_id;
      button.disabled = !open;
      if (game.game_id === playing) button.setAttribute("aria-current", "true");
      const title = this.root.createElement("span");
      title.className = "game-title";
      title.textContent = game.title || game.wordlist || "Game";
      const score = this.root.createElement("span");
      score.className = "game-score";
      score.textContent = `${game.total} pts · ${game.words} word${game.words === 1 ? "" : "s"}`;
      const when = this.root.createElement("span");
      when.className = "game-when";
      when.textContent = game.game_id === playing ? "playing" : playedAgo(game.played);
      button.append(title, score, when);
      item.append(button);
      return item;
    });
    this.el.games.replaceChildren(...items);
    if (focused) items.find((item) => item.firstChild.dataset.gameId === focused)?.firstChild.focus();
  }

  renderConnection(state) {
    const { state: phase, lost, retryAt, restarting } = state.connection;
    const el = this.el.connection;
    el.dataset.state = phase;
    // The banner is for trouble: shown once a connection is lost or the first one
    // fails, and hidden again only when a fresh game snapshot has arrived.
    const show = !state.live && (lost || phase === "waiting");
    el.hidden = !show;
    this.el.retry.hidden = phase !== "waiting";
    clearInterval(this.countdown);
    this.countdown = null;
    if (!show) return;
    const update = () => {
      const seconds = Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
      if (restarting) {
        // The server said so (close code 1012): the game is saved and will be back.
        this.el.connectionText.textContent =
          phase === "waiting" ? `Server restarting, reconnecting in ${seconds}s…` : "Server restarting, reconnecting…";
      } else if (phase === "waiting") {
        this.el.connectionText.textContent = `Connection lost — reconnecting in ${seconds}s…`;
      } else {
        this.el.connectionText.textContent = "Reconnecting…";
      }
    };
    update();
    if (phase === "waiting") this.countdown = setInterval(update, 250);
  }

  // -- motion --------------------------------------------------------------------------

  animate(element, keyframes, duration, delay = 0) {
    if (reducedMotion() || !element.animate) return;
    element.animate(keyframes, { duration, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  }

  animateRefill(changed) {
    changed.forEach(([r, c], i) => {
      const tile = this.tiles[r]?.[c];
      if (!tile) return;
      this.animate(tile, [
        { opacity: 0, transform: "translateY(-35%) scale(0.7)" },
        { opacity: 1, transform: "translateY(4%) scale(1.03)", offset: 0.7 },
        { opacity: 1, transform: "none" },
      ], 340, i * 45);
    });
  }

  pulse(element) {
    this.animate(element, [{ transform: "scale(1.25)" }, { transform: "none" }], 300);
  }
}
