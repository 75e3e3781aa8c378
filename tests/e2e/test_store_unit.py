"""The page's store as a unit, in the real Chromium: moves matched to replies by ``seq``,
tiles kept as the server sent them, points taken from the server, and a match's state.

The modules are imported on a page of the live server (nothing running on it) and
driven with fake server messages and a recording ``send``, as test_saved_games.py does.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.support import LiveServer

pytestmark = pytest.mark.e2e

# A Store on a fake storage, recording what it sends; `snapshot` a 3x3 endless game;
# `chainOf` the server's `chain` reply (with or without a seq).
PRELUDE = """
const S = await import("/static/js/store.js");
const memory = () => {
  const data = new Map();
  return { getItem: (k) => (data.has(k) ? data.get(k) : null), setItem: (k, v) => data.set(k, String(v)),
           removeItem: (k) => data.delete(k) };
};
let clock = 1000;
const config = { wordlists: [{ name: "en", title: "English" }], default_wordlist: "en" };
const make = () => {
  const sent = [];
  const store = new S.Store({ send: (m) => { sent.push(m); return true; },
                              storage: S.savedGames(memory(), memory()), config, now: () => clock });
  store.onStatus({ state: "open", lost: false });
  return { store, sent };
};
const tile = (letter, extra = {}) => ({ letter, score: 1, ...extra });
const snapshot = (extra = {}) => ({
  type: "game", game_id: "g", token: "t", seed: 1, wordlist: "en", wordlist_title: "English",
  language: "en", min_length: 3, size: 3, phase: "idle",
  board: [[tile("C"), tile("A"), tile("T")], [tile("S"), tile("O"), tile("N")],
          [tile("D"), tile("E"), tile("R")]],
  chain: [], word: "", points: 0, status: "none", already_found: false, total: 0, found: [], words_left: 9,
  version: 0, ...extra,
});
const reply = (chain, extra = {}) => ({ type: "chain", chain, word: "", points: 0, status: "prefix",
                                        already_found: false, version: 0, ...extra });
const view = (store) => ({ chain: store.state.chain, phase: S.phaseOf(store.state), mine: store.state.mine,
                           current: S.currentChain(store.state) });
