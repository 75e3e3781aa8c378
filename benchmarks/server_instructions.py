"""Instructions per websocket event of the whole server process, counted by callgrind.

``benchmarks.instructions`` counts a command through the live stack in process, and so
leaves out the socket and the websocket layer. This counts everything the server
process does for an event: gevent's loop, the websocket library (flask-sock,
simple-websocket, wsproto) reading and decoding the frame and waking the handler, the
game's work, encoding the reply and the connection's writer sending it.

How: the server (``create_app`` and ``make_server`` as ``wibble serve`` uses them, games
in memory, the rate limits raised as ``benchmarks.load --saturate`` raises them,
``SOCK_SERVER_OPTIONS`` as shipped: no library pings unless ``--ping-interval`` says
otherwise) runs under ``valgrind --tool=callgrind``; a client in this process
(websocket-client, not counted) opens one websocket, starts a game with a fixed seed and
sends ``n`` units, each waiting for its reply; then the server is stopped and its total
counted. Twice, with ``n`` and ``2n`` units: start-up, loading the list and the
connection cost the same in both, so ``(I(2n) - I(n)) / n`` is what a unit costs.

Units: ``press`` is a press and the cancel that ends it (two events, each answered with a
``chain``); ``enter`` is one enter, stepping between two tiles of a held chain; ``ping``
is the page's heartbeat, a ``ping`` answered ``pong``; ``word`` is a real word dragged and
released (a press, an enter a tile, the release answered with the word and its refill: one
message since the word carries it, two before), its events the planned words' frames.

``--tree DIR`` (repeatable) measures the server code of another checkout (its own
``.venv`` if it has one), e.g. a worktree of main beside this one; the runs are
interleaved tree by tree, ``--rounds`` times.

``--floor`` also counts the flask-sock echo floor (``benchmarks.sock_echo``: the same
library, server and ``SOCK_SERVER_OPTIONS``, nothing of Wibble's above ``ws.receive`` and
``ws.send``) for the same frames, each answered by its echo: what the layer under
Wibble costs a message in and one out. Wibble's count less the floor's is, roughly,
Wibble's own code (its connection's writer and limits, the protocol, the game).

``--split`` keeps each run's callgrind file and splits the unit's instructions by the
binary they ran in (``callgrind_annotate``, exclusive counts by object: the interpreter,
greenlet, gevent's libev loop, libc, msgspec...). Python code, Wibble's and the
library's alike, all runs in the interpreter's eval loop, which callgrind cannot tell
apart: the floor is what separates them.

``--ping-interval S`` turns simple-websocket's pings on (every S seconds; shipped: off),
for the heartbeat's cost: with them, every read of the library's reader is preceded by
a select() on its socket.

    .venv/bin/python -m benchmarks.server_instructions [--n 200] [--units press,enter]
    .venv/bin/python -m benchmarks.server_instructions --n 100 --floor --split
    .venv/bin/python -m benchmarks.server_instructions --n 100 --ping-interval 25 --floor
    .venv/bin/python -m benchmarks.server_instructions --tree /tmp/frames-base --tree . --rounds 2

valgrind: ``$VALGRIND`` if set, else ``valgrind`` on the PATH (Debian: ``apt-get install -y valgrind``).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.instructions import collected, valgrind
from benchmarks.load import UNLIMITED

ROOT = Path(__file__).resolve().parent.parent
UNITS = {
    "press": ("press + cancel", 2),
    "enter": ("one enter", 1),
    "ping": ("ping + pong", 1),
    "word": ("word: drag, release", 0),  # (its events: the planned words' frames, see word_frames)
}
# The rate limits raised as ``benchmarks.load --saturate`` raises them (its WIBBLE_* settings).
RAISED = {key.removeprefix("WIBBLE_"): int(value) for key, value in UNLIMITED.items()}
FLOOR = "sock-echo floor"  # a row of the table, beside the trees


def serve(floor: bool, ping_interval: float | None) -> None:
    """The server, as ``wibble serve`` sets it up (without its housekeeping), until SIGTERM;
    or the flask-sock echo floor, on the same server."""
    from gevent import monkey

    monkey.patch_all()

    import gevent
    import gevent.event

    from wibble.web.server import make_server

    if floor:
        from benchmarks.sock_echo import create

        app = create(False, ping_interval)
    else:
        from wibble.web import create_app
        from wibble.web.app import DEFAULTS

        config: dict[str, Any] = {"DATA_DIR": "", **RAISED}
        if "SOCK_SERVER_OPTIONS" in DEFAULTS:  # a tree on flask-sock (not the own-codec layer)
            config["SOCK_SERVER_OPTIONS"] = {
                **DEFAULTS["SOCK_SERVER_OPTIONS"],
                "ping_interval": ping_interval,
            }
        app = create_app(config)
        app.extensions["wibble.wordlists"].get()
    server = make_server(app, "127.0.0.1", 0)
    server.start()
    print(f"listening on {server.server_port}", flush=True)
    stop = gevent.event.Event()
    gevent.signal_handler(signal.SIGTERM, stop.set)
    stop.wait()
    server.stop(timeout=1)


@functools.cache
def word_frames(units: int) -> tuple[tuple[dict[str, Any], ...], ...]:
    """``units`` real words dragged and released, each as its messages (press, enters, release),
    planned on a live stack in this process that plays as the server does (the same list, seed
    and floor of 30 words on the board), so that each is a fresh word on the server's board."""
    from benchmarks.instructions import Planner, _drag, _fresh_word

    planner = Planner()
    [snapshot] = planner.send(0, type="new_game", wordlist="en", seed=11)
    words = []
    for _ in range(units):
        mark = planner.mark()
        _drag(planner, _fresh_word(planner, snapshot["game_id"]))
        [judged, *_] = planner.send(0, type="release")
        assert judged["result"] == "scored", judged
        words.append(tuple(json.loads(step[2]) for step in planner.steps[mark:]))
    return tuple(words)


