"""The daily board in play: the same board for everyone on a day, one scored attempt each, and a
leaderboard that only the server's judgement of a finished sprint can change."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import pytest

from tests.live.players import FakeClock, Live, LiveFactory, Player, errors, tick
from wibble.core import RuleError
from wibble.core.daily import (
    DAILY_SECONDS,
    KEY_DOC_ID,
    REVEAL_MARGIN,
    Leaderboard,
    day_number,
    doc_id,
    seed_of,
)
from wibble.core.pace import MOST_TILES, WINDOW
from wibble.engines.store import Store
from wibble.engines.store.base import Doc
from wibble.live.budgets import Limits
from wibble.live.daily import KEY_CHECK_SECONDS
from wibble.live.records import record_of
from wibble.live.router import PICK_UP_SLACK

NOON = 1_795_176_000.0  # 2026-11-20 12:00 UTC
DAY = date(2026, 11, 20)
ANN = "ann-" + "a" * 28
BO = "bo-" + "b" * 29
ONE_DAY = timedelta(days=1)


@pytest.fixture
def daily(make_live: LiveFactory, clock: FakeClock) -> Live:
    clock.now = NOON
    # Boards hold the server's floor of words, as `wibble serve`'s do: the day's board is drawn with
    # a new random key every run, and without a floor a try that plays on (the pace test: 180 tiles)
    # could meet a board with no word left now and then.
    return make_live(min_words=30)


def start(player: Player, who: str = ANN, name: str = "Ann") -> dict[str, object]:
    frames = player.send(type="new_daily", player=who, name=name)
    assert [f["type"] for f in frames] == ["game"], frames
    return frames[0]


def tiles(player: Player) -> int:
    """The tiles of the words ``player`` scored (all within 10 s here: their pace, as judged)."""
    return sum(len(word) for word, _ in player.game.found.in_order)


def leaderboard(player: Player, who: str | None = ANN) -> dict[str, object]:
    message = {"type": "leaderboard"} if who is None else {"type": "leaderboard", "player": who}
    [frame] = player.send(**message)
    assert frame["type"] == "leaderboard", frame
    return frame


def first_place(ann: Player, total: int) -> dict[str, object]:
    """Ann's own standing when her one-word try ranks first, as the leaderboard tells her."""
    return {"rank": 1, "name": "Ann", "score": total, "words": 1, "ranked": True, "pace": tiles(ann)}


def test_two_players_on_different_connections_get_the_same_board_and_the_same_refills(daily: Live) -> None:
    ann, bo = daily.player("192.0.2.1"), daily.player("198.51.100.7")
    first, second = start(ann), start(bo, BO, "Bo")
    assert first["board"] == second["board"]
    # The seed would tell every refill to come: a board played for places keeps it until its end.
    assert "seed" not in first
    assert "seed" not in second
    assert first["daily"] == {"day": day_number(DAY), "date": "2026-11-20", "scored": True}
    assert (first["sprint"], first["remaining"]) == (DAILY_SECONDS, float(DAILY_SECONDS))
    path = ann.a_word()
    for player in (ann, bo):
        player.drag(path)
        player.send(type="release")
    assert ann.frames[-1]["type"] == bo.frames[-1]["type"] == "word"
    assert ann.frames[-1]["changed"] == bo.frames[-1]["changed"]  # the same new letters, in the same order


def test_another_day_has_another_board(daily: Live, make_live: LiveFactory) -> None:
    today = start(daily.player())
    daily.clock.advance(24 * 3600)
    tomorrow = start(daily.player(), BO, "Bo")
    assert tomorrow["daily"]["day"] == today["daily"]["day"] + 1  # type: ignore[index]
    assert tomorrow["board"] != today["board"]


def test_the_server_scores_the_sprint_when_it_ends_and_shows_the_leaderboard(daily: Live) -> None:
    ann = daily.player()
    start(ann)
    ann.drag(ann.a_word())
    ann.send(type="release")
    total = ann.game.total
    assert total > 0
    assert leaderboard(ann)["you"] is None  # not scored until the server ends the sprint

    tick(daily, DAILY_SECONDS + 1)

    types = [f["type"] for f in ann.frames]
    assert types[-2:] == ["over", "leaderboard"]
    board = ann.frames[-1]
    assert board["top"] == [{"rank": 1, "name": "Ann", "score": total, "words": 1}]
    assert board["you"] == first_place(ann, total)
    row = daily.store.load(doc_id(DAY))
    assert row is not None
    assert row.kind == "daily"
    assert ANN not in str(row.doc)  # the player's id is kept hashed, never as sent
    assert "192.0.2.1" not in str(row.doc)


