"""Redis restarted empty while processes run (an operator's mistake: nothing on disk): the process
says so loudly in its log at run time, and a player is told plainly that the game is gone, not that
it "changed elsewhere"."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.redis_server import RedisServer
from tests.support import Client, LiveServer
from tests.wire import a_word, apply_changes, expect_error, new_game, play, resume_of


@pytest.fixture
def forgetful_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "first").start()  # no AOF, no snapshots
    yield server
    server.stop()


def restart_empty(redis: RedisServer, folder: Path) -> RedisServer:
    """SIGKILL, then a new redis-server on the same port with nothing on disk to load."""
    redis.kill()
    again = RedisServer(folder)
    again.port = redis.port
    return again.start()


def first_heartbeat(redis_server: RedisServer) -> None:
    """Until a heartbeat of the process (every 3.3 s) has written Redis's epoch token and read it
    back (what it compares at its next beat); the read follows the write by one round trip."""
    import redis

    deadline = time.monotonic() + 10
    with redis.Redis.from_url(redis_server.url) as direct:
        while not direct.exists("wibble:epoch"):
            assert time.monotonic() < deadline, "no heartbeat wrote Redis's epoch token"
            time.sleep(0.05)
    time.sleep(0.1)  # (its read, one round trip later)


def test_a_redis_restarted_empty_is_logged_and_its_games_are_gone_for_their_players(
    forgetful_redis: RedisServer, tmp_path: Path
) -> None:
    server = LiveServer("--redis", forgetful_redis.url)
    client = Client(server.ws_url)
    again: RedisServer | None = None
    try:
        game = new_game(client, seed=11)
        _, path = a_word(game)
        _, judged, board = play(client, path)
        assert judged["result"] == "scored"
        assert board is not None
        game["board"] = apply_changes(game, board)
        first_heartbeat(forgetful_redis)

        again = restart_empty(forgetful_redis, tmp_path / "second")

        deadline = time.monotonic() + 15
        while not any("lost its data" in line for line in server.output):
            assert time.monotonic() < deadline, "".join(server.output[-20:])
            time.sleep(0.1)
        [line] = [line for line in server.output if "lost its data" in line]
        assert "appendonly yes" in line

        _, path = a_word(game)
        client.send({"type": "press", "row": path[0][0], "col": path[0][1]})
        gone = expect_error(client, "game/gone")
        assert "no longer has this game" in gone["message"]
        # Not "changed elsewhere", and not for ever: asked for again, the game is simply not found.
        other = Client(server.ws_url)
        try:
            other.send(resume_of(game))
            expect_error(other, "game/not_found")
            assert new_game(other, seed=12)["type"] == "game"  # and a new one plays
        finally:
            other.close()
    finally:
        client.close()
        server.stop()
        if again is not None:
            again.stop()


def test_a_flushed_redis_under_a_game_in_memory_tells_its_player_at_the_next_word(
    forgetful_redis: RedisServer,
) -> None:
    """No connection lost this time (FLUSHALL): the game is still held in memory, and its next save
    finds it gone from the store."""
    import redis

    server = LiveServer("--redis", forgetful_redis.url)
    client = Client(server.ws_url)
    try:
        game = new_game(client, seed=13)
        _, path = a_word(game)
        with redis.Redis.from_url(forgetful_redis.url) as direct:
            direct.flushall()
        play_path = path
        client.send({"type": "press", "row": play_path[0][0], "col": play_path[0][1]})
        assert client.recv()["type"] == "chain"
        for r, c in play_path[1:]:
            client.send({"type": "enter", "row": r, "col": c})
            assert client.recv()["type"] == "chain"
        client.send({"type": "release"})
        gone = expect_error(client, "game/gone")
        assert "no longer has this game" in gone["message"]
        client.send({"type": "press", "row": 0, "col": 0})
        expect_error(client, "game/gone")  # and it stays gone, not "no game yet"
        deadline = time.monotonic() + 5
        while not any("no longer in the store" in line for line in server.output):
            assert time.monotonic() < deadline, "".join(server.output[-20:])
            time.sleep(0.05)
    finally:
        client.close()
        server.stop()
