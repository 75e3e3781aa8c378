// A room as this tab knows it (docs/protocol.md, "Rooms: playing with friends"): its six
// seats, who hosts, the rules, its current or last match, and which seat (if any) is this
// tab's. Plain functions over a plain object; no DOM, no sockets, no storage. The store
// keeps the object and calls these as the server's messages arrive. The server decides
// everything; these only record it, and keep the buttons honest (the server checks again).

import { LEVELS, MATCH_SEATS, RACE_SECONDS, ROOM_MODES, ROOM_SEATS, SPEEDS, TEAM_SEATS } from "./protocol.js";

/** A seat's presence, as its dot shows it. */
export const Presence = Object.freeze({
  ONLINE: "online", // its person has a connection open
  OFFLINE: "offline", // every connection is gone: the seat is held for the grace period
  AWAY: "away", // the grace period ran out: a stand-in bot plays the seat
  BOT: "bot",
});

/** Why a match cannot start now (`startCheck`). */
export const Blocked = Object.freeze({
  NOT_HOST: "not_host",
  RUNNING: "running",
  TOO_FEW: "too_few",
});

const int = (value, fallback = 0) => (Number.isFinite(value) ? value : fallback);
/** A seat number from the server, or null (no seat: watching, or no host). */
const seatIndex = (value) => (Number.isInteger(value) && value >= 0 && value < ROOM_SEATS ? value : null);

function seatOf(seat, index) {
  if (seat === null || typeof seat !== "object") return null;
  const kind = seat.kind === "bot" ? "bot" : "human";
  return {
    index,
    // Shown as text only, whatever it holds (view.js uses textContent).
    name: typeof seat.name === "string" && seat.name ? seat.name : `Seat ${index + 1}`,
    kind,
    level: LEVELS.includes(seat.level) ? seat.level : kind === "bot" ? "easy" : null,
    speed: SPEEDS.includes(seat.speed) ? seat.speed : 1,
    connected: seat.connected !== false,
    away: Boolean(seat.away),
    gone: Boolean(seat.gone), // its person left mid-match: free once the match is over
    score: int(seat.score),
    gems: int(seat.gems),
  };
}

function rulesOf(rules) {
  const given = rules !== null && typeof rules === "object" ? rules : {};
  return {
    rounds: int(given.rounds, 5),
    turnSeconds: Number.isFinite(given.turn_seconds) ? given.turn_seconds : null,
    wordlist: typeof given.wordlist === "string" ? given.wordlist : null,
    standIn: LEVELS.includes(given.stand_in) ? given.stand_in : "easy",
    values: given.values === "classic" ? "classic" : "spellcast",
    // What the room plays next; a mode this page does not know yet reads as a match.
    mode: ROOM_MODES.includes(given.mode) ? given.mode : "match",
    raceSeconds: RACE_SECONDS.includes(given.race_seconds) ? given.race_seconds : 120,
  };
}

/** The room's note of its race (when the last thing it started was one). */
function raceNoteOf(race) {
  if (race === null || typeof race !== "object" || typeof race.race_id !== "string") return null;
  return { id: race.race_id, phase: race.phase === "over" ? "over" : "racing", seconds: int(race.seconds, 120) };
}

/** The room's note of its match: enough to know whether one is being played. */
function matchNoteOf(match) {
  if (match === null || typeof match !== "object" || typeof match.match_id !== "string") return null;
  return { id: match.match_id, phase: match.phase ?? "playing", round: int(match.round, 1), rounds: int(match.rounds, 1) };
}

/** A room from its `room` snapshot. */
export function roomOf(message) {
  const seats = Array.isArray(message.seats) ? message.seats : [];
  return {
    code: String(message.code ?? ""),
    host: seatIndex(message.host),
    seats: Array.from({ length: ROOM_SEATS }, (_, index) => seatOf(seats[index], index)),
    spectators: Math.max(0, int(message.spectators)),
    rules: rulesOf(message.rules),
    match: matchNoteOf(message.match),
    race: raceNoteOf(message.race),
    you: seatIndex(message.you),
    name: typeof message.name === "string" ? message.name : "",
    grace: int(message.grace, 120),
    version: int(message.version),
  };
}

// -- reading it ------------------------------------------------------------------------------

export const isSeated = (room) => room !== null && room.you !== null;
export const isHost = (room) => isSeated(room) && room.host === room.you;
export const filledSeats = (room) => room.seats.filter((seat) => seat !== null);
export const hostName = (room) => (room.host === null ? null : room.seats[room.host]?.name ?? null);

/**
 * Who else sat down, got up or moved in the lobby between two snapshots of it: `{came: [{name,
 * seat}], went: [name], moved: [{name, seat}]}`, or null when nobody did (or a match started or
 * runs: its seats move up, which nobody did by hand). Bots are the host's doing: not counted.
 */
