// A match's replay in words: what each step was, who made it, how a word scored, and where
// every seat stood. Reads the server's replay (/games/<id>/replay of a match) and nothing
// else; no DOM, so node --test reads it (tests/js/replay_steps.test.js).

import { seatName } from "./match.js";
import { plural, pts, wordAndPoints } from "./view/wording.js";

// A seat is named as in the match itself (the replay's `seats` are the match's).
export { seatName };

/** Where the seats stood before step `index` (`index` = steps.length: at the end). */
export function standingBefore(data, index) {
  if (index <= 0) return data.start;
  const step = data.steps[Math.min(index, data.steps.length) - 1];
  return { scores: step.scores, gems: step.gems };
}

const gemCost = (data, power) => plural(data.costs?.[power] ?? 0, "gem");

/**
 * What step `step` was, for the word line: `who` made it, `what` they did, the `word` and
 * `points` of a play (else empty), and `said`, the whole of it in one sentence.
 */
export function describe(data, step) {
  const who = seatName(data, step.seat);
  const facts = { who, word: "", points: "" };
  switch (step.action) {
    case "play": {
      const gems = step.gems_earned ? ` and ${plural(step.gems_earned, "gem")}` : "";
      return {
        ...facts,
        what: `${who} played`,
        word: step.word,
        points: `+${step.points}`,
        said: `${who} played ${step.word} for ${plural(step.points, "point")}${gems}.`,
      };
    }
    case "pass":
      return { ...facts, what: `${who} passed`, said: `${who} passed.` };
    case "away":
      return { ...facts, what: `${who} was away: the turn passed`, said: `${who} was away, so the turn passed.` };
    case "timeout":
      return { ...facts, what: `${who} ran out of time`, said: `${who} ran out of time.` };
    case "shuffle":
      return {
        ...facts,
        what: `${who} shuffled the letters`,
        said: `${who} shuffled the letters, for ${gemCost(data, "shuffle")}.`,
      };
    case "swap": {
      const where = `row ${step.row + 1}, column ${step.col + 1}`;
      return {
        ...facts,
        what: `${who} swapped ${step.was} for ${step.letter}`,
        said: `${who} swapped the ${step.was} at ${where} for ${step.letter}, for ${gemCost(data, "swap")}.`,
      };
    }
    case "hint": {
      const hint = step.hint ? `: ${wordAndPoints(step.hint)}` : "";
      return {
        ...facts,
        what: `${who} bought a hint${hint}`,
        said: `${who} bought a hint${hint}, for ${gemCost(data, "hint")}.`,
      };
    }
    case "extend":
      return {
        ...facts,
        what: `${who} took ${step.seconds} more seconds`,
        said: `${who} extended the turn by ${step.seconds} seconds, for ${gemCost(data, "extend")}.`,
      };
    default:
      return { ...facts, what: `${who}: ${step.action}`, said: `${who}: ${step.action}.` };
  }
}

/** A step in the list beside the board: short, and the same words a screen reader hears. */
export function stepLabel(data, step) {
  const who = seatName(data, step.seat);
  switch (step.action) {
    case "play":
      return `${who}: ${step.word} +${step.points}`;
    case "pass":
      return `${who}: passed`;
    case "away":
      return `${who}: away, passed`;
    case "timeout":
      return `${who}: ran out of time`;
    case "shuffle":
      return `${who}: shuffle`;
    case "swap":
      return `${who}: swap ${step.was} for ${step.letter}`;
    case "hint":
      return `${who}: hint`;
    case "extend":
      return `${who}: extend`;
    default:
      return `${who}: ${step.action}`;
  }
}

/** How a play scored, in words a screen reader says well (no arrows, no times signs). */
export function breakdownSpoken(play) {
  const marks = play.marks ?? [];
  const multiplied = marks.some(({ mult }) => mult);
  const letters = multiplied
    ? marks.map(({ letter, mult }) => (mult === "DL" ? `${letter} doubled` : mult === "TL" ? `${letter} tripled` : letter)).join(", ")
    : "";
  const steps = (play.breakdown ?? []).map((step) => {
    switch (step.step) {
      case "letters":
        return `letters ${step.points}`;
      case "word_multiplier":
        return `word times ${step.factor ?? 2}, ${step.points}`;
      case "long_word":
        return `plus ${step.bonus ?? 10} for a long word, ${step.points}`;
      default:
        return `${step.step.replaceAll("_", " ")} ${step.points}`;
    }
  });
  return [letters, ...steps].filter(Boolean).join("; ");
}

/** The best word the board held when a turn ended, beside what was played. */
export function bestText(step) {
  const { before, word, after } = bestParts(step);
  return `${before}${word}${after}`;
}

/** `bestText` in three parts, so that a page can make the word itself a button. */
export function bestParts(step) {
  if (!step.best) return { before: "No word on the board", word: "", after: "" };
  const same = step.word && step.word === step.best.word && step.points === step.best.points;
  const points = wordAndPoints({ ...step.best, word: "" });
  return { before: "Best on the board: ", word: step.best.word, after: `${points}${same ? " (played)" : ""}` };
}

/** The steps grouped by round, each with its index in `data.steps`: [{round, steps: [{index, step}]}]. */
export function byRound(data) {
  const rounds = [];
  data.steps.forEach((step, index) => {
    if (rounds.length === 0 || rounds[rounds.length - 1].round !== step.round) rounds.push({ round: step.round, steps: [] });
    rounds[rounds.length - 1].steps.push({ index, step });
  });
  return rounds;
}

/** The end, in words: the ranking with each seat's best word, as the end screen has it. */
export function rankingLines(data) {
  const best = new Map((data.final.best_words ?? []).map(({ seat, word }) => [seat, word]));
  return data.final.ranking.map(({ seat, rank, score }) => ({
    seat,
    rank,
    name: seatName(data, seat),
    score: pts(score),
    best: best.get(seat) ? `Best word: ${wordAndPoints(best.get(seat))}` : "No word played",
  }));
}

/** The step counter: "Step 3 of 12", or the end. */
export const progressText = (index, count) =>
  index >= count ? `End of the match: ${plural(count, "step")}` : `Step ${index + 1} of ${count}`;
