"""Nothing acknowledged is lost: real servers, killed (SIGKILL) or stopped (SIGTERM), real SQLite files."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websocket import ABNF, WebSocketException

from tests.support import (
    ROOT,
    Client,
    LiveServer,
    find_paths,
    letters_of,
    shipped_list,
    versions_in_database_file,
)
from wibble.core import Trie

StartServer = Callable[..., LiveServer]

COMMITTED = ("board", "found", "total", "version", "words_left", "seed", "wordlist")


@pytest.fixture(scope="module")
def english() -> Trie:
    return shipped_list("en").trie


class Player:
    """A websocket client that plays real words on its game's board and remembers what was acknowledged."""

    def __init__(self, client: Client, trie: Trie, game: dict[str, Any]) -> None:
        self.client, self.trie, self.game = client, trie, game
        self.board = letters_of(game["board"])
        self.acknowledged: list[dict[str, Any]] = []  # `word` messages received, in order

    def next_word(self) -> list[tuple[int, int]]:
        found = {entry["word"].lower() for entry in self.game["found"]} | {
            w["word"].lower() for w in self.acknowledged if w["result"] == "scored"
        }
        words = [(w, p) for w, p in find_paths(self.board, self.trie, 3) if w not in found]
        return max(words, key=lambda wp: (len(wp[0]), wp[0]))[1]

    def play_word(self) -> dict[str, Any]:
        path = self.next_word()
        self.client.send({"type": "press", "row": path[0][0], "col": path[0][1]})
        for row, col in path[1:]:
            self.client.send({"type": "enter", "row": row, "col": col})
        self.client.send({"type": "release"})
        while True:
            message = self.client.recv()
            if message["type"] == "word":
                self.acknowledged.append(message)
                for tile in message.get("changed", []):  # a scored word's refill comes with it
                    self.board[tile["row"]][tile["col"]] = tile["letter"].lower()
                return message
            assert message["type"] == "chain", message


def new_game(client: Client, **fields: Any) -> dict[str, Any]:
    game = client.ask({"type": "new_game", **fields})
    assert game["type"] == "game", game
    return game


def resume(client: Client, game: dict[str, Any]) -> dict[str, Any]:
    return client.ask({"type": "resume", "game_id": game["game_id"], "token": game["token"]})


