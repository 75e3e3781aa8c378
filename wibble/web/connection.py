"""One websocket connection on flask-sock: the route's handler reads, one writer sends.

flask-sock (and simple-websocket, wsproto under it) does the protocol: the handshake,
frames, masking, fragments, UTF-8, control frames, the close handshake, and the 1009
for a message over ``max_message_size``. This module only uses its documented calls:
``ws.receive(timeout=…)``, ``ws.send`` and ``ws.close``.

- The handler (``serve_connection``, run by the route) reads a message at a time,
  parses it and hands it to the ``Router``. Whatever the game says to this session (a
  reply, another player's broadcast) is put in the connection's bounded ``Outbox``,
  from any greenlet or thread, and never blocks.
- One writer per connection drains the outbox into ``ws.send``: the game never writes
  a socket, two greenlets never interleave frames, and a client that stops reading
  holds up nobody else. Past ``OUTBOX_LIMIT`` messages waiting, or one send blocked for
  ``SEND_TIMEOUT`` (``Connections.watch``), the client is dropped: its socket is shut
  down, which ends a send stuck on it and the library's reader alike.
- A client that sends nothing for ``SILENCE_TIMEOUT`` is closed: the page sends a
  ``ping`` every few seconds (answered ``pong`` here, without the router) and notices a
  silent server itself. The library's websocket pings are off by default: they put a
  select() before every read (docs/benchmarks-log.md, 2026-11-27, "The heartbeat").
- An exception escaping the handler would become an HTTP 500 written onto the
  websocket, so none do.

The socket itself is the WSGI server's (``transport_socket``), never the library's: it
is used only to set TCP options and to shut the connection down.
"""

from __future__ import annotations

import logging
import socket
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qs

from simple_websocket import ConnectionClosed

from .. import protocol
from ..core import ProtocolError, RuleError, WibbleError
from ..live import Router, Session
from ..ratelimit import TokenBucket

log = logging.getLogger(__name__)

POLICY_VIOLATION = 1008
MESSAGE_TOO_BIG = 1009
INTERNAL_ERROR = 1011
SERVICE_RESTART = 1012
# After the close frame, how long the client has to answer it before its socket is shut down.
LINGER_SECONDS = 1.0
# How long the writer keeps sending what was queued once the connection is ending.
DRAIN_TIMEOUT = 2.0
# The kernel's buffer for frames a client has not read yet (Linux doubles the number).
# Small, so a client that stops reading fills it after a few dozen messages, and the
# outbox limit, not megabytes of kernel memory, is what bounds it.
SEND_BUFFER = 16 * 1024
PONG = protocol.encode({"type": "pong"})
_REASONS = {SERVICE_RESTART: "server restarting", POLICY_VIOLATION: "policy violation"}


def transport_socket(environ: Mapping[str, Any]) -> socket.socket | None:
    """The connection's socket as the WSGI server hands it to the app: ``wibble serve``'s
    (``wibble.socket``), gunicorn's or Werkzeug's development server's."""
    for key in ("wibble.socket", "gunicorn.socket", "werkzeug.socket"):
        sock = environ.get(key)
        if sock is not None:
            return sock  # type: ignore[no-any-return]
    return None


def tune_socket(sock: socket.socket) -> None:
    """TCP options for a websocket: no Nagle delay on small frames, a small send buffer. They
    belong to the connection, so they hold for every descriptor of it (the library's too)."""
    for level, option, value in (
        (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),
        (socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER),
    ):
        try:
            sock.setsockopt(level, option, value)
        except OSError:  # a Unix socket (gunicorn --bind unix:…) has no TCP_NODELAY
            pass


def _start(target: Callable[[], None]) -> None:
    """Run ``target`` beside the caller: a bare greenlet under gevent (``wibble serve``, gunicorn's
    gevent worker: no ``Thread`` object and its locks for each burst of messages), a thread under
    a threaded server (``flask run``)."""
    global _spawn
    if _spawn is None:  # asked once: whether gevent patched threading is settled before any socket
        monkey = sys.modules.get("gevent.monkey")
        if monkey is not None and monkey.is_module_patched("threading"):
            import gevent

            _spawn = gevent.spawn_raw
        else:
            _spawn = _thread
    _spawn(target)


