"""Word lists as a host writes them: NAME.txt plus an optional NAME.toml, checked on load."""

from __future__ import annotations

import math
import os
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from wibble import wordlists
from wibble.cache import TrieCache
from wibble.core import Board, LetterSampler, WordList, WordListError
from wibble.core.wordlist import left_out
from wibble.wordlists import DEFAULT_DIR, SETTLE_SECONDS, WordLists, load


def write_list(folder: Path, name: str, words: str | bytes, settings: str | bytes | None = None) -> Path:
    """Write NAME.txt (and NAME.toml if given) into ``folder``; returns the .txt path."""
    path = folder / f"{name}.txt"
    if isinstance(words, bytes):
        path.write_bytes(words)
    else:
        path.write_text(words, encoding="utf-8")
    if settings is not None:
        toml = path.with_suffix(".toml")
        if isinstance(settings, bytes):
            toml.write_bytes(settings)
        else:
            toml.write_text(settings, encoding="utf-8")
    return path


def load_error(path: Path) -> WordListError:
    with pytest.raises(WordListError) as refused:
        load(path)
    assert refused.value.code == "wordlist/invalid"
    return refused.value


# -- the words file ------------------------------------------------------------------


def test_a_good_list_loads_with_default_settings(tmp_path: Path) -> None:
    words = load(write_list(tmp_path, "animals", "cat\ndog\nemu\n"))

    assert isinstance(words, WordList)
    assert (words.name, words.title, words.language, words.min_length) == ("animals", "animals", "", 3)
    assert len(words.trie) == 3
    assert all(w in words.trie for w in ("cat", "dog", "emu"))


def test_blank_lines_and_surrounding_whitespace_are_skipped(tmp_path: Path) -> None:
    words = load(write_list(tmp_path, "w", "\n  cat  \r\n\n\t\ndog\r\n\n"))

    assert len(words.trie) == 2
    assert "cat" in words.trie
    assert "dog" in words.trie


def test_upper_case_and_decomposed_letters_are_stored_in_nfc_lower_case(tmp_path: Path) -> None:
    words = load(write_list(tmp_path, "es", "CAT\nN\u0303ANDU\nan\u0303o\nAÑO\n"))

    assert "cat" in words.trie
    assert "ñandu" in words.trie
    assert "año" in words.trie
    assert len(words.trie) == 3  # "an\u0303o" and "AÑO" are one word
    assert "ñ" in words.letters
    assert "\u0303" not in words.letters
    assert "N" not in words.letters


@pytest.mark.parametrize(
    ("text", "line", "culprit"),
    [
        ("cat\nd0g\n", 2, "'0'"),
        ("cat\n\n\nhot dog\n", 4, "' '"),
        ("it's\n", 1, '"\'"'),
        ("cat\ndog\nemu.\n", 3, "'.'"),
        ("ca-t\n", 1, "'-'"),
        ("cat\nR2D2\n", 2, "'2'"),
        ("cat\n\U0001f600\n", 2, "'\U0001f600'"),
        # A capital whose lower case takes two characters is named as written (Turkish İ).
        ("ankara\nİSTANBUL\n", 2, "'İ', whose lower case is more than one letter"),
        ("नमस्ते\n", 1, "combining mark '\u094d' (U+094D)"),
    ],
)
def test_a_word_with_a_non_letter_names_the_file_and_line(
    tmp_path: Path, text: str, line: int, culprit: str
) -> None:
    path = write_list(tmp_path, "bad", text)

    error = load_error(path)

    assert error.line == line
    assert error.source == str(path)
    assert str(error).startswith(f"{path}:{line}: ")
    assert culprit in str(error)


