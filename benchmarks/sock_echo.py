"""The flask-sock floors: an echo (``benchmarks.load``) and a room relay (``benchmarks.rooms``).

The stack Wibble runs on, with nothing of Wibble's above it: gevent patched first, a
Flask app with flask-sock (simple-websocket and wsproto under it), served by Wibble's
own server (``wibble.web.server.make_server``: its ``Server`` and ``Handler``, its GC
settings) with Wibble's default ``SOCK_SERVER_OPTIONS``. A handler reads with
``ws.receive(timeout=30)`` (Wibble's SILENCE_TIMEOUT) and answers with ``ws.send``:

- echo (default): every message straight back to its sender;
- ``--relay``: the first message names the room (``code``, echoed to the sender), every
  later one goes to every connection of that room, the sender included, as the
  asyncio relay in ``benchmarks.rooms`` does.

Either answers a ``{"type":"ping"}`` message with ``{"type":"pong"}``, as Wibble does
(the page's heartbeat), to the sender only. Prints its URL once it listens, like
``benchmarks.echo_server``, so ``benchmarks.load.start_floor`` can start it on port 0.

    .venv/bin/python -m benchmarks.sock_echo [--port 0] [--relay] [--ping-interval 25]
"""

from gevent import monkey

monkey.patch_all()  # before anything imports socket or threading, as `wibble serve` does

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402
from typing import Any  # noqa: E402

from flask import Flask, request  # noqa: E402
from flask_sock import Sock  # noqa: E402
from simple_websocket import ConnectionClosed  # noqa: E402

from wibble.web.app import DEFAULTS  # noqa: E402
from wibble.web.server import make_server  # noqa: E402

PING, PONG = '{"type":"ping"}', '{"type":"pong"}'  # what the page sends (JSON.stringify) and gets
SILENCE = 30.0  # Wibble's SILENCE_TIMEOUT: every read waits at most this long (a gevent timer each)

Member = tuple[Any, threading.Lock]  # a relay connection and its send lock


def nodelay() -> None:
    """No Nagle delay, as Wibble sets (``tune_socket``) and asyncio sets on every TCP socket."""
    request.environ["wibble.socket"].setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def echo(ws: Any) -> None:
    nodelay()
    receive, send = ws.receive, ws.send
    try:
        while (message := receive(timeout=SILENCE)) is not None:
            send(PONG if message == PING else message)  # this greenlet is the only sender: no lock
    except OSError:  # the client left mid-send; flask-sock itself catches ConnectionClosed
        pass


def deliver(member: Member, message: str) -> None:
    """One message to one connection. Under gevent a send blocked on a full socket yields, and
    another greenlet sending meanwhile would interleave its frame: one sender at a time."""
    ws, lock = member
    with lock:
        try:
            ws.send(message)
        except (ConnectionClosed, OSError):  # gone: skipped, as websockets.broadcast skips it
            pass


def relay(ws: Any, rooms: dict[str, set[Member]]) -> None:
    nodelay()
    me: Member = (ws, threading.Lock())  # gevent's lock, once patched
    room: set[Member] | None = None
    try:
        while (message := ws.receive(timeout=SILENCE)) is not None:
            if message == PING:
                deliver(me, PONG)
            elif room is None:
                # A plain dict and set: greenlets switch only where they block, never mid-update.
                room = rooms.setdefault(str(json.loads(message).get("code")), set())
                room.add(me)
                deliver(me, message)
            else:
                for member in list(room):  # a copy: a send may yield, and the room change meanwhile
                    deliver(member, message)
    finally:
        if room is not None:
            room.discard(me)


def create(relaying: bool, ping_interval: float | None) -> Flask:
    app = Flask(__name__)
    # What make_server reads (the handshake deadline, the per-address cap on plain HTTP
    # connections, raised as the benchmarks raise Wibble's), and flask-sock's options as Wibble's.
    app.config.update(
        HANDSHAKE_TIMEOUT=DEFAULTS["HANDSHAKE_TIMEOUT"],
        HTTP_CONNECTIONS_PER_ADDRESS=100_000,
        TRUSTED_PROXIES=[],
        SOCK_SERVER_OPTIONS={**DEFAULTS["SOCK_SERVER_OPTIONS"], "ping_interval": ping_interval},
    )
    sock = Sock()
    rooms: dict[str, set[Member]] = {}
    handler = (lambda ws: relay(ws, rooms)) if relaying else echo
    sock.route("/")(handler)
    sock.init_app(app)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--relay", action="store_true", help="relay each message to the sender's room")
    parser.add_argument(
        "--ping-interval",
        type=float,
        default=DEFAULTS["SOCK_SERVER_OPTIONS"]["ping_interval"],
        help="simple-websocket's pings (default: Wibble's, none)",
    )
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    server = make_server(create(args.relay, args.ping_interval), args.host, args.port)
    server.start()
    name = "sock-relay" if args.relay else "sock-echo"
    print(f"{name} running at ws://{args.host}:{server.server_port}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
