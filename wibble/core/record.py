"""A game's record: how it began and every committed move, enough to play it again exactly.

A game is determined by its word list, its seed, its settings and the paths its
player released, in order: ``replay`` rebuilds it from those alone, checking at
every move that the verdict, points, total and version come out as recorded, and
``differences`` compares where it ends with where the original stood. The record
names its list by content (``WordList.digest``), so it is never replayed against
a list that changed since.

A sprint's record also says how long its clock was (``settings.sprint``), and ends
with a move ``{"version", "time_up": true, "total"}`` once the clock ran out (with
``"early": true`` when its player ended it first): a committed change like a word, without
tiles. A record without either is an untimed game's, as every record was before sprints,
and replays exactly as it did.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .board import Pos, path_doc
from .draws import Draws
from .errors import WibbleError
from .game import Game, Result, WordJudged
from .hashing import DEFAULT_MODULI, HashParams
from .wordlist import CHANGED_IN_PLAY, WordList

RECORD_FORMAT = 1

MAX_SIZE = 10
"""The largest board a record may ask for: games are 5x5, and a replay must stay cheap."""

# Replays never meet an adversary (the record is fixed), so any valid bases will do.
_REPLAY_HASH = HashParams(DEFAULT_MODULI, (131, 137))

# What a record keeps of the final state, to compare a replay against.
FINAL_FIELDS = ("board", "total", "version", "draws", "words_left", "found")


class RecordError(WibbleError):
    """A record that cannot be replayed, or that a replay does not reproduce."""

    def __init__(self, code: str, message: str, move: int | None = None) -> None:
        super().__init__(code, message if move is None else f"move {move}: {message}")
        self.move = move


def check_list(kind: str, name: str, recorded: str, words: WordList) -> None:
    """``record/wordlist_changed`` unless ``words`` is the version of the list the ``kind`` (a game or
    a match) was played with."""
    if (name, recorded) == (words.name, words.digest):
        return
    if recorded == CHANGED_IN_PLAY:
        raise RecordError(
            "record/wordlist_changed",
            f"the list {name!r} changed while the {kind} was being played, so no one version of it "
            f"replays the {kind}",
        )
    raise RecordError(
        "record/wordlist_changed",
        f"the {kind} was played with another version of the list {name!r} "
        f"(recorded {recorded[:12]}, this one is {words.digest[:12]}); "
        f"replaying it would not reproduce the {kind}",
    )


def shown(value: Any) -> str:
    """A recorded value as a mismatch names it: an enum by its value (``'scored'``, not ``<Result...>``)."""
    return repr(value.value if isinstance(value, Enum) else value)


@dataclass(frozen=True, slots=True)
class Move:
    """One released chain and its verdict; ``version`` and ``total`` are the game's after it."""

    version: int
    path: tuple[Pos, ...]
    word: str
    result: Result
    points: int
    total: int

    @classmethod
    def of(cls, path: tuple[Pos, ...], judged: WordJudged) -> Move:
        return cls(judged.version, path, judged.word, judged.result, judged.points, judged.total)

    def to_doc(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "path": path_doc(self.path),
            "word": self.word,
            "result": self.result.value,
            "points": self.points,
            "total": self.total,
        }

    @classmethod
    def from_doc(cls, doc: Any, index: int) -> Move:
        try:
            path = tuple(Pos(r, c) for r, c in doc["path"])
            ints = [doc[name] for name in ("version", "points", "total")]
            ints += [n for pos in path for n in (pos.row, pos.col)]
            if not all(type(v) is int for v in ints) or not isinstance(doc["word"], str):
                raise TypeError
            return cls(ints[0], path, doc["word"], Result(doc["result"]), ints[1], ints[2])
        except (KeyError, TypeError, ValueError):
            raise RecordError("record/invalid", "not a move of a Wibble record", index) from None


@dataclass(frozen=True, slots=True)
class TimeUpMove:
    """A sprint's clock ran out: the game ended at ``total``, as version ``version``; ``early``:
    its player ended it before its deadline (it replays the same: the end, at that move)."""

    version: int
    total: int
    early: bool = False

    def to_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"version": self.version, "time_up": True, "total": self.total}
        if self.early:
            doc["early"] = True
        return doc

    @classmethod
    def from_doc(cls, doc: Any, index: int) -> TimeUpMove:
        try:
            version, total = doc["version"], doc["total"]
            if doc["time_up"] is not True or type(version) is not int or type(total) is not int:
                raise TypeError
            return cls(version, total, doc.get("early") is True)
        except (KeyError, TypeError):
            raise RecordError("record/invalid", "not a move of a Wibble record", index) from None


def _move_of(doc: Any, index: int) -> Move | TimeUpMove:
    if isinstance(doc, dict) and "time_up" in doc:
        return TimeUpMove.from_doc(doc, index)
    return Move.from_doc(doc, index)


