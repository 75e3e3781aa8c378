// What the store does in a room (docs/protocol.md, "Rooms: playing with friends"): the
// server's room messages (`room`, `presence`, `spectators`, `removed`, the room's errors,
// a room's `match` snapshot), and the player's room intents (create, join, seats, rules,
// start, rematch, leave). A part the Store holds, `store.room` (main.js calls
// `store.room.takeSeat(2)`), like match_moves.js's `store.match`: it reaches the tab's state
// and its ways out through `this.store`. No DOM; the room's own state is room.js's.
//
// A room's match is an ordinary match on screen (`store.match` plays it), with three
// differences: its snapshot names the room (`room`), a spectator's has `you: null`, and
// it carries no token: the room's seat token is the one kept, per room, in `this.saved`.
// So a room's match never goes into "Your games" and never becomes `store.ref` (what a
// reconnect resumes): a reconnect in a room joins the room again, and the server sends
// `room` and then the match as it stands.

import * as M from "./match.js";
import * as P from "./protocol.js";
import * as Race from "./race.js";
import * as R from "./room.js";

/** Messages only a room sends (`presence` too, when the tab is in one). */
export const ROOM_MESSAGES = new Set(["room", "spectators", "removed"]);
/** A room's race's messages (race.js keeps the race). */
export const RACE_MESSAGES = new Set(["race", "race_standing", "race_over"]);

/** The requests whose name field the server checks: its refusal goes beside the field. */
const NAMED_REQUESTS = new Set(["create_room", "join_room"]);
const NAME_ERRORS = new Set(["protocol/bad_field", "protocol/missing_field"]);
/** A join with one of these refusals is tried again without the token, to watch. */
const LOST_SEAT = new Set(["room/removed", "room/bad_token"]);

/**
 * Where the tab stands with rooms before it is in one (`state.join.step`): `create` (the
 * "Play with friends" form), `creating`, `name` (a room's link asks for a name), `joining`,
 * `in` (a `room` arrived), `gone` (no such room) or `left` (on its way home).
 */
export const JoinStep = Object.freeze({
  CREATE: "create",
  CREATING: "creating",
  NAME: "name",
  JOINING: "joining",
  IN: "in",
  GONE: "gone",
  LEFT: "left",
});

/**
 * The first `join` state: on a room's link, join at once if this browser has been in it; no
 * such room (`gone`: the server said so with the page) asks nothing and joins nothing.
 */
export function joinStateOf(code, rooms, { gone = false } = {}) {
  const saved = code ? rooms.get(code) : null;
  let step = JoinStep.CREATE;
  if (code) step = gone ? JoinStep.GONE : saved ? JoinStep.JOINING : JoinStep.NAME;
  // `back`: on the form to make a room, the room this browser holds a seat in, to go back to.
  const back = code ? null : rooms.latest();
  return { code: code ?? null, step, error: null, name: saved?.name || rooms.name(), back };
}

export class RoomMoves {
  /**
   * @param {Store} store the tab (store.js): its state, `emit`, `send`, messages
   * @param {{get, save, forget, name, setName}} saved the rooms joined and their seats' tokens
   */
  constructor(store, saved) {
    this.store = store;
    this.saved = saved;
    this.joining = null; // {code, token}: the join_room in flight, until `room` or an error answers
    this.removedNow = false; // a `removed` just came: the `room` after it says nothing more
    this.removing = null; // the name of the person this tab (the host) just removed, to say so
    // A room the server has no more: its seat's token opens nothing.
    const join = store.state.join;
    if (join.step === JoinStep.GONE) saved.forget(join.code);
  }

  get state() {
    return this.store.state;
  }

  /** The socket went: a join in flight dies with it (onOpen joins again); a create is left to the player. */
  socketLost() {
    const state = this.state;
    this.joining = null;
    // The room may or may not have been made: the form is back, to try again.
    if (state.join.step === JoinStep.CREATING) state.join = { ...state.join, step: JoinStep.CREATE };
  }