"""


def run(page: Page, server: LiveServer, body: str) -> Any:
    page.goto(f"{server.url}/healthz")
    return page.evaluate(f"async () => {{ {PRELUDE}\n{body} }}")


# -- the endless game ------------------------------------------------------------------


def test_moves_carry_counting_seqs_and_the_chain_is_optimistic_until_the_latest_is_answered(
    page: Page, server: LiveServer
) -> None:
    result = run(
        page,
        server,
        """
        const { store, sent } = make();
        store.onMessage(snapshot());
        store.press(0, 0); store.enter(0, 1); store.enter(0, 2);
        const before = view(store);
        // The server answers the first two: older seqs, the tab keeps its own three tiles.
        store.onMessage(reply([[0, 0]], { seq: 1, word: "C", points: 3 }));
        store.onMessage(reply([[0, 0], [0, 1]], { seq: 2, word: "CA", points: 4 }));
        const stale = view(store);
        store.onMessage(reply([[0, 0], [0, 1], [0, 2]], { seq: 3, word: "CAT", points: 5, status: "word" }));
        return { sent, before, stale, after: view(store) };
        """,
    )
    assert result["sent"] == [
        {"type": "press", "row": 0, "col": 0, "seq": 1},
        {"type": "enter", "row": 0, "col": 1, "seq": 2},
        {"type": "enter", "row": 0, "col": 2, "seq": 3},
    ]
    assert result["before"]["chain"] == [[0, 0], [0, 1], [0, 2]]
    assert result["before"]["phase"] == "chaining"
    assert result["before"]["current"]["status"] == "pending"
    assert result["before"]["current"]["points"] is None  # nothing confirmed yet: no points at all
    # A stale reply: the tab's chain stays, the last points the server sent show, marked stale.
    assert result["stale"]["chain"] == [[0, 0], [0, 1], [0, 2]]
    assert result["stale"]["current"]["status"] == "pending"
    assert result["stale"]["current"]["points"] == 4
    assert result["stale"]["current"]["stale"] is True
    # The latest seq: caught up, the server's verdict and points.
    after = result["after"]["current"]
    assert (after["word"], after["status"], after["points"], after["stale"]) == ("CAT", "word", 5, False)


def test_points_are_the_servers_never_the_tiles_sum(page: Page, server: LiveServer) -> None:
    result = run(
        page,
        server,
        """
        const { store } = make();
        store.onMessage(snapshot());
        store.press(0, 0); store.enter(0, 1); store.enter(0, 2);
        // Tiles of 1 point each, but the server says 26 (multipliers, a bonus): 26 it is.
        store.onMessage(reply([[0, 0], [0, 1], [0, 2]], { seq: 3, word: "CAT", points: 26, status: "word" }));
        return S.currentChain(store.state).points;
        """,
    )
    assert result == 26


def test_an_error_with_seq_rolls_the_chain_back_to_the_servers(page: Page, server: LiveServer) -> None:
    result = run(
        page,
        server,
        """
        const { store } = make();
        store.onMessage(snapshot());
        store.press(0, 0); store.enter(0, 1);
        store.onMessage(reply([[0, 0]], { seq: 1, word: "C", points: 3 }));
        store.onMessage({ type: "error", code: "state/cleaning_up", request: "enter", message: "wait",
                          seq: 2 });
        return view(store);
        """,
    )
    assert result["chain"] == [[0, 0]]
    assert result["current"]["status"] == "prefix"
    assert result["phase"] == "chaining"


def test_a_refused_press_leaves_the_other_tabs_chain_and_says_so(page: Page, server: LiveServer) -> None:
    result = run(
        page,
        server,
        """
        const { store } = make();
        store.onMessage(snapshot());
        store.press(2, 2); store.enter(2, 1);
        // Another tab's chain arrives (no seq: not ours), then both our moves are refused.
        store.onMessage(reply([[0, 0], [0, 1]], { word: "CA", points: 2 }));
        const meanwhile = view(store);
        const refused = (code, request, seq) => ({ type: "error", code, request, message: "x", seq });
        store.onMessage(refused("state/already_chaining", "press", 1));
        store.onMessage(refused("state/not_your_chain", "enter", 2));
        return { meanwhile, after: view(store), message: store.state.message.say, release: store.release() };
        """,
    )
    assert result["meanwhile"]["chain"] == [[2, 2], [2, 1]]  # ours, until the server answers it
    assert result["after"]["chain"] == [[0, 0], [0, 1]]
    assert result["after"]["mine"] is False
    assert result["message"] == "other_tab"
    assert result["release"] is False  # not ours to submit


def test_a_message_without_seq_is_someone_elses_and_shown_when_nothing_of_ours_is_in_flight(
    page: Page, server: LiveServer
) -> None:
    result = run(
        page,
        server,
        """
        const { store } = make();
        store.onMessage(snapshot());
        store.press(0, 0);
        store.onMessage(reply([[0, 0]], { seq: 1, word: "C" }));  // the server says it copies seq
        store.cancel();
        store.onMessage(reply([], { seq: 2, status: "none" }));
        const idle = view(store);
        // Another tab drags: adopted at once, and not ours.
        store.onMessage(reply([[1, 1], [1, 2]], { word: "ON", points: 2 }));
        return { idle, other: view(store) };
        """,
    )
    assert result["idle"]["phase"] == "idle"
    assert result["other"]["chain"] == [[1, 1], [1, 2]]
    assert result["other"]["mine"] is False
    assert result["other"]["current"]["status"] == "prefix"
    assert result["other"]["current"]["points"] == 2


def test_a_server_that_does_not_copy_seq_back_still_catches_up(page: Page, server: LiveServer) -> None:
    """Servers from before "Move numbers": a reply that leaves the server where the tab is answers it."""
    result = run(
        page,
        server,
        """
        const { store } = make();
        store.onMessage(snapshot());
        store.press(0, 0); store.enter(0, 1); store.enter(0, 2);
        store.onMessage(reply([[0, 0]], { word: "C" }));
        store.onMessage(reply([[0, 0], [0, 1]], { word: "CA" }));
        const midway = view(store);
        store.onMessage(reply([[0, 0], [0, 1], [0, 2]], { word: "CAT", points: 5, status: "word" }));
        const caught = view(store);
        store.release();
        store.onMessage({ type: "word", word: "CAT", result: "scored", points: 5, total: 5, version: 1 });
        const judged = view(store);
        store.onMessage({ type: "board", changed: [{ row: 0, col: 0, letter: "B", score: 3 }], words_left: 8,
                          version: 1 });
        return { midway, caught, judged, after: view(store), total: store.state.total };
        """,
    )
    assert result["midway"]["chain"] == [[0, 0], [0, 1], [0, 2]]
    assert result["midway"]["current"]["status"] == "pending"
    assert result["caught"]["current"]["status"] == "word"
    assert result["judged"]["phase"] == "busy"  # the word's tiles are being replaced
    assert result["after"]["phase"] == "idle"
    assert result["total"] == 5


def test_every_field_of_a_tile_reaches_the_view(page: Page, server: LiveServer) -> None:
    result = run(
        page,
        server,
        """
        const { store } = make();
        const odd = tile("Q", { mult: "TL", gem: true, sparkle: 7 });
        store.onMessage(snapshot({ board: [[odd, tile("A"), tile("T")], [tile("S"), tile("O"), tile("N")],
                                           [tile("D"), tile("E"), tile("R")]] }));
        const first = store.state.board[0][0];
        store.onMessage({ type: "board", changed: [{ row: 1, col: 1, letter: "X", score: 8, word_mult: 2,
                                                     glow: "new" }], words_left: 3, version: 1 });
        return { first, changed: store.state.board[1][1] };
        """,
    )
    assert result["first"] == {"letter": "Q", "score": 1, "mult": "TL", "gem": True, "sparkle": 7}
    assert result["changed"] == {"letter": "X", "score": 8, "word_mult": 2, "glow": "new"}


def test_rate_limited_moves_stop_the_wait(page: Page, server: LiveServer) -> None:
    result = run(
        page,
        server,
        """
        const { store } = make();
        store.onMessage(snapshot());
        store.press(0, 0);
        store.onMessage(reply([[0, 0]], { seq: 1, word: "C" }));
        store.enter(0, 1); store.enter(0, 2);  // both dropped by the server: no reply will come
        // The warning names no move (it stands for all the dropped ones): stop waiting anyway.
        store.onMessage({ type: "error", code: "protocol/rate_limited", message: "slow down" });
        return view(store);
        """,
    )
    assert result["chain"] == [[0, 0]]
    assert result["phase"] == "chaining"


# -- a match ------------------------------------------------------------------------------

# A 3x3 match snapshot: seat 0 is this tab, seat 1 a bot; `played`, `turn` as the server sends them.
MATCH = """
const mtile = (letter, extra = {}) => ({ letter, score: 1, mult: null, word_mult: null, gem: false,
                                         ...extra });
