"""Helpers the tests share: a real server in a subprocess, a real websocket client, a word finder."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import closing
from functools import cache
from pathlib import Path
from typing import Any

from websocket import WebSocket, create_connection

from wibble.core import Trie, WordList
from wibble.wordlists import load

ROOT = Path(__file__).resolve().parent.parent
WORDS = ROOT / "words"
WS_PATH = "/ws?frames=array"
"""Where a page of today opens its websocket: it reads frames holding several messages."""


# Every test connects from 127.0.0.1: a server's per-address budgets must not be
# what a test meets by accident. Tests of the budgets set them low themselves.
ROOMY_BUDGETS = {
    "WIBBLE_MAX_CONNECTIONS_PER_ADDRESS": "100000",
    "WIBBLE_HTTP_CONNECTIONS_PER_ADDRESS": "100000",
    "WIBBLE_GAMES_PER_MINUTE": "1000000",
    "WIBBLE_FAILED_RESUMES_PER_MINUTE": "1000000",
    "WIBBLE_BOARD_BUILDS_PER_SECOND": "1000000",
    "WIBBLE_ROOMS_PER_MINUTE": "1000000",
    "WIBBLE_FAILED_JOINS_PER_MINUTE": "1000000",
    "WIBBLE_DEFINITIONS_PER_MINUTE": "1000000",
}


@cache
def shipped_list(name: str = "en") -> WordList:
    """A word list of ``words/``, loaded once per test process (read-only, so safely shared)."""
    return load(WORDS / f"{name}.txt")


class LiveServer:
    """``wibble serve`` on a free port, exactly as a host runs it (with roomy per-address budgets)."""

    def __init__(
        self, *args: str, env: dict[str, str] | None = None, command: list[str] | None = None
    ) -> None:
        # ``command`` replaces ``python -m wibble`` (a benchmark's patched server, say).
        self.process = subprocess.Popen(
            [*(command or [sys.executable, "-m", "wibble"]), "serve", "--port", "0", *args],
            cwd=ROOT,
            env={**os.environ, **ROOMY_BUDGETS, **(env or {}), "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.output: list[str] = []
        deadline = time.monotonic() + 60
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.output.append(line)
            match = re.search(r"running at (http://\S+?)/?\s", line)
            if match:
                self.url = match.group(1)
                self.ws_url = self.url.replace("http://", "ws://") + WS_PATH
                # Keep reading its output, so a chatty server never blocks on a full pipe.
                self._reader = threading.Thread(target=self._drain, daemon=True)
                self._reader.start()
                return
        self.stop()
        raise RuntimeError("server did not start:\n" + "".join(self.output))

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        reader = getattr(self, "_reader", None)
        if reader is not None:
            reader.join(5)
        if self.process.stdout is not None:
            self.process.stdout.close()

    def kill(self) -> None:
        """SIGKILL: no clean-up, no goodbyes, as in a crash or an out-of-memory kill."""
        self.process.kill()
        self.process.wait(10)

    def alive(self) -> bool:
        return self.process.poll() is None


def messages_in(frame: str | bytes) -> list[dict[str, Any]]:
    """The messages a server frame holds, in order (docs/protocol.md: one object, or an array of
    what one change said)."""
    data = json.loads(frame)
    return data if isinstance(data, list) else [data]


class Client:
    """A real websocket client speaking JSON, one message at a time (a frame holding several is
    read in order)."""

    def __init__(self, ws_url: str, **options: Any) -> None:
        self.ws: WebSocket = create_connection(ws_url, timeout=10, **options)
        self.pending: deque[dict[str, Any]] = deque()
        """Messages of a frame already read, not yet taken by ``recv``."""

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self) -> dict[str, Any]:
        while not self.pending:
            self.pending.extend(messages_in(self.ws.recv()))
        return self.pending.popleft()

    def ask(self, message: Any) -> dict[str, Any]:
        self.send(message)
        return self.recv()

    def close(self) -> None:
        # close() does nothing once a close frame was read; shutdown() always frees the socket.
        try:
            self.ws.close(timeout=1)
        finally:
            self.ws.shutdown()


def find_paths(
    board: list[list[str]], trie: Trie, min_length: int
) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """Every (word, path) the board allows: depth-first over tiles, pruned by the trie."""
    size = len(board)

    def walk(path: list[tuple[int, int]], node: Any) -> Iterator[tuple[str, list[tuple[int, int]]]]:
        if len(path) >= min_length and trie.is_word(node):
            yield "".join(board[r][c] for r, c in path), list(path)
        r0, c0 = path[-1]
        for r in range(max(0, r0 - 1), min(size, r0 + 2)):
            for c in range(max(0, c0 - 1), min(size, c0 + 2)):
                if (r, c) in path:
                    continue
                child = trie.child(node, board[r][c])
                if child is not None:
                    path.append((r, c))
                    yield from walk(path, child)
                    path.pop()

    for r in range(size):
        for c in range(size):
            node = trie.child(trie.root, board[r][c])
            if node is not None:
                yield from walk([(r, c)], node)


def letters_of(snapshot_board: list[list[dict[str, Any]]]) -> list[list[str]]:
    """The lower-case letters of a ``game`` message's board."""
    return [[tile["letter"].lower() for tile in row] for row in snapshot_board]


def versions_in_database_file(database: Path, copy: Path) -> dict[str, int] | None:
    """Each document's version in a SQLite database file alone, without its write-ahead log
    (copied to ``copy`` and read there): what checkpoints have copied into it. None if the copy
    does not read, as while a checkpoint is still writing the file."""
    shutil.copyfile(database, copy)
    try:
        with closing(sqlite3.connect(copy)) as db:
            return {
                str(doc_id): int(version)
                for doc_id, version in db.execute("SELECT id, version FROM documents")
            }
    except sqlite3.DatabaseError:
        return None
