"""Serving the app for real players: gevent's WSGI server, one process, a greenlet per connection.

All games live in this one process's memory, so there is exactly one worker.
Call ``gevent.monkey.patch_all()`` before importing this module (``wibble serve`` does).
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable
from typing import Any, TextIO

import gevent
from gevent.pywsgi import WSGIHandler, WSGIServer

# gevent reads requests through an 8 KB buffer that every connection keeps for its
# whole life, though a websocket reads it only for its handshake; requests are small.
READ_BUFFER = 1024

YOUNG_COLLECTION = 10_000

HOUSEKEEPING_INTERVAL = 60.0  # seconds between sweeps of idle games and purges of old ones
PURGE_BATCH = 500  # games deleted per transaction, so a big purge never stalls players
SHUTDOWN_GRACE = 3.0  # seconds connections get to say goodbye when the server stops

log = logging.getLogger(__name__)


class Handler(WSGIHandler):  # type: ignore[misc]
    """Closes the TCP connection after a websocket ends, and reads requests through a small buffer.

    Without the first, gevent goes back to reading the socket for the next HTTP
    request, parses the client's websocket close frame as one, and answers it
    with a raw HTTP 400 written onto what the client thinks is a websocket.
    """

    def __init__(self, sock: Any, address: Any, server: Any) -> None:
        super().__init__(sock, address, server)
        self.rfile = sock.makefile("rb", READ_BUFFER)
        self._deadline: gevent.Timeout | None = None

    # A client gets HANDSHAKE_TIMEOUT seconds, in all, to send its request line and
    # headers: a slowloris sending a byte every few seconds is cut off, as is a
    # keep-alive connection that sends nothing more. A timeout per read would not do:
    # each byte would start the clock again.

    def read_requestline(self) -> Any:
        seconds = getattr(self.server, "handshake_timeout", None)
        if seconds:
            self._deadline = gevent.Timeout.start_new(seconds, TimeoutError("request not sent in time"))
        try:
            line = super().read_requestline()
        except BaseException:
            self._cancel_deadline()
            raise
        if not line:
            self._cancel_deadline()
        return line

    def read_request(self, requestline: str) -> Any:
        try:
            return super().read_request(requestline)
        finally:
            self._cancel_deadline()

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def handle_one_response(self) -> None:
        try:
            super().handle_one_response()
        finally:
            if self.environ.get("HTTP_UPGRADE", "").lower() == "websocket":
                self.close_connection = True


class Reader:
    """The websocket library's reader, started as a bare greenlet instead of a ``threading.Thread``.

    Patched by gevent, a thread is a greenlet anyway, plus a thread's bookkeeping
    (a Thread object with its own locks and events, an entry in threading's tables)
    that nothing here uses: about 5 KB for every connection. However the reader
    ends, even by an exception the library did not expect, the connection is marked
    closed and its handler woken (it waits for that without a timeout).
    """

    def __init__(self, target: Callable[[], None]) -> None:
        self._target = target
        self.name = "websocket-reader"

    def start(self) -> None:
        gevent.spawn_raw(self._run)

    def _run(self) -> None:
        try:
            self._target()
        finally:
            ws = getattr(self._target, "__self__", None)  # the target is the library's ws._thread
            if ws is not None:
                ws.connected = False
                ws.event.set()


def make_server(app: Any, host: str, port: int, access_log: TextIO | None = None) -> WSGIServer:
    """The server for ``app``; call it once the app and its default word list are loaded.

    Everything alive by then lives as long as the process: the modules, the app and
    the word list's trie (tens of thousands of dicts). It is moved out of the cyclic
    garbage collector's sight, so a full collection, which pauses every game at once,
    scans only the connections and games.

    Young collections run every ``YOUNG_COLLECTION`` allocations instead of Python's
    700: each one promotes whatever happens to be in flight (a message, an event),
    and the promoted objects are what eventually trigger the full collections that
    cost 30-80 ms at a thousand players (benchmarks.load).
    """
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, older, oldest)
    options = app.config.get("SOCK_SERVER_OPTIONS") or {}
    app.config["SOCK_SERVER_OPTIONS"] = {**options, "thread_class": Reader}
    server = WSGIServer((host, port), app, handler_class=Handler, log=access_log)
    server.handshake_timeout = float(app.config["HANDSHAKE_TIMEOUT"])
    return server


def run_housekeeping(app: Any, interval: float = HOUSEKEEPING_INTERVAL) -> None:
    """Forever: let idle games and matches leave memory, and delete those untouched for ``RETENTION_DAYS``."""
    live = app.extensions["wibble.live"]
    store = app.extensions["wibble.store"]
    keep = float(app.config["RETENTION_DAYS"]) * 86400
    while True:
        try:
            live.games.sweep(force=True)
            live.matches.sweep()
            live.rooms.sweep(PURGE_BATCH)
            before, purged = time.time() - keep, 0
            while True:
                deleted = store.purge(before, PURGE_BATCH)
                purged += deleted
                if deleted < PURGE_BATCH:
                    break
                gevent.sleep(0)  # let players' moves in between batches
            if purged:
                log.info("deleted %d saved games untouched for %s days", purged, app.config["RETENTION_DAYS"])
        except Exception:
            log.exception("housekeeping failed; trying again later")
        gevent.sleep(interval)


def stop_gracefully(server: WSGIServer, app: Any, grace: float = SHUTDOWN_GRACE) -> None:
    """Stop accepting, tell every connection the server is restarting (1012), then close the store."""
    server.close()
    connections = app.extensions["wibble.connections"]
    connections.close_all()
    deadline = time.monotonic() + grace
    while len(connections) and time.monotonic() < deadline:
        gevent.sleep(0.05)
    server.stop(timeout=1)
    app.extensions["wibble.store"].close()
