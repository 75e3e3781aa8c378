// A match's panels: the bar (round, whose turn, the clock), the seats, the powers, the swap's
// letters, the hint, the pause between rounds, the words played, the end screen with its
// actions, and the settings of a new match. Owns those elements; the board is BoardPanel's
// (a swap hands the focus back to it) and the clock ClockPanel's, held here.

import * as M from "../match.js";
import * as R from "../room.js";
import { ClockPanel } from "./clock.js";
import { rove, wordButton } from "./definition.js";
import { MAX_ROUNDS } from "../protocol.js";
import { addWordlistOptions, make, setHidden, setNumberField, setProp, setText } from "./dom.js";
import { POWER_NAMES, blockedText, breakdownText, capital, plural, pts, seatTag, teamText, waitingText } from "./wording.js";

/** A `span` of `className`: `before`, then the word (pressed for its definition), then its points. */
function withWord(doc, className, before, { word, points }) {
  const span = make(doc, "span", className);
  span.append(before, wordButton(doc, word), points === null ? "" : ` ${pts(points)}`);
  return span;
}

/** The match the page shows: the match mode's, or a room's once its match (or end screen) is up. */
export function matchOnScreen(state, screen) {
  if (state.mode === "match") return state.match;
  return state.mode === "room" && (screen === "match" || screen === "over") ? state.match : null;
}

export class MatchPanel {
  /**
   * @param {Document} root the page; `board` the BoardPanel; `now` the tab's monotonic clock;
   *   `config` the page's (its word lists and the default)
   */
  constructor(root, { board, now, config, announce }) {
    const $ = (selector) => root.querySelector(selector);
    this.document = root;
    this.board = board;
    this.clock = new ClockPanel(root, now, announce); // the turn clock (view/clock.js)
    this.el = {
      bar: $('[data-testid="match-bar"]'),
      round: $('[data-testid="round"]'),
      whoseTurn: $('[data-testid="whose-turn"]'),
      seats: $('[data-testid="seats"]'),
      teamTotals: $('[data-testid="team-totals"]'),
      teamResults: $('[data-testid="team-results"]'),
      powers: $('[data-testid="powers"]'),
      powerButtons: [...root.querySelectorAll("[data-power]")],
      pass: $('[data-action="pass"]'),
      swapPicker: $('[data-testid="swap-picker"]'),
      swapTitle: $(".swap-title"),
      swapLetters: $('[data-testid="swap-letters"]'),
      hint: $('[data-testid="hint"]'),
      pause: $('[data-testid="round-pause"]'),
      pauseTitle: $(".round-pause-title"),
      pauseScores: $(".round-pause-scores"),
      playsPanel: $('[data-testid="plays-panel"]'),
      breakdown: $('[data-testid="breakdown"]'),
      plays: $('[data-testid="plays"]'),
      over: $('[data-testid="match-over"]'),
      overTitle: $("#over-title"),
      ranking: $('[data-testid="ranking"]'),
      turns: $('[data-testid="turns"]'),
      rematch: $('[data-action="rematch"]'),
      newMatch: $('[data-action="new-match"]'),
      endless: $('[data-action="endless"]'),
      roomLobby: $('[data-action="room-lobby"]'),
      rematchWait: $('[data-testid="rematch-wait"]'),
      setup: $('[data-testid="match-setup"]'),
      botList: $('[data-testid="bot-list"]'),
      addBot: $('[data-action="add-bot"]'),
      rounds: $('[name="rounds"]'),
      timed: $('[name="timed"]'),
      classic: $('[name="classic"]'),
      wordlist: $("#setup-wordlist"),
      startMatch: $('[data-action="start-match"]'),
    };
    addWordlistOptions(this.el.wordlist, config.wordlists);
    this.shown = {}; // what each list was last drawn from, to redraw only what changed
  }

  show(screen, state) {
    const el = this.el;
    const playing = screen === "match";
    // A room's spectator watches: no powers.
    const watching = state.mode === "room" && state.room !== null && playing && state.match?.you === null;
    setHidden(el.bar, !playing);
    setHidden(el.seats, !playing);
    setHidden(el.teamTotals, !playing || !M.isTeams(state.match));
    setHidden(el.powers, !playing || watching);
    setHidden(el.playsPanel, !(playing || screen === "over"));
    setHidden(el.setup, screen !== "setup");
    setHidden(el.over, screen !== "over");
  }

