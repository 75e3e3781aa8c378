"""``wibble solve``: a host types a board and gets every word it allows, as text or JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT

# c a b t x
# x t x x x   (t at 1,1 touches c, a and b)
# x x x x x
# x x x x ñ
# x x x x o
TINY_BOARD = "cabtx/xtxxx/xxxxx/xxxxñ/xxxxo"
TINY_WORDS = ["cab", "cat", "act", "bat", "tab", "bact", "ab", "bab", "año", "ño"]
TINY_SETTINGS = """\
min_length = 3

[letters]
a = { score = 1, weight = 1 }
b = { score = 3, weight = 1 }
c = { score = 15, weight = 1 }
t = { score = 2, weight = 1 }
x = { score = 0, weight = 1 }
"ñ" = { score = 8, weight = 1 }
o = { score = 1, weight = 1 }
"""
EN_BOARD = "catsd/ogent/ratin/dlemp/vowsa"


@pytest.fixture(scope="module")
def words_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("words")
    (folder / "zz.txt").write_text("\n".join(TINY_WORDS) + "\n", encoding="utf-8")
    (folder / "zz.toml").write_text(TINY_SETTINGS, encoding="utf-8")
    (folder / "yy.txt").write_text("cab\n", encoding="utf-8")
    return folder


def wibble_solve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wibble", "solve", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONUTF8": "1"},
        capture_output=True,
        encoding="utf-8",
        timeout=60,
    )


def tiny(words_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return wibble_solve("--words-dir", str(words_dir), "--words", "zz", *args)


def test_text_lists_every_word_best_first_with_score_and_path(words_dir: Path) -> None:
    result = tiny(words_dir, TINY_BOARD)
    assert result.returncode == 0, result.stderr
    # "bab" needs the b twice, "año" has no a beside the ñ, "ab" is under the minimum length.
    assert result.stdout == (
        "bact  21  0,2 0,1 0,0 1,1\n"
        "cab   19  0,0 0,1 0,2\n"
        "act   18  0,1 0,0 1,1\n"
        "cat   18  0,0 0,1 1,1\n"
        "bat    6  0,2 0,1 1,1\n"
        "tab    6  1,1 0,1 0,2\n"
        "6 words, best bact (21 points)\n"
    )
    assert result.stderr == ""


def test_json_gives_word_score_and_path_in_the_same_order(words_dir: Path) -> None:
    text = tiny(words_dir, TINY_BOARD)
    result = tiny(words_dir, "--json", TINY_BOARD)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found[0] == {"word": "bact", "score": 21, "path": [[0, 2], [0, 1], [0, 0], [1, 1]]}
    assert [f["word"] for f in found] == [line.split()[0] for line in text.stdout.splitlines()[:-1]]


def test_json_paths_spell_their_words_on_a_real_board() -> None:
    result = wibble_solve("--json", EN_BOARD)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    rows = EN_BOARD.split("/")
    assert len(found) > 100
    assert all(set(f) == {"word", "score", "path"} for f in found)
    assert [(-f["score"], f["word"]) for f in found] == sorted((-f["score"], f["word"]) for f in found)
    assert len({f["word"] for f in found}) == len(found)
    for f in found:
        path = [tuple(step) for step in f["path"]]
        assert "".join(rows[r][c] for r, c in path) == f["word"]
        assert len(set(path)) == len(path)
        steps = zip(path, path[1:], strict=False)
        assert all(max(abs(r1 - r2), abs(c1 - c2)) == 1 for (r1, c1), (r2, c2) in steps)
        assert len(f["word"]) >= 3
    words = {f["word"] for f in found}
    assert {"meadows", "cat", "cats", "gent"} <= words
    assert "dog" not in words  # d, o and g are all there, but the d touches neither


def test_rows_may_be_split_by_slashes_or_not_in_either_case(words_dir: Path) -> None:
    one_line = tiny(words_dir, TINY_BOARD.replace("/", ""))
    spaced = tiny(words_dir, TINY_BOARD.upper().replace("/", " / "))
    assert one_line.returncode == spaced.returncode == 0
    assert one_line.stdout == spaced.stdout == tiny(words_dir, TINY_BOARD).stdout


def test_letters_beyond_ascii(words_dir: Path) -> None:
    result = tiny(words_dir, "--json", "xxxxx/xxxxx/xxxxx/xxxaÑ/xxxxO")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [{"word": "año", "score": 10, "path": [[3, 3], [3, 4], [4, 4]]}]


def test_a_board_without_words(words_dir: Path) -> None:
    board = "xxxxx/xxxxx/xxxxx/xxxxx/xxxxx"
    text = tiny(words_dir, board)
    assert (text.returncode, text.stdout) == (0, "no words\n")
    as_json = tiny(words_dir, "--json", board)
    assert (as_json.returncode, json.loads(as_json.stdout)) == (0, [])


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ("cabtx/xtxxx/xxxxx/xxxxx", "20 were given"),
        ("cabtx/xtxxx/xxxxx/xxxxx/xxxx", "different lengths (5, 5, 5, 5, 4)"),
        ("/".join("cabtxxtxxxxxxxxxxxxxxxxxx"), "25 rows were given"),
        ("cabtxxtxxxxxxxxxxxxxxxxxxx", "26 were given"),
        ("", "0 were given"),
        ("cabtx/xtxx/xxxxx/xxxxx/xxxxxx", "different lengths (5, 4, 5, 5, 6)"),
        ("cabtx/xtxxx/xxxxx/xxxxx/xxxxq", "'q' is not a tile of the list 'zz' (tiles: a b c t x ñ o)"),
        ("cabtx/xtxxx/xxxxx/xxxxx/xxxx1", "'1' is not a tile"),
    ],
)
def test_a_bad_board_is_refused_with_a_one_line_reason(words_dir: Path, board: str, message: str) -> None:
    result = tiny(words_dir, board)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("wibble: ")
    assert message in result.stderr
    assert result.stderr.count("\n") == 1


def test_an_unknown_list_is_refused_naming_the_lists_there_are(words_dir: Path) -> None:
    result = wibble_solve("--words-dir", str(words_dir), "--words", "nope", TINY_BOARD)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "'nope'" in result.stderr
    assert "yy" in result.stderr
    assert "zz" in result.stderr
    assert result.stderr.count("\n") == 1
