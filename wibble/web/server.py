"""Serving the app for real players: gevent's WSGI server, one process, a greenlet per connection.

All games live in this one process's memory, so there is exactly one worker.
Call ``gevent.monkey.patch_all()`` before importing this module (``wibble serve`` does).
"""

from __future__ import annotations

import http.client
import socket
import time
from typing import Any, TextIO

import gevent
from gevent.pywsgi import WSGIHandler, WSGIServer
from gevent.socket import socket as GeventSocket

from .app import is_trusted
from .serving import SHUTDOWN_GRACE, say_goodbye, tune_garbage_collector

# gevent reads requests through an 8 KB buffer that every connection keeps for its
# whole life, though a websocket reads it only for its handshake; requests are small.
READ_BUFFER = 1024

# After a websocket ends, how long and how much the server reads, waiting for the client to close.
LINGER_SECONDS = 1.0
LINGER_BYTES = 64 * 1024


def _answer(status: str, text: str, *extra: str) -> bytes:
    """A whole HTTP answer written straight onto the socket, without running the app; it
    always closes the connection."""
    body = (text + "\n").encode()
    head = [f"HTTP/1.1 {status}", "Connection: close", *extra, "Content-Type: text/plain"]
    return ("\r\n".join([*head, f"Content-Length: {len(body)}", "", ""])).encode() + body


_TOO_MANY = _answer("429 Too Many Requests", "Too many connections from your address.", "Retry-After: 10")
_NO_BODIES = _answer("413 Content Too Large", "Wibble takes no request bodies.")
_BAD_HEADERS = _answer("400 Bad Request", "The request's headers could not be read.")


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
        if isinstance(ex, http.client.HTTPException):
            # Headers the standard parser gives up on (over 100 of them, or one line too long):
            # the client's doing, answered 400 like any bad request, not a traceback in the log
            # for each (gevent prints one for an error it does not know to be the client's).
            return ("400", _BAD_HEADERS)
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
    """The server for ``app``; call it once the app and its default word list are loaded
    (``serving.get_ready``): the garbage collector is tuned for what is alive by then."""
    tune_garbage_collector()
    server = Server((host, port), app, handler_class=Handler, log=access_log)
    server.handshake_timeout = float(app.config["HANDSHAKE_TIMEOUT"])
    server.http_connections = HttpConnections(
        app.config["HTTP_CONNECTIONS_PER_ADDRESS"], app.config["TRUSTED_PROXIES"]
    )
    return server


def stop_gracefully(server: WSGIServer, app: Any, grace: float = SHUTDOWN_GRACE) -> None:
    """Stop accepting, tell every connection the server is restarting (1012), then close the store
    (call it once the process's ``Chores`` have stopped)."""
    server.close()
    say_goodbye(app, grace)
    server.stop(timeout=1)
    app.extensions["wibble.store"].close()
