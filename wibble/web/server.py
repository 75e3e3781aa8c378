"""Serving the app for real players: gevent's WSGI server, one process, a greenlet per connection.

All games live in this one process's memory, so there is exactly one worker.
Call ``gevent.monkey.patch_all()`` before importing this module (``wibble serve`` does).
"""

from __future__ import annotations

import gc
import logging
import socket
import time
from typing import Any, TextIO

import gevent
import gevent.event
from gevent.pywsgi import WSGIHandler, WSGIServer
from gevent.socket import socket as GeventSocket

from ..engines.store import SqliteStore, StorageError
from .app import is_trusted

# gevent reads requests through an 8 KB buffer that every connection keeps for its
# whole life, though a websocket reads it only for its handshake; requests are small.
READ_BUFFER = 1024

YOUNG_COLLECTION = 2500

HOUSEKEEPING_INTERVAL = 60.0  # seconds between sweeps of idle games and purges of old ones
PICK_UP_INTERVAL = 2.0  # seconds between looks for deadlines nobody handled
PURGE_BATCH = 500  # games deleted per transaction, so a big purge never stalls players
SHUTDOWN_GRACE = 3.0  # seconds connections get to say goodbye when the server stops
CHECKPOINT_INTERVAL = 0.5  # seconds between the SQLite store's checkpoints (on a native thread)
# After a websocket ends, how long and how much the server reads, waiting for the client to close.
LINGER_SECONDS = 1.0
LINGER_BYTES = 64 * 1024

log = logging.getLogger(__name__)


def _answer(status: str, text: str, *extra: str) -> bytes:
    """A whole HTTP answer written straight onto the socket, without running the app; it
    always closes the connection."""
    body = (text + "\n").encode()
    head = [f"HTTP/1.1 {status}", "Connection: close", *extra, "Content-Type: text/plain"]
    return ("\r\n".join([*head, f"Content-Length: {len(body)}", "", ""])).encode() + body


_TOO_MANY = _answer("429 Too Many Requests", "Too many connections from your address.", "Retry-After: 10")
_NO_BODIES = _answer("413 Content Too Large", "Wibble takes no request bodies.")


class BodyRefused(ValueError):
    """A request came with a body; gevent hands a ValueError from ``read_request`` to
    ``_handle_client_error``, which answers it instead of running the app."""


class HttpConnections:
    """How many plain HTTP connections each client address holds open, capped per address.

    A connection counts from the moment it is accepted until it closes or becomes a
    websocket (websockets have their own cap, ``MAX_CONNECTIONS_PER_ADDRESS``). Trusted
    proxies are not capped: every client behind one shares its address.
    """

    def __init__(self, per_address: float, trusted: list[str]) -> None:
        self.per_address = per_address
        self.trusted = trusted
        self._open: dict[str, int] = {}

    def admit(self, address: str) -> bool:
        if is_trusted(address, self.trusted):
            return True
        held = self._open.get(address, 0)
        if held >= self.per_address:
            return False
        self._open[address] = held + 1
        return True

    def release(self, address: str) -> None:
        held = self._open.get(address, 0) - 1
        if held > 0:
            self._open[address] = held
        else:
            self._open.pop(address, None)


