"""One address cannot take the server from everyone: connection caps, game budgets, slow handshakes."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from websocket import ABNF

from tests.support import Client, LiveServer

StartServer = Callable[..., LiveServer]


def tight(**settings: str) -> dict[str, str]:
    return {f"WIBBLE_{key}": value for key, value in settings.items()}


def test_an_address_past_its_connection_cap_is_told_why_and_closed(start_server: StartServer) -> None:
    server = start_server("--data-dir", "", env=tight(MAX_CONNECTIONS_PER_ADDRESS="3"))
    held = [Client(server.ws_url) for _ in range(3)]
    try:
        for client in held:
            assert client.ask({"type": "new_game"})["type"] == "game"
        extra = Client(server.ws_url)
        refused = extra.recv()
        assert (refused["type"], refused["code"]) == ("error", "limit/connections")
        opcode, frame = extra.ws.recv_data_frame(True)
        assert opcode == ABNF.OPCODE_CLOSE
        assert int.from_bytes(frame.data[:2], "big") == 1008
        extra.close()
        # A connection that leaves frees its place.
        held.pop().close()
        deadline = time.monotonic() + 10
        while True:
            again = Client(server.ws_url)
            reply = again.ask({"type": "new_game"})
            again.close()
            if reply["type"] == "game" or time.monotonic() > deadline:
                break
        assert reply["type"] == "game", reply
    finally:
        for client in held:
            client.close()


def test_new_games_past_the_budget_are_refused_and_resuming_still_works(start_server: StartServer) -> None:
    server = start_server("--data-dir", "", env=tight(GAMES_PER_MINUTE="3"))
    client = Client(server.ws_url)
    try:
        games = [client.ask({"type": "new_game"}) for _ in range(3)]
        assert [game["type"] for game in games] == ["game"] * 3
        refused = client.ask({"type": "new_game"})
        assert (refused["type"], refused["code"]) == ("error", "limit/games")
        # The games this address has are still its to play.
        back = client.ask({"type": "resume", "game_id": games[0]["game_id"], "token": games[0]["token"]})
        assert back["type"] == "game"
    finally:
        client.close()


def test_guessing_tokens_is_cut_off(start_server: StartServer) -> None:
    server = start_server("--data-dir", "", env=tight(FAILED_RESUMES_PER_MINUTE="5"))
    client = Client(server.ws_url)
    try:
        game = client.ask({"type": "new_game"})
        codes = [
            client.ask({"type": "resume", "game_id": game["game_id"], "token": f"guess-{n}"})["code"]
            for n in range(7)
        ]
        assert codes[:5] == ["game/bad_token"] * 5
        assert codes[5:] == ["limit/resumes"] * 2
        # Even the right token waits until the budget refills: a guesser cannot tell it found one.
        right = client.ask({"type": "resume", "game_id": game["game_id"], "token": game["token"]})
        assert right["code"] == "limit/resumes"
    finally:
        client.close()


def test_a_slow_handshake_is_cut_off(start_server: StartServer) -> None:
    """A slowloris client, sending its request a byte at a time, is dropped after the handshake timeout."""
    server = start_server("--data-dir", "", env=tight(HANDSHAKE_TIMEOUT="1"))
    address = urlsplit(server.url)
    request = b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
    with socket.create_connection((address.hostname, address.port), timeout=10) as sock:
        started = time.monotonic()
        closed = False
        for byte in request:
            try:
                sock.sendall(bytes([byte]))
                sock.settimeout(0.3)
                if sock.recv(1) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:
                closed = True
                break
        assert closed, "the server was still waiting for the rest of the request"
        assert time.monotonic() - started < 8
    # Everyone else is served as usual.
    client = Client(server.ws_url)
    try:
        assert client.ask({"type": "new_game"})["type"] == "game"
    finally:
        client.close()
