// A room's panels: the entry forms ("Play with friends", a link asking for a name, no such
// room), the bar above a room's match, and the lobby between matches (the link, the seats,
// the rules, starting). Owns those elements. A room's match and end screen are MatchPanel's.

import * as M from "../match.js";
import * as R from "../room.js";
import { MAX_ROUNDS, ROOM_MODES } from "../protocol.js";
import { addWordlistOptions, make, setHidden, setNumberField, setText } from "./dom.js";
import {
  LEVEL_LABELS,
  MODE_LABELS,
  PRESENCE,
  blockedText,
  capital,
  fieldError,
  plural,
  teamText,
  turnsText,
  valuesText,
  waitingText,
} from "./wording.js";

export class RoomPanel {
  /**
   * @param {Document} root the page; `config` the page's (its word lists and the default);
   *   `announce(text)` says a text in the live region (view/messages.js)
   */
  constructor(root, config, { announce, now }) {
    const $ = (selector) => root.querySelector(selector);
    this.document = root;
    this.announce = announce;
    this.now = now; // the tab's clock (ms), as the store's: how long "Leave now" stays
    this.leaveAgain = null; // the timer that puts "Leave room" back once the second press is late
    this.wordlists = config.wordlists;
    this.defaultWordlist = config.default_wordlist;
    this.el = {
      bar: $('[data-testid="room-bar"]'),
      barCode: $(".room-bar-code"),
      barYou: $('[data-testid="room-bar-you"]'),
      entry: $('[data-testid="room-entry"]'),
      entryTitle: $("#room-entry-title"),
      entryIntro: $('[data-testid="room-entry-intro"]'),
      nameForm: $('[data-testid="room-name-form"]'),
      nameField: $("#room-name"),
      nameError: $('[data-testid="name-error"]'),
      submit: $('[data-action="room-submit"]'),
      codeForm: $('[data-testid="room-code-form"]'),
      codeError: $('[data-testid="code-error"]'),
      gone: $('[data-testid="room-gone"]'),
      back: $('[data-testid="room-back"]'),
      lobby: $('[data-testid="room"]'),
      title: $("#room-title"),
      code: $('[data-testid="room-code"]'),
      you: $('[data-testid="room-you"]'),
      link: $('[data-testid="room-link"]'),
      seats: $('[data-testid="room-seats"]'),
      spectators: $('[data-testid="spectators"]'),
      rulesForm: $('[data-testid="room-rules-form"]'),
      rulesSummary: $('[data-testid="room-rules"]'),
      rounds: $("#room-rounds"),
      timed: $("#room-timed"),
      classic: $("#room-classic"),
      wordlist: $("#room-wordlist"),
      standIn: $("#room-stand-in"),
      mode: $("#room-mode"),
      raceSeconds: $("#room-race-seconds"),
      start: $('[data-action="room-start"]'),
      leaveSeat: $('[data-action="leave-seat"]'),
      leaveRoom: [...root.querySelectorAll('[data-action="leave-room"]')],
      results: $('[data-action="room-results"]'),
      wait: $('[data-testid="room-wait"]'),
    };
    addWordlistOptions(this.el.wordlist, config.wordlists);
    // The host's chooser of what the room plays: one option a mode the protocol names.
    this.el.mode.replaceChildren(
      ...ROOM_MODES.map((mode) => {
        const option = make(root, "option", "", MODE_LABELS[mode] ?? mode);
        option.value = mode;
        return option;
      }),
    );
    this.shown = {}; // what the seats and rules were last drawn from; whether the name was offered
  }

  show(screen, state) {
    const el = this.el;
    setHidden(el.entry, screen !== "room-entry");
    setHidden(el.lobby, screen !== "lobby");
    const away = screen === "match" || screen === "over" || screen === "race" || screen === "race-over";
    setHidden(el.bar, !(state.mode === "room" && state.room !== null && away));
  }

  /** The link friends open: this page's origin, /r/<code>. */
  link(code) {
    return new URL(`/r/${encodeURIComponent(code)}`, this.document.location.href).href;
  }

  /** The link's text, selected: to copy by hand where the clipboard is not allowed. */
  selectLink() {
    this.el.link.focus({ preventScroll: true });
    this.el.link.select();
  }

  /** The entry forms when shown; once in a room, its bar and (between matches) its lobby. */
  render(state, event, { screen }) {
    const room = state.room;
    if (screen === "room-entry") this.renderEntry(state, event);
    if (state.mode !== "room" || !room) return;
    this.renderBar(room);
    this.renderLeave(state);
    if (screen === "lobby") this.renderLobby(state, room, event);
  }