@dataclass(frozen=True)
class Record:
    game_id: str
    wordlist: str
    wordlist_digest: str
    seed: int
    size: int
    min_words: int
    moves: tuple[Move | TimeUpMove, ...]
    final: dict[str, Any]
    sprint: int | None = None
    """A sprint's clock in seconds; None: untimed."""

    @classmethod
    def of(cls, game_id: str, doc: Mapping[str, Any], moves: list[Any]) -> Record:
        """The record of a game from its document (``Game.to_doc``) and its stored moves so far.

        The result passes the same checks as a record read from a file, so a damaged
        document or move raises ``RecordError`` here rather than failing in a replay.
        """
        try:
            final = {name: doc[name] for name in FINAL_FIELDS}
            return cls.from_doc(
                {
                    "format": RECORD_FORMAT,
                    "game_id": game_id,
                    "wordlist": {"name": doc["wordlist"], "digest": doc["wordlist_digest"]},
                    "seed": doc["seed"],
                    "settings": _settings(doc["size"], doc["min_words"], doc.get("sprint")),
                    "moves": moves,
                    "final": final,
                }
            )
        except (KeyError, TypeError):
            raise RecordError("record/invalid", "this game's document is damaged") from None

    def to_doc(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game_id": self.game_id,
            "wordlist": {"name": self.wordlist, "digest": self.wordlist_digest},
            "seed": self.seed,
            "settings": _settings(self.size, self.min_words, self.sprint),
            "moves": [move.to_doc() for move in self.moves],
            "final": self.final,
        }

    @classmethod
    def from_doc(cls, doc: Any) -> Record:
        """A record read from JSON; ``RecordError`` if it is not one."""
        try:
            if doc["format"] != RECORD_FORMAT:
                raise RecordError("record/invalid", f"record format {doc['format']!r} is not {RECORD_FORMAT}")
            wordlist, settings = doc["wordlist"], doc["settings"]
            numbers = [doc["seed"], settings["size"], settings["min_words"]]
            texts = [doc["game_id"], wordlist["name"], wordlist["digest"]]
            if not all(type(v) is int for v in numbers) or not all(isinstance(t, str) for t in texts):
                raise TypeError
            seed, size, min_words = numbers
            if not (0 <= seed < 1 << 64 and 1 <= size <= MAX_SIZE and min_words >= 0):
                raise TypeError
            sprint = settings.get("sprint")
            if not (sprint is None or (type(sprint) is int and sprint > 0)):
                raise TypeError
            final = doc["final"]
            if not isinstance(final, dict) or set(FINAL_FIELDS) - set(final):
                raise TypeError
            moves = tuple(_move_of(move, i + 1) for i, move in enumerate(doc["moves"]))
            if any(isinstance(move, TimeUpMove) for move in moves[:-1]) or (
                sprint is None and moves and isinstance(moves[-1], TimeUpMove)
            ):
                raise RecordError("record/invalid", "only a sprint's last move can be its clock running out")
        except (KeyError, TypeError, IndexError, AttributeError):
            raise RecordError("record/invalid", "this is not a Wibble game record") from None
        return cls(texts[0], texts[1], texts[2], numbers[0], numbers[1], numbers[2], moves, final, sprint)


def _settings(size: int, min_words: int, sprint: int | None) -> dict[str, Any]:
    settings: dict[str, Any] = {"size": size, "min_words": min_words}
    if sprint is not None:
        settings["sprint"] = sprint
    return settings


def replay(record: Record, words: WordList, each: Callable[[Game, Move], None] | None = None) -> Game:
    """Play ``record`` again with ``words``; ``each(game, move)`` sees the game before every move.

    Raises ``RecordError`` if the list is not the one the game was played with, or
    if a move does not come out as recorded (the message names the move and how).
    """
    check_list("game", record.wordlist, record.wordlist_digest, words)
    # A replay has no clock: a sprint's deadline is put at the epoch, and its end comes
    # exactly where the record says the clock ran out.
    deadline = None if record.sprint is None else 0.0
    try:
        game = Game(
            words, Draws(record.seed), _REPLAY_HASH, record.size, record.min_words, record.sprint, deadline
        )
    except ValueError as exc:
        raise RecordError("record/invalid", str(exc)) from None
    for number, move in enumerate(record.moves, start=1):
        if isinstance(move, TimeUpMove):
            ended = game.time_up(float("inf"))
            if not ended or (game.version, game.total) != (move.version, move.total):
                raise RecordError(
                    "record/mismatch",
                    f"the clock ran out at version {move.version} with {move.total} points, "
                    f"but the replay is at version {game.version} with {game.total}",
                    number,
                )
            continue
        if each is not None:
            each(game, move)
        if not move.path:
            raise RecordError("record/mismatch", "a move with no tiles", number)
        try:
            game.press(move.path[0])
            for pos in move.path[1:]:
                game.enter(pos)
            judged = game.release()[0]
            game.clean_up()
        except WibbleError as exc:
            raise RecordError(
                "record/mismatch", f"its path cannot be played ({exc.message})", number
            ) from None
        assert isinstance(judged, WordJudged)
        got = Move.of(move.path, judged)
        if got != move:
            field, want, have = next(
                (name, getattr(move, name), getattr(got, name))
                for name in ("word", "result", "points", "total", "version")
                if getattr(move, name) != getattr(got, name)
            )
            raise RecordError(
                "record/mismatch", f"{field} was {shown(want)} but the replay gives {shown(have)}", number
            )
    return game


def differences(game: Game, final: Mapping[str, Any]) -> str | None:
    """The first way ``game`` differs from a record's final state, or None if it matches."""
    doc = game.to_doc()
    for name in FINAL_FIELDS:
        if doc[name] != final.get(name):
            return f"final {name}: recorded {final.get(name)!r}, replay gives {doc[name]!r}"
    return None
