// The replay page of a race: every runner's scored words merged in the order they were found,
// each on its runner's board just before it (the word's path lit), with the standings after
// it; at the end the final standings, everyone's words and the board everyone started on. Step
// back and forward and play, as a match's replay. Reads /games/<race_id>/replay, which the
// server builds from the stored race and its runners' games; writes only this page's DOM. Its
// words are race_replay_steps.js's.

import { startDefinitions } from "./definitions_page.js";
import { Stepper, loadReplay } from "./replay_steps_player.js";
import { BoardPanel } from "./view/board.js";
import { rove, wordButton } from "./view/definition.js";
import { plural, raceLength } from "./view/wording.js";
import {
  endTitle,
  atText,
  progressText,
  runnerName,
  standingLines,
  standingsAfter,
  stepLabel,
  stepSaid,
} from "./race_replay_steps.js";

const config = JSON.parse(document.getElementById("wibble-config").textContent);
const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);
const button = (action) => document.querySelector(`[data-action="${action}"]`);
const STEP_MS = 1400;

const state = { data: null };
const count = () => state.data.steps.length;
const stepper = new Stepper({ count: () => count(), render, stepMs: STEP_MS });
const panel = new BoardPanel($("replay-board"), { focusable: false }); // to watch, not to play

function make(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

function renderStandings(data, standings, mover) {
  $("replay-standings").replaceChildren(
    ...standingLines(data, standings).map((line) => {
      const item = make("li", "rank");
      item.dataset.rank = String(line.place);
      item.dataset.seat = String(line.seat);
      if (line.seat === mover) item.setAttribute("aria-current", "true");
      item.append(
        make("span", "rank-place", `#${line.place}`),
        make("span", "rank-name", line.name),
        make("span", "rank-score", line.score),
        make("span", "rank-best", `${line.tag}, ${line.words}`),
      );
      return item;
    }),
  );
}

/** The end: each runner's words in the order they found them, best runner first. */
function renderEnd(data) {
  const words = new Map(data.final.words.map(({ seat, words }) => [seat, words]));
  $("replay-end-title").textContent = endTitle(data);
  $("replay-results").replaceChildren(
    ...data.final.standings.map(({ seat, score }) => {
      const name = runnerName(data, seat);
      const found = words.get(seat) ?? [];
      const column = make("section", "race-column");
      column.dataset.seat = String(seat);
      column.append(
        make("h4", "race-column-name", name),
        make("p", "race-column-score", `${plural(score, "point")}, ${plural(found.length, "word")}`),
      );
      const list = make("ul", "race-column-words");
      list.setAttribute("aria-label", `${name}'s words`);
      list.dataset.rove = ""; // one tab stop, walked with the arrows (definition.js)
      for (const { word, points, at } of found) {
        const item = make("li");
        const shown = wordButton(document, word, "race-word", `${word} +${points}`);
        shown.title = `at ${atText(at)}`;
        item.append(shown);
        list.append(item);
      }
      if (found.length === 0) list.append(make("li", "race-none", "No words"));
      column.append(list);
      return column;
    }),
  );
  for (const list of $("replay-results").querySelectorAll("ul")) rove(list);
}

/** Step `n` shows word `n` on its runner's board just before it, and the standings after it; the end shows the start board. */
function render() {
  const { data } = state;
  const index = stepper.step;
  const atEnd = index >= count();
  const step = atEnd ? null : data.steps[index];
  const board = atEnd ? data.board : step.board;

  $("replay-time").textContent = atEnd ? "Race over" : atText(step.at);
  $("replay-step").textContent = progressText(index, count());
  $("replay-action").textContent = atEnd ? "The race is over" : `${atText(step.at)} · ${runnerName(data, step.seat)}:`;
  $("replay-word").replaceChildren(step ? wordButton(document, step.word) : "");
  $("replay-points").textContent = step ? `+${step.points}` : "";
  $("replay-word").closest(".word-line").dataset.status = step ? "word" : "empty";

  if (board.length !== panel.size) panel.build(board.length);
  panel.render({ board, chain: step ? step.path : [] });
  $("replay-board").setAttribute(
    "aria-label",
    step ? `${runnerName(data, step.seat)}'s board before ${step.word}, its path lit` : "The board everyone started on",
  );

  $("replay-standings-title").textContent = atEnd ? "Final standings" : "Standings after this word";
  renderStandings(data, standingsAfter(data, index), step?.seat);
  $("replay-end").hidden = !atEnd;
  $("replay-said").textContent = step ? stepSaid(data, step) : `The race is over. ${endTitle(data)}.`;

  for (const item of $("replay-steps").querySelectorAll("[data-step]")) {
    const current = Number(item.dataset.step) === index;
    item.classList.toggle("current", current);
    if (current) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
  $("replay-play").textContent = stepper.playing ? "Pause" : "Play";
  button("back").disabled = index === 0;
  button("first").disabled = index === 0;
  button("next").disabled = atEnd;
  button("last").disabled = atEnd;
}

function showSteps(data) {
  $("replay-steps").replaceChildren(
    ...data.steps.map((step, index) => {
      const entry = make("li");
      entry.dataset.step = String(index);
      entry.dataset.seat = String(step.seat);
      const choose = make("button", "found-word replay-move", stepLabel(data, step));
      choose.type = "button";
      choose.addEventListener("click", () => {
        stepper.pause();
        stepper.go(index);
      });
      entry.append(choose);
      return entry;
    }),
  );
  $("replay-count").textContent = String(data.steps.length);
}

async function start() {
  const body = await loadReplay(document, config.game_id, {
    title: $("replay-title"),
    record: $("replay-record"),
    cannot: "This race cannot be replayed.",
    complete: (reply) => Array.isArray(reply.steps),
  });
  if (body === null) return;
  state.data = body;
  startDefinitions(document, { wordlist: () => body.wordlist, titleOf: () => body.wordlist_title });
  const names = body.runners.map(({ seat }) => runnerName(body, seat)).join(", ");
  $("replay-title").textContent = `${body.wordlist_title}: ${names}. A race of ${raceLength(body.seconds)}, seed ${body.seed}.`;
  showSteps(body);
  renderEnd(body);
  stepper.wire(button, $("replay-play"));
  render();
  document.body.dataset.ready = "true";
}

start();
