"""One websocket connection: read frames, hand them to a ``Player``, write replies.

The traps this guards against (flask-sock 0.7 / simple-websocket 1.1):
- ``receive()`` can stay blocked after the library refuses an oversize frame (it
  wakes us before it marks the connection closed), and it sleeps through wake-ups
  that bring no message; so we wait on the library's event ourselves, and its
  reader wakes us once more as its very last act, when it closes its socket;
- two threads sending on one socket interleave frames, and a client that stops
  reading would block ``send()`` forever, so a game's broadcast only appends to the
  connection's bounded ``Outbox`` and wakes its handler, which sends; a full outbox
  drops that client instead of growing or blocking the game;
- an exception escaping the handler writes raw HTTP onto the socket, so none do;
- small frames wait ~40 ms for Nagle's algorithm unless TCP_NODELAY is set;
- the library's ``sock.send`` may send part of a frame, its own pongs share the
  socket, and pings never reach a message rate limit: ``GuardedSocket`` fixes all three.

A connection costs two greenlets under gevent (the handler, and the library's
reader), and an idle one costs nothing until a frame or a ping arrives: thousands
of players wait silently. An earlier design (a sender thread per connection, and a
handler polling ``receive(timeout=1.0)``) held 4,000 idle players with 75 KB each
and woke 4,000 times a second (``python -m benchmarks.load --idle 4000``).
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from simple_websocket import ConnectionClosed
from wsproto.events import TextMessage

from .. import protocol
from ..core import ProtocolError, RuleError, WibbleError
from ..live import Router, Session
from ..ratelimit import TokenBucket

log = logging.getLogger(__name__)

POLICY_VIOLATION = 1008
MESSAGE_TOO_BIG = 1009
INTERNAL_ERROR = 1011
SERVICE_RESTART = 1012
DRAIN_TIMEOUT = 2.0  # seconds a send may take while the connection is closing
# The kernel's buffer for frames a client has not read yet (Linux doubles the number).
# Small, so a client that stops reading fills it after a few dozen messages, and the
# outbox limit, not megabytes of kernel memory, is what bounds it.
SEND_BUFFER = 16 * 1024


def check_websocket_library() -> None:
    """Fail at start-up, not mid-game, if simple-websocket no longer has what this module relies on."""
    import inspect

    from simple_websocket import ws as library

    needed = [
        ("Base._thread", hasattr(library.Base, "_thread")),
        ("Base.close", hasattr(library.Base, "close")),
        ("Server(thread_class=...)", "thread_class" in inspect.signature(library.Server.__init__).parameters),
        ("Base(thread_class=...)", "thread_class" in inspect.signature(library.Base.__init__).parameters),
    ]
    missing = [name for name, present in needed if not present]
    if missing:
        raise RuntimeError(
            "this version of simple-websocket lacks "
            + ", ".join(missing)
            + "; install simple-websocket>=1.0,<1.2"
        )


class Outbox:
    """A bounded queue of outgoing frames; only the connection's handler sends them.

    ``put`` never blocks: any greenlet (another tab's broadcast, under its game's
    lock) appends a frame and wakes the handler. Past ``limit`` frames waiting, the
    client is not reading: it is dropped, and its socket shut down so the handler
    stops waiting on a send that may never finish.
    """

    def __init__(self, ws: Any, limit: int, wake: Callable[[], None], hang_up: Callable[[], None]) -> None:
        self._ws = ws
        self._frames: list[str] = []  # a list, not a deque: an empty one costs no block of memory
        self._limit = limit
        self._wake = wake
        self._hang_up = hang_up
        self.alive = True
        self.broken = False  # a send failed, perhaps part-way through a frame: send nothing more

    def __len__(self) -> int:
        return len(self._frames)

    def put(self, frame: str) -> None:
        if not self.alive:
            return
        if len(self._frames) >= self._limit:
            log.info("dropping a client that is not reading its messages")
            self.alive = False
            self._hang_up()
        else:
            self._frames.append(frame)
        self._wake()

    def put_error(self, exc: WibbleError, seq: int | None = None) -> None:
        self.put(protocol.encode(protocol.error(exc, seq)))

    def flush(self) -> None:
        """Send what is waiting, in order (called by the handler only).

        Everything waiting goes out in one write: an event's messages (a verdict, the
        refill, the words left) each stay their own websocket frame, but the frames are
        handed to the socket together, one system call rather than one per message.
        """
        frames = self._frames
        while frames and self.alive:
            try:
                if len(frames) == 1:  # the usual case (a drag's step): simple-websocket's own send
                    self._ws.send(frames.pop(0))
                    continue
                # Taken from the front by count: another thread only ever appends, so a frame
                # put meanwhile stays for the next pass, neither lost nor reordered.
                count = len(frames)
                batch = frames[:count]
                del frames[:count]
                _send_all(self._ws, batch)
            except Exception:  # closed, reset or timed out: this client is gone
                self.alive = False
                self.broken = True
        if not self.alive:
            frames.clear()


def _send_all(ws: Any, frames: list[str]) -> None:
    """Send ``frames`` as text messages, each its own frame, in one write to the socket.

    simple-websocket's ``send`` encodes one message with its wsproto connection and writes
    it at once; this does the same for several and joins the bytes. Anything else (a test's
    fake socket) gets one ``send`` per frame.
    """
    connection, sock = getattr(ws, "ws", None), getattr(ws, "sock", None)
    if connection is None or sock is None:
        for frame in frames:
            ws.send(frame)
        return
    if not ws.connected:
        raise ConnectionClosed(ws.close_reason, ws.close_message)
    sock.send(b"".join([connection.send(TextMessage(data=frame)) for frame in frames]))


class GuardedSocket:
    """The socket as simple-websocket sees it: whole sends, one at a time, and paced reads.

    - simple-websocket calls ``sock.send`` and ignores a short count, which with a
      send timeout (or a full buffer) cuts a frame short; here a send sends it all.
    - Its reader thread answers pings and sends close frames on the same socket as
      our sender thread; a lock keeps their frames from interleaving.
    - Pings, pongs and empty fragments never reach the message rate limit, so reads
      are paced by bytes instead: past the budget, the reader simply waits, and TCP
      makes the client wait too.
    """

    def __init__(self, sock: socket.socket, read_budget: TokenBucket, closed: Callable[[], None]) -> None:
        self._sock = sock
        self._send_lock = threading.Lock()
        self._read_budget = read_budget
        self._closed = closed

    def send(self, data: bytes) -> int:
        with self._send_lock:
            self._sock.sendall(data)
        return len(data)

    def recv(self, size: int) -> bytes:
        data = self._sock.recv(size)
        delay = self._read_budget.spend(len(data))
        if delay:
            time.sleep(delay)
        return data

    def close(self) -> None:
        """The library's reader closes its socket as its last act: the handler must hear of it."""
        try:
            self._sock.close()
        finally:
            self._closed()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def next_frame(ws: Any, outbox: Outbox, closing: list[int] | None = None) -> str | bytes | None:
    """The next frame from the client; None when frames wait to be sent or the connection ended.

    The library's own ``receive()`` waits on the same event, but sleeps again after a
    wake-up that brought no message; here a wake-up from the outbox, or a request to
    close (``closing`` not empty: the server is stopping), returns at once.
    No timeout: every frame, every outgoing message and the end of the library's
    reader (``GuardedSocket.close``) wake it, and a timer per wait costs time and memory.
    """
    event = ws.event
    while ws.connected and not ws.input_buffer and not len(outbox) and not closing:
        event.wait()
        event.clear()
    if ws.input_buffer:
        frame: str | bytes = ws.input_buffer.pop(0)
        return frame
    return None