class Handler(WSGIHandler):  # type: ignore[misc]
    """Closes the TCP connection after a websocket ends, reads requests through a small buffer,
    caps the plain HTTP connections of each address and refuses request bodies.

    Without the first, gevent goes back to reading the socket for the next HTTP
    request, parses the client's websocket close frame as one, and answers it
    with a raw HTTP 400 written onto what the client thinks is a websocket.
    """

    def __init__(self, sock: Any, address: Any, server: Any) -> None:
        super().__init__(sock, address, server)
        self.rfile = sock.makefile("rb", READ_BUFFER)
        self._deadline: gevent.Timeout | None = None
        self._counted: str | None = None  # the address whose HTTP connection this is, while counted

    def handle(self) -> None:
        peers: HttpConnections | None = getattr(self.server, "http_connections", None)
        peer = self.client_address[0] if isinstance(self.client_address, tuple) else str(self.client_address)
        if peers is not None:
            if not peers.admit(peer):
                self._refuse(_TOO_MANY)
                return
            self._counted = peer
        try:
            super().handle()
        finally:
            self._uncount()

    def _uncount(self) -> None:
        peers: HttpConnections | None = getattr(self.server, "http_connections", None)
        if self._counted is not None and peers is not None:
            peers.release(self._counted)
        self._counted = None

    def _refuse(self, answer: bytes) -> None:
        """Answer and hang up without reading another byte: whatever the client still sends is
        never waited for (the kernel drops it with the socket)."""
        try:
            self.socket.sendall(answer)
        except OSError:
            pass
        finally:
            self.socket.close()

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
            parsed = super().read_request(requestline)
        finally:
            self._cancel_deadline()
        # No route takes a request body (the pages, the record and the replay are GETs; the
        # game is played over the websocket), so a request announcing one is refused before a
        # byte of it is read. Otherwise gevent reads (discards) the rest of the body after the
        # answer, to keep the connection in step: a client announcing 100 MB and sending a byte
        # every few seconds would hold the connection as long as it liked, beyond the deadline.
        chunked = "chunked" in (self.headers.get("Transfer-Encoding") or "").lower()
        if parsed and (chunked or self.content_length):
            raise BodyRefused
        return parsed

    def _handle_client_error(self, ex: BaseException) -> Any:
        if isinstance(ex, BodyRefused):
            return ("413", _NO_BODIES)  # written as is; then the connection is closed
        return super()._handle_client_error(ex)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def get_environ(self) -> Any:
        environ = super().get_environ()
        # The connection's socket, for the websocket route's TCP options and hang-up
        # (connection.transport_socket); flask-sock finds its own through wsgi.input.
        environ["wibble.socket"] = self.socket
        return environ

    def handle_one_response(self) -> None:
        websocket = self.environ.get("HTTP_UPGRADE", "").lower() == "websocket"
        if websocket:
            # From here on a websocket (or refused as one): counted by the app's budgets instead.
            self._uncount()
        try:
            super().handle_one_response()
        finally:
            if websocket:
                self.close_connection = True
                # Upgraded or refused (a 400, a 403), the client may have sent more already: read
                # it before closing, or the reset could destroy the answer before it is read.
                linger(self.socket)


def linger(sock: Any, seconds: float = LINGER_SECONDS, most: int = LINGER_BYTES) -> None:
    """Before a websocket's socket is closed: send our FIN, then read and drop what the client still
    sends until it closes too, for at most ``seconds`` and ``most`` bytes. Closing a socket with
    bytes unread (the rest of a message refused as too big, say) resets the connection, and a
    browser then reports 1006 instead of the close code it was sent."""
    try:
        sock.shutdown(socket.SHUT_WR)
        deadline, left = time.monotonic() + seconds, most
        while left > 0 and (remaining := deadline - time.monotonic()) > 0:
            sock.settimeout(remaining)
            data = sock.recv(min(left, 16384))
            if not data:
                return  # the client closed its side: done
            left -= len(data)
    except OSError:  # reset, timed out, or already shut down
        return


class WholeSends(GeventSocket):  # type: ignore[misc]
    """A client connection whose ``send`` sends all it is given, or fails.

    simple-websocket writes each frame with one ``sock.send`` and does not look at the count it
    returns; on a socket whose buffer is nearly full (a client reading slowly) the kernel takes
    part of the frame, the rest is lost, and every frame after it is garbage to the client. The
    library takes its socket from the WSGI server (a ``dup`` of this one, of this class), so the
    server hands out sockets on which a short send cannot happen. A send that waits on a client
    that stopped reading is ended by ``Connections.watch`` (SEND_TIMEOUT).
    """

    def send(self, data: Any, flags: int = 0, timeout: Any = None) -> int:
        view = memoryview(data).cast("B")
        sent = super().send(view, flags)  # nearly always all of it: one system call
        while sent < len(view):  # the rest once the client has read some (gevent waits, the hub runs on)
            sent += super().send(view[sent:], flags)
        return len(view)