def committed(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {key: snapshot[key] for key in COMMITTED}


def test_sigkill_then_restart_loses_no_acknowledged_word(
    tmp_path: Path, start_server: StartServer, clients: Callable[[LiveServer], Client], english: Trie
) -> None:
    """Several games, several tabs each, a drag in progress on one: kill -9, start again, all there."""
    first = start_server("--data-dir", str(tmp_path))
    players, snapshots = [], []
    for seed in (11, 22, 33):
        tab = clients(first)
        player = Player(tab, english, new_game(tab, seed=seed))
        other_tab = clients(first)
        resume(other_tab, player.game)
        for _ in range(3):
            player.play_word()
        players.append(player)
        # What a third tab sees now is what was acknowledged.
        snapshots.append(committed(resume(clients(first), player.game)))
    # A drag in progress when the server dies is ephemeral: only it may be lost.
    dragger = players[0]
    path = dragger.next_word()
    dragger.client.send({"type": "press", "row": path[0][0], "col": path[0][1]})
    assert dragger.client.recv()["type"] == "chain"

    first.kill()
    second = start_server("--data-dir", str(tmp_path))

    for player, before in zip(players, snapshots, strict=True):
        after = resume(clients(second), player.game)
        assert committed(after) == before
        assert (after["phase"], after["chain"]) == ("idle", [])
        assert [w["word"] for w in after["found"]] == [w["word"] for w in player.acknowledged]


def test_a_restored_game_goes_on_exactly_like_one_never_interrupted(
    tmp_path: Path, start_server: StartServer, clients: Callable[[LiveServer], Client], english: Trie
) -> None:
    steady = start_server("--data-dir", "")
    interrupted = start_server("--data-dir", str(tmp_path / "a"))
    a = Player(clients(steady), english, new_game(clients(steady), seed=4242))
    a.client = clients(steady)
    resume(a.client, a.game)
    b = Player(clients(interrupted), english, new_game(clients(interrupted), seed=4242))
    b.client = clients(interrupted)
    resume(b.client, b.game)
    for _ in range(2):
        assert a.play_word()["changed"] == b.play_word()["changed"]

    interrupted.kill()
    restarted = start_server("--data-dir", str(tmp_path / "a"))
    b.client = clients(restarted)
    resume(b.client, b.game)
    for _ in range(3):
        # The same words give the same refills, tile for tile: the generator's position was saved.
        assert a.play_word()["changed"] == b.play_word()["changed"]
    assert [w["total"] for w in a.acknowledged] == [w["total"] for w in b.acknowledged]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sigkill_at_a_random_moment_keeps_every_word_the_client_saw(
    seed: int,
    tmp_path: Path,
    start_server: StartServer,
    clients: Callable[[LiveServer], Client],
    english: Trie,
) -> None:
    unpaced = {"WIBBLE_RATE_LIMIT": "100000", "WIBBLE_RATE_BURST": "100000"}  # words as fast as it can
    server = start_server("--data-dir", str(tmp_path), env=unpaced)
    player = Player(clients(server), english, new_game(clients(server), seed=seed))
    player.client = clients(server)
    resume(player.client, player.game)
    player.play_word()  # the server is warm: the kill lands mid-play, not mid-start
    killer = threading.Timer(random.Random(seed).uniform(0.05, 0.6), server.kill)
    killer.start()
    try:
        while True:
            player.play_word()
    except (WebSocketException, OSError, json.JSONDecodeError):
        pass
    killer.join()

    again = start_server("--data-dir", str(tmp_path))
    restored = resume(clients(again), player.game)
    seen = [w["word"] for w in player.acknowledged if w["result"] == "scored"]
    kept = [w["word"] for w in restored["found"]]
    # Every acknowledged word is there; at most one more, committed just before the kill
    # but never acknowledged, may follow them.
    assert kept[: len(seen)] == seen
    assert len(kept) - len(seen) in (0, 1)
    assert len(seen) >= 1


def close_code(client: Client, timeout: float = 10) -> int | None:
    """Read frames until the server's close frame; its status code."""
    client.ws.settimeout(timeout)
    while True:
        opcode, frame = client.ws.recv_data_frame(True)
        if opcode == ABNF.OPCODE_CLOSE:
            return int.from_bytes(frame.data[:2], "big") if len(frame.data) >= 2 else None


def test_sigterm_tells_players_the_server_is_restarting_and_exits_cleanly(
    tmp_path: Path, start_server: StartServer, clients: Callable[[LiveServer], Client]
) -> None:
    server = start_server("--data-dir", str(tmp_path))
    players = [clients(server) for _ in range(3)]
    for client in players:
        new_game(client)

    server.process.terminate()

    assert [close_code(client) for client in players] == [1012, 1012, 1012]
    assert server.process.wait(15) == 0
    server.stop()  # collects the rest of its output
    output = "".join(server.output)
    assert "Traceback" not in output, output
    assert "KeyboardInterrupt" not in output, output
    # Closed cleanly: everything is in the one file, the write-ahead log folded in and gone.
    assert sorted(path.name for path in tmp_path.iterdir()) == ["wibble.db"]


def test_a_second_server_on_a_folder_in_use_says_so_in_its_log(
    tmp_path: Path, start_server: StartServer
) -> None:
    first = start_server("--data-dir", str(tmp_path))
    second = start_server("--data-dir", str(tmp_path))
    second.stop()
    first.stop()
    after = start_server("--data-dir", str(tmp_path))  # the folder is free again
    after.stop()

    warning = "another Wibble process serves games from"
    assert warning in "".join(second.output)
    assert warning not in "".join(first.output) + "".join(after.output)


def test_a_running_server_soon_copies_what_was_played_into_the_database_file_itself(
    tmp_path: Path, start_server: StartServer, clients: Callable[[LiveServer], Client], english: Trie
) -> None:
    """SQLite keeps commits in its write-ahead log until a checkpoint copies them into the file.
    Left to itself it does that inside whichever commit fills 1,000 pages, stalling every player;
    the server checkpoints every half second on a thread instead, so two words are in the file
    itself half a second later (the test allows ten, for a busy machine)."""
    server = start_server("--data-dir", str(tmp_path))
    player = Player(clients(server), english, new_game(clients(server), seed=5))
    player.client = clients(server)
    version = resume(player.client, player.game)["version"]
    for _ in range(2):
        player.play_word()
    version += 2

    def in_the_file() -> int | None:
        versions = versions_in_database_file(tmp_path / "wibble.db", tmp_path / "copy.db")
        return None if versions is None else versions.get(player.game["game_id"])

    deadline = time.monotonic() + 10
    while (found := in_the_file()) != version and time.monotonic() < deadline:
        time.sleep(0.1)
    assert found == version


def test_a_game_record_replays_to_the_same_final_state_after_a_restart(
    tmp_path: Path, start_server: StartServer, clients: Callable[[LiveServer], Client], english: Trie
) -> None:
    server = start_server("--data-dir", str(tmp_path))
    player = Player(clients(server), english, new_game(clients(server), seed=99))
    player.client = clients(server)
    resume(player.client, player.game)
    for _ in range(4):
        player.play_word()
    server.kill()
    server = start_server("--data-dir", str(tmp_path))
    url = f"{server.url}/games/{player.game['game_id']}/record"
    record = json.loads(urllib.request.urlopen(url, timeout=10).read())
    assert player.game["token"] not in json.dumps(record)
    assert [m["word"] for m in record["moves"]] == [w["word"].lower() for w in player.acknowledged]

    replayed = wibble("replay", url)
    assert replayed.returncode == 0, replayed.stderr
    assert "same final state" in replayed.stdout

    record["moves"][1]["path"] = list(reversed(record["moves"][1]["path"]))
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(record))
    refused = wibble("replay", str(edited))
    assert refused.returncode == 1
    assert "move 2" in refused.stderr


