"""Each word list's definitions: compiled once into a small SQLite book, opened on first use.

A list's definitions come from the host's file beside it (``NAME.definitions.tsv``, format in
words/README.md) and, for an English list (its ``language`` is ``en`` or ``en-…``), from
WordNet (``wibble.wordnet``) for every word that file leaves out. ``wibble definitions`` (run
by set-up: ``make play``, ``make test``) compiles every list's book ahead of time; a server
that finds none compiles it on the first request (in its thread pool: about 3 s for ``en``).

A book is keyed by what it was made from (the list's bytes, the host's file's, WordNet's
files), so an edited list or file is simply compiled again; a book is a cache file, and one
that cannot be read is rebuilt. Without a cache folder the book is kept in memory.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from .core import WordListError, parse_words
from .core.definitions import Answer, Meaning, parse_definitions, shown
from .wordlists import WordLists, read_text
from .wordnet import NAME as WORDNET
from .wordnet import WordNet, fingerprint

log = logging.getLogger(__name__)

FILE_SUFFIX = ".definitions.tsv"
"""A host's definitions for ``NAME.txt``: ``NAME.definitions.tsv`` beside it."""
BOOK_SUFFIX = ".definitions.sqlite"
FORMAT = "1"
"""Changed whenever what a book holds changes, so that books of an older Wibble are rebuilt."""


