"""The rules of Wibble, as plain Python.

The endless game is ``game``; a match (rounds, turns, multipliers, gems, bots) is
the ``match`` package, built from the same parts plus ``scoring`` (the one scoring
function), ``turns`` (turn order, a min-heap), ``schedule`` (every deadline, a
priority queue with a position map) and ``shuffle`` (Fisher-Yates).

This package cannot do any I/O: no Flask, no sockets, no files, no clock and no
global random. Randomness is a ``Draws`` (a seed and a counter) kept in the game's state; word lists
arrive as lines of text. That keeps every rule testable and every game replayable
from its seed. ``wibble.live`` and ``wibble.web`` put it on the network.
"""

from .board import SIZE, Board, Pos, path_doc
from .chain import Chain, Status
from .dictionary import Trie
from .draws import Draws
from .errors import GameDataError, ProtocolError, RuleError, WibbleError, WordListError
from .game import SPRINT_SECONDS, ChainChanged, Event, Game, Phase, Result, TilesReplaced, TimeUp, WordJudged
from .hashing import FoundWords, HashParams, RollingHash
from .letters import Letter, LetterSampler, LetterTable
from .record import Move, Record, RecordError, TimeUpMove, differences, replay
from .schedule import Scheduler
from .scoring import Score, Step, TileValue, score
from .shuffle import permutation, shuffle
from .solver import Found, count_words, solve
from .turns import Turn, TurnOrder
from .wordlist import CLASSIC, WordList, build_word_list, parse_words

__all__ = [
    "SIZE",
    "SPRINT_SECONDS",
    "Board",
    "Chain",
    "ChainChanged",
    "Draws",
    "Event",
    "Found",
    "FoundWords",
    "GameDataError",
    "Game",
    "HashParams",
    "Letter",
    "LetterSampler",
    "LetterTable",
    "Move",
    "Phase",
    "Pos",
    "path_doc",
    "ProtocolError",
    "Record",
    "RecordError",
    "Result",
    "RollingHash",
    "RuleError",
    "Scheduler",
    "Score",
    "Step",
    "TileValue",
    "Turn",
    "TurnOrder",
    "Status",
    "TilesReplaced",
    "TimeUp",
    "TimeUpMove",
    "Trie",
    "WibbleError",
    "WordJudged",
    "CLASSIC",
    "WordList",
    "WordListError",
    "build_word_list",
    "count_words",
    "differences",
    "parse_words",
    "permutation",
    "replay",
    "score",
    "shuffle",
    "solve",
]
