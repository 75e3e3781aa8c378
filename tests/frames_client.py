"""A websocket client at the byte level, for conformance tests: the HTTP upgrade by hand, frames
built byte by byte (masked or not, any opcode, reserved bits, any length form), and the
server's frames parsed as they arrive, each read with a timeout.

``websocket-client`` cannot send most of what a conformance suite sends (it always masks,
picks the length form itself, never sets a reserved bit), so nothing here uses it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import struct
from dataclasses import dataclass
from typing import Literal

CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
RSV1, RSV2, RSV3 = 0x40, 0x20, 0x10
GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

LengthForm = Literal["7", "16", "64"]


def frame(
    opcode: int,
    payload: bytes = b"",
    *,
    fin: bool = True,
    rsv: int = 0,
    masked: bool = True,
    length_form: LengthForm | None = None,
    declared_length: int | None = None,
) -> bytes:
    """One frame as a client writes it. ``length_form`` forces a length encoding (the minimal
    one by default); ``declared_length`` announces a length other than the payload's, for a
    frame whose payload is sent only in part."""
    length = len(payload) if declared_length is None else declared_length
    if length_form is None:
        length_form = "7" if length <= 125 else "16" if length <= 0xFFFF else "64"
    head = bytes([(0x80 if fin else 0) | rsv | opcode])
    mask_bit = 0x80 if masked else 0
    if length_form == "7":
        head += bytes([mask_bit | length])
    elif length_form == "16":
        head += bytes([mask_bit | 126]) + struct.pack("!H", length)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", length)
    if not masked:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(byte ^ key[i % 4] for i, byte in enumerate(payload))


def close_payload(code: int, reason: bytes = b"") -> bytes:
    return struct.pack("!H", code) + reason


# -- what the server answers ---------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """A text message, by its JSON ``type`` (and ``code``, for an error)."""

    type: str
    code: str | None = None


@dataclass(frozen=True)
class Binary:
    payload: bytes


@dataclass(frozen=True)
class Ping:
    payload: bytes


@dataclass(frozen=True)
class Pong:
    payload: bytes


@dataclass(frozen=True)
class Close:
    """A close frame: its status code (None: an empty payload)."""

    code: int | None


@dataclass(frozen=True)
class Other:
    """A frame of any other opcode (a server should never send one)."""

    opcode: int
    payload: bytes


@dataclass(frozen=True)
class Ended:
    """No frame: how the byte stream ended, or that nothing came in time."""

    how: Literal["eof", "reset", "timeout"]


Answer = Text | Binary | Ping | Pong | Close | Other | Ended
EOF, RESET, TIMEOUT = Ended("eof"), Ended("reset"), Ended("timeout")


class ProtocolViolation(AssertionError):
    """The server sent something RFC 6455 forbids a server to send."""


# -- the connection ------------------------------------------------------------------------------


@dataclass
class HandshakeReply:
    status: int
    headers: dict[str, str]  # names in lower case
    raw: str  # the status line and headers
    body: bytes = b""  # a refusal's body


def handshake_request(host: str, key: str, extra: dict[str, str] | None = None) -> bytes:
    headers = {
        "Host": host,
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": key,
        "Sec-WebSocket-Version": "13",
        **(extra or {}),
    }
    lines = ["GET /ws HTTP/1.1", *(f"{name}: {value}" for name, value in headers.items() if value)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def accept_of(key: str) -> str:
    return base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()


class RawWebSocket:
    """One TCP connection to the server's ``/ws``: hand-made frames out, parsed frames in."""

    def __init__(self, address: tuple[str, int], timeout: float = 3.0) -> None:
        self.sock = socket.create_connection(address, timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.host = f"{address[0]}:{address[1]}"
        self.timeout = timeout
        self._buffer = b""

    def __enter__(self) -> RawWebSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.sock.close()

    def upgrade(self, headers: dict[str, str] | None = None) -> HandshakeReply:
        """Send the handshake (with ``headers`` added or replaced; an empty value leaves one out)
        and read the HTTP answer; bytes after it stay buffered for ``read``."""
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(handshake_request(self.host, key, headers))
        while b"\r\n\r\n" not in self._buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            self._buffer += chunk
        head, _, self._buffer = self._buffer.partition(b"\r\n\r\n")
        text = head.decode("latin-1")
        status_line, *lines = text.split("\r\n")
        fields = dict(line.split(":", 1) for line in lines if ":" in line)
        reply = HandshakeReply(
            int(status_line.split()[1]), {k.strip().lower(): v.strip() for k, v in fields.items()}, text
        )
        if reply.status == 101:
            if reply.headers.get("sec-websocket-accept") != accept_of(key):
                raise ProtocolViolation(f"wrong Sec-WebSocket-Accept:\n{text}")
        else:
            size = int(reply.headers.get("content-length", "0"))
            self.sock.settimeout(self.timeout)
            if self._fill(size) is None:
                reply.body = self._take(size)
        return reply

    def send(self, *frames: bytes) -> None:
        """Write the frames in one go (a reset by a server that already hung up is ignored: what it
        sent before is still read)."""
        try:
            self.sock.sendall(b"".join(frames))
        except OSError:
            pass

    def _fill(self, size: int) -> Ended | None:
        while len(self._buffer) < size:
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return TIMEOUT
            except ConnectionResetError:
                return RESET
            if not chunk:
                return EOF
            self._buffer += chunk
        return None

    def _take(self, size: int) -> bytes:
        taken, self._buffer = self._buffer[:size], self._buffer[size:]
        return taken

    def read(self) -> Answer:
        """The server's next frame (or how the stream ended), within the timeout."""
        self.sock.settimeout(self.timeout)
        ended = self._fill(2)
        if ended:
            return ended
        first, second = self._take(2)
        if second & 0x80:
            raise ProtocolViolation("the server masked a frame")
        if first & (RSV1 | RSV2 | RSV3):
            raise ProtocolViolation(f"the server set a reserved bit: {first:#04x}")
        if not first & 0x80:
            raise ProtocolViolation("the server fragmented a message (this client never expects it)")
        length = second & 0x7F
        extra = {126: 2, 127: 8}.get(length, 0)
        if extra:
            ended = self._fill(extra)
            if ended:
                return ended
            length = int.from_bytes(self._take(extra), "big")
        ended = self._fill(length)
        if ended:
            return ended
        return _answer(first & 0x0F, self._take(length))


def _answer(opcode: int, payload: bytes) -> Answer:
    if opcode == TEXT:
        message = json.loads(payload.decode())
        return Text(message["type"], message.get("code"))
    if opcode == BINARY:
        return Binary(payload)
    if opcode == PING:
        return Ping(payload)
    if opcode == PONG:
        return Pong(payload)
    if opcode == CLOSE:
        if len(payload) == 1:
            raise ProtocolViolation("the server sent a close frame with a 1-byte payload")
        try:
            payload[2:].decode()
        except UnicodeDecodeError:
            raise ProtocolViolation(f"the server's close reason is not UTF-8: {payload!r}") from None
        return Close(int.from_bytes(payload[:2], "big") if payload else None)
    return Other(opcode, payload)
