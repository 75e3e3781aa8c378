"""Instructions per command through the in-process live stack, counted by callgrind.

Wall-clock figures on a shared 2-core machine move by tens of percent between runs;
the number of machine instructions a command costs does not. This script counts them.

How: a plan is made first, natively (a live stack as ``tests/live`` builds one:
``wibble.live.wire`` over a memory store, a fake clock, fixed entropy): the exact
text frames a client would send for each workload, found by playing it. Then the
plan is replayed under ``valgrind --tool=callgrind`` twice per workload, once with
``n`` units and once with ``2n`` (``n``: ``--n`` times the workload's ``SCALE``), in
fresh processes (``PYTHONHASHSEED=0``), the collector set as the server sets it; the
replay hands each frame to the websocket handler's own ``_handle`` with a real
``Outbox``, so a command costs what it costs the server minus the socket itself.
Start-up, imports, loading the list and building the stack cost the same in both
runs, so ``(I(2n) - I(n)) / n`` is what one unit costs. Client requests
(``CALLGRIND_START_INSTRUMENTATION``) cannot be made from Python, hence the
difference of two runs.

Workloads (one unit each):

- ``press``: a press and the cancel that ends it;
- ``enter``: one enter, stepping forward and back between two tiles of a held chain;
- ``word``: a real word dragged (press, then an enter per tile) and released, with its
  refill and the board-quality count (English list, the server's floor of 30 words);
- ``drag``: the same drags as ``word``, cancelled instead of released, so
  ``word - drag`` is the release with its refill, less one cancel;
- ``match``: one round of a match against an easy bot, with a second tab watching:
  the person drags and releases a word, then the bot's whole turn (think, drag, release).

    .venv/bin/python -m benchmarks.instructions [--n 20] [--workloads press,enter,word,drag,match]

valgrind: ``$VALGRIND`` if set, else ``valgrind`` on the PATH; Debian packages it
(``apt-get install -y valgrind``).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LIST = "en"
MIN_WORDS = 30  # the server's default floor (wibble serve --min-words)
WORKLOADS = ("press", "enter", "word", "drag", "match")
SCALE = {"press": 10, "enter": 20, "word": 4, "drag": 4, "match": 1}
"""Units per ``--n`` of each workload: the cheap ones run more, so their difference stands out."""
UNITS = {
    "press": "press + cancel",
    "enter": "one enter",
    "word": "a word: drag, release, refill",
    "drag": "the same drag, cancelled",
    "match": "a match round: word + bot's turn",
}
Step = list[Any]  # ["send", who, frame], ["tick", seconds] or ["watch", who]


# -- the stack, shared by planning and replay -------------------------------------------------


class Stack:
    """One live stack in this process, and connections to it that keep their frames as text."""

    def __init__(self) -> None:
        from wibble.cache import TrieCache
        from wibble.engines.store import MemoryStore
        from wibble.live import LiveSettings, wire
        from wibble.live.matches import BotPace
        from wibble.wordlists import WordLists

        self.now = 1_000.0
        cache_dir = Path(os.environ.get("WIBBLE_CACHE_DIR", Path.home() / ".cache" / "wibble"))
        lists = WordLists(ROOT / "words", cache=TrieCache(cache_dir))
        lists.get(LIST)
        settings = LiveSettings(min_words=MIN_WORDS, pace=BotPace(think=(2.0, 2.0), step=0.25))
        self.router = wire(MemoryStore(), lists, self.clock, self.clock, settings, entropy=random.Random(7))

    def clock(self) -> float:
        return self.now

    def connect(self) -> Connection:
        return Connection(self)

    def tick(self, seconds: float) -> None:
        self.now += seconds
        self.router.timers.run_due()


class Connection:
    """A websocket as the handler drives it: ``_handle`` for each frame, a real ``Outbox``."""

    def __init__(self, stack: Stack) -> None:
        from wibble.live import Session
        from wibble.web.connection import Outbox

        self.stack = stack
        self.frames: list[str] = []
        # Written messages are kept as text, not framed (the frame layer is not counted here).
        # As on the server: a put only queues, and the writer takes what waits (``flush`` after
        # each step, below).
        self.outbox = Outbox(1_000_000, lambda: None)
        self.session = Session(self.outbox.put, "192.0.2.1")

    def send(self, frame: str) -> None:
        from wibble.web.connection import _handle

        _handle(frame, self.stack.router, self.session, self.outbox)

    def flush(self) -> None:
        self.frames.extend(self.outbox.take())


def run(stack: Stack, connections: list[Connection], steps: list[Step]) -> None:
    for step in steps:
        if step[0] == "tick":
            stack.tick(step[1])
        elif step[0] == "watch":
            # A second tab opens the match the first one started: its id and token are this run's.
            snapshot = json.loads(connections[0].frames[0])
            message = {"type": "resume", "match_id": snapshot["match_id"], "token": snapshot["token"]}
            connections[step[1]].send(json.dumps(message))
        else:
            connections[step[1]].send(step[2])
        for connection in connections:
            connection.flush()


# -- planning: play natively, write down every frame -----------------------------------------------


class Planner:
    """Plays a workload on a native stack and records each step as it is taken."""

    def __init__(self, connections: int = 1) -> None:
        self.stack = Stack()
        self.connections = [self.stack.connect() for _ in range(connections)]
        self.steps: list[Step] = []

    def send(self, who: int, **message: Any) -> list[dict[str, Any]]:
        frame = json.dumps(message, separators=(",", ":"))
        self.steps.append(["send", who, frame])
        connection = self.connections[who]
        mark = len(connection.frames)
        connection.send(frame)
        for each in self.connections:
            each.flush()
        from tests.support import messages_in

        return [message for f in connection.frames[mark:] for message in messages_in(f)]

    def tick(self, seconds: float) -> None:
        self.steps.append(["tick", seconds])
        self.stack.tick(seconds)
        for each in self.connections:
            each.flush()

    def mark(self) -> int:
        return len(self.steps)


def _fresh_word(planner: Planner, game_id: str) -> list[Any]:
    from wibble.core import solve

    game = planner.stack.router.games.get(game_id)
    assert game is not None
    found = game.game.found.words
    options = [f for f in solve(game.game.board, game.game.words) if f.word not in found]
    return list(options[len(options) // 2].path)  # a middling word: not always the longest


def _drag(planner: Planner, path: list[Any], who: int = 0) -> None:
    planner.send(who, type="press", row=path[0].row, col=path[0].col)
    for pos in path[1:]:
        planner.send(who, type="enter", row=pos.row, col=pos.col)


def plan(workload: str, units: int) -> tuple[list[Step], int, float]:
    """(the setup steps, where the units begin, mean tiles a unit drags) for ``units`` units."""
    planner = Planner(2 if workload == "match" else 1)
    tiles = 0
    if workload == "match":
        [snapshot] = planner.send(
            0, type="new_match", wordlist=LIST, seed=3, rounds=20, bots=[{"level": "easy"}]
        )
        match_id = snapshot["match_id"]
        planner.steps.append(["watch", 1])
        run(planner.stack, planner.connections, planner.steps[-1:])
        start = planner.mark()
        held = planner.stack.router.matches.get(match_id)
        assert held is not None
        assert units <= 20  # rounds
        for _ in range(units):
            words = held.match.solve()
            path = list(words[min(10, len(words) - 1)].path)  # a good word, not the best
            tiles += len(path)
            _drag(planner, path)
            replies = planner.send(0, type="release")
            assert [r["type"] for r in replies][:2] == ["played", "board"], replies
            for _ in range(60):  # the bot thinks, drags tile by tile and releases; then a round pause
                planner.tick(0.25)
                if held.match.phase.value == "over" or (
                    held.match.turn == 0 and held.match.phase.value == "playing"
                ):
                    break  # my turn again (or the last round's bot word ended the match)
            else:
                raise AssertionError("the bot's turn did not end")
        return planner.steps, start, tiles / units

    [snapshot] = planner.send(0, type="new_game", wordlist=LIST, seed=11)
    game_id = snapshot["game_id"]
    start = planner.mark()
    if workload == "press":
        for _ in range(units):
            planner.send(0, type="press", row=2, col=2)
            planner.send(0, type="cancel")
    elif workload == "enter":
        planner.send(0, type="press", row=2, col=2)
        start = planner.mark()
        for n in range(units):
            planner.send(0, type="enter", row=2, col=3 if n % 2 == 0 else 2)
    else:  # word, drag: the same words (drag's board never changes, so words are planned by word's)
        words = Planner()
        [snap] = words.send(0, type="new_game", wordlist=LIST, seed=11)
        for _ in range(units):
            path = _fresh_word(words, snap["game_id"])
            tiles += len(path)
            _drag(words, path)
            replies = words.send(0, type="release")
            assert "changed" in replies[0] or [r["type"] for r in replies][:2] == ["word", "board"], replies
            _drag(planner, path)
            planner.send(0, type="release" if workload == "word" else "cancel")
        assert game_id
    return planner.steps, start, tiles / units if tiles else 0.0


# -- counting -----------------------------------------------------------------------------------


def valgrind() -> str:
    found = os.environ.get("VALGRIND") or shutil.which("valgrind")
    if not found:
        sys.exit(
            "valgrind not found: set VALGRIND to its path, or install it"
            " (Debian: apt-get install -y valgrind)"
        )
    return found


def count(binary: str, plan_file: Path, units: int) -> int:
    """Instructions (callgrind's Ir) of a whole replay process running ``units`` units of the plan."""
    with tempfile.TemporaryDirectory() as out:
        command = [
            binary,
            "--tool=callgrind",
            f"--callgrind-out-file={out}/callgrind.out",
            sys.executable,
            "-m",
            "benchmarks.instructions",
            "--replay",
            str(plan_file),
            "--units",
            str(units),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        found = collected(done.stderr)
        if done.returncode != 0 or found is None:
            sys.exit(f"callgrind run failed ({done.returncode}):\n{done.stderr[-3000:]}")
        return found


def collected(stderr: str) -> int | None:
    """The instructions callgrind counted (its "Collected" line), or None if it printed none."""
    match = re.search(r"Collected : (\d+)", stderr)
    return int(match.group(1)) if match else None


def replay(plan_file: Path, units: int) -> None:
    doc = json.loads(plan_file.read_text())
    setup, per_unit = doc["steps"][: doc["start"]], doc["units"]
    stack = Stack()
    connections = [stack.connect() for _ in range(doc["connections"])]
    run(stack, connections, setup)
    _as_the_server_collects()
    run(stack, connections, [step for unit in per_unit[:units] for step in unit])


def _as_the_server_collects() -> None:
    """The garbage collector as ``wibble.web.server.make_server`` sets it: everything alive
    so far (the word list's trie above all) frozen out of full collections, and young
    collections every ``YOUNG_COLLECTION`` allocations. Without it, one full collection
    walking the trie's dicts in one run and not the other would swamp the difference."""
    from wibble.web.serving import YOUNG_COLLECTION

    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, older, oldest)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--n",
        type=int,
        default=10,
        help="shorter run: n match rounds, 4n words, 10n presses, 20n enters (max 10)",
    )
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--replay", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--units", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.replay is not None:
        replay(args.replay, args.units)
        return

    binary = valgrind()
    version = subprocess.run(
        [binary, "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.strip()
    print(
        f"{datetime.date.today()}  CPython {platform.python_version()}  {version}  commit {commit}  "
        f"list {LIST!r}, min_words {MIN_WORDS}, memory store; --n {args.n}"
    )
    print(f"{'workload':10} {'unit':34} {'units':>9} {'instructions/unit':>18} {'tiles':>6}")
    with tempfile.TemporaryDirectory() as work:
        for workload in args.workloads.split(","):
            n = args.n * SCALE[workload]
            steps, start, tiles = plan(workload, 2 * n)
            units = _split_units(workload, steps[start:], 2 * n)
            plan_file = Path(work) / f"{workload}.json"
            connections = 2 if workload == "match" else 1
            plan_file.write_text(
                json.dumps({"steps": steps, "start": start, "units": units, "connections": connections})
            )
            _check(plan_file, workload, 2 * n)
            short, long = count(binary, plan_file, n), count(binary, plan_file, 2 * n)
            per_unit = (long - short) / n
            shown = f"{tiles:6.1f}" if tiles else ""
            print(
                f"{workload:10} {UNITS[workload]:34} {f'{n}/{2 * n}':>9} {per_unit:18,.0f} {shown:>6}",
                flush=True,
            )


def _split_units(workload: str, steps: list[Step], units: int) -> list[list[Step]]:
    """The planned steps cut into units: each ends at a release/cancel, a bot's turn, or one enter."""
    if workload == "enter":
        return [[step] for step in steps]
    result: list[list[Step]] = []
    current: list[Step] = []
    for index, step in enumerate(steps):
        current.append(step)
        following = steps[index + 1] if index + 1 < len(steps) else None
        if workload == "match":
            ends = step[0] == "tick" and (following is None or following[0] != "tick")
        else:
            ends = step[0] == "send" and ('"release"' in step[2] or '"cancel"' in step[2])
        if ends:
            result.append(current)
            current = []
    assert len(result) == units, (workload, len(result))
    assert not current, current
    return result


def _check(plan_file: Path, workload: str, units: int) -> None:
    """Replay natively once: the plan must do on a fresh stack what it did when planned (no errors)."""
    doc = json.loads(plan_file.read_text())
    stack = Stack()
    connections = [stack.connect() for _ in range(doc["connections"])]
    run(stack, connections, doc["steps"][: doc["start"]])
    run(stack, connections, [step for unit in doc["units"] for step in unit])
    errors = [f for c in connections for f in c.frames if '"type":"error"' in f.replace(" ", "")]
    assert not errors, errors[:3]
    if workload == "word":
        refills = sum('"changed"' in frame for frame in connections[0].frames)
        assert refills == units, (refills, units)
    if workload == "match":  # every word played, the person's and the bot's, as when planned
        played = sum(frame.startswith('{"type":"played"') for frame in connections[0].frames)
        assert played == 2 * units, (played, units)


if __name__ == "__main__":
    main()