  // -- the server says --------------------------------------------------------

  onRoomMessage(message) {
    if (message.type === "room") return this.onRoom(message);
    const room = this.state.room;
    if (!room) return undefined; // a late message for a room this tab has left
    if (message.type === "spectators") {
      R.applySpectators(room, message);
      return this.store.emit({ type: "spectators" });
    }
    if (message.type === "presence") return this.onRoomPresence(room, message);
    return this.onRemoved(room);
  }

  onRoom(message) {
    const store = this.store;
    const state = this.state;
    const previous = state.room;
    const room = R.roomOf(message);
    const created = state.join.step === JoinStep.CREATING;
    const asked = state.join.name; // (the name typed: a seat may give another, "Ann 2")
    const name = room.name || state.join.name;
    state.room = room;
    state.join = { ...state.join, code: room.code, step: JoinStep.IN, error: null, name };
    this.joining = null;
    state.mode = "room";
    state.setup = false;
    state.live = true; // the room is current (a match, if any, comes next as its own snapshot)
    // The seat's token is kept like a password, per room: it brings this seat back from any
    // tab or after a restart. No seat (watching, got up, removed): nothing to keep but the visit.
    if (typeof message.token === "string" && message.token) this.saved.save(room.code, message.token, name);
    else if (room.you === null) this.saved.save(room.code, null, name);

    const match = state.match;
    if (match && match.room !== room.code) {
      // The endless game or a match of this tab's own stays saved; the room is on screen now.
      state.match = null;
    } else if (match && room.match?.id === match.id) {
      R.noteMatch(room, match); // the match's own phase is newer than the room's note of it
      R.presenceIntoMatch(room, match);
    }
    const newMatch = room.match !== null && previous?.match?.id !== room.match.id;
    if (newMatch) state.lobby = false;
    if (newMatch && previous) store.announce = "new"; // its snapshot comes next: say who plays first
    this.sayRoomChange(previous, room, created, asked);
    store.emit({ type: "room", created, code: room.code });
  }

  /** What changed for this tab: created, seated (under another name if the one asked for is a
   * seat's already), got up, became host. */
  sayRoomChange(previous, room, created, asked) {
    const store = this.store;
    if (created) {
      store.setMessage("info", "room_created", { code: room.code });
    } else if (!previous) {
      const playing = R.matchRunning(room) ? (R.isRace(room) ? "race" : "match") : null;
      store.setMessage("info", room.you === null ? "room_watching" : "room_back", { seat: room.you, playing });
    } else if (previous.you === null && room.you !== null) {
      const given = room.seats[room.you]?.name ?? null;
      const typed = asked?.normalize("NFC").trim(); // (as the server reads a name)
      const renamed = given && typed && given !== typed ? { given, asked: typed } : {};
      store.setMessage("info", "room_seated", { seat: room.you, ...renamed });
    } else if (previous.you !== null && room.you === null && !this.removedNow) {
      // A host who gets up hands the room on: said, so it is no surprise at the next sit-down.
      const next = R.isHost(previous) && room.host !== previous.host ? R.hostName(room) : null;
      store.setMessage("info", "room_got_up", { next });
    } else if (R.isHost(room) && !R.isHost(previous)) {
      store.setMessage("info", "room_host_now");
    } else if (!this.removedNow) {
      // Someone else sat down or got up: said on the line (and to a screen reader), so a host
      // knows the lobby filled without looking. (Not over "The host removed you".)
      const changes = R.seatChanges(previous, room);
      const removed = this.removing !== null && changes?.went.includes(this.removing) ? this.removing : null;
      if (removed) this.removing = null;
      if (changes) store.setMessage("info", "room_seats", { ...changes, removed });
    }
    this.removedNow = false;
  }

