"""Definitions: what a word means, as a player sees it when they tap a word the page shows.

Pure: the rules that turn an inflected form into its headword (WordNet's "morphy"), how a
gloss is cut to a short sense, which meanings a word shows, and the format of a host's own
definitions file. Reading WordNet's files and keeping the compiled book are the edges'
(``wibble.wordnet``, ``wibble.definitions``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from .errors import WordListError

PARTS_OF_SPEECH = ("noun", "verb", "adjective", "adverb")
"""WordNet's four, in the order a tie is shown."""

MAX_MEANINGS = 2
"""Parts of speech a word shows at most: a short answer, not a dictionary page."""
MAX_SENSES = 2
"""Senses shown of a word's first part of speech; the second shows one."""

MIN_RULE_BASE = 3
"""The shortest headword an ending's rule may give (irregular forms are listed, so kept)."""

MAX_POS_LENGTH = 24
MAX_SENSE_LENGTH = 300
"""What a host's file may hold in one line's fields (a sense longer than a tweet is a page)."""

# WordNet's detachment rules (morphy(7WN)): an ending that an inflection adds, and what it
# replaces. Tried in this order, each only where the result is a word of that part of speech.
DETACHMENTS: Mapping[str, tuple[tuple[str, str], ...]] = {
    "noun": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "verb": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "adjective": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "adverb": (),
}


@dataclass(frozen=True, slots=True)
class Meaning:
    """One part of speech of a word: its headword (``run`` for RAN) and its first senses."""

    pos: str
    lemma: str
    senses: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"pos": self.pos, "lemma": self.lemma, "senses": list(self.senses)}


@dataclass(frozen=True, slots=True)
class Answer:
    """What a player asking for ``word`` of list ``wordlist`` is told."""

    word: str
    wordlist: str
    source: str | None
    """Where the meanings come from (WordNet, or the host's file), or were looked for; None: this
    list has no definitions at all."""
    meanings: tuple[Meaning, ...]


def base_forms(
    word: str,
    pos: str,
    exceptions: Mapping[str, tuple[str, ...]],
    known: Callable[[str], bool],
) -> list[str]:
    """The headwords ``word`` may be a form of, as ``pos``: itself if it is one, its irregular
    bases (``exceptions``: RAN → RUN, GEESE → GOOSE), then what the detachment rules give,
    each only if ``known`` (a headword of that part of speech), without repeats. A word of the
    list that is also a headword shows its own meaning: WordNet lists RUNNING as a noun too."""
    found: list[str] = []

    def keep(candidate: str) -> None:
        if candidate and candidate not in found and known(candidate):
            found.append(candidate)

    keep(word)
    for base in exceptions.get(word, ()):
        keep(base)
    for ending, replacement in DETACHMENTS.get(pos, ()):
        base = word[: -len(ending)] + replacement
        # A base of one or two letters is an abbreviation (WAS is not a plural of WA).
        if word.endswith(ending) and len(base) >= MIN_RULE_BASE:
            keep(base)
    return found


def short_sense(gloss: str) -> str:
    """A WordNet gloss without its quoted examples: ``move fast; "he ran"`` → ``move fast``."""
    text = gloss.strip()
    cut = text.find('"')
    if cut >= 0:
        text = text[:cut]
    text = text.strip().rstrip(";").strip()
    # A few glosses are only examples or end mid-parenthesis; keep what reads as a sense.
    return text if text else gloss.strip().strip('"').strip()


def shown(meanings: Iterable[tuple[Meaning, int]]) -> list[Meaning]:
    """The meanings a word shows: the commonest first (by how often its senses are met in
    WordNet's tagged texts, then in the order of ``PARTS_OF_SPEECH``), at most ``MAX_MEANINGS``,
    the first with ``MAX_SENSES`` senses and the rest with one."""
    ranked = sorted(meanings, key=lambda item: -item[1])  # sorted() is stable: ties keep their order
    result: list[Meaning] = []
    for at, (meaning, _) in enumerate(ranked[:MAX_MEANINGS]):
        keep = MAX_SENSES if at == 0 else 1
        result.append(Meaning(meaning.pos, meaning.lemma, meaning.senses[:keep]))
    return result


def _word(text: str) -> str:
    return unicodedata.normalize("NFC", text.strip().lower())


def parse_definitions(text: str, source: str, is_word: Callable[[str], bool]) -> dict[str, list[Meaning]]:
    """A host's definitions file: one sense a line, three fields apart by a TAB.

    ``word<TAB>part of speech<TAB>sense`` gives ``word`` a sense (several lines, several senses;
    the parts of speech are shown in the order they first appear), ``word<TAB>=<TAB>headword``
    shows ``headword``'s definitions for ``word`` (an inflected form). Blank lines and lines
    starting with ``#`` are skipped. Every word must be one of the list's (``is_word``); a
    problem raises ``WordListError`` naming the file and line.
    """
    senses: dict[str, dict[str, list[str]]] = {}
    forms: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        word, pos, sense = _fields(line, source, number, is_word)
        if (word in senses and pos == "=") or (word in forms and pos != "="):
            raise WordListError(source, f"{word!r} is both a headword and a form of one", number)
        if pos == "=":
            forms[word] = (sense, number)
        else:
            senses.setdefault(word, {}).setdefault(pos, []).append(sense)
    book = {
        word: [Meaning(pos, word, tuple(found)) for pos, found in by_pos.items()]
        for word, by_pos in senses.items()
    }
    for word, (target, number) in forms.items():
        if target not in book:
            raise WordListError(
                source, f"{word!r} points at {target!r}, which has no senses in this file", number
            )
        book[word] = book[target]
    if not book:
        raise WordListError(source, "has no definitions")
    return book


def _fields(line: str, source: str, number: int, is_word: Callable[[str], bool]) -> tuple[str, str, str]:
    """One line's word, part of speech (``=`` for a form of another word) and sense (or headword)."""
    fields = line.split("\t")
    if len(fields) != 3:
        raise WordListError(
            source, f"has {len(fields)} field(s); write word, part of speech and sense apart by a TAB", number
        )
    word, pos, sense = _word(fields[0]), fields[1].strip(), " ".join(fields[2].split())
    if not word.isalpha():
        raise WordListError(source, f"{fields[0].strip()!r} is not a word (letters only)", number)
    if not is_word(word):
        raise WordListError(source, f"{word!r} is not a word of the list", number)
    if pos == "=":
        target = _word(sense)
        if not target.isalpha():
            raise WordListError(source, f"{sense!r} is not a word to point {word!r} at", number)
        return word, pos, target
    if not 0 < len(pos) <= MAX_POS_LENGTH or not pos.isprintable():
        raise WordListError(source, f"a part of speech is 1-{MAX_POS_LENGTH} characters, not {pos!r}", number)
    if not 0 < len(sense) <= MAX_SENSE_LENGTH or not sense.isprintable():
        raise WordListError(source, f"a sense is 1-{MAX_SENSE_LENGTH} printable characters", number)
    return word, pos, sense
