"""What a host sees: clear one-line errors instead of tracebacks, and settings that mean what they say."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from websocket import WebSocketBadStatusException, create_connection

from tests.support import ROOT, Client, LiveServer


def run_wibble(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wibble", *args],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_port_in_use_is_a_one_line_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_wibble("serve", "--port", str(port))
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("WIBBLE_IDLE_TIMEOUT", "abc"),
        ("WIBBLE_MAX_GAMES", "0"),
        ("WIBBLE_RATE_LIMIT", "true"),
        ("WIBBLE_CACHE_DIR", "true"),  # JSON true, not a folder
        ("WIBBLE_CACHE_DIR", "7"),
    ],
)
def test_a_bad_setting_is_named_not_a_traceback(variable: str, value: str) -> None:
    result = run_wibble("serve", "--port", "0", env={variable: value})
    assert result.returncode == 2
    assert variable in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unknown_default_list_or_folder_is_a_one_line_error(tmp_path: Path) -> None:
    unknown = run_wibble("serve", "--port", "0", "--words", "klingon")
    assert unknown.returncode == 2
    assert "klingon" in unknown.stderr
    missing = run_wibble("serve", "--port", "0", "--words-dir", str(tmp_path / "nowhere"))
    assert missing.returncode == 2
    assert "nowhere" in missing.stderr
    assert "Traceback" not in unknown.stderr + missing.stderr


def test_wordlists_checks_every_list_and_names_the_bad_line(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text("cat\ndog\n", encoding="utf-8")
    (tmp_path / "bad.txt").write_text("cat\ndog\nc4t\n", encoding="utf-8")
    (tmp_path / "wide.txt").write_text("cat\n", encoding="utf-16")
    (tmp_path / "folder.txt").mkdir()  # not a list, and not a crash either
    result = run_wibble("wordlists", "--words-dir", str(tmp_path))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any(line.startswith("good:") and "2 words" in line for line in lines), lines
    assert any(line.startswith("bad: ERROR") and "bad.txt:3" in line for line in lines), lines
    assert any(line.startswith("wide: ERROR") and "UTF-16" in line for line in lines), lines
    assert not any(line.startswith("folder") for line in lines)
    assert "Traceback" not in result.stderr


def test_wordlists_names_a_list_whose_boards_cannot_hold_the_words_asked(tmp_path: Path) -> None:
    """A host's list where few words, or none, can score: the check says so before players find
    out on a board with nothing on it."""
    (tmp_path / "few.txt").write_text("cat\ndog\nact\nat\n", encoding="utf-8")
    (tmp_path / "short.txt").write_text("ab\nba\n", encoding="utf-8")
    (tmp_path / "short.toml").write_text("min_length = 3\n", encoding="utf-8")
    result = run_wibble("wordlists", "--words-dir", str(tmp_path), "--min-words", "3")
    assert result.returncode == 0  # warnings: the lists still load and play
    lines = result.stdout.splitlines()
    assert "only" not in result.stdout  # 3 words of 3 letters or more: as many as asked
    assert any("none of its words has 3 letters or more" in line for line in lines), lines
    fewer = run_wibble("wordlists", "--words-dir", str(tmp_path))  # serve's default: 30
    assert "only 3 of its words can score, fewer than the 30" in fewer.stdout


def test_wordlists_and_definitions_check_a_hosts_definitions_file(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text("casa\ncasas\nperro\n", encoding="utf-8")
    (tmp_path / "good.definitions.tsv").write_text("casa\tnombre\tedificio\ncasas\t=\tcasa\n", "utf-8")
    (tmp_path / "bad.txt").write_text("gato\n", encoding="utf-8")
    (tmp_path / "bad.definitions.tsv").write_text("# ok\ngato\tnombre\n", "utf-8")
    (tmp_path / "none.txt").write_text("cat\n", encoding="utf-8")
    checked = run_wibble("wordlists", "--words-dir", str(tmp_path))
    assert checked.returncode == 1
    assert "  good.definitions.tsv: 2 words defined" in checked.stdout.splitlines()
    assert "bad.definitions.tsv:2" in checked.stdout
    compiled = run_wibble(
        "definitions", "--words-dir", str(tmp_path), env={"WIBBLE_CACHE_DIR": str(tmp_path / "cache")}
    )
    assert compiled.returncode == 1
    lines = compiled.stdout.splitlines()
    assert any(line.startswith("good: 2 words defined from good.definitions.tsv") for line in lines), lines
    assert any(line.startswith("bad: ERROR") and "bad.definitions.tsv:2" in line for line in lines), lines
    assert any(line.startswith("none: no definitions") for line in lines), lines
    assert list((tmp_path / "cache").glob("good-*.definitions.sqlite"))
    assert "Traceback" not in checked.stderr + compiled.stderr

    # A cache folder that cannot be written (a file in its place): said, and not a success.
    (tmp_path / "not-a-folder").write_text("", encoding="utf-8")
    unwritten = run_wibble(
        "definitions", "--words-dir", str(tmp_path), env={"WIBBLE_CACHE_DIR": str(tmp_path / "not-a-folder")}
    )
    assert unwritten.returncode == 1
    assert any(
        line.startswith("good: ERROR its definitions could not be written in")
        for line in unwritten.stdout.splitlines()
    ), unwritten.stdout


def test_a_broken_list_is_logged_once_without_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text("cat\ndog\n", encoding="utf-8")
    (tmp_path / "zbad.txt").write_text("cat\n4\n", encoding="utf-8")  # sorts after the default
    server = LiveServer("--words-dir", str(tmp_path))
    try:
        client = Client(server.ws_url)
        for _ in range(3):
            client.send({"type": "new_game", "wordlist": "zbad"})
            assert client.recv()["code"] == "game/wordlist_unavailable"
        client.close()
    finally:
        server.stop()
    log = "".join(server.output)
    assert log.count("zbad.txt:2") == 1, log  # remembered, not re-read per request
    assert "Traceback" not in log


def test_a_malformed_websocket_handshake_is_a_400_not_a_server_error(server: LiveServer) -> None:
    request = urllib.request.Request(
        server.url + "/ws", headers={"Upgrade": "websocket", "Connection": "Upgrade"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 400
    refused.value.close()
    client = Client(server.ws_url)
    assert client.ask({"type": "new_game"})["type"] == "game"  # and all is well
    client.close()


def test_allowed_origins_may_be_a_comma_separated_list() -> None:
    env = {"WIBBLE_ALLOWED_ORIGINS": "https://one.example, https://two.example"}
    server = LiveServer(env=env)
    try:
        for origin in ("https://one.example", "https://two.example"):
            Client(server.ws_url, origin=origin).close()
        with pytest.raises(WebSocketBadStatusException) as refused:
            create_connection(server.ws_url, origin="h", timeout=10)
        assert refused.value.status_code == 403
    finally:
        server.stop()
