"""Wibble runs where flask-sock runs (docs/deploy.md, "Which server"): ``wibble serve``,
gunicorn's gevent worker and ``flask run`` (Werkzeug's development server, a thread per
connection) each start on a free port with a fresh data folder, answer ``/healthz``, play a
word over a real websocket, answer a second connection, and stop on SIGTERM."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gunicorn
import pytest
from websocket import ABNF, WebSocketConnectionClosedException

from tests.support import ROOMY_BUDGETS, ROOT, WS_PATH, Client, LiveServer
from tests.wire import a_word, new_game, play, points_on, resume_of

SEED = 1234
START_SECONDS = 60.0  # a first start compiles the word list into the run's empty cache
STOP_SECONDS = 15.0
SERVICE_RESTART = 1012


class Hosted(LiveServer):
    """Another server command than ``wibble serve`` in a subprocess, as a host would run it: its
    output drained from the start (a full pipe never blocks it), its address read from what it
    prints (it listens on port 0, so the system picks a free port and nobody can take it first).
    A ``LiveServer`` for everything else: ``url``, ``ws_url``, ``output``, ``stop``."""

    def __init__(self, command: list[str], env: dict[str, str], listening: str) -> None:
        # Not LiveServer.__init__: that one starts `wibble serve`.
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, **ROOMY_BUDGETS, **env, "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.output: list[str] = []
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        deadline = time.monotonic() + START_SECONDS
        while not (found := re.search(listening, "".join(self.output))):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"{command} did not start:\n" + "".join(self.output))
            time.sleep(0.05)
        self.url = found.group(1).rstrip("/")
        self.ws_url = self.url.replace("http://", "ws://") + WS_PATH


def wibble_serve(data: Path) -> LiveServer:
    return LiveServer("--data-dir", str(data))


def gunicorn_gevent(data: Path) -> LiveServer:
    """docs/deploy.md's command, on port 0: one gevent worker (games live in its memory)."""
    command = [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "--bind", "127.0.0.1:0"]
    if gunicorn.version_info >= (25, 1):
        command.append("--no-control-socket")  # else every run's socket lands in ~/.gunicorn
    command.append("wibble.web.app:create_app()")
    return Hosted(command, {"WIBBLE_DATA_DIR": str(data)}, r"Listening at: (http://\S+)")


def flask_run(data: Path) -> LiveServer:
    command = [sys.executable, "-m", "flask", "--app", "wibble.web.app", "run", "--port", "0"]
    return Hosted(command, {"WIBBLE_DATA_DIR": str(data)}, r"Running on (http://\S+)")


@dataclass(frozen=True)
class Kind:
    start: Callable[[Path], LiveServer]
    goodbye: int | None
    """What a connection still open at SIGTERM hears: a close code, or None for the connection
    cut without a close frame."""
    leave_first: bool = False
    """The players leave before SIGTERM: the server would hold them (gunicorn: for its
    ``--graceful-timeout``, 30 s) and then cut them."""
    exit_code: int = 0


KINDS = [
    pytest.param(Kind(wibble_serve, goodbye=SERVICE_RESTART), id="wibble-serve"),
    pytest.param(Kind(gunicorn_gevent, goodbye=None, leave_first=True), id="gunicorn-gevent"),
    # No SIGTERM handler: the process dies of the signal at once, and its websockets with it.
    pytest.param(Kind(flask_run, goodbye=None, exit_code=-signal.SIGTERM), id="flask-run"),
]


@pytest.fixture
def launch() -> Iterator[Callable[[Callable[[Path], LiveServer], Path], LiveServer]]:
    """Start a server; every one started is stopped (SIGTERM, then SIGKILL) however the test ends."""
    started: list[LiveServer] = []

    def start(how: Callable[[Path], LiveServer], data: Path) -> LiveServer:
        server = how(data)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def healthy(server: LiveServer) -> dict[str, Any]:
    """``/healthz``'s answer, once there is one (a worker may still be booting)."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=5) as response:
                answer: dict[str, Any] = json.loads(response.read())
                return answer
        except OSError as exc:
            if not server.alive() or time.monotonic() > deadline:
                raise RuntimeError(f"no answer on /healthz ({exc}):\n" + "".join(server.output)) from None
        time.sleep(0.05)


def goodbye(client: Client) -> int | None:
    """Read until the server's close frame: its code; None if the connection ended without one."""
    client.ws.settimeout(STOP_SECONDS)
    try:
        while True:
            opcode, frame = client.ws.recv_data_frame(True)
            if opcode == ABNF.OPCODE_CLOSE:
                return int.from_bytes(frame.data[:2], "big") if len(frame.data) >= 2 else None
    except (WebSocketConnectionClosedException, ConnectionError):
        return None


def saved_version(data: Path, game_id: str) -> int | None:
    with closing(sqlite3.connect(data / "wibble.db")) as db:
        row = db.execute("SELECT version FROM documents WHERE id = ?", (game_id,)).fetchone()
    return None if row is None else int(row[0])


@pytest.mark.parametrize("kind", KINDS)
def test_a_word_is_played_and_scored_then_the_server_stops(
    kind: Kind,
    tmp_path: Path,
    launch: Callable[[Callable[[Path], LiveServer], Path], LiveServer],
    clients: Callable[[LiveServer], Client],
) -> None:
    data = tmp_path / "data"
    server = launch(kind.start, data)

    def output() -> str:
        return "".join(server.output)

    health = healthy(server)
    assert health["ok"] is True, health
    assert health["store"] == "sqlite", health  # WIBBLE_DATA_DIR / --data-dir was read

    player = clients(server)
    game = new_game(player, seed=SEED)
    word, path = a_word(game)
    _, judged, board = play(player, path)
    points = points_on(game, path)
    assert {key: judged[key] for key in ("type", "word", "result", "points", "total", "version")} == {
        "type": "word",
        "word": word.upper(),
        "result": "scored",
        "points": points,
        "total": points,
        "version": 1,
    }, output()
    assert board is not None  # the refill of its tiles, in the same message
    assert sorted((tile["row"], tile["col"]) for tile in board["changed"]) == sorted(path), board

    # A second connection is answered too, by the process that holds the game.
    other = clients(server)
    seen = other.ask(resume_of(game))
    assert seen["type"] == "game", seen
    assert (seen["total"], seen["version"]) == (points, 1), seen
    assert [entry["word"].lower() for entry in seen["found"]] == [word.lower()], seen

    if kind.leave_first:
        for client in (player, other):
            client.close()
    server.process.terminate()
    if not kind.leave_first:
        assert [goodbye(player), goodbye(other)] == [kind.goodbye, kind.goodbye], output()
    assert server.process.wait(STOP_SECONDS) == kind.exit_code, output()
    server.stop()  # collects the rest of its output
    assert "Traceback" not in output(), output()
    assert saved_version(data, game["game_id"]) == 1  # the word is in the data folder given
