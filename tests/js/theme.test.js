// The stylesheet's two copies of the dark palette (the system's dark, and the player's choice
// of Dark in Settings) must say the same: a colour changed in one only would show one theme
// to some players and another to others.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runInNewContext } from "node:vm";
import { memory } from "./support.js";

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

/** Run static/js/theme.js as the browser runs it in <head>, with this storage; the theme it set. */
function themeSetBy(storage) {
  const attributes = {};
  const document = { documentElement: { setAttribute: (name, value) => { attributes[name] = value; } } };
  const window = { get localStorage() { if (storage === null) throw new Error("denied"); return storage; } };
  runInNewContext(readFileSync(new URL("../../static/js/theme.js", import.meta.url), "utf8"), { window, document });
  return attributes["data-theme"] ?? null;
}

test("the early script puts the theme chosen in Settings on the page, and nothing else", async () => {
  const { Settings } = await import("../../static/js/settings.js");
  for (const theme of ["light", "dark", "system"]) {
    const storage = memory();
    new Settings(storage).set({ theme });
    assert.equal(themeSetBy(storage), theme === "system" ? null : theme);
  }
  const odd = memory();
  odd.setItem("wibble.settings", '{"theme": "purple"}');
  assert.equal(themeSetBy(odd), null);
  odd.setItem("wibble.settings", "not json");
  assert.equal(themeSetBy(odd), null);
  assert.equal(themeSetBy(memory()), null);
  assert.equal(themeSetBy(null), null); // storage blocked
});
