// The message line under the board (view/messages.js), on stand-in elements: what it shows, and a
// message that holds only for a while leaving the line when it no longer holds.
import assert from "node:assert/strict";
import { test } from "node:test";

const { MessagesPanel } = await import("../../static/js/view/messages.js");

/** A page of the four elements the panel reads, each with the little of an element it uses. */
const page = () => {
  const elements = new Map();
  const element = () => ({ textContent: "", dataset: {}, hidden: false, setAttribute() {}, removeAttribute() {} });
  return {
    querySelector: (selector) => {
      if (!elements.has(selector)) elements.set(selector, element());
      return elements.get(selector);
    },
  };
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("a confirm message leaves the line once its press would no longer do anything", async () => {
  const root = page();
  const panel = new MessagesPanel(root, () => {});
  const line = root.querySelector('[data-testid="message"]');
  const asked = { kind: "info", say: "leave_confirm", race: false, lasts: 30, id: 1 };
  panel.renderMessage({ message: asked });
  assert.match(line.textContent, /Press “Leave now” to confirm\.$/);
  panel.renderMessage({ message: asked }); // a render meanwhile changes nothing
  await sleep(60);
  assert.equal(line.textContent, "");
  assert.equal(line.dataset.kind, undefined);
  assert.equal(root.querySelector('[data-testid="announcer"]').textContent, ""); // nor kept for a screen reader
  panel.renderMessage({ message: asked }); // nor brings it back
  assert.equal(line.textContent, "");
});

test("a message after a confirm stays: the confirm's lapse takes only its own words away", async () => {
  const root = page();
  const panel = new MessagesPanel(root, () => {});
  const line = root.querySelector('[data-testid="message"]');
  panel.renderMessage({ message: { kind: "info", say: "done_confirm", daily: false, lasts: 30, id: 1 } });
  panel.renderMessage({ message: { kind: "error", say: "done_offline", id: 2 } });
  await sleep(60);
  assert.match(line.textContent, /^Not connected/);
});
