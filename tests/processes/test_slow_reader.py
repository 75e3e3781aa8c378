"""A client that stops reading is dropped within a bound the host sets, holding little memory meanwhile."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable

from websocket import create_connection

from tests.support import Client, LiveServer

StartServer = Callable[..., LiveServer]


def test_a_client_that_never_reads_is_dropped_and_others_play_on(start_server: StartServer) -> None:
    server = start_server(
        "--data-dir",
        "",
        env={"WIBBLE_SEND_TIMEOUT": "2", "WIBBLE_RATE_LIMIT": "100000", "WIBBLE_RATE_BURST": "100000"},
    )
    # A small receive window on the client's side, so the server's own buffers are what fill up.
    deaf = create_connection(
        server.ws_url, timeout=10, sockopt=((socket.SOL_SOCKET, socket.SO_RCVBUF, 4096),)
    )
    other = Client(server.ws_url)
    try:
        deaf.send(json.dumps({"type": "new_game"}))
        assert other.ask({"type": "new_game"})["type"] == "game"
        started = time.monotonic()
        dropped = False
        while time.monotonic() - started < 20:
            try:
                # Every press and cancel is answered with a `chain` message the client never reads.
                for _ in range(50):
                    deaf.send('{"type":"press","row":0,"col":0}')
                    deaf.send('{"type":"cancel"}')
            except OSError:
                dropped = True
                break
            # Meanwhile another player's moves are answered as usual.
            assert other.ask({"type": "press", "row": 1, "col": 1})["type"] == "chain"
            assert other.ask({"type": "cancel"})["type"] == "chain"
        assert dropped, "the server kept a client that reads nothing"
        # Dropped once the kernel's small buffer filled and one send waited SEND_TIMEOUT (2 s).
        assert time.monotonic() - started < 12
    finally:
        deaf.shutdown()
        other.close()