def test_a_second_attempt_the_same_day_is_a_replay_that_scores_nothing(daily: Live) -> None:
    ann = daily.player()
    start(ann)
    tick(daily, DAILY_SECONDS + 1)
    assert leaderboard(ann)["you"]["score"] == 0  # type: ignore[index]

    again = start(daily.player("203.0.113.9"), ANN, "Ann again")  # another connection, another address
    assert again["daily"]["scored"] is False  # type: ignore[index]
    replayer = daily.players[-1]
    replayer.drag(replayer.a_word())
    replayer.send(type="release")
    tick(daily, DAILY_SECONDS + 1)
    final = leaderboard(replayer)
    assert final["top"] == [{"rank": 1, "name": "Ann", "score": 0, "words": 0}]
    assert final["players"] == 1


def test_a_bad_name_is_refused_and_changes_nothing(daily: Live) -> None:
    player = daily.player()
    for name in ("", " ", "x" * 21, "a\u200bb"):
        frames = player.send(type="new_daily", player=ANN, name=name)
        assert errors(frames) == ["protocol/bad_field"]
    assert errors(player.send(type="new_daily", player="short", name="Ann")) == ["protocol/bad_field"]
    assert daily.store.load(doc_id(DAY)) is None
    assert leaderboard(player)["played"] is False


def test_one_address_may_start_only_so_many_scored_attempts_a_day(
    make_live: LiveFactory, clock: FakeClock
) -> None:
    clock.now = NOON
    live = make_live(daily_per_address=2)
    for n in range(2):
        start(live.player(), f"player-{n:02d}-" + "x" * 20, f"P{n}")
    frames = live.player().send(type="new_daily", player="player-99-" + "x" * 20, name="P9")
    assert errors(frames) == ["limit/daily"]
    assert leaderboard(live.player(), None)["played"] is False
    assert len(live.router.games) == 2  # the refused attempt left no game behind
    # Another address is not held back by this one.
    start(live.player("198.51.100.1"), "player-98-" + "x" * 20, "P8")


def test_a_refused_scored_attempt_costs_the_address_none_of_its_games(
    make_live: LiveFactory, clock: FakeClock
) -> None:
    clock.now = NOON
    live = make_live(daily_per_address=1, limits=Limits(games_per_minute=3))
    start(live.player())
    again = live.player()
    for n in range(5):  # a page asking again and again for a scored try its address has had
        frames = again.send(type="new_daily", player=f"player-{n:02d}-" + "y" * 20, name="Yo")
        assert errors(frames) == ["limit/daily"]
    # The address's other two games this minute are still there, for an endless game, say.
    assert [errors(again.send(type="new_game", wordlist="en")) for _ in range(3)] == [[], [], ["limit/games"]]


def test_ties_share_a_rank_and_the_top_is_best_first(daily: Live) -> None:
    ann, bo, cy = daily.player("192.0.2.1"), daily.player("192.0.2.2"), daily.player("192.0.2.3")
    start(ann)
    start(bo, BO, "Bo")
    start(cy, "cy-" + "c" * 29, "Cy")
    cy.drag(cy.a_word())
    cy.send(type="release")
    tick(daily, DAILY_SECONDS + 1)
    board = leaderboard(bo, BO)
    assert [(s["rank"], s["name"]) for s in board["top"]] == [(1, "Cy"), (2, "Ann"), (2, "Bo")]  # type: ignore[index]
    assert board["you"]["rank"] == 2  # type: ignore[index]


def test_yesterdays_board_comes_with_its_best_words(daily: Live) -> None:
    ann = daily.player()
    board = leaderboard(ann)
    yesterday = board["yesterday"]
    assert yesterday["date"] == "2026-11-19"  # type: ignore[index]
    daily.clock.advance(-24 * 3600)
    assert start(daily.player(), BO, "Bo")["board"] == yesterday["board"]  # type: ignore[index]
    best = yesterday["best"]  # type: ignore[index]
    assert best
    assert best == sorted(best, key=lambda w: -w["points"])