  /** Whether the power's button is on screen (enabled or not: a key for one that cannot be used says why). */
  powerShown(name) {
    if (this.el.powers.hidden) return false;
    const button = name === "pass" ? this.el.pass : this.el.powerButtons.find((b) => b.dataset.power === name);
    return Boolean(button && !button.hidden);
  }

  render(state, event, { screen, canPlay }) {
    const match = matchOnScreen(state, screen);
    if (screen === "setup") this.renderSetup(state, event);
    this.renderOverActions(state);
    if (!match) {
      this.clock.stop();
      setHidden(this.el.swapPicker, true);
      setHidden(this.el.hint, true);
      setHidden(this.el.pause, true);
      return;
    }
    this.renderBar(match);
    this.renderSeats(match);
    this.renderPowers(state, match, canPlay);
    this.renderSwap(state, match, event);
    this.renderHint(match);
    this.renderPause(match);
    this.renderPlays(match);
    if (screen === "over") this.renderOver(match, event);
    this.clock.run(match);
  }

  renderBar(match) {
    this.el.round.textContent = `Round ${match.round} of ${match.rounds}`;
    let whose;
    if (match.phase === M.MatchPhase.BETWEEN) whose = "Between rounds";
    else if (match.phase === M.MatchPhase.OVER) whose = "Match over";
    else if (M.isMyTurn(match)) whose = "Your turn";
    else if (M.canSuggest(match)) whose = `${M.seatName(match, match.turn)}'s turn: tap tiles to suggest`;
    else whose = `${M.seatName(match, match.turn)}'s turn`;
    this.el.whoseTurn.textContent = whose;
    this.el.bar.dataset.mine = String(M.isMyTurn(match));
  }

  renderSeats(match) {
    const key = JSON.stringify([match.seats, match.turn, match.phase, match.you]);
    if (this.shown.seats === key) return;
    this.shown.seats = key;
    const doc = this.document;
    const items = match.seats.map((seat, index) => {
      const item = make(doc, "li", "seat");
      item.dataset.seat = String(index);
      const team = M.teamOf(match, index);
      item.dataset.kind = seat.kind;
      const turn = match.phase === M.MatchPhase.PLAYING && match.turn === index;
      item.dataset.turn = String(turn);
      if (turn) item.setAttribute("aria-current", "true");
      item.dataset.you = String(index === match.you);
      item.dataset.connected = String(seat.connected);
      const name = make(doc, "span", "seat-name", seat.name);
      const tag = make(doc, "span", "seat-tag", seatTag(seat) || (index === match.you ? "you" : "player"));
      const score = make(doc, "span", "seat-score");
      score.append(make(doc, "span", "", String(seat.score)), make(doc, "span", "visually-hidden", seat.score === 1 ? " point" : " points"));
      const gems = make(doc, "span", "seat-gems");
      const shape = make(doc, "span", "gem-shape");
      shape.setAttribute("aria-hidden", "true");
      gems.append(shape, make(doc, "span", "", String(seat.gems)), make(doc, "span", "visually-hidden", ` gem${seat.gems === 1 ? "" : "s"}`));
      item.append(name, tag, score, gems);
      if (team !== null) {
        // The team in words; its colour (data-team) only repeats it.
        item.dataset.team = String(team);
        item.append(make(doc, "span", "team-badge", teamText(team)));
      }
      // Who is here (a room's players come and go): "away" once a stand-in bot plays for them.
      const presence = R.presenceOf(seat);
      item.dataset.presence = presence;
      if (presence === R.Presence.AWAY) item.append(make(doc, "span", "seat-away", "away · a stand-in plays"));
      else if (presence === R.Presence.OFFLINE) item.append(make(doc, "span", "seat-away", "offline"));
      if (turn) item.append(make(doc, "span", "visually-hidden", ", playing now"));
      return item;
    });
    this.el.seats.replaceChildren(...items);
    this.renderTeamTotals(match);
  }

  /** A 2v2's score line: each team's total, the leader first in words. */
  renderTeamTotals(match) {
    if (!M.isTeams(match)) return;
    const [a, b] = M.teamTotals(match);
    const mine = M.teamOf(match, match.you);
    const name = (team) => `${teamText(team)}${mine === team ? " (yours)" : ""}`;
    setText(this.el.teamTotals, `${name(0)}: ${pts(a)} · ${name(1)}: ${pts(b)}`);
  }

