"""Matches through the live layer, in-process: bots, timers, seats, seq, failed writes, restarts, rematches.

Every player here is a ``Client`` whose messages go through the websocket handler's own
``_handle`` (parse, ``Router.handle``, an ``error`` carrying the message's ``seq``) and
whose frames pass through a real ``Outbox``; time is a ``FakeClock`` moved by hand, and a
deadline runs only when a test calls ``timers.run_due()``. No sockets, no sleeps.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.live.players import LIST, FakeClock, FlakyStore, Live, Message, Person, errors, tick, types
from wibble.core import Pos
from wibble.core.match import Seat, Settings, choose
from wibble.core.solver import Found
from wibble.engines.store import MemoryStore, Store
from wibble.live import LiveSettings, wire
from wibble.live.credentials import token_hash
from wibble.live.matches import BotPace, LiveMatch, bots
from wibble.live.records import match_record, match_replay
from wibble.live.timers import LATE_SECONDS
from wibble.wordlists import WordLists

# Binary fractions only, so that the fake clock lands exactly on every deadline.
THINK = 2.0
STEP = 0.25
PACED = BotPace(think=(THINK, THINK), step=STEP)
"""Bots that think exactly THINK seconds, then drag a tile every STEP seconds."""
QUICK = BotPace(think=(0.0, 0.0), step=0.0)
"""Bots that play their whole turn the moment it is theirs (at the next ``run_due``)."""
TURN = 30
TOKENS = ("seat-zero-secret-token", "seat-one-secret-token")

Start = Callable[..., Live]


@pytest.fixture
def start(wordlists: WordLists, clock: FakeClock) -> Start:
    """A live layer as ``make_live`` builds one, but with bots at the pace a test chooses.

    ``start(store)`` on the store of an earlier one is the same server after a restart."""

    def make(store: Store | None = None, pace: BotPace = PACED) -> Live:
        store = store if store is not None else MemoryStore()
        router = wire(store, wordlists, clock, clock, LiveSettings(pace=pace), entropy=random.Random(7))
        return Live(store, router, clock)

    return make


# -- helpers ---------------------------------------------------------------------------------


def person(live: Live, address: str = "192.0.2.1") -> Person:
    player = Person(live.router, address)
    live.players.append(player)
    return player


def held(live: Live, match_id: str) -> LiveMatch:
    """The match as this server holds it in memory."""
    held = live.router.matches.get(match_id)
    assert held is not None
    return held


def stored(live: Live, match_id: str) -> dict[str, Any]:
    row = live.store.load(match_id)
    assert row is not None
    return row.doc


def in_memory(live: Live, match_id: str) -> dict[str, Any]:
    """The match in memory as the store would hold it (JSON, tokens and all)."""
    lm = held(live, match_id)
    doc = {**lm.match.to_doc(), "tokens": list(lm.holders)}
    copy: dict[str, Any] = json.loads(json.dumps(doc))
    return copy


def words_now(live: Live, match_id: str) -> list[Found]:
    """Every word on the board now, best first."""
    found = held(live, match_id).match.solve()
    assert found, "the board has no word"
    return found


def new_match(player: Person, **fields: Any) -> Message:
    frames = player.send(type="new_match", wordlist=LIST, **{"seed": 3, **fields})
    assert types(frames) == ["match"], frames
    return frames[0]


def two_humans(live: Live, seed: int = 3, **settings: Any) -> tuple[str, Person, Person]:
    """A match of two human seats, each with its own token; seat 0's and seat 1's players resume it."""
    words = live.router.games.wordlists.get(LIST)
    seats = [Seat("Zoe", "human"), Seat("Yann", "human")]
    hashes: list[str | None] = [token_hash(t).hex() for t in TOKENS]
    lm, _ = live.router.matches._start(words, seats, Settings(**{"start_gems": 10, **settings}), seed, hashes)
    zero, one = person(live), person(live)
    assert zero.resume_match(lm.match_id, TOKENS[0])["you"] == 0
    assert one.resume_match(lm.match_id, TOKENS[1])["you"] == 1
    return lm.match_id, zero, one


def play_word(player: Person, path: tuple[Pos, ...]) -> list[Message]:
    player.drag_path(path)
    frames = player.send(type="release")
    assert types(frames)[:4] == ["played", "board", "gems", "turn"], frames
    return frames


# -- a bot's turn ------------------------------------------------------------------------------


def test_a_bot_thinks_then_drags_its_word_tile_by_tile_and_everyone_watches(start: Start) -> None:
    live = start()
    me = person(live)
    snapshot = new_match(me, bots=[{"level": "easy"}])
    mid = snapshot["match_id"]
    watcher = person(live)
    watcher.resume_match(mid, snapshot["token"])
    assert (snapshot["turn"], [s["kind"] for s in snapshot["seats"]]) == (0, ["human", "bot"])

    [turn] = me.send(type="pass")
    assert (turn["type"], turn["turn"], turn["passed"]) == ("turn", 1, "pass")
    mine, theirs = len(me.frames), len(watcher.frames)

    # Thinking: not a thing happens until the think time is up.
    assert tick(live, THINK - STEP) == 0
    assert me.since(mine) == []
    bot = held(live, mid).bot
    assert bot is not None

    # Then the drag, one tile a step, and nothing between two steps.
    assert tick(live, STEP) == 1
    path = bot.path
    assert len(path) >= 3
    for length in range(1, len(path) + 1):
        if length > 1:
            assert tick(live, STEP / 2) == 0
            assert tick(live, STEP / 2) == 1
        [chain] = me.since(mine + length - 1)
        assert (chain["type"], chain["seat"]) == ("chain", 1)
        assert chain["chain"] == [[p.row, p.col] for p in path[:length]]
    assert chain["status"] == "word"

    # One step later it lets go: the word, the refill, its gems, and the turn back to me.
    assert tick(live, STEP) == 1
    done = me.since(mine + len(path))
    assert types(done) == ["played", "board", "gems", "turn"]
    played, board, gems, turn = done
    assert (played["seat"], played["word"], played["path"]) == (1, chain["word"], chain["chain"])
    assert played["version"] == board["version"] == turn["version"] == 2
    assert board["reason"] == "refill"
    assert gems["seat"] == 1
    assert (turn["turn"], turn["passed"], turn["phase"]) == (0, None, "between_rounds")  # round 1 is over
    assert stored(live, mid)["version"] == 2
    assert live.store.moves(mid)[-1] == {
        "version": 2,
        "seat": 1,
        "action": "play",
        "word": played["word"].lower(),
        "points": played["points"],
        "path": played["path"],
    }

    # Every message of the bot's turn reached every listener, in the same order, none with a seq.
    assert watcher.since(theirs) == me.since(mine)
    assert all("seq" not in frame for frame in me.since(mine))

    # After the pause between rounds, round 2 opens on my turn, and then nothing is scheduled.
    mark = len(me.frames)
    assert tick(live, Settings().round_pause) == 1
    board, turn = me.since(mark)
    assert (board["type"], board["reason"], board["version"]) == ("board", "round", 3)
    assert (turn["type"], turn["turn"], turn["round"], turn["phase"]) == ("turn", 0, 2, "playing")
    assert watcher.frames[-2:] == [board, turn]
    assert tick(live, 600) == 0
    assert me.since(mark + 2) == []


def test_a_player_named_as_a_bot_plays_against_bots_named_otherwise(start: Start) -> None:
    live = start()
    me = person(live)
    snapshot = new_match(me, name="ada", bots=[{"level": "easy"}] * 5)

    names = [seat["name"] for seat in snapshot["seats"]]
    assert names[0] == "ada"
    assert len({name.casefold() for name in names}) == 6, names


# -- seats: hints, turns, tokens -----------------------------------------------------------------


def test_a_hint_goes_to_the_seat_that_paid_and_the_others_see_only_its_gems(start: Start) -> None:
    live = start()
    mid, zero, one = two_humans(live)
    tab = person(live)  # seat 0 in a second tab
    tab.resume_match(mid, TOKENS[0])
    best = words_now(live, mid)[0]
    heard, seen = len(one.frames), len(tab.frames)

    hint, gems = zero.send(type="hint")

    assert (hint["type"], hint["word"], hint["points"]) == ("hint", best.word.upper(), best.score)
    assert hint["path"] == [[p.row, p.col] for p in best.path]
    assert gems == {"type": "gems", "seat": 0, "gems": 10 - 4, "version": gems["version"]}
    assert one.since(heard) == [gems]  # the gems change, never the hint
    assert tab.since(seen) == [hint, gems]  # the seat that paid sees it in every tab
    assert stored(live, mid)["seats"][0]["gems"] == 6


def test_a_hint_bought_is_shown_again_to_its_seat_after_a_reload_or_a_restart_until_the_board_changes(
    start: Start,
) -> None:
    live = start()
    mid, zero, _ = two_humans(live)
    hint, _ = zero.send(type="hint")
    shown = {key: hint[key] for key in ("word", "path", "points")}

    assert person(live).resume_match(mid, TOKENS[0])["hint"] == shown  # a reload
    assert "hint" not in person(live).resume_match(mid, TOKENS[1])  # the other seat never
    after_restart = start(live.store)
    assert person(after_restart).resume_match(mid, TOKENS[0])["hint"] == shown

    zero.send(type="shuffle")  # the board it was bought on is gone

    assert "hint" not in person(live).resume_match(mid, TOKENS[0])
    assert "hinted" not in stored(live, mid)


def test_a_seat_cannot_act_on_anothers_turn_and_a_token_always_opens_its_own_seat(start: Start) -> None:
    live = start()
    mid, zero, one = two_humans(live)
    word = words_now(live, mid)[-1]
    before, saved = in_memory(live, mid), stored(live, mid)
    heard = len(zero.frames)
    pos = word.path[0]

    for message in (
        {"type": "press", "row": pos.row, "col": pos.col},
        {"type": "release"},
        {"type": "pass"},
        {"type": "shuffle"},
        {"type": "hint"},
        {"type": "swap", "row": 0, "col": 0, "letter": "Z"},
        {"type": "extend"},
    ):
        frames = one.send(**message)
        assert errors(frames) == ["turn/not_your_turn"], message
        assert len(frames) == 1
    assert in_memory(live, mid) == before
    assert stored(live, mid) == saved
    assert zero.since(heard) == []  # nobody else heard of any of it

    # Seat 1's token, on a third connection, opens seat 1, and that connection plays as seat 1.
    other = person(live)
    assert other.resume_match(mid, TOKENS[1])["you"] == 1
    assert errors(other.send(type="pass")) == ["turn/not_your_turn"]
    assert zero.send(type="pass")[-1]["turn"] == 1
    [turn] = other.send(type="pass")
    assert (turn["turn"], turn["passed"]) == (0, "pass")
    assert one.frames[-1] == zero.frames[-1] == turn
    assert [(t["seat"], t["ended"]) for t in stored(live, mid)["history"]] == [(0, "passed"), (1, "passed")]


def test_a_seat_not_on_turn_is_told_so_whether_or_not_a_chain_is_being_dragged(start: Start) -> None:
    """Else the answer would tell a 2v2's other team when its opponents drag (their chain is theirs)."""
    live = start()
    mid, zero, one = two_humans(live)
    pos = words_now(live, mid)[-1].path[0]
    for dragging in (False, True):
        if dragging:
            zero.send(type="press", row=pos.row, col=pos.col)
        for message in ({"type": "enter", "row": 0, "col": 0}, {"type": "release"}, {"type": "cancel"}):
            assert errors(one.send(**message)) == ["turn/not_your_turn"], (dragging, message)


