// The replay page: a saved game played back move by move, from the server's replay of its record.
// Reads /games/<id>/replay (the board before every move, and the move); writes only this page's DOM.

import { Stepper, loadReplay } from "./replay_steps_player.js";
import { startDefinitions } from "./definitions_page.js";
import { BoardPanel } from "./view/board.js";
import { wordButton } from "./view/definition.js";

const config = JSON.parse(document.getElementById("wibble-config").textContent);
const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);
const STEP_MS = 1400;

const RESULTS = {
  scored: "New word",
  not_a_word: "Not a word",
  already_found: "Already found",
  too_short: "Too short",
};

const state = { data: null };
const stepper = new Stepper({ count: () => state.data.frames.length, render, stepMs: STEP_MS });
const panel = new BoardPanel($("replay-board"), { focusable: false }); // to watch, not to play

/** Step `n` shows the board before move `n` with its path; the last step shows the final board. */
function render() {
  const { data } = state;
  const step = stepper.step;
  const frames = data.frames;
  const atEnd = step >= frames.length;
  const frame = atEnd ? null : frames[step];
  const board = atEnd ? data.final.board : frame.board;
  const boardElement = $("replay-board");
  boardElement.dataset.status = frame ? (frame.move.result === "scored" ? "word" : "none") : "";
  // The game's own board panel: the same tiles, marks and words for a screen reader.
  if (board.length !== panel.size) panel.build(board.length);
  panel.render({ board, chain: frame ? frame.move.path : [] });
  const before = step === 0 ? 0 : frames[step - 1].move.total;
  $("replay-score").textContent = String(frame ? before : data.final.total);
  $("replay-word").replaceChildren(frame ? wordButton(document, frame.move.word) : "");
  $("replay-points").textContent = frame && frame.move.points ? `+${frame.move.points}` : "";
  $("replay-result").textContent = frame ? RESULTS[frame.move.result] ?? frame.move.result : "";
  // The result's colour is the line's, as on the game's page (a word, or not one).
  $("replay-result").closest(".word-line").dataset.status = boardElement.dataset.status || "empty";
  $("replay-step").textContent = atEnd
    ? `End of the game: ${frames.length} move${frames.length === 1 ? "" : "s"}`
    : `Move ${step + 1} of ${frames.length}`;
  for (const [index, item] of [...$("replay-moves").children].entries()) {
    item.classList.toggle("current", index === step);
    if (index === step) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
  $("replay-play").textContent = stepper.playing ? "Pause" : "Play";
  document.querySelector('[data-action="back"]').disabled = step === 0;
  document.querySelector('[data-action="first"]').disabled = step === 0;
  document.querySelector('[data-action="next"]').disabled = atEnd;
  document.querySelector('[data-action="last"]').disabled = atEnd;
}

function showMoves(frames) {
  const list = $("replay-moves");
  list.replaceChildren(
    ...frames.map(({ move }, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "found-word replay-move";
      const points = move.result === "scored" ? ` +${move.points}` : ` (${RESULTS[move.result] ?? move.result})`;
      button.textContent = `${move.word}${points}`;
      button.addEventListener("click", () => {
        stepper.pause();
        stepper.go(index);
      });
      item.append(button);
      return item;
    }),
  );
  $("replay-count").textContent = String(frames.length);
}

async function start() {
  const body = await loadReplay(document, config.game_id, {
    title: $("replay-title"),
    record: $("replay-record"),
    cannot: "This game cannot be replayed.",
    complete: (reply) => Array.isArray(reply.frames),
  });
  if (body === null) return;
  state.data = body;
  startDefinitions(document, { wordlist: () => body.wordlist, titleOf: () => body.wordlist_title });
  $("replay-title").textContent = `${body.wordlist_title} · seed ${body.seed}`;
  showMoves(body.frames);
  stepper.wire((action) => document.querySelector(`[data-action="${action}"]`), $("replay-play"));
  render();
  document.body.dataset.ready = "true";
}

start();