class Connections:
    """Every open websocket, so that a stopping server can tell each one why it closes."""

    def __init__(self) -> None:
        self._open: dict[object, Callable[[int], None]] = {}
        self.closing: int | None = None

    def add(self, key: object, close: Callable[[int], None]) -> None:
        self._open[key] = close

    def discard(self, key: object) -> None:
        self._open.pop(key, None)

    def __len__(self) -> int:
        return len(self._open)

    def close_all(self, code: int = SERVICE_RESTART) -> None:
        """Ask every connection to close with ``code`` (each sends what it has queued first)."""
        self.closing = code
        for close in list(self._open.values()):
            close(code)


class Limiter:
    """One connection's message budget: a token bucket, and patience for refusals.

    ``admit`` says whether to handle a message (True), to ignore it with a warning
    (False: the warning is put in the outbox at most once a second), or to close the
    connection because the client keeps flooding (raises ``_Flooding``).
    """

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


def _tune_socket(ws: Any, config: Mapping[str, Any]) -> socket.socket | None:
    """Set the socket's options and wrap it in a ``GuardedSocket``; returns the raw socket."""
    sock: socket.socket | None = getattr(ws, "sock", None)
    if sock is None:
        return None
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        # Bounds a send to a client that stopped reading. Safe for receiving only
        # because pings make the library wait in select() before every recv().
        if config["SOCK_SERVER_OPTIONS"].get("ping_interval"):
            sock.settimeout(float(config["SEND_TIMEOUT"]))
        else:
            sock.settimeout(None)  # the handshake's timeout is over
    except OSError:
        pass
    read_budget = TokenBucket(
        float(config["READ_BYTES_PER_SECOND"]), float(config["READ_BURST_BYTES"]), time.monotonic
    )
    ws.sock = GuardedSocket(sock, read_budget, ws.event.set)
    return sock