def test_every_bad_line_is_counted_so_that_a_host_mends_them_in_one_go(tmp_path: Path) -> None:
    lines = ["cat", "d0g", "emu", *[f"w{n}rd" for n in range(12)], "ok"]
    path = write_list(tmp_path, "bad", "\n".join(lines) + "\n")

    error = load_error(path)

    assert error.line == 2
    assert "'0'" in str(error)  # the first, described
    assert "(and 12 more lines like it: 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, ...)" in str(error)


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"cat\ndog\n\xff\xfe\n", 3),
        (b"a\xf1o\n", 1),  # Latin-1, not UTF-8
        (b"cat\n\ncaf\xc3\n", 3),  # a UTF-8 sequence cut short
    ],
)
def test_text_that_is_not_utf8_names_the_file_and_line(tmp_path: Path, data: bytes, line: int) -> None:
    path = write_list(tmp_path, "bad", data)

    error = load_error(path)

    assert error.line == line
    assert str(error).startswith(f"{path}:{line}: ")
    assert "UTF-8" in str(error)


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_a_list_without_words_is_refused(tmp_path: Path, text: str) -> None:
    path = write_list(tmp_path, "empty", text)

    error = load_error(path)

    assert str(path) in str(error)
    assert "no words" in str(error)


def test_a_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    words = load(write_list(tmp_path, "bom", "\ufeffcat\ndog\n".encode()))

    assert "cat" in words.trie
    assert "\ufeff" not in words.letters


def test_words_too_long_for_the_board_are_left_out(tmp_path: Path) -> None:
    words = load(write_list(tmp_path, "long", "a" * 25 + "\n" + "b" * 26 + "\ncat\n"))

    assert "a" * 25 in words.trie
    assert "b" * 26 not in words.trie


# -- the settings file -----------------------------------------------------------------


def test_settings_set_title_language_and_min_length(tmp_path: Path) -> None:
    path = write_list(tmp_path, "w", "at\ncat\n", 'title = "Short words"\nlanguage = "en"\nmin_length = 2\n')

    words = load(path)

    assert (words.title, words.language, words.min_length) == ("Short words", "en", 2)


def test_bad_toml_names_the_settings_file_and_line(tmp_path: Path) -> None:
    path = write_list(tmp_path, "w", "cat\n", 'title = "ok"\nmin_length = \n')

    error = load_error(path)

    assert str(path.with_suffix(".toml")) in str(error)
    assert "line 2" in str(error)


def test_settings_that_are_not_utf8_are_refused(tmp_path: Path) -> None:
    path = write_list(tmp_path, "w", "cat\n", b'title = "Espa\xf1ol"\n')

    error = load_error(path)

    assert str(path.with_suffix(".toml")) in str(error)
    assert "UTF-8" in str(error)


def test_settings_with_a_byte_order_mark_load(tmp_path: Path) -> None:
    """BUG: the words file tolerates a BOM from a Windows editor; its settings file does not."""
    path = write_list(tmp_path, "w", "cat\n", '\ufefftitle = "Cats"\n'.encode())

    assert load(path).title == "Cats"


def test_an_unknown_setting_is_refused_by_name(tmp_path: Path) -> None:
    path = write_list(tmp_path, "w", "cat\n", 'titel = "typo"\n')

    error = load_error(path)

    assert str(path.with_suffix(".toml")) in str(error)
    assert "'titel'" in str(error)