def test_the_days_board_is_drawn_with_the_hosts_key_which_every_restart_keeps(
    make_live: LiveFactory, clock: FakeClock
) -> None:
    clock.now = NOON
    first = make_live()
    board = start(first.player())["board"]
    # The board the code alone would tell (the public key's) is not today's...
    assert first.player().new_game(seed=seed_of(DAY))["board"] != board
    # ...and the same host draws the same board after a restart, on any process.
    again = make_live(store=first.store)
    assert start(again.player(), BO, "Bo")["board"] == board
    # The key is nobody's game: it answers as none.
    assert errors(first.player().resume(KEY_DOC_ID, "t" * 32)) == ["game/not_found"]


class KeyMadeElsewhereFirst:
    """A store on which another process makes the daily key between this one's look and its create."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def create(self, doc_id: str, kind: str, doc: Doc, now: float, due: float | None = None) -> None:
        if doc_id == KEY_DOC_ID and self.store.load(KEY_DOC_ID) is None:
            self.store.create(doc_id, kind, {**doc, "secret": "ab" * 32}, now)
        self.store.create(doc_id, kind, doc, now, due)


def test_a_process_whose_key_another_made_first_draws_with_the_others_key(
    make_live: LiveFactory, clock: FakeClock, new_store: Callable[[], Store]
) -> None:
    clock.now = NOON
    store = new_store()
    lost = start(make_live(store=KeyMadeElsewhereFirst(store)).player())["board"]  # type: ignore[arg-type]
    elsewhere = start(make_live(store=store).player(), BO, "Bo")["board"]
    assert lost == elsewhere
    assert store.load(KEY_DOC_ID).doc["secret"] == "ab" * 32  # type: ignore[union-attr]


def test_the_key_is_kept_while_daily_boards_are_drawn_and_written_back_if_the_store_loses_it(
    make_live: LiveFactory, clock: FakeClock
) -> None:
    clock.now = NOON
    first = make_live()
    store = first.store
    start(first.player())
    for n in range(3):  # a host restarting its processes every night: each restart reads the key
        clock.advance(24 * 3600)
        start(make_live(store=store).player(), f"p{n}-" + "x" * 29, "Cy")
    # Untouched for days by the process that made it, the key is no older than the last draw, so
    # the retention of untouched documents keeps it.
    store.purge(clock.now - 60, 1000)
    assert store.load(KEY_DOC_ID) is not None

    held = make_live(store=store)
    board = start(held.player())["board"]
    store.delete(KEY_DOC_ID)  # lost: a Redis flushed, or failed over before a replica had it
    clock.advance(KEY_CHECK_SECONDS)
    assert start(held.player(), BO, "Bo")["board"] == board  # the process that kept it writes it back
    assert start(make_live(store=store).player(), "cy-" + "c" * 29, "Cy")["board"] == board

    # Lost again, and this time a process started meanwhile, holding none, makes a new key first.
    yesterday_board = leaderboard(held.player())["yesterday"]
    store.delete(KEY_DOC_ID)
    newcomer = make_live(store=store)
    start(newcomer.player(), "di-" + "d" * 29, "Di")
    assert leaderboard(newcomer.player())["yesterday"] != yesterday_board  # (drawn with the new key)
    clock.advance(KEY_CHECK_SECONDS)
    # Nobody draws a board on the process that held the first key; its housekeeping writes the
    # key back over the new one all the same, and the newcomer, at its next look, draws with it:
    # one board for the day everywhere, the one that was played, and yesterday's as it was.
    held.router.dailies.keep_key()
    newcomer.router.dailies.keep_key()
    assert start(newcomer.player(), "fy-" + "f" * 29, "Fy")["board"] == board
    assert leaderboard(newcomer.player())["yesterday"] == yesterday_board


def test_a_damaged_key_refuses_the_daily_and_tells_the_host_what_to_do(
    make_live: LiveFactory, clock: FakeClock, new_store: Callable[[], Store], caplog: pytest.LogCaptureFixture
) -> None:
    clock.now = NOON
    store = new_store()
    store.create(KEY_DOC_ID, "daily", {"version": 1, "secret": "not hex"}, NOON)
    live = make_live(store=store)
    for _ in range(3):
        assert errors(live.player().send(type="new_daily", player=ANN, name="Ann")) == ["game/unavailable"]
    told = [r for r in caplog.records if r.levelname == "ERROR" and KEY_DOC_ID in r.getMessage()]
    assert len(told) == 1  # once, not at every try


def test_a_store_whose_today_was_played_before_it_had_a_key_keeps_todays_board(
    make_live: LiveFactory, clock: FakeClock, new_store: Callable[[], Store]
) -> None:
    clock.now = NOON
    store = new_store()
    played = Leaderboard(DAY)
    played.start("p" * 64, "Ann", "g1", "192.0.2.1", 10)
    store.create(doc_id(DAY), "daily", played.to_doc(), NOON)
    live = make_live(store=store)
    public = live.player().new_game(seed=seed_of(DAY))["board"]
    assert start(live.player())["board"] == public  # the board Ann played, for everyone today
    clock.advance(24 * 3600)
    assert (
        start(live.player(), BO, "Bo")["board"]
        != live.player().new_game(seed=seed_of(DAY + ONE_DAY))["board"]
    )


def test_a_daily_sprint_nobody_reopened_after_a_restart_is_still_scored_on_time(
    make_live: LiveFactory, clock: FakeClock
) -> None:
    clock.now = NOON
    first = make_live()
    ann = first.player()
    start(ann)
    ann.drag(ann.a_word())
    ann.send(type="release")
    total = ann.game.total
    second = make_live(store=first.store)  # the first process is gone, and Ann with it

    assert second.router.pick_up() == 0  # her sprint has time left
    clock.advance(DAILY_SECONDS + PICK_UP_SLACK + 0.5)
    assert second.router.pick_up() == 1  # it has not: this process takes her game on
    tick(second, 0)

    board = leaderboard(second.player(), ANN)
    assert board["you"] == first_place(ann, total)
    assert second.router.pick_up() == 0  # over: nothing more to take on


def test_i_m_done_ends_the_daily_at_once_and_the_server_enters_its_score(daily: Live) -> None:
    ann = daily.player()
    game = start(ann)
    ann.drag(ann.a_word())
    ann.send(type="release")
    total = ann.game.total
    daily.clock.advance(20)
    frames = ann.send(type="done", seq=7)
    assert [f["type"] for f in frames] == ["over", "leaderboard"]
    over, board = frames
    assert (over["total"], over["early"], over["seq"]) == (total, True, 7)
    assert over["missed"]
    assert board["you"] == first_place(ann, total)
    assert board["rules"] == {"pace": {"tiles": MOST_TILES, "seconds": WINDOW}, "places": 2}
    # The end is committed as the clock's would be, and says it came early.
    moves = daily.store.moves(str(game["game_id"]))
    assert moves[-1] == {"version": 2, "time_up": True, "total": total, "early": True}
    # Nothing more is played, and the deadline, when it comes, changes nothing.
    assert errors(ann.send(type="press", row=0, col=0)) == ["game/over"]
    mark = len(ann.frames)
    tick(daily, DAILY_SECONDS)
    assert ann.frames[mark:] == []
    assert leaderboard(ann)["players"] == 1
    # Back on the game: the same end screen.
    again = daily.player()
    [snapshot] = again.resume(str(game["game_id"]), str(game["token"]))
    assert (snapshot["phase"], snapshot["early"]) == ("over", True)


def test_an_ordinary_sprint_ends_early_too(live: Live) -> None:
    player = live.player()
    player.send(type="new_game", wordlist="en", sprint=60)
    [over] = player.send(type="done")
    assert (over["type"], over["early"], over["total"]) == ("over", True, 0)


def test_ending_early_is_refused_where_there_is_no_sprint_of_one_s_own_and_changes_nothing(
    daily: Live,
) -> None:
    nobody = daily.player()
    assert errors(nobody.send(type="done")) == ["game/none"]

    untimed = daily.player()
    untimed.new_game()
    before = untimed.game.to_doc()
    assert errors(untimed.send(type="done")) == ["game/not_sprint"]
    assert untimed.game.to_doc() == before

    # Another player's game cannot be named: the command ends the one this connection opened
    # with its token, and a wrong token opens none.
    ann, bo = daily.player("192.0.2.1"), daily.player("198.51.100.7")
    game = start(ann)
    assert errors(bo.resume(str(game["game_id"]), "not-the-token")) == ["game/bad_token"]
    assert errors(bo.send(type="done")) == ["game/none"]
    assert ann.game.phase.value == "idle"
    assert leaderboard(bo, None)["players"] == 0

    # Already over: refused, and its score stays as the server entered it.
    tick(daily, DAILY_SECONDS + 1)
    version = ann.game.version
    assert errors(ann.send(type="done")) == ["game/over"]
    assert ann.game.version == version
    assert leaderboard(ann)["players"] == 1

    # A match is not a sprint.
    matcher = daily.player()
    matcher.send(type="new_match", bots=[{"level": "easy"}])
    assert errors(matcher.send(type="done")) == ["game/not_sprint"]


def test_a_try_faster_than_a_person_is_shown_to_its_player_but_not_ranked(daily: Live) -> None:
    """A solver-driven client: the best words, one after another, a message each at the rate limit."""
    bot, ann = daily.player("203.0.113.1"), daily.player("192.0.2.1")
    start(bot, "bot-" + "x" * 28, "Bot")
    tiles = 0
    while tiles <= MOST_TILES:
        path = bot.a_word()
        bot.drag(path)
        assert bot.send(type="release")[-1]["result"] == "scored"
        tiles += len(path)
        daily.clock.advance((len(path) + 1) / 40)  # 40 messages a second
    start(ann)
    ann.drag(ann.a_word())
    ann.send(type="release")
    daily.clock.advance(5)
    [_over, mine] = bot.send(type="done")
    assert mine["you"]["ranked"] is False
    assert mine["you"]["why"] == "pace"
    assert mine["you"]["rank"] is None
    assert mine["you"]["score"] == bot.game.total > 0  # its player sees the score, and why it is not ranked
    assert mine["you"]["pace"] > MOST_TILES
    assert mine["top"] == []
    ann.send(type="done")
    board = leaderboard(ann)
    assert [s["name"] for s in board["top"]] == ["Ann"]  # type: ignore[index]
    assert board["players"] == 1


def test_a_daily_try_s_record_opens_only_once_its_day_is_over(daily: Live, clock: FakeClock) -> None:
    """Its seed draws the board and every refill that others still play for places that day."""
    ann = daily.player()
    game_id = str(start(ann)["game_id"])
    ann.send(type="done")  # over for Ann; not for the others who play today

    with pytest.raises(RuleError) as refused:
        record_of(daily.store, game_id, clock())
    assert refused.value.code == "record/in_progress"

    clock.now = NOON + 12 * 3600  # midnight UTC: a try begun a moment ago is still played
    with pytest.raises(RuleError) as still:
        record_of(daily.store, game_id, clock())
    assert still.value.code == "record/in_progress"
    clock.now += DAILY_SECONDS + REVEAL_MARGIN  # every try of the day has ended
    assert record_of(daily.store, game_id, clock()).game_id == game_id


def test_a_finished_daily_try_resumed_tells_no_seed_until_its_days_last_tries_have_ended(
    daily: Live, clock: FakeClock
) -> None:
    """Over for Ann is not over for the others: her finished try, opened again, would give her the
    seed to draw the day's board and its refills for a second player id's scored try."""
    ann = daily.player()
    game = start(ann)
    ann.send(type="done")
    again = daily.player()
    [resumed] = again.send(type="resume", game_id=game["game_id"], token=game["token"])
    assert (resumed["type"], resumed["phase"]) == ("game", "over")
    assert "seed" not in resumed
    clock.now = NOON + 12 * 3600 + 60  # a minute into the next day: yesterday's last tries run on
    [later] = daily.player().send(type="resume", game_id=game["game_id"], token=game["token"])
    assert "seed" not in later
    assert leaderboard(daily.player())["yesterday"] is None  # nor its board and best words
    clock.now = NOON + 12 * 3600 + DAILY_SECONDS + REVEAL_MARGIN
    [told] = daily.player().send(type="resume", game_id=game["game_id"], token=game["token"])
    assert isinstance(told["seed"], int)
    assert leaderboard(daily.player())["yesterday"]["board"] == game["board"]  # type: ignore[index]
