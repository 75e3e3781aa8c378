// The page's wording: every sentence it shows or speaks. The store says what happened (a
// key and its facts, `message.say`); this says it in words. No DOM: node --test reads it.

export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** A race's length: in minutes when it is whole minutes (a host may make a race's minute shorter). */
export const raceLength = (seconds) => (seconds % 60 === 0 ? plural(seconds / 60, "minute") : plural(seconds, "second"));
export const pts = (n) => `${n} pt${n === 1 ? "" : "s"}`;

export function resultText({ word, result, points, minLength }) {
  switch (result) {
    case "scored":
      return `${word} +${points}`;
    case "not_a_word":
      return `Not a word: ${word}`;
    case "already_found":
      return `Already found: ${word}`;
    case "too_short":
      return `Too short — ${minLength ?? 3} letters minimum`;
    default:
      return `${word}: ${result}`;
  }
}

/** The word a turn ended with, before what follows it on the message line ("Ada played KNEED: +14. "). */
const afterText = (after) => (after ? `${SAY.played(after)}. ` : "");

/** A server's explanation as a sentence: its first letter a capital, a full stop at the end. */
export const sentence = (text) => {
  const said = String(text ?? "").trim();
  if (!said) return "";
  const capital = said[0].toUpperCase() + said.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
};

/** The page's own words for the refusals a player meets in a room (a room's others: the server's, as a
 * sentence; the game's own are already worded for players). */
export const REFUSED = {
  "room/removed": "The host removed someone who played from your network address, so you can only watch in this room.",
  "room/too_few": "Fill at least two seats (friends or bots) to start.",
  "room/seat_taken": "Someone took that seat first.",
  "room/full": "Every seat is taken: you can watch.",
  "room/match_running": "That waits until the match or race being played is over.",
  "room/not_host": "Only the host can do that.",
  "room/already_seated": "You have a seat already.",
};

