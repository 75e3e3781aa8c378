"""Princeton WordNet's database files, read for the short definitions English lists show.

WordNet is an open lexical database of English (its licence allows redistribution: see
``words/licenses/LICENSE-WordNet.txt``). Debian packages its database as ``wordnet-base``
(``/usr/share/wordnet``); set-up installs it there. We read its documented text format
(wndb(5WN)) ourselves: NLTK's reader refuses folders outside its own data paths and expects
a ``lexnames`` file Debian's package leaves out, and ``wn`` reads only the newer XML
releases, which it downloads. Only the index, data and exception files are read.

An index line, ``lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offset...``, names
a headword's synsets in order of frequency; the data line at each byte offset ends in
``| gloss``. Lemmas are lower case with ``_`` for spaces; only one-word lemmas matter here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from .core.definitions import PARTS_OF_SPEECH, Meaning, base_forms, short_sense, shown

FOLDERS = (
    Path("/usr/share/wordnet"),  # Debian and Ubuntu: wordnet-base
    Path("/usr/local/share/wordnet"),
    Path("/usr/share/WordNet-3.0/dict"),
    Path("/opt/homebrew/share/wordnet/dict"),
    Path("/usr/local/share/WordNet-3.0/dict"),
)
"""Where WordNet's database is usually installed, tried in order after ``WIBBLE_WORDNET_DIR``."""
SETTING = "WIBBLE_WORDNET_DIR"

_SUFFIX = {"noun": "noun", "verb": "verb", "adjective": "adj", "adverb": "adv"}
NAME = "WordNet 3.0"


def find(setting: str | None = None) -> Path | None:
    """WordNet's folder: ``setting`` (or ``$WIBBLE_WORDNET_DIR``) if given, else the first usual place
    that holds it; None if there is none. A setting that does not hold WordNet is an error."""
    chosen = setting if setting is not None else os.environ.get(SETTING)
    if chosen:
        folder = Path(chosen)
        if not is_wordnet(folder):
            raise FileNotFoundError(f"{folder} has no WordNet database (index.noun, data.noun, ...)")
        return folder
    return next((folder for folder in FOLDERS if is_wordnet(folder)), None)


def is_wordnet(folder: Path) -> bool:
    return all(
        (folder / f"{kind}.{suffix}").is_file() for suffix in _SUFFIX.values() for kind in ("index", "data")
    )


def fingerprint(folder: Path) -> str:
    """What changes when the database does (its files' sizes and times), for the compiled books."""
    parts = []
    for suffix in _SUFFIX.values():
        for kind in ("index", "data"):
            stat = (folder / f"{kind}.{suffix}").stat()
            parts.append(f"{stat.st_size}:{int(stat.st_mtime)}")
    return ",".join(parts)


class WordNet:
    """The database in one folder, indexes in memory, glosses read by offset when asked."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        # Per part of speech: headword -> (how often its senses are tagged, its synsets' offsets).
        self._index: dict[str, dict[str, tuple[int, tuple[int, ...]]]] = {}
        self._exceptions: dict[str, dict[str, tuple[str, ...]]] = {}
        self._data: dict[str, bytes] = {}
        for pos, suffix in _SUFFIX.items():
            self._index[pos] = dict(_read_index(folder / f"index.{suffix}"))
            self._exceptions[pos] = _read_exceptions(folder / f"{suffix}.exc")
            self._data[pos] = (folder / f"data.{suffix}").read_bytes()

    def meanings(self, word: str) -> list[Meaning]:
        """What ``word`` shows: for each part of speech it is (or is a form of) a headword of, its
        first senses; then ``shown`` keeps the commonest."""
        found: list[tuple[Meaning, int]] = []
        for pos in PARTS_OF_SPEECH:
            index = self._index[pos]
            bases = base_forms(word, pos, self._exceptions[pos], index.__contains__)
            if not bases:
                continue
            lemma = bases[0]
            tagged, offsets = index[lemma]
            senses = tuple(dict.fromkeys(self._gloss(pos, at) for at in offsets[:3]))
            found.append((Meaning(pos, lemma, senses), tagged))
        return shown(found)

    def _gloss(self, pos: str, offset: int) -> str:
        data = self._data[pos]
        end = data.find(b"\n", offset)
        line = data[offset : end if end >= 0 else len(data)].decode("utf-8", "replace")
        _, _, gloss = line.partition(" | ")
        return short_sense(gloss)


def _read_index(path: Path) -> Iterator[tuple[str, tuple[int, tuple[int, ...]]]]:
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line.startswith(" "):  # the licence, at the top of every file
                continue
            fields = line.split()
            lemma = fields[0]
            if "_" in lemma or "-" in lemma or "." in lemma:
                continue  # "ice_cream", "x-ray": no board spells them
            synsets, pointers = int(fields[2]), int(fields[3])
            tagged = int(fields[5 + pointers])
            offsets = tuple(int(offset) for offset in fields[6 + pointers : 6 + pointers + synsets])
            yield lemma, (tagged, offsets)


def _read_exceptions(path: Path) -> dict[str, tuple[str, ...]]:
    """An exception list: each irregular form, then the headwords it is a form of."""
    result: dict[str, tuple[str, ...]] = {}
    if not path.is_file():
        return result
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            form, *bases = line.split()
            if bases:
                result[form] = tuple(bases)
    return result
