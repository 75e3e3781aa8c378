// Which screen the page shows for a state (view.js's screenOf), and the room's waiting line
// (view/wording.js): pure, so read without a page.
import assert from "node:assert/strict";
import { test } from "node:test";

import { screenOf } from "../../static/js/view.js";
import { waitingText } from "../../static/js/view/wording.js";

const state = (extra) => ({ mode: "endless", setup: false, match: null, room: null, lobby: false, ...extra });
const match = (extra) => ({ id: "m1", room: null, phase: "playing", ...extra });
const room = (extra) => ({ code: "K7QX2M", match: null, ...extra });

test("endless, the match settings, a match and its end", () => {
  assert.equal(screenOf(state({})), "endless");
  assert.equal(screenOf(state({ mode: "match", setup: true, match: match() })), "setup");
  assert.equal(screenOf(state({ mode: "match" })), "setup");
  assert.equal(screenOf(state({ mode: "match", match: match() })), "match");
  assert.equal(screenOf(state({ mode: "match", match: match({ phase: "between_rounds" }) })), "match");
  assert.equal(screenOf(state({ mode: "match", match: match({ phase: "over" }) })), "over");
});

test("a room: its forms, its lobby, its match, its end screen, and the lobby after it", () => {
  const ours = match({ id: "rm1", room: "K7QX2M" });
  const withMatch = room({ match: { id: "rm1" } });
  assert.equal(screenOf(state({ mode: "room" })), "room-entry");
  assert.equal(screenOf(state({ mode: "room", room: room() })), "lobby");
  assert.equal(screenOf(state({ mode: "room", room: withMatch, match: ours })), "match");
  const over = match({ id: "rm1", room: "K7QX2M", phase: "over" });
  assert.equal(screenOf(state({ mode: "room", room: withMatch, match: over })), "over");
  assert.equal(screenOf(state({ mode: "room", room: withMatch, match: over, lobby: true })), "lobby");
  // A match of this tab's own, or of another room's, is not this room's screen.
  assert.equal(screenOf(state({ mode: "room", room: withMatch, match: match() })), "lobby");
});

test("a room waits for its host by name, or for anyone to sit down", () => {
  assert.equal(waitingText("Ann", "the match"), "Waiting for Ann to start the match…");
  assert.equal(waitingText(null, "a rematch"), "Nobody hosts yet: the next person to sit down does.");
});
