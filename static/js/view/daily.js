// The daily board's panel: before the day's game, the name and the Play button; after it, Share
// and a replay; on both, the day's leaderboard, this browser's days and yesterday's board with
// its best words. Owns the `daily` section only (the game itself is the endless panels').

import { bestDays, shareText, streakOf } from "../daily.js";
import { wordButton } from "./definition.js";
import { make, setText, setHidden } from "./dom.js";
import { DAILY, fieldError } from "./wording.js";

export class DailyPanel {
  /** @param {Document} root the page */
  constructor(root) {
    const $ = (selector) => root.querySelector(selector);
    this.document = root;
    this.el = {
      section: $('[data-testid="daily"]'),
      title: $("#daily-title"),
      intro: $('[data-testid="daily-intro"]'),
      form: $('[data-testid="daily-form"]'),
      name: $("#daily-name"),
      error: $('[data-testid="daily-error"]'),
      play: $('[data-action="play-daily"]'),
      share: $('[data-testid="daily-share"]'),
      status: $('[data-testid="share-status"]'),
      rank: $('[data-testid="daily-rank"]'),
      top: $('[data-testid="daily-top"]'),
      streak: $('[data-testid="daily-streak"]'),
      best: $('[data-testid="daily-best"]'),
      yesterday: $('[data-testid="yesterday"]'),
      yesterdayTitle: $(".yesterday-title"),
      yesterdayBoard: $('[data-testid="yesterday-board"]'),
      yesterdayBest: $('[data-testid="yesterday-best"]'),
    };
    this.nameGiven = false; // the remembered name is put in the field once, not over what is typed
    this.yesterdayShown = null;
  }

  /** What Share copies for the day's game on screen (`url`: the daily board's link). */
  shareText(state, url) {
    const daily = state.game?.daily;
    if (!daily) return null;
    const heading = DAILY.share(daily.day, state.total, state.found.length, daily.scored);
    return shareText({ heading, found: state.found, url });
  }

  show(screen, state) {
    const el = this.el;
    const over = screen === "daily" && state.game?.sprint?.over === true;
    setHidden(el.section, !(screen === "daily-intro" || over));
    setHidden(el.form, screen !== "daily-intro");
    setHidden(el.intro, screen !== "daily-intro");
    setHidden(el.share, !over);
  }

  render(state, event, { screen }) {
    if (screen !== "daily-intro" && screen !== "daily") return;
    const el = this.el;
    const board = state.dailyBoard;
    const day = state.game?.daily?.day ?? board?.day ?? null;
    setText(el.title, day === null ? "Daily board" : DAILY.title(day));
    if (board) setText(el.intro, DAILY.intro(board.seconds)); // the server's length, 3 minutes unless set
    if (!this.nameGiven && state.dailyName) {
      el.name.value = state.dailyName;
      this.nameGiven = true;
    }
    const error = state.dailyError ? fieldError(state.dailyError) : "";
    setHidden(el.error, !error);
    setText(el.error, error);
    el.name.setAttribute("aria-invalid", String(Boolean(error)));
    el.play.disabled = state.connection.state !== "open";
    if (board?.played && screen === "daily-intro") setText(el.play, "Play today's board again (not scored)");
    setText(el.status, state.shared ? DAILY.shared[state.shared] : state.game?.daily ? DAILY.scoredOrNot(state.game.daily.scored, board?.you) : "");
    this.renderBoard(board);
    this.renderDays(state);
    if (event.type === "daily_error" || (event.type === "error" && state.dailyError)) el.name.focus();
    else if (screen === "daily-intro" && !this.introFocused && this.document.activeElement === this.document.body) {
      // The page opened on its form: the name is the one thing to fill, so typing goes there.
      this.introFocused = true;
      el.name.focus({ preventScroll: true });
    }
  }

  renderBoard(board) {
    const el = this.el;
    if (!board) return;
    setText(el.rank, DAILY.rank(board));
    el.top.replaceChildren(
      ...board.top.map((standing) => {
        const item = make(this.document, "li", board.you && board.you.rank === standing.rank && board.you.name === standing.name ? "you" : "");
        item.append(make(this.document, "span", "rank", `${standing.rank}.`), make(this.document, "span", "", DAILY.top(standing)));
        return item;
      }),
    );
    const yesterday = board.yesterday;
    setHidden(el.yesterday, !yesterday); // (none for a day's first minutes, while yesterday's last tries run)
    if (yesterday && this.yesterdayShown !== yesterday.date) {
      this.yesterdayShown = yesterday.date;
      setText(el.yesterdayTitle, DAILY.yesterday(yesterday.day));
      const rows = yesterday.board.map((row) => row.map((tile) => tile.letter));
      el.yesterdayBoard.setAttribute("aria-label", DAILY.yesterdayBoard(rows));
      el.yesterdayBoard.replaceChildren(...rows.flat().map((letter) => make(this.document, "span", "mini-tile", letter)));
      el.yesterdayBest.replaceChildren(
        ...yesterday.best.map(({ word, points }) => {
          const item = make(this.document, "li", "yesterday-word");
          item.append(wordButton(this.document, word, "missed-text"), make(this.document, "span", "found-points", `+${points}`));
          return item;
        }),
      );
    }
  }

  renderDays(state) {
    const el = this.el;
    const days = state.days ?? {};
    const today = state.game?.daily?.date ?? state.dailyBoard?.date ?? null;
    const played = Object.keys(days).length;
    setText(el.streak, DAILY.streak(today ? streakOf(days, today) : 0, played));
    el.best.replaceChildren(...bestDays(days).map((entry) => make(this.document, "li", "", DAILY.best(entry))));
  }
}