def test_seq_is_echoed_to_the_sender_alone_on_replies_and_on_refusals(start: Start) -> None:
    live = start()
    mid, zero, one = two_humans(live)
    path = words_now(live, mid)[-1].path
    heard = len(zero.frames)
    [not_yours] = one.send(type="pass", seq=6)
    assert (not_yours["code"], not_yours["seq"]) == ("turn/not_your_turn", 6)
    assert zero.since(heard) == []
    heard = len(one.frames)

    [chain] = zero.send(type="press", row=path[0].row, col=path[0].col, seq=7)
    assert (chain["type"], chain["seq"]) == ("chain", 7)
    far = next(
        Pos(r, c) for r in range(5) for c in range(5) if abs(r - path[0].row) > 1 or abs(c - path[0].col) > 1
    )
    [refused] = zero.send(type="enter", row=far.row, col=far.col, seq=8)
    assert (refused["code"], refused["seq"]) == ("move/not_adjacent", 8)
    [unparsed] = zero.send(type="swap", row=0, col=0, seq=9)  # no letter: refused by the parser
    assert (unparsed["type"], unparsed["seq"]) == ("error", 9)
    for pos in path[1:]:
        zero.send(type="enter", row=pos.row, col=pos.col, seq=11)
    released = zero.send(type="release", seq=12)
    assert types(released) == ["played", "board", "gems", "turn"]
    assert all(frame["seq"] == 12 for frame in released)

    # The other seat saw the same drag and the same word, never a seq, never the refusals.
    theirs = one.since(heard)
    assert all("seq" not in frame for frame in theirs)
    assert "error" not in types(theirs)
    assert theirs[0] == {k: v for k, v in chain.items() if k != "seq"}
    assert theirs[-4:] == [{k: v for k, v in f.items() if k != "seq"} for f in released]

    # And on seat 1's turn, seat 1's seq goes to seat 1 alone.
    heard = len(zero.frames)
    hint, gems = one.send(type="hint", seq=13)
    assert (hint["type"], hint["seq"], gems["type"], gems["seq"]) == ("hint", 13, "gems", 13)
    heard_gems = {"type": "gems", "seat": 1, "gems": gems["gems"], "version": gems["version"]}
    assert zero.since(heard) == [heard_gems]