  onRoomPresence(room, message) {
    const wasAway = room.seats[message.seat]?.away ?? false;
    R.applyPresence(room, message);
    // Mid-match, someone else's seat passing to a stand-in (or back) is said: the table changed.
    const seat = room.seats[message.seat];
    if (seat?.kind === "human" && message.seat !== room.you && R.matchRunning(room) && seat.away !== wasAway) {
      this.store.setMessage("info", seat.away ? "seat_away" : "seat_back", { name: seat.name });
    }
    const match = this.state.match;
    if (match && match.room === room.code) M.applyPresence(match, message);
    this.store.emit({ type: "presence", seat: message.seat });
  }

  /** The host took this tab's seat away: its token opens nothing now; the tab watches. */
  onRemoved(room) {
    const store = this.store;
    this.saved.save(room.code, null, this.state.join.name);
    room.you = null;
    const match = this.state.match;
    if (match && match.room === room.code) {
      match.you = null;
      this.state.mine = false;
      this.state.swap = null;
    }
    this.removedNow = true; // the `room` that follows says nothing more
    store.setMessage("miss", "room_removed");
    store.emit({ type: "removed" });
  }

  /** A room's `match` snapshot: on screen, but never in "Your games" and never `store.ref`. */
  onRoomMatch(message) {
    const store = this.store;
    const state = this.state;
    const previous = state.match;
    const match = M.matchOf(message, store.now());
    state.match = match;
    if (state.game?.race) state.game = null; // (the room's last race's board is gone from the screen)
    state.mode = "room";
    state.setup = false;
    state.board = P.boardOf(message);
    state.wordsLeft = P.wordsLeftOf(message);
    store.snapshotChain(message);
    if (state.room && state.room.code === match.room) {
      R.noteMatch(state.room, match);
      R.presenceIntoMatch(state.room, match);
    }
    const fresh = !previous || previous.id !== match.id;
    if (fresh) state.lobby = false;
    if (fresh && store.announce) {
      const first = M.seatName(match, match.turn);
      store.setMessage("info", M.isMyTurn(match) ? "match_new_you_first" : "match_new", { name: first });
    }
    store.announce = null;
    store.emit({ type: "match", fresh });
  }

  /** A room's race: its snapshot, a runner's standing as they score, its end. */
  onRaceMessage(message) {
    const store = this.store;
    const state = this.state;
    if (message.type === "race") {
      const previous = state.race;
      const race = Race.raceOf(message, store.now());
      const fresh = !previous || previous.id !== race.id;
      if (!fresh) race.following = previous.following; // (a spectator's board stays the one followed)
      state.race = race;
      state.mode = "room";
      if (fresh) {
        state.lobby = false;
        state.shownPath = null;
        // A new race: the last one's board leaves the screen; a runner's own comes next.
        if (state.game?.race && state.game.race.race_id !== race.id) state.game = null;
        if (race.phase !== "over") store.setMessage("info", race.you === null ? "race_watching" : "race_on", { seconds: race.seconds });
      }
      if (state.room?.race?.id === race.id) state.room.race.phase = race.phase;
      return store.emit({ type: "race", fresh });
    }
    const race = state.race;
    if (message.type === "race_standing") {
      if (Race.applyStanding(race, message)) store.emit({ type: "race_standing", seat: message.seat });
      return undefined;
    }
    if (!Race.applyOver(race, message)) return undefined;
    if (state.room?.race?.id === race.id) state.room.race.phase = "over";
    state.lobby = false;
    return store.emit({ type: "race_over" });
  }

  /** Watch runner `seat`'s board (a spectator; anyone once the race is over). */
  follow(seat) {
    const race = this.state.race;
    if (!race || !race.runners.some((r) => r.seat === seat)) return false;
    if (race.you !== null && race.phase !== "over" && seat !== race.you) return false; // a runner plays their own
    if (!this.roomCommand(true, P.follow(seat))) return false;
    race.following = seat;
    const name = Race.runnerName(race, seat);
    if (seat !== race.you) this.store.setMessage("info", "race_following", { name, over: race.phase === "over" });
    this.store.emit({ type: "follow", seat });
    return true;
  }