def _thread(target: Callable[[], None]) -> None:
    threading.Thread(target=target, name="wibble-writer", daemon=True).start()


_spawn: Callable[[Callable[[], None]], object] | None = None


class Outbox:
    """A bounded queue of outgoing messages; only the connection's writer sends them.

    ``put`` never blocks: any greenlet or thread (another player's broadcast, under its
    game's lock) appends a message and wakes the writer. Past ``limit`` messages waiting,
    the client is not reading: it is dropped, and ``hang_up`` shuts its socket down so
    that a send stuck on it ends.
    """

    __slots__ = ("_hang_up", "_limit", "_messages", "alive", "closing", "wake")

    def __init__(
        self, limit: int, hang_up: Callable[[], None], wake: Callable[[], None] = lambda: None
    ) -> None:
        self._messages: list[str] = []  # a list, not a deque: an empty one costs no block of memory
        self._limit = limit
        self._hang_up = hang_up
        self.wake = wake
        """Called after every change: the connection's writer starts, if it is not running."""
        self.alive = True
        self.closing: int | None = None  # a close code the writer sends after what is queued

    def __len__(self) -> int:
        return len(self._messages)

    def put(self, message: str) -> None:
        if not self.alive:
            return
        if len(self._messages) >= self._limit:
            log.info("dropping a client that is not reading its messages")
            self.drop()
            return
        self._messages.append(message)
        self.wake()

    def put_error(self, exc: WibbleError, seq: int | None = None) -> None:
        self.put(protocol.encode(protocol.error(exc, seq)))

    def take(self) -> list[str]:
        """Everything waiting, in order; what is put meanwhile waits for the next take."""
        taken, self._messages = self._messages, []
        return taken

    def close(self, code: int) -> None:
        """Send what is queued, then a close frame with ``code``."""
        if self.closing is None:
            self.closing = code
        self.wake()

    def drop(self) -> None:
        """Send nothing more and hang up."""
        self.alive = False
        self._messages = []
        self._hang_up()  # (a writer under way stops at its send, which fails; none is started)


class Writer:
    """The connection's one writer: sends each message of its outbox with ``ws.send``, and ends the
    connection with ``ws.close(code)`` when asked to.

    It runs only while there is something to do: the outbox's ``wake`` starts it unless it runs
    already, and it stops once the outbox is empty, so an idle connection holds no writer (its
    greenlet's saved stack and its waiting were about 10 KB of each idle player's memory). The
    check that ends it and the start of the next one are made under one lock: exactly one
    writer, and no message left behind."""

    __slots__ = ("_handler_done", "_idle", "_lock", "_outbox", "_running", "_ws", "sending_since")

    def __init__(self, ws: Any, outbox: Outbox) -> None:
        self._ws = ws
        self._outbox = outbox
        self._lock = threading.Lock()
        self._running = False
        self._idle = threading.Event()  # set while no writer runs
        self._idle.set()
        self._handler_done = threading.Event()
        self.sending_since = 0.0  # when the send under way began (0: none), for Connections.watch
        outbox.wake = self.wake

    def wake(self) -> None:
        with self._lock:
            if self._running:
                return
            self._running = True
            self._idle.clear()
        try:
            _start(self.run)
        except Exception:  # no thread to be had: nobody will write, so the client is dropped
            log.exception("could not start a connection's writer")
            with self._lock:
                self._stopped()
            self._outbox.drop()

    def _stopped(self) -> None:
        self._running = False
        self.sending_since = 0.0
        self._idle.set()

    def run(self) -> None:
        try:
            self._loop()
        except Exception:
            log.exception("a connection's writer failed")
            self._outbox.alive = False
            self._outbox.drop()
        finally:
            with self._lock:
                self._stopped()

    def _loop(self) -> None:
        outbox, ws = self._outbox, self._ws
        while outbox.alive:
            messages = outbox.take()
            if not messages and outbox.closing is None:
                with self._lock:
                    if not len(outbox) and outbox.closing is None:
                        self._stopped()  # (before the lock is let go: a wake from now starts another)
                        return
                continue
            for message in messages:
                self.sending_since = time.monotonic()
                try:
                    ws.send(message)
                except (ConnectionClosed, OSError):  # the client left, or its socket was shut down
                    outbox.alive = False
                    return
                if not outbox.alive:
                    return
            self.sending_since = 0.0
            if outbox.closing is not None and not len(outbox):
                self._close(outbox.closing)
                return

    def _close(self, code: int) -> None:
        """The close frame, then a moment for the client's own: it ends the library's reader, and
        with it the handler's ``receive``. A client that never answers is hung up on."""
        self._outbox.alive = False
        try:
            self._ws.close(code, _REASONS.get(code, ""))
        except (ConnectionClosed, OSError):
            pass
        if not self._handler_done.wait(LINGER_SECONDS):
            self._outbox.drop()

    def handler_finished(self) -> None:
        self._handler_done.set()
        self._outbox.alive = False

    def join(self, timeout: float) -> bool:
        return self._idle.wait(timeout)


