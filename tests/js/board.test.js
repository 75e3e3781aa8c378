// The board panel (view/board.js) against a stand-in for the DOM that records every write:
// a render draws what the state says, and a render with nothing changed writes nothing (each
// write, even of the value already there, costs the phone a restyle of the tile it touches).
import assert from "node:assert/strict";
import { test } from "node:test";

import { BoardPanel } from "../../static/js/view/board.js";

const kebab = (key) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** An element as much as the board uses of one; every change is pushed to `doc.writes`. */
class FakeElement {
  constructor(doc, tag) {
    this.ownerDocument = doc;
    this.tagName = tag.toUpperCase();
    this.children = [];
    this.parent = null;
    this.attrs = new Map();
    this.classes = new Set();
    this.text = "";
    this.isHidden = false;
    this.tabIndex = -1;
    this.style = { setProperty: () => {} };
    const element = this;
    this.classList = {
      toggle(name, force) {
        const on = force === undefined ? !element.classes.has(name) : Boolean(force);
        if (on !== element.classes.has(name)) {
          doc.writes.push(`${element.tagName} class ${name}=${on}`);
          if (on) element.classes.add(name);
          else element.classes.delete(name);
        }
        return on;
      },
      contains: (name) => element.classes.has(name),
    };
    this.dataset = new Proxy({}, {
      get: (_, key) => element.attrs.get(`data-${kebab(String(key))}`),
      set: (_, key, value) => (element.setAttribute(`data-${kebab(String(key))}`, value), true),
      has: (_, key) => element.attrs.has(`data-${kebab(String(key))}`),
      deleteProperty: (_, key) => (element.removeAttribute(`data-${kebab(String(key))}`), true),
    });
  }

  set className(value) {
    this.classes = new Set(value.split(" ").filter(Boolean));
  }

  setAttribute(name, value) {
    this.ownerDocument.writes.push(`${this.tagName} ${name}=${value}`);
    this.attrs.set(name, String(value));
  }

  getAttribute(name) {
    return this.attrs.has(name) ? this.attrs.get(name) : null;
  }

  hasAttribute(name) {
    return this.attrs.has(name);
  }

  removeAttribute(name) {
    this.ownerDocument.writes.push(`${this.tagName} -${name}`);
    this.attrs.delete(name);
  }

  get textContent() {
    return this.text;
  }

  set textContent(value) {
    this.ownerDocument.writes.push(`${this.tagName} text=${value}`);
    this.text = String(value);
  }

  get hidden() {
    return this.isHidden;
  }

  set hidden(value) {
    this.ownerDocument.writes.push(`${this.tagName} hidden=${value}`);
    this.isHidden = Boolean(value);
  }

  append(...nodes) {
    for (const node of nodes) {
      node.parent = this;
      this.children.push(node);
    }
  }

  remove() {
    this.parent.children = this.parent.children.filter((child) => child !== this);
  }

  querySelectorAll(selector) {
    const className = selector.replace(/^\./, "");
    return this.children.filter((child) => child.classes.has(className));
  }

  addEventListener() {}
}

class FakeDocument {
  constructor() {
    this.writes = [];
  }

  createElement(tag) {
    return new FakeElement(this, tag);
  }
}

function panel() {
  const doc = new FakeDocument();
  const trail = { svg: doc.createElement("svg"), line: doc.createElement("polyline"), head: doc.createElement("circle") };
  const board = new BoardPanel(doc.createElement("div"), { trail });
  board.build(3);
  return { board, doc };
}

const letters = (rows) => rows.map((row) => [...row].map((letter, i) => ({ letter, score: i + 1 })));
const BOARD = letters(["CAT", "DOG", "EMU"]);
const MATCH_BOARD = BOARD.map((row) => row.map((tile, c) => ({ ...tile, mult: c === 0 ? "DL" : "", gem: c === 2 })));

/** What a player (or a screen reader) reads off each tile. */
const seen = (board) =>
  board.tiles.flat().map((tile) => ({
    letter: tile.children[0].text,
    score: tile.children[1].text,
    mark: tile.children[2].text,
    gem: !tile.children[3].isHidden,
    spoken: tile.children[4].text,
    classes: [...tile.classes].sort().join(" "),
    attrs: Object.fromEntries([...tile.attrs].filter(([name]) => name !== "data-row" && name !== "data-col").sort()),
  }));

test("a render with nothing changed writes nothing", () => {
  const { board, doc } = panel();
  const state = { board: BOARD, chain: [[0, 0], [0, 1]], hint: [[2, 0]] };
  board.render(state);
  assert.ok(doc.writes.length > 0);
  doc.writes = [];
  board.render({ ...state, chain: [[0, 0], [0, 1]], hint: [[2, 0]] }); // equal, not the same arrays
  assert.deepEqual(doc.writes, []);
});

test("letting go of a chain touches its tiles and the trail, no other tile", () => {
  const { board, doc } = panel();
  board.render({ board: BOARD, chain: [[0, 0], [0, 1], [1, 1]] });
  doc.writes = [];
  board.render({ board: BOARD, chain: [] });
  // The three tiles let go of: each unselected once, and nothing else on the board rewritten.
  assert.equal(doc.writes.filter((write) => write === "DIV aria-selected=false").length, 3);
  assert.equal(doc.writes.filter((write) => write === "DIV class selected=false").length, 3);
  assert.ok(doc.writes.every((write) => !/data-letter|data-score|SPAN text/.test(write)), doc.writes.join("\n"));
  assert.ok(board.tiles.flat().every((tile) => !tile.classes.has("selected")));
  assert.ok(doc.writes.includes("POLYLINE points="));
});

test("each render shows its own state, whatever was drawn before it", () => {
  const states = [
    { board: BOARD, chain: [[0, 0], [0, 1]] },
    { board: BOARD, chain: [[0, 0], [0, 1], [1, 1]], hint: [[2, 2], [2, 1]] },
    { board: MATCH_BOARD, chain: [[2, 2]], marks: true, swapTile: [1, 0] },
    { board: letters(["CAX", "DOG", "EMU"]), chain: [], refilling: (r, c) => r === 0 && c === 2 },
    { board: BOARD, chain: [] },
  ];
  const { board: drawnInTurn } = panel();
  for (const state of states) {
    drawnInTurn.render(state);
    const { board: fresh } = panel();
    fresh.render(state);
    assert.deepEqual(seen(drawnInTurn), seen(fresh));
  }
});

test("a board built again is drawn again in full", () => {
  const { board, doc } = panel();
  board.render({ board: BOARD, chain: [] });
  board.build(3);
  doc.writes = [];
  board.render({ board: BOARD, chain: [] });
  assert.ok(board.tiles.flat().every((tile) => tile.children[0].text !== ""));
  assert.ok(doc.writes.length > 0);
});
