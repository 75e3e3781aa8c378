"""Find a Chromium for the end-to-end tests, installing one if need be.

In order: an explicit setting (``WIBBLE_CHROMIUM``), a system Chromium or Chrome,
Playwright's own download (``playwright install chromium``), and on Debian as
root, ``apt-get install chromium``. ``python -m tests.browser`` runs the search
and prints what it found; the test command runs it before pytest.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
PLAYWRIGHT_BUNDLED = "playwright"  # the marker for "use Playwright's own download"


class NoBrowser(RuntimeError):
    pass


def _log(message: str) -> None:
    print(f"[browser] {message}", file=sys.stderr, flush=True)


def _works(path: str) -> bool:
    try:
        result = subprocess.run([path, "--version"], capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def _explicit() -> str | None:
    path = os.environ.get("WIBBLE_CHROMIUM")
    if not path:
        return None
    if not _works(path):
        raise NoBrowser(f"WIBBLE_CHROMIUM={path!r} does not run ({path} --version failed)")
    return path


def _system() -> str | None:
    for name in SYSTEM_NAMES:
        path = shutil.which(name)
        if path and _works(path):
            return path
    return None


def _playwright_download() -> str | None:
    _log("no system Chromium; trying `playwright install chromium`")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "playwright", "install", "chromium"],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        _log(f"playwright install failed: {exc}")
        return None
    if result.returncode != 0:
        lines = [line.strip() for line in (result.stderr + result.stdout).splitlines() if line.strip()]
        reason = next(
            (line for line in lines if "Error" in line or "Failed" in line), lines[-1] if lines else "?"
        )
        _log(f"playwright install failed: {reason}")
        return None
    return PLAYWRIGHT_BUNDLED


def _apt() -> str | None:
    if not Path("/etc/debian_version").exists() or not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    if not shutil.which("apt-get"):
        return None
    _log("installing Debian's chromium with apt-get (a minute or two, once)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900, check=False)
        if result.returncode != 0:
            _log(f"{' '.join(command)} failed: {result.stderr.strip()[-500:]}")
            return None
    return _system()


def find_chromium() -> str:
    """A Chromium executable path, or ``PLAYWRIGHT_BUNDLED``; raises ``NoBrowser`` with advice."""
    for step in (_explicit, _system, _playwright_download, _apt):
        found = step()
        if found:
            return found
    raise NoBrowser(
        "No Chromium for the end-to-end tests. Install Chromium or Chrome (Debian: "
        "`apt-get install chromium`), or set WIBBLE_CHROMIUM to a Chromium executable."
    )


if __name__ == "__main__":
    try:
        print(find_chromium())
    except NoBrowser as exc:
        _log(str(exc))
        sys.exit(1)