class Connections:
    """Every open websocket: a stopping server tells each why it closes, and a send stuck on a
    client that stopped reading is cut off after ``send_timeout`` (checked once a second for all
    connections, so that a send costs no timer of its own)."""

    def __init__(self, send_timeout: float = 10.0) -> None:
        self._open: dict[Writer, Outbox] = {}
        self.closing: int | None = None
        self.send_timeout = send_timeout
        self._watching = False
        self._lock = threading.Lock()

    def add(self, writer: Writer, outbox: Outbox) -> None:
        self._open[writer] = outbox
        if not self._watching:
            with self._lock:
                if not self._watching:
                    self._watching = True
                    threading.Thread(target=self.watch, name="wibble-send-watch", daemon=True).start()

    def discard(self, writer: Writer) -> None:
        self._open.pop(writer, None)

    def __len__(self) -> int:
        return len(self._open)

    def close_all(self, code: int = SERVICE_RESTART) -> None:
        """Ask every connection to close with ``code`` (each sends what it has queued first)."""
        self.closing = code
        for outbox in list(self._open.values()):
            outbox.close(code)

    def stuck(self, now: float) -> list[Outbox]:
        """The outboxes whose writer has been sending one message for longer than ``send_timeout``."""
        late = now - self.send_timeout
        return [outbox for writer, outbox in list(self._open.items()) if 0 < writer.sending_since < late]

    def watch(self, interval: float = 1.0) -> None:
        """Forever: drop the clients a send has waited on for too long."""
        while True:
            time.sleep(interval)
            for outbox in self.stuck(time.monotonic()):
                log.info("dropping a client that stopped reading (a send waited %.0f s)", self.send_timeout)
                outbox.drop()


class Limiter:
    """One connection's message budget: a token bucket, and patience for refusals.

    ``admit`` says whether to handle a message (True), to ignore it with a warning
    (False: the warning is put in the outbox at most once a second), or to close the
    connection because the client keeps flooding (raises ``_Closing``).
    """

    __slots__ = ("_bucket", "_last_warning", "_patience")

    def __init__(self, config: Mapping[str, Any]) -> None:
        self._bucket = TokenBucket(float(config["RATE_LIMIT"]), float(config["RATE_BURST"]), time.monotonic)
        # Refusals are forgiven slowly: FLOOD_CLOSE of them within about ten seconds closes the connection.
        flood_close = float(config["FLOOD_CLOSE"])
        self._patience = TokenBucket(flood_close / 10, flood_close, time.monotonic)
        self._last_warning = float("-inf")

    def admit(self, outbox: Outbox) -> bool:
        if self._bucket.take():
            return True
        if not self._patience.take():
            raise _Closing(POLICY_VIOLATION)
        now = time.monotonic()
        if now - self._last_warning >= 1.0:  # one warning a second, not one per message
            self._last_warning = now
            outbox.put_error(ProtocolError("protocol/rate_limited", "too many messages; some were ignored"))
        return False


