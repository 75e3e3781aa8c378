"""One websocket connection: read frames, hand them to a ``Player``, write replies.

The traps this guards against (flask-sock 0.7 / simple-websocket 1.1):
- ``receive()`` can stay blocked after the library refuses an oversize frame, so
  we poll with a timeout and always close in ``finally``;
- two threads sending on one socket interleave frames, so one sender thread per
  connection owns ``send``, fed by a bounded queue;
- a client that stops reading would block ``send()`` forever, so a full queue
  drops that client instead of growing or blocking the game;
- an exception escaping the handler writes raw HTTP onto the socket, so none do;
- small frames wait ~40 ms for Nagle's algorithm unless TCP_NODELAY is set;
- the library's ``sock.send`` may send part of a frame, its own pongs share the
  socket, and pings never reach a message rate limit: ``GuardedSocket`` fixes all three.
"""

from __future__ import annotations

import logging
import queue
import socket
import threading
import time
from collections.abc import Mapping
from typing import Any

from simple_websocket import ConnectionClosed

from .. import protocol
from ..core import ProtocolError, WibbleError
from ..ratelimit import TokenBucket
from ..sessions import Lobby, Player

log = logging.getLogger(__name__)

POLICY_VIOLATION = 1008
MESSAGE_TOO_BIG = 1009
INTERNAL_ERROR = 1011
SEND_TIMEOUT = 10.0  # seconds a single send may take before the client counts as gone


class Outbox:
    """A bounded queue of outgoing frames drained by the connection's only sending thread."""

    def __init__(self, ws: Any, limit: int) -> None:
        self._ws = ws
        self._queue: queue.Queue[str | None] = queue.Queue(limit)
        self.alive = True
        self._thread = threading.Thread(target=self._run, name="wibble-outbox", daemon=True)
        self._thread.start()

    def put(self, message: dict[str, Any]) -> None:
        if not self.alive:
            return
        try:
            self._queue.put_nowait(protocol.encode(message))
        except queue.Full:
            log.info("dropping a client that is not reading its messages")
            self.alive = False

    def _run(self) -> None:
        while True:
            frame = self._queue.get()
            if frame is None or not self.alive:
                return
            try:
                self._ws.send(frame)
            except Exception:  # closed, reset or timed out: this client is gone
                self.alive = False
                return

    def drain_and_stop(self, timeout: float = 2.0) -> None:
        """Let queued frames go out (briefly), then stop the sender."""
        try:
            self._queue.put(None, timeout=timeout)
        except queue.Full:
            self.alive = False
        self._thread.join(timeout)
        self.alive = False

    @property
    def sending(self) -> bool:
        """True while the sender is still inside a send (to a client that stopped reading)."""
        return self._thread.is_alive()


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

    def __init__(self, sock: socket.socket, read_budget: TokenBucket) -> None:
        self._sock = sock
        self._send_lock = threading.Lock()
        self._read_budget = read_budget

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

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def serve_connection(ws: Any, lobby: Lobby, config: Mapping[str, Any]) -> None:
    """Run one connection until the client leaves, misbehaves past the limits, or the server stops."""
    sock = getattr(ws, "sock", None)
    if sock is not None:
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            # Bounds a send to a client that stopped reading. Safe for receiving only
            # because pings make the library wait in select() before every recv().
            if config["SOCK_SERVER_OPTIONS"].get("ping_interval"):
                sock.settimeout(SEND_TIMEOUT)
        except OSError:
            pass
        read_budget = TokenBucket(
            float(config["READ_BYTES_PER_SECOND"]), float(config["READ_BURST_BYTES"]), time.monotonic
        )
        ws.sock = GuardedSocket(sock, read_budget)
    outbox = Outbox(ws, int(config["OUTBOX_LIMIT"]))
    player = Player(lobby, outbox.put)
    bucket = TokenBucket(float(config["RATE_LIMIT"]), float(config["RATE_BURST"]), time.monotonic)
    # Refusals are forgiven slowly: FLOOD_CLOSE of them within about ten seconds closes the connection.
    flood_close = float(config["FLOOD_CLOSE"])
    patience = TokenBucket(flood_close / 10, flood_close, time.monotonic)
    max_bytes = int(config["SOCK_SERVER_OPTIONS"].get("max_message_size") or protocol.MAX_FRAME_BYTES)
    last_warning = float("-inf")
    close_code: int | None = None
    try:
        while ws.connected and outbox.alive:
            frame = ws.receive(timeout=1.0)
            if frame is None:
                continue
            if isinstance(frame, str) and len(frame.encode("utf-8", "surrogatepass")) > max_bytes:
                # The library's own limit counts characters; a frame of "ñ"s is twice as many bytes.
                close_code = MESSAGE_TOO_BIG
                break
            if not bucket.take():
                if not patience.take():
                    close_code = POLICY_VIOLATION
                    break
                now = time.monotonic()
                if now - last_warning >= 1.0:  # one warning a second, not one per message
                    last_warning = now
                    outbox.put(
                        protocol.error(
                            ProtocolError("protocol/rate_limited", "too many messages; some were ignored")
                        )
                    )
                continue
            command = None
            try:
                command = protocol.parse(frame)
                player.handle(command)
            except WibbleError as exc:
                if exc.request is None and command is not None:
                    exc.about(protocol.request_name(command))
                outbox.put(protocol.error(exc))
            except Exception:
                log.exception("unexpected error handling a message")
                failure = WibbleError(
                    "server/internal", "the server could not handle that message; the game is unchanged"
                )
                if command is not None:
                    failure.about(protocol.request_name(command))
                outbox.put(protocol.error(failure))
    except ConnectionClosed:
        pass
    except Exception:
        log.exception("websocket connection failed")
        close_code = INTERNAL_ERROR
    finally:
        player.leave()
        outbox.drain_and_stop()
        try:
            # A sender still stuck mid-frame must not be interleaved with a close frame.
            if ws.connected and not outbox.sending:
                ws.close(reason=close_code)
        except Exception:
            pass
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
