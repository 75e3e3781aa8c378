"""The rules of Wibble, as plain Python.

This package cannot do any I/O: no Flask, no sockets, no files, no clock and no
global random. Randomness arrives as an injected ``random.Random``; word lists
arrive as lines of text. That keeps every rule testable and every game replayable
from its seed. ``wibble.sessions`` and ``wibble.web`` put it on the network.
"""

from .board import SIZE, Board, Pos
from .dictionary import Trie
from .errors import ProtocolError, RuleError, WibbleError, WordListError
from .game import ChainChanged, Event, Game, Phase, Result, Status, TilesReplaced, WordJudged
from .hashing import FoundWords, HashParams, RollingHash
from .letters import Letter, LetterSampler, LetterTable
from .solver import Found, count_words, solve
from .wordlist import WordList, build_word_list, parse_words

__all__ = [
    "SIZE",
    "Board",
    "ChainChanged",
    "Event",
    "Found",
    "FoundWords",
    "Game",
    "HashParams",
    "Letter",
    "LetterSampler",
    "LetterTable",
    "Phase",
    "Pos",
    "ProtocolError",
    "Result",
    "RollingHash",
    "RuleError",
    "Status",
    "TilesReplaced",
    "Trie",
    "WibbleError",
    "WordJudged",
    "WordList",
    "WordListError",
    "build_word_list",
    "count_words",
    "parse_words",
    "solve",
]
