"""RFC 6455 websocket frames, server side: the handshake's answer, a decoder, an encoder. No I/O.

What the server needs of the protocol and nothing more: no extensions (a client offering
permessage-deflate is simply not answered with it: a 4 KB compressed frame could inflate to
megabytes), no subprotocols, text and binary messages, fragments, ping, pong and close.

The decoder refuses, with the close code the RFC gives, what a browser never sends:
unmasked frames, reserved bits, unknown opcodes, fragmented or oversize control frames,
lengths not in their shortest form, a continuation with nothing to continue (1002); text
that is not UTF-8 (1007); a message over ``max_size`` bytes (1009), decided from the
header, before its payload is read.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable
from typing import Final

CONTINUATION: Final = 0x0
TEXT: Final = 0x1
BINARY: Final = 0x2
CLOSE: Final = 0x8
PING: Final = 0x9
PONG: Final = 0xA

PROTOCOL_ERROR: Final = 1002
NO_STATUS: Final = 1005  # never sent: what a close frame without a code means
INVALID_DATA: Final = 1007
MESSAGE_TOO_BIG: Final = 1009

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_FIN = 0x80


def accept_key(key: str) -> str:
    """The Sec-WebSocket-Accept that answers a client's Sec-WebSocket-Key (any key: a WSGI
    header is latin-1 text, so even a malformed one gets an answer, never an exception)."""
    return base64.b64encode(hashlib.sha1(key.encode("latin-1") + _GUID).digest()).decode("ascii")


def handshake_response(key: str) -> bytes:
    """The whole 101 answer to an upgrade request; the socket speaks frames right after it."""
    return (
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Accept: {accept_key(key)}\r\n\r\n"
    ).encode("ascii")


class FrameError(Exception):
    """The client broke the protocol: close the connection with ``code``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def unmask(payload: bytes, mask: bytes) -> bytes:
    """``payload`` XORed with the 4-byte ``mask`` repeated: one big-integer XOR for the whole
    buffer, not a Python loop over its bytes (which is what wsproto's pure-Python masker does)."""
    size = len(payload)
    if not size:
        return b""
    key = (mask * ((size + 3) >> 2))[:size]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(key, "little")).to_bytes(size, "little")


def frame(opcode: int, payload: bytes) -> bytes:
    """One unmasked, final frame (a server never masks)."""
    return _header(opcode, len(payload)) + payload


def encode_texts(messages: Iterable[str | bytes]) -> bytes:
    """Text messages, each its own frame, joined for one write (``bytes`` are UTF-8 already)."""
    parts: list[bytes] = []
    for message in messages:
        payload = message.encode("utf-8") if isinstance(message, str) else message
        size = len(payload)
        # The usual message is short: its header is two bytes, made here without a call.
        parts.append(bytes((_FIN | TEXT, size)) if size < 126 else _header(TEXT, size))
        parts.append(payload)
    return b"".join(parts)


def _header(opcode: int, size: int) -> bytes:
    """A final frame's header for a payload of ``size`` bytes, its length in the shortest form."""
    if size < 126:
        return bytes((_FIN | opcode, size))
    if size < 0x10000:
        return bytes((_FIN | opcode, 126)) + size.to_bytes(2, "big")
    return bytes((_FIN | opcode, 127)) + size.to_bytes(8, "big")


def close_frame(code: int, reason: str = "") -> bytes:
    """A close frame with ``code`` (none for 1005, which must never be sent) and a short reason."""
    if code == NO_STATUS:
        return frame(CLOSE, b"")
    # At most 125 bytes in all, cut at a character's edge: the reason must stay UTF-8.
    text = reason.encode("utf-8")[:123].decode("utf-8", "ignore").encode("utf-8")
    return frame(CLOSE, code.to_bytes(2, "big") + text)


Message = str | bytes
"""A whole message: ``str`` from text frames, ``bytes`` from binary ones."""


class Control:
    """A ping, a pong or a close, as read; a close's ``code`` is 1005 when it gave none."""

    __slots__ = ("code", "opcode", "payload")

    def __init__(self, opcode: int, payload: bytes, code: int = NO_STATUS) -> None:
        self.opcode = opcode
        self.payload = payload
        self.code = code

    def __repr__(self) -> str:
        return f"Control({self.opcode:#x}, {self.payload!r}, {self.code})"


Event = Message | Control


def _close_code(payload: bytes) -> int:
    """The code of a client's close frame; a bad one is a protocol error (RFC 6455 7.4)."""
    if not payload:
        return NO_STATUS
    if len(payload) == 1:
        raise FrameError(PROTOCOL_ERROR, "a close frame's code takes two bytes")
    code = int.from_bytes(payload[:2], "big")
    if not (1000 <= code <= 1014 and code not in (1004, 1005, 1006) or 3000 <= code <= 4999):
        raise FrameError(PROTOCOL_ERROR, f"close code {code} may not be sent")
    try:
        payload[2:].decode("utf-8")
    except UnicodeDecodeError:
        raise FrameError(INVALID_DATA, "a close frame's reason must be UTF-8") from None
    return code