class Server(WSGIServer):  # type: ignore[misc]
    """gevent's WSGI server, whose accepted connections are ``WholeSends`` sockets."""

    def do_read(self) -> Any:
        accepted = super().do_read()
        if accepted is None:
            return None
        sock, address = accepted
        return WholeSends(sock.family, sock.type, sock.proto, fileno=sock.detach()), address


def make_server(app: Any, host: str, port: int, access_log: TextIO | None = None) -> WSGIServer:
    """The server for ``app``; call it once the app and its default word list are loaded.

    Everything alive by then lives as long as the process: the modules, the app and
    the word list's trie (tens of thousands of dicts). It is moved out of the cyclic
    garbage collector's sight, so a full collection, which pauses every game at once,
    scans only the connections and games.

    Young collections run every ``YOUNG_COLLECTION`` allocations instead of Python's
    700: each one promotes whatever happens to be in flight (a message, an event),
    and the promoted objects are what eventually trigger the full collections that
    cost 30-80 ms at a thousand players (benchmarks.load). Not many more, though: every
    tenth young collection is a middle one, which scans all that the ten promoted, so
    at 10,000 it paused every game for 30-50 ms in 250 rooms of four, at 2,500 for 8-10
    (docs/benchmarks-log.md, 2026-12-07).
    """
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, older, oldest)
    server = Server((host, port), app, handler_class=Handler, log=access_log)
    server.handshake_timeout = float(app.config["HANDSHAKE_TIMEOUT"])
    server.http_connections = HttpConnections(
        app.config["HTTP_CONNECTIONS_PER_ADDRESS"], app.config["TRUSTED_PROXIES"]
    )
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
            if live.rooms.keeper.races is not None:
                live.rooms.keeper.races.sweep()
            live.rooms.deadlines.sweep(PURGE_BATCH)
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


def run_pick_up(app: Any, interval: float = PICK_UP_INTERVAL) -> None:
    """Forever: take on the deadlines nobody handled (a dead process's, or this one's before a
    restart): a turn that ran out, a grace period, a room left empty (``Router.pick_up``)."""
    live = app.extensions["wibble.live"]
    while True:
        try:
            live.pick_up()
        except Exception as exc:  # the store is away: look again later
            log.warning("could not look for deadlines nobody handled: %s", exc)
        gevent.sleep(interval)


def run_checkpoints(
    store: SqliteStore, stop: gevent.event.Event, interval: float = CHECKPOINT_INTERVAL
) -> None:
    """Until ``stop`` is set: the SQLite store's checkpoints on a native thread of the hub's pool,
    so that no commit on the loop runs one (``SqliteStore.checkpoint``). A checkpoint under way
    when ``stop`` is set is finished first: the store is closed after this returns. While they
    fail (a read-only or full disk, a file moved away), the commits' backstop bounds the WAL;
    each new reason is logged once, and so is the recovery."""
    pool = gevent.get_hub().threadpool
    failing: str | None = None
    try:
        store.defer_checkpoints()
    except StorageError as exc:
        log.warning("checkpoints stay in the commits, on the loop: %s", exc.reason)
        return
    while not stop.wait(interval):
        try:
            pool.apply(store.checkpoint)
        except Exception as exc:
            reason = exc.reason if isinstance(exc, StorageError) else repr(exc)
            if reason != failing:
                log.warning(
                    "could not checkpoint the database: %s",
                    reason,
                    exc_info=not isinstance(exc, StorageError),
                )
            failing = reason
        else:
            if failing is not None:
                log.warning("checkpointing the database again")
            failing = None


def stop_gracefully(
    server: WSGIServer, app: Any, checkpoints: gevent.Greenlet | None = None, grace: float = SHUTDOWN_GRACE
) -> None:
    """Stop accepting, tell every connection the server is restarting (1012), then close the store
    (once ``checkpoints``, the greenlet of ``run_checkpoints``, has finished the one under way)."""
    server.close()
    connections = app.extensions["wibble.connections"]
    connections.close_all()
    deadline = time.monotonic() + grace
    while len(connections) and time.monotonic() < deadline:
        gevent.sleep(0.05)
    server.stop(timeout=1)
    if checkpoints is not None:
        checkpoints.join()
    app.extensions["wibble.store"].close()
