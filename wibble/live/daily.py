"""The daily board in play: today's sprint for each player, and the day's leaderboard in the store.

A daily game is an endless sprint (``Games``) on the day's seed (``wibble.core.daily``),
marked with the day and whether it is the player's one scored attempt. The leaderboard is
a store document of kind "daily", one a day, changed only here and only with a
compare-and-set on its version (tried again from the stored copy when another process
wrote first), so it holds on every store engine and with several processes.

A scored attempt is entered in the leaderboard as its game starts (so a second one is
refused, on any connection, in any process), and its score is entered by the server when
its sprint ends (``Dailies.over``, the games' ``on_over``: when its clock runs out, or when
its player says they are done): a client can neither post a score nor pick a board. Its pace
is judged then too, from the times this server stamped on its words (``wibble.core.pace``):
a try faster than a person can play keeps its score, shown to its player, and is not ranked.

The day's board is drawn with the host's own key (``DailyKey``), a document made once in the
store by the first process that draws a daily board, and read by every other: without it, anyone
who reads the code could work out tomorrow's board, and practise it.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from datetime import date
from typing import Any

from .. import protocol
from ..core import Draws, Game, GameDataError, HashParams, RuleError, WibbleError, solve
from ..core.daily import (
    DAILY_SECONDS,
    KEY_BYTES,
    KEY_DOC_ID,
    DailyKey,
    Leaderboard,
    day_number,
    day_of,
    doc_id,
    revealed,
    yesterday,
)
from ..core.pace import MOST_TILES, judge
from ..engines.bus import EVERYONE
from ..engines.store import AlreadyExists, StorageError, VersionConflict
from ..protocol import Leaderboard as LeaderboardCommand
from ..protocol import NewDaily
from .credentials import new_key, token_hash
from .games import Games, LiveGame
from .parts import Parts, Service
from .sessions import Session

log = logging.getLogger(__name__)

ATTEMPTS = 5
"""Compare-and-set tries of one change to a leaderboard before giving up (``server/busy``)."""

KEY_CHECK_SECONDS = 30.0
"""How often a process drawing daily boards looks that the store still holds the key it keeps."""

YESTERDAY_BEST = 10


class Dailies(Service):
    def __init__(
        self,
        parts: Parts,
        games: Games,
        seconds: int = DAILY_SECONDS,
        per_address: int = 10,
        min_words: int = 0,
        most_tiles: int = MOST_TILES,
    ) -> None:
        super().__init__(parts)
        self.games = games
        self.seconds = seconds
        """How long the daily sprint lasts (3 minutes; a test makes it shorter)."""
        self.per_address = per_address
        """Scored attempts one client address may start a day."""
        self.min_words = min_words
        self.most_tiles = most_tiles
        """The pace bound: tiles of scored words in any ``pace.WINDOW`` seconds (``pace.MOST_TILES``)."""
        self.wall_clock = parts.wall_clock
        self._yesterdays: dict[date, dict[str, Any]] = {}
        self.clock = parts.clock
        self._key: DailyKey | None = None
        """The host's key, once read: it never changes, so every process may keep it."""
        self._key_checked = float("-inf")
        self._key_complained = float("-inf")

    # -- commands ------------------------------------------------------------------------

    def start(self, session: Session, command: NewDaily) -> tuple[LiveGame, str]:
        """Today's board for this player: scored if it is their first attempt today, else a replay."""
        day = day_of(self.wall_clock())
        player = token_hash(command.player).hex()
        board = self._board(day)
        scored = not board.has_played(player)
        if scored:  # refused before a game is made: a refusal costs the address none of its games
            board.check_start(player, session.address, self.per_address)
        daily = {"date": day.isoformat(), "day": day_number(day), "player": player, "scored": scored}
        live, token = self.games.create(None, self.key(day).seed(day), session.address, self.seconds, daily)
        if scored:
            try:
                self._change(
                    day,
                    lambda board: board.start(
                        player, command.name, live.game_id, session.address, self.per_address
                    ),
                )
            except WibbleError:
                # Refused after all (another tab of this player, or of the address, started first
                # meanwhile): no game is left behind that says it counts.
                self._discard(live)
                raise
        return live, token

    def tell(self, session: Session, command: LeaderboardCommand) -> None:
        """Today's leaderboard (and yesterday's board), to this session alone."""
        player = None if command.player is None else token_hash(command.player).hex()
        self.bus.reply(session, [self.message(day_of(self.wall_clock()), player)], command.seq)

    def message(self, day: date, player: str | None) -> dict[str, Any]:
        """The ``leaderboard`` message of ``day`` as ``player`` sees it."""
        return protocol.leaderboard(
            day, self.seconds, self._board(day).view(player), self._yesterday(day), self.most_tiles
        )

    # -- the end of a daily sprint -------------------------------------------------------

    def over(self, live: LiveGame) -> None:
        """A daily sprint ended (under its game's lock): enter its score, and show the leaderboard."""
        daily = live.daily
        if daily is None:
            return
        try:
            day = date.fromisoformat(str(daily.get("date")))
        except ValueError:
            return
        player = str(daily.get("player"))
        if daily.get("scored"):
            game = live.game
            words = [word for word, _ in game.found.in_order]
            pace = judge(game.times, words, self.most_tiles)
            try:
                self._change(
                    day,
                    lambda board: board.finish(player, live.game_id, game.total, len(words), pace),
                )
            except WibbleError as exc:
                log.error("daily %s: could not enter game %s's score: %s", day, live.game_id, exc.code)
        try:
            self.bus.publish(live.game_id, [self.message(day, player)], EVERYONE)
        except WibbleError as exc:
            log.warning("daily %s: could not read the leaderboard: %s", day, exc.code)

    # -- the leaderboard document ------------------------------------------------------------

    def _board(self, day: date) -> Leaderboard:
        row = self.store.load(doc_id(day))
        if row is None:
            return Leaderboard(day)
        if row.kind != "daily":
            raise GameDataError(f"{doc_id(day)} is not a daily leaderboard")
        return Leaderboard.from_doc(row.doc)

    def _change(self, day: date, change: Callable[[Leaderboard], object]) -> None:
        """Apply ``change`` to the day's leaderboard and commit it (compare-and-set), trying again
        from the stored copy when another process wrote first. A refusal raises, changing nothing."""
        for _ in range(ATTEMPTS):
            board = self._board(day)
            version = board.version
            result = change(board)
            if board.version == version or result is False:
                return
            move = {"version": board.version}
            try:
                if version == 0:
                    self.store.create(doc_id(day), "daily", board.to_doc(), self.wall_clock())
                else:
                    self.store.commit(doc_id(day), version, board.to_doc(), move, self.wall_clock())
                return
            except (VersionConflict, AlreadyExists):
                continue  # someone else's attempt landed first: apply ours to theirs
        raise RuleError("server/busy", "the daily leaderboard is busy; try again")

    # -- the host's key --------------------------------------------------------------------

    def key(self, day: date) -> DailyKey:
        """The host's key to its daily boards: made by whichever process draws a daily board first
        (the store's create decides between two at once), then read by every other, and kept by
        each. Every ``KEY_CHECK_SECONDS`` while boards are drawn (and at each housekeeping round,
        ``keep_key``), a process looks that the store still has it (see ``_stored_key``) and notes
        it as used, so that the retention of untouched documents keeps it. A store that cannot be
        read then leaves the kept key in use."""
        now = self.clock()
        if self._key is None or now - self._key_checked >= KEY_CHECK_SECONDS:
            try:
                key = self._stored_key(day, self._key)
                if key != self._key:
                    self._yesterdays = {}  # (drawn with the key this process had)
                self._key = key
            except WibbleError as exc:
                if self._key is None:
                    raise
                log.warning(
                    "could not look at the daily key in the store (%s); drawing with the one kept", exc.code
                )
            self._key_checked = now
        return self._key

    def keep_key(self) -> None:
        """What housekeeping calls: a process that holds the key looks at the stored one (as
        ``key`` does when a board is drawn) whether or not anyone draws a board here, so that a
        lost key is written back, and two keys become one, within a housekeeping round or so."""
        if self._key is not None:
            self.key(day_of(self.wall_clock()))

    def _stored_key(self, day: date, held: DailyKey | None) -> DailyKey:
        """The key the store holds, noted as used. If there is none, ``held`` (this process's)
        is written back: the document was lost (a Redis flushed, or failed over before it had a
        copy), and the boards to come must not change. With none held either, a new key. If the
        store holds another than ``held`` (lost, and made anew by a process that held none),
        the one that came first is kept by every process, and written back if need be."""
        for _ in range(ATTEMPTS):
            row = self.store.load(KEY_DOC_ID)
            if row is not None:
                stored = self._read_key(row.kind, row.doc)
                if held is not None and stored != held:
                    # The first key was lost, and another process made a new one: both are drawn
                    # with now. Every process keeps the same one of the two (``first_of``).
                    if held.first_of(stored) == held:
                        version = row.doc.get("version")
                        if not isinstance(version, int):
                            raise GameDataError(f"{KEY_DOC_ID} has no version")
                        doc = {**held.to_doc(), "version": version + 1}
                        try:
                            self.store.commit(
                                KEY_DOC_ID, version, doc, {"version": version + 1}, self.wall_clock()
                            )
                        except VersionConflict:
                            continue
                        log.error(
                            "the store held a daily key made after this one was lost: wrote this one back"
                        )
                        return held
                    log.error(
                        "the store holds a daily key that came before this process's: drawing with that one"
                    )
                try:
                    self.store.touch(KEY_DOC_ID, self.wall_clock())
                except StorageError as exc:  # only the retention clock missed a beat; tried again later
                    log.warning("could not note that the daily key was used: %s", exc.reason)
                return stored
            if held is not None:
                key = held
            else:
                # A store that already has today's leaderboard had today's board drawn with the
                # public key (by a version before keys): it keeps that board today.
                played = self.store.load(doc_id(day)) is not None
                key = DailyKey.make(new_key(KEY_BYTES), self.wall_clock(), day, played)
            try:
                self.store.create(KEY_DOC_ID, "daily", key.to_doc(), self.wall_clock())
            except AlreadyExists:
                continue  # another process made it first: theirs is the key
            if held is not None:
                log.error("the daily key was gone from the store; written back from this process's copy")
            else:
                log.info("made this host's key to its daily boards (boards from %s on)", key.since)
            return key
        raise RuleError("server/busy", "the daily board is busy; try again")

    def _read_key(self, kind: str, doc: dict[str, Any]) -> DailyKey:
        try:
            if kind != "daily":
                raise GameDataError(f"{KEY_DOC_ID} is not the daily key")
            return DailyKey.from_doc(doc)
        except GameDataError as exc:
            now = self.clock()
            if now - self._key_complained >= KEY_CHECK_SECONDS:  # said once in a while, not every try
                self._key_complained = now
                log.error(
                    "no daily board can be drawn: %s. Deleting the document %r from the store makes"
                    " a new key (and a new board for today)",
                    exc.message,
                    KEY_DOC_ID,
                )
            raise

    def _discard(self, live: LiveGame) -> None:
        try:
            self.games.docs.delete(live.game_id)
        except StorageError as exc:
            log.warning("could not delete refused daily game %s: %s", live.game_id, exc.reason)

    # -- yesterday ---------------------------------------------------------------------------

    def _yesterday(self, day: date) -> dict[str, Any] | None:
        """Yesterday's first board, the same for everyone, and the best words it held; None until
        yesterday's last tries have ended (a try begun just before midnight is still played)."""
        before = yesterday(day)
        if not revealed(before, self.wall_clock(), self.seconds):
            return None
        kept = self._yesterdays.get(before)
        if kept is None:
            words = self.wordlists.for_player(None)
            # The same board every player of that day began with (its hash bases change nothing).
            game = Game(
                words,
                Draws(self.key(day).seed(before)),
                HashParams.draw(random.Random(0)),
                min_words=self.min_words,
            )
            kept = protocol.yesterday_board(before, game, solve(game.board, words)[:YESTERDAY_BEST])
            self._yesterdays = {before: kept}  # one day's is enough
        return kept
