"""Wibble runs where flask-sock runs (docs/deploy.md, "Which server"): ``wibble serve``,
gunicorn's gevent worker and ``flask run`` (Werkzeug's development server, a thread per
connection) each start on a free port with a fresh data folder, answer ``/healthz``, play a
word over a real websocket, answer a second connection, and stop on SIGTERM. gunicorn, with
the settings docs/deploy.md gives it (``wibble.gunicorn_conf``), also does what ``wibble serve``
does around the app: a broken word list stops it at start, a room left empty closes after a
restart though nobody opens it, what is played reaches the database file itself, Ctrl+C and a
reload (SIGHUP) tell the pages and lose nothing, and options that would break games (several
workers without Redis, ``--preload``) are refused at start."""

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

from tests.support import ROOMY_BUDGETS, ROOT, WS_PATH, Client, LiveServer, versions_in_database_file
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


def gunicorn_gevent(data: Path, **env: str) -> LiveServer:
    """docs/deploy.md's command, on port 0: one gevent worker (games live in its memory), with
    Wibble's settings and hooks."""
    command = [sys.executable, "-m", "gunicorn", "-c", "python:wibble.gunicorn_conf", "--bind", "127.0.0.1:0"]
    if gunicorn.version_info >= (25, 1):
        command.append("--no-control-socket")  # else every run's socket lands in ~/.gunicorn
    return Hosted(command, {"WIBBLE_DATA_DIR": str(data), **env}, r"Listening at: (http://\S+)")


def flask_run(data: Path) -> LiveServer:
    command = [sys.executable, "-m", "flask", "--app", "wibble.web.app", "run", "--port", "0"]
    return Hosted(command, {"WIBBLE_DATA_DIR": str(data)}, r"Running on (http://\S+)")


@dataclass(frozen=True)
class Kind:
    start: Callable[[Path], LiveServer]
    goodbye: int | None
    """What a connection still open at SIGTERM hears: a close code, or None for the connection
    cut without a close frame."""
    exit_code: int = 0
    closes_store: bool = True
    """On SIGTERM the database is closed: its write-ahead log folded into the one file."""