  renderPowers(state, match, canPlay) {
    const gems = M.you(match)?.gems ?? 0;
    const mine = M.isMyTurn(match);
    for (const button of this.el.powerButtons) {
      const power = button.dataset.power;
      const cost = match.costs[power];
      const costEl = button.querySelector(".cost");
      const costKey = String(cost);
      if (costEl.dataset.cost !== costKey) {
        costEl.dataset.cost = costKey;
        const shown = make(this.document, "span", "", `◆${cost}`);
        shown.setAttribute("aria-hidden", "true");
        // The button's name is its content (its name, then the cost in words), so that it
        // holds the words shown on it, as speech input expects.
        costEl.replaceChildren(shown, make(this.document, "span", "visually-hidden", `, ${plural(cost, "gem")}`));
      }
      const usable = canPlay && M.canUse(match, power);
      // Not `disabled`: a power that cannot be paid for is still pressed, by a finger as by its key,
      // and says why (what it costs, whose turn it is); a disabled button would do nothing at all.
      button.setAttribute("aria-disabled", String(!usable));
      // Extend adds time to a turn: a match whose turns are not timed has no use for it.
      setHidden(button, power === "extend" && !M.isTimed(match));
      button.setAttribute("aria-pressed", String(power === "swap" && state.swap !== null));
      let why = "";
      if (!mine) why = "Not your turn";
      else if (gems < cost) why = `Needs ${plural(cost, "gem")}; you have ${gems}`;
      button.title = why ? `${POWER_NAMES[power]}: ${why}` : `${POWER_NAMES[power]} (${plural(cost, "gem")})`;
    }
    this.el.pass.setAttribute("aria-disabled", String(!(canPlay && M.canPass(match)))); // (pressed, it says why)
  }

  renderSwap(state, match, event) {
    const swap = state.swap;
    const picker = this.el.swapPicker;
    const wasOpen = !picker.hidden;
    setHidden(picker, swap === null);
    if (swap === null) {
      // Back to the board after a swap chosen with the keyboard.
      if (wasOpen && picker.contains(this.document.activeElement)) this.board.focusTile(...this.board.focus);
      return;
    }
    const letters = match.letters.join("");
    if (this.shown.letters !== letters) {
      this.shown.letters = letters;
      this.el.swapLetters.replaceChildren(
        ...match.letters.map((letter) => {
          const button = make(this.document, "button", "button swap-letter", letter);
          button.type = "button";
          button.dataset.letter = letter;
          return button;
        }),
      );
    }
    const tile = swap.tile ? state.board[swap.tile[0]]?.[swap.tile[1]] : null;
    this.el.swapTitle.textContent = tile
      ? `Change ${tile.letter} to:`
      : `Swap (${plural(match.costs.swap, "gem")}): pick the tile to change, on the board.`;
    setProp(this.el.swapLetters, "lang", match.language);
    // The letters show once the tile is picked: until then the sheet stays small, clear of the board.
    setHidden(this.el.swapLetters, !tile);
    for (const button of this.el.swapLetters.children) {
      button.disabled = !tile || button.dataset.letter === tile.letter;
    }
    if (event.type === "swap" && tile) {
      // The letters are next: the first one takes the focus (keyboard and screen readers).
      [...this.el.swapLetters.children].find((button) => !button.disabled)?.focus();
    } else if (event.type === "swap" && this.document.activeElement?.dataset?.power === "swap") {
      this.board.focusTile(...this.board.focus); // pick the tile with the arrows and Space
    }
  }

  renderHint(match) {
    const hint = match.hint;
    setHidden(this.el.hint, !hint);
    const key = hint ? `${hint.word}:${hint.points}` : "";
    if (!hint || this.shown.hint === key) return; // drawn again, its word would lose the focus
    this.shown.hint = key;
    this.el.hint.replaceChildren("Hint: ", wordButton(this.document, hint.word), ` · ${pts(hint.points)} — lit on the board`);
  }

  renderPause(match) {
    const between = match.phase === M.MatchPhase.BETWEEN;
    setHidden(this.el.pause, !between);
    if (!between) return;
    this.el.pauseTitle.textContent = `Round ${match.round} of ${match.rounds} done`;
    const items = M.standings(match).map((seat) => {
      const item = make(this.document, "li");
      item.append(make(this.document, "span", "", seat.name), make(this.document, "span", "pause-score", pts(seat.score)));
      return item;
    });
    this.el.pauseScores.replaceChildren(...items);
    this.clock.update(match);
  }

