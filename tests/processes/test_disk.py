"""A small disk of its own for the server: full, or read-only, as a host's disk can be.

Each test runs the server inside its own user and mount namespace (``unshare``,
from util-linux: no root needed), on a tmpfs the size the test chooses, so the
disk really fills up and really refuses writes; nothing on the machine is touched.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.processes.test_restart import Player, new_game
from tests.support import ROOMY_BUDGETS, ROOT, WS_PATH, Client, shipped_list
from wibble.core import Trie

SCRIPT = r"""
set -e
mount -t tmpfs -o size={size} tmpfs {mount}
mkdir -p {mount}/data
{before}
cd {root}
{python} -m wibble serve --port 0 --data-dir {mount}/data > {log} 2>&1 &
server=$!
# The test asks for the disk to fill up, or to be freed, by creating files outside.
while kill -0 $server 2>/dev/null; do
    if [ -e {control}/fill ]; then
        rm {control}/fill
        dd if=/dev/zero of={mount}/filler bs=4k 2>/dev/null || true
        touch {control}/filled
    fi
    if [ -e {control}/free ]; then
        rm {control}/free {mount}/filler
        touch {control}/freed
    fi
    sleep 0.05
done
wait $server
"""


UNPACED = {"WIBBLE_RATE_LIMIT": "100000", "WIBBLE_RATE_BURST": "100000"}
"""The full disk's test plays word after word as fast as they are answered, as long as the disk
takes them (up to 20): past 80 messages in a second a connection is rate-limited, and would
hear that where a chain was due."""


class Sandboxed:
    """``wibble serve`` on a tmpfs of its own, in a user + mount namespace."""

    def __init__(self, tmp_path: Path, size: str, before: str = "") -> None:
        self.control = tmp_path / "control"
        self.control.mkdir()
        self.log = tmp_path / "server.log"
        mount = tmp_path / "disk"
        mount.mkdir()
        script = SCRIPT.format(
            size=size,
            mount=shlex.quote(str(mount)),
            before=before.format(mount=shlex.quote(str(mount)), python=shlex.quote(sys.executable)),
            root=shlex.quote(str(ROOT)),
            python=shlex.quote(sys.executable),
            log=shlex.quote(str(self.log)),
            control=shlex.quote(str(self.control)),
        )
        self.process = subprocess.Popen(
            ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script],
            env={**os.environ, **ROOMY_BUDGETS, **UNPACED, "PYTHONUNBUFFERED": "1"},
            start_new_session=True,
        )

    def output(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = re.search(pattern, self.output())
            if match:
                return match
            if self.process.poll() is not None and not re.search(pattern, self.output()):
                break
            time.sleep(0.05)
        raise AssertionError(f"never saw {pattern!r} in:\n{self.output()}")

    def ask(self, what: str, timeout: float = 30) -> None:
        (self.control / what).touch()
        done = self.control / {"fill": "filled", "free": "freed"}[what]
        deadline = time.monotonic() + timeout
        while not done.exists():
            assert time.monotonic() < deadline, f"the sandbox did not {what} the disk"
            time.sleep(0.05)
        done.unlink()

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, 15)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait()


@pytest.fixture
def sandboxes(tmp_path: Path) -> Iterator[list[Sandboxed]]:
    started: list[Sandboxed] = []
    yield started
    for sandbox in started:
        sandbox.stop()


@pytest.fixture(scope="module")
def english() -> Trie:
    return shipped_list("en").trie


def test_a_full_disk_refuses_moves_without_losing_any_and_play_recovers(
    tmp_path: Path, sandboxes: list[Sandboxed], english: Trie
) -> None:
    sandbox = Sandboxed(tmp_path, "2m")
    sandboxes.append(sandbox)
    url = sandbox.wait_for(r"running at (http://\S+?)/?\s").group(1)
    ws_url = url.replace("http://", "ws://") + WS_PATH
    opened: list[Client] = []

    def connect() -> Client:
        opened.append(Client(ws_url))
        return opened[-1]

    try:
        first = connect()
        player = Player(first, english, new_game(first, seed=77))
        resume = {"type": "resume", "game_id": player.game["game_id"], "token": player.game["token"]}
        player.client = connect()
        player.client.ask(resume)
        player.play_word()
        saved = player.acknowledged[-1]

        sandbox.ask("fill")
        refused = None
        for _ in range(20):  # the WAL may have room for a few more commits; then the disk is full
            path = player.next_word()
            player.client.send({"type": "press", "row": path[0][0], "col": path[0][1]})
            for row, col in path[1:]:
                player.client.send({"type": "enter", "row": row, "col": col})
            for _ in path:
                chain = player.client.recv()
                assert chain["type"] == "chain", chain
            reply = player.client.ask({"type": "release"})
            if reply["type"] == "error":
                refused = reply
                break
            assert reply["type"] == "word", reply
            player.acknowledged.append(reply)
            for tile in reply.get("changed", []):  # a scored word's refill comes with it
                player.board[tile["row"]][tile["col"]] = tile["letter"].lower()
        assert refused is not None, "the disk never filled up"
        assert refused["code"] == "server/storage", refused
        assert "storage" in sandbox.output() or "full" in sandbox.output()

        # The refused word was not taken: the game is as the last acknowledged move left it.
        player.client.send({"type": "cancel"})
        snapshot = connect().ask(resume)
        assert snapshot["version"] == player.acknowledged[-1]["version"]
        assert snapshot["total"] == player.acknowledged[-1]["total"] >= saved["total"]

        sandbox.ask("free")
        player.client = connect()
        player.client.ask(resume)
        player.play_word()
        assert player.acknowledged[-1]["result"] == "scored"
        assert player.acknowledged[-1]["version"] == snapshot["version"] + 1
    finally:
        for client in opened:
            client.close()


def test_a_full_disk_at_start_is_a_one_line_error(tmp_path: Path, sandboxes: list[Sandboxed]) -> None:
    fill = "dd if=/dev/zero of={mount}/filler bs=4k 2>/dev/null || true"
    sandbox = Sandboxed(tmp_path, "256k", before=fill)
    sandboxes.append(sandbox)
    assert sandbox.process.wait(60) != 0
    lines = [line for line in sandbox.output().splitlines() if line.startswith("wibble: ")]
    assert len(lines) == 1, sandbox.output()
    assert "full" in lines[0]
    assert "Traceback" not in sandbox.output()


def test_a_read_only_database_is_a_one_line_error(tmp_path: Path, sandboxes: list[Sandboxed]) -> None:
    # A database made by an earlier run, then the disk remounted read-only.
    make = (
        '{python} -c "import sys; from wibble.engines.store import SqliteStore; '
        "SqliteStore(__import__('pathlib').Path(sys.argv[1])).close()\" {mount}/data/wibble.db"
        " && mount -o remount,ro {mount}"
    )
    sandbox = Sandboxed(tmp_path, "4m", before="cd " + shlex.quote(str(ROOT)) + " && " + make)
    sandboxes.append(sandbox)
    assert sandbox.process.wait(60) != 0
    lines = [line for line in sandbox.output().splitlines() if line.startswith("wibble: ")]
    assert len(lines) == 1, sandbox.output()
    assert "read-only" in lines[0]
