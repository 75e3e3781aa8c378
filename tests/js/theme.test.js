// The stylesheet's two copies of the dark palette (the system's dark, and the player's choice
// of Dark in Settings) must say the same: a colour changed in one only would show one theme
// to some players and another to others.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const css = readFileSync(new URL("../../static/css/wibble.css", import.meta.url), "utf8");

const declarations = (block) =>
  [...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => `${name}: ${value.trim()}`).sort();

const blockAfter = (selector) => {
  const start = css.indexOf(selector);
  assert.notEqual(start, -1, `no ${selector} in the stylesheet`);
  return css.slice(start, css.indexOf("}", start));
};

test("the system's dark palette and the chosen Dark theme are the same colours", () => {
  const system = declarations(blockAfter(':root:not([data-theme="light"]) {'));
  const chosen = declarations(blockAfter(':root[data-theme="dark"] {'));
  assert.ok(system.length >= 20);
  assert.deepEqual(chosen, system);
});