  /** "Play with friends" (make a room), or a room's link asking for a name; or no such room. */
  renderEntry(state, event) {
    const { join } = state;
    const el = this.el;
    const creating = !join.code;
    const gone = join.step === "gone";
    const busy = join.step === "creating" || join.step === "joining" || join.step === "left";
    const asking = !gone && (creating || join.step === "name" || join.error !== null);
    setText(el.entryTitle, creating ? "Play with friends" : `Room ${join.code}`);
    let intro = "";
    if (creating) {
      intro = "Make a room and send its link. Up to six players, friends or bots, take turns on one board; anyone else with the link watches.";
    } else if (join.step === "joining") {
      intro = "Joining the room…";
    } else if (!gone) {
      intro = "Friends are playing Wibble here. Give your name to watch, then take a free seat.";
    }
    setText(el.entryIntro, intro);
    setHidden(el.nameForm, !asking);
    setHidden(el.codeForm, !creating);
    // Left for another tab mid-match (or a reload at /): the way back to the seat still held.
    const back = creating ? join.back : null;
    setHidden(el.back, !back);
    if (back) {
      el.back.querySelector("a").href = `/r/${encodeURIComponent(back.code)}`;
      setText(el.back.querySelector(".room-back-code"), back.code);
    }
    setHidden(el.gone, !gone);
    setText(el.submit, creating ? (join.step === "creating" ? "Creating…" : "Create a room") : "Join room");
    el.submit.disabled = busy || state.connection.state !== "open";
    // The name this browser used last time, offered once; after that the field is the player's.
    if (this.shown.nameOffered !== true && join.name) {
      el.nameField.value = join.name;
      this.shown.nameOffered = true;
    }
    const error = join.error;
    const onCode = Boolean(error?.say === "bad_code");
    const nameText = error && !onCode ? fieldError(error) : "";
    const codeText = onCode ? fieldError(error) : "";
    setHidden(el.nameError, nameText === "");
    setText(el.nameError, nameText);
    el.nameField.setAttribute("aria-invalid", String(nameText !== ""));
    setHidden(el.codeError, codeText === "");
    setText(el.codeError, codeText);
    el.codeForm.elements.code.setAttribute("aria-invalid", String(codeText !== ""));
    // The field to fix takes the focus, and so does the name when the player asked for this form.
    if ((event.type === "join" || event.type === "error") && (nameText || codeText)) {
      (onCode ? el.codeForm.elements.code : el.nameField).focus();
      if (nameText) this.announce(nameText);
    } else if (event.type === "mode" && asking) {
      el.nameField.focus();
    }
  }

  /** Above a room's match and its end screen: the room, and where this tab is in it. */
  renderBar(room) {
    setText(this.el.barCode, `Room ${room.code}`);
    const watchers = room.spectators > 0 ? ` · ${room.spectators} watching` : "";
    const you = room.you === null
      ? "· Watching: you can take a seat between matches"
      : `· Seat ${room.you + 1}${R.isHost(room) ? " · host" : ""}`;
    setText(this.el.barYou, `${you}${watchers}`);
  }

  /** "Leave room", or "Leave now" for a while after a first press mid-match (room_moves.js), then back. */
  renderLeave(state) {
    clearTimeout(this.leaveAgain);
    const asked = R.leaveAsked(state, this.now());
    for (const button of this.el.leaveRoom) {
      setText(button, asked ? "Leave now" : "Leave room");
      button.dataset.asked = String(asked);
    }
    if (asked) this.leaveAgain = setTimeout(() => this.renderLeave(state), state.leaveAsked + R.LEAVE_CONFIRM_MS - this.now() + 50);
  }