def test_a_word_played_reaches_each_seat_as_one_websocket_message(start: Start) -> None:
    """What one release did (the word, the refill, the gems, the next turn) is one frame to each
    connection, read in order, not four; a drag step is one message, as ever."""
    live = start()
    mid, zero, one = two_humans(live)
    path = words_now(live, mid)[-1].path
    zero.drag_path(path)
    mine, theirs = len(zero.raw), len(one.raw)
    released = zero.send(type="release", seq=3)
    assert types(released) == ["played", "board", "gems", "turn"]
    [frame] = zero.raw[mine:]
    assert json.loads(frame) == released
    [frame] = one.raw[theirs:]
    assert json.loads(frame) == [{k: v for k, v in m.items() if k != "seq"} for m in released]
    # A pass is one frame too; a message alone is an object, not an array of one.
    mine = len(one.raw)
    assert types(one.send(type="pass")) == ["turn"]
    [frame] = one.raw[mine:]
    assert json.loads(frame)["type"] == "turn"


# -- turn timers ----------------------------------------------------------------------------


def test_a_timed_turn_passes_by_itself_at_its_deadline_and_is_saved(start: Start) -> None:
    live = start()
    t0 = live.clock.now
    mid, zero, one = two_humans(live, turn_seconds=TURN)
    assert zero.frames[0]["deadline"] == t0 + TURN
    heard = len(zero.frames), len(one.frames)

    assert tick(live, TURN - 1) == 0
    assert zero.since(heard[0]) == one.since(heard[1]) == []
    assert stored(live, mid)["version"] == 0

    assert tick(live, 1) == 1
    [turn] = zero.since(heard[0])
    assert one.since(heard[1]) == [turn]
    assert (turn["type"], turn["turn"], turn["passed"], turn["phase"]) == ("turn", 1, "timeout", "playing")
    assert (turn["deadline"], turn["remaining"], turn["version"]) == (t0 + 2 * TURN, TURN, 1)
    assert stored(live, mid)["version"] == 1
    assert stored(live, mid)["history"][-1]["ended"] == "timed_out"
    assert live.store.moves(mid) == [{"version": 1, "seat": None, "action": "timeout"}]
    assert stored(live, mid) == in_memory(live, mid)


def test_extend_moves_the_deadline_later_and_the_old_one_never_fires(start: Start) -> None:
    live = start()
    t0 = live.clock.now
    mid, zero, one = two_humans(live, turn_seconds=TURN)
    live.clock.advance(10)

    turn, gems = zero.send(type="extend")

    assert (turn["type"], turn["turn"], turn["passed"]) == ("turn", 0, None)
    assert (turn["deadline"], turn["remaining"]) == (t0 + TURN + 15, TURN + 15 - 10)
    assert gems == {"type": "gems", "seat": 0, "gems": 9, "version": turn["version"]}
    assert stored(live, mid)["deadline"] == t0 + TURN + 15
    heard = len(one.frames)

    assert tick(live, TURN - 10) == 0  # the old deadline
    assert tick(live, 15 - 1) == 0
    assert one.since(heard) == []
    assert tick(live, 1) == 1
    [timeout] = one.since(heard)
    assert (timeout["turn"], timeout["passed"], timeout["version"]) == (1, "timeout", 2)