def wibble(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wibble", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# -- a store that cannot be used --------------------------------------------------------


def serve_fails(*args: str) -> subprocess.CompletedProcess[str]:
    """``wibble serve`` that must stop at start-up (port 0, so a server that does start is noticed)."""
    try:
        return wibble("serve", "--port", "0", *args, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("the server started instead of refusing the data folder")


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("wibble: "), done.stderr
    return lines[0]


def test_a_database_from_a_newer_wibble_is_refused_at_start(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "wibble.db") as db:
        db.execute("PRAGMA user_version = 999")
    assert "newer" in one_line_error(serve_fails("--data-dir", str(tmp_path)))


def test_a_database_locked_by_another_process_is_refused_at_start(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "wibble.db", isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    try:
        assert "locked by another process" in one_line_error(serve_fails("--data-dir", str(tmp_path)))
    finally:
        db.execute("ROLLBACK")
        db.close()


def test_a_file_that_is_not_a_database_is_refused_at_start(tmp_path: Path) -> None:
    (tmp_path / "wibble.db").write_bytes(b"this is not SQLite" * 100)
    assert "not a Wibble database" in one_line_error(serve_fails("--data-dir", str(tmp_path)))


def test_a_data_folder_that_cannot_be_made_is_refused_at_start(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    assert "cannot create the data folder" in one_line_error(serve_fails("--data-dir", str(blocker / "x")))


def test_a_move_the_store_cannot_save_is_refused_and_play_recovers(
    tmp_path: Path, start_server: StartServer, clients: Callable[[LiveServer], Client], english: Trie
) -> None:
    """Another process holds the database's write lock: moves are refused, then play goes on."""
    server = start_server("--data-dir", str(tmp_path))
    player = Player(clients(server), english, new_game(clients(server), seed=5))
    player.client = clients(server)
    resume(player.client, player.game)
    player.play_word()
    before = committed(resume(clients(server), player.game))
    path = player.next_word()
    player.client.send({"type": "press", "row": path[0][0], "col": path[0][1]})
    for row, col in path[1:]:
        player.client.send({"type": "enter", "row": row, "col": col})
    for _ in path:
        assert player.client.recv()["type"] == "chain"

    blocker = sqlite3.connect(tmp_path / "wibble.db", isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        refused = player.client.ask({"type": "release"})
        assert (refused["type"], refused["code"]) == ("error", "server/storage"), refused
        assert time.monotonic() - started < 5
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()

    # Nothing changed, and the chain is still the player's to release again.
    assert committed(resume(clients(server), player.game)) == before
    player.client = clients(server)
    resume(player.client, player.game)
    player.acknowledged.clear()
    player.play_word()
    assert player.acknowledged[0]["result"] == "scored"
    assert player.acknowledged[0]["version"] == before["version"] + 1