def events_of(unit: str, n: int) -> float:
    """Events a unit is: fixed, but for a word, the mean of the words the longer run adds."""
    if unit == "word":
        return sum(map(len, word_frames(2 * n)[n:])) / n
    return UNITS[unit][1]


def drive(port: int, unit: str, units: int, echo: bool = False) -> None:
    """``units`` units on one connection, each event answered before the next is sent (by the
    floor: echoed)."""
    from websocket import create_connection

    ws = create_connection(f"ws://127.0.0.1:{port}/" + ("" if echo else "ws"), timeout=600)

    def ask(message: dict[str, Any], expected: str) -> None:
        ws.send(json.dumps(message, separators=(",", ":")))
        reply = json.loads(ws.recv())
        if echo:  # the floor: every message back as it was, but a ping's pong
            expected = "pong" if message["type"] == "ping" else message["type"]
        assert reply["type"] == expected, reply
        if expected == "word" and "changed" not in reply:  # a tree before a word carried its refill
            assert json.loads(ws.recv())["type"] == "board"

    ask({"type": "new_game", "wordlist": "en", "seed": 11}, "game")
    if unit == "enter":
        ask({"type": "press", "row": 2, "col": 2}, "chain")
    if unit == "word":
        for word in word_frames(units):
            for message in word:
                ask(message, "word" if message["type"] == "release" else "chain")
    for n in range(units if unit != "word" else 0):
        if unit == "press":
            ask({"type": "press", "row": 2, "col": 2}, "chain")
            ask({"type": "cancel"}, "chain")
        elif unit == "ping":
            ask({"type": "ping"}, "pong")
        else:
            ask({"type": "enter", "row": 2, "col": 3 if n % 2 == 0 else 2}, "chain")
    ws.close()


def python_of(tree: Path) -> str:
    own = tree / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