@pytest.mark.parametrize(
    ("settings", "complaint"),
    [
        ("min_length = 0", "min_length"),
        ("min_length = 26", "min_length"),
        ('min_length = "3"', "min_length"),
        ("min_length = true", "min_length"),
        ("min_length = 2.5", "min_length"),
        ("title = 3", "title"),
        ("language = ['en']", "language"),
        ("letters = 3", "letters"),
        ("[letters]", "letters"),
        ("[letters]\nab = { score = 1 }", "'ab'"),
        ("[letters]\n'1' = { score = 1 }", "'1'"),
        ("[letters]\na = 3", "'a'"),
        ('[letters]\na = { score = "1" }', "score"),
        ("[letters]\na = { score = 1.5 }", "score"),
        ("[letters]\na = { score = true }", "score"),
        ("[letters]\na = { score = -1 }", "score"),
        ("[letters]\na = { score = 101 }", "score"),
        ('[letters]\na = { weight = "x" }', "weight"),
        ("[letters]\na = { weight = -1 }", "weight"),
        ("[letters]\na = { weight = true }", "weight"),
        ("[letters]\na = { weight = nan }", "weight"),
        ("[letters]\na = { weight = inf }", "weight"),
        ("[letters]\na = { weight = 0 }\nt = { weight = 0.0 }", "positive weight"),
    ],
)
def test_bad_settings_are_refused_naming_the_file(tmp_path: Path, settings: str, complaint: str) -> None:
    path = write_list(tmp_path, "w", "cat\nat\n", settings + "\n")

    error = load_error(path)

    assert str(error).startswith(f"{path.with_suffix('.toml')}: ")
    assert complaint in str(error)


def test_a_letter_listed_twice_in_the_settings_is_a_word_list_error(tmp_path: Path) -> None:
    """BUG: "A" and "a" (or "ñ" and "n\u0303") normalise to one letter; LetterTable raises a bare
    ValueError, so the host sees a crash instead of an error naming the settings file."""
    path = write_list(tmp_path, "w", "cat\n", "[letters]\na = { score = 1 }\nA = { score = 2 }\n")

    error = load_error(path)

    assert str(path.with_suffix(".toml")) in str(error)


def test_scores_and_weights_from_settings_are_used(tmp_path: Path) -> None:
    settings = (
        "[letters]\nc = { score = 3, weight = 2.5 }\na = { score = 1, weight = 7 }\nt = { score = 0 }\n"
    )

    letters = load(write_list(tmp_path, "w", "cat\nat\n", settings)).letters

    assert [(x.symbol, x.score) for x in letters] == [("c", 3), ("a", 1), ("t", 0)]
    assert (letters["c"].weight, letters["a"].weight) == (2.5, 7.0)
    assert letters["t"].weight == pytest.approx(100 * 2 / 5)  # t is 2 of the 5 letters in the words


def test_letters_left_out_of_the_settings_are_never_drawn(tmp_path: Path) -> None:
    settings = "[letters]\ni = { score = 1 }\nt = { score = 1 }\ne = { score = 1 }\n"
    words = load(write_list(tmp_path, "w", "kite\nkit\ntie\n", settings))
    sampler = LetterSampler(words.letters)

    boards = [Board.fill(sampler, random.Random(seed)) for seed in range(40)]

    assert "k" not in words.letters
    assert set(sampler.probabilities()) == {"i", "t", "e"}
    assert {letter.symbol for board in boards for row in board.rows() for letter in row} == {"i", "t", "e"}


def test_without_settings_weights_follow_letter_counts_and_scores_run_1_to_10(tmp_path: Path) -> None:
    # a occurs 8 times, b 4 times, c once.
    letters = load(write_list(tmp_path, "w", "aaaabb\naaaabbc\n")).letters

    assert [x.symbol for x in letters] == ["a", "b", "c"]
    assert sum(x.weight for x in letters) == pytest.approx(100)
    assert letters["a"].weight / letters["b"].weight == pytest.approx(2)
    assert letters["b"].weight / letters["c"].weight == pytest.approx(4)
    assert letters["a"].score == 1
    assert letters["c"].score == 10
    assert 1 < letters["b"].score < 10
    # On a log scale b sits a third of the way: 1 + round(log(8/4) / log(8/1) * 9) = 4.
    assert letters["b"].score == 4


def test_one_letter_alphabet_scores_1(tmp_path: Path) -> None:
    letters = load(write_list(tmp_path, "w", "aaa\naa\n")).letters

    assert [(x.symbol, x.score) for x in letters] == [("a", 1)]