class Decoder:
    """Frames a client sent, fed as they arrive, out as whole messages and control frames.

    Bytes that do not yet make a whole frame wait for the next ``feed``; a message's
    fragments wait for its last one. ``max_size`` bounds a message's payload in bytes
    (fragments summed): a frame that would pass it is refused from its header alone, so a
    client announcing a huge frame is closed before a byte more of it is read.
    """

    def __init__(self, max_size: int) -> None:
        self.max_size = max_size
        self._pending = b""  # the start of a frame not yet whole
        # The message being fragmented: its opcode (0, CONTINUATION, when none) and its bytes so
        # far, in one buffer: a list of fragments would grow by one entry per empty fragment,
        # for ever, under a client sending nothing but those.
        self._fragmented = 0
        self._message = bytearray()

    def feed(self, data: bytes) -> list[Event]:
        """Every whole message and control frame ``data`` completes, in order.

        Raises ``FrameError`` at the first frame that breaks the protocol; what came before
        it in ``data`` is lost with the connection.
        """
        buffer = self._pending + data if self._pending else data
        events: list[Event] = []
        end = len(buffer)
        at = 0
        while end - at >= 6:  # the shortest client frame: two bytes of header and the mask
            first, second = buffer[at], buffer[at + 1]
            if first & 0x70:
                raise FrameError(PROTOCOL_ERROR, "reserved bits set: no extension was agreed")
            if not second & 0x80:
                raise FrameError(PROTOCOL_ERROR, "a client's frames must be masked")
            opcode = first & 0x0F
            size = second & 0x7F
            head = at + 2
            if size >= 126:
                head, size = self._long_length(buffer, head, size)
                if head < 0:
                    break
            if opcode >= CLOSE:
                self._check_control(opcode, size, first)
            else:
                self._check_data(opcode, size)
            start = head + 4
            if end - start < size:
                break
            payload = unmask(buffer[start : start + size], buffer[head:start])
            at = start + size
            if opcode >= CLOSE:
                code = _close_code(payload) if opcode == CLOSE else NO_STATUS
                events.append(Control(opcode, payload, code))
                if opcode == CLOSE:
                    at = end  # nothing after a close frame counts
                    break
            else:
                message = self._data(opcode, first & _FIN, payload)
                if message is not None:
                    events.append(message)
        self._pending = buffer[at:] if at < end else b""
        return events

    @staticmethod
    def _long_length(buffer: bytes, head: int, size: int) -> tuple[int, int]:
        """(where the mask starts, the payload's length) for a 16- or 64-bit length; (-1, 0)
        while its bytes have not all arrived."""
        width = 2 if size == 126 else 8
        if len(buffer) - head < width + 4:
            return -1, 0
        length = int.from_bytes(buffer[head : head + width], "big")
        if width == 2 and length < 126 or width == 8 and (length < 0x10000 or length >> 63):
            raise FrameError(PROTOCOL_ERROR, "a frame's length must take its shortest form")
        return head + width, length

    @staticmethod
    def _check_control(opcode: int, size: int, first: int) -> None:
        if opcode > PONG:
            raise FrameError(PROTOCOL_ERROR, f"unknown opcode {opcode:#x}")
        if not first & _FIN:
            raise FrameError(PROTOCOL_ERROR, "control frames cannot be fragmented")
        if size > 125:
            raise FrameError(PROTOCOL_ERROR, "control frames carry at most 125 bytes")

    def _check_data(self, opcode: int, size: int) -> None:
        if opcode > BINARY:
            raise FrameError(PROTOCOL_ERROR, f"unknown opcode {opcode:#x}")
        if opcode == CONTINUATION:
            if not self._fragmented:
                raise FrameError(PROTOCOL_ERROR, "a continuation frame with no message to continue")
            size += len(self._message)
        elif self._fragmented:
            raise FrameError(PROTOCOL_ERROR, "a new message began before the last one ended")
        if size > self.max_size:
            raise FrameError(MESSAGE_TOO_BIG, f"messages are limited to {self.max_size} bytes")

    def _data(self, opcode: int, fin: int, payload: bytes) -> Message | None:
        """The message this data frame ends, or None while its fragments keep coming."""
        if opcode == CONTINUATION:
            self._message += payload
            if not fin:
                return None
            opcode, payload = self._fragmented, bytes(self._message)
            self._fragmented = 0
            self._message = bytearray()
        elif not fin:
            self._fragmented = opcode
            self._message = bytearray(payload)
            return None
        if opcode == BINARY:
            return payload
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            raise FrameError(INVALID_DATA, "a text message must be UTF-8") from None