  renderPlays(match) {
    const plays = match.plays;
    const latest = plays[plays.length - 1];
    const key = `${plays.length}:${latest?.word ?? ""}:${match.you}`;
    if (this.shown.plays === key) return;
    this.shown.plays = key;
    const doc = this.document;
    const who = (play) => (play.seat === match.you ? "You" : M.seatName(match, play.seat));
    this.el.breakdown.textContent = latest
      ? `${who(latest)} played ${latest.word}: ${breakdownText(latest)} = ${pts(latest.points)}`
      : "No words yet. Each turn's word shows here, with how it scored.";
    const item = (play) => {
      const li = make(doc, "li");
      li.append(
        make(doc, "span", "play-who", `R${play.round} · ${who(play)}`),
        wordButton(doc, play.word, "play-word"),
        make(doc, "span", "found-points", `+${play.points}`),
      );
      li.title = breakdownText(play);
      return li;
    };
    // The same match seen by the same seat: only the new plays are added (newest first), so a
    // player reading the list keeps their place and their focus; else the list is drawn afresh.
    const same = `${match.id}:${match.you}`;
    const drawn = this.shown.playsOf === same ? this.shown.playsDrawn : -1;
    if (drawn >= 0 && drawn <= plays.length) {
      this.el.plays.prepend(...plays.slice(drawn).reverse().map(item));
    } else {
      this.el.plays.replaceChildren(...[...plays].reverse().map(item));
    }
    this.shown.playsOf = same;
    this.shown.playsDrawn = plays.length;
    rove(this.el.plays);
  }

  renderOver(match, event) {
    const summary = match.summary;
    const key = `${match.id}:${summary ? summary.turns.length : "-"}`;
    if (this.shown.over === key) return;
    this.shown.over = key;
    const doc = this.document;
    const standings = M.standings(match);
    const top = standings.filter((seat) => seat.rank === 1);
    const won = top.some((seat) => seat.index === match.you);
    this.el.overTitle.textContent = won
      ? top.length > 1 ? "A shared win!" : "You win!"
      : `${top[0]?.name ?? "Nobody"} wins`;
    const teams = summary?.teams ?? null;
    setHidden(this.el.teamResults, teams === null);
    if (teams !== null) {
      this.el.overTitle.textContent = this.teamsTitle(match, summary);
      this.el.teamResults.replaceChildren(...teams.map((team) => this.teamResult(match, team)));
    }
    this.el.ranking.replaceChildren(
      ...standings.map((seat) => {
        const item = make(doc, "li", "rank");
        item.dataset.rank = String(seat.rank);
        item.dataset.you = String(seat.index === match.you);
        const best = summary?.best.get(seat.index) ?? null;
        item.append(
          make(doc, "span", "rank-place", `#${seat.rank}`),
          make(doc, "span", "rank-name", seat.index === match.you && seat.name !== "You" ? `${seat.name} (you)` : seat.name),
          make(doc, "span", "rank-score", pts(seat.score)),
          best ? withWord(doc, "rank-best", "Best word: ", best) : make(doc, "span", "rank-best", "No word played"),
        );
        return item;
      }),
    );
    const turns = summary?.turns ?? [];
    this.document.querySelector('[data-testid="match-replay-link"]').href = `/replay/${encodeURIComponent(match.id)}`;
    this.el.turns.replaceChildren(
      ...turns.map((turn) => {
        const item = make(doc, "li", "turn");
        item.dataset.ended = turn.ended;
        const name = turn.seat === match.you ? "You" : M.seatName(match, turn.seat);
        const played = turn.played
          ? withWord(doc, "turn-played", "", turn.played)
          : make(doc, "span", "turn-played", turn.ended === "timed_out" ? "Ran out of time" : "Passed");
        const best = turn.best
          ? withWord(doc, "turn-best", "Best on the board: ", turn.best)
          : make(doc, "span", "turn-best", "No word on the board");
        item.dataset.best = String(M.foundTheBest(turn));
        item.append(
          make(doc, "span", "turn-who", `Round ${turn.round} · ${name}`),
          played,
          best,
        );
        return item;
      }),
    );
    // The end of a match just played: the end screen's heading takes the focus, so
    // a keyboard or a screen reader starts there (a reload or a resume leaves it be).
    if (event.type === "match_over") this.el.overTitle.focus();
  }

  teamsTitle(match, summary) {
    if (summary.winner === null) return "A tie!";
    const mine = M.teamOf(match, match.you);
    if (mine === null) return `${teamText(summary.winner)} wins`;
    return mine === summary.winner ? "Your team wins!" : `${teamText(summary.winner)} wins`;
  }