def count(
    binary: str,
    tree: Path,
    unit: str,
    units: int,
    floor: bool = False,
    ping_interval: float | None = None,
    keep: Path | None = None,
) -> int:
    """Instructions (callgrind's Ir) of a whole server process that served ``units`` units;
    its callgrind file copied to ``keep`` if given."""
    with tempfile.TemporaryDirectory() as out:
        command = [
            binary,
            "--tool=callgrind",
            f"--callgrind-out-file={out}/callgrind.out",
            python_of(tree),
            str(Path(__file__).resolve()),
            "--serve-floor" if floor else "--serve",
        ]
        if ping_interval is not None:
            command += ["--ping-interval", str(ping_interval)]
        env = {
            **os.environ,
            "PYTHONHASHSEED": "0",
            "PYTHONPATH": os.pathsep.join([str(tree), str(ROOT)]),  # the floor: benchmarks.sock_echo
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
                drive(int(match.group(1)), unit, units, echo=floor)
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
        if keep is not None:
            shutil.copy(Path(out) / "callgrind.out", keep)
        return found


def by_object(path: Path) -> Counter[str]:
    """A callgrind file's instructions summed by the binary they ran in (exclusive costs: the
    cost line after a ``calls=`` line is the callee's inclusive cost, and is skipped). Read
    here rather than from ``callgrind_annotate``, which names no binary for inlined code."""
    names: dict[str, str] = {}
    totals: Counter[str] = Counter()
    current, skip = "?", False
    with path.open() as lines:
        for line in lines:
            if line.startswith(("ob=", "cob=")):  # a binary, named "(id) name" the first time
                found = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if found is None:
                    name = line.split("=", 1)[1].strip()
                elif found.group(2) is not None:
                    name = names[found.group(1)] = found.group(2)
                else:
                    name = names[found.group(1)]
                if line.startswith("ob="):
                    current = name
            elif line.startswith("calls="):
                skip = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                if skip:
                    skip = False
                    continue
                fields = line.split()
                if len(fields) > 1:
                    totals[short_object(current)] += int(fields[1])
    return totals


def short_object(path: str) -> str:
    name = Path(path).name
    for prefix, label in (
        ("python3", "interpreter (python3.11: every Python function)"),
        ("libpython", "interpreter (python3.11: every Python function)"),
        ("_greenlet", "greenlet (switches)"),
        ("corecext", "gevent: libev loop (corecext)"),
        ("_corecffi", "gevent: libev loop (cffi)"),
        ("libc.", "libc (system calls' wrappers, memcpy...)"),
        ("ld-linux", "ld.so"),
        ("_walk", "wibble: compiled walk"),
    ):
        if name.startswith(prefix):
            return label
    if "msgspec" in path:
        return "msgspec (JSON)"
    if "gevent" in path:
        return f"gevent: {name.split('.')[0]}"
    return name.split(".")[0]


def split(short: Path, long: Path, units: int, events: int) -> list[tuple[str, float]]:
    """Per event: each object's (I(2n) - I(n)) / n / events, the largest first."""
    a, b = by_object(short), by_object(long)
    rows = [(name, (b[name] - a[name]) / units / events) for name in set(a) | set(b)]
    return sorted(rows, key=lambda row: -row[1])


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
    parser.add_argument("--floor", action="store_true", help="also count the flask-sock echo floor")
    parser.add_argument("--split", action="store_true", help="split each unit by binary (callgrind_annotate)")
    parser.add_argument(
        "--ping-interval", type=float, default=None, help="simple-websocket's pings (shipped: none)"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--serve-floor", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve or args.serve_floor:
        serve(args.serve_floor, args.ping_interval)
        return
    binary = valgrind()
    trees = [tree.resolve() for tree in args.tree or [ROOT]]
    for tree in trees:
        print(f"{tree}: {describe(tree)}", flush=True)
    pings = "off" if args.ping_interval is None else f"every {args.ping_interval:g} s"
    print(f"simple-websocket's pings {pings}")
    # (label, tree, floor?): the trees, then the floor (on this tree's server and library).
    rows = [(str(tree)[-28:], tree, False) for tree in trees] + ([(FLOOR, ROOT, True)] if args.floor else [])
    print(f"{'server':28} {'unit':16} {'units':>9} {'instructions/unit':>18} {'per event':>11}")
    with tempfile.TemporaryDirectory() as kept:
        for _ in range(args.rounds):
            for unit in args.units.split(","):
                label, events = UNITS[unit][0], events_of(unit, args.n)
                per_event: dict[str, float] = {}
                for name, tree, floor in rows:
                    files = (
                        [Path(kept) / f"{n}.out" for n in ("short", "long")] if args.split else [None, None]
                    )
                    short = count(binary, tree, unit, args.n, floor, args.ping_interval, files[0])
                    long = count(binary, tree, unit, 2 * args.n, floor, args.ping_interval, files[1])
                    per_unit = (long - short) / args.n
                    per_event[name] = per_unit / events
                    print(
                        f"{name:28} {label:16} {f'{args.n}/{2 * args.n}':>9} "
                        f"{per_unit:18,.0f} {per_unit / events:11,.0f}",
                        flush=True,
                    )
                    if files[0] is not None and files[1] is not None:  # --split
                        for part, instructions in split(files[0], files[1], args.n, events):
                            if abs(instructions) >= 500:
                                print(f"{'':30}{instructions:>10,.0f}  {part}")
                if args.floor:
                    floor_cost = per_event[FLOOR]
                    for name, _, floor in rows:
                        if not floor:
                            print(
                                f"{name:28} {label:16} per event less the floor's {floor_cost:,.0f}: "
                                f"{per_event[name] - floor_cost:,.0f} ({per_event[name] / floor_cost:.2f}x)"
                            )


if __name__ == "__main__":
    main()