const matchSnapshot = (extra = {}) => ({
  type: "match", match_id: "m1", token: "tok", you: 0, seed: 5, wordlist: "en", wordlist_title: "English",
  language: "en", min_length: 3, letters: { A: {}, B: {}, C: {}, Z: {} }, size: 3,
  seats: [{ name: "You", kind: "human", level: null, score: 0, gems: 3, speed: 1, connected: true },
          { name: "Ada", kind: "bot", level: "easy", score: 0, gems: 3, speed: 1, connected: true }],
  round: 1, rounds: 2, turn: 0, turn_no: 1, deadline: null, remaining: null, phase: "playing",
  board: [[mtile("C", { mult: "DL" }), mtile("A", { gem: true }), mtile("T")],
          [mtile("S"), mtile("O", { word_mult: 2 }), mtile("N")], [mtile("D"), mtile("E"), mtile("R")]],
  chain: [], word: "", points: 0, status: "none", words_left: 9, history: [],
  costs: { shuffle: 1, swap: 3, hint: 4, extend: 1 }, gem_cap: 10,
  settings: { rounds: 2, turn_seconds: null, extend_seconds: 15 }, version: 0, ...extra,
});
const M = await import("/static/js/match.js");
const turn = (extra) => ({ type: "turn", turn: 1, round: 1, turn_no: 2, deadline: null, remaining: null,
                           phase: "playing", passed: null, version: 1, ...extra });