# -- a folder of lists ----------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write_list(tmp_path, "beta", "cat\n")
    write_list(tmp_path, "alpha", "dog\n", 'title = "Alpha"\n')
    (tmp_path / "licenses").mkdir()
    (tmp_path / "licenses" / "LICENSE-alpha.txt").write_text("MIT (c) someone\nnot a word list\n")
    (tmp_path / "notes.md").write_text("not a list\n")
    return tmp_path


def test_lists_are_the_txt_files_and_the_licenses_folder_is_ignored(folder: Path) -> None:
    lists = WordLists(folder)

    assert lists.names() == ["alpha", "beta"]
    assert [(i.name, i.title) for i in lists.info()] == [("alpha", "Alpha"), ("beta", "beta")]


def test_default_is_en_if_present_else_the_first_list(folder: Path) -> None:
    assert WordLists(folder).default == "alpha"
    assert WordLists(folder, "beta").default == "beta"
    write_list(folder, "en", "cat\n")
    assert WordLists(folder).default == "en"


def test_a_list_dropped_in_later_is_playable_without_restart(folder: Path) -> None:
    lists = WordLists(folder)
    write_list(folder, "gamma", "emu\n")

    assert "emu" in lists.get("gamma").trie
    assert lists.names() == ["alpha", "beta", "gamma"]


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every list file loaded from now on, in order (``wordlists.load`` counted)."""
    calls: list[Path] = []
    real_load: Callable[[Path, TrieCache | None], WordList] = wordlists.load

    def counting_load(path: Path, cache: TrieCache | None = None) -> WordList:
        calls.append(path)
        return real_load(path, cache)

    monkeypatch.setattr(wordlists, "load", counting_load)
    return calls


def test_each_list_is_loaded_once_and_shared(folder: Path, loads: list[Path]) -> None:
    calls = loads
    lists = WordLists(folder)

    first = lists.get("beta")

    assert lists.get("beta") is first
    assert lists.get("alpha") is lists.get() is lists.get("alpha")
    assert [p.name for p in calls] == ["beta.txt", "alpha.txt"]


def test_two_players_asking_at_once_load_a_list_once(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Path] = []
    real_load: Callable[[Path, TrieCache | None], WordList] = wordlists.load

    def slow_load(path: Path, cache: TrieCache | None = None) -> WordList:
        calls.append(path)
        time.sleep(0.05)
        return real_load(path, cache)

    monkeypatch.setattr(wordlists, "load", slow_load)
    lists = WordLists(folder)
    got: list[WordList] = []
    threads = [threading.Thread(target=lambda: got.append(lists.get("beta"))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(calls) == 1
    assert len(got) == 8
    assert all(words is got[0] for words in got)


def settled(folder: Path, name: str) -> None:
    """The list's files as if written a while ago (a change is taken once its files are left alone)."""
    for path in (folder / f"{name}.txt", folder / f"{name}.toml"):
        if path.exists():
            past = time.time() - 2 * SETTLE_SECONDS
            os.utime(path, (past, past))


def test_a_list_edited_while_the_server_runs_is_the_one_new_games_get(folder: Path) -> None:
    lists = WordLists(folder)
    before = lists.get("beta")
    write_list(folder, "beta", "cat\nemu\n", 'title = "Beta, edited"\nmin_length = 3\n')
    assert lists.get("beta") is before  # still being written, as far as anyone can tell
    settled(folder, "beta")

    after = lists.get("beta")

    assert "emu" in after.trie
    assert "emu" not in before.trie
    assert after.title == "Beta, edited"
    assert after.digest != before.digest
    assert lists.get("beta") is after  # loaded once again, not at every ask


def test_settings_fixed_while_the_server_runs_make_a_broken_list_playable(folder: Path) -> None:
    write_list(folder, "mine", "emu\n", 'title = "Broken\n')
    lists = WordLists(folder)
    with pytest.raises(WordListError, match="bad TOML"):
        lists.get("mine")

    write_list(folder, "mine", "emu\n", 'title = "Mine, fixed"\n')  # the words' file untouched
    settled(folder, "mine")

    assert lists.get("mine").title == "Mine, fixed"