  /** Light a word nobody found on the race's starting board (again: put it out). */
  showRaceMissed(index) {
    const race = this.state.race;
    const entry = race?.over?.missed[index];
    if (!entry) return false;
    race.shownPath = race.shownPath?.word === entry.word ? null : { word: entry.word, path: entry.path };
    this.store.emit({ type: "missed" });
    return true;
  }

  /** After a match message: the room's note of its match follows the match (over, say). */
  followRoomMatch() {
    const { room, match } = this.state;
    if (room && match && match.room === room.code) R.noteMatch(room, match);
  }

  /**
   * A refused room request, or a refused join or create: handled here (true), else the
   * store's own error handling goes on (false).
   */
  onRoomError(message) {
    const store = this.store;
    const state = this.state;
    const { code, request } = message;
    const joining = this.joining !== null && (request === "join_room" || request === undefined);
    if (request === "create_room" || (request === undefined && state.join.step === JoinStep.CREATING)) {
      // The name, or a budget (limit/rooms, server/full): said beside the form, to try again.
      state.join = { ...state.join, step: JoinStep.CREATE, error: { text: message.message || code, code } };
      return this.roomErrorSaid(code);
    }
    if (joining && code === "room/not_found") {
      this.saved.forget(this.joining.code);
      this.joining = null;
      state.room = null;
      state.match = null;
      state.join = { ...state.join, step: JoinStep.GONE, error: null };
      return this.roomErrorSaid(code);
    }
    if (joining && LOST_SEAT.has(code) && this.joining.token) {
      // The seat is not ours any more (removed, or given up): watch instead.
      this.saved.save(this.joining.code, null, state.join.name);
      store.setMessage("miss", code === "room/removed" ? "room_removed" : "room_seat_lost");
      this.sendJoin();
      return this.roomErrorSaid(code);
    }
    if (joining) {
      // The name (protocol/bad_field), or the join budget (limit/joins): back to the name form.
      this.joining = null;
      const error = { text: message.message || code, code, name: NAME_ERRORS.has(code) };
      state.join = { ...state.join, step: state.room ? JoinStep.IN : JoinStep.NAME, error };
      return this.roomErrorSaid(code);
    }
    if (typeof code === "string" && code.startsWith("room/")) {
      // A room command refused (not the host, the seat is taken, a match is on, ...).
      if (code === "room/not_seated") store.adopt(); // a move of a spectator: back to the server's chain
      store.setServerMessage(message);
      return this.roomErrorSaid(code);
    }
    return false;
  }

  roomErrorSaid(code) {
    this.store.emit({ type: "error", code });
    return true;
  }

  // -- the player does --------------------------------------------------------

  /** "Play with friends": the form to make a room (the game on screen stays attached until then). */
  showFriends() {
    const state = this.state;
    state.mode = "room";
    state.setup = false;
    state.swap = null;
    if (!state.join.code) state.join = { ...state.join, step: JoinStep.CREATE, error: null, back: this.saved.latest() };
    this.store.emit({ type: "mode" });
    return true;
  }

  /** A name as typed, or null (and the form says why). */
  nameFor(text) {
    const name = P.nameOf(text);
    if (name !== null) return name;
    this.state.join = { ...this.state.join, error: { say: "name_length", name: true } };
    this.store.emit({ type: "join" });
    return null;
  }

  /** The name form: make a room ("Play with friends"), or join the room of this page's link. */
  enterName(text) {
    return this.state.join.code ? this.joinRoom(text) : this.createRoom(text);
  }

  /** Make a room and host it, in seat 0. The page's address becomes the room's link. */
  createRoom(text) {
    const store = this.store;
    const name = this.nameFor(text);
    if (name === null || this.state.connection.state !== "open") return false;
    if (this.state.join.step === JoinStep.CREATING) return false;
    this.saved.setName(name);
    this.state.join = { ...this.state.join, step: JoinStep.CREATING, error: null, name };
    if (!store.send(P.createRoom(name))) return false;
    store.emit({ type: "join" });
    return true;
  }