/** What each message of the store says on screen. */
export const SAY = {
  no_words_left: () => "No words left — start a new game.",
  list_fallback: ({ title }) => `That word list is not available — here is a new game (${title}).`,
  game_lost: ({ title }) => `That game is no longer on the server — here is a new one (${title}).`,
  game_back: ({ title }) => `Back to your ${title} game.`,
  game_new: ({ title }) => `New game — ${title}`,
  result: resultText,
  server: ({ text, code }) => REFUSED[code] ?? (/^(room|limit)\//.test(String(code)) ? sentence(text) : text),
  other_tab: () => "Another tab is playing this game.",
  other_tab_chain: () => "Another tab is playing a word — wait for it to finish.",
  other_seat_chain: () => "Someone else is playing a word — wait for it to finish.",
  press_enter: () => "Press Enter to submit the word.",
  pick_touching: () => "Pick a tile that touches the last one, and not one already used.",
  // a sprint
  daily_scored: () => "Today's board: this try is scored.",
  daily_practice: () => "Today's board again, for fun: only your first try of the day is scored.",
  time_up: ({ total, words }) => `Time's up! ${plural(total, "point")} from ${plural(words, "word")}.`,
  ended_early: ({ total, words }) => `Done! ${plural(total, "point")} from ${plural(words, "word")}.`,
  done_confirm: ({ daily }) =>
    daily ? "End your try now, with the score as it stands? Press “End now” to confirm." : "End this sprint now? Press “End now” to confirm.",
  done_offline: () => "Not connected: the sprint goes on until the server can be told (or its clock runs out).",
  // a match
  match_new: ({ name }) => `New match — ${name} plays first.`,
  match_new_you_first: () => "New match — you play first. Drag a word!",
  match_back: () => "Back to your match.",
  your_turn: ({ after }) => `${afterText(after)}Your turn.`,
  not_your_turn: ({ name }) => `It is ${name}'s turn — wait for yours.`,
  wait_round: () => "The next round starts in a moment.",
  power_cost: ({ power, cost, gems }) => `${capital(power)} costs ${plural(cost, "gem")}; you have ${gems}.`,
  power_untimed: () => "This match has no clock to extend.",
  swap_pick: ({ cost }) => `Swap (${plural(cost, "gem")}): pick the tile to change on the board, then its new letter. Esc cancels.`,
  played: ({ mine, name, word, points, gemsEarned }) =>
    `${mine ? "You" : name} played ${word}: +${points}${gemsEarned ? ` and ${plural(gemsEarned, "gem")}` : ""}`,
  passed: ({ mine, name, how, yours, next }) =>
    `${mine ? "You" : name} ${how === "timeout" ? "ran out of time" : "passed"}. ${yours ? "Your turn." : `${next}'s turn.`}`,
  round_over: ({ round, after }) => `${afterText(after)}Round ${round} is over.`,
  round_start: ({ round, yours, next }) => `Round ${round} — ${yours ? "your turn" : `${next}'s turn`}.`,
  hint: () => "Hint bought — see below the board.",
  shuffled: ({ mine, name }) => `${mine ? "You" : name} shuffled the letters.`,
  extended: ({ mine, name, seconds }) => `${mine ? "You" : name} added ${plural(seconds, "second")} to the turn's clock.`,
  swapped: ({ mine, name, was, letter }) => `${mine ? "You" : name} swapped ${was} for ${letter}.`,
  no_hint: () => "No word on this board to hint at.",
  suggested: ({ name, count }) => `${name} marks ${plural(count, "tile")} for you.`,
  match_over_teams: ({ winner, mine }) =>
    winner === null ? "Match over — a tie!" : `Match over — ${mine === winner ? "your team wins" : `${teamText(winner)} wins`}!`,
  match_over: ({ won, shared, name }) =>
    won ? (shared ? "Match over — a shared win!" : "Match over — you win!") : `Match over — ${name} wins.`,
  // a room
  watching: () => "You are watching. You can take a seat between matches.",
  room_created: ({ code }) => `Room ${code} is ready. Send your friends its link.`,
  room_watching: ({ playing }) =>
    playing ? `You are watching. A free seat can be taken once the ${playing} is over.` : "You are watching. Take a free seat to play.",
  race_on: ({ seconds }) => `The race is on: ${raceLength(seconds)} on the same board as everyone. Go!`,
  race_time_up: () => "Time's up! The race is over.",
  race_watching: () => "A race is on. Press Watch beside a player to follow their board.",
  race_following: ({ name, over }) =>
    over ? `${name}'s final board.` : `Following ${name}'s board: the score above is theirs. Press Watch beside another player to switch.`,
  room_back: ({ seat }) => `Back in your seat (seat ${seat + 1}).`,
  room_seated: ({ seat, given, asked }) =>
    given ? `You sat down in seat ${seat + 1} as ${given}: someone here goes by ${asked} already.` : `You sat down in seat ${seat + 1}.`,
  room_got_up: ({ next }) =>
    next ? `You got up; you are watching. ${next} hosts the room now.` : "You got up; you are watching.",
  remove_confirm: ({ name }) =>
    `Remove ${name}? They lose the seat and are left watching. Press “Remove now” to confirm.`,
  room_seats: ({ came, went, moved, removed = null }) =>
    [
      ...came.map(({ name, seat }) => `${name} sat down in seat ${seat + 1}.`),
      ...moved.map(({ name, seat }) => `${name} moved to seat ${seat + 1}.`),
      ...went.map((name) => (name === removed ? `You removed ${name}: they are watching.` : `${name} left their seat.`)),
    ].join(" "),
  room_host_now: () => "You are the host now: the rules and the start are yours.",
  seat_away: ({ name }) => `${name} is away: a stand-in bot plays their seat.`,
  seat_back: ({ name }) => `${name} is back in their seat.`,
  room_removed: () => "The host removed you from your seat; you are watching.",
  room_seat_lost: () => "Your seat in this room is no longer yours; you are watching.",
  link_copied: () => "Link copied. Send it to your friends.",
  leave_confirm: ({ race }) =>
    `Leave the room? ${race ? "Your seat in the race is given up" : "A bot plays your seat until the match ends"}, and you can come back only to watch. Press “Leave now” to confirm.`,
  // type to spell
  no_path: ({ typed, letter }) =>
    typed ? `No path on the board spells ${typed}${letter}.` : `No ${letter} on the board to start with.`,
  struck_out: ({ typed, extra }) => `No path spells ${typed}${extra}: Backspace takes ${[...extra].length === 1 ? extra : "the struck letters"} back.`,
  spell_path: ({ index, count }) =>
    count > 1 ? `Path ${index + 1} of ${count} (Tab for the next, Shift+Tab back).` : "Only one path spells this.",
  link_not_copied: () => "Could not copy: select the link and copy it.",
};

/** A sprint's end: its heading, and the line under it. */
export const sprintOverText = (total, early = false) => `${early ? "Done" : "Time's up"}: ${plural(total, "point")}`;
export const sprintResultText = ({ total, words }) =>
  words === 0
    ? "No words this time. The best ones the board held are below."
    : `You found ${plural(words, "word")} for ${plural(total, "point")}.`;

/** The daily board's sentences. */
export const DAILY = {
  title: (day) => `Daily board #${day}`,
  intro: (seconds) =>
    `One board a day, the same for everyone: ${seconds % 60 === 0 ? plural(seconds / 60, "minute") : plural(seconds, "second")} to find as many words as you can. ` +
    "Your first try of the day counts on the leaderboard; after that you can play it again for fun.",
  share: (day, total, words, scored = true) =>
    `Wibble daily #${day}${scored ? "" : ", played again for fun"}: ${plural(total, "point")}, ${plural(words, "word")}`,
  shared: { copied: "Copied: paste it to your friends.", shared: "Shared.", failed: "Could not copy here: this browser keeps the clipboard closed." },
  /** The try on screen: today's scored one (ranked, or not: `you` once it has ended), or a replay. */
  scoredOrNot: (scored, you) =>
    !scored
      ? "A replay: it does not count on the leaderboard."
      : you?.ranked === false
        ? "Your scored try of the day, not ranked: below says why."
        : "This try counts on today's leaderboard.",
  rank: ({ you, players, played, rules }) =>
    you && you.ranked === false
      ? `Your try: ${plural(you.score, "point")}, not ranked: ${DAILY.unranked(you, rules)}`
      : you
      ? `You are ${ordinal(you.rank)} of ${plural(players, "player")} today.`
      : played
        ? "Your try is being played; your rank comes when it ends."
        : players === 0
          ? "Nobody has finished today's board yet."
          : `${plural(players, "player")} so far today.`,
  /** Why a try is not ranked (the server says: its pace, or its address's places). */
  unranked: ({ why, pace }, rules) =>
    why === "pace"
      ? `it was played faster than a person can (${plural(pace ?? 0, "tile")} in ${plural(rules?.pace?.seconds ?? 10, "second")}; the most a person plays is ${rules?.pace?.tiles ?? "far fewer"}).`
      : `your address already holds its ${plural(rules?.places ?? 2, "place")} today with better tries.`,
  top: ({ name, score, words }) => `${name}: ${plural(score, "point")} (${plural(words, "word")})`,
  streak: (streak, played) =>
    played === 0 ? "No daily boards played in this browser yet." : `Streak: ${plural(streak, "day")} in a row. Days played here: ${played}.`,
  best: ({ day, date, score }) => `#${day} (${date}): ${plural(score, "point")}`,
  yesterday: (day) => `Yesterday's board (#${day}) and its best words`,
  yesterdayBoard: (rows) => `Yesterday's board, row by row: ${rows.map((row) => row.join(" ")).join("; ")}`,
};
export const ordinal = (n) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th";
  return `${n}${suffix}`;
};