  /** The room between matches: its link, its six seats, its rules, and starting. */
  renderLobby(state, room, event) {
    const el = this.el;
    const host = R.isHost(room);
    const open = state.connection.state === "open" && state.live;
    setText(el.code, room.code);
    const link = this.link(room.code);
    if (el.link.value !== link) el.link.value = link;
    let you;
    if (room.you === null) you = "You are watching. Take a free seat to play.";
    else if (host) you = `You are in seat ${room.you + 1}, and you host: the rules and the start are yours.`;
    else you = `You are in seat ${room.you + 1}.`;
    setText(el.you, you);
    const asked = R.removeAsked(state, this.now());
    this.renderSeats(room, open, asked);
    clearTimeout(this.removeAgain); // "Remove now" goes back to "Remove" when its moment has passed
    if (asked !== null) {
      const left = state.removeAsked.at + R.LEAVE_CONFIRM_MS - this.now() + 50;
      this.removeAgain = setTimeout(() => this.renderSeats(room, open, R.removeAsked(state, this.now())), left);
    }
    setText(el.spectators, room.spectators === 0 ? "Nobody is watching." : `${room.spectators} watching`);
    this.renderRules(room, host);

    const check = R.startCheck(room);
    setHidden(el.start, !host);
    el.start.disabled = !check.ok || !open;
    const race = R.isRace(room);
    setText(el.start, race ? "Start race" : "Start match");
    let wait;
    if (host) wait = blockedText(check);
    else wait = waitingText(R.hostName(room), race ? "the race" : "the match");
    setText(el.wait, wait);
    setHidden(el.leaveSeat, !R.canLeaveSeat(room));
    el.leaveSeat.disabled = !open;
    const match = state.match;
    const raced = state.race?.over && room.race?.id === state.race.id;
    setHidden(el.results, !raced && !(match && match.room === room.code && match.phase === M.MatchPhase.OVER));
    setText(el.results, raced ? "Last race's results" : "Last match's results");
    // Just made: the room's heading takes the focus (its link is the next thing to use).
    if (event.type === "room" && event.created) el.title.focus();
  }

  renderSeats(room, open, asked = null) {
    const editing = R.canEdit(room) && open;
    const key = JSON.stringify([room.seats, room.host, room.you, editing, R.matchRunning(room), open, room.rules.mode, asked]);
    if (this.shown.seats === key) return;
    this.shown.seats = key;
    // Rebuilding must not throw away keyboard focus on one of its controls.
    const focused = this.document.activeElement?.closest?.("[data-focus]")?.dataset.focus;
    const items = R.seatsShown(room).map((seat, index) => this.seat(room, seat, index, { editing, open, asked }));
    this.el.seats.replaceChildren(...items);
    if (focused) {
      const again = this.el.seats.querySelector(`[data-focus="${focused}"]`);
      // A control that went away (a seat taken): the seat's first control, else the list's heading.
      (again ?? this.el.seats.children[Number(focused.split("-")[1])]?.querySelector("button, select"))?.focus();
    }
  }

  seat(room, seat, index, { editing, open, asked = null }) {
    const doc = this.document;
    const item = make(doc, "li", "room-seat");
    item.dataset.seat = String(index);
    item.dataset.state = seat ? "taken" : "free";
    // A 2v2's seat says its team in words; its colour (data-team) only repeats it.
    const team = R.teamOfSeat(room, index);
    const where = team === null ? `seat ${index + 1}` : `seat ${index + 1}, ${teamText(team)}`;
    const number = make(doc, "span", "room-seat-no", `Seat ${index + 1}`);
    if (team !== null) {
      item.dataset.team = String(team);
      number.append(make(doc, "span", "team-badge", ` · ${teamText(team)}`));
    }
    if (!seat) {
      const free = team === null ? "Free seat" : "Free seat (a bot plays it if nobody sits)";
      item.append(number, make(doc, "span", "room-seat-name free", free));
      const actions = make(doc, "span", "room-seat-actions");
      if (R.canTakeSeat(room, index)) actions.append(this.seatButton("Sit here", `, ${where}`, { takeSeat: index }, open, `sit-${index}`));
      if (editing) actions.append(this.seatButton("Add a bot", ` in seat ${index + 1}`, { addBot: index }, open, `bot-${index}`));
      if (actions.childElementCount) item.append(actions);
      return item;
    }
    const presence = R.presenceOf(seat);
    item.dataset.kind = seat.kind;
    item.dataset.presence = presence;
    item.dataset.you = String(index === room.you);
    item.dataset.host = String(index === room.host);
    const dot = make(doc, "span", "presence-dot");
    dot.setAttribute("aria-hidden", "true");
    const name = make(doc, "span", "room-seat-name", seat.name); // text, never markup
    const tags = make(doc, "span", "room-seat-tags");
    if (index === room.host) {
      const crown = make(doc, "span", "host-badge", "Host");
      crown.title = "Host: sets the rules and starts";
      tags.append(crown);
    }
    if (index === room.you) tags.append(make(doc, "span", "you-badge", "you"));
    if (seat.kind === "bot") tags.append(make(doc, "span", "bot-badge", `Bot · ${seat.level}`));
    if (seat.speed !== 1 && !R.isTeams(room) && !R.isRace(room)) tags.append(make(doc, "span", "speed-badge", turnsText(seat.speed)));
    const status = make(doc, "span", "room-seat-status", seat.kind === "bot" ? "" : PRESENCE[presence]);
    item.append(number, dot, name, tags, status);
    if (!editing) return item;
    const actions = make(doc, "span", "room-seat-actions");
    if (seat.kind === "bot") {
      actions.append(this.seatSelect(`Level of ${seat.name}`, LEVEL_LABELS, seat.level, { seatLevel: index }, `level-${index}`));
    }
    if (!R.isTeams(room) && !R.isRace(room)) {
      // (In a 2v2 every seat plays once a round, so that the teams alternate; a race has no turns.)
      const speeds = Object.fromEntries([1, 2, 3, 4].map((n) => [String(n), turnsText(n)]));
      actions.append(this.seatSelect(`Turns a round for ${seat.name}`, speeds, String(seat.speed), { seatSpeed: index }, `speed-${index}`));
    }
    if (index !== room.you) {
      const sure = asked === index;
      const remove = this.seatButton(sure ? "Remove now" : "Remove", ` ${seat.name}`, { removeSeat: index }, open, `remove-${index}`);
      remove.dataset.asked = String(sure);
      actions.append(remove);
    }
    item.append(actions);
    return item;
  }

