"""Definitions: what compiling them costs, what they add to the play command's warm start, and
what a server pays to answer them.

- compile: ``wibble definitions`` on an empty cache folder, each list's time and file size;
- warm start: ``make play`` (PORT=0) to its printed URL, at this tree and at ``--before`` (a
  commit without definitions, checked out beside this one and run with this tree's virtualenv),
  rounds taken in turn, every cache warm;
- serving: a ``wibble serve`` (its books compiled by set-up, as ``make play`` leaves them) asked
  ``--words`` random words of ``en`` over one websocket, one after another (``PACE`` a
  second): the first answer (the book opened), then the time of each, and the server's
  resident memory before the first and after the last.

    .venv/bin/python -m benchmarks.definitions [--rounds 5] [--words 500] [--before 4652a45]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support import Client, LiveServer, shipped_list

ROOT = Path(__file__).resolve().parent.parent
PACE = 30  # words asked a second: under a connection's message limit (40 a second)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def compile_all(rounds: int) -> None:
    times: dict[str, list[float]] = {}
    sizes: dict[str, str] = {}
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as cache:
            out = subprocess.run(
                [sys.executable, "-m", "wibble", "definitions"],
                cwd=ROOT,
                env={**os.environ, "WIBBLE_CACHE_DIR": cache},
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        for line in out.splitlines():
            found = re.match(r"(\S+): ([\d,]+) words defined .*?([\d.]+) MB .*\(([\d.]+)s\)", line)
            if found:
                times.setdefault(found[1], []).append(float(found[4]))
                sizes[found[1]] = f"{found[2]} words, {found[3]} MB"
    for name, spent in times.items():
        print(f"compile {name:8} {statistics.median(spent):.2f} s (median of {rounds}; {sizes[name]})")


def play_start(folder: Path, makefile: Path, env: dict[str, str]) -> tuple[float, float]:
    """Seconds from ``make play`` to its printed URL, and the server's RSS then."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [
            "make",
            "--no-print-directory",
            "-f",
            str(makefile),
            "-C",
            str(folder),
            "play",
            "PORT=0",
            f"VENV={ROOT / '.venv'}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "running at" in line:
                elapsed = time.perf_counter() - started
                server = subprocess.run(
                    ["pgrep", "-n", "-f", "wibble serve --host"], capture_output=True, text=True, check=False
                ).stdout.split()
                return elapsed, rss_mb(int(server[0])) if server else float("nan")
        raise RuntimeError("make play did not start a server")
    finally:
        os.killpg(proc.pid, 15)
        proc.wait()


def warm_start(rounds: int, before: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        old = Path(scratch) / "before"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(old), before], check=True
        )
        try:
            for built in (ROOT / "wibble" / "core").glob("_walk*.so"):
                shutil.copy(built, old / "wibble" / "core")
            # Older than the virtualenv's stamps: make must not reinstall anything for it.
            for path in old.rglob("*"):
                os.utime(path, (0, 0), follow_symlinks=False)
            now, then = [], []
            for _ in range(rounds + 1):  # the first of each warms the caches, and is dropped
                now.append(play_start(ROOT, ROOT / "Makefile", dict(os.environ)))
                then.append(play_start(old, old / "Makefile", {**os.environ, "PYTHONPATH": str(old)}))
            for label, runs in ((f"before ({before})", then[1:]), ("now", now[1:])):
                seconds = [s for s, _ in runs]
                rss = statistics.median(m for _, m in runs)
                print(
                    f"make play to its URL, {label:18} median {statistics.median(seconds):.3f} s "
                    f"(min {min(seconds):.3f}, max {max(seconds):.3f}), RSS {rss:.0f} MB"
                )
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)], check=False)


def serving(count: int) -> None:
    words = sorted(shipped_list("en").trie)
    picked = random.Random(7).sample(words, count)
    server = LiveServer()  # with the usual cache folder, its books compiled by set-up
    try:
        client = Client(server.ws_url)
        before = rss_mb(server.process.pid)
        started = time.perf_counter()
        first = client.ask({"type": "define", "word": "run"})
        opened = time.perf_counter() - started
        assert first["type"] == "definition", first
        after_first = rss_mb(server.process.pid)
        spent, found = [], 0
        for word in picked:
            time.sleep(1 / PACE)
            started = time.perf_counter()
            answer = client.ask({"type": "define", "word": word})
            spent.append(time.perf_counter() - started)
            assert answer["type"] == "definition", answer
            found += bool(answer["meanings"])
        after = rss_mb(server.process.pid)
        client.close()
    finally:
        server.stop()
    spent.sort()
    print(f"first answer (en's book compiled by set-up, opened now): {opened * 1e3:.1f} ms")
    print(
        f"{count} more words, one at a time: median {statistics.median(spent) * 1e3:.2f} ms, "
        f"p99 {spent[int(len(spent) * 0.99) - 1] * 1e3:.2f} ms; {found} of them defined"
    )
    print(f"server RSS: {before:.0f} MB before, {after_first:.0f} MB after the first,", end=" ")
    print(f"{after:.0f} MB after the last")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--words", type=int, default=500)
    parser.add_argument("--before", default="4652a45", help="a commit without definitions")
    args = parser.parse_args()
    compile_all(min(args.rounds, 3))
    warm_start(args.rounds, args.before)
    serving(args.words)


if __name__ == "__main__":
    main()
