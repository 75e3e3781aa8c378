"""The word lists a server offers: found in a folder, loaded on first use, then shared.

A list is ``NAME.txt`` (one word per line, UTF-8) with optional ``NAME.toml``
beside it (title, language, min_length, letters). Dropping a new pair into the
folder makes it playable; no code names the lists.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from .cache import TrieCache
from .core import RuleError, Trie, WordList, WordListError, build_word_list, parse_words
from .core.wordlist import left_out_warning

log = logging.getLogger(__name__)

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "words"
DEFAULT_LIST = "en"


@dataclass(frozen=True)
class ListInfo:
    """What the picker shows, known without reading the words."""

    name: str
    title: str
    language: str


def _read_settings(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        # utf-8-sig: a byte-order mark from a Windows editor is not part of the settings.
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise WordListError(str(path), f"cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise WordListError(str(path), f"not UTF-8 ({exc.reason})") from None
    except tomllib.TOMLDecodeError as exc:
        # tomllib puts "(at line N, column M)" in its message.
        raise WordListError(str(path), f"bad TOML: {exc}") from None


def read_text(path: Path) -> tuple[str, bytes]:
    """The list's text, and the SHA-256 of its bytes (the key of its compiled form)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise WordListError(str(path), f"cannot be read ({exc.strerror or exc})") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise WordListError(str(path), "is UTF-16 text; save it as UTF-8", 1)
    try:
        # utf-8-sig: a byte-order mark from a Windows editor is not a letter.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise WordListError(str(path), "is not UTF-8 text", data.count(b"\n", 0, exc.start) + 1) from None
    return text, hashlib.sha256(data).digest()


def load(path: Path, cache: TrieCache | None = None) -> WordList:
    """Read and check one list and its settings; errors name the file and line.

    With a ``cache``, the compiled trie is taken from it when the list is unchanged,
    and stored in it when it had to be built.
    """
    settings = _read_settings(path.with_suffix(".toml"))
    text, key = read_text(path)
    trie = cache.load(path.stem, key) if cache is not None else None
    if trie is None:
        trie = Trie(parse_words(text, str(path)))
        if cache is not None:
            cache.store(path.stem, key, trie)
    source = str(path.with_suffix(".toml"))
    return build_word_list(path.stem, trie, settings, source, _digest(key, path, settings))


# A named value table's header, ``[values.NAME]``, with the comments and blank lines just above it.
_TABLES = re.compile(rb"^(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*\[[ \t]*values[ \t]*\.", re.MULTILINE)


def _digest(words_key: bytes, path: Path, settings: dict[str, Any]) -> str:
    """What a saved game names its list by: the words' and the settings' bytes, hashed together.

    The named value tables at the end of the settings (``[values.NAME]``) are left out: adding
    one leaves the list's digest, and every record made with the list's own values, as they
    were. A table's scores go into the digest of the list with that table applied instead.
    """
    toml = path.with_suffix(".toml")
    try:
        data = toml.read_bytes()
    except FileNotFoundError:
        data = b""
    if isinstance(settings.get("values"), dict):
        found = _TABLES.search(data)
        head = data[: found.start()] if found else data
        own = {key: value for key, value in settings.items() if key != "values"}
        try:
            same = found is not None and tomllib.loads(head.decode("utf-8-sig")) == own
        except tomllib.TOMLDecodeError:
            same = False
        if not same:
            raise WordListError(
                str(toml), "write each value table as a [values.NAME] section after the list's other settings"
            )
        data = head
    return hashlib.sha256(words_key + hashlib.sha256(data).digest()).hexdigest()


def load_or_error(path: Path, cache: TrieCache | None = None) -> WordList | WordListError:
    """``load``, with a bad list returned rather than raised (a thread pool would print the traceback)."""
    try:
        return load(path, cache)
    except WordListError as exc:
        return exc


Offload = Callable[[Callable[[Path], WordList | WordListError], Path], WordList | WordListError]


def _run_here(load_list: Callable[[Path], WordList | WordListError], path: Path) -> WordList | WordListError:
    return load_list(path)


Stamp = tuple[int, ...]
"""What tells a list's files changed: each file's modification time, size and inode (a file
replaced whole, as editors and ``mv`` do, is a new inode even within one clock tick)."""

SETTLE_SECONDS = 1.0
"""How long a loaded list's changed files must be left alone before the change is taken: a file
being copied or saved in steps is not read half-written (its last good version serves meanwhile)."""


def _stamp(path: Path) -> Stamp:
    """The stamp of the list ``path`` (``OSError`` if its words are gone; no settings file is 0s)."""
    words = path.stat()
    try:
        settings = path.with_suffix(".toml").stat()
        extra = settings.st_mtime_ns, settings.st_size, settings.st_ino
    except FileNotFoundError:
        extra = 0, 0, 0
    return words.st_mtime_ns, words.st_size, words.st_ino, *extra


def _settled(stamp: Stamp, now: float) -> bool:
    """Whether both files were last changed at least ``SETTLE_SECONDS`` before ``now``. A time
    ahead of the clock (a file copied from a machine whose clock runs fast, a ``touch -d``)
    cannot be waited out: such a change counts as settled."""
    age = now - max(stamp[0], stamp[3]) / 1e9
    return age >= SETTLE_SECONDS or age < -SETTLE_SECONDS