  /** One team on the end screen: its name, players, total, and every word it played. */
  teamResult(match, team) {
    const doc = this.document;
    const box = make(doc, "section", "team-result");
    box.dataset.team = String(team.team);
    box.dataset.rank = String(team.rank);
    // Each name in a <bdi>: a right-to-left name would otherwise reorder the words around it.
    const players = make(doc, "p", "team-result-players");
    team.seats.forEach((seat, i) => {
      if (i > 0) players.append(" and ");
      players.append(seat === match.you ? "you" : make(doc, "bdi", "", M.seatName(match, seat)));
    });
    box.append(make(doc, "h3", "team-result-title", `${teamText(team.team)} · ${pts(team.score)}`), players);
    const words = make(doc, "ol", "team-result-words");
    words.setAttribute("aria-label", `${teamText(team.team)}'s words`);
    for (const entry of team.words) {
      const item = make(doc, "li");
      const lead = make(doc, "span");
      lead.append(`R${entry.round} · `, entry.seat === match.you ? "You" : make(doc, "bdi", "", M.seatName(match, entry.seat)), ": ");
      item.append(withWord(doc, "team-word", lead, entry));
      words.append(item);
    }
    if (!team.words.length) words.append(make(doc, "li", "", "No words played"));
    box.append(words);
    return box;
  }

  /** The end screen's actions: a room's rematch is its host's, and the others wait for it. */
  renderOverActions(state) {
    const el = this.el;
    const room = state.room;
    const inRoom = state.mode === "room";
    const host = room !== null && R.isHost(room);
    setHidden(el.rematch, inRoom && !host);
    setHidden(el.newMatch, inRoom);
    setHidden(el.endless, inRoom);
    setHidden(el.roomLobby, !inRoom);
    // The host rematches as the lobby starts, and is told why not as the lobby tells it.
    const check = inRoom && host ? R.startCheck(room) : { ok: true, why: null };
    el.rematch.disabled = !check.ok;
    const blocked = blockedText(check);
    setHidden(el.rematchWait, !inRoom || (host && !blocked));
    if (inRoom && host) setText(el.rematchWait, blocked);
    if (inRoom && room && !host) {
      // Watching (never seated, got up, or removed): a rematch is the seats', not this tab's.
      const wait = waitingText(R.hostName(room), "a rematch");
      setText(el.rematchWait, R.isSeated(room) ? wait : `You are watching. ${wait}`);
    }
  }

  renderSetup(state, event) {
    const draft = state.draft;
    const key = draft.bots.join(",");
    if (this.shown.bots !== key) {
      this.shown.bots = key;
      this.el.botList.replaceChildren(...draft.bots.map((level, index) => this.botRow(level, index, draft)));
      if (event.type === "draft" && event.removed !== undefined) this.el.addBot.focus(); // the button pressed is gone
    } else {
      for (const select of this.el.botList.querySelectorAll("select")) {
        const level = draft.bots[Number(select.dataset.botLevel)];
        if (select.value !== level) select.value = level;
      }
    }
    this.el.addBot.disabled = draft.bots.length >= 5;
    setNumberField(this.el.rounds, draft.rounds, MAX_ROUNDS);
    this.el.timed.checked = draft.timed;
    this.el.classic.checked = draft.classic;
    const wordlist = M.nextMatchWordlist(state);
    if (this.el.wordlist.value !== wordlist) this.el.wordlist.value = wordlist;
    this.el.startMatch.disabled = state.connection.state !== "open";
  }

  botRow(level, index, draft) {
    const doc = this.document;
    const item = make(doc, "li", "bot-row");
    const id = `bot-level-${index}`;
    const label = make(doc, "label", "bot-label", `Bot ${index + 1}`);
    label.htmlFor = id;
    const select = make(doc, "select", "bot-level");
    select.id = id;
    select.dataset.botLevel = String(index);
    select.setAttribute("aria-describedby", "levels-help");
    for (const name of ["easy", "medium", "hard"]) {
      const option = make(doc, "option", "", capital(name));
      option.value = name;
      select.append(option);
    }
    select.value = level;
    const remove = make(doc, "button", "button small", "Remove");
    remove.type = "button";
    remove.dataset.removeBot = String(index);
    remove.setAttribute("aria-label", `Remove bot ${index + 1}`);
    remove.disabled = draft.bots.length <= 1;
    item.append(label, select, remove);
    return item;
  }
}