export function seatChanges(previous, room) {
  if (!previous || matchRunning(room) || matchRunning(previous)) return null;
  if (previous.match?.id !== room.match?.id || previous.race?.id !== room.race?.id) return null;
  const person = (seat) => (seat?.kind === "human" ? seat.name : null);
  const came = [];
  const went = [];
  room.seats.forEach((seat, index) => {
    const now = index === room.you ? null : person(seat);
    const before = index === previous.you ? null : person(previous.seats[index]);
    if (now !== before) {
      if (now !== null) came.push({ name: now, seat: index });
      if (before !== null) went.push(before);
    }
  });
  const moved = came.filter(({ name }) => went.includes(name));
  const changes = {
    came: came.filter(({ name }) => !went.includes(name)),
    went: went.filter((name) => !came.some((arrival) => arrival.name === name)),
    moved,
  };
  return changes.came.length || changes.went.length || changes.moved.length ? changes : null;
}

/** A match is being played (seats and rules stay as they are until it ends). */
/** A match, or a race, is being played: seats and rules wait for its end. */
export const matchRunning = (room) =>
  (room.match !== null && room.match.phase !== "over") || (room.race !== null && room.race.phase !== "over");

/** The room races next (its rules' mode). */
export const isRace = (room) => room !== null && room.rules.mode === "race";

/** A 2v2 room: four seats, team A in 0 and 2, team B in 1 and 3 (bots fill the empty ones). */
export const isTeams = (room) => room !== null && room.rules.mode === "teams";
/** The seats the lobby shows: a 2v2's four, a match's six, a race's eight. */
export const seatsShown = (room) =>
  isTeams(room) ? room.seats.slice(0, 4) : isRace(room) ? room.seats : room.seats.slice(0, MATCH_SEATS);
/** A 2v2 seat's team (0: A, 1: B), or null. */
export const teamOfSeat = (room, index) =>
  !isTeams(room) ? null : TEAM_SEATS.a.includes(index) ? 0 : TEAM_SEATS.b.includes(index) ? 1 : null;

/** Whether this tab may start the room's match now, and if not, why (a `Blocked`). */
export function startCheck(room) {
  if (!isHost(room)) return { ok: false, why: Blocked.NOT_HOST };
  if (matchRunning(room)) return { ok: false, why: Blocked.RUNNING };
  // A 2v2's empty seats are played by bots: the host alone is enough.
  // (A seat whose person left mid-match is free once it is over: a rematch does not count it.)
  if (!isTeams(room) && filledSeats(room).filter((seat) => !seat.gone).length < 2) return { ok: false, why: Blocked.TOO_FEW };
  return { ok: true, why: null };
}

export const canStart = (room) => startCheck(room).ok;

/** The host changes rules and seats between matches only. */
export const canEdit = (room) => isHost(room) && !matchRunning(room);

/** A spectator sits in a free seat, between matches. */
export const canTakeSeat = (room, index) =>
  room !== null && room.you === null && !matchRunning(room) && index in seatsShown(room) && room.seats[index] === null;

/** How long after a first "Leave room" mid-match a second press leaves (ms); then it asks again. */
export const LEAVE_CONFIRM_MS = 5000;

/** The seat whose "Remove" the host pressed once within LEAVE_CONFIRM_MS of `now`, or null: only
 * while the same person sits there (someone else in that seat meanwhile is asked about afresh). */
export function removeAsked(state, now) {
  const asked = state.removeAsked;
  if (!asked || now - asked.at > LEAVE_CONFIRM_MS) return null;
  return state.room?.seats[asked.seat]?.name === asked.name ? asked.seat : null;
}

/** Whether "Leave room" was pressed once within LEAVE_CONFIRM_MS of `now` (the tab's clock, ms). */
export const leaveAsked = (state, now) => typeof state.leaveAsked === "number" && now - state.leaveAsked <= LEAVE_CONFIRM_MS;

/** A seated player gets up between matches (during one, "Leave room" hands the seat to a stand-in). */
export const canLeaveSeat = (room) => isSeated(room) && !matchRunning(room);

/** The host may put a bot in a free seat, and change or remove any seat but their own. */
export const canRemove = (room, index) => canEdit(room) && index !== room.you && room.seats[index] !== null;

export function presenceOf(seat) {
  if (seat.kind === "bot") return Presence.BOT;
  if (seat.away) return Presence.AWAY;
  return seat.connected ? Presence.ONLINE : Presence.OFFLINE;
}

// -- the server's messages -----------------------------------------------------------------

/** `presence`: a seat's person came or went, or their grace period ran out. */
export function applyPresence(room, message) {
  const seat = room.seats[message.seat];
  if (!seat) return false;
  if (typeof message.connected === "boolean") seat.connected = message.connected;
  if (typeof message.away === "boolean") seat.away = message.away;
  return true;
}

export function applySpectators(room, message) {
  if (Number.isFinite(message.count)) room.spectators = Math.max(0, message.count);
}

/**
 * The room's note of its match, brought up to date by the match itself: the `room`
 * message is not sent on every turn, so the match's own phase is the one to trust.
 */
export function noteMatch(room, match) {
  if (!match) return;
  room.match = { id: match.id, phase: match.phase, round: match.round, rounds: match.rounds };
}

/** Presence in the match's seats follows the room's (seat i of the match is seat i of the room). */
export function presenceIntoMatch(room, match) {
  if (!match) return;
  match.seats.forEach((seat, index) => {
    const roomSeat = room.seats[index];
    if (!roomSeat) return;
    seat.connected = roomSeat.connected;
    seat.away = roomSeat.away;
  });
}
