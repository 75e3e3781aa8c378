"""``--words-dir``: any NAME.txt (with an optional NAME.toml) in the folder is playable, no code change."""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import Client, LiveServer
from tests.wire import Connect, expect_error, new_game, play, resume_of

# Every three-letter string of A and B is a word, so any three tiles in a row score.
TINY_WORDS = ["".join(letters) for letters in itertools.product("ab", repeat=3)]
TINY_SETTINGS = """\
title = "Tiny test list"
language = "xx"
min_length = 3

[letters]
a = { score = 1, weight = 1 }
b = { score = 7, weight = 1 }
"""
BROKEN_LINE = 3


@pytest.fixture(scope="module")
def words_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("words")
    (folder / "zz.txt").write_text("\n".join(TINY_WORDS) + "\n", encoding="utf-8")
    (folder / "zz.toml").write_text(TINY_SETTINGS, encoding="utf-8")
    # No settings file: title, letters and scores are derived from the words.
    (folder / "yy.txt").write_text("cab\nabc\nbad\ndab\n", encoding="utf-8")
    # Broken lists sort after the good ones, so the default list (the first) is good.
    (folder / "zzbadword.txt").write_text("cat\ndog\nc4t\n", encoding="utf-8")
    (folder / "zzbadtoml.txt").write_text("cat\n", encoding="utf-8")
    (folder / "zzbadtoml.toml").write_text("title = \n", encoding="utf-8")
    (folder / "zzlatin1.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    return folder


@pytest.fixture(scope="module")
def dir_server(words_dir: Path) -> Iterator[LiveServer]:
    server = LiveServer("--words-dir", str(words_dir))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def client(dir_server: LiveServer, connect: Connect) -> Client:
    return connect(dir_server.ws_url)


def test_a_custom_list_is_playable(client: Client) -> None:
    game = new_game(client, wordlist="zz", seed=1)
    assert game["wordlist"] == "zz"
    assert game["wordlist_title"] == "Tiny test list"
    assert game["language"] == "xx"
    assert game["min_length"] == 3
    assert game["letters"] == {"A": {"score": 1, "weight": 1.0}, "B": {"score": 7, "weight": 1.0}}
    faces = {tile["letter"] for row in game["board"] for tile in row}
    assert faces <= {"A", "B"}
    path = [(0, 0), (0, 1), (0, 2)]
    chains, judged, board = play(client, path)
    assert [c["status"] for c in chains] == ["prefix", "prefix", "word"]
    word = "".join(game["board"][r][c]["letter"] for r, c in path)
    points = sum(game["board"][r][c]["score"] for r, c in path)
    assert judged["word"] == word
    assert judged["result"] == "scored"
    assert judged["points"] == points
    assert board is not None
    assert {(c["row"], c["col"]) for c in board["changed"]} == set(path)
    assert {c["letter"] for c in board["changed"]} <= {"A", "B"}
    # Two letters make a prefix, not a word: too short.
    _, short, _ = play(client, [(4, 0), (4, 1)])
    assert short["result"] == "too_short"


def test_the_default_is_the_first_list_and_the_bundled_ones_are_not_there(client: Client) -> None:
    game = new_game(client)
    assert game["wordlist"] == "yy"
    assert game["wordlist_title"] == "yy"
    assert game["language"] == ""
    assert set(game["letters"]) == {"A", "B", "C", "D"}
    client.send({"type": "new_game", "wordlist": "en"})
    expect_error(client, "game/unknown_wordlist")


@pytest.mark.parametrize("name", ["zzbadword", "zzbadtoml", "zzlatin1"])
def test_a_broken_list_is_unavailable_and_the_good_ones_still_work(client: Client, name: str) -> None:
    game = new_game(client, wordlist="zz", seed=2)
    for _ in range(2):  # not cached as loaded, not fatal the second time either
        client.send({"type": "new_game", "wordlist": name})
        reply = client.recv()  # (what the message reveals is the next test's business)
        assert reply["type"] == "error", reply
        assert reply["code"] == "game/wordlist_unavailable", reply
        assert reply["request"] == "new_game"
        # The connection is still on its game, and the good lists still load.
        assert client.ask(resume_of(game))["game_id"] == game["game_id"]
    assert new_game(client, wordlist="yy")["wordlist"] == "yy"
    assert new_game(client, wordlist="zz")["wordlist"] == "zz"


def test_a_broken_list_error_does_not_reveal_server_paths(client: Client, words_dir: Path) -> None:
    client.send({"type": "new_game", "wordlist": "zzbadword"})
    reply = client.recv()
    assert reply["code"] == "game/wordlist_unavailable"
    assert str(words_dir) not in reply["message"], reply["message"]
    assert str(words_dir.parent) not in reply["message"], reply["message"]


def test_a_list_dropped_in_while_running_is_playable(client: Client, words_dir: Path) -> None:
    (words_dir / "ww.txt").write_text("ab\nba\naba\n", encoding="utf-8")
    game = new_game(client, wordlist="ww", seed=3)
    assert game["wordlist"] == "ww"
    assert {tile["letter"] for row in game["board"] for tile in row} <= {"A", "B"}


def test_a_list_edited_while_running_is_the_one_new_games_play(client: Client, words_dir: Path) -> None:
    (words_dir / "zzedit.txt").write_text("aab\n", encoding="utf-8")
    (words_dir / "zzedit.toml").write_text('title = "Before"\n', encoding="utf-8")
    assert new_game(client, wordlist="zzedit", seed=4)["wordlist_title"] == "Before"

    (words_dir / "zzedit.txt").write_text("aab\naaa\n", encoding="utf-8")
    (words_dir / "zzedit.toml").write_text('title = "After"\nmin_length = 2\n', encoding="utf-8")
    written_a_while_ago(words_dir, "zzedit")  # (a change is taken once its files are left alone)
    game = new_game(client, wordlist="zzedit", seed=4)

    assert (game["wordlist_title"], game["min_length"]) == ("After", 2)


def written_a_while_ago(folder: Path, name: str) -> None:
    past = time.time() - 10
    for path in (folder / f"{name}.txt", folder / f"{name}.toml"):
        os.utime(path, (past, past))


def test_a_list_whose_settings_are_fixed_while_running_plays(client: Client, words_dir: Path) -> None:
    (words_dir / "zzfix.txt").write_text("aab\n", encoding="utf-8")
    (words_dir / "zzfix.toml").write_text('title = "Broken\n', encoding="utf-8")
    client.send({"type": "new_game", "wordlist": "zzfix"})
    assert client.recv()["code"] == "game/wordlist_unavailable"

    (words_dir / "zzfix.toml").write_text('title = "Fixed"\n', encoding="utf-8")  # its words untouched

    assert new_game(client, wordlist="zzfix", seed=5)["wordlist_title"] == "Fixed"


def test_the_server_log_names_the_broken_line(words_dir: Path) -> None:
    """docs/protocol.md: game/wordlist_unavailable — 'the server log names the line'."""
    server = LiveServer("--words-dir", str(words_dir))
    try:
        probe = Client(server.ws_url)
        try:
            probe.send({"type": "new_game", "wordlist": "zzbadword"})
            assert probe.recv()["code"] == "game/wordlist_unavailable"
        finally:
            probe.close()
    finally:
        server.stop()  # waits for the output to be read
    log = "".join(server.output)
    assert f"zzbadword.txt:{BROKEN_LINE}" in log, log
