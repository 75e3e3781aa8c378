"""Fixtures for the browser tests: the word lists (to find real words on a board) and a console watch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import ConsoleMessage, Page

from tests.support import WORDS
from wibble.core import Trie
from wibble.wordlists import load


@pytest.fixture(scope="session")
def en_trie() -> Trie:
    return load(Path(WORDS) / "en.txt").trie


@pytest.fixture(scope="session")
def es_trie() -> Trie:
    return load(Path(WORDS) / "es.txt").trie


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