  /** The name form of a room's link: join with this name, to watch (then take a seat). */
  joinRoom(text) {
    const name = this.nameFor(text);
    if (name === null) return false;
    this.saved.setName(name);
    this.state.join = { ...this.state.join, name, error: null };
    const sent = this.sendJoin();
    this.store.emit({ type: "join" });
    return sent;
  }

  /** Send `join_room` for the tab's room, with the seat's token if this browser holds one. */
  sendJoin() {
    const state = this.state;
    const join = state.join;
    const saved = this.saved.get(join.code);
    const name = join.name || saved?.name || this.saved.name();
    if (!name) {
      state.join = { ...join, step: JoinStep.NAME };
      return false;
    }
    const token = saved?.token ?? null;
    this.joining = { code: join.code, token };
    state.join = { ...join, name, step: state.room ? join.step : JoinStep.JOINING };
    return this.store.send(P.joinRoom(join.code, name, token));
  }

  /** A socket opened on a room's page: back into the room (and the seat), unless a name is still to be given. */
  rejoinRoom() {
    const join = this.state.join;
    if (join.step === JoinStep.NAME || join.step === JoinStep.GONE || join.step === JoinStep.LEFT) {
      return this.store.emit({ type: "join" });
    }
    this.sendJoin();
    return this.store.emit({ type: "join" });
  }

  /** A code typed in the "Play with friends" form: go to its room's link (false if it cannot be a code). */
  goToRoom(text) {
    const code = P.roomCodeOf(text);
    if (code === null) {
      this.state.join = { ...this.state.join, error: { say: "bad_code", code: true } };
      this.store.emit({ type: "join" });
      return false;
    }
    this.store.emit({ type: "leave_page", to: { room: code } });
    return true;
  }

  /** A room command, sent when the room allows it (`allowed`); false when nothing was sent. */
  roomCommand(allowed, message) {
    if (!allowed || !this.store.canPlay) return false;
    return this.store.send(message);
  }

  takeSeat(seat) {
    return this.roomCommand(R.canTakeSeat(this.state.room, seat), P.takeSeat(seat));
  }

  leaveSeat() {
    return this.roomCommand(R.canLeaveSeat(this.state.room), P.leaveSeat());
  }

  /**
   * The host's rules, one at a time: `rounds` (1-20), `timed` (the page's 30-second turn),
   * `wordlist`, `standIn` (the level of the bot that plays an away seat), `classic` (the list's
   * own letter values rather than Spellcast's), `mode` (what the room plays: P.ROOM_MODES).
   */
  setRules({ rounds, timed, wordlist, standIn, classic, mode, raceSeconds }) {
    const room = this.state.room;
    const rules = {};
    if (rounds !== undefined) {
      const n = Math.round(Number(rounds));
      if (!Number.isFinite(n) || n < 1) return false;
      rules.rounds = Math.min(P.MAX_ROUNDS, n);
    }
    if (timed !== undefined) rules.turn_seconds = timed ? P.TIMED_TURN_SECONDS : null;
    if (classic !== undefined) rules.values = classic ? "classic" : "spellcast";
    if (wordlist !== undefined) {
      if (!this.state.config.wordlists.some((list) => list.name === wordlist)) return false;
      rules.wordlist = wordlist;
    }
    if (standIn !== undefined) {
      if (!P.LEVELS.includes(standIn)) return false;
      rules.stand_in = standIn;
    }
    if (mode !== undefined) {
      if (!P.ROOM_MODES.includes(mode)) return false;
      rules.mode = mode;
    }
    if (raceSeconds !== undefined) {
      const seconds = Number(raceSeconds);
      if (!P.RACE_SECONDS.includes(seconds)) return false;
      rules.race_seconds = seconds;
    }
    if (Object.keys(rules).length === 0) return false;
    return this.roomCommand(room && R.canEdit(room), P.setRules(rules));
  }

