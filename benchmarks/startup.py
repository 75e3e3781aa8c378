"""Server start-up time and memory for each word list, beside the obvious alternative.

Starts ``wibble serve`` for real (subprocess, port 0) and times it from launch
until it prints its URL, then reads its resident memory from /proc: cold (no
cache: the list is parsed and its trie built) and warm (the compiled trie read
from a cache folder filled by an earlier start). In the same run it builds the
simplest alternative to a trie, a set of words plus a set of every prefix, in a
fresh interpreter, for comparison.

    .venv/bin/python -m benchmarks.startup [--lists en es] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SET_ALTERNATIVE = """
import resource, sys, time
t = time.perf_counter()
words = set(); prefixes = set()
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        w = line.strip()
        if w:
            words.add(w)
            prefixes.update(w[:i] for i in range(1, len(w)))
elapsed = time.perf_counter() - t
rss = int(next(l for l in open("/proc/self/status") if l.startswith("VmRSS")).split()[1]) // 1024
print(elapsed, rss)
"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def serve_once(name: str, cache_dir: str) -> tuple[float, float]:
    """Seconds until the URL is printed, and RSS in MB; ``cache_dir`` "" means no cache."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "wibble", "serve", "--port", "0", "--words", name, "--cache-dir", cache_dir],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "running at" in line:
                return time.perf_counter() - started, rss_mb(proc.pid)
        raise RuntimeError("server did not start")
    finally:
        proc.terminate()
        proc.wait()


def baseline_once() -> tuple[float, float]:
    """An interpreter that only imports the server's modules: the floor under every list."""
    code = (
        "import gevent.monkey; gevent.monkey.patch_all(); import wibble.web, wibble.web.server; "
        "print(int(next(l for l in open('/proc/self/status') if l.startswith('VmRSS')).split()[1]) // 1024)"
    )
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return time.perf_counter() - started, float(out.stdout.split()[0])


def set_alternative(name: str) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", SET_ALTERNATIVE, str(ROOT / "words" / f"{name}.txt")],
        capture_output=True,
        text=True,
        check=True,
    )
    elapsed, rss = out.stdout.split()
    return float(elapsed), float(rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", nargs="+", default=["en", "es"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    base = [baseline_once() for _ in range(args.runs)]
    print(
        f"imports only (no list): {statistics.median(t for t, _ in base):.2f} s, "
        f"{statistics.median(m for _, m in base):.0f} MB"
    )
    print(
        f"{'list':6} {'cold start-up':>14} {'RSS':>7} | {'warm start-up':>14} {'RSS':>7} | "
        f"{'set+prefix-set build':>21} {'RSS':>7}"
    )
    with tempfile.TemporaryDirectory() as cache:
        for name in args.lists:
            cold = [serve_once(name, "") for _ in range(args.runs)]
            serve_once(name, cache)  # fills the cache
            warm = [serve_once(name, cache) for _ in range(args.runs)]
            alt = [set_alternative(name) for _ in range(args.runs)]
            cold_s, cold_rss = (statistics.median(x) for x in zip(*cold, strict=True))
            warm_s, warm_rss = (statistics.median(x) for x in zip(*warm, strict=True))
            alt_build, alt_rss = (statistics.median(x) for x in zip(*alt, strict=True))
            print(
                f"{name:6} {cold_s:>12.2f} s {cold_rss:>4.0f} MB | {warm_s:>12.2f} s {warm_rss:>4.0f} MB | "
                f"{alt_build:>19.2f} s {alt_rss:>4.0f} MB"
            )


if __name__ == "__main__":
    main()
