"""A match: a few rounds, one word per turn, multipliers, gems, and a winner.

Every command names its actor, the seat, and goes through one ordered checklist
before anything changes (as boardgame.io's master does): is the match still on,
is it this seat's turn (and not the pause between rounds), can it pay, is the
move itself legal. A refused command raises ``RuleError`` and leaves the match
exactly as it was; an accepted one returns events for the layer above to send.
The drag's own rules (press, enter, undo by dragging back, adjacency) are the
``Chain`` an endless game drags too (``wibble.core.chain``); the turn is checked here.

Committed and ephemeral, as in ``wibble.core.game``: a drag (``press``, ``enter``,
``cancel``) is shown to everyone and never saved; everything else that is
accepted (a word played, a pass, a turn timing out, a gem spent, a new round)
changes the match for good and adds one to ``version``.

Time comes in as an argument (``now``, seconds since the epoch) and leaves as
data: a timed turn's ``deadline`` is a number in the state, so a match restored
on another process, or after a restart, keeps its timer. The layer above keeps a
scheduler of deadlines and calls ``timeout`` or ``next_round`` when one falls due;
a call for a turn that has already ended changes nothing.

Turn order is a ``TurnOrder`` min-heap keyed by each seat's next turn time in
ticks (``wibble.core.turns``): a seat of speed 2 steps half as far per turn, so it
plays twice a round with no special case.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from hashlib import blake2b
from typing import Any

from ..board import Pos, path_doc
from ..chain import Chain, require_on_board
from ..draws import Draws
from ..errors import RuleError
from ..scoring import Score, TileValue, score
from ..solver import Found, count_words, solve
from ..solver import best as best_found
from ..turns import TICKS_PER_ROUND, TurnOrder, step
from ..wordlist import WordList
from .settings import LEVELS, MAX_SEATS, Settings
from .teams import team_summary, teammates
from .tiles import NEW_ROUND, REFILL, SHUFFLE, Build, new_board, run, tile_wire

DOC_FORMAT = 1


class Phase(Enum):
    PLAYING = "playing"
    """A seat's turn (``turn``); it may be dragging a chain."""
    BETWEEN = "between_rounds"
    """The pause after a round; ``turn`` is the seat that opens the next one."""
    OVER = "over"


@dataclass(slots=True)
class Seat:
    name: str
    kind: str
    """"human" or "bot"."""
    level: str | None = None
    """A bot's level: easy, medium or hard."""
    speed: int = 1
    score: int = 0
    gems: int = 0
    key: int = 0
    """When this seat plays next, in turn-order ticks."""

    def to_doc(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "level": self.level,
            "speed": self.speed,
            "score": self.score,
            "gems": self.gems,
            "key": self.key,
        }


# -- events: what the layer above turns into messages ----------------------------------------


@dataclass(frozen=True, slots=True)
class ChainMoved:
    seat: int
    chain: tuple[Pos, ...]
    word: str
    points: int
    """What the chain would score now, multipliers and all."""
    status: str
    """"word", "prefix" (some longer word starts so) or "none", as in an endless game."""
    version: int
    """The match's version the drag is on: a page already past it (a fresh snapshot taken while
    the drag was on its way) drops it, as it drops any older event."""


@dataclass(frozen=True, slots=True)
class WordRefused:
    seat: int
    word: str
    result: str
    """"not_a_word" or "too_short"; the turn goes on."""


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    word: str
    path: tuple[Pos, ...]
    score: Score
    gems_earned: int
    total: int
    """The seat's score after this word."""
    version: int


@dataclass(frozen=True, slots=True)
class BoardChanged:
    changed: tuple[dict[str, Any], ...]
    reason: str
    """"refill", "shuffle", "swap" or "round"."""
    words_left: int
    version: int


@dataclass(frozen=True, slots=True)
class GemsChanged:
    seat: int
    gems: int
    version: int
    """The match's version once the change that moved the gems is committed."""