def _list_files(directory: Path) -> list[Path]:
    """The ``*.txt`` regular files of a folder (not folders or broken links), sorted."""
    return sorted(p for p in directory.glob("*.txt") if p.is_file())


class WordLists:
    """The lists in one folder. ``get`` loads a list once; every game then shares it.

    ``offload`` runs the load of a list (up to seconds when it is not cached); the
    gevent server passes its native thread pool so other players' games keep moving
    meanwhile. ``cache`` keeps compiled lists on disk between runs.
    """

    def __init__(
        self,
        directory: Path = DEFAULT_DIR,
        default: str | None = None,
        offload: Offload = _run_here,
        cache: TrieCache | None = None,
    ) -> None:
        self.directory = Path(directory)
        self.offload = offload
        self.cache = cache
        if not self.directory.is_dir():
            raise WordListError(str(self.directory), "is not a folder of word lists")
        self._paths: dict[str, Path] = {}
        self._scan()
        if not self._paths:
            raise WordListError(str(self.directory), "holds no word lists (NAME.txt files)")
        # Without a choice: "en" if the folder has it, else its first list.
        default = default or (DEFAULT_LIST if DEFAULT_LIST in self._paths else next(iter(self._paths)))
        if default not in self._paths:
            raise WordListError(
                str(self.directory), f"has no list named {default!r} (has {', '.join(self._paths)})"
            )
        self.default = default
        # Each list as loaded, with the stamp of its files then: a host who edits the words or
        # the settings gets the new list in every game begun after (games under way keep theirs).
        self._loaded: dict[str, tuple[Stamp, WordList]] = {}
        # A broken list is remembered with its files' stamp: not re-read on every
        # request, but tried again as soon as the host fixes either file.
        self._failed: dict[str, tuple[Stamp, WordListError]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def _scan(self) -> None:
        # Rescanned on demand, so a list dropped in while the server runs shows up.
        self._paths = {p.stem: p for p in _list_files(self.directory)}

    def names(self) -> list[str]:
        self._scan()
        return list(self._paths)

    def info(self) -> list[ListInfo]:
        """Title and language of each list, read from the settings files only."""
        result = []
        self._scan()
        for name, path in self._paths.items():
            try:
                settings = _read_settings(path.with_suffix(".toml"))
            except WordListError:
                settings = {}
            title, language = settings.get("title"), settings.get("language")
            result.append(
                ListInfo(
                    name,
                    title if isinstance(title, str) else name,
                    language if isinstance(language, str) else "",
                )
            )
        return result

    def path(self, name: str) -> Path:
        """The file of the named list; ``KeyError`` if the folder has none."""
        if name not in self._paths:
            self._scan()
        return self._paths[name]

    def for_player(self, name: str | None) -> WordList:
        """The list a player asked for by name (None: the default), or a ``RuleError`` they can act on."""
        try:
            return self.get(name)
        except KeyError:
            names = ", ".join(self.names())
            raise RuleError("game/unknown_wordlist", f"no word list named {name!r} (have: {names})") from None
        except WordListError:
            # The detail (file and line) is for the host's log (get() wrote it), not for players.
            raise RuleError(
                "game/wordlist_unavailable",
                f"the word list {name!r} cannot be played right now; pick another (the host can see why)",
            ) from None

    def get(self, name: str | None = None) -> WordList:
        """The named list (the default if None), loading it on first use."""
        name = name or self.default
        if name not in self._paths:
            self._scan()
        path = self._paths.get(name)
        if path is None:
            raise KeyError(name)
        try:
            stamp = _stamp(path)
        except OSError:  # taken away since the folder was read
            raise KeyError(name) from None
        loaded = self._loaded.get(name)
        if loaded is not None and (loaded[0] == stamp or not _settled(stamp, time.time())):
            return loaded[1]  # (a change still being written: the last version serves meanwhile)
        with self._lock:
            lock = self._locks.setdefault(name, threading.Lock())
        with lock:  # two players asking at once build it once; other lists load meanwhile
            try:
                stamp = _stamp(path)  # (again: another may have loaded it while this one waited)
            except OSError:
                raise KeyError(name) from None
            loaded = self._loaded.get(name)
            if loaded is not None and (loaded[0] == stamp or not _settled(stamp, time.time())):
                return loaded[1]
            failed = self._failed.get(name)
            if failed is None or failed[0] != stamp:
                result = self.offload(partial(load_or_error, cache=self.cache), path)
                if not isinstance(result, WordListError):
                    return self._took(name, stamp, result, changed=loaded is not None)
                log.error("word list %r cannot be loaded: %s", name, result.message)
                failed = self._failed[name] = (stamp, result)
            if loaded is not None:  # a broken edit: the last good version plays on until it is fixed
                return loaded[1]
            raise failed[1].again()

    def _took(self, name: str, stamp: Stamp, words: WordList, changed: bool) -> WordList:
        if changed:
            log.info("word list %r changed: new games play the new one", name)
        warning = left_out_warning(words)
        if warning:
            log.warning("word list %r: %s", name, warning)
        self._loaded[name] = (stamp, words)
        self._failed.pop(name, None)
        return words
