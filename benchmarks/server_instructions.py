"""Instructions per websocket event of the whole server process, counted by callgrind.

``benchmarks.instructions`` counts a command through the live stack in process, and so
leaves out the socket and the websocket frame layer. This counts everything the server
process does for an event: gevent's loop, the handshake's aftermath, reading and decoding
the frame, the game's work, encoding and writing the reply.

How: the server (``create_app`` and ``make_server`` as ``wibble serve`` uses them, games
in memory, the rate limits raised as ``benchmarks.load --saturate`` raises them, the
default 25 s pings on) runs under ``valgrind --tool=callgrind``; a client in this process
(websocket-client, not counted) opens one websocket, starts a game with a fixed seed and
sends ``n`` units, each waiting for its reply; then the server is stopped and its total
counted. Twice, with ``n`` and ``2n`` units: start-up, loading the list and the
connection cost the same in both, so ``(I(2n) - I(n)) / n`` is what a unit costs.

Units: ``press`` is a press and the cancel that ends it (two events, each answered with a
``chain``); ``enter`` is one enter, stepping between two tiles of a held chain.

``--tree DIR`` (repeatable) measures the server code of another checkout (its own
``.venv`` if it has one), e.g. a worktree of main beside this one; the runs are
interleaved tree by tree, ``--rounds`` times.

    .venv/bin/python -m benchmarks.server_instructions [--n 200] [--units press,enter]
    .venv/bin/python -m benchmarks.server_instructions --tree /tmp/frames-base --tree . --rounds 2

valgrind: ``$VALGRIND`` if set, else ``valgrind`` on the PATH (Debian: ``apt-get install -y valgrind``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.instructions import collected, valgrind
from benchmarks.load import UNLIMITED

ROOT = Path(__file__).resolve().parent.parent
UNITS = {"press": ("press + cancel", 2), "enter": ("one enter", 1)}
# The rate limits raised as ``benchmarks.load --saturate`` raises them (its WIBBLE_* settings).
RAISED = {key.removeprefix("WIBBLE_"): int(value) for key, value in UNLIMITED.items()}


def serve() -> None:
    """The server, as ``wibble serve`` sets it up (without its housekeeping), until SIGTERM."""
    from gevent import monkey

    monkey.patch_all()

    import gevent
    import gevent.event

    from wibble.web import create_app
    from wibble.web.server import make_server

    app = create_app({"DATA_DIR": "", **RAISED})
    app.extensions["wibble.wordlists"].get()
    server = make_server(app, "127.0.0.1", 0)
    server.start()
    print(f"listening on {server.server_port}", flush=True)
    stop = gevent.event.Event()
    gevent.signal_handler(signal.SIGTERM, stop.set)
    stop.wait()
    server.stop(timeout=1)


def drive(port: int, unit: str, units: int) -> None:
    """``units`` units on one connection, each event answered before the next is sent."""
    from websocket import create_connection

    ws = create_connection(f"ws://127.0.0.1:{port}/ws", timeout=600)

    def ask(message: dict[str, Any], expected: str) -> None:
        ws.send(json.dumps(message, separators=(",", ":")))
        reply = json.loads(ws.recv())
        assert reply["type"] == expected, reply

    ask({"type": "new_game", "wordlist": "en", "seed": 11}, "game")
    if unit == "enter":
        ask({"type": "press", "row": 2, "col": 2}, "chain")
    for n in range(units):
        if unit == "press":
            ask({"type": "press", "row": 2, "col": 2}, "chain")
            ask({"type": "cancel"}, "chain")
        else:
            ask({"type": "enter", "row": 2, "col": 3 if n % 2 == 0 else 2}, "chain")
    ws.close()


def python_of(tree: Path) -> str:
    own = tree / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


def count(binary: str, tree: Path, unit: str, units: int) -> int:
    """Instructions (callgrind's Ir) of a whole server process that served ``units`` units."""
    with tempfile.TemporaryDirectory() as out:
        command = [
            binary,
            "--tool=callgrind",
            f"--callgrind-out-file={out}/callgrind.out",
            python_of(tree),
            str(Path(__file__).resolve()),
            "--serve",
        ]
        env = {
            **os.environ,
            "PYTHONHASHSEED": "0",
            "PYTHONPATH": str(tree),
            "PYTHONUNBUFFERED": "1",
            "XDG_DATA_HOME": out,
        }
        log = Path(out) / "stderr"
        with log.open("wb") as errors:  # a file, not a pipe: a chatty server never blocks on it
            server = subprocess.Popen(command, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=errors)
            assert server.stdout is not None
            try:
                line = server.stdout.readline().decode()
                match = re.search(r"listening on (\d+)", line)
                if match is None:
                    server.kill()
                    server.wait()
                    sys.exit(f"the server did not start under callgrind:\n{line}{log.read_text()[-3000:]}")
                drive(int(match.group(1)), unit, units)
                time.sleep(0.5)  # let the server see the client's close frame before it is stopped
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=600)
            finally:
                if server.poll() is None:
                    server.kill()
                    server.wait()
                server.stdout.close()
        stderr = log.read_text()
        found = collected(stderr)
        if server.returncode != 0 or found is None:
            sys.exit(f"callgrind run failed ({server.returncode}):\n{stderr[-3000:]}")
        return found


def describe(tree: Path) -> str:
    done = subprocess.run(["git", "log", "-1", "--format=%h %s"], cwd=tree, capture_output=True, text=True)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "wibble"], cwd=tree, capture_output=True, text=True
    )
    return done.stdout.strip()[:60] + (" (+ uncommitted changes)" if dirty.stdout.strip() else "")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=200, help="units in the shorter run (the longer has 2n)")
    parser.add_argument("--units", default="press,enter")
    parser.add_argument(
        "--tree", type=Path, action="append", help="a checkout to measure (default: this one)"
    )
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    binary = valgrind()
    trees = [tree.resolve() for tree in args.tree or [ROOT]]
    for tree in trees:
        print(f"{tree}: {describe(tree)}", flush=True)
    print(f"{'tree':28} {'unit':16} {'units':>9} {'instructions/unit':>18} {'per event':>11}")
    for _ in range(args.rounds):
        for unit in args.units.split(","):
            label, events = UNITS[unit]
            for tree in trees:
                short = count(binary, tree, unit, args.n)
                long = count(binary, tree, unit, 2 * args.n)
                per_unit = (long - short) / args.n
                print(
                    f"{str(tree)[-28:]:28} {label:16} {f'{args.n}/{2 * args.n}':>9} "
                    f"{per_unit:18,.0f} {per_unit / events:11,.0f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
