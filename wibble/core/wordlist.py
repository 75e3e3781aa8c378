"""Word lists: parsing the words, reading their settings, deriving what is missing.

Pure: it takes lines and a settings mapping, never paths, so the same rules apply
whether the text came from ``words/`` or a test. ``wibble.wordlists`` does the I/O.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from .dictionary import Trie
from .errors import WordListError
from .letters import Letter, LetterTable, distinct_faces

DEFAULT_MIN_LENGTH = 3
MAX_WORD_LENGTH = 25  # a chain visits each of the 25 tiles at most once
MAX_SCORE = 10
CLASSIC = "classic"
"""The name of a list's own scores (its ``[letters]``, or those derived); a named table replaces them."""
TABLE_NAME = re.compile(r"[a-z][a-z0-9_-]{0,19}")


def normalise(text: str) -> str:
    """Words and letters compare in NFC lower case, so 'Ñ' typed either way is one letter."""
    return unicodedata.normalize("NFC", text.strip().lower())


def _not_a_letter(raw: str, bad: str) -> str:
    """Why the word ``raw`` (as written) is refused for ``bad``, a character of its lower case."""
    # A capital whose lower case is two characters (Turkish İ: i and a combining dot) shows the
    # dot only after lower-casing: name the capital the host wrote.
    capital = next((ch for ch in raw if ch != bad and bad in unicodedata.normalize("NFC", ch.lower())), None)
    if capital is not None:
        return (
            f"{raw!r} has {capital!r}, whose lower case is more than one letter: write the word in lower case"
        )
    if unicodedata.category(bad).startswith("M"):
        return (
            f"{raw!r} has the combining mark {bad!r} (U+{ord(bad):04X}): each tile is one letter, "
            "and such a mark is not one on its own"
        )
    return f"{raw!r} has {bad!r}, which is not a letter"


SHOWN_LINES = 10
"""Bad lines of a list named by number beyond the first (which is described), before "..."."""


def parse_words(text: str, source: str) -> list[str]:
    """Words from one-word-per-line text; blank lines are skipped, anything else odd is an error."""
    # Whole-text operations run in C; the line-by-line loop below only runs to name a bad line.
    lines = unicodedata.normalize("NFC", text.lower()).split("\n")
    words = [word for word in map(str.strip, lines) if word]
    if words and not "".join(words).isalpha():
        # Every bad line is counted, so that a host mends them in one go (the first is described).
        wrong = [n for n, line in enumerate(lines, start=1) if (word := line.strip()) and not word.isalpha()]
        first = wrong[0]
        word = lines[first - 1].strip()
        bad = next(ch for ch in word if not ch.isalpha())
        message = _not_a_letter(text.split("\n")[first - 1].strip(), bad)
        if len(wrong) > 1:
            more = wrong[1:]
            shown = ", ".join(map(str, more[:SHOWN_LINES])) + (", ..." if len(more) > SHOWN_LINES else "")
            message += f" (and {len(more)} more line{'s' if len(more) > 1 else ''} like it: {shown})"
        raise WordListError(source, message, first)
    # Longer words cannot be spelled on the board; skipping them keeps the trie smaller.
    words = [word for word in words if len(word) <= MAX_WORD_LENGTH]
    if not words:
        raise WordListError(source, "has no words")
    return words


CHANGED_IN_PLAY = "changed-in-play"
"""The list digest a game or match records once its list changed while it was played: its moves
were judged by two versions of the list, so no one version replays it (``record/wordlist_changed``)."""


def digest_in_play(recorded: object, words: WordList) -> str:
    """The digest a saved game or match goes on recording once restored with ``words``: the one it
    recorded if that is still the list's, else ``CHANGED_IN_PLAY``."""
    return words.digest if recorded == words.digest else CHANGED_IN_PLAY