/** What the room forms say under a field (`state.join.error`). */
export const FIELD_ERRORS = {
  name_length: () => "Your name needs 1 to 20 characters.",
  bad_code: () => "A room code is 6 letters and digits, like K7QX2M (or paste the room's whole link).",
};
export const fieldError = (error) => (error.say ? FIELD_ERRORS[error.say]?.() : sentence(error.text)) ?? "";

/** Why the host cannot start yet (room.js's `Blocked`). */
export const START_BLOCKED = {
  running: "A match or race is being played.",
  too_few: "Fill at least two seats (friends or bots) to start.",
};

/** What the host is told of `startCheck`'s answer (room.js), wherever a start or a rematch is offered: "" if it may. */
export const blockedText = (check) => (check.ok ? "" : START_BLOCKED[check.why] ?? "");

/** What a room's players wait for (the match, a rematch), from its host's name (null: nobody hosts). */
/** The page was opened by a name the server does not trust, so its websocket is refused. */
export const refusedHostText = (host) =>
  `This server does not accept the address “${host}”, so the game cannot connect. ` +
  `Open it by the address the server printed, or ask whoever runs it to start it with ` +
  `WIBBLE_ALLOWED_HOSTS=${host}.`;

export const waitingText = (host, what) =>
  host === null ? "Nobody hosts yet: the next person to sit down does." : `Waiting for ${host} to start ${what}…`;

/** A seat's presence dot, in words (room.js's `Presence`). */
export const PRESENCE = {
  online: "connected",
  offline: "connection lost, seat held",
  away: "away, a stand-in bot plays",
  bot: "bot",
};

/** A bot level's name; what it means is said beside each picker (templates/index.html, "levels-help"). */
export const LEVEL_LABELS = { easy: "Easy", medium: "Medium", hard: "Hard" };
/** What the host's chooser calls each room mode (protocol.js's ROOM_MODES). */
export const MODE_LABELS = { match: "Match", teams: "2v2 (two teams of two)", race: "Race" };
/** A 2v2's team, named in words (its colour only repeats it). */
export const teamText = (team) => `Team ${team === 1 ? "B" : "A"}`;
export const turnsText = (speed) => (speed === 1 ? "1 turn a round" : `${speed} turns a round`);

