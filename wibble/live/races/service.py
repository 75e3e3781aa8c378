"""The races service: a room's race begun (its runners' games made, then the race saved), its
sessions put on their own boards or following one, standings told as words score, its bots
played at their pace, and its end read from the runners' games."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Hashable, Sequence

from ... import protocol
from ...core import Game, GameDataError, HashParams, RuleError, WibbleError, WordList
from ...core.draws import Draws
from ...core.match.bots import pick_word
from ...core.race import SETTLE_SECONDS, Race, Result, Runner, bot_dice
from ...core.solver import solve
from ...engines.bus import EVERYONE, Audience, only
from ...engines.store import StorageError
from ..documents import Documents
from ..games import Games, LiveGame
from ..games.held import load as load_game
from ..parts import Parts, Service
from ..sessions import Session
from ..timers import RETRY_SECONDS
from .held import LiveRace, RaceKind

log = logging.getLogger(__name__)


FINISHED_KEPT = 600.0
"""Seconds a race is held in memory after it began, once it is over (housekeeping lets it go then;
its room keeps what it shows, and the store keeps it all)."""


def _room_topic(code: str) -> str:
    return f"room:{code}"  # (as ``rooms.room_id``: a race tells its room, which it does not import)


class Races(Service):
    """The races held in memory here (a room's race stays while its room is held)."""

    def __init__(
        self,
        parts: Parts,
        games: Games,
        max_races: int = 10_000,
        on_over: Callable[[LiveRace], None] = lambda live: None,
    ) -> None:
        super().__init__(parts)
        self.games = games
        self.wall_clock = wall_clock = parts.wall_clock
        self.on_over = on_over
        """Called once this process committed a race's end, under the race's lock: its room shows it."""
        self.docs: Documents[LiveRace] = Documents(
            RaceKind(lambda live: self._show(live, EVERYONE), self._schedule),
            parts.store,
            parts.presence,
            wall_clock,
            wall_clock,
            max_races,
            "the server is full of races in play; try again later",
            FINISHED_KEPT,
            evictable=lambda live: not live.racing,
            on_drop=lambda live: self.timers.cancel((live.race_id, "race")),
            adopt=self._adopt,
            doorbell=parts.doorbell,
            rechecks=parts.rechecks,
        )
        self.timers.route("race", self._due)

    def __len__(self) -> int:
        return len(self.docs)

    def sweep(self) -> int:
        """Let go of races that are over and were begun ``FINISHED_KEPT`` ago; returns how many."""
        return self.docs.sweep()

    # -- a race's life ---------------------------------------------------------------------

    def create(
        self,
        words: WordList,
        seed: int,
        seconds: int,
        code: str,
        race_id: str,
        runners: Sequence[tuple[int, str, str, str | None]],
    ) -> LiveRace:
        """A room's new race, saved with its runners' games but not yet running: ``adopt`` it once
        the room has committed it. ``runners``: (seat, name, kind, level) each."""
        self.docs.make_space()
        started = self.wall_clock()
        entries = []
        for seat, name, kind, level in runners:
            tag = {"race_id": race_id, "room": code, "seat": seat}
            game = self.games.create_runner(words, seed, seconds, started + seconds, tag)
            entries.append(Runner(seat, name, kind, level, game.game_id))
        race = Race(race_id, code, seed, words.name, seconds, started, entries)
        live = LiveRace(race, started)
        self.docs.save_new(live)
        return live

    def adopt(self, live: LiveRace) -> LiveRace:
        """Run a room's race: keep it in memory, and set its deadlines."""
        live = self.docs.keep(live)
        with live.lock:
            self._schedule(live)
        return live

    def open(self, race_id: str, code: str) -> LiveRace | None:
        """A room's race, from memory or the store (then running again); None if gone or damaged."""
        live = self.docs.get(race_id)
        if live is not None:
            return live
        try:
            live = self._load(race_id)
        except WibbleError:
            return None
        if live.race.room != code:
            return None
        return self.adopt(live)

    def drop(self, race_id: str) -> None:
        """A room closed, or started something new: its race leaves memory (it stays saved)."""
        self.docs.drop(race_id)

    # -- sessions ----------------------------------------------------------------------------

    def watch(self, live: LiveRace, session: Session, seat: int | None, holders: list[str | None]) -> None:
        """``session`` (of seat ``seat``, or watching) gets the race; a runner still racing is put on
        their own board, where their moves go (the room lets through only a seat's)."""
        runner = None if seat is None else live.race.runner(seat)
        with live.lock:
            self._show(live, only(session.id), holders)
            racing = live.racing
        if runner is not None and runner.kind == "human" and racing:
            self.games.enter(session, self.games.held(runner.game_id))
        elif session.game is not None and runner is not None:
            self.games.leave(session)  # (the race is over: its board is no longer theirs to play)

    def unwatch(self, session: Session) -> None:
        """A room's session leaves the board it was on (its own, or one it followed)."""
        self.games.leave(session)

    def follow(self, live: LiveRace, session: Session, seat: int, own: int | None) -> None:
        """``follow {seat}``: ``session`` watches runner ``seat``'s board as it changes. A runner
        still racing plays their own board (``race/racing``); a seat that does not run is
        ``race/no_runner``. Nothing changes for a refused follow."""
        runner = live.race.runner(seat)
        if runner is None:
            raise RuleError("race/no_runner", "nobody runs in that seat")
        mine = None if own is None else live.race.runner(own)
        if mine is not None and mine.kind == "human" and live.racing and own != seat:
            raise RuleError("race/racing", "you are racing: your own board is the one to play")
        self.games.enter(session, self.games.held(runner.game_id))

    def move(self, session: Session, runner_seat: int, live: LiveRace) -> LiveGame:
        """The runner game a seat's move goes to (the room checked the seat; the game checks the move)."""
        runner = live.race.runner(runner_seat)
        if runner is None:
            raise RuleError("race/no_runner", "your seat does not run in this race")
        if not live.racing:
            raise RuleError("game/over", "the race is over")
        game = self.games.held(runner.game_id)
        if session.game != game.game_id:
            self.games.enter(session, game)
        return game

    # -- standings ------------------------------------------------------------------------------

    def scored(self, game: LiveGame) -> None:
        """A runner's word scored (committed and told on their board): the room hears the standing."""
        race = game.race or {}
        code, race_id, seat = race.get("room"), race.get("race_id"), race.get("seat")
        if not (isinstance(code, str) and isinstance(race_id, str) and type(seat) is int):
            return
        message = protocol.race_standing(race_id, seat, game.game)
        self.bus.publish(_room_topic(code), [message], EVERYONE)

    def standings(self, live: LiveRace, stored: bool = False) -> dict[int, Result]:
        """Each runner's score and words so far, from their games (in memory here, or as stored;
        ``stored``: as stored, whatever copy is held here: the results are what was saved)."""
        out = {}
        for runner in live.race.runners:
            game = self._game(runner.game_id, stored)
            if game is not None:
                out[runner.seat] = Result(runner.seat, game.total, tuple(game.found.in_order))
        return out

    # -- deadlines ----------------------------------------------------------------------------

    def _schedule(self, live: LiveRace) -> None:
        due, key = live.race.due(), (live.race_id, "race")
        if due is None:
            self.timers.cancel(key)
        else:
            self.timers.set(key, due)

    def _adopt(self, race_id: str) -> None:
        """A race whose deadline nobody handled (its process died) is held here, its timers set."""
        self.adopt(self.docs.get(race_id) or self._load(race_id))

    def _due(self, key: Hashable) -> None:
        """A bot's word or the race's end fell due (once, however often this runs)."""
        if not (isinstance(key, tuple) and len(key) == 2):
            return
        live = self.docs.get(str(key[0]))
        if live is None:
            return
        ended = False
        with live.lock:
            now = self.wall_clock()
            try:
                for runner in live.race.bots_due(now):
                    self._bot_word(live, runner, now)
                if live.racing and now >= live.race.deadline and live.race.due() is not None:
                    ended = self._finish(live, now)
            except StorageError as exc:
                log.warning("race %s: could not be saved (%s); trying again", live.race_id, exc.reason)
                self.timers.set(key, now + RETRY_SECONDS)
                return
            except WibbleError as exc:  # another process moved it first: its copy is here now
                log.warning("race %s: a deadline was overtaken (%s)", live.race_id, exc.code)
            self._schedule(live)
            due = live.race.due()
            if due is not None and due <= now:  # (never again at once: a stuck deadline would spin)
                self.timers.set(key, now + RETRY_SECONDS)
        if ended:  # (the room's lock is taken before a race's, never under it)
            self.on_over(live)

    def _bot_word(self, live: LiveRace, runner: Runner, now: float) -> None:
        """Bot ``runner`` plays its next word on its own board, chosen at its level (as a match's
        bots choose), then waits its pace."""
        # The race's note that the bot played is committed first: a process whose copy of the race
        # is behind, or a retry after a failed save, then finds the bot not due, and never plays a
        # word twice. (A word that then fails to be played is one word fewer, never one more.)
        self.docs.commit(
            live,
            lambda: live.race.bot_played(runner.seat, now),
            lambda _: {"action": "bot", "seat": runner.seat},
        )
        try:
            game = self.games.held(runner.game_id)
        except WibbleError as exc:  # its game is gone (a store reset): the bot sits the race out
            log.warning("race %s: bot %s has no game (%s)", live.race_id, runner.seat, exc.code)
            return
        board = game.game
        found = [f for f in solve(board.board, board.words) if f.word not in board.found.words]
        if found:
            choice = pick_word(bot_dice(live.race.seed, runner), found, runner.level or "easy")
            self.games.play_path(game, choice.path, f"bot:{runner.seat}")

    def _finish(self, live: LiveRace, now: float) -> bool:
        """The clock ran out (and settled): read each runner's result from their game, and end the
        race. Whether this process ended it."""
        if now < live.race.deadline + SETTLE_SECONDS:
            return False
        results = list(self.standings(live, stored=True).values())
        self.docs.commit(live, lambda: live.race.finish(results, now), lambda _: {"action": "finish"})
        self._show_over(live)
        return True

    # -- telling ---------------------------------------------------------------------------

    def _show(self, live: LiveRace, audience: Audience, holders: list[str | None] | None = None) -> None:
        start = self.start_board(live.race) if not live.racing else None
        try:
            letters = self.wordlists.get(live.race.wordlist).letters
        except (KeyError, WibbleError):  # (the list is gone: its words as stored)
            letters = None
        message = protocol.race_snapshot(live.race, self.standings(live), self.wall_clock(), start, letters)
        self.bus.publish(_room_topic(live.race.room), [protocol.personal(message, holders or [])], audience)

    def _show_over(self, live: LiveRace) -> None:
        message = protocol.race_over(live.race, self.start_board(live.race))
        self.bus.publish(_room_topic(live.race.room), [message], EVERYONE)

    def start_board(self, race: Race) -> Game:
        """The board every runner began on (drawn again from the race's seed, as their games were)."""
        words = self.wordlists.get(race.wordlist)
        hashes = HashParams.draw(random.Random(race.seed))  # (any will do: nothing is found on it)
        return Game(words, Draws(race.seed), hashes, min_words=self.games.min_words)

    # -- memory ------------------------------------------------------------------------------

    def _game(self, game_id: str, stored: bool = False) -> Game | None:
        held = None if stored else self.games.docs.get(game_id)
        if held is not None:
            return held.game
        row = self.store.load(game_id)
        if row is None or row.kind != "game":
            return None
        try:
            return load_game(game_id, row, self.wordlists, self.wall_clock()).game  # (as Games loads one)
        except GameDataError as exc:
            log.warning("race game %s cannot be read: %s", game_id, exc.message)
            return None

    def _load(self, race_id: str) -> LiveRace:
        row = self.store.load(race_id)
        if row is None or row.kind != "race":
            raise RuleError("race/not_found", "no such race (it may have expired)")
        try:
            race = Race.from_doc(row.doc)
        except GameDataError as exc:
            log.warning("stored race %s cannot be opened: %s", race_id, exc.message)
            raise RuleError("game/unavailable", "this saved race cannot be loaded on this server") from None
        return LiveRace(race, self.wall_clock())
