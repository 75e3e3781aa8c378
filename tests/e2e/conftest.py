"""Fixtures for the browser tests: the word lists (to find real words on a board) and a console watch."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from tests.support import ROOT, LiveServer, shipped_list
from wibble.core import Trie

# The first Spanish game builds a 636k-word dictionary (1-2 s, more on a busy CI
# machine); what players see must happen within this, not within Playwright's 5 s.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def en_trie() -> Trie:
    return shipped_list("en").trie


@pytest.fixture(scope="session")
def es_trie() -> Trie:
    return shipped_list("es").trie


@pytest.fixture(scope="session")
def definitions_compiled() -> None:
    """The lists' definitions compiled into the run's cache folder, as set-up does for a host
    (`make play`), so that a page's first question is answered from a book, not after a compile
    of seconds that a busy machine can stretch past what a test waits for."""
    subprocess.run([sys.executable, "-m", "wibble", "definitions"], cwd=ROOT, check=True, capture_output=True)


def watch_console(page: Page) -> list[str]:
    """Collect the page's console errors and uncaught exceptions into a list."""
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(f"console: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    return errors


@pytest.fixture
def console_errors(page: Page) -> Iterator[list[str]]:
    """Every test using ``page`` fails if the page logged an error while it ran."""
    errors = watch_console(page)
    yield errors
    assert errors == [], "the page logged errors"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server_on(start_server: Callable[..., LiveServer]) -> Callable[..., LiveServer]:
    """Start servers on a chosen port (so one can stop and come back where the page expects it)."""
    return lambda port, *args: start_server("--port", str(port), *args)
