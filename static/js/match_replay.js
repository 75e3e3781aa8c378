// The replay page of a match: every step of every turn (a word with how it scored, a pass, a
// timeout, a power) on the board as it stood, beside the best word the board held, with step
// back and forward and play. Reads /games/<id>/replay, which the server computes from the
// match's record with its own rules; writes only this page's DOM. Its words are replay_steps.js's.

import { startDefinitions } from "./definitions_page.js";
import { Stepper, loadReplay } from "./replay_steps_player.js";
import { BoardPanel } from "./view/board.js";
import { wordButton } from "./view/definition.js";
import { LEVEL_LABELS, breakdownText, plural, teamText } from "./view/wording.js";
import {
  bestParts,
  breakdownSpoken,
  byRound,
  describe,
  progressText,
  rankingLines,
  seatName,
  standingBefore,
  stepLabel,
} from "./replay_steps.js";

const config = JSON.parse(document.getElementById("wibble-config").textContent);
const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);
const button = (action) => document.querySelector(`[data-action="${action}"]`);
const STEP_MS = 1600;

const state = { data: null, showBest: false };
const stepper = new Stepper({ count: () => count(), render, stepMs: STEP_MS });
const panel = new BoardPanel($("replay-board"), { focusable: false }); // to watch, not to play

function make(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

const count = () => state.data.steps.length;

function renderSeats(data, standing, turn) {
  $("replay-seats").replaceChildren(
    ...data.seats.map((seat, index) => {
      const item = make("li", "seat");
      item.dataset.seat = String(index);
      item.dataset.kind = seat.kind;
      item.dataset.turn = String(index === turn);
      if (index === turn) item.setAttribute("aria-current", "true");
      const score = make("span", "seat-score");
      const points = standing.scores[index];
      score.append(make("span", "", String(points)), make("span", "visually-hidden", points === 1 ? " point" : " points"));
      const gems = make("span", "seat-gems");
      const shape = make("span", "gem-shape");
      shape.setAttribute("aria-hidden", "true");
      const held = standing.gems[index];
      gems.append(shape, make("span", "", String(held)), make("span", "visually-hidden", ` gem${held === 1 ? "" : "s"}`));
      const tag = seat.kind === "bot" ? `${LEVEL_LABELS[seat.level] ?? seat.level} bot` : "player";
      item.append(make("span", "seat-name", seat.name), make("span", "seat-tag", tag), score, gems);
      const team = data.teams?.[index];
      if (team === 0 || team === 1) {
        // A 2v2: the team in words; its colour (data-team) only repeats it.
        item.dataset.team = String(team);
        item.append(make("span", "team-badge", teamText(team)));
      }
      if (index === turn) item.append(make("span", "visually-hidden", ", this turn"));
      return item;
    }),
  );
}

function renderEnd(data) {
  const teams = data.final.teams ?? null;
  $("replay-teams").hidden = !teams;
  if (teams) {
    $("replay-teams").replaceChildren(
      ...teams.map((team) => {
        const item = make("li", "team-result", `${teamText(team.team)}: ${plural(team.score, "point")}${team.rank === 1 ? (data.final.winner === null ? " (a tie)" : " (wins)") : ""}`);
        item.dataset.team = String(team.team);
        return item;
      }),
    );
  }
  $("replay-ranking").replaceChildren(
    ...rankingLines(data).map((line) => {
      const item = make("li", "rank");
      item.dataset.rank = String(line.rank);
      item.dataset.seat = String(line.seat);
      item.append(
        make("span", "rank-place", `#${line.rank}`),
        make("span", "rank-name", line.name),
        make("span", "rank-score", line.score),
        make("span", "rank-best", line.best),
      );
      return item;
    }),
  );
}

/** Step `n` shows the board just before move `n`, that move, and where the seats stood; the end shows the final board. */
function render() {
  const { data } = state;
  const index = stepper.step;
  const atEnd = index >= count();
  const step = atEnd ? null : data.steps[index];
  const board = atEnd ? data.final.board : step.board;
  const standing = standingBefore(data, index);

  $("replay-round").textContent = `Round ${atEnd ? data.rounds : step.round} of ${data.rounds}`;
  $("replay-step").textContent = progressText(index, count());
  renderSeats(data, standing, atEnd ? null : step.seat);

  const told = step ? describe(data, step) : null;
  $("replay-action").textContent = told ? told.what : "The match is over";
  $("replay-word").replaceChildren(told?.word ? wordButton(document, told.word) : "");
  $("replay-points").textContent = told ? told.points : "";
  const played = step?.action === "play";
  const line = $("replay-word").closest(".word-line");
  line.dataset.status = played ? "word" : "empty";

  // How the word scored: the game's own breakdown for the eye, in words for a screen reader.
  const breakdown = $("replay-breakdown");
  breakdown.replaceChildren();
  if (played) {
    const shown = make("span", "", `${breakdownText(step)} = ${plural(step.points, "pt")}`);
    shown.setAttribute("aria-hidden", "true");
    breakdown.append(shown, make("span", "visually-hidden", `Scored: ${breakdownSpoken(step)}, ${plural(step.points, "point")}.`));
  }

  // The best word that was on the board as the turn ended, and its path on request.
  const ends = Boolean(step && "ended" in step);
  $("replay-best").hidden = !ends;
  const best = ends ? bestParts(step) : { before: "", word: "", after: "" };
  $("replay-best-text").replaceChildren(best.before, best.word ? wordButton(document, best.word) : "", best.after);
  const showBest = button("show-best");
  showBest.hidden = !step?.best;
  showBest.setAttribute("aria-pressed", String(state.showBest));
  const bestPath = ends && step.best && state.showBest ? step.best.path : [];
  const hinted = step?.action === "hint" && step.hint ? step.hint.path : bestPath;

  if (board.length !== panel.size) panel.build(board.length);
  const swapTile = step?.action === "swap" ? [step.row, step.col] : null; // the tile it changed, ringed
  panel.render({ board, chain: played ? step.path : [], marks: true, hint: hinted, swapTile });

  $("replay-end").hidden = !atEnd;
  $("replay-said").textContent = told ? told.said : "The match is over: the final scores are below the board.";

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
    ...byRound(data).map(({ round, steps }) => {
      const item = make("li", "replay-round");
      const title = make("h3", "replay-round-title", `Round ${round}`);
      const list = make("ol", "found replay-round-steps");
      list.append(
        ...steps.map(({ index, step }) => {
          const entry = make("li");
          entry.dataset.step = String(index);
          entry.dataset.action = step.action;
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
      item.append(title, list);
      return item;
    }),
  );
  $("replay-count").textContent = String(data.steps.length);
}

async function start() {
  const body = await loadReplay(document, config.game_id, {
    title: $("replay-title"),
    record: $("replay-record"),
    cannot: "This match cannot be replayed.",
    complete: (reply) => Array.isArray(reply.steps),
  });
  if (body === null) return;
  state.data = body;
  startDefinitions(document, { wordlist: () => body.wordlist, titleOf: () => body.wordlist_title });
  const names = body.seats.map((_, seat) => seatName(body, seat)).join(", ");
  $("replay-title").textContent = `${body.wordlist_title}: ${names}. ${plural(body.rounds, "round")}, seed ${body.seed}.`;
  showSteps(body);
  renderEnd(body);
  button("show-best").addEventListener("click", () => {
    state.showBest = !state.showBest;
    render();
  });
  stepper.wire(button, $("replay-play"));
  render();
  document.body.dataset.ready = "true";
}

start();
