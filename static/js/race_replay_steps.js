// A race's replay in words: when each word was found and by whom, the standings after it, and
// the end. Reads the server's replay (/games/<race_id>/replay) and nothing else; no DOM, so
// node --test reads it (tests/js/race_replay_steps.test.js).

import { runnerName } from "./race.js";
import { LEVEL_LABELS, plural } from "./view/wording.js";

// A runner is named as in the race itself (a seat the replay does not name: "Seat n").
export { runnerName };

/** "a person" or "an Easy bot": what a runner was, beside their name. */
export function runnerTag(data, seat) {
  const runner = data.runners.find((r) => r.seat === seat);
  return runner?.kind === "bot" ? `${LEVEL_LABELS[runner.level] ?? runner.level ?? "Easy"} bot` : "player";
}

/** Seconds into the race as the clock read then: "0:12", "1:05". */
export function atText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** The step's line, short: "0:12 · Ann: CAT +5" (the list beside the board says the same). */
export const stepLabel = (data, step) => `${atText(step.at)} · ${runnerName(data, step.seat)}: ${step.word} +${step.points}`;

/** The step in one sentence, for a screen reader. */
export function stepSaid(data, step) {
  const name = runnerName(data, step.seat);
  const top = step.standings[0]?.score;
  const atTop = step.standings.filter((standing) => standing.score === top);
  let lead = "";
  if (atTop.some((standing) => standing.seat === step.seat)) {
    // Alone at the top, or level there with others (a tie is no lead).
    const others = atTop.filter((standing) => standing.seat !== step.seat);
    if (others.length === 0) lead = ` ${name} leads.`;
    else if (others.length === 1) lead = ` ${name} shares the lead with ${runnerName(data, others[0].seat)}.`;
    else lead = ` ${name} shares the lead with ${others.length} others.`;
  }
  return `At ${atText(step.at)}, ${name} found ${step.word} for ${plural(step.points, "point")}, ${plural(step.total, "point")} in all.${lead}`;
}

/** Standings (best first, as the server ordered them) in words: place, name, score, words. */
export function standingLines(data, standings) {
  let place = 0;
  return standings.map((line, index) => {
    if (index === 0 || line.score !== standings[index - 1].score) place = index + 1; // a tie shares its place
    return {
      seat: line.seat,
      place,
      name: runnerName(data, line.seat),
      tag: runnerTag(data, line.seat),
      score: plural(line.score, "point"),
      words: plural(line.words, "word"),
    };
  });
}

/** Where everyone stood after step `index` (before the first: everyone on nothing, in seat order). */
export function standingsAfter(data, index) {
  if (index >= data.steps.length) return data.final.standings;
  return data.steps[index]?.standings ?? data.runners.map(({ seat }) => ({ seat, score: 0, words: 0 }));
}

/** The step counter: "Word 3 of 12", or the end. */
export const progressText = (index, count) =>
  index >= count ? `End of the race: ${plural(count, "word")}` : `Word ${index + 1} of ${count}`;

/** The end's title: who won, or a tie at the top. */
export function endTitle(data) {
  const [best, next] = data.final.standings;
  if (!best) return "The race is over";
  if (next && next.score === best.score) return "A tie at the top";
  return `${runnerName(data, best.seat)} won the race`;
}