@dataclass(frozen=True)
class WordList:
    """A playable list: its words as a trie, its letters, and how it is shown."""

    name: str
    title: str
    language: str
    min_length: int
    letters: LetterTable
    trie: Trie
    digest: str = ""
    """SHA-256 (hex) of the list's words and settings as read; a saved game names the exact list it used.

    With a named value table applied (``with_values``), the digest covers that table too."""
    tables: Mapping[str, Mapping[str, int]] = field(default_factory=dict, compare=False, repr=False)
    """Named value tables (``[values.NAME]``): each gives every tile a score in place of its own."""
    values: str = CLASSIC
    """Which scores the letters carry: ``classic`` (the list's own) or a name of ``tables``."""

    def with_values(self, name: str) -> WordList:
        """This list with the letters scored by table ``name`` (``classic``: the list's own scores).

        Raises ``KeyError`` if the list has no such table. The result's digest names the
        table and its scores, so a record is only replayed with the values it was played with.
        """
        if name == self.values:
            return self
        if self.values != CLASSIC:
            raise ValueError(f"the list already plays with the {self.values!r} values")
        scores = self.tables[name]
        letters = LetterTable(replace(letter, score=scores[letter.symbol]) for letter in self.letters)
        table = json.dumps(sorted(scores.items()), ensure_ascii=False)
        digest = hashlib.sha256(f"{self.digest}\nvalues.{name}\n{table}".encode()).hexdigest()
        return replace(self, letters=letters, digest=digest, values=name)

    def values_for(self, name: str) -> str:
        """``name`` if the list has that table, else ``classic``: a list without it plays its own values."""
        return name if name == CLASSIC or name in self.tables else CLASSIC


def letter_counts(words: Iterable[str]) -> Counter[str]:
    return Counter("".join(words))


def derived_score(count: int, most: int, least: int) -> int:
    """1 for the commonest letter up to 10 for the rarest, on a log scale (as tile games do)."""
    if most == least:
        return 1
    span = math.log(most) - math.log(least)
    return 1 + round((math.log(most) - math.log(count)) / span * (MAX_SCORE - 1))


def _derived(symbol: str, counts: Mapping[str, int], most: int, least: int, total: int) -> tuple[int, float]:
    """The score and weight a letter gets from how often it appears in the words."""
    count = counts.get(symbol, 0)
    return derived_score(max(count, 1), most, min(least, max(count, 1))), 100.0 * count / total


def _letter(
    key: Any, symbol: str, entry: Any, derive: Callable[[str], tuple[int, float]], source: str
) -> Letter:
    """One letter from its settings entry, with whatever it leaves out derived."""
    if not isinstance(entry, Mapping):
        raise WordListError(source, f"letter {key!r} must be a table with score and/or weight")
    unknown = sorted(set(entry) - {"score", "weight"})
    if unknown:
        raise WordListError(source, f"letter {key!r}: unknown setting {unknown[0]!r} (known: score, weight)")
    score, weight = derive(symbol)
    score = entry.get("score", score)
    weight = entry.get("weight", weight)
    if isinstance(score, bool) or not isinstance(score, int) or not 0 <= score <= 100:
        raise WordListError(source, f"letter {key!r}: score must be a whole number 0-100")
    if (
        isinstance(weight, bool)
        or not isinstance(weight, int | float)
        or not (math.isfinite(weight) and weight >= 0)
    ):
        raise WordListError(source, f"letter {key!r}: weight must be a number >= 0")
    return Letter(symbol, score, float(weight))


def build_letters(counts: Mapping[str, int], settings: Mapping[str, Any], source: str) -> LetterTable:
    """Letters from the settings' ``letters`` table; whatever it leaves out is derived from letter counts."""
    table = settings.get("letters")
    if table is None:
        symbols = sorted(counts)
        table = {}
    else:
        if not isinstance(table, Mapping) or not table:
            raise WordListError(source, "'letters' must be a non-empty table of letters")
        symbols = []
        for key in table:
            symbol = normalise(str(key))
            if len(symbol) != 1 or not symbol.isalpha():
                raise WordListError(source, f"letter {key!r} must be a single letter")
            if symbol in symbols:
                raise WordListError(source, f"letter {key!r} is listed twice")
            symbols.append(symbol)
    present = [counts.get(s, 0) for s in symbols if counts.get(s, 0) > 0] or [1]
    most, least = max(present), min(present)
    total = sum(counts.get(s, 0) for s in symbols) or 1
    derive = partial(_derived, counts=counts, most=most, least=least, total=total)
    letters = [
        _letter(key, symbol, table.get(key, {}) if table else {}, derive, source)
        for key, symbol in zip(table or symbols, symbols, strict=True)
    ]
    if not any(letter.weight > 0 for letter in letters):
        raise WordListError(source, "no letter has a positive weight")
    if not math.isfinite(sum(letter.weight for letter in letters)):
        raise WordListError(source, "the weights add up to more than a number can hold; use smaller ones")
    faces = distinct_faces(letter.symbol for letter in letters)
    return LetterTable(replace(letter, face=faces[letter.symbol]) for letter in letters)