def test_a_turn_ended_by_a_word_cancels_its_timer(start: Start) -> None:
    live = start()
    t0 = live.clock.now
    mid, zero, one = two_humans(live, turn_seconds=TURN)
    live.clock.advance(5)

    frames = play_word(zero, words_now(live, mid)[-1].path)

    assert frames[-1]["deadline"] == t0 + 5 + TURN
    heard = len(one.frames)
    assert tick(live, TURN - 5) == 0  # seat 0's old deadline: no second pass
    assert tick(live, 4) == 0
    assert one.since(heard) == []
    assert stored(live, mid)["version"] == 1
    assert tick(live, 1) == 1  # seat 1's own deadline does pass seat 1's turn
    [turn] = one.since(heard)
    assert (turn["turn"], turn["passed"], turn["version"]) == (0, "timeout", 2)
    assert [t["ended"] for t in stored(live, mid)["history"]] == ["played", "timed_out"]


def test_a_word_released_on_the_very_instant_of_the_deadline_wins_over_the_timer(start: Start) -> None:
    live = start()
    mid, zero, one = two_humans(live, turn_seconds=TURN)
    zero.drag_path(words_now(live, mid)[-1].path)
    live.clock.advance(TURN)  # the deadline is due, but the timer has not run yet

    frames = zero.send(type="release")
    assert types(frames) == ["played", "board", "gems", "turn"]
    assert (frames[-1]["turn"], frames[-1]["passed"]) == (1, None)
    heard = len(zero.frames), len(one.frames)

    live.router.timers.run_due()  # the timer runs now: too late

    assert zero.since(heard[0]) == one.since(heard[1]) == []
    assert stored(live, mid)["version"] == 1
    assert len(live.store.moves(mid)) == 1
    assert [t["ended"] for t in stored(live, mid)["history"]] == ["played"]


def test_a_timer_taken_as_due_just_before_a_release_changes_nothing_after_it(start: Start) -> None:
    """The timer loop took the deadline out as due, then the release got the match's lock first."""
    live = start()
    mid, zero, one = two_humans(live, turn_seconds=TURN)
    zero.drag_path(words_now(live, mid)[-1].path)
    live.clock.advance(TURN)
    timers = live.router.timers
    handler = live.router.matches.deadlines._due
    released: list[Message] = []

    def release_first(key: Any) -> None:
        timers.route("clock", handler)
        released.extend(zero.send(type="release"))
        handler(key)

    timers.route("clock", release_first)
    heard = len(one.frames)
    assert timers.run_due() == 1

    assert types(released) == ["played", "board", "gems", "turn"]
    assert one.since(heard) == [{k: v for k, v in f.items() if k != "seq"} for f in released]
    assert stored(live, mid)["version"] == 1
    assert [t["ended"] for t in stored(live, mid)["history"]] == ["played"]
    assert held(live, mid).match.turn == 1


# -- failed writes ------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["release", "pass", "shuffle"])
def test_a_move_the_store_cannot_save_changes_nothing_and_play_goes_on_once_it_can(
    start: Start, action: str
) -> None:
    store = FlakyStore()
    live = start(store)
    mid, zero, one = two_humans(live)
    path = words_now(live, mid)[-1].path
    zero.drag_path(path)  # mid-drag: a failed move must keep the chain too
    before, saved = in_memory(live, mid), stored(live, mid)
    assert before["chain"] == [[p.row, p.col] for p in path]
    heard = len(one.frames)

    store.failing = True
    failed = zero.send(type=action, seq=4)

    assert failed == [{**failed[0], "type": "error", "code": "server/storage", "request": action, "seq": 4}]
    assert in_memory(live, mid) == before
    assert stored(live, mid) == saved
    assert live.store.moves(mid) == []
    assert one.since(heard) == []

    store.failing = False
    frames = zero.send(type=action)

    assert "error" not in types(frames)
    assert stored(live, mid)["version"] == 1
    assert stored(live, mid) == in_memory(live, mid)
    assert one.since(heard) == frames
    if action == "release":
        assert types(frames) == ["played", "board", "gems", "turn"]
    elif action == "pass":
        assert types(frames) == ["chain", "turn"]
        assert frames[-1]["passed"] == "pass"
    else:
        assert types(frames) == ["chain", "board", "gems"]
        assert frames[-1]["gems"] == 9


def test_a_timeout_the_store_cannot_save_is_tried_again_once_it_can(start: Start) -> None:
    store = FlakyStore()
    live = start(store)
    mid, zero, one = two_humans(live, turn_seconds=TURN)
    heard = len(one.frames)

    store.failing = True
    tick(live, TURN)
    assert stored(live, mid)["version"] == 0
    assert held(live, mid).match.turn == 0
    assert one.since(heard) == []

    store.failing = False
    tick(live, 1)

    assert types(one.since(heard)) == ["turn"]
    assert one.frames[-1]["passed"] == "timeout"
    assert stored(live, mid)["version"] == 1


