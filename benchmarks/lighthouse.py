"""Lighthouse's performance score and layout shift of the game's pages, on a phone and a desktop.

Starts ``wibble serve`` here and runs Lighthouse (from npm, fetched by ``npx`` on first use)
against ``/`` and ``/daily`` with its mobile settings (a mid-range phone: 4x slower CPU, slow
4G, simulated) and its desktop preset, in the Chromium the tests use.

    .venv/bin/python -m benchmarks.lighthouse [--runs 3]

Issue 31 asked for layout shift ≤ 0.05 and Performance ≥ 95 on both pages.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

from tests.browser import find_chromium
from tests.support import LiveServer

LIGHTHOUSE = "lighthouse@12"


def audit(url: str, form_factor: str, chromium: str, out: Path) -> tuple[float, float]:
    """One Lighthouse run: (performance score 0-100, cumulative layout shift)."""
    command = ["npx", "--yes", LIGHTHOUSE, url, "--quiet", "--only-categories=performance"]
    command += ["--chrome-flags=--headless=new --no-sandbox --disable-gpu", "--output=json"]
    command += [f"--output-path={out}"]
    if form_factor == "desktop":
        command.append("--preset=desktop")
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": chromium}, capture_output=True)
    report = json.loads(out.read_text())
    score = report["categories"]["performance"]["score"] * 100
    return score, report["audits"]["cumulative-layout-shift"]["numericValue"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    chromium = find_chromium()
    server = LiveServer()
    try:
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "report.json"
            for form_factor in ("mobile", "desktop"):
                for path in ("/", "/daily"):
                    runs = [audit(server.url + path, form_factor, chromium, out) for _ in range(args.runs)]
                    scores, shifts = zip(*runs, strict=True)
                    print(
                        f"{form_factor:8s} {path:7s} performance {statistics.median(scores):.0f}"
                        f" (runs {', '.join(f'{s:.0f}' for s in scores)}), layout shift"
                        f" {statistics.median(shifts):.3f} (runs {', '.join(f'{s:.3f}' for s in shifts)})",
                        flush=True,
                    )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
