"""Compiled word lists kept on disk, so a restart loads a list in milliseconds.

A list's compiled trie is stored under the SHA-256 of the list's bytes, so an
edited list simply misses the cache and is rebuilt; the stale file is then
removed. A cache file is never trusted: anything that does not check out (wrong
list, damaged bytes, another Python) is logged, ignored and rebuilt. The cache is
a convenience: if its folder cannot be written, the server says so once and runs
without it.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

from .core import Trie

log = logging.getLogger(__name__)

SUFFIX = ".dawg"
# The list's content hash leads each file, so a file renamed onto another list's name is refused.
_KEY_SIZE = 32


def default_directory() -> Path:
    """``$XDG_CACHE_HOME/wibble``, else ``~/.cache/wibble`` (the usual place for rebuildable files)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wibble"


def from_setting(setting: str | bool | None) -> TrieCache | None:
    """The cache a setting asks for: None is the default folder, "" (or false) none at all."""
    if setting is None:
        return TrieCache(default_directory())
    if setting in ("", False):
        return None
    return TrieCache(Path(str(setting)))


class TrieCache:
    """Compiled tries in one folder, one file per list name, keyed by the list's content hash."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.hits = 0  # loads served from a file here (the server reports it at start-up)
        self._warned = False

    def path_for(self, name: str, key: bytes) -> Path:
        return self.directory / f"{name}-{key.hex()[:16]}{SUFFIX}"

    def load(self, name: str, key: bytes) -> Trie | None:
        """The cached trie for this list content, or None (missing, or not trustworthy)."""
        path = self.path_for(name, key)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("word list cache %s cannot be read (%s); rebuilding", path, exc.strerror or exc)
            return None
        try:
            if data[:_KEY_SIZE] != key:
                raise ValueError("made from another version of the list")
            trie = Trie.from_bytes(data[_KEY_SIZE:])
        except ValueError as exc:
            log.warning("word list cache %s is not usable (%s); rebuilding it", path, exc)
            return None
        self.hits += 1
        return trie

    def store(self, name: str, key: bytes, trie: Trie) -> None:
        """Write atomically (a reader never sees half a file), then drop this list's older files."""
        path = self.path_for(name, key)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=f".{name}-", suffix=".tmp")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(key + trie.to_bytes())
                os.replace(temporary, path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError as exc:
            if not self._warned:  # once: a read-only cache folder is a choice, not an emergency
                log.warning(
                    "cannot write the word list cache in %s (%s); lists will be rebuilt at every start",
                    self.directory,
                    exc.strerror or exc,
                )
                self._warned = True
            return
        for old in self.directory.glob(f"{name}-*{SUFFIX}"):
            stamp = old.name[len(name) + 1 : -len(SUFFIX)]
            # "en-*" also matches "en-easy-...": only a 16-hex-digit stamp is this list's.
            if old != path and len(stamp) == 16 and all(c in "0123456789abcdef" for c in stamp):
                old.unlink(missing_ok=True)