class Book:
    """One list's compiled definitions, read-only: each word's meanings and where they come from."""

    def __init__(self, connection: sqlite3.Connection, sources: tuple[str, ...], path: Path | None) -> None:
        self._db = connection
        self._lock = threading.Lock()  # one connection, shared by every thread and greenlet
        self.sources = sources
        self.path = path

    def lookup(self, word: str) -> tuple[str | None, tuple[Meaning, ...]]:
        with self._lock:
            row = self._db.execute(
                "SELECT e.source, e.body FROM words w JOIN entries e ON e.id = w.entry WHERE w.word = ?",
                (word,),
            ).fetchone()
        if row is None:  # not a word of the list, or one that no source defines
            return ", ".join(self.sources) or None, ()
        source, body = row
        return self.sources[source], tuple(
            Meaning(pos, lemma, tuple(senses)) for pos, lemma, senses in json.loads(body)
        )

    def words(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM words").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class Definitions:
    """The books of every list in ``wordlists``' folder, made from the host's files and WordNet."""

    def __init__(
        self,
        wordlists: WordLists,
        directory: Path | None = None,
        wordnet: Path | None = None,
        offload: Callable[[Callable[[], Book]], Book] | None = None,
    ) -> None:
        self.wordlists = wordlists
        self.directory = directory
        """Where books are kept (the word lists' cache folder); None keeps them in memory."""
        self.wordnet = wordnet
        self.offload = offload or (lambda make: make())
        self._books: dict[str, tuple[tuple[object, ...], Book | None]] = {}
        self._failed: dict[str, tuple[tuple[object, ...], WordListError]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    # -- asking -------------------------------------------------------------------------

    def define(self, name: str | None, word: str) -> Answer:
        """What ``word`` of list ``name`` (None: the default) means; ``KeyError`` for no such list,
        ``WordListError`` when the host's file is broken (the log says why, once)."""
        name = name or self.wordlists.default
        book = self.book(name)
        if book is None:
            return Answer(word, name, None, ())
        source, meanings = book.lookup(word)
        return Answer(word, name, source, meanings)

    def has_source(self, name: str) -> bool:
        """Whether list ``name`` has any definitions to compile (a host's file, or WordNet)."""
        return self._host_file(name).is_file() or self._uses_wordnet(name)

    def book(self, name: str) -> Book | None:
        """List ``name``'s book, compiled now if it is missing or out of date; None if it has no source."""
        stamp = self._stamp(name)
        kept = self._books.get(name)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        if not self.has_source(name):
            self._books[name] = (stamp, None)  # asked again, it is answered without a look at the folder
            return None
        with self._lock:
            lock = self._locks.setdefault(name, threading.Lock())
        with lock:  # two players asking at once compile it once
            kept = self._books.get(name)
            if kept is not None and kept[0] == stamp:
                return kept[1]
            failed = self._failed.get(name)
            if failed is not None and failed[0] == stamp:
                raise failed[1].again()
            try:
                book = self.offload(lambda: self._open(name))
            except WordListError as exc:
                log.error("definitions of word list %r cannot be loaded: %s", name, exc.message)
                self._failed[name] = (stamp, exc)
                raise
            # An older book is not closed here: a request may be reading it; it closes when dropped.
            self._books[name] = (stamp, book)
            self._failed.pop(name, None)
            return book

    # -- compiling ----------------------------------------------------------------------

    def _host_file(self, name: str) -> Path:
        return self.wordlists.path(name).with_name(name + FILE_SUFFIX)

    def _uses_wordnet(self, name: str) -> bool:
        if self.wordnet is None:
            return False
        language = next((info.language for info in self.wordlists.info() if info.name == name), "")
        return language.lower() == "en" or language.lower().startswith("en-")

    def _stamp(self, name: str) -> tuple[object, ...]:
        """What says a book may be out of date, without reading a byte: the files' sizes and times."""
        stamps: list[object] = []
        for path in (
            self.wordlists.path(name),
            self._host_file(name),
            self.wordlists.path(name).with_suffix(".toml"),
        ):
            try:
                stat = path.stat()
                stamps.append((stat.st_size, stat.st_mtime_ns))
            except OSError:
                stamps.append(None)
        return tuple(stamps)

    def _open(self, name: str) -> Book:
        """The book of ``name`` from the cache folder if it is there and whole, else compiled."""
        words_text, words_key = read_text(self.wordlists.path(name))
        host = self._host_file(name)
        try:
            host_bytes = host.read_bytes() if host.is_file() else None
        except OSError as exc:
            raise WordListError(str(host), f"cannot be read ({exc.strerror or exc})") from None
        wordnet = self._uses_wordnet(name)
        key = hashlib.sha256(
            b"|".join(
                (
                    FORMAT.encode(),
                    words_key,
                    hashlib.sha256(host_bytes).digest() if host_bytes is not None else b"-",
                    fingerprint(self.wordnet).encode() if wordnet and self.wordnet else b"-",
                )
            )
        ).hexdigest()[:16]
        path = self.directory / f"{name}-{key}{BOOK_SUFFIX}" if self.directory is not None else None
        if path is not None and path.is_file():
            book = _read(path)
            if book is not None:
                return book
        words = parse_words(words_text, str(self.wordlists.path(name)))
        hosts = None
        if host_bytes is not None:
            try:
                host_text = host_bytes.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                line = host_bytes.count(b"\n", 0, exc.start) + 1
                raise WordListError(str(host), "is not UTF-8 text", line) from None
            hosts = parse_definitions(host_text, str(host), set(words).__contains__)
        reader = self._wordnet_reader() if wordnet else None
        sources = [host.name] if hosts is not None else []
        sources += [WORDNET] if reader is not None else []
        return _write(path, _entries(words, hosts, host.name, reader), tuple(sources))

    def _wordnet_reader(self) -> WordNet:
        # Read for compiling (0.3 s, 22 MB), then dropped: serving needs only the books.
        assert self.wordnet is not None
        return WordNet(self.wordnet)


def _entries(
    words: list[str], hosts: dict[str, list[Meaning]] | None, host: str, reader: WordNet | None
) -> Iterable[tuple[str, str, list[Meaning]]]:
    """Each word that has meanings, where they come from, and the meanings shown: the host's
    file first, then WordNet."""
    for word in words:
        if hosts is not None and word in hosts:
            yield word, host, shown((meaning, 0) for meaning in hosts[word])
        elif reader is not None:
            meanings = reader.meanings(word)
            if meanings:
                yield word, WORDNET, meanings


_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE entries (id INTEGER PRIMARY KEY, source INTEGER NOT NULL, body TEXT NOT NULL);
CREATE TABLE words (word TEXT PRIMARY KEY, entry INTEGER NOT NULL) WITHOUT ROWID;
"""


def _write(
    path: Path | None,
    entries: Iterable[tuple[str, str, list[Meaning]]],
    sources: tuple[str, ...],
) -> Book:
    """A new book: written to a temporary file, opened, then renamed into place (a reader never
    sees half of one, and this process keeps the file it wrote even if another removes it); kept
    in memory when there is no cache folder or it cannot be written."""
    ids: dict[tuple[int, str], int] = {}  # one row for each different entry: RUN, RUNS, RAN share one
    rows = []
    for word, source_name, meanings in entries:
        body = json.dumps([[m.pos, m.lemma, list(m.senses)] for m in meanings], separators=(",", ":"))
        rows.append((word, ids.setdefault((sources.index(source_name), body), len(ids) + 1)))
    if path is not None:
        try:
            return _write_file(path, ids, rows, sources)
        except (OSError, sqlite3.Error) as exc:  # a full disk, a folder that is not ours
            log.warning("cannot write definitions in %s (%s); keeping them in memory", path.parent, exc)
    db = sqlite3.connect(":memory:", check_same_thread=False)
    _fill(db, ids, rows, sources)
    return Book(db, sources, None)


def _fill(
    db: sqlite3.Connection,
    ids: dict[tuple[int, str], int],
    rows: list[tuple[str, int]],
    sources: tuple[str, ...],
) -> None:
    db.executescript(_SCHEMA)
    db.executemany("INSERT INTO entries VALUES (?, ?, ?)", ((i, s, b) for (s, b), i in ids.items()))
    db.executemany("INSERT INTO words VALUES (?, ?)", rows)
    db.execute("INSERT INTO meta VALUES ('sources', ?)", (json.dumps(sources),))
    db.commit()


def _write_file(
    path: Path, ids: dict[tuple[int, str], int], rows: list[tuple[str, int]], sources: tuple[str, ...]
) -> Book:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    os.close(handle)
    try:
        db = sqlite3.connect(temporary)
        try:
            _fill(db, ids, rows, sources)
            db.execute("VACUUM")
        finally:
            db.close()
        book = _read(Path(temporary))
        if book is None:
            raise sqlite3.DatabaseError(f"{temporary} was written but cannot be read back")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    book.path = path
    _drop_older(path)
    return book


def _read(path: Path) -> Book | None:
    """A book from the cache folder, or None (logged) when it is not whole."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
    except sqlite3.Error as exc:
        log.warning("definitions book %s cannot be opened (%s); compiling it again", path, exc)
        return None
    try:
        sources = json.loads(db.execute("SELECT value FROM meta WHERE key = 'sources'").fetchone()[0])
        return Book(db, tuple(str(source) for source in sources), path)
    except (sqlite3.Error, TypeError, ValueError) as exc:
        db.close()
        log.warning("definitions book %s is not usable (%s); compiling it again", path, exc)
        return None


def _drop_older(path: Path, settle: float = 600.0) -> None:
    """Remove this list's books made from older versions of its files, unless one was written in
    the last ``settle`` seconds: another process (of another release, or one that read the files
    before an edit) may have just made it, and would make it again at its next start."""
    name = path.name[: -len(BOOK_SUFFIX)].rsplit("-", 1)[0]
    now = time.time()
    for old in path.parent.glob(f"{name}-*{BOOK_SUFFIX}"):
        stamp = old.name[len(name) + 1 : -len(BOOK_SUFFIX)]
        if old == path or len(stamp) != 16 or not all(c in "0123456789abcdef" for c in stamp):
            continue
        try:
            if now - old.stat().st_mtime > settle:
                old.unlink()
        except OSError:
            pass  # gone already, or not ours to remove
