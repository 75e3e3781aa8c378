// The board panel: a grid of tiles (rows of gridcells), their letters, scores, a match's
// marks and gems, the chain lit on them and its trail, and the roving keyboard focus.
// Shared by the game's page (view.js) and the replay page (replay.js); it owns the board's
// elements and nothing else.

import { MARK_SPOKEN, MARK_TEXT } from "./wording.js";
import { make, setAttr } from "./dom.js";

export class BoardPanel {
  /**
   * @param {HTMLElement} element the board (role="grid")
   * @param {object} options `trail`: {svg, line, head} drawing the chain (the game's page);
   *   `focusable`: the tiles take the keyboard focus (a roving tab stop), for playing
   */
  constructor(element, { trail = null, focusable = true } = {}) {
    this.element = element;
    this.document = element.ownerDocument;
    this.trail = trail;
    this.focusable = focusable;
    this.tiles = []; // tiles[row][col] -> element
    this.drawn = []; // drawn[row][col] -> what the tile was last drawn with (drawTile's `next`)
    this.size = 0;
    this.focus = [0, 0];
    if (focusable) {
      // A tile focused by Tab or a click becomes the roving tab stop.
      element.addEventListener("focusin", (event) => {
        const tile = event.target.closest?.("[data-row]");
        if (tile) this.setTabStop(Number(tile.dataset.row), Number(tile.dataset.col));
      });
    }
  }