/** What a screen reader hears instead, where the screen's few words are not enough. */
export const SPOKEN = {
  result: (facts) =>
    facts.result === "scored"
      ? `${facts.word} scored ${plural(facts.points, "point")}. Total ${facts.total}.`
      : resultText(facts),
  hint: ({ word, points }) => `Hint: ${word}, ${plural(points, "point")}. Its path is lit on the board.`,
  played: (facts) =>
    `${facts.mine ? "You" : facts.name} played ${facts.word} for ${plural(facts.points, "point")}` +
    (facts.gemsEarned ? ` and ${plural(facts.gemsEarned, "gem")}.` : "."),
  your_turn: ({ after }) => `${after ? `${SPOKEN.played(after)} ` : ""}Your turn.`,
  round_over: ({ round, after }) => `${after ? `${SPOKEN.played(after)} ` : ""}Round ${round} is over.`,
};

export const messageText = (message) => (SAY[message.say] ?? (() => message.text ?? ""))(message);
export const spokenText = (message) => (SPOKEN[message.say] ?? messageText)(message);

/** The chain being built, for a screen reader: the word, what it is, and its points. */
export const CHAIN_SPOKEN = {
  word: "a word",
  prefix: "keep going",
  none: "no word starts like this",
  found: "already found",
};

export const STATUS_LABEL = {
  empty: "",
  pending: "…",
  word: "✓ word",
  prefix: "… keep going",
  none: "✗ no words",
  found: "↺ already found",
};

export const SHORT_LABEL = "✗ too short";

/** A tile's marks as the tile shows them: DL, TL (letter multipliers) and 2× (the word's). */
export const MARK_TEXT = { DL: "DL", TL: "TL" };
export const MARK_SPOKEN = { DL: "double letter", TL: "triple letter" };
export const POWER_NAMES = { shuffle: "Shuffle", swap: "Swap", hint: "Hint", extend: "Extend" };

/** How a play scored, step by step, from the server's `breakdown`: "C×2 A T → letters 8 → ×2 word 16 → +10 long word 26". */
export function breakdownText(play) {
  // The letters are spelt out only when one of them was multiplied (the "C×2" is the news).
  const marks = play.marks ?? [];
  const letters = marks.some(({ mult }) => mult)
    ? marks.map(({ letter, mult }) => (mult === "DL" ? `${letter}×2` : mult === "TL" ? `${letter}×3` : letter)).join(" ")
    : "";
  const steps = (play.breakdown ?? []).map((step) => {
    switch (step.step) {
      case "letters":
        return `letters ${step.points}`;
      case "word_multiplier":
        return `×${step.factor ?? 2} word ${step.points}`;
      case "long_word":
        return `+${step.bonus ?? 10} long word ${step.points}`;
      default:
        return `${step.step.replaceAll("_", " ")} ${step.points}`;
    }
  });
  return [letters, ...steps].filter(Boolean).join(" → ");
}

/** "just now", "5 min ago", "3 h ago", "2 days ago": when a game was last played. */
export function playedAgo(played, now = Date.now()) {
  const minutes = Math.floor((now - played) / 60_000);
  if (!played || minutes < 1) return played ? "just now" : "";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}

/** What the header says about the words still on the board. */
export function wordsLeftText(count) {
  if (count === null) return "";
  if (count === 0) return "No words left";
  return `${count} word${count === 1 ? "" : "s"} to find`;
}

/** Which letter values a match scores by (a room's rules, shown to those who do not edit them). */
export const valuesText = (values) =>
  values === "classic" ? "Letter values: the word list's own" : "Letter values: Spellcast's (where the list has them)";
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
export const seatTag = (seat) => (seat.kind === "bot" ? `Bot · ${seat.level ?? "?"}` : "");
export const wordAndPoints = (word) => (word ? `${word.word}${word.points === null ? "" : ` ${pts(word.points)}`}` : "");

/** The settings panel's sentences that depend on the device (the rest are in the page). */
export const SETTINGS_WORDING = Object.freeze({
  vibrationHelp: "A short buzz for the same, on a phone.",
  noVibration: "This browser cannot vibrate.",
});

// What the definition popover says (view/definition.js).
export const DEFINE = Object.freeze({
  looking: (word) => `Looking up ${word.toUpperCase()}…`,
  formOf: (lemma) => `${lemma.toUpperCase()} · `,
  noEntry: (word, source) => `${source} has no entry for ${word.toUpperCase()}.`,
  noSource: (title) => `There are no definitions for ${title || "this word list"}.`,
  source: (name) => `From ${DEFINE.sourceName(name)}`,
  sourceName: (name) => (name === "WordNet 3.0" ? "WordNet 3.0 (Princeton University)" : name),
  refused: (error) =>
    error?.code === "limit/definitions"
      ? "That is a lot of words at once: wait a minute, then ask again."
      : error?.code === "client/offline" || error?.code === "client/no_answer"
        ? "The server did not answer; try again when it is connected."
        : "This list's definitions are not available right now.",
});