def test_a_broken_edit_leaves_the_last_good_version_playing_until_it_is_fixed(
    folder: Path, loads: list[Path]
) -> None:
    calls = loads
    lists = WordLists(folder)
    good = lists.get("beta")
    write_list(folder, "beta", "cat\nd0g\n")
    settled(folder, "beta")

    assert lists.get("beta") is good
    assert lists.get("beta") is good
    assert len(calls) == 2  # the good version, then the broken one once: not at every ask
    write_list(folder, "beta", "cat\ndog\n")
    settled(folder, "beta")
    assert "dog" in lists.get("beta").trie


def test_a_change_dated_ahead_of_the_clock_is_taken_all_the_same(folder: Path) -> None:
    lists = WordLists(folder)
    lists.get("beta")
    path = write_list(folder, "beta", "cat\nemu\n")
    ahead = time.time() + 3600  # a file copied from a machine whose clock runs fast
    os.utime(path, (ahead, ahead))

    assert "emu" in lists.get("beta").trie


def test_a_file_replaced_whole_is_a_change_even_at_the_same_time_and_size(folder: Path) -> None:
    settled(folder, "beta")
    lists = WordLists(folder)
    lists.get("beta")
    old = (folder / "beta.txt").stat()
    replacement = folder / "beta.new"
    replacement.write_text("emu\n", encoding="utf-8")  # as long as "cat\n"
    os.utime(replacement, ns=(old.st_atime_ns, old.st_mtime_ns))
    replacement.rename(folder / "beta.txt")  # (mv: a new inode, the same time and size)

    assert "emu" in lists.get("beta").trie


def test_a_list_taken_away_while_the_server_runs_is_unknown(folder: Path) -> None:
    lists = WordLists(folder)
    lists.get("beta")
    (folder / "beta.txt").unlink()

    with pytest.raises(KeyError):
        lists.get("beta")


def test_an_unknown_list_is_a_key_error(folder: Path) -> None:
    with pytest.raises(KeyError, match="nope"):
        WordLists(folder).get("nope")


def test_a_broken_list_fails_when_it_is_asked_for(folder: Path) -> None:
    write_list(folder, "broken", "cat\nd0g\n")
    lists = WordLists(folder)

    assert "broken" in lists.names()
    with pytest.raises(WordListError, match=r"broken\.txt:2: "):
        lists.get("broken")


@pytest.mark.parametrize(
    ("setup", "complaint"),
    [
        (lambda d: d / "missing", "is not a folder"),
        (lambda d: d, "holds no word lists"),
    ],
)
def test_a_folder_without_lists_is_refused(
    tmp_path: Path, setup: Callable[[Path], Path], complaint: str
) -> None:
    with pytest.raises(WordListError, match=complaint):
        WordLists(setup(tmp_path))


def test_a_default_that_is_not_in_the_folder_is_refused(folder: Path) -> None:
    with pytest.raises(WordListError, match="'gamma'"):
        WordLists(folder, "gamma")


# -- the shipped lists (each loaded once for this module) -----------------------------------


@pytest.fixture(scope="module")
def shipped() -> WordLists:
    return WordLists(DEFAULT_DIR)


@pytest.fixture(scope="module")
def english(shipped: WordLists) -> WordList:
    return shipped.get("en")


@pytest.fixture(scope="module")
def spanish(shipped: WordLists) -> WordList:
    return shipped.get("es")


def test_shipped_folder_offers_the_documented_lists(shipped: WordLists) -> None:
    assert set(shipped.names()) >= {"en", "en-easy", "es"}
    assert shipped.default == "en"


