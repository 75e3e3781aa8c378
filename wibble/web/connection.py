"""One websocket connection: read frames, hand them to a ``Player``, write replies.

After the handshake (``upgrade``: the 101 written straight onto the socket) the
connection's one greenlet does everything: it waits until its socket is readable, a
message is put in its outbox, or a ping is due; it reads what arrived, decodes it with
``frames.Decoder``, handles each message and writes what waits, all frames in one send.
An idle connection is that greenlet parked in the hub with two libev watchers (its
socket, the ping timer): no second reader greenlet, no buffer, no timer per wait.

The traps this guards against:
- two greenlets writing one socket interleave frames, and a client that stops reading
  would block a send for as long as it likes, so a game's broadcast only appends to the
  connection's bounded ``Outbox`` and wakes its greenlet, the only one that writes; a full
  outbox drops that client (its socket shut down) instead of growing or blocking the game;
- an exception escaping the handler writes raw HTTP onto the socket, so none do;
- small frames wait ~40 ms for Nagle's algorithm unless TCP_NODELAY is set;
- a send must send all of a frame or be the connection's last (``sendall``, then nothing
  more, not even a close frame, after one that failed part-way);
- pings, pongs and empty fragments never reach a message rate limit, so reads are also
  paced by bytes: past the budget the socket is not read for a while, and TCP makes the
  client wait too, while replies and broadcasts still go out.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable, Mapping
from typing import Any

from gevent import get_hub
from gevent.hub import Waiter

from .. import protocol
from ..core import ProtocolError, RuleError, WibbleError
from ..live import Router, Session
from ..ratelimit import TokenBucket
from . import frames
from .frames import Control, FrameError

log = logging.getLogger(__name__)

POLICY_VIOLATION = 1008
INTERNAL_ERROR = 1011
SERVICE_RESTART = 1012
DRAIN_TIMEOUT = 2.0  # seconds a send may take while the connection is closing
# After the close frame, how long and how much the server reads, waiting for the client to close.
LINGER_SECONDS = 1.0
LINGER_BYTES = 64 * 1024
# The kernel's buffer for frames a client has not read yet (Linux doubles the number).
# Small, so a client that stops reading fills it after a few dozen messages, and the
# outbox limit, not megabytes of kernel memory, is what bounds it.
SEND_BUFFER = 16 * 1024
# What one recv may take: about one whole message (4 KB), and the grain of the read budget's
# pacing (the budget is checked after each read), so a flood is read a few KB at a time.
READ_SIZE = 4096
_PING = frames.frame(frames.PING, b"")


def upgrade(environ: Mapping[str, Any]) -> socket.socket | None:
    """Answer a websocket handshake (already checked by the app's guard) with its 101, on the
    request's own socket; that socket, or None when the client left or the server cannot hand
    out its socket (only gevent's, ``wibble.socket`` or gunicorn's gevent worker's, can)."""
    sock: socket.socket | None = environ.get("wibble.socket") or environ.get("gunicorn.socket")
    if sock is None:
        log.error("this WSGI server does not give the app its socket: websockets need `wibble serve`")
        return None
    # Frames a client sent before reading our 101 could sit unread in gevent's request buffer
    # (as they did under simple-websocket); browsers and websocket-client wait for the 101.
    try:
        sock.sendall(frames.handshake_response(environ["HTTP_SEC_WEBSOCKET_KEY"]))
    except OSError:
        return None
    return sock


class Outbox:
    """A bounded queue of outgoing messages; only the connection's greenlet writes them.

    ``put`` never blocks: any greenlet (another tab's broadcast, under its game's
    lock) appends a message and wakes the connection. Past ``limit`` messages waiting,
    the client is not reading: it is dropped, and its socket shut down so the connection
    stops waiting on a send that may never finish.
    """

    def __init__(
        self,
        write: Callable[[list[str]], None],
        limit: int,
        wake: Callable[[], None],
        hang_up: Callable[[], None],
    ) -> None:
        self._write = write
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
        """Write what is waiting, in order (called by the connection's greenlet only).

        Everything waiting goes out in one write: an event's messages (a verdict, the
        refill, the words left) each stay their own websocket frame, but the frames are
        handed to the socket together, one system call rather than one per message.
        """
        while self._frames and self.alive:
            # Everything waiting, swapped out before the write: a write may wait for the
            # client, and what other greenlets put meanwhile goes out on the next pass,
            # neither lost nor reordered.
            batch, self._frames = self._frames, []
            try:
                self._write(batch)
            except Exception:  # closed, reset or timed out: this client is gone
                self.alive = False
                self.broken = True
        if not self.alive:
            self._frames.clear()


class Wire:
    """The socket after the handshake, as the connection's one greenlet waits on it and writes it.

    ``wait`` parks the greenlet until the socket is readable, ``wake`` is called (from any
    greenlet: the outbox, a stopping server) or the ping timer fires; the watchers are
    libev's, so waiting costs no greenlet, and the ping timer is one repeating watcher for
    the connection's whole life.
    """

    def __init__(self, sock: socket.socket, ping_interval: float | None) -> None:
        self.sock = sock
        self._hub = get_hub()
        self._readable = self._hub.loop.io(sock.fileno(), 1)
        self._waiter: Any = None  # the Waiter of a wait under way
        self.woken = False
        self.ping_due = False
        self._pinger: Any = None
        if ping_interval:
            self._pinger = self._hub.loop.timer(ping_interval, ping_interval)
            self._pinger.start(self._ping)

    def _ping(self) -> None:
        self.ping_due = True
        self.wake()

    def wake(self) -> None:
        self.woken = True
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            # Waiter.switch must come from the hub: the waiting greenlet resumes once the caller yields.
            self._hub.loop.run_callback(waiter.switch, False)

    def wait(self, read: bool = True, timeout: float | None = None) -> bool:
        """Until a wake-up or, if ``read``, until the socket is readable (True), or ``timeout``."""
        if self.woken:
            return False
        waiter = Waiter(self._hub)
        self._waiter = waiter
        if read:
            self._readable.start(waiter.switch, True)
        timer = None
        if timeout is not None:
            timer = self._hub.loop.timer(timeout)
            timer.start(waiter.switch, False)
        try:
            return waiter.get() is True
        finally:
            self._waiter = None
            if read:
                self._readable.stop()
            if timer is not None:
                timer.close()

    def write_texts(self, messages: list[str]) -> None:
        self.send_all(frames.encode_texts(messages))

    def send_all(self, data: bytes) -> None:
        """All of ``data``, or an OSError: TimeoutError for a client that stops reading, after
        SEND_TIMEOUT (at most twice that: once for the first send, once for the rest).

        One ``send`` first: the kernel nearly always takes a reply whole, and gevent's
        ``sendall`` asks the socket's buffer size of the kernel and reads the clock twice
        before its first byte, a system call and a few Python frames on every event. Only
        what that send left (a client reading slowly) goes through ``sendall``'s wait.
        """
        sent = self.sock.send(data)
        if sent < len(data):
            self.sock.sendall(memoryview(data)[sent:])

    def close(self) -> None:
        self._readable.close()
        if self._pinger is not None:
            self._pinger.close()


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
    connection because the client keeps flooding (raises ``_Closing``).
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


def _tune_socket(sock: socket.socket, config: Mapping[str, Any]) -> None:
    # Bounds a send to a client that stopped reading (reads never wait on it: the socket is
    # read only once it is readable). First, and on its own: an option the socket refuses
    # (no TCP_NODELAY on a Unix socket) must not leave sends without it.
    sock.settimeout(float(config["SEND_TIMEOUT"]))
    for level, option, value in (
        (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),
        (socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER),
    ):
        try:
            sock.setsockopt(level, option, value)
        except OSError:
            pass


def serve_connection(
    sock: socket.socket,
    router: Router,
    config: Mapping[str, Any],
    address: str = "",
    connections: Connections | None = None,
) -> None:
    """Run one upgraded connection until the client leaves, misbehaves past the limits, or the
    server stops; then close it with a close frame (if the client is still there to read it)."""
    _tune_socket(sock, config)
    options = config["SOCK_SERVER_OPTIONS"]
    wire = Wire(sock, options.get("ping_interval"))

    def hang_up() -> None:
        try:
            sock.shutdown(socket.SHUT_RDWR)  # also ends a send stuck on a client that stopped reading
        except OSError:
            pass

    outbox = Outbox(wire.write_texts, int(config["OUTBOX_LIMIT"]), wire.wake, hang_up)
    session = Session(outbox.put, address)
    budgets = router.budgets
    if connections is None:  # not `or`: an empty Connections is falsy
        connections = Connections()
    closing: list[int] = []

    def close_with(code: int) -> None:
        closing.append(code)
        wire.wake()

    close_code: int | None = None
    counted = False
    try:  # from here on the wire (its ping timer) is closed whatever happens, a kill included
        counted = budgets.connect(address)
        connections.add(session, close_with)
        if connections.closing is not None:
            raise _Closing(connections.closing)
        if not counted:
            outbox.put_error(
                RuleError("limit/connections", "too many connections from your address; close some tabs")
            )
            raise _Closing(POLICY_VIOLATION)
        close_code = _receive_loop(wire, router, session, outbox, config, closing)
    except _Closing as stop:
        close_code = stop.code
    except Exception:
        log.exception("websocket connection failed")
        close_code = INTERNAL_ERROR
    finally:
        connections.discard(session)
        if counted:
            budgets.disconnect(address)
        _leave(router, session)
        try:
            _finish(wire, outbox, close_code)
        finally:  # even if killed mid-send: a ping timer left running would fire forever
            wire.close()
            hang_up()


def _leave(router: Router, session: Session) -> None:
    """The session leaves what it was on; a failure here (the store or Redis away) must not keep
    the socket from closing: housekeeping puts presence right once they are back."""
    try:
        router.leave(session)
    except Exception:
        log.exception("a connection's leaving was not all noted")


class _Reading:
    """What one connection's loop keeps between reads: its budgets, its decoder, its pings."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.limiter = Limiter(config)
        max_bytes = config["SOCK_SERVER_OPTIONS"].get("max_message_size") or protocol.MAX_FRAME_BYTES
        self.decoder = frames.Decoder(int(max_bytes))
        self.budget = TokenBucket(
            float(config["READ_BYTES_PER_SECOND"]), float(config["READ_BURST_BYTES"]), time.monotonic
        )
        self.paused_until = 0.0  # the read budget is spent: read nothing before then
        self.answered = True  # the client answered the last ping (or none was sent)


def _receive_loop(
    wire: Wire,
    router: Router,
    session: Session,
    outbox: Outbox,
    config: Mapping[str, Any],
    closing: list[int],
) -> int | None:
    """Read and handle frames until the connection ends; returns the close code to send, if any
    (the client's own, echoed, when it closed first; None when it is gone)."""
    state = _Reading(config)
    while True:
        wire.woken = False
        outbox.flush()
        if closing:
            return closing[0]
        if not outbox.alive:
            return None
        try:
            if wire.ping_due and not _ping(wire, state):
                return POLICY_VIOLATION  # no pong for a whole interval: the client is gone
            data = _read(wire, state)
        except OSError:  # a ping's send timed out (a client not reading), or the socket failed
            outbox.broken = True  # a write may have failed part-way: say nothing more
            return None
        if data is None:
            continue
        if not data:
            return None  # the client went away without a close frame
        delay = state.budget.spend(len(data))
        if delay:
            state.paused_until = time.monotonic() + delay
        code = _handle_data(data, state, wire, router, session, outbox)
        if code is not None:
            return code


def _ping(wire: Wire, state: _Reading) -> bool:
    """Send the ping that is due; False if the last one was never answered."""
    wire.ping_due = False
    if not state.answered:
        return False
    state.answered = False
    wire.send_all(_PING)
    return True


def _read(wire: Wire, state: _Reading) -> bytes | None:
    """What the client sent (b"" once it has gone), or None after a wake-up with nothing read.

    While the read budget is spent, the socket is not watched at all, but a wake-up still
    returns at once: replies and broadcasts go out meanwhile.
    """
    if state.paused_until:
        pause = state.paused_until - time.monotonic()
        if pause > 0:
            wire.wait(read=False, timeout=pause)
            return None
        state.paused_until = 0.0
    if not wire.wait():
        return None
    return wire.sock.recv(READ_SIZE)


def _handle_data(
    data: bytes, state: _Reading, wire: Wire, router: Router, session: Session, outbox: Outbox
) -> int | None:
    """Handle the messages and control frames ``data`` completes; a close code ends the loop."""
    try:
        events = state.decoder.feed(data)
    except FrameError as exc:
        return exc.code
    for event in events:
        if not isinstance(event, Control):
            if state.limiter.admit(outbox):
                _handle(event, router, session, outbox)
        elif event.opcode == frames.PING:
            try:
                wire.send_all(frames.frame(frames.PONG, event.payload))
            except OSError:
                outbox.broken = True
                return None
        elif event.opcode == frames.PONG:
            state.answered = True
        else:
            return event.code  # the client closes: its code is echoed, after what waits for it
    return None


def _finish(wire: Wire, outbox: Outbox, close_code: int | None) -> None:
    """Send what is queued (briefly), then the close frame."""
    if outbox.alive and len(outbox):
        try:
            wire.sock.settimeout(DRAIN_TIMEOUT)  # let queued frames go out, briefly
        except OSError:
            pass
    outbox.flush()
    # A send that failed may have left half a frame: a close frame must not follow it.
    if close_code is None or outbox.broken:
        return
    reason = "server restarting" if close_code == SERVICE_RESTART else ""
    try:
        wire.send_all(frames.close_frame(close_code, reason))
    except OSError:
        return
    _linger(wire)


def _linger(wire: Wire) -> None:
    """After the close frame: write nothing more, and read and drop what the client still sends
    until it closes too, for at most ``LINGER_SECONDS`` and ``LINGER_BYTES``. Closing a socket with
    bytes still unread (the rest of an oversize message, say) resets the connection, and a
    browser then reports 1006 instead of the close code it was sent."""
    try:
        wire.sock.shutdown(socket.SHUT_WR)
    except OSError:
        return
    deadline, left = time.monotonic() + LINGER_SECONDS, LINGER_BYTES
    while left > 0 and (remaining := deadline - time.monotonic()) > 0:
        wire.woken = False  # a message put for this closing connection changes nothing now
        if not wire.wait(timeout=remaining):
            continue
        try:
            data = wire.sock.recv(min(READ_SIZE, left))
        except OSError:
            return
        if not data:
            return  # the client closed its side: done
        left -= len(data)
