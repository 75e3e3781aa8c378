"""Each list's book: made from the host's file and WordNet, kept in the cache folder, and made
again when what it was made from changes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.core.test_wordlists import write_list
from wibble.core import WordListError
from wibble.core.definitions import Meaning
from wibble.definitions import BOOK_SUFFIX, Definitions
from wibble.wordlists import WordLists
from wibble.wordnet import NAME as WORDNET

ENGLISH = 'language = "en"\n'


def words_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "words"
    folder.mkdir()
    write_list(folder, "english", "run\nruns\nran\ngeese\nboxes\nzax\nqat\n", ENGLISH)
    write_list(folder, "spanish", "casa\ncasas\nperro\n", 'language = "es"\n')
    return folder


def test_an_english_list_finds_headwords_and_first_senses_in_wordnet(
    tmp_path: Path, wordnet_dir: Path
) -> None:
    definitions = Definitions(WordLists(words_dir(tmp_path)), tmp_path / "cache", wordnet_dir)
    runs = definitions.define("english", "runs")
    assert runs.source == WORDNET
    assert [(m.pos, m.lemma) for m in runs.meanings] == [("verb", "run"), ("noun", "run")]
    assert runs.meanings[0].senses[0].startswith("move fast by using one's feet")
    assert [m.lemma for m in definitions.define("english", "ran").meanings] == ["run"]
    assert [m.lemma for m in definitions.define("english", "geese").meanings] == ["goose"]
    assert [(m.pos, m.lemma) for m in definitions.define("english", "boxes").meanings] == [
        ("noun", "box"),
        ("verb", "box"),
    ]
    zax = definitions.define("english", "zax")  # in the list, not in WordNet: said so
    assert (zax.source, zax.meanings) == (WORDNET, ())


def test_a_list_without_a_source_says_it_has_no_definitions(tmp_path: Path, wordnet_dir: Path) -> None:
    definitions = Definitions(WordLists(words_dir(tmp_path)), tmp_path / "cache", wordnet_dir)
    answer = definitions.define("spanish", "casa")
    assert (answer.source, answer.meanings) == (None, ())
    assert not definitions.has_source("spanish")
    with pytest.raises(KeyError):
        definitions.define("klingon", "qapla")


def test_the_hosts_file_defines_a_list_and_comes_before_wordnet(tmp_path: Path, wordnet_dir: Path) -> None:
    folder = words_dir(tmp_path)
    (folder / "spanish.definitions.tsv").write_text("casa\tsustantivo\tedificio\ncasas\t=\tcasa\n", "utf-8")
    (folder / "english.definitions.tsv").write_text("zax\tnoun\ta roofer's tool for cutting slate\n", "utf-8")
    definitions = Definitions(WordLists(folder), tmp_path / "cache", wordnet_dir)
    casas = definitions.define("spanish", "casas")
    assert casas.source == "spanish.definitions.tsv"
    assert casas.meanings == (Meaning("sustantivo", "casa", ("edificio",)),)
    assert definitions.define("spanish", "perro").meanings == ()
    zax = definitions.define("english", "zax")
    assert (zax.source, zax.meanings[0].senses) == (
        "english.definitions.tsv",
        ("a roofer's tool for cutting slate",),
    )
    assert definitions.define("english", "runs").source == WORDNET  # the rest still from WordNet


def test_a_broken_file_is_refused_until_the_host_fixes_it(tmp_path: Path) -> None:
    folder = words_dir(tmp_path)
    defs = folder / "spanish.definitions.tsv"
    defs.write_text("casa\tsustantivo\n", "utf-8")
    definitions = Definitions(WordLists(folder), tmp_path / "cache")
    for _ in range(2):  # remembered: not read again on every request
        with pytest.raises(WordListError, match=r"spanish\.definitions\.tsv:1"):
            definitions.define("spanish", "casa")
    defs.write_text("casa\tsustantivo\tedificio\n", "utf-8")
    os.utime(defs, ns=(defs.stat().st_mtime_ns + 10**9,) * 2)
    assert definitions.define("spanish", "casa").meanings[0].senses == ("edificio",)


def test_a_book_is_kept_in_the_cache_folder_and_made_again_when_the_list_changes(
    tmp_path: Path, wordnet_dir: Path
) -> None:
    folder, cache = words_dir(tmp_path), tmp_path / "cache"
    first = Definitions(WordLists(folder), cache, wordnet_dir).book("english")
    assert first is not None
    assert first.path is not None
    made = first.path.stat().st_mtime_ns
    again = Definitions(WordLists(folder), cache, wordnet_dir).book("english")  # another start
    assert again is not None
    assert again.path == first.path
    assert first.path.stat().st_mtime_ns == made
    os.utime(first.path, (made / 1e9 - 3600,) * 2)  # an hour old: no other process is making it
    write_list(folder, "english", "run\nzax\n", ENGLISH)
    changed = Definitions(WordLists(folder), cache, wordnet_dir)
    assert changed.define("english", "ran").meanings == ()  # RAN left the list
    assert [p.name for p in cache.glob(f"english-*{BOOK_SUFFIX}")] != [first.path.name]
    assert len(list(cache.glob(f"english-*{BOOK_SUFFIX}"))) == 1  # the old book was removed


def test_a_book_just_made_by_another_process_is_left_for_it(tmp_path: Path) -> None:
    """Two processes that read the list before and after an edit each make their own book; the
    newer does not remove the other's while it may still be in use, and each answers from its own."""
    folder, cache = words_dir(tmp_path), tmp_path / "cache"
    defs = folder / "spanish.definitions.tsv"
    defs.write_text("casa\tsustantivo\tla primera\n", "utf-8")
    before = Definitions(WordLists(folder), cache).book("spanish")
    assert before is not None
    assert before.lookup("casa")[1][0].senses == ("la primera",)
    defs.write_text("casa\tsustantivo\tla segunda\n", "utf-8")
    after = Definitions(WordLists(folder), cache)
    assert after.define("spanish", "casa").meanings[0].senses == ("la segunda",)
    assert len(list(cache.glob(f"spanish-*{BOOK_SUFFIX}"))) == 2
    for book in cache.glob(f"spanish-*{BOOK_SUFFIX}"):
        book.unlink()  # even gone from the folder, a book once opened keeps answering
    assert before.lookup("casa")[1][0].senses == ("la primera",)


def test_a_damaged_book_is_made_again(tmp_path: Path, wordnet_dir: Path) -> None:
    folder, cache = words_dir(tmp_path), tmp_path / "cache"
    book = Definitions(WordLists(folder), cache, wordnet_dir).book("english")
    assert book is not None
    assert book.path is not None
    book.close()
    book.path.write_bytes(b"not a database")
    again = Definitions(WordLists(folder), cache, wordnet_dir)
    assert again.define("english", "ran").meanings[0].lemma == "run"


def test_without_a_cache_folder_books_are_kept_in_memory(tmp_path: Path, wordnet_dir: Path) -> None:
    definitions = Definitions(WordLists(words_dir(tmp_path)), None, wordnet_dir)
    assert definitions.define("english", "ran").meanings[0].lemma == "run"
    assert not (tmp_path / "cache").exists()


def test_the_shipped_english_list_has_most_of_its_words_defined(wordnet_dir: Path, tmp_path: Path) -> None:
    book = Definitions(WordLists(), tmp_path, wordnet_dir).book("en-easy")
    assert book is not None
    assert book.words() > 35_000  # of 40,443: the rest are forms WordNet does not list (ZAX)