  /** Rows of `size` tiles, each: letter, score, marks, gem, and its points in words. */
  build(size) {
    for (const row of this.element.querySelectorAll(".row")) row.remove();
    this.tiles = [];
    this.drawn = Array.from({ length: size }, () => Array(size).fill(null));
    for (let r = 0; r < size; r += 1) {
      const row = make(this.document, "div", "row");
      row.setAttribute("role", "row");
      const tiles = [];
      for (let c = 0; c < size; c += 1) {
        const tile = make(this.document, "div", "tile");
        tile.setAttribute("role", "gridcell");
        tile.dataset.row = String(r);
        tile.dataset.col = String(c);
        if (this.focusable) tile.tabIndex = r === 0 && c === 0 ? 0 : -1;
        const score = make(this.document, "span", "tile-score");
        score.setAttribute("aria-hidden", "true");
        // A match's marks: the multiplier as text (readable without colour), and a gem shape.
        const mark = make(this.document, "span", "tile-mark");
        mark.setAttribute("aria-hidden", "true");
        const gem = make(this.document, "span", "tile-gem");
        gem.setAttribute("aria-hidden", "true");
        gem.hidden = true;
        // The tile's name comes from its content, the letter first, then what the eye
        // reads off the tile (points, marks, gem) in words for a screen reader only: an
        // aria-label would not contain the letters and numbers shown, as speech input needs.
        const spoken = make(this.document, "span", "visually-hidden tile-spoken");
        tile.append(make(this.document, "span", "tile-letter"), score, mark, gem, spoken);
        row.append(tile);
        tiles.push(tile);
      }
      this.element.append(row);
      this.tiles.push(tiles);
    }
    this.element.style.setProperty("--size", String(size));
    this.trail?.svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
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

  // -- drawing -----------------------------------------------------------------------

  /**
   * Draw `board` (rows of tiles as the server sent them) with `chain` lit, its last tile
   * marked; `marks`: show a match's multipliers and gems; `hint`: a hinted path, numbered;
   * `swapTile`: the tile a swap will change; `refilling(row, col)`: waiting for a new letter.
   */
  render({ board, chain, marks = false, hint = [], suggested = new Map(), swapTile = null, refilling = () => false }) {
    const order = new Map(chain.map(([r, c], i) => [`${r},${c}`, i]));
    const last = chain.length - 1;
    const hinted = new Map(hint.map(([r, c], i) => [`${r},${c}`, i + 1]));
    for (let r = 0; r < this.size; r += 1) {
      for (let c = 0; c < this.size; c += 1) {
        this.drawTile(r, c, board[r]?.[c], { marks, order, last, hinted, suggested, swapTile, refilling });
      }
    }
    this.drawTrail(chain);
  }

  drawTile(r, c, data, { marks, order, last, hinted, suggested, swapTile, refilling }) {
    // Marks, in words on the tile itself: colour only repeats them.
    const mult = (marks && data?.mult) || "";
    const wordMult = marks && data?.word_mult ? `${data.word_mult}×` : "";
    const gem = Boolean(marks && data?.gem);
    const index = order.get(`${r},${c}`);
    const selected = index !== undefined;
    const hint = hinted.get(`${r},${c}`);
    let label = data ? `, ${data.score} point${data.score === 1 ? "" : "s"}` : "empty";
    if (mult) label += `, ${MARK_SPOKEN[mult] ?? mult}`;
    if (wordMult) label += ", double word";
    if (gem) label += ", gem";
    if (hint !== undefined) label += `, hint letter ${hint} of ${hinted.size}`;
    // A 2v2 teammate's mark: said in words, shown as a ring with a dot (not colour alone).
    const by = suggested.get(`${r},${c}`);
    if (by) label += `, suggested by ${by.join(" and ")}`;
    const next = {
      letter: data ? data.letter : "",
      score: data ? String(data.score) : "",
      mult,
      wordMult,
      gem,
      selected,
      last: selected && index === last,
      refilling: Boolean(refilling(r, c)),
      hint,
      suggested: Boolean(by),
      swapTarget: Boolean(swapTile && swapTile[0] === r && swapTile[1] === c),
      label,
    };
    // Only what differs from the tile's last drawing is written (the board alone writes its
    // tiles, so what it wrote is what they hold): each write, even of the same value, costs a
    // restyle of the tile, and reading the element back costs a call into the browser.
    const before = this.drawn[r][c] ?? {};
    this.drawn[r][c] = next;
    const changed = (key) => before[key] !== next[key];
    const tile = this.tiles[r][c];
    if (changed("letter")) {
      tile.dataset.letter = next.letter;
      tile.children[0].textContent = next.letter;
    }
    if (changed("score")) {
      tile.dataset.score = next.score;
      tile.children[1].textContent = next.score;
    }
    if (changed("mult") || changed("wordMult")) {
      tile.children[2].textContent = [MARK_TEXT[mult] ?? mult, wordMult].filter(Boolean).join(" ");
      tile.dataset.mult = mult;
      tile.dataset.wordMult = wordMult ? "true" : "";
    }
    if (changed("gem")) {
      tile.children[3].hidden = !gem;
      tile.dataset.gem = String(gem);
    }
    if (changed("selected")) {
      tile.classList.toggle("selected", selected);
      tile.setAttribute("aria-selected", String(selected));
    }
    if (changed("last")) tile.classList.toggle("last", next.last);
    if (changed("refilling")) tile.classList.toggle("refilling", next.refilling);
    if (changed("hint")) {
      tile.classList.toggle("hinted", hint !== undefined);
      if (hint !== undefined) tile.dataset.hint = String(hint);
      else delete tile.dataset.hint;
    }
    if (changed("suggested")) tile.classList.toggle("suggested", next.suggested);
    if (changed("swapTarget")) tile.classList.toggle("swap-target", next.swapTarget);
    if (changed("label")) tile.children[4].textContent = label;
  }

  drawTrail(chain) {
    if (!this.trail) return;
    const { line, head } = this.trail;
    setAttr(line, "points", chain.map(([r, c]) => `${c + 0.5},${r + 0.5}`).join(" "));
    const end = chain[chain.length - 1];
    setAttr(head, "r", end ? "0.13" : "0");
    if (end) {
      setAttr(head, "cx", String(end[1] + 0.5));
      setAttr(head, "cy", String(end[0] + 0.5));
    }
  }
}
