"""Helpers the match tests share: a match on a shipped list, moves as data, refusals that change nothing,
and a match recorded as the server records it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest

from tests.support import shipped_list
from wibble.core import Pos, RuleError, WordList, build_word_list
from wibble.core.match import Match, MatchEvent, Seat, Settings
from wibble.core.match import restore as restore_match
from wibble.engines.store import MemoryStore
from wibble.live.matches.moves import move_doc
from wibble.live.records import match_record

P = Pos
NOW = 1_000.0
"""The clock when a test's match starts (seconds; any number will do, time only ever comes in as data)."""

E = TypeVar("E")


def humans(*speeds: int) -> list[Seat]:
    """Fresh human seats, one per speed (two of speed 1 by default).

    Always fresh: a ``Match`` keeps the ``Seat`` objects it is given and writes their
    scores, gems and keys, so two matches must never share them."""
    return [Seat(f"player {i}", "human", speed=speed) for i, speed in enumerate(speeds or (1, 1))]


def new_match(
    seed: int = 1,
    *,
    seats: Sequence[Seat] | None = None,
    words: WordList | None = None,
    now: float = NOW,
    min_words: int = 0,
    **settings: Any,
) -> Match:
    """A match on the shipped English list; ``settings`` are ``Settings`` fields (Spellcast's by default)."""
    return Match(
        words or shipped_list("en"),
        seed,
        seats if seats is not None else humans(),
        now,
        Settings(**settings),
        min_words=min_words,
    )


def drag(match: Match, seat: int, path: Sequence[Pos]) -> list[MatchEvent]:
    events = match.press(seat, path[0])
    for pos in path[1:]:
        events += match.enter(seat, pos)
    return events


def play(match: Match, path: Sequence[Pos], now: float = NOW) -> list[MatchEvent]:
    """The seat whose turn it is drags ``path`` and lets go."""
    seat = match.turn
    return drag(match, seat, path) + match.release(seat, now)


def play_best(match: Match, now: float = NOW) -> list[MatchEvent]:
    """The seat whose turn it is plays the board's best word, as the solver finds it."""
    best = match.best()
    assert best is not None, "the board has no word"
    return play(match, best.path, now)


def saved(match: Match) -> str:
    """The match's document as JSON text: a snapshot that later play cannot change."""
    return json.dumps(match.to_doc(), sort_keys=True)


def through_json(match: Match) -> Match:
    """The match as another process finds it: its document saved as JSON text, read back, restored."""
    return restore_match(json.loads(json.dumps(match.to_doc())), match.words)


@contextmanager
def refused(match: Match, code: str) -> Iterator[None]:
    """The block must raise ``RuleError`` ``code`` and leave the match exactly as it was."""
    before = saved(match)
    with pytest.raises(RuleError) as caught:
        yield
    assert caught.value.code == code
    assert saved(match) == before


def only(events: Sequence[object], kind: type[E]) -> E:
    """The one event of type ``kind`` among ``events``."""
    found = [event for event in events if isinstance(event, kind)]
    assert len(found) == 1, f"expected one {kind.__name__} in {events}"
    return found[0]


def of_kind(events: Sequence[object], kind: type[E]) -> list[E]:
    return [event for event in events if isinstance(event, kind)]


def letters(match: Match) -> list[str]:
    """The board's letters, row by row."""
    return [letter.symbol for row in match.board.rows() for letter in row]


def pass_round(match: Match, now: float = NOW) -> None:
    """Every turn of the current round passes (then the next round starts, if there is no pause)."""
    start = match.round
    while match.round == start and match.phase.value == "playing":
        match.pass_turn(match.turn, now)


def tiny_list(name: str, words: Sequence[str], letters: dict[str, tuple[int, float]]) -> WordList:
    """A made-up list: ``letters`` maps each symbol to (score, weight); a weight of 0 is never drawn."""
    table = {symbol: {"score": score, "weight": weight} for symbol, (score, weight) in letters.items()}
    return build_word_list(name, list(words), {"letters": table}, f"{name}.toml")


def wordless_list() -> WordList:
    """A list whose boards never hold a word: only ``a`` is drawn, and the one word has no ``a``."""
    return tiny_list("wordless", ["bbb"], {"a": (1, 1.0), "b": (1, 0.0)})


MATCH_ID = "m1"


class Recorder:
    """A match saved as the live layer saves it: every change that moved its version goes into a
    ``MemoryStore`` with the move the live layer writes (``move_doc``); ``record`` is the store's
    ``match_record``, as ``/games/<id>/record`` serves it."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.store = MemoryStore()
        self.store.create(MATCH_ID, "match", {**match.to_doc(), "tokens": [None] * len(match.seats)}, NOW)

    def __call__(self, seat: int | None, action: str, apply: Callable[[], list[MatchEvent]]) -> None:
        before = self.match.version
        events = apply()
        assert self.match.version != before, f"{action} changed nothing"
        doc = {**self.match.to_doc(), "tokens": [None] * len(self.match.seats)}
        self.store.commit(MATCH_ID, before, doc, move_doc(self.match, seat, action, events), NOW)

    def play_best(self, now: float = NOW) -> None:
        match, seat = self.match, self.match.turn
        best = match.best()
        assert best is not None

        def play() -> list[MatchEvent]:
            events = match.press(seat, best.path[0])
            for pos in best.path[1:]:
                events += match.enter(seat, pos)
            return events + match.release(seat, now)

        self(seat, "play", play)

    def record(self) -> dict[str, Any]:
        """The record as ``GET /games/<id>/record`` sends it (through JSON)."""
        record = match_record(self.store, MATCH_ID)
        assert record is not None
        copied: dict[str, Any] = json.loads(json.dumps(record))
        return copied


def every_kind_of_move() -> Recorder:
    """Two seats, two timed rounds with a pause between: a word, a pass, each power, a timeout,
    a seat away (a room passes its turn), and the clock starting the next round."""
    match = new_match(
        7, seats=[Seat("Ann", "human"), Seat("Ada", "bot", "hard")], rounds=2, turn_seconds=30, start_gems=10
    )
    rec = Recorder(match)
    rec(0, "shuffle", lambda: match.shuffle(0))
    rec(0, "hint", lambda: match.hint(0))
    rec(0, "extend", lambda: match.extend(0))
    tile = Pos(0, 0)
    letter = "e" if match.board[tile].symbol != "e" else "a"
    rec(0, "swap", lambda: match.swap(0, tile, letter))
    rec.play_best()
    rec(1, "pass", lambda: match.pass_turn(1, NOW))
    assert match.phase.value == "between_rounds"
    deadline = match.deadline
    assert deadline is not None
    rec(None, "round", lambda: match.next_round(deadline))
    turn_no, deadline = match.turn_no, match.deadline
    assert deadline is not None
    rec(None, "timeout", lambda: match.timeout(turn_no, deadline))
    rec(1, "away", lambda: match.pass_turn(1, deadline))
    assert match.phase.value == "over"
    return rec