# English Scrabble tile values, by points.
SCRABBLE_EN = {
    letter: points
    for points, letters in {
        1: "aeilnorstu",
        2: "dg",
        3: "bcmp",
        4: "fhvwy",
        5: "k",
        8: "jx",
        10: "qz",
    }.items()
    for letter in letters
}


def test_english_tiles_carry_scrabble_scores(english: WordList) -> None:
    assert len(SCRABBLE_EN) == 26
    assert {x.symbol: x.score for x in english.letters} == SCRABBLE_EN
    assert (english.letters["q"].score, english.letters["z"].score, english.letters["e"].score) == (10, 10, 1)


def test_english_tiles_are_drawn_by_prose_frequency(english: WordList) -> None:
    weights = {x.symbol: x.weight for x in english.letters}

    assert (weights["e"], weights["t"], weights["a"], weights["z"]) == (13.0, 9.1, 8.2, 0.074)
    # "etaoin": the commonest letters of English prose, in order.
    assert sorted(weights, key=weights.__getitem__, reverse=True)[:6] == list("etaoin")
    assert (english.min_length, english.language) == (3, "en")


def test_english_words_are_in_the_trie(english: WordList) -> None:
    assert all(w in english.trie for w in ("cat", "zyzzyva", "quiz"))
    assert "qzx" not in english.trie


def test_spanish_never_has_k_or_w_tiles(spanish: WordList) -> None:
    drawable = set(LetterSampler(spanish.letters).probabilities())

    assert "k" not in spanish.letters
    assert "w" not in spanish.letters
    assert not drawable & {"k", "w"}
    assert len(drawable) == 25


def test_spanish_has_enye_as_its_own_tile_worth_8(spanish: WordList) -> None:
    enye = spanish.letters["ñ"]

    assert (enye.score, enye.face) == (8, "Ñ")
    assert enye.weight > 0
    assert "año" in spanish.trie
    assert "niño" in spanish.trie
    assert math.isclose(sum(x.weight for x in spanish.letters), 100)


@pytest.mark.parametrize(
    ("words", "faces"),
    [
        ("kız\nkim\nışık\n", {"i": "i", "ı": "ı", "k": "K", "z": "Z", "m": "M", "ş": "Ş"}),  # Turkish
        ("λόγος\nσοφία\n", {"σ": "σ", "ς": "ς", "λ": "Λ"}),  # Greek final sigma
        ("straße\nsee\n", {"ß": "ß", "s": "S"}),  # ß has no one-letter capital
    ],
    ids=["turkish-dotless-i", "greek-final-sigma", "german-eszett"],
)
def test_letters_that_would_look_alike_in_capitals_keep_distinct_faces(
    tmp_path: Path, words: str, faces: dict[str, str]
) -> None:
    table = load(write_list(tmp_path, "xx", words)).letters
    shown = {letter.symbol: letter.face for letter in table}
    assert {symbol: shown[symbol] for symbol in faces} == faces
    assert len(set(shown.values())) == len(shown), "two tiles would look the same"


def test_weights_too_large_to_add_up_are_refused(tmp_path: Path) -> None:
    settings = "[letters]\na = { weight = 1e308 }\nb = { weight = 1e308 }\nc = { weight = 1e308 }\n"
    error = load_error(write_list(tmp_path, "huge", "abc\ncab\n", settings))
    assert "add up" in error.message


def test_letters_the_settings_leave_out_are_named_with_their_share(tmp_path: Path) -> None:
    letters = "".join(f"{letter} = {{}}\n" for letter in "acdog")
    path = write_list(tmp_path, "mine", "cat\ndog\nset\n", f"[letters]\n{letters}")

    missing, share = left_out(load(path))

    assert missing == ["e", "s", "t"]
    assert share == pytest.approx(4 / 9)  # s, e, t and the t of cat: 4 of the 9 letters
    assert left_out(load(write_list(tmp_path, "all", "cat\n"))) == ([], 0.0)