def test_a_bots_deadline_run_before_its_thinking_is_done_waits_until_it_is(start: Start) -> None:
    """A process that takes a bot's turn over from another (whose claim ran out) may run its
    deadline before the plan's time: the bot still thinks until then, and chooses on time."""
    live = start()
    me = person(live)
    mid = new_match(me, bots=[{"level": "easy"}])["match_id"]
    me.send(type="pass")
    mark = len(me.frames)
    live.router.timers.set((mid, "bot"), live.clock())  # due now, though the bot thinks THINK s
    assert live.router.timers.run_due() == 1
    assert me.since(mark) == []
    assert held(live, mid).bot.path == ()  # type: ignore[union-attr]  # (it has not chosen)
    assert tick(live, THINK - STEP) == 0
    assert tick(live, STEP) == 1
    assert types(me.since(mark)) == ["chain"]


def test_a_bot_stopped_as_it_chose_its_word_shows_no_drag_until_its_process_caught_up(
    start: Start, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGSTOP lands while the bot chooses its word (the solver, the longest stretch of its step).
    Another process may have played the turn meanwhile, and the drag would be told from a stale
    copy: it waits for the catch-up, then goes on."""
    live = start()
    me = person(live)
    new_match(me, bots=[{"level": "easy"}])
    me.send(type="pass")
    timers = live.router.timers
    timers.monotonic = monotonic = FakeClock()
    timers.on_late = lambda: me.frames.append({"type": "caught up"})  # (alone: nothing to catch up with)

    def stopped_meanwhile(*args: Any, **kwargs: Any) -> Any:
        monotonic.advance(LATE_SECONDS + 1)
        return choose(*args, **kwargs)

    monkeypatch.setattr(bots, "choose", stopped_meanwhile)
    mark = len(me.frames)
    assert tick(live, THINK) == 2  # the step that found it was stopped, and the step after
    assert types(me.since(mark)) == ["caught up", "chain"]


def test_a_bots_word_the_store_cannot_save_is_played_once_it_can(start: Start) -> None:
    store = FlakyStore()
    live = start(store, QUICK)
    me = person(live)
    snapshot = new_match(me, bots=[{"level": "easy"}])
    mid = snapshot["match_id"]
    me.send(type="pass")

    store.failing = True
    live.router.timers.run_due()
    assert stored(live, mid)["version"] == 1
    assert held(live, mid).match.turn == 1

    store.failing = False
    for _ in range(4):
        tick(live, 1)
    person(live).resume_match(mid, snapshot["token"])  # someone opening it schedules its bot again
    for _ in range(4):
        tick(live, 1)

    assert held(live, mid).match.turn == 0
    history = stored(live, mid)["history"]
    assert [(turn["seat"], turn["ended"]) for turn in history] == [(0, "passed"), (1, "played")]
    assert "played" in types(me.frames)


# -- restarts and resuming ------------------------------------------------------------------------


def test_after_a_restart_a_bots_turn_goes_on_where_it_was(start: Start) -> None:
    live = start()
    me = person(live)
    snapshot = new_match(me, bots=[{"level": "medium"}])
    mid, token = snapshot["match_id"], snapshot["token"]
    me.send(type="pass")
    live.clock.advance(THINK / 2)  # the bot is thinking when the server stops
    board = held(live, mid).match.tiles()

    again = start(live.store)  # a new process on the same store
    me = person(again)
    back = me.resume_match(mid, token)

    assert (back["turn"], back["turn_no"], back["version"], back["board"]) == (1, 2, 1, board)
    assert back["seats"][1]["connected"] is True  # a bot is always there
    assert stored(again, mid)["bot"] == {"turn_no": 2, "at": live.clock.now + THINK / 2}
    mark = len(me.frames)
    assert tick(again, THINK / 2 - 0.01) == 0  # it is done thinking when its document says...
    assert me.since(mark) == []
    assert tick(again, 0.01) == 1  # ...not a whole new think later
    assert types(me.since(mark)) == ["chain"]
    for _ in range(40):
        tick(again, STEP)
        if "turn" in types(me.since(mark)):
            break
    done = me.since(mark)
    assert types(done)[-4:] == ["played", "board", "gems", "turn"]
    assert set(types(done)[:-4]) == {"chain"}
    assert done[-1]["turn"] == 0
    assert stored(again, mid)["version"] == 2


def test_after_a_restart_a_timed_turn_keeps_its_deadline(start: Start) -> None:
    live = start()
    t0 = live.clock.now
    mid, zero, one = two_humans(live, turn_seconds=TURN)
    live.clock.advance(10)

    again = start(live.store)
    zero = person(again)
    back = zero.resume_match(mid, TOKENS[0])

    assert (back["deadline"], back["remaining"], back["turn"]) == (t0 + TURN, TURN - 10, 0)
    mark = len(zero.frames)
    assert tick(again, TURN - 10 - 1) == 0
    assert tick(again, 1) == 1
    [turn] = zero.since(mark)
    assert (turn["turn"], turn["passed"], turn["version"]) == (1, "timeout", 1)
    assert stored(again, mid)["version"] == 1


def test_a_drag_saved_by_a_power_used_mid_drag_is_in_no_record_and_no_restart(start: Start) -> None:
    """A drag is ephemeral. A power used in the middle of one (Extend here) saves the match with
    its chain: before, the public record showed it (a 2v2 team's drag, to the other team), and
    after a restart the chain came back owned by no tab, and the seat's press was refused."""
    live = start()
    mid, zero, one = two_humans(live, turn_seconds=TURN)
    path = words_now(live, mid)[0].path
    zero.drag_path(path[:2])
    assert types(zero.send(type="extend"))[0] == "turn"
    assert stored(live, mid)["chain"]  # (saved with the commit, to be put back if it failed)
    record = match_record(live.store, mid)
    assert record is not None
    assert "chain" not in record["final"]

    again = start(live.store)  # a restart: the match is only in the store
    zero = person(again)
    assert zero.resume_match(mid, TOKENS[0])["chain"] == []
    play_word(zero, path)


def test_resuming_a_match_needs_its_id_and_one_of_its_seats_tokens(start: Start) -> None:
    live = start()
    snapshot = new_match(person(live), bots=[{"level": "easy"}])
    mid, token = snapshot["match_id"], snapshot["token"]
    again = start(live.store)

    for server in (live, again):
        someone = person(server)
        assert errors(someone.send(type="resume", match_id=mid, token="not-the-token")) == ["game/bad_token"]
        assert errors(someone.send(type="resume", match_id="no-such-match", token=token)) == [
            "game/not_found"
        ]
        assert errors(someone.send(type="resume", game_id=mid, token=token)) == ["game/not_found"]
        assert someone.session.match is None
        assert someone.session.game is None
        assert someone.resume_match(mid, token)["you"] == 0

    # Nor is a game's id a match's.
    game = person(live).send(type="new_game", wordlist=LIST, seed=1)[0]
    assert errors(person(live).send(type="resume", match_id=game["game_id"], token=game["token"])) == [
        "game/not_found"
    ]


def test_two_servers_on_one_store_cannot_fork_a_match(start: Start) -> None:
    """As two processes sharing a database: the second to commit is told, and shown the match as stored."""
    here = start()
    mid, zero, one = two_humans(here)
    there = start(here.store)
    other = person(there)  # seat 0 again, on the other server
    other.resume_match(mid, TOKENS[0])

    assert types(zero.send(type="pass")) == ["turn"]
    frames = other.send(type="pass")

    assert types(frames) == ["match", "error"]
    assert errors(frames) == ["game/conflict"]
    assert (frames[0]["turn"], frames[0]["version"]) == (1, 1)
    assert stored(here, mid)["version"] == 1
    assert in_memory(there, mid) == in_memory(here, mid) == stored(here, mid)
    assert len(here.store.moves(mid)) == 1
    assert errors(other.send(type="pass")) == ["turn/not_your_turn"]


def test_resuming_a_match_counts_as_opening_it_for_retention(start: Start) -> None:
    live = start()
    snapshot = new_match(person(live), bots=[{"level": "easy"}])
    live.clock.advance(86_400)

    person(live).resume_match(snapshot["match_id"], snapshot["token"])

    # Purging what nobody opened for an hour must not delete a match opened a moment ago.
    assert live.store.purge(live.clock.now - 3600, 10) == 0


# -- presence -----------------------------------------------------------------------------------


def test_a_seat_is_gone_only_when_its_last_connection_leaves(start: Start) -> None:
    live = start()
    mid, zero, one = two_humans(live)
    assert one.frames[-1:] != [{"type": "presence", "seat": 0, "connected": True}]
    heard = len(one.frames)

    tab = person(live)
    tab.resume_match(mid, TOKENS[0])
    assert one.since(heard) == []  # seat 0 was there already

    tab.leave()
    assert one.since(heard) == []  # and still is

    zero.leave()
    assert one.since(heard) == [{"type": "presence", "seat": 0, "connected": False}]
    assert person(live).resume_match(mid, TOKENS[1])["seats"][0]["connected"] is False

    back = person(live)
    back.resume_match(mid, TOKENS[0])
    assert one.frames[-1] == {"type": "presence", "seat": 0, "connected": True}


def test_a_connection_that_moves_to_another_seat_leaves_its_old_one(start: Start) -> None:
    live = start()
    mid, zero, one = two_humans(live)
    heard = len(one.frames)

    assert zero.resume_match(mid, TOKENS[1])["you"] == 1  # the same tab, now seat 1's token

    assert person(live).resume_match(mid, TOKENS[1])["seats"][0]["connected"] is False
    assert one.since(heard) == [{"type": "presence", "seat": 0, "connected": False}]


# -- the end and a rematch -------------------------------------------------------------------------


def test_the_end_ranks_the_seats_and_sets_each_turn_beside_its_best(start: Start) -> None:
    live = start(pace=QUICK)
    me = person(live)
    mid = new_match(me, bots=[{"level": "easy"}, {"level": "hard"}], rounds=1)["match_id"]
    watcher = person(live)
    watcher.resume_match(mid, me.frames[0]["token"])
    low = words_now(live, mid)[-1]

    play_word(me, low.path)
    live.router.timers.run_due()  # both bots play their whole turns

    [over] = [frame for frame in me.frames if frame["type"] == "match_over"]
    assert me.frames[-1] == over
    assert [f for f in watcher.frames if f["type"] == "match_over"] == [over]
    doc = stored(live, mid)
    assert doc["phase"] == "over"
    assert over["version"] == doc["version"]
    scores = [seat["score"] for seat in doc["seats"]]
    assert [r["score"] for r in over["ranking"]] == sorted(scores, reverse=True)
    assert sorted(r["seat"] for r in over["ranking"]) == [0, 1, 2]
    for entry in over["ranking"]:
        assert entry["score"] == scores[entry["seat"]]
        assert entry["rank"] == 1 + sum(s > entry["score"] for s in scores)
    turns = over["turns"]
    assert [t["seat"] for t in turns] == [0, 1, 2]
    assert turns[0]["played"]["word"] == low.word.upper()
    for turn in turns:
        assert turn["ended"] == "played"
        assert turn["best"]["points"] >= turn["played"]["points"]
    assert turns[0]["best"]["points"] > turns[0]["played"]["points"]  # mine was the board's worst
    assert over["best_words"] == [{"seat": t["seat"], "word": t["played"]} for t in turns]
    assert errors(me.send(type="pass")) == ["match/over"]
    late = person(live).resume_match(mid, me.frames[0]["token"])
    assert late["phase"] == "over"
    assert {k: late["summary"][k] for k in ("ranking", "best_words", "turns")} == {
        k: over[k] for k in ("ranking", "best_words", "turns")
    }


def test_a_rematch_is_refused_while_the_match_is_on_then_starts_a_new_one_for_the_same_seats(
    start: Start,
) -> None:
    live = start()
    mid, zero, one = two_humans(live, rounds=1)
    assert errors(zero.send(type="rematch")) == ["match/not_over"]
    assert live.router.matches.__len__() == 1

    play_word(zero, words_now(live, mid)[-1].path)
    ended = play_word(one, words_now(live, mid)[-1].path)
    assert types(ended)[-1] == "match_over"
    heard = len(one.frames)

    [snapshot] = zero.send(type="rematch")

    new = snapshot["match_id"]
    assert snapshot["type"] == "match"
    assert new != mid
    assert (snapshot["you"], snapshot["token"], snapshot["phase"], snapshot["version"]) == (
        0,
        TOKENS[0],
        "playing",
        0,
    )
    assert [(s["name"], s["kind"], s["score"]) for s in snapshot["seats"]] == [
        ("Zoe", "human", 0),
        ("Yann", "human", 0),
    ]
    assert snapshot["settings"]["rounds"] == 1
    # The other seat hears where to follow (and that seat 0 left the old match).
    assert one.since(heard) == [
        {"type": "rematch", "match_id": new},
        {"type": "presence", "seat": 0, "connected": False},
    ]
    assert one.resume_match(new, TOKENS[1])["you"] == 1
    assert person(live).resume_match(new, TOKENS[0])["you"] == 0
    assert stored(live, new)["tokens"] == stored(live, mid)["tokens"]
    assert stored(live, mid)["phase"] == "over"
    # The new match is played as any other.
    assert types(zero.send(type="pass")) == ["turn"]


def test_a_rematch_asked_again_after_a_restart_is_the_same_match(start: Start) -> None:
    live = start()
    mid, zero, one = two_humans(live, rounds=1)
    play_word(zero, words_now(live, mid)[-1].path)
    play_word(one, words_now(live, mid)[-1].path)
    [first] = zero.send(type="rematch")

    again = start(live.store)  # a restart: neither match is in memory
    one = person(again)
    one.resume_match(mid, TOKENS[1])
    [second] = one.send(type="rematch")
    assert second["match_id"] == first["match_id"]
    assert second["you"] == 1


# -- what a second read of the code found -------------------------------------------------------------


def test_a_refused_resume_or_new_match_leaves_the_connection_on_its_match(start: Start) -> None:
    live = start(pace=QUICK)
    me = person(live)
    snapshot = new_match(me, bots=[{"level": "easy"}])
    for message in (
        {"type": "resume", "game_id": "no-such-game", "token": "x"},
        {"type": "resume", "match_id": "no-such-match", "token": "x"},
        {"type": "new_match", "wordlist": "no-such-list"},
        {"type": "new_game", "wordlist": "no-such-list"},
    ):
        assert types(me.send(**message)) == ["error"]
    me.send(type="pass")
    tick(live, 1)
    assert "played" in types(me.frames)  # still on the match: it hears the bot play
    assert me.session.match == snapshot["match_id"]


def test_a_wrong_token_starts_nothing_in_a_stored_match(start: Start) -> None:
    store = MemoryStore()
    first = start(store)
    snapshot = new_match(person(first), turn_seconds=TURN)
    mid = snapshot["match_id"]
    again = start(store)  # a restart: the match is only in the store
    [error] = person(again).send(type="resume", match_id=mid, token="wrong")
    assert error["code"] == "game/bad_token"
    tick(again, TURN * 3)
    assert stored(again, mid)["version"] == 0  # its clock did not start: nothing timed out
    assert len(again.router.matches) == 0


def test_a_turn_past_its_deadline_can_be_neither_extended_nor_played(start: Start) -> None:
    live = start()
    mid, zero, one = two_humans(live, turn_seconds=TURN)
    live.clock.advance(TURN + 10)  # the timer has not run yet (no tick)
    frames = zero.send(type="extend")
    assert [f["type"] for f in frames][-1] == "error"
    assert frames[-1]["code"] == "turn/not_your_turn"
    assert stored(live, mid)["history"][0]["ended"] == "timed_out"
    assert held(live, mid).match.turn == 1


def test_a_bot_on_a_short_timed_turn_plays_before_its_time_runs_out(start: Start) -> None:
    live = start(pace=BotPace(think=(20.0, 20.0), step=2.0))  # far too slow for a 5 s turn
    me = person(live)
    new_match(me, bots=[{"level": "hard"}, {"level": "hard"}], turn_seconds=5, rounds=3)
    me.send(type="pass")
    for _ in range(200):
        tick(live, 0.25)
    turns = [f for f in me.frames if f["type"] == "turn"]
    bot_timeouts = [f for f in turns if f["passed"] == "timeout" and f["turn"] in (0, 2)]
    assert [f for f in me.frames if f["type"] == "played"]
    assert bot_timeouts == []  # every bot turn ended with a word, none by its clock


def test_matches_in_memory_are_capped_and_an_unattended_one_makes_room(start: Start) -> None:
    live = start()
    live.router.matches.docs.capacity = 2
    left = person(live)
    first = new_match(left)
    left.leave()
    second, third = person(live), person(live)
    new_match(second)
    new_match(third)  # the unattended first match leaves memory to make room
    assert len(live.router.matches) == 2
    # Both in memory have someone on them: no room, until one is left.
    [error] = person(live).send(type="resume", match_id=first["match_id"], token=first["token"])
    assert error["code"] == "server/full"
    third.leave()
    assert person(live).resume_match(first["match_id"], first["token"])["you"] == 0  # back from the store


def test_a_bot_given_speed_two_plays_twice_a_round(start: Start) -> None:
    live = start(pace=QUICK)
    me = person(live)
    snapshot = new_match(me, bots=[{"level": "easy", "speed": 2}], rounds=2)
    assert [seat["speed"] for seat in snapshot["seats"]] == [1, 2]
    for _ in range(2):
        me.send(type="pass")
        for _ in range(10):
            tick(live, 1)
    history = stored(live, snapshot["match_id"])["history"]
    assert [(turn["round"], turn["seat"]) for turn in history] == [
        (1, 0),
        (1, 1),
        (1, 1),
        (2, 0),
        (2, 1),
        (2, 1),
    ]
    [error] = me.send(type="new_match", bots=[{"level": "easy", "speed": 5}])
    assert error["code"] == "protocol/bad_field"


def test_a_match_nobody_is_connected_to_stands_still_and_resumes_by_the_rules(start: Start) -> None:
    live = start()
    me = person(live)
    bots = [{"level": "hard", "speed": 4}] * 5
    snapshot = new_match(me, bots=bots, rounds=20, turn_seconds=5)
    mid, token = snapshot["match_id"], snapshot["token"]
    me.leave()  # the socket closes at once, as in the audit's 859 abandoned matches

    assert live.router.matches.get(mid) is None  # out of memory: no timer, no bot, no cost
    assert len(live.router.timers) == 0
    assert tick(live, 600) == 0
    assert stored(live, mid)["version"] == 0  # nothing was played while nobody was there

    back = person(live)
    [again] = back.send(type="resume", match_id=mid, token=token)
    assert again["turn"] == 0  # as it was left: my turn, whose time ran out while I was away
    tick(live, 0)
    assert live.store.moves(mid)[0] == {"version": 1, "seat": None, "action": "timeout"}
    tick(live, 5)
    assert stored(live, mid)["version"] > 1  # and the bots play on while someone is there


def test_in_a_match_only_the_tab_that_pressed_drags_the_chain_as_in_a_game(start: Start) -> None:
    live = start()
    mid, zero, one = two_humans(live)
    again = person(live)
    again.resume_match(mid, TOKENS[0])  # seat 0 in a second tab
    word = words_now(live, mid)[-1]
    first, *rest = word.path
    assert types(zero.send(type="press", row=first.row, col=first.col)) == ["chain"]

    for message in ({"type": "enter", "row": rest[0].row, "col": rest[0].col}, {"type": "release"}):
        assert errors(again.send(**message)) == ["state/not_your_chain"]
    assert errors(again.send(type="cancel")) == ["state/not_your_chain"]
    assert stored(live, mid)["version"] == 0  # the other tab released nothing

    zero.leave()  # the tab that pressed goes: its chain goes with it, for everyone
    assert again.frames[-1]["type"] == "chain"
    assert again.frames[-1]["chain"] == []
    play_word(again, word.path)  # and the seat's other tab plays its turn
    assert stored(live, mid)["version"] == 1


def test_two_tabs_asking_for_a_rematch_at_once_get_one_rematch(start: Start) -> None:
    live = start()
    mid, zero, one = two_humans(live, rounds=1)
    twin = person(live)
    twin.resume_match(mid, TOKENS[0])
    play_word(zero, words_now(live, mid)[-1].path)
    play_word(one, words_now(live, mid)[-1].path)
    before = live.store.count()

    [first] = zero.send(type="rematch")
    [second] = twin.send(type="rematch")

    assert first["match_id"] == second["match_id"]
    assert live.store.count() == before + 1
    assert (first["you"], second["you"]) == (0, 0)


# -- the record played again -------------------------------------------------------------------


def test_a_match_played_out_by_bots_of_every_level_replays_from_its_record_to_the_same_end(
    start: Start, wordlists: WordLists
) -> None:
    """The bots choose with draws of their own, a hard one may shuffle, a speed-2 bot plays twice
    a round, and the person lets one turn time out: the record, played again, ends the same."""
    live = start(pace=QUICK)
    me = person(live)
    bots = [{"level": "easy"}, {"level": "medium", "speed": 2}, {"level": "hard"}]
    mid = new_match(me, bots=bots, rounds=3, turn_seconds=TURN)["match_id"]
    turns_of_mine = 0
    while held(live, mid).match.phase.value != "over":
        match = held(live, mid).match
        if match.phase.value == "playing" and match.turn == 0:
            turns_of_mine += 1
            if turns_of_mine == 2:
                tick(live, TURN + 1)  # this one runs out of time
                continue
            play_word(me, words_now(live, mid)[0].path)
        tick(live, 1)
    record = match_record(live.store, mid)
    assert record is not None
    actions = {move["action"] for move in record["moves"]}
    assert {"play", "timeout", "round"} <= actions

    replayed = match_replay(json.loads(json.dumps(record)), wordlists)

    [over] = [frame for frame in me.frames if frame["type"] == "match_over"]
    assert replayed["final"]["ranking"] == over["ranking"]
    assert [(s["seat"], s["ended"]) for s in replayed["steps"] if "ended" in s] == [
        (t["seat"], t["ended"]) for t in over["turns"]
    ]
    assert replayed["final"]["board"] == held(live, mid).match.tiles()
