// The path finder of type-to-spell (static/js/spell.js): which tiles spell what is typed.
import assert from "node:assert/strict";
import { test } from "node:test";

import { findPaths, fold, indexOfPath, pointsOf, readAs } from "../../static/js/spell.js";

/** A board from rows of letters ("CAT/..."), each tile scoring `scores[letter]` (1 if not named). */
function boardOf(rows, scores = {}, marks = {}) {
  return rows.split("/").map((row, r) =>
    [...row].map((letter, c) => ({ letter, score: scores[letter] ?? 1, ...(marks[`${r},${c}`] ?? {}) })),
  );
}

const spelled = (board, path) => path.map(([r, c]) => board[r][c].letter).join("");
const touching = (a, b) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1])) === 1;

/** Every path is a chain the server would take, and spells the word. */
function assertValid(board, word, paths) {
  for (const { path } of paths) {
    assert.equal(spelled(board, path), word.toUpperCase());
    assert.equal(new Set(path.map(String)).size, path.length, "no tile twice");
    for (let i = 1; i < path.length; i += 1) assert.ok(touching(path[i - 1], path[i]), `${path} steps apart`);
  }
}

test("a word with one way to spell it gives that one path", () => {
  const board = boardOf("CATXX/XXXXX/XXXXX/XXXXX/XXXXX");
  const { paths, exhausted } = findPaths(board, "cat");
  assert.deepEqual(paths, [{ path: [[0, 0], [0, 1], [0, 2]], points: 3 }]);
  assert.equal(exhausted, false);
});

test("diagonal steps count, and a tile is never used twice", () => {
  const board = boardOf("AXXXX/XBXXX/XXAXX/XXXXX/XXXXX");
  const { paths } = findPaths(board, "ABA");
  assert.deepEqual(paths.map((p) => p.path), [[[0, 0], [1, 1], [2, 2]], [[2, 2], [1, 1], [0, 0]]]);
  // ABAB would need the B again: no path.
  assert.deepEqual(findPaths(board, "ABAB").paths, []);
});

test("letters repeated on the board give every path, the best-scoring first", () => {
  // Two Es around the T: TEE can go either way, and the left E is worth more.
  const board = boardOf("EXXXX/TEXXX/XXXXX/XXXXX/XXXXX");
  board[0][0].score = 5;
  const { paths } = findPaths(board, "tee");
  assertValid(board, "tee", paths);
  assert.deepEqual(paths, [
    { path: [[1, 0], [0, 0], [1, 1]], points: 7 },
    { path: [[1, 0], [1, 1], [0, 0]], points: 7 },
  ]);
});

test("in a match the multipliers rank the paths: a letter on TL beats the same letter plain", () => {
  const board = boardOf("SAXXX/XXXXX/XXXXX/XXXXX/XXXXA", {}, {});
  board[4][4].mult = null;
  // Two As next to S? Put a second A by the S, on a TL tile.
  board[1][0] = { letter: "A", score: 1, mult: "TL" };
  const match = findPaths(board, "SA", { match: true });
  assert.deepEqual(match.paths[0], { path: [[0, 0], [1, 0]], points: 4 });
  assert.deepEqual(match.paths[1], { path: [[0, 0], [0, 1]], points: 2 });
  // Outside a match, marks do not count: equal points, reading order decides.
  const endless = findPaths(board, "SA");
  assert.deepEqual(endless.paths.map((p) => p.points), [2, 2]);
  assert.deepEqual(endless.paths[0].path, [[0, 0], [0, 1]]);
});

test("the word multiplier and the long-word bonus count as the server counts them", () => {
  const board = boardOf("ABCDEF/XXXXXX/XXXXXX/XXXXXX/XXXXXX/XXXXXX");
  board[0][2].word_mult = 2;
  board[0][0].mult = "DL";
  // letters 2+1+1+1+1+1 = 7, doubled = 14, then +10 for six tiles.
  assert.equal(pointsOf(board, [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5]], { match: true }), 24);
  assert.equal(pointsOf(board, [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5]]), 6);
});

test("a dead end: the letters are on the board but not touching", () => {
  const board = boardOf("CXXXA/XXXXX/XXXXX/XXXXX/TXXXX");
  assert.deepEqual(findPaths(board, "CAT").paths, []);
  assert.deepEqual(findPaths(board, "Q").paths, []);
  assert.deepEqual(findPaths(board, "").paths, []);
});

test("a dead end deep in the word is backed out of, and the path that goes on is found", () => {
  // From the first A, the only T is a dead end (no S beside it); the second A reaches one that works.
  const board = boardOf("CAXXT/XXXXX/XXXXX/XXXAT/XXXXS");
  const { paths } = findPaths(board, "CATS");
  assert.deepEqual(paths, []);
  const board2 = boardOf("CATXX/AXXXX/TXXXX/SXXXX/XXXXX");
  const { paths: paths2 } = findPaths(board2, "CATS");
  assert.deepEqual(paths2.map((p) => p.path), [[[0, 0], [1, 0], [2, 0], [3, 0]]]);
});

test("tiles being replaced are not played", () => {
  const board = boardOf("CATXX/AXXXX/TXXXX/XXXXX/XXXXX");
  const { paths } = findPaths(board, "CAT", { blocked: (r, c) => r === 0 && c === 1 });
  assert.deepEqual(paths.map((p) => p.path), [[[0, 0], [1, 0], [2, 0]]]);
});