def left_out(words: WordList) -> tuple[list[str], float]:
    """The letters the list's words use that its settings' ``[letters]`` leave out (no tile ever
    shows them, so no word holding one can be played), and their share of all its words' letters."""
    counts = words.trie.letter_counts
    missing = sorted(symbol for symbol in counts if symbol not in words.letters)
    total = sum(counts.values()) or 1
    return missing, sum(counts[symbol] for symbol in missing) / total


def left_out_warning(words: WordList) -> str | None:
    """What a host is told of the letters ``left_out`` of ``words``'s tiles, if any."""
    missing, share = left_out(words)
    if not missing:
        return None
    return (
        f"its [letters] leave out {', '.join(missing)} ({share:.0%} of its words' letters): "
        "no tile shows them, so no word holding one can ever be played"
    )


def scoring_warning(words: WordList, floor: int) -> str | None:
    """What a host is told when few of ``words``'s words can ever score: shorter than its
    ``min_length``, or longer than a board has tiles. A board is drawn again (up to ``MAX_DRAWS``
    times) until it holds ``floor`` words, which a list of fewer scoring words can never give.
    Reads every word: for ``wibble wordlists``, not for each load."""
    scoring = sum(1 for word in words.trie if words.min_length <= len(word) <= MAX_WORD_LENGTH)
    if scoring == 0:
        return f"none of its words has {words.min_length} letters or more (min_length): no word can score"
    if scoring < floor:
        return (
            f"only {scoring} of its words can score, fewer than the {floor} every board is drawn to "
            "hold (--min-words): its boards hold fewer, and each is drawn several times"
        )
    return None


def build_tables(letters: LetterTable, settings: Mapping[str, Any], source: str) -> dict[str, dict[str, int]]:
    """The settings' named value tables (``[values.NAME]``), each a score for every tile of ``letters``."""
    tables = settings.get("values", {})
    if not isinstance(tables, Mapping):
        raise WordListError(source, "'values' must hold tables, each written [values.NAME]")
    result: dict[str, dict[str, int]] = {}
    for name, table in tables.items():
        if name == CLASSIC or not TABLE_NAME.fullmatch(name):
            raise WordListError(
                source,
                f"value table {name!r}: a name is 1-20 lower-case letters, digits, - or _, "
                f"starting with a letter, and not {CLASSIC!r}",
            )
        if not isinstance(table, Mapping):
            raise WordListError(source, f"value table {name!r} must be a table of letter = score")
        scores: dict[str, int] = {}
        for key, score in table.items():
            symbol = normalise(str(key))
            if symbol not in letters:
                raise WordListError(source, f"value table {name!r}: {key!r} is not one of the list's tiles")
            if symbol in scores:
                raise WordListError(source, f"value table {name!r}: letter {key!r} is listed twice")
            if isinstance(score, bool) or not isinstance(score, int) or not 0 <= score <= 100:
                raise WordListError(source, f"value table {name!r}: {key!r} must score a whole number 0-100")
            scores[symbol] = score
        missing = [letter.face for letter in letters if letter.symbol not in scores]
        if missing:
            raise WordListError(source, f"value table {name!r} gives no score for {', '.join(missing)}")
        result[name] = scores
    return result


def build_word_list(
    name: str, words: Trie | Iterable[str], settings: Mapping[str, Any], source: str, digest: str = ""
) -> WordList:
    """Check the settings and build the trie (unless given one); every error names ``source``."""
    allowed = {"title", "language", "min_length", "letters", "values"}
    unknown = sorted(set(settings) - allowed)
    if unknown:
        raise WordListError(source, f"unknown setting {unknown[0]!r} (known: {sorted(allowed)})")
    title = settings.get("title", name)
    language = settings.get("language", "")
    min_length = settings.get("min_length", DEFAULT_MIN_LENGTH)
    if not isinstance(title, str) or not isinstance(language, str):
        raise WordListError(source, "title and language must be text")
    if (
        isinstance(min_length, bool)
        or not isinstance(min_length, int)
        or not (1 <= min_length <= MAX_WORD_LENGTH)
    ):
        raise WordListError(source, f"min_length must be a whole number 1-{MAX_WORD_LENGTH}")
    trie = words if isinstance(words, Trie) else Trie(words)
    letters = build_letters(trie.letter_counts, settings, source)
    tables = build_tables(letters, settings, source)
    return WordList(name, title, language, min_length, letters, trie, digest, tables)