@dataclass(frozen=True, slots=True)
class TurnChanged:
    turn: int
    round: int
    deadline: float | None
    phase: str
    turn_no: int
    passed: str | None
    """How the last turn ended when it ended without a word: "pass" or "timeout"."""
    version: int


@dataclass(frozen=True, slots=True)
class HintGiven:
    seat: int
    found: Found | None


@dataclass(frozen=True, slots=True)
class Suggested:
    """The tiles ``seat`` marks for its teammate now (all of them: a tap toggles one)."""

    seat: int
    marks: tuple[Pos, ...]


@dataclass(frozen=True, slots=True)
class MatchOver:
    summary: dict[str, Any]
    version: int


MatchEvent = (
    ChainMoved
    | WordRefused
    | Played
    | BoardChanged
    | GemsChanged
    | TurnChanged
    | HintGiven
    | Suggested
    | MatchOver
)


def bot_seed(seed: int) -> int:
    """The seed of the bots' own draws: their choices must not move the board's draws, or a replay
    (which plays the recorded paths, not the bots) would draw different tiles."""
    return int.from_bytes(blake2b(b"bots" + seed.to_bytes(8, "big"), digest_size=8).digest(), "big")


class Match:
    """One match; not thread-safe (the live layer holds its lock)."""

    def __init__(
        self,
        words: WordList,
        seed: int,
        seats: Sequence[Seat],
        now: float,
        settings: Settings | None = None,
        min_words: int = 0,
        size: int = 5,
    ) -> None:
        if not 1 <= len(seats) <= MAX_SEATS:
            raise ValueError(f"a match has 1-{MAX_SEATS} seats")
        settings = settings or Settings()
        # A list without the chosen table plays its own values, and the match says so.
        self.settings = replace(settings, values=words.values_for(settings.values))
        self.words = words = words.with_values(self.settings.values)
        self.digest = words.digest
        """The list version the record's moves were judged by (``digest_in_play`` once restored)."""
        self.min_words = min_words
        self.draws = Draws(seed)
        self.bot_draws = Draws(bot_seed(seed))
        self.board, self.specials, self.words_left = new_board(
            words, self.settings, self.draws, min_words, size
        )
        self.seats = list(seats)
        if self.settings.teams is not None and len(self.settings.teams) != len(self.seats):
            raise ValueError("a match with teams names the team of every seat")
        for index, seat in enumerate(self.seats):
            if seat.kind not in ("human", "bot") or (seat.kind == "bot" and seat.level not in LEVELS):
                raise ValueError(f"seat {index} is neither a human nor a bot of a known level")
            step(seat.speed)  # a ValueError for an unknown speed
            seat.gems, seat.score, seat.key = self.settings.start_gems, 0, 0
        self.order = TurnOrder()
        for index, seat in enumerate(self.seats):
            self.order.push(index, seat.key)
        self.round = 1
        self.turn = 0
        self.turn_no = 0
        self.phase = Phase.PLAYING
        self.deadline: float | None = None
        self.version = 0
        self.history: list[dict[str, Any]] = []
        self._solved: tuple[Any, tuple[Found, ...]] | None = None
        self.marks: dict[int, tuple[Pos, ...]] = {}
        """Each seat's suggestions this turn (a 2v2's): ephemeral, like the chain, and never saved."""
        self.hinted: int | None = None
        """The seat that bought a hint of the board as it is, this turn: saved, so that a page
        coming back (a reload, another process) is shown the hint it paid for."""
        # The drag's rules live in Chain, shared with the endless game; the turn is checked here.
        self._chain = Chain(words)
        self._begin_turn(now)

    # -- what everyone can see --------------------------------------------------------------

    @property
    def chain(self) -> tuple[Pos, ...]:
        return self._chain.tiles

    @property
    def word(self) -> str:
        return self._chain.word(self.board)

    def path_score(self, path: Sequence[Pos]) -> Score:
        """What ``path`` scores on the board as it is: the one scoring function, with this match's order."""
        return score([self.specials.value(pos, self.board[pos]) for pos in path], self.settings.scoring)

    def tiles(self) -> list[list[dict[str, Any]]]:
        """The board in wire form, row by row."""
        size = self.board.size
        return [[tile_wire(self.board, self.specials, Pos(r, c)) for c in range(size)] for r in range(size)]

    def solve(self) -> list[Found]:
        """Every word on the board now, each with its best-scoring path, best first.

        The last answer is kept with the board it was for: a bot's decision, the hint and
        the turn's best word often ask about the same board, and a search costs milliseconds
        on the one thread every player shares. Any change to letters or multipliers misses.
        """
        key = self._board_key()
        cached = self._solved
        if cached is not None and cached[0] == key:
            return list(cached[1])
        found = solve(self.board, self.words, self._values(), self.settings.scoring)
        self._solved = (key, tuple(found))
        return found

    def best(self) -> Found | None:
        """The board's best word now: from the last ``solve`` if it was of this board, else
        searched for alone (each release asks; most boards are never solved whole)."""
        cached = self._solved
        if cached is not None and cached[0] == self._board_key():
            return cached[1][0] if cached[1] else None
        return best_found(self.board, self.words, self._values(), self.settings.scoring)

    def _board_key(self) -> tuple[Any, ...]:
        return (
            "".join(letter.symbol for row in self.board.rows() for letter in row),
            self.specials.letter_mult,
            self.specials.word_mult,
        )

    def _values(self) -> list[TileValue]:
        return [
            self.specials.value(Pos(r, c), letter)
            for r, row in enumerate(self.board.rows())
            for c, letter in enumerate(row)
        ]

    def summary(self) -> dict[str, Any]:
        """The end screen: ranking (ties share a rank), each seat's best word, every turn beside its best."""
        scores = [seat.score for seat in self.seats]
        ranking = [
            {"seat": i, "rank": 1 + sum(s > scores[i] for s in scores), "score": scores[i]}
            for i in sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        ]
        best_words: list[dict[str, Any] | None] = [None] * len(self.seats)
        for turn in self.history:
            played = turn["played"]
            held = best_words[turn["seat"]]
            if played is not None and (held is None or played["points"] > held["points"]):
                best_words[turn["seat"]] = played
        summary = {
            "ranking": ranking,
            "best_words": [{"seat": i, "word": w} for i, w in enumerate(best_words)],
            "turns": [
                {
                    "seat": t["seat"],
                    "round": t["round"],
                    "played": t["played"],
                    "best": t["best"],
                    "ended": t["ended"],
                }
                for t in self.history
            ],
        }
        if self.settings.teams is not None:
            summary.update(team_summary(self.settings.teams, scores, self.history))
        return summary

    # -- the checklist ----------------------------------------------------------------------

    def _require_turn(self, seat: int) -> None:
        if self.phase is Phase.OVER:
            raise RuleError("match/over", "the match is over; start a rematch")
        if not 0 <= seat < len(self.seats):
            raise RuleError("match/bad_seat", f"there is no seat {seat}")
        if self.phase is Phase.BETWEEN:
            raise RuleError("turn/between_rounds", "the next round starts in a moment")
        if seat != self.turn:
            raise RuleError("turn/not_your_turn", f"it is {self.seats[self.turn].name}'s turn")

    def _require_team_turn(self, seat: int) -> tuple[int, ...]:
        """The checks of a suggestion: a 2v2, still on, a seat of the team whose turn it is."""
        teams = self.settings.teams
        if teams is None:
            raise RuleError("match/not_teams", "suggestions are for teammates in a 2v2")
        if self.phase is Phase.OVER:
            raise RuleError("match/over", "the match is over; start a rematch")
        if not 0 <= seat < len(self.seats):
            raise RuleError("match/bad_seat", f"there is no seat {seat}")
        if self.phase is Phase.BETWEEN:
            raise RuleError("turn/between_rounds", "the next round starts in a moment")
        if teams[seat] != teams[self.turn]:
            name = self.seats[self.turn].name
            raise RuleError("turn/not_your_team", f"it is the other team's turn ({name}'s)")
        return teams

    def _pay(self, seat: int, power: str) -> None:
        cost: int = getattr(self.settings.costs, power)
        if self.seats[seat].gems < cost:
            raise RuleError("gems/not_enough", f"{power} costs {cost} gems; you have {self.seats[seat].gems}")

    # -- a drag (ephemeral) -----------------------------------------------------------------

    def press(self, seat: int, pos: Pos) -> list[MatchEvent]:
        self._require_turn(seat)
        self._chain.press(self.board, pos)
        return [self.chain_moved()]

    def enter(self, seat: int, pos: Pos) -> list[MatchEvent]:
        self._require_turn(seat)
        self._chain.enter(self.board, pos)
        return [self.chain_moved()]

    def cancel(self, seat: int) -> list[MatchEvent]:
        self._require_turn(seat)
        self._chain.require(True, "cancel")
        self._chain.clear()
        return [self.chain_moved()]

    def suggest(self, seat: int, pos: Pos | None, to: int | None = None) -> list[MatchEvent]:
        """A 2v2's seat taps a tile for its teammate: the mark goes on, or off if it was on
        (``pos`` None: every mark of the seat goes). ``to`` names the teammate it is for, if the
        client says; any other seat is refused. Ephemeral: the version does not move."""
        teams = self._require_team_turn(seat)
        if to is not None and (to == seat or to not in teammates(teams, seat)):
            raise RuleError("match/not_teammate", "a suggestion goes to your teammate alone")
        marks = self.marks.get(seat, ())
        if pos is None:
            marks = ()
        else:
            require_on_board(self.board, pos)
            marks = tuple(p for p in marks if p != pos) if pos in marks else (*marks, pos)
        self.marks[seat] = marks
        return [Suggested(seat, marks)]

    # -- committed ------------------------------------------------------------------------------

    def release(self, seat: int, now: float) -> list[MatchEvent]:
        """Play the chain: a word scores and ends the turn; anything else is refused and the turn goes on."""
        self._require_turn(seat)
        self._chain.require(True, "release")
        word, path = self._chain.word(self.board), self._chain.tiles
        node = self._chain.node
        if len(word) < self.words.min_length or len(path) < self.words.min_length:
            result = "too_short"
        elif node is None or not self.words.trie.is_word(node):
            result = "not_a_word"
        else:
            result = ""
        if result:
            self._chain.clear()
            return [WordRefused(seat, word, result), self.chain_moved()]
        best = self._best_doc()
        gained = self._score_word(seat, path)
        build = run(REFILL, self._build(path))
        self.words_left = build.words_left
        self._chain.clear()
        self.version += 1
        events: list[MatchEvent] = [
            gained,
            BoardChanged(tuple(build.wire), "refill", self.words_left, self.version),
            GemsChanged(seat, self.seats[seat].gems, self.version),
        ]
        played = {
            "word": word,
            "path": path_doc(path),
            "points": gained.score.points,
            "breakdown": gained.score.to_doc(),
        }
        return events + self._end_turn(now, "played", played, best)

    def pass_turn(self, seat: int, now: float) -> list[MatchEvent]:
        self._require_turn(seat)
        events = self._drop_chain()
        best = self._best_doc()
        self.version += 1
        return events + self._end_turn(now, "passed", None, best)

    def timeout(self, turn_no: int, now: float) -> list[MatchEvent]:
        """The scheduler says turn ``turn_no``'s time is up; nothing happens if that turn is over."""
        if (
            self.phase is not Phase.PLAYING
            or turn_no != self.turn_no
            or self.deadline is None
            or now < self.deadline
        ):
            return []
        events = self._drop_chain()
        best = self._best_doc()
        self.version += 1
        return events + self._end_turn(now, "timed_out", None, best)

    def next_round(self, now: float) -> list[MatchEvent]:
        """The pause between rounds is over: the multipliers move and the next round's first turn begins."""
        if self.phase is not Phase.BETWEEN or self.deadline is None or now < self.deadline:
            return []
        return self._start_round(now)

    def shuffle(self, seat: int) -> list[MatchEvent]:
        self._require_turn(seat)
        self._pay(seat, "shuffle")
        events = self._drop_chain()
        build = run(SHUFFLE, self._build(()))
        self.words_left = build.words_left
        self.hinted = None  # (a hint is of the board it was bought on)
        return events + self._spend(
            seat, "shuffle", BoardChanged(tuple(build.wire), "shuffle", self.words_left, self.version + 1)
        )

    def swap(self, seat: int, pos: Pos, symbol: str) -> list[MatchEvent]:
        """Change one tile's letter; allowed mid-drag (the chain then spells the new letter)."""
        self._require_turn(seat)
        self._pay(seat, "swap")
        require_on_board(self.board, pos)
        if symbol not in self.words.letters:
            raise RuleError("swap/bad_letter", f"{symbol!r} is not a letter of the list {self.words.name!r}")
        if self.board[pos].symbol == symbol:
            raise RuleError("swap/same_letter", "that tile already shows that letter")
        self.board.place([(pos, self.words.letters[symbol])])
        self._solved = None  # as in _build: the board changed
        self.words_left = count_words(self.board, self.words)
        self._chain.respell(self.board)  # the chain may cross the swapped tile: it spells the new letter
        changed = ({"row": pos.row, "col": pos.col, **tile_wire(self.board, self.specials, pos)},)
        self.hinted = None
        events = self._spend(seat, "swap", BoardChanged(changed, "swap", self.words_left, self.version + 1))
        if self._chain:  # (after the swap's version: the chain as it spells now)
            events.append(self.chain_moved())
        return events

    def hint(self, seat: int) -> list[MatchEvent]:
        self._require_turn(seat)
        self._pay(seat, "hint")  # before the search: a seat that cannot pay costs the server nothing
        found = self.best()
        if found is None:
            raise RuleError("hint/no_words", "there is no word on the board to hint at")
        self.hinted = seat
        return self._spend(seat, "hint", HintGiven(seat, found))

    def extend(self, seat: int) -> list[MatchEvent]:
        self._require_turn(seat)
        if self.deadline is None:
            raise RuleError("turn/untimed", "turns in this match have no timer to extend")
        self._pay(seat, "extend")
        self.deadline += self.settings.extend_seconds
        return self._spend(seat, "extend", self._turn_changed(None, self.version + 1))

    # -- turns -----------------------------------------------------------------------------

    def _spend(self, seat: int, power: str, *events: MatchEvent) -> list[MatchEvent]:
        self.seats[seat].gems -= getattr(self.settings.costs, power)
        self.version += 1
        return [*events, GemsChanged(seat, self.seats[seat].gems, self.version)]

    def _score_word(self, seat: int, path: tuple[Pos, ...]) -> Played:
        result = self.path_score(path)
        player = self.seats[seat]
        earned = sum(1 for pos in path if pos in self.specials.gems)
        earned = min(earned, self.settings.gem_cap - player.gems)
        player.score += result.points
        player.gems += earned
        return Played(seat, self.word, path, result, earned, player.score, self.version + 1)

    def _best_doc(self) -> dict[str, Any] | None:
        found = self.best()
        if found is None:
            return None
        return {"word": found.word, "path": path_doc(found.path), "points": found.score}

    def _end_turn(
        self, now: float, ended: str, played: dict[str, Any] | None, best: dict[str, Any] | None
    ) -> list[MatchEvent]:
        seat = self.seats[self.turn]
        self.marks = {}  # a suggestion is for the turn it was made in
        self.hinted = None
        self.history.append(
            {
                "turn_no": self.turn_no,
                "round": self.round,
                "seat": self.turn,
                "ended": ended,
                "played": played,
                "best": best,
            }
        )
        seat.key += step(seat.speed)
        self.order.push(self.turn, seat.key)
        upcoming = self.order.peek()
        assert upcoming is not None
        passed = None if ended == "played" else ("timeout" if ended == "timed_out" else "pass")
        if upcoming.key >= self.settings.rounds * TICKS_PER_ROUND:
            self.phase, self.deadline = Phase.OVER, None
            return [self._turn_changed(passed, self.version), MatchOver(self.summary(), self.version)]
        if upcoming.key // TICKS_PER_ROUND + 1 > self.round:
            self.turn = upcoming.seat
            if self.settings.round_pause <= 0:
                return self._start_round(now, passed)
            self.phase, self.deadline = Phase.BETWEEN, now + self.settings.round_pause
            return [self._turn_changed(passed, self.version)]
        return self._begin_turn(now, passed)

    def _start_round(self, now: float, passed: str | None = None) -> list[MatchEvent]:
        self.round += 1
        self.phase = Phase.PLAYING
        build = run(NEW_ROUND, self._build(()))
        self.version += 1
        return [
            BoardChanged(tuple(build.wire), "round", self.words_left, self.version),
            *self._begin_turn(now, passed),
        ]

    def _begin_turn(self, now: float, passed: str | None = None) -> list[MatchEvent]:
        self.turn = self.order.pop().seat
        self.turn_no += 1
        seconds = self.settings.turn_seconds
        self.deadline = None if seconds is None else now + seconds
        return [self._turn_changed(passed, self.version)]

    def _turn_changed(self, passed: str | None, version: int) -> TurnChanged:
        return TurnChanged(
            self.turn, self.round, self.deadline, self.phase.value, self.turn_no, passed, version
        )

    def _build(self, used: Sequence[Pos]) -> Build:
        # The board is about to change: let the last search go now rather than at the next one.
        # Hundreds of matches each holding a stale search kept the garbage collector's young
        # passes scanning ~100,000 objects (12-40 ms pauses for every room; docs/benchmarks-log.md, "Rooms").
        self._solved = None
        return Build(
            self.board,
            self.specials,
            self.words,
            self.settings,
            self.draws,
            self.round,
            self.min_words,
            list(used),
        )

    # -- the chain ---------------------------------------------------------------------------

    def _drop_chain(self) -> list[MatchEvent]:
        if not self._chain:
            return []
        self._chain.clear()
        return [self.chain_moved()]

    def chain_moved(self) -> ChainMoved:
        """The chain as everyone sees it: its tiles, word, points so far and status."""
        chain = self._chain
        tiles = chain.tiles
        word = chain.word(self.board)
        return ChainMoved(
            self.turn, tiles, word, self.path_score(tiles).points, chain.status.value, self.version
        )

    # -- the state as data ------------------------------------------------------------------

    def to_doc(self) -> dict[str, Any]:
        return {
            "format": DOC_FORMAT,
            "kind": "match",
            "wordlist": self.words.name,
            "wordlist_digest": self.digest,
            "size": self.board.size,
            "min_words": self.min_words,
            "seed": self.draws.seed,
            "draws": self.draws.position,
            "bot_draws": self.bot_draws.position,
            "settings": self.settings.to_doc(),
            "board": "".join(letter.symbol for row in self.board.rows() for letter in row),
            **self.specials.to_doc(),
            "words_left": self.words_left,
            "seats": [seat.to_doc() for seat in self.seats],
            "round": self.round,
            "turn": self.turn,
            "turn_no": self.turn_no,
            "phase": self.phase.value,
            "deadline": self.deadline,
            "chain": path_doc(self._chain.tiles),
            "history": list(self.history),  # entries never change once written; the list grows
            "version": self.version,
            **({} if self.hinted is None else {"hinted": self.hinted}),  # (older documents have none)
        }
