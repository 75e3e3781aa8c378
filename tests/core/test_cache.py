"""The on-disk cache of compiled lists: used when the list is unchanged, rebuilt otherwise, never trusted."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from wibble import wordlists
from wibble.cache import TrieCache
from wibble.core import Trie
from wibble.wordlists import load

ANIMALS = ["cat", "dog", "emu", "gnu"]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    words = tmp_path / "words"
    words.mkdir()
    (words / "animals.txt").write_text("\n".join(ANIMALS) + "\n", encoding="utf-8")
    return words


@pytest.fixture
def cache(tmp_path: Path) -> TrieCache:
    return TrieCache(tmp_path / "cache")


def cache_files(cache: TrieCache) -> list[Path]:
    return sorted(cache.directory.glob("*.dawg"))


def forbid_building(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on a load can only succeed by reading the cache."""

    def refuse(words: object) -> Trie:
        raise AssertionError("built from the words instead of read from the cache")

    monkeypatch.setattr(wordlists, "Trie", refuse)


def test_the_first_load_compiles_and_stores_the_list(folder: Path, cache: TrieCache) -> None:
    words = load(folder / "animals.txt", cache)

    assert "emu" in words.trie
    [stored] = cache_files(cache)
    assert stored.name.startswith("animals-")


def test_an_unchanged_list_loads_from_the_cache(
    folder: Path, cache: TrieCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load(folder / "animals.txt", cache)
    forbid_building(monkeypatch)

    again = load(folder / "animals.txt", cache)

    assert list(again.trie) == list(first.trie) == ANIMALS
    assert list(again.letters) == list(first.letters)  # same tiles, scores and weights


def test_an_edited_list_is_rebuilt_and_its_old_file_removed(folder: Path, cache: TrieCache) -> None:
    load(folder / "animals.txt", cache)
    [old] = cache_files(cache)
    (folder / "animals.txt").write_text("cat\ndog\nyak\n", encoding="utf-8")

    words = load(folder / "animals.txt", cache)

    assert "yak" in words.trie
    assert "emu" not in words.trie
    [new] = cache_files(cache)
    assert new != old


def test_lists_whose_names_share_a_start_keep_their_own_files(tmp_path: Path, cache: TrieCache) -> None:
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "en.txt").write_text("cat\n", encoding="utf-8")
    (folder / "en-easy.txt").write_text("dog\n", encoding="utf-8")
    load(folder / "en-easy.txt", cache)
    load(folder / "en.txt", cache)
    (folder / "en.txt").write_text("cat\ncats\n", encoding="utf-8")

    load(folder / "en.txt", cache)  # replaces en's file, and only en's

    names = [path.name for path in cache_files(cache)]
    assert len(names) == 2
    assert sum(name.startswith("en-easy-") for name in names) == 1


def damage(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "flipped byte":
        data[len(data) // 2] ^= 0xFF
    elif how == "truncated":
        del data[len(data) // 3 :]
    elif how == "empty":
        data.clear()
    elif how == "garbage":
        data[:] = b"\x00\x01not a trie at all" * 50
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["flipped byte", "truncated", "empty", "garbage"])
def test_a_damaged_cache_file_is_detected_and_rebuilt(
    folder: Path, cache: TrieCache, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    load(folder / "animals.txt", cache)
    [stored] = cache_files(cache)
    good = stored.read_bytes()
    damage(stored, how)

    with caplog.at_level(logging.WARNING):
        words = load(folder / "animals.txt", cache)

    assert list(words.trie) == ANIMALS
    assert "not usable" in caplog.text
    assert stored.name in caplog.text
    assert stored.read_bytes() == good  # rewritten whole


def test_a_file_compiled_from_another_list_is_not_trusted(
    folder: Path, cache: TrieCache, caplog: pytest.LogCaptureFixture
) -> None:
    load(folder / "animals.txt", cache)
    [stored] = cache_files(cache)
    other = Trie(["zebra"])
    key = stored.read_bytes()[:32]
    wrong_key = bytes(32)
    stored.write_bytes(wrong_key + other.to_bytes())  # a valid trie, but not of this list's bytes
    assert key != wrong_key

    with caplog.at_level(logging.WARNING):
        words = load(folder / "animals.txt", cache)

    assert list(words.trie) == ANIMALS
    assert "another version of the list" in caplog.text


def test_a_cache_that_cannot_be_written_is_skipped_with_one_warning(
    folder: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be", encoding="utf-8")
    cache = TrieCache(blocker / "cache")

    with caplog.at_level(logging.WARNING):
        first = load(folder / "animals.txt", cache)
        second = load(folder / "animals.txt", cache)

    assert list(first.trie) == list(second.trie) == ANIMALS
    assert caplog.text.count("cannot write the word list cache") == 1


def test_a_bad_list_is_not_cached(folder: Path, cache: TrieCache) -> None:
    (folder / "broken.txt").write_text("cat\nd0g\n", encoding="utf-8")

    with pytest.raises(wordlists.WordListError, match=r"broken.txt:2:"):
        load(folder / "broken.txt", cache)

    assert cache_files(cache) == []