  /** The host puts a bot of `level` in a free seat, or changes a bot's level. */
  setSeatBot(seat, level) {
    const room = this.state.room;
    const current = room?.seats[seat];
    const allowed = room && R.canEdit(room) && P.LEVELS.includes(level) && seat in room.seats
      && (current === null || current.kind === "bot");
    return this.roomCommand(allowed, P.setSeat(seat, { bot: level }));
  }

  /** The host's handicap: how many turns a round the seat plays (1-4). */
  setSeatSpeed(seat, speed) {
    const room = this.state.room;
    const value = Number(speed);
    const allowed = room && R.canEdit(room) && Boolean(room.seats[seat]) && P.SPEEDS.includes(value);
    return this.roomCommand(allowed, P.setSeat(seat, { speed: value }));
  }

  /** The host removes a bot, or a person (who then watches). */
  /** The host takes a seat from its bot, or from a person: a person's takes a second press within
   * LEAVE_CONFIRM_MS (room.js), since they are left watching and a mis-tap costs a friend. */
  removeSeat(seat) {
    const room = this.state.room;
    if (!room || !R.canRemove(room, seat)) return false;
    const held = room.seats[seat];
    const now = this.store.now();
    if (held?.kind === "human" && R.removeAsked(this.state, now) !== seat) {
      this.state.removeAsked = { seat, name: held.name, at: now };
      this.store.setMessage("info", "remove_confirm", { name: held.name, lasts: R.LEAVE_CONFIRM_MS });
      this.store.emit({ type: "remove_asked", seat });
      return false;
    }
    this.state.removeAsked = null;
    if (!this.roomCommand(true, P.removeSeat(seat))) return false;
    this.removing = held?.kind === "human" ? held.name : null; // "You removed Bo", when the room says so
    return true;
  }

  /** The host starts the room's match (at least two seats filled). */
  startRoomMatch() {
    const room = this.state.room;
    if (!this.roomCommand(room && R.canStart(room), P.startRoomMatch())) return false;
    if (!R.isRace(room)) this.store.announce = "new"; // (a race says itself, "The race is on")
    return true;
  }

  /** The host, once the match is over: the same seats, a new board. */
  rematchRoom() {
    const { room, match } = this.state;
    const over = match?.phase === M.MatchPhase.OVER || ((room?.match || room?.race) && !R.matchRunning(room));
    if (!this.roomCommand(room && R.isHost(room) && over, P.rematch())) return false;
    if (!R.isRace(room)) this.store.announce = "new";
    return true;
  }

  /** Leave the room (a seat held is given up) and go home. While the room plays and this tab holds a
   * seat, the first press only asks again (a stand-in plays the seat to the end, and its person can
   * come back only to watch: a mis-tap on a phone must not cost that); a second within
   * LEAVE_CONFIRM_MS (room.js) leaves. */
  leaveRoom() {
    const code = this.state.join.code;
    if (!code) return false;
    const room = this.state.room;
    if (room && R.isSeated(room) && R.matchRunning(room) && !R.leaveAsked(this.state, this.store.now())) {
      this.state.leaveAsked = this.store.now();
      this.store.setMessage("info", "leave_confirm", { race: R.isRace(room), lasts: R.LEAVE_CONFIRM_MS });
      this.store.emit({ type: "leave_asked" });
      return false;
    }
    this.state.leaveAsked = null;
    if (room) this.store.send(P.leaveRoom()); // if the socket is down, the seat's grace runs out instead
    this.saved.forget(code);
    this.state.join = { ...this.state.join, step: JoinStep.LEFT };
    this.store.emit({ type: "leave_page", to: { home: true } });
    return true;
  }

  /** After a match: the room's seats and rules (`lobby`), or back to the end screen. */
  showLobby(lobby = true) {
    this.state.lobby = Boolean(lobby);
    this.store.emit({ type: "lobby" });
    return true;
  }

  /** The copy button: whether the link reached the clipboard. */
  linkCopied(ok) {
    this.store.setMessage(ok ? "info" : "miss", ok ? "link_copied" : "link_not_copied");
    this.store.emit({ type: "hint" });
  }
}
