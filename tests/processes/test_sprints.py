"""Sprints and the daily board against real server processes: the clock survives a SIGKILL."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.support import Client, LiveServer

StartServer = Callable[..., LiveServer]
SPRINT = 6  # seconds: the daily sprint on these servers


def daily(client: Client, player: str, name: str) -> dict[str, Any]:
    game = client.ask({"type": "new_daily", "player": player, "name": name})
    assert game["type"] == "game", game
    return game


def until(client: Client, kind: str) -> dict[str, Any]:
    while True:
        message = client.recv()
        if message["type"] == kind:
            return message


def test_the_daily_board_is_the_same_for_two_players_on_different_connections(
    start_server: StartServer, clients: Callable[[LiveServer], Client]
) -> None:
    server = start_server("--data-dir", "", env={"WIBBLE_DAILY_SECONDS": str(SPRINT)})
    ann = daily(clients(server), "ann-" + "a" * 28, "Ann")
    bo = daily(clients(server), "bo-" + "b" * 29, "Bo")
    assert ann["board"] == bo["board"]
    assert ann["daily"] == bo["daily"]
    assert ann["game_id"] != bo["game_id"]


def test_a_sprint_ends_on_time_after_the_server_is_killed_and_started_again(
    tmp_path: Path, start_server: StartServer, clients: Callable[[LiveServer], Client]
) -> None:
    settings = {"WIBBLE_DAILY_SECONDS": str(SPRINT)}
    first = start_server("--data-dir", str(tmp_path), env=settings)
    game = daily(clients(first), "ann-" + "a" * 28, "Ann")
    ends = time.time() + game["remaining"]

    first.kill()
    second = start_server("--data-dir", str(tmp_path), env=settings)
    client = clients(second)
    again = client.ask({"type": "resume", "game_id": game["game_id"], "token": game["token"]})
    assert again["type"] == "game"
    assert again["phase"] == "idle"
    assert 0 < again["remaining"] < SPRINT  # the clock went on while the server was down

    over = until(client, "over")
    # Ended by the restarted server's own timer, within a second of the original deadline.
    assert abs(time.time() - ends) < 1.5
    assert over["total"] == 0
    assert over["missed"]
    board = until(client, "leaderboard")
    assert board["you"] == {"rank": 1, "name": "Ann", "score": 0, "words": 0, "ranked": True, "pace": 0}
    refused = client.ask({"type": "press", "row": 0, "col": 0})
    assert (refused["type"], refused["code"]) == ("error", "game/over")
    # Today's board is drawn with the host's key, which the killed process made and saved (that
    # it is not the code's public key's board is tests/live/test_daily.py's): the restarted one
    # reads that key, so Bo plays what Ann played.
    assert daily(clients(second), "bo-" + "b" * 29, "Bo")["board"] == game["board"]