test("letters are compared case-blind and in one Unicode form (ñ typed decomposed)", () => {
  const board = boardOf("AÑOXX/XXXXX/XXXXX/XXXXX/XXXXX");
  const { paths } = findPaths(board, "an\u0303o");
  assert.deepEqual(paths.map((p) => p.path), [[[0, 0], [0, 1], [0, 2]]]);
  assert.equal(fold("ñ"), "Ñ");
});

test("a tile of two letters is read whole", () => {
  const board = boardOf("XXXXX/XXXXX/XXXXX/XXXXX/XXXXX");
  board[0][0] = { letter: "Qu", score: 10 };
  board[0][1] = { letter: "I", score: 1 };
  board[0][2] = { letter: "T", score: 1 };
  assert.deepEqual(findPaths(board, "quit").paths, [{ path: [[0, 0], [0, 1], [0, 2]], points: 12 }]);
  assert.deepEqual(findPaths(board, "qit").paths, []);
});

test("25 letters: a snake through every tile is found, and a 26th letter is refused at once", () => {
  const rows = ["ABCDE", "JIHGF", "KLMNO", "TSRQP", "UVWXY"];
  const board = boardOf(rows.join("/"));
  const word = "ABCDEFGHIJKLMNOPQRSTUVWXY";
  const { paths, exhausted } = findPaths(board, word);
  assert.equal(exhausted, false);
  assertValid(board, word, paths);
  assert.equal(paths.length, 1);
  assert.deepEqual(findPaths(board, `${word}Z`), { paths: [], exhausted: false });
});

test("25 letters on a board of one letter: bounded, fast, and still finds paths through every tile", () => {
  const board = boardOf(Array(5).fill("AAAAA").join("/"));
  const started = performance.now();
  const { paths, exhausted } = findPaths(board, "A".repeat(25));
  const took = performance.now() - started;
  assert.ok(paths.length > 0, "a path through all 25 tiles exists and is found");
  assertValid(board, "A".repeat(25), paths);
  assert.equal(exhausted, true, "there are far too many to list: the search stopped at its budget");
  assert.ok(took < 1000, `took ${took} ms`);
  // A short word on it: at most MAX_PATHS kept, all valid, all different.
  const short = findPaths(board, "AAAAA");
  assert.equal(short.paths.length, 12);
  assertValid(board, "AAAAA", short.paths);
  assert.equal(new Set(short.paths.map((p) => String(p.path))).size, 12);
});

test("the path on screen is kept among the candidates when typing goes on from it", () => {
  const board = boardOf(Array(5).fill("AAAAA").join("/"));
  board[4][4].score = 1;
  const prefer = [[4, 4], [3, 3]];
  const { paths } = findPaths(board, "AAA", { prefer, limit: 3 });
  const continues = paths.filter((p) => p.path[0][0] === 4 && p.path[0][1] === 4 && p.path[1][0] === 3 && p.path[1][1] === 3);
  assert.equal(continues.length >= 1, true);
  assert.equal(indexOfPath(paths, continues[0].path) >= 0, true);
  assert.equal(indexOfPath(paths, [[9, 9]]), -1);
});

test("letters that upper case would merge stay apart: σ and ς, ß and SS, ı and i", () => {
  const board = boardOf("ΛΟΓΟX/XXXXX/XXXXX/XXXXX/XXXXX");
  board[0][4] = { letter: "σ", score: 9 };
  board[1][3] = { letter: "ς", score: 1 };
  const greek = ["Λ", "Ο", "Γ", "σ", "ς", "X"];
  const { paths } = findPaths(board, "λογος", { alphabet: greek });
  assert.deepEqual(paths.map((p) => p.path), [[[0, 0], [0, 1], [0, 2], [0, 3], [1, 3]]]);
  assert.equal(fold("ς"), "ς");
  assert.equal(fold("σ"), "Σ");
  assert.equal(fold("ß"), "ß");
  assert.equal(fold("ı"), "ı");
  assert.equal(fold("i"), "I");

  const german = boardOf("MAßEX/XXXXX/XXXXX/XXXXX/XXXXX");
  const alphabet = ["M", "A", "S", "ß", "E", "X"];
  // MAßE and MASSE are two words: each is typed as itself, and this board holds no SS.
  assert.deepEqual(findPaths(german, "maße", { alphabet }).paths.map((p) => p.path), [[[0, 0], [0, 1], [0, 2], [0, 3]]]);
  assert.deepEqual(findPaths(german, "masse", { alphabet }).paths, []);
});

test("a letter the list does not have is read in upper case: one sigma, no ß", () => {
  const board = boardOf("ΛΟΓΟΣ/XXXXX/XXXXX/XXXXX/XXXXX"); // a list that keeps one sigma
  const alphabet = ["Λ", "Ο", "Γ", "Σ", "X"];
  assert.deepEqual(findPaths(board, "λογος", { alphabet }).paths.map((p) => p.path), [[[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]]]);
  assert.equal(readAs("λογος", alphabet), "ΛΟΓΟΣ");
  assert.equal(readAs("straße", ["S", "T", "R", "A", "E"]), "STRASSE");
  assert.equal(readAs("straße", ["S", "T", "R", "A", "E", "ß"]), "STRAßE");
  assert.equal(readAs("λογος"), "ΛΟΓΟς"); // no list known: every letter as itself
});