KINDS = [
    pytest.param(Kind(wibble_serve, goodbye=SERVICE_RESTART), id="wibble-serve"),
    pytest.param(Kind(gunicorn_gevent, goodbye=SERVICE_RESTART), id="gunicorn-gevent"),
    # No SIGTERM handler: the process dies of the signal at once, and its websockets with it.
    pytest.param(
        Kind(flask_run, goodbye=None, exit_code=-signal.SIGTERM, closes_store=False), id="flask-run"
    ),
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

    server.process.terminate()
    assert [goodbye(player), goodbye(other)] == [kind.goodbye, kind.goodbye], output()
    assert server.process.wait(STOP_SECONDS) == kind.exit_code, output()
    server.stop()  # collects the rest of its output
    assert "Traceback" not in output(), output()
    assert saved_version(data, game["game_id"]) == 1  # the word is in the data folder given
    if kind.closes_store:
        assert sorted(path.name for path in data.iterdir()) == ["wibble.db"], output()


# -- what gunicorn does around the app with Wibble's settings (wibble.gunicorn_conf) ------------


def test_gunicorn_with_a_broken_default_word_list_stops_at_start_naming_the_line(
    tmp_path: Path, launch: Callable[[Callable[[Path], LiveServer], Path], LiveServer]
) -> None:
    """As ``wibble serve`` does: the host hears of a bad list when starting, not from a player."""
    words = tmp_path / "words"
    words.mkdir()
    (words / "zz.txt").write_text("cat\ndog\nc4t\n", encoding="utf-8")
    server = launch(
        lambda data: gunicorn_gevent(data, WIBBLE_WORDS_DIR=str(words), WIBBLE_DEFAULT_WORDLIST="zz"),
        tmp_path / "data",
    )  # gunicorn listens before its worker boots
    assert server.process.wait(START_SECONDS) != 0
    server.stop()  # collects the rest of its output
    said = "".join(server.output)
    assert "zz.txt:3" in said, said  # the broken line, named
    assert "Traceback" not in said, said
    # Wibble's own log lines are gunicorn's: in its format, in its log (--error-logfile).
    assert re.search(r"\] \[ERROR\] word list 'zz' cannot be loaded", said), said


def stored_room(data: Path, code: str) -> dict[str, Any] | None:
    with closing(sqlite3.connect(data / "wibble.db")) as db:
        row = db.execute("SELECT doc FROM documents WHERE id = ?", (f"room:{code}",)).fetchone()
    return None if row is None else dict(json.loads(row[0]))


def test_under_gunicorn_a_room_left_empty_closes_on_time_after_a_restart_though_nobody_opens_it(
    tmp_path: Path,
    launch: Callable[[Callable[[Path], LiveServer], Path], LiveServer],
    clients: Callable[[LiveServer], Client],
) -> None:
    """The restarted worker never held the room, and is serving before the room's time is up (so
    the housekeeping it does at start, which deletes rooms empty for longer, finds nothing to do):
    only its look for deadlines nobody handled (every 2 s) can close it on time. Without it, the
    room would wait for someone to open it."""
    data = tmp_path / "data"
    empty = 10.0  # seconds a room stands empty before it closes, here
    quick = {"WIBBLE_ROOM_GRACE_SECONDS": "1", "WIBBLE_ROOM_EMPTY_SECONDS": str(empty)}

    def start(folder: Path) -> LiveServer:
        return gunicorn_gevent(folder, **quick)

    first = launch(start, data)
    ann = clients(first)
    ann.send({"type": "create_room", "name": "Ann", "rules": {}})
    while (message := ann.recv())["type"] != "room":
        pass
    code = message["code"]
    ann.close()
    deadline = time.monotonic() + 20
    while (room := stored_room(data, code)) is None or room.get("empty_since") is None:
        assert time.monotonic() < deadline, f"the room was never noted empty: {room}"
        time.sleep(0.1)
    emptied = float(room["empty_since"])
    first.process.terminate()
    assert first.process.wait(STOP_SECONDS) == 0, "".join(first.output)

    healthy(launch(start, data))  # nobody connects to the room
    assert time.time() < emptied + empty, "too slow to restart: the room's time was up already"
    while stored_room(data, code) is not None:
        assert time.time() < emptied + empty + 20, "the room was never closed"
        time.sleep(0.1)
    closed = time.time()
    assert closed >= emptied + empty  # at its time, not before...
    assert closed < emptied + empty + 8  # ...and soon after (a look every 2 s, taking on what is 2 s late)


def a_word_scored_on_gunicorn(
    data: Path,
    launch: Callable[[Callable[[Path], LiveServer], Path], LiveServer],
    clients: Callable[[LiveServer], Client],
) -> tuple[LiveServer, Client, dict[str, Any], str]:
    """gunicorn as docs/deploy.md runs it, saving in ``data``, and a player who has scored a
    word there: the server, the player, their game and the word."""
    server = launch(gunicorn_gevent, data)
    player = clients(server)
    game = new_game(player, seed=SEED)
    word, path = a_word(game)
    play(player, path)
    return server, player, game, word


def test_under_gunicorn_what_is_played_soon_reaches_the_database_file_itself(
    tmp_path: Path,
    launch: Callable[[Callable[[Path], LiveServer], Path], LiveServer],
    clients: Callable[[LiveServer], Client],
) -> None:
    """SQLite keeps commits in its write-ahead log until a checkpoint copies them into the file:
    the worker checkpoints every half second on a native thread (not inside a player's commit),
    so the word is in the file itself soon after (the test allows ten seconds, for a busy machine)."""
    data = tmp_path / "data"
    _, _, game, _ = a_word_scored_on_gunicorn(data, launch, clients)
    deadline = time.monotonic() + 10
    while (found := versions_in_database_file(data / "wibble.db", tmp_path / "copy.db")) is None or (
        found.get(game["game_id"]) != 1
    ):
        assert time.monotonic() < deadline, f"not in the file: {found}"
        time.sleep(0.1)


def test_ctrl_c_on_gunicorn_tells_the_pages_and_leaves_the_database_whole(
    tmp_path: Path,
    launch: Callable[[Callable[[Path], LiveServer], Path], LiveServer],
    clients: Callable[[LiveServer], Client],
) -> None:
    """Ctrl+C in the host's terminal sends SIGINT to gunicorn's master and its worker at once
    (the master then sends the worker SIGQUIT too): the pages hear 1012, and the database is
    closed, its write-ahead log folded into the one file, with nothing on the terminal but
    gunicorn's own lines."""
    data = tmp_path / "data"
    server, player, game, _ = a_word_scored_on_gunicorn(data, launch, clients)
    booted = re.search(r"Booting worker with pid: (\d+)", "".join(server.output))
    assert booted is not None, "".join(server.output)
    for pid in (server.process.pid, int(booted.group(1))):
        os.kill(pid, signal.SIGINT)
    assert goodbye(player) == SERVICE_RESTART
    assert server.process.wait(STOP_SECONDS) == 0
    server.stop()
    said = "".join(server.output)
    assert "Traceback" not in said, said
    deadline = time.monotonic() + STOP_SECONDS  # the master may end before its worker has
    while sorted(path.name for path in data.iterdir()) != ["wibble.db"]:
        assert time.monotonic() < deadline, sorted(path.name for path in data.iterdir())
        time.sleep(0.05)
    assert saved_version(data, game["game_id"]) == 1


@pytest.mark.parametrize(
    ("options", "env", "reason"),
    [
        pytest.param(["-w", "2"], {}, "2 gunicorn workers only over Redis", id="two-workers-without-redis"),
        # Refused before the app is made in the master, whose setting would fail it there.
        pytest.param(["--preload"], {"WIBBLE_MIN_BOARD_WORDS": "many"}, "cannot be preloaded", id="preload"),
        pytest.param(
            [], {"WIBBLE_MIN_BOARD_WORDS": "many"}, "WIBBLE_MIN_BOARD_WORDS must be", id="a-bad-setting"
        ),
        pytest.param(
            [], {"WIBBLE_DATA_DIR": "/dev/null"}, "cannot create the data folder", id="no-data-folder"
        ),
    ],
)
def test_gunicorn_refuses_to_start_what_would_not_work_and_says_why(
    options: list[str], env: dict[str, str], reason: str, tmp_path: Path
) -> None:
    """Options on gunicorn's command line win over Wibble's settings; these would break games (a
    player's game on one worker, a reconnection on another that never heard of it), so gunicorn
    stops at once with the reason, not a traceback."""
    command = [sys.executable, "-m", "gunicorn", "-c", "python:wibble.gunicorn_conf", "--bind", "127.0.0.1:0"]
    if gunicorn.version_info >= (25, 1):
        command.append("--no-control-socket")
    stopped = subprocess.run(
        command + options,
        cwd=ROOT,
        env={**os.environ, "WIBBLE_DATA_DIR": str(tmp_path / "data"), **env},
        capture_output=True,
        text=True,
        timeout=START_SECONDS,
    )
    said = stopped.stdout + stopped.stderr
    assert stopped.returncode != 0, said
    assert reason in said, said
    assert "Traceback" not in said, said


def test_a_gunicorn_reload_moves_the_players_to_the_new_worker_and_loses_nothing(
    tmp_path: Path,
    launch: Callable[[Callable[[Path], LiveServer], Path], LiveServer],
    clients: Callable[[LiveServer], Client],
) -> None:
    """SIGHUP, a host's reload: gunicorn starts a new worker, then stops the old one, whose pages
    hear 1012 and reconnect (here, to the new worker), and find their game as they left it."""
    server, player, game, word = a_word_scored_on_gunicorn(tmp_path / "data", launch, clients)
    server.process.send_signal(signal.SIGHUP)
    assert goodbye(player) == SERVICE_RESTART

    # A page reconnects; the old worker may still take a connection for a moment (gunicorn looks
    # once a second whether to stop accepting), and answers it 1012 at once: the page tries again.
    deadline = time.monotonic() + STOP_SECONDS
    while True:
        again = clients(server)
        try:
            seen = again.ask(resume_of(game))
            break
        except (WebSocketConnectionClosedException, ConnectionError, ValueError):
            assert time.monotonic() < deadline, "never answered after the reload"
            again.close()
            time.sleep(0.2)
    assert (seen["type"], seen["version"]) == ("game", 1), seen
    assert [entry["word"] for entry in seen["found"]] == [word.upper()], seen
    deadline = time.monotonic() + STOP_SECONDS
    while "Worker exiting" not in "".join(server.output):  # the old worker, gone
        assert time.monotonic() < deadline, "".join(server.output)
        time.sleep(0.05)
    _, judged, _ = play(again, a_word(seen)[1])
    assert (judged["result"], judged["version"]) == ("scored", 2), judged
    assert "Traceback" not in "".join(server.output)


def test_a_worker_added_to_gunicorn_without_redis_is_taken_back(
    tmp_path: Path,
    launch: Callable[[Callable[[Path], LiveServer], Path], LiveServer],
    clients: Callable[[LiveServer], Client],
) -> None:
    """``kill -TTIN`` asks gunicorn for one more worker: without Redis it would hold games of its
    own on the same SQLite file. It is refused, and the one worker plays on."""
    server, player, game, _ = a_word_scored_on_gunicorn(tmp_path / "data", launch, clients)
    server.process.send_signal(signal.SIGTTIN)
    deadline = time.monotonic() + STOP_SECONDS
    while "not adding one" not in "".join(server.output):
        assert time.monotonic() < deadline, "".join(server.output)
        time.sleep(0.05)
    _, judged, _ = play(player, a_word(player.ask(resume_of(game)))[1])
    assert (judged["result"], judged["version"]) == ("scored", 2), judged
    assert "".join(server.output).count("Booting worker") == 1, "".join(server.output)