class _Closing(Exception):
    """End the connection with this close code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _handle(message: str | bytes, router: Router, session: Session, outbox: Outbox) -> None:
    """Parse and apply one message; every refusal is answered, and nothing escapes."""
    command = None
    try:
        command = protocol.parse(message)
        if isinstance(command, protocol.Ping):
            outbox.put(PONG)
            return
        router.handle(session, command)
    except WibbleError as exc:
        if exc.request is None and command is not None:
            exc.about(protocol.request_name(command))
        outbox.put_error(exc, command.seq if command is not None else protocol.seq_of(message))
    except Exception:
        log.exception("unexpected error handling a message")
        failure = WibbleError(
            "server/internal", "the server could not handle that message; the game is unchanged"
        )
        if command is not None:
            failure.about(protocol.request_name(command))
        outbox.put_error(failure, command.seq if command is not None else None)


def reads_arrays(environ: Mapping[str, Any]) -> bool:
    """Whether the client asked for frames that may hold several messages (``/ws?frames=array``,
    as every page since 2026-12-07 does); an older page open across a restart did not."""
    return "array" in parse_qs(str(environ.get("QUERY_STRING", ""))).get("frames", [])


def serve_connection(
    ws: Any,
    environ: Mapping[str, Any],
    router: Router,
    config: Mapping[str, Any],
    address: str = "",
    connections: Connections | None = None,
) -> None:
    """Run one accepted websocket until the client leaves, misbehaves past the limits, goes
    silent, or the server stops. Never raises."""
    sock = transport_socket(environ)

    def hang_up() -> None:
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)  # ends a send stuck on the client, and the library's read
            except OSError:
                pass

    outbox = Outbox(int(config["OUTBOX_LIMIT"]), hang_up)
    writer = Writer(ws, outbox)
    session = Session(outbox.put, address, arrays=reads_arrays(environ))
    budgets = router.budgets
    if connections is None:  # not `or`: an empty Connections is falsy
        connections = Connections(float(config["SEND_TIMEOUT"]))
    counted = False
    try:
        counted = budgets.connect(address)
        connections.add(writer, outbox)
        if connections.closing is not None:
            raise _Closing(connections.closing)
        if not counted:
            outbox.put_error(
                RuleError("limit/connections", "too many connections from your address; close some tabs")
            )
            raise _Closing(POLICY_VIOLATION)
        _receive_loop(ws, router, session, outbox, config)
    except _Closing as stop:
        outbox.close(stop.code)
        _wait_for_close(ws)
    except Exception:
        log.exception("websocket connection failed")
        outbox.close(INTERNAL_ERROR)
        _wait_for_close(ws)
    finally:
        writer.handler_finished()
        connections.discard(writer)
        if counted:
            budgets.disconnect(address)
        _leave(router, session)
        if not writer.join(DRAIN_TIMEOUT):
            hang_up()  # a send still waits on a client that does not read


def _receive_loop(
    ws: Any, router: Router, session: Session, outbox: Outbox, config: Mapping[str, Any]
) -> None:
    """Read and handle messages until the client has gone, or raise ``_Closing``."""
    limiter = Limiter(config)
    silence = float(config["SILENCE_TIMEOUT"])
    # flask-sock's max_message_size counts a text message's characters; the limit is in bytes.
    most = int(config["SOCK_SERVER_OPTIONS"].get("max_message_size") or protocol.MAX_FRAME_BYTES)
    receive = ws.receive
    while True:
        try:
            message = receive(timeout=silence)
        except ConnectionClosed:
            return
        if outbox.closing is not None:  # the server is stopping, or the outbox overflowed
            raise _Closing(outbox.closing)
        if not outbox.alive:
            return
        if message is None:  # nothing for SILENCE_TIMEOUT seconds: a vanished client
            raise _Closing(POLICY_VIOLATION)
        if len(message) * 4 > most and len(message.encode() if isinstance(message, str) else message) > most:
            raise _Closing(MESSAGE_TOO_BIG)
        if limiter.admit(outbox):
            _handle(message, router, session, outbox)


def _wait_for_close(ws: Any) -> None:
    """After asking the writer to close: wait until the library has heard the client's close (or
    the writer has hung up), reading and dropping whatever still arrives."""
    deadline = time.monotonic() + DRAIN_TIMEOUT + LINGER_SECONDS
    while (left := deadline - time.monotonic()) > 0:
        try:
            ws.receive(timeout=left)
        except ConnectionClosed:
            return
        except Exception:
            return


def _leave(router: Router, session: Session) -> None:
    """The session leaves what it was on; a failure here (the store or Redis away) must not keep
    the socket from closing: housekeeping puts presence right once they are back."""
    try:
        router.leave(session)
    except Exception:
        log.exception("a connection's leaving was not all noted")