const startMatch = () => {
  const made = make();
  made.store.onOpen();
  made.store.onMessage(snapshot());
  made.store.startMatch({ bots: ["easy"], rounds: 2, timed: false });
  made.store.onMessage(matchSnapshot());
  return made;
};
"""


def run_match(page: Page, server: LiveServer, body: str) -> Any:
    return run(page, server, MATCH + body)


def test_a_match_snapshot_puts_the_match_on_screen_and_in_your_games(page: Page, server: LiveServer) -> None:
    result = run_match(
        page,
        server,
        """
        const { store, sent } = startMatch();
        const m = store.state.match;
        return { sent: sent.slice(1), mode: store.state.mode,
                 seats: m.seats.map((s) => [s.name, s.kind, s.level]),
                 mine: M.isMyTurn(m), letters: m.letters, tile: store.state.board[0][0],
                 entry: store.state.games[0], phase: S.phaseOf(store.state),
                 powers: ["shuffle", "swap", "hint", "extend"].map((p) => M.canUse(m, p)) };
        """,
    )
    assert result["sent"] == [
        {
            "type": "new_match",
            "bots": [{"level": "easy"}],
            "rounds": 2,
            "turn_seconds": None,
            "wordlist": "en",
        }
    ]
    assert result["mode"] == "match"
    assert result["seats"] == [["You", "human", None], ["Ada", "bot", "easy"]]
    assert result["mine"] is True
    assert result["letters"] == ["A", "B", "C", "Z"]
    assert result["tile"] == {"letter": "C", "score": 1, "mult": "DL", "word_mult": None, "gem": False}
    assert result["entry"]["kind"] == "match"
    assert result["entry"]["match_id"] == "m1"
    assert result["phase"] == "idle"
    # 3 gems: shuffle and swap, not hint (4), not extend (an untimed match).
    assert result["powers"] == [True, True, False, False]


def test_a_bots_drag_shows_live_then_its_word_scores_and_the_turn_comes_back(
    page: Page, server: LiveServer
) -> None:
    result = run_match(
        page,
        server,
        """
        const { store, sent } = startMatch();
        store.onMessage({ type: "chain", seat: 0, chain: [], word: "", points: 0, status: "none" });
        store.onMessage(turn({ turn: 1 }));
        const pressed = store.press(2, 2);  // not our turn: nothing sent
        store.onMessage({ type: "chain", seat: 1, chain: [[0, 0], [0, 1]], word: "CA", points: 4,
                          status: "prefix" });
        const watching = S.currentChain(store.state);
        store.onMessage({ type: "played", seat: 1, word: "CAT", path: [[0, 0], [0, 1], [0, 2]], points: 8,
                          breakdown: [{ step: "letters", points: 4 },
                                      { step: "word_multiplier", factor: 2, points: 8 }],
                          gems_earned: 1, score: 8, version: 2 });
        const played = { chain: store.state.chain, phase: S.phaseOf(store.state),
                         score: store.state.match.seats[1].score,
                         play: store.state.match.plays.at(-1), message: store.state.message };
        store.onMessage({ type: "board", reason: "refill", words_left: 4, version: 2,
                          changed: [{ row: 0, col: 0, ...mtile("B", { score: 3, gem: true }) }] });
        store.onMessage({ type: "gems", seat: 1, gems: 4 });
        store.onMessage(turn({ turn: 0, turn_no: 3, version: 2 }));
        return { pressed, sent: sent.length, watching, played, phase: S.phaseOf(store.state),
                 gems: store.state.match.seats[1].gems, mine: M.isMyTurn(store.state.match),
                 message: store.state.message.say, tile: store.state.board[0][0] };
        """,
    )
    assert result["pressed"] is False
    assert result["sent"] == 2  # new_game, new_match: no press
    assert result["watching"]["chain"] == [[0, 0], [0, 1]]
    assert result["watching"]["seat"] == 1
    assert result["watching"]["mine"] is False
    assert result["watching"]["points"] == 4
    # Played: the chain is gone, the score is the server's, the tiles wait for their refill.
    assert result["played"]["chain"] == []
    assert result["played"]["phase"] == "busy"
    assert result["played"]["score"] == 8
    assert result["played"]["play"]["breakdown"][-1] == {"step": "word_multiplier", "factor": 2, "points": 8}
    assert [m["mult"] for m in result["played"]["play"]["marks"]] == ["DL", None, None]
    assert result["played"]["message"]["say"] == "played"
    assert result["phase"] == "idle"
    assert result["gems"] == 4
    assert result["mine"] is True
    assert result["message"] == "your_turn"
    assert result["tile"]["gem"] is True


def test_my_word_goes_out_with_seqs_and_its_played_reply_ends_the_chain(
    page: Page, server: LiveServer
) -> None:
    result = run_match(
        page,
        server,
        """
        const { store, sent } = startMatch();
        store.press(0, 0); store.enter(0, 1); store.enter(0, 2);
        const chainReply = (chain, seq, points) =>
          ({ type: "chain", seat: 0, chain, word: "", points, status: "prefix", seq });
        store.onMessage(chainReply([[0, 0]], 1, 2));
        store.onMessage(chainReply([[0, 0], [0, 1]], 2, 3));
        store.onMessage({ ...chainReply([[0, 0], [0, 1], [0, 2]], 3, 4), status: "word" });
        const word = S.currentChain(store.state);
        store.release();
        store.onMessage({ type: "played", seat: 0, word: "CAT", path: [[0, 0], [0, 1], [0, 2]], points: 4,
                          breakdown: [{ step: "letters", points: 4 }], gems_earned: 1, score: 4, version: 1,
                          seq: 4 });
        return { sent: sent.slice(2), word, chain: store.state.chain, mine: store.state.mine,
                 saved: store.state.games[0].score };
        """,
    )
    assert [m["type"] for m in result["sent"]] == ["press", "enter", "enter", "release"]
    assert [m["seq"] for m in result["sent"]] == [1, 2, 3, 4]
    assert (result["word"]["word"], result["word"]["status"], result["word"]["points"]) == ("CAT", "word", 4)
    assert result["chain"] == []
    assert result["mine"] is False
    assert result["saved"] == 4


def test_powers_a_swap_mid_drag_and_a_refused_one(page: Page, server: LiveServer) -> None:
    result = run_match(
        page,
        server,
        """
        const { store, sent } = startMatch();
        store.press(0, 0); store.enter(0, 1);
        const mine = (word, points, status, seq) =>
          ({ type: "chain", seat: 0, chain: [[0, 0], [0, 1]], word, points, status, seq });
        store.onMessage(mine("CA", 3, "prefix", 2));
        // Swap mid-drag: the tile pressed while choosing is the one to change; the chain stays.
        store.usePower("swap");
        const pick = store.press(0, 1);
        const chosen = store.state.swap;
        store.swapTo("Z");
        const afterSwap = { chain: store.state.chain, swap: store.state.swap };
        store.onMessage({ type: "board", reason: "swap", words_left: 3, version: 1, seq: 3,
                          changed: [{ row: 0, col: 1, ...mtile("Z", { score: 10, gem: true }) }] });
        store.onMessage(mine("CZ", 12, "none", 3));
        store.onMessage({ type: "gems", seat: 0, gems: 0, seq: 3 });
        const respelt = S.currentChain(store.state);
        const hintAllowed = M.canUse(store.state.match, "hint");
        // Refused by the server (the tab thought it could pay): the chain goes back to the server's.
        store.state.match.seats[0].gems = 1;
        store.usePower("shuffle");
        store.onMessage({ type: "error", code: "gems/not_enough", request: "shuffle",
                          message: "shuffle costs 1 gem; you have 0", seq: 4 });
        return { sent: sent.slice(4), pick, chosen, afterSwap, respelt, hintAllowed,
                 message: store.state.message, chain: store.state.chain };
        """,
    )
    assert result["sent"] == [
        {"type": "swap", "row": 0, "col": 1, "letter": "Z", "seq": 3},
        {"type": "shuffle", "seq": 4},
    ]
    assert result["pick"] is False  # no press went out for the tile picked
    assert result["chosen"] == {"tile": [0, 1]}
    assert result["afterSwap"] == {"chain": [[0, 0], [0, 1]], "swap": None}
    assert (result["respelt"]["word"], result["respelt"]["points"]) == ("CZ", 12)
    assert result["hintAllowed"] is False
    assert result["message"]["text"] == "shuffle costs 1 gem; you have 0"
    assert result["chain"] == [[0, 0], [0, 1]]


def test_the_turn_clock_counts_down_from_remaining_not_from_the_deadline(
    page: Page, server: LiveServer
) -> None:
    result = run_match(
        page,
        server,
        """
        const { store, sent } = startMatch();
        // A deadline from a clock hours off: only `remaining` (20 s) counts, from when it arrived.
        store.onMessage(turn({ turn: 0, turn_no: 2, deadline: 1, remaining: 20 }));
        const m = store.state.match;
        const atOnce = M.secondsLeft(m, clock);
        clock += 5500;
        const later = M.secondsLeft(m, clock);
        const extendable = M.canUse(m, "extend");
        store.usePower("extend");
        store.onMessage(turn({ turn: 0, turn_no: 2, deadline: 2, remaining: 29.5, seq: 1 }));
        return { atOnce, later, extendable, extended: M.secondsLeft(m, clock), span: M.clockSpan(m),
                 sent: sent.at(-1) };
        """,
    )
    assert result["atOnce"] == 20
    assert result["later"] == pytest.approx(14.5)
    assert result["extendable"] is True
    assert result["sent"] == {"type": "extend", "seq": 1}
    assert result["extended"] == pytest.approx(29.5)
    assert result["span"] == pytest.approx(29.5)


def test_the_end_screen_data_and_a_rematch(page: Page, server: LiveServer) -> None:
    result = run_match(
        page,
        server,
        """
        const { store, sent } = startMatch();
        const tooEarly = store.rematch();
        const play = (word, points) => ({ word, path: [[0, 0]], points, breakdown: [] });
        store.onMessage(turn({ turn: 0, phase: "over", version: 4 }));
        store.onMessage({ type: "match_over", version: 4,
          ranking: [{ seat: 1, rank: 1, score: 30 }, { seat: 0, rank: 2, score: 12 }],
          best_words: [{ seat: 0, word: play("CAT", 12) }, { seat: 1, word: play("QUARTZ", 30) }],
          turns: [{ seat: 0, round: 1, ended: "played", played: play("CAT", 12), best: play("QUARTZ", 30) },
                  { seat: 1, round: 1, ended: "played", played: play("QUARTZ", 30),
                    best: play("QUARTZ", 30) },
                  { seat: 0, round: 2, ended: "passed", played: null, best: play("ZOO", 14) },
                  { seat: 1, round: 2, ended: "timed_out", played: null, best: null }] });
        const m = store.state.match;
        const over = { phase: m.phase, ranking: M.standings(m).map((s) => [s.name, s.rank, s.score]),
                       best: [...m.summary.best.entries()].map(([seat, w]) => [seat, w.word, w.points]),
                       turns: m.summary.turns.map((t) => [t.ended, t.played?.word ?? null,
                                                          t.best?.word ?? null]),
                       message: store.state.message, entry: store.state.games[0] };
        const again = store.rematch();
        store.onMessage(matchSnapshot({ match_id: "m2", token: "tok" }));
        return { tooEarly, over, again, rematch: sent.at(-1), now: store.state.match.id,
                 phase: store.state.match.phase,
                 ids: store.state.games.map((g) => g.match_id ?? g.game_id) };
        """,
    )
    assert result["tooEarly"] is False
    over = result["over"]
    assert over["phase"] == "over"
    assert over["ranking"] == [["Ada", 1, 30], ["You", 2, 12]]
    assert over["best"] == [[0, "CAT", 12], [1, "QUARTZ", 30]]
    assert over["turns"] == [
        ["played", "CAT", "QUARTZ"],
        ["played", "QUARTZ", "QUARTZ"],
        ["passed", None, "ZOO"],
        ["timed_out", None, None],
    ]
    assert over["message"]["say"] == "match_over"
    assert over["message"]["won"] is False
    assert over["entry"]["over"] is True
    assert result["again"] is True
    assert result["rematch"] == {"type": "rematch"}
    assert result["now"] == "m2"
    assert result["phase"] == "playing"
    assert result["ids"] == ["m2", "m1", "g"]


def test_a_match_resumes_after_a_reload_and_follows_a_rematch_from_another_tab(
    page: Page, server: LiveServer
) -> None:
    result = run_match(
        page,
        server,
        """
        const local = memory(), session = memory();
        const tab = () => {
          const sent = [];
          const store = new S.Store({ send: (m) => { sent.push(m); return true; },
                                      storage: S.savedGames(local, session), config, now: () => clock });
          store.onStatus({ state: "open", lost: false });
          return { store, sent };
        };
        const first = tab();
        first.store.onOpen();
        first.store.onMessage(snapshot());
        first.store.startMatch({ bots: ["hard"], rounds: 3, timed: true });
        first.store.onMessage(matchSnapshot());
        const reloaded = tab();  // the same tab after a reload: session storage names the match
        reloaded.store.onOpen();
        reloaded.store.onMessage(matchSnapshot());
        reloaded.store.onMessage({ type: "rematch", match_id: "m9" });
        // Back to the endless game: the newest game in "Your games".
        reloaded.store.onMessage(matchSnapshot({ match_id: "m9" }));
        reloaded.store.chooseMode("endless");
        return { resume: reloaded.sent[0], follow: reloaded.sent[1], back: reloaded.sent[2],
                 timed: first.sent.at(-1) };
        """,
    )
    assert result["timed"]["turn_seconds"] == 30
    assert result["timed"]["bots"] == [{"level": "hard"}]
    assert result["resume"] == {"type": "resume", "match_id": "m1", "token": "tok"}
    assert result["follow"] == {"type": "resume", "match_id": "m9", "token": "tok"}
    assert result["back"] == {"type": "resume", "game_id": "g", "token": "t"}