def _handle(frame: str | bytes, router: Router, session: Session, outbox: Outbox) -> None:
    """Parse and apply one message; every refusal is answered, and nothing escapes."""
    command = None
    try:
        command = protocol.parse(frame)
        router.handle(session, command)
    except WibbleError as exc:
        if exc.request is None and command is not None:
            exc.about(protocol.request_name(command))
        outbox.put_error(exc, command.seq if command is not None else protocol.seq_of(frame))
    except Exception:
        log.exception("unexpected error handling a message")
        failure = WibbleError(
            "server/internal", "the server could not handle that message; the game is unchanged"
        )
        if command is not None:
            failure.about(protocol.request_name(command))
        outbox.put_error(failure, command.seq if command is not None else None)


def serve_connection(
    ws: Any,
    router: Router,
    config: Mapping[str, Any],
    address: str = "",
    connections: Connections | None = None,
) -> None:
    """Run one connection until the client leaves, misbehaves past the limits, or the server stops."""
    sock = _tune_socket(ws, config)

    def hang_up() -> None:
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)  # also ends a send stuck on a client that stopped reading
            except OSError:
                pass

    outbox = Outbox(ws, int(config["OUTBOX_LIMIT"]), ws.event.set, hang_up)
    session = Session(outbox.put, address)
    budgets = router.budgets
    if connections is None:  # not `or`: an empty Connections is falsy
        connections = Connections()
    closing: list[int] = []

    def close_with(code: int) -> None:
        closing.append(code)
        ws.event.set()

    close_code: int | None = None
    counted = budgets.connect(address)
    connections.add(session, close_with)
    try:
        if connections.closing is not None:
            raise _Closing(connections.closing)
        if not counted:
            outbox.put_error(
                RuleError("limit/connections", "too many connections from your address; close some tabs")
            )
            raise _Closing(POLICY_VIOLATION)
        close_code = _receive_loop(ws, router, session, outbox, config, closing)
    except _Closing as stop:
        close_code = stop.code
    except ConnectionClosed:
        pass
    except Exception:
        log.exception("websocket connection failed")
        close_code = INTERNAL_ERROR
    finally:
        connections.discard(session)
        if counted:
            budgets.disconnect(address)
        _leave(router, session)
        _finish(ws, sock, outbox, close_code)
        hang_up()


def _leave(router: Router, session: Session) -> None:
    """The session leaves what it was on; a failure here (the store or Redis away) must not keep
    the socket from closing: housekeeping puts presence right once they are back."""
    try:
        router.leave(session)
    except Exception:
        log.exception("a connection's leaving was not all noted")


def _receive_loop(
    ws: Any,
    router: Router,
    session: Session,
    outbox: Outbox,
    config: Mapping[str, Any],
    closing: list[int],
) -> int | None:
    """Read and handle frames until the connection ends; returns the close code to send, if any."""
    limiter = Limiter(config)
    max_bytes = int(config["SOCK_SERVER_OPTIONS"].get("max_message_size") or protocol.MAX_FRAME_BYTES)
    while True:
        outbox.flush()
        if closing:
            return closing[0]
        # A message that arrived with the client's close frame is still handled.
        if not outbox.alive or not (ws.connected or ws.input_buffer):
            return None
        frame = next_frame(ws, outbox, closing)
        if frame is None:
            continue
        if isinstance(frame, str) and len(frame.encode("utf-8", "surrogatepass")) > max_bytes:
            # The library's own limit counts characters; a frame of "ñ"s is twice as many bytes.
            return MESSAGE_TOO_BIG
        if limiter.admit(outbox):
            _handle(frame, router, session, outbox)


def _finish(ws: Any, sock: socket.socket | None, outbox: Outbox, close_code: int | None) -> None:
    """Send what is queued (briefly), then the close frame."""
    if sock is not None and outbox.alive and len(outbox):
        try:
            sock.settimeout(DRAIN_TIMEOUT)  # let queued frames go out, briefly
        except OSError:
            pass
    outbox.flush()
    try:
        # A send that failed may have left half a frame: a close frame must not follow it.
        if ws.connected and not outbox.broken:
            reason = "server restarting" if close_code == SERVICE_RESTART else None
            ws.close(reason=close_code, message=reason)
    except Exception:
        pass
