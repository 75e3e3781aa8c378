// A room's race as this tab knows it (docs/protocol.md, "Races"): who runs, their standings as
// words score, the clock, and once it is over everyone's words side by side and the best words
// nobody found. Plain functions over plain objects; no DOM, no sockets. The server decides
// everything; these only record what it says.

const int = (value, fallback = 0) => (Number.isFinite(value) ? value : fallback);
const text = (value) => (typeof value === "string" ? value : "");

function runnerOf(entry) {
  return {
    seat: int(entry?.seat),
    name: text(entry?.name) || `Seat ${int(entry?.seat) + 1}`,
    kind: entry?.kind === "bot" ? "bot" : "human",
    level: typeof entry?.level === "string" ? entry.level : null,
    score: int(entry?.score),
    words: int(entry?.words),
    last: typeof entry?.last === "string" ? entry.last : null,
  };
}

/** The race's end, from `race_over` (or a `race` snapshot's `over`). */
export function raceOverOf(message) {
  const results = Array.isArray(message?.results) ? message.results : [];
  return {
    results: results.map((result) => ({
      ...runnerOf(result),
      words: Array.isArray(result.words)
        ? result.words.map((w) => ({ word: text(w?.word), points: int(w?.points) }))
        : [],
      only: new Set(Array.isArray(result.only) ? result.only.map(text) : []),
    })),
    board: Array.isArray(message?.board) ? message.board : [],
    missed: (Array.isArray(message?.missed) ? message.missed : []).map((m) => ({
      word: text(m?.word),
      points: int(m?.points),
      path: Array.isArray(m?.path) ? m.path : [],
    })),
  };
}

/**
 * A race from its `race` snapshot. `clock` is the tab's monotonic clock in ms: the race's end
 * is kept as a moment on it (`endsAt`), from the seconds the server says remain, so a wrong
 * system clock never moves it.
 */
export function raceOf(message, clock) {
  const over = message.over ? raceOverOf(message.over) : null;
  return {
    id: text(message.race_id),
    wordlist: text(message.wordlist),
    seconds: int(message.seconds, 60),
    endsAt: clock + 1000 * Math.max(0, int(message.remaining)),
    phase: message.phase === "over" ? "over" : "racing",
    runners: (Array.isArray(message.runners) ? message.runners : []).map(runnerOf),
    you: Number.isInteger(message.you) ? message.you : null,
    over,
    following: null, // the seat whose board a spectator follows
    shownPath: null, // a word nobody found, lit on the starting board: {word, path}
  };
}

/** A runner scored (`race_standing`): their line moves. False for another race's. */
export function applyStanding(race, message) {
  if (!race || message.race_id !== race.id) return false;
  const runner = race.runners.find((r) => r.seat === message.seat);
  if (!runner) return false;
  runner.score = int(message.score);
  runner.words = int(message.words);
  runner.last = typeof message.last === "string" ? message.last : null;
  return true;
}

/** The race ended (`race_over`): its results replace the standings. False for another race's. */
export function applyOver(race, message) {
  if (!race || message.race_id !== race.id) return false;
  race.phase = "over";
  race.over = raceOverOf(message);
  for (const result of race.over.results) applyStanding(race, { ...result, race_id: race.id, words: result.words.length });
  return true;
}

/** The standings, best first (ties by seat): what every screen shows during a race. */
export function standings(race) {
  return [...(race?.runners ?? [])].sort((a, b) => b.score - a.score || a.seat - b.seat);
}

/** What runner `seat` goes by in `race` ("Seat 3" if the race does not list them). */
export function runnerName(race, seat) {
  return race?.runners.find((runner) => runner.seat === seat)?.name ?? `Seat ${seat + 1}`;
}

/** Whole seconds left on the race's clock at `clock` (ms, the tab's monotonic clock). */
export function secondsLeft(race, clock) {
  if (!race || race.phase === "over") return 0;
  return Math.max(0, Math.ceil((race.endsAt - clock) / 1000));
}
