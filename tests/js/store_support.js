// What the store's tests share: a Store on fake storages recording what it sends, a 3x3 endless
// game's snapshot and the server's `chain` reply, what the page would draw of the chain, and a
// plain tab (what a part of static/js/store/ reads) to drive one part alone.
import { EMPTY_CHAIN } from "../../static/js/chain.js";
import { memory } from "./support.js";

const S = await import("../../static/js/store.js");

export const config = { wordlists: [{ name: "en", title: "English" }], default_wordlist: "en" };

/** A Store on an open socket, on fake storages; `sent` holds what it sent. */
export const makeStore = (now = () => 1000) => {
  const sent = [];
  const store = new S.Store({ send: (m) => { sent.push(m); return true; },
                              storage: S.savedGames(memory(), memory()), config, now });
  store.onStatus({ state: "open", lost: false });
  return { store, sent };
};

export const tile = (letter, extra = {}) => ({ letter, score: 1, ...extra });

/** The `game` snapshot of a 3x3 endless game: CAT / SON / DER. */
export const snapshot = (extra = {}) => ({
  type: "game", game_id: "g", token: "t", seed: 1, wordlist: "en", wordlist_title: "English",
  language: "en", min_length: 3, size: 3, phase: "idle",
  board: [[tile("C"), tile("A"), tile("T")], [tile("S"), tile("O"), tile("N")],
          [tile("D"), tile("E"), tile("R")]],
  chain: [], word: "", points: 0, status: "none", already_found: false, total: 0, found: [], words_left: 9,
  version: 0, ...extra,
});

/** The server's `chain` reply (with a seq or without). */
export const reply = (chain, extra = {}) => ({ type: "chain", chain, word: "", points: 0, status: "prefix",
                                               already_found: false, version: 0, ...extra });

/** What the page draws of the chain. */
export const view = (store) => ({ chain: store.state.chain, phase: S.phaseOf(store.state), mine: store.state.mine,
                                  current: S.currentChain(store.state) });

/** `rows` ("CAT/SON/DER") as a board. */
export const boardOf = (rows) => rows.split("/").map((row) => [...row].map((letter) => tile(letter)));

/**
 * A tab as the store hands it to its parts: an endless game of `rows` on screen, connected, nothing
 * in flight; `state` and the rest override any of it.
 */
export const tabOf = ({ rows = "CAT/SON/DER", state = {}, ...rest } = {}) => ({
  state: {
    config, connection: { state: "open" }, live: true, mode: "endless", setup: false,
    game: { id: "g", wordlist: "en", title: "English", minLength: 3, sprint: null, daily: null },
    match: null, board: boardOf(rows), total: 0, found: [], wordsLeft: 9, confirmed: EMPTY_CHAIN, chain: [],
    refilling: null, mine: false, swap: null, spelling: null, games: [], shownPath: null, dailyName: "",
    ...state,
  },
  ref: { game_id: "g", token: "t" }, opening: null, announce: null, start: null, fellBack: false,
  waiting: false, canPlay: true, now: () => 1000, today: () => "2026-11-24", player: () => "P".repeat(32),
  dailyGame: () => null, current: () => null,
  ...rest,
});