  /** A seat's button: its visible words, and more for a screen reader (which seat, whom). */
  seatButton(text, more, data, enabled, focus) {
    const button = make(this.document, "button", "button small", text);
    button.type = "button";
    button.append(make(this.document, "span", "visually-hidden", more));
    for (const [key, value] of Object.entries(data)) button.dataset[key] = String(value);
    button.dataset.focus = focus;
    button.disabled = !enabled;
    return button;
  }

  seatSelect(label, options, value, data, focus) {
    const select = make(this.document, "select", "seat-select");
    select.setAttribute("aria-label", label);
    for (const [optionValue, text] of Object.entries(options)) {
      const option = make(this.document, "option", "", text);
      option.value = optionValue;
      select.append(option);
    }
    select.value = value;
    for (const [key, item] of Object.entries(data)) select.dataset[key] = String(item);
    select.dataset.focus = focus;
    return select;
  }

  /** The rules: a form for the host between matches, in words for everyone else. */
  renderRules(room, host) {
    const el = this.el;
    const rules = room.rules;
    const editing = host && R.canEdit(room);
    setHidden(el.rulesForm, !editing);
    setHidden(el.rulesSummary, editing);
    if (editing) {
      setNumberField(el.rounds, rules.rounds, MAX_ROUNDS);
      el.timed.checked = rules.turnSeconds !== null;
      el.classic.checked = rules.values === "classic";
      const wordlist = rules.wordlist ?? this.defaultWordlist; // null: the server's default list
      if (el.wordlist.value !== wordlist) el.wordlist.value = wordlist;
      if (el.standIn.value !== rules.standIn) el.standIn.value = rules.standIn;
      if (el.mode.value !== rules.mode) el.mode.value = rules.mode;
      const seconds = String(rules.raceSeconds);
      if (el.raceSeconds.value !== seconds) el.raceSeconds.value = seconds;
      // A race has a length and a list; a match's rounds, timer, values and stand-in are not its.
      for (const row of el.rulesForm.querySelectorAll("[data-rule]")) {
        setHidden(row, (row.dataset.rule === "race") !== (rules.mode === "race"));
      }
      return;
    }
    const wordlist = rules.wordlist ?? this.defaultWordlist;
    const title = this.wordlists.find((list) => list.name === wordlist)?.title ?? wordlist;
    const race = rules.mode === "race";
    const lines = race ? [
      `Play: ${MODE_LABELS.race}, ${plural(rules.raceSeconds / 60, "minute")}`,
      `Word list: ${title}`,
    ] : [
      `Play: ${MODE_LABELS[rules.mode] ?? rules.mode}`,
      plural(rules.rounds, "round"),
      rules.turnSeconds === null ? "No turn timer" : `${plural(rules.turnSeconds, "second")} a turn`,
      `Word list: ${title}`,
      valuesText(rules.values),
      `Stand-in for an away player: ${capital(rules.standIn)} bot`,
    ];
    const key = lines.join("|");
    if (this.shown.rules === key) return;
    this.shown.rules = key;
    el.rulesSummary.replaceChildren(...lines.map((line) => make(this.document, "li", "", line)));
  }
}
