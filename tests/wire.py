"""Playing over the wire, for the tests of real server processes: start, resume, drag and play a
game with a real websocket client, read a game's record, and check what comes back."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websocket import WebSocketTimeoutException

from tests.support import WORDS, Client, LiveServer, find_paths, letters_of, messages_in, shipped_list
from wibble.core import Trie

Path_ = list[tuple[int, int]]
Connect = Callable[..., Client]

SNAPSHOT_STATE = (
    "board",
    "phase",
    "chain",
    "word",
    "points",
    "status",
    "already_found",
    "total",
    "found",
    "words_left",
    "version",
)


def trie(name: str = "en") -> Trie:
    """The word list's trie, loaded in this process to find words on a board."""
    return shipped_list(name).trie


def new_game(client: Client, **fields: Any) -> dict[str, Any]:
    reply = client.ask({"type": "new_game", **fields})
    assert reply["type"] == "game", reply
    return reply


def resume_of(game: dict[str, Any]) -> dict[str, Any]:
    return {"type": "resume", "game_id": game["game_id"], "token": game["token"]}


def state(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The parts of a ``game`` snapshot that moves can change."""
    assert snapshot["type"] == "game", snapshot
    return {key: snapshot[key] for key in SNAPSHOT_STATE}


def resume_state(connect: Connect, game: dict[str, Any], url: str | None = None) -> dict[str, Any]:
    """The game as a fresh second connection sees it.

    A resume from another connection takes the game over (it cancels a chain someone
    else is dragging), so this is a look at a game with no drag in progress; mid-drag,
    watch the broadcasts of a connection attached before the drag, or ``record_of``.
    """
    other = connect(url) if url else connect()
    try:
        return state(other.ask(resume_of(game)))
    finally:
        other.close()


def record_of(server: LiveServer, game: dict[str, Any]) -> dict[str, Any]:
    """The game's committed state and moves, as ``GET /games/<id>/record`` shows them to anyone.

    Reading it changes nothing (unlike a resume from another connection), and it never
    holds the token: a game id lets anyone watch, not play.
    """
    url = f"{server.url}/games/{game['game_id']}/record"
    with urllib.request.urlopen(url, timeout=10) as response:
        record: dict[str, Any] = json.loads(response.read())
    assert record["game_id"] == game["game_id"], record
    assert game["token"] not in json.dumps(record), record
    return record


def committed_view(snapshot: dict[str, Any]) -> dict[str, Any]:
    """What a ``game`` snapshot says was committed, in the form of a record's ``final``."""
    return {
        "board": "".join(tile["letter"].lower() for row in snapshot["board"] for tile in row),
        "total": snapshot["total"],
        "version": snapshot["version"],
        "words_left": snapshot["words_left"],
        "found": [[entry["word"].lower(), entry["points"]] for entry in snapshot["found"]],
    }


def final_of(record: dict[str, Any]) -> dict[str, Any]:
    """A record's final state without ``draws`` (a count a snapshot does not show)."""
    return {key: value for key, value in record["final"].items() if key != "draws"}


def expect_silence(client: Client, seconds: float = 0.5) -> None:
    """Nothing more arrives on ``client`` for a while."""
    if client.pending:
        pytest.fail(f"expected nothing more, got {list(client.pending)!r}")
    client.ws.settimeout(seconds)
    try:
        extra = client.ws.recv()
        pytest.fail(f"expected nothing more, got {extra!r}")
    except WebSocketTimeoutException:
        pass
    finally:
        client.ws.settimeout(10)


def expect_error(client: Client, code: str | set[str]) -> dict[str, Any]:
    if not client.pending:
        frame = client.ws.recv()
        if not frame:
            hang_up(client)
            pytest.fail(f"the server closed the connection instead of answering with {code}")
        client.pending.extend(messages_in(frame))
    reply = client.recv()
    assert reply["type"] == "error", reply
    codes = {code} if isinstance(code, str) else code
    assert reply["code"] in codes, reply
    assert isinstance(reply["message"], str), reply
    assert reply["message"], reply
    assert_no_leak(reply)
    return reply


def hang_up(client: Client) -> None:
    """Close our socket at once. (``close()`` does nothing once a close frame was read, and
    the socket would then be left for the garbage collector, a ResourceWarning.)"""
    client.ws.shutdown()


def assert_no_leak(message: dict[str, Any]) -> None:
    """No traceback, source file or folder of the server in what a client is told."""
    text = json.dumps(message, ensure_ascii=False)
    assert "Traceback" not in text, text
    assert 'File "' not in text, text
    assert not re.search(r"\.py\b", text), text
    assert str(WORDS.parent) not in text, text
    assert not re.search(r"/(?:tmp|home|usr|var|work|root)/", text), text


def tiles_of(snapshot: dict[str, Any]) -> list[list[tuple[str, int]]]:
    return [[(tile["letter"], tile["score"]) for tile in row] for row in snapshot["board"]]


def word_on(snapshot: dict[str, Any], path: Path_) -> str:
    return "".join(snapshot["board"][r][c]["letter"] for r, c in path)


def points_on(snapshot: dict[str, Any], path: Path_) -> int:
    return sum(snapshot["board"][r][c]["score"] for r, c in path)


def words_on(snapshot: dict[str, Any], name: str = "en") -> Iterator[tuple[str, Path_]]:
    return find_paths(letters_of(snapshot["board"]), trie(name), snapshot["min_length"])


def a_word(snapshot: dict[str, Any], name: str = "en", longest: bool = True) -> tuple[str, Path_]:
    found = sorted(words_on(snapshot, name), key=lambda item: (-len(item[0]) if longest else 0, item))
    assert found, f"no word on {letters_of(snapshot['board'])}"
    return found[0]


def drag(client: Client, path: Path_) -> list[dict[str, Any]]:
    """press + enter along ``path``; returns the chain messages."""
    replies = [client.ask({"type": "press", "row": path[0][0], "col": path[0][1]})]
    for r, c in path[1:]:
        replies.append(client.ask({"type": "enter", "row": r, "col": c}))
    for reply in replies:
        assert reply["type"] == "chain", reply
    return replies


def play(client: Client, path: Path_) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any] | None]:
    """Drag and release ``path``: (chain messages, word message, its refill or None). A scored
    word carries the refill of its tiles (``changed``, ``words_left``) in the same message."""
    chains = drag(client, path)
    judged = client.ask({"type": "release"})
    assert judged["type"] == "word", judged
    board = judged if judged["result"] == "scored" else None
    assert (board is not None) == ("changed" in judged), judged
    return chains, judged, board


def apply_changes(snapshot: dict[str, Any], board: dict[str, Any]) -> list[list[dict[str, Any]]]:
    rows = [[dict(tile) for tile in row] for row in snapshot["board"]]
    for change in board["changed"]:
        rows[change["row"]][change["col"]] = {"letter": change["letter"], "score": change["score"]}
    return rows


def is_word(word: str, name: str = "en") -> bool:
    return word.lower() in trie(name)


def until(
    client: Client, kind: str | tuple[str, ...], where: Callable[[dict[str, Any]], bool] = lambda m: True
) -> list[dict[str, Any]]:
    """Every message up to and including the first of ``kind`` (or of any of several kinds) for
    which ``where`` holds."""
    kinds = (kind,) if isinstance(kind, str) else kind
    seen: list[dict[str, Any]] = []
    while True:
        message = client.recv()
        seen.append(message)
        if message["type"] in kinds and where(message):
            return seen
