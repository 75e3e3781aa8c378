"""The websocket frame codec (``wibble/web/frames.py``), against websocket-client's own frames.

A client's frames are built by websocket-client (``ABNF``, masked with a random key as a
browser does); the server's are checked against the bytes it would build unmasked.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websocket import ABNF

from wibble.web import frames
from wibble.web.frames import Control, Decoder, FrameError

LIMIT = 4096


def client_frame(data: str | bytes, opcode: int = ABNF.OPCODE_TEXT, fin: int = 1) -> bytes:
    """A frame as a browser sends it: masked with a fresh random key."""
    built: bytes = ABNF.create_frame(data, opcode, fin).format()
    return built


def raw_frame(first: int, payload: bytes, length: bytes | None = None, mask: bytes = b"abcd") -> bytes:
    """A masked frame put together by hand, header byte and length as given (to break the rules)."""
    if length is None:
        length = bytes((0x80 | len(payload),))
    return bytes((first,)) + length + mask + frames.unmask(payload, mask)


def refused(data: bytes, max_size: int = LIMIT) -> int:
    with pytest.raises(FrameError) as caught:
        Decoder(max_size).feed(data)
    return caught.value.code


def test_a_masked_text_frame_is_one_message() -> None:
    assert Decoder(LIMIT).feed(client_frame('{"type":"press","row":0,"col":1}')) == [
        '{"type":"press","row":0,"col":1}'
    ]


def test_binary_frames_are_bytes_and_text_is_decoded_from_utf8() -> None:
    data = client_frame(b"\x00\xff", ABNF.OPCODE_BINARY) + client_frame("ñandú ÉTÉ")
    assert Decoder(LIMIT).feed(data) == [b"\x00\xff", "ñandú ÉTÉ"]


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 4096, 65535, 65536, 70_000])
def test_every_length_form_is_read(size: int) -> None:
    """7-bit lengths up to 125, 16-bit up to 65535, 64-bit beyond."""
    text = "x" * size
    assert Decoder(100_000).feed(client_frame(text)) == [text]


@given(
    st.lists(st.text(max_size=300), min_size=1, max_size=5),
    st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=30),
)
def test_frames_arriving_in_any_pieces_read_the_same(texts: list[str], cuts: list[int]) -> None:
    data = b"".join(client_frame(text) for text in texts)
    decoder = Decoder(100_000)
    got: list[frames.Event] = []
    at = 0
    for cut in cuts:
        got += decoder.feed(data[at : at + cut])
        at += cut
    got += decoder.feed(data[at:])
    assert got == texts


@given(st.binary(max_size=200), st.binary(min_size=4, max_size=4))
def test_unmasking_is_the_bytewise_xor(payload: bytes, mask: bytes) -> None:
    assert frames.unmask(payload, mask) == bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_fragmented_message_is_one_message() -> None:
    data = (
        client_frame('{"type":', fin=0)
        + client_frame('"new_game",', ABNF.OPCODE_CONT, fin=0)
        + client_frame('"seed":5}', ABNF.OPCODE_CONT, fin=1)
    )
    assert Decoder(LIMIT).feed(data) == ['{"type":"new_game","seed":5}']


def test_control_frames_between_fragments_come_out_in_order() -> None:
    data = (
        client_frame("ab", fin=0)
        + client_frame(b"are you there", ABNF.OPCODE_PING)
        + client_frame("cd", ABNF.OPCODE_CONT, fin=0)
        + client_frame(b"", ABNF.OPCODE_PONG)
        + client_frame("ef", ABNF.OPCODE_CONT, fin=1)
    )
    events = Decoder(LIMIT).feed(data)
    assert [(e.opcode, e.payload) if isinstance(e, Control) else e for e in events] == [
        (frames.PING, b"are you there"),
        (frames.PONG, b""),
        "abcdef",
    ]


def test_utf8_split_across_fragments_is_whole_again() -> None:
    encoded = "ñ".encode()
    data = raw_frame(0x01, encoded[:1]) + raw_frame(0x80, encoded[1:])
    assert Decoder(LIMIT).feed(data) == ["ñ"]


def test_text_that_is_not_utf8_closes_with_1007() -> None:
    assert refused(raw_frame(0x81, b"\xff\xfe")) == frames.INVALID_DATA
    assert refused(raw_frame(0x81, "\ud800".encode("utf-8", "surrogatepass"))) == frames.INVALID_DATA


def test_an_unmasked_client_frame_closes_with_1002() -> None:
    assert refused(bytes((0x81, 2)) + b"hi" + b"    ") == frames.PROTOCOL_ERROR


@pytest.mark.parametrize("opcode", [0x3, 0x7, 0xB, 0xF])
def test_an_unknown_opcode_closes_with_1002(opcode: int) -> None:
    assert refused(raw_frame(0x80 | opcode, b"x")) == frames.PROTOCOL_ERROR


@pytest.mark.parametrize("bits", [0x40, 0x20, 0x10])
def test_reserved_bits_close_with_1002(bits: int) -> None:
    """No extension is ever agreed (compression least of all)."""
    assert refused(raw_frame(0x81 | bits, b"x")) == frames.PROTOCOL_ERROR


def test_a_control_frame_over_125_bytes_or_fragmented_closes_with_1002() -> None:
    assert refused(client_frame(b"x" * 126, ABNF.OPCODE_PING)) == frames.PROTOCOL_ERROR
    assert refused(raw_frame(0x09, b"x")) == frames.PROTOCOL_ERROR  # ping without FIN


def test_fragments_out_of_order_close_with_1002() -> None:
    assert refused(client_frame("x", ABNF.OPCODE_CONT)) == frames.PROTOCOL_ERROR
    assert refused(client_frame("a", fin=0) + client_frame("b")) == frames.PROTOCOL_ERROR


def test_a_length_not_in_its_shortest_form_closes_with_1002() -> None:
    assert refused(raw_frame(0x81, b"x" * 5, bytes((0x80 | 126, 0, 5)))) == frames.PROTOCOL_ERROR
    long = bytes((0x80 | 127,)) + (300).to_bytes(8, "big")
    assert refused(raw_frame(0x81, b"x" * 300, long), 1000) == frames.PROTOCOL_ERROR


def test_an_oversize_frame_closes_with_1009_from_its_header_alone() -> None:
    whole = client_frame("x" * (LIMIT + 1))
    assert refused(whole[:8]) == frames.MESSAGE_TOO_BIG  # header and mask: the payload never read
    huge = bytes((0x81, 0x80 | 127)) + (2**62).to_bytes(8, "big") + b"mask"
    assert refused(huge) == frames.MESSAGE_TOO_BIG
    assert Decoder(LIMIT).feed(client_frame("x" * LIMIT)) == ["x" * LIMIT]


def test_the_limit_counts_bytes_not_characters() -> None:
    assert refused(client_frame("ñ" * (LIMIT // 2 + 1))) == frames.MESSAGE_TOO_BIG


def test_a_fragmented_message_over_the_limit_closes_with_1009() -> None:
    piece = "x" * 1500
    data = (
        client_frame(piece, fin=0)
        + client_frame(piece, ABNF.OPCODE_CONT, fin=0)
        + client_frame(piece, ABNF.OPCODE_CONT, fin=1)
    )
    assert refused(data) == frames.MESSAGE_TOO_BIG


def test_empty_fragments_hold_no_memory_and_still_end_in_one_message() -> None:
    # A hostile client may send empty continuations for ever (each 6 bytes, within its read
    # budget, answering pings meanwhile): what the decoder keeps must not grow with them.
    decoder = Decoder(LIMIT)
    assert decoder.feed(client_frame("he", fin=0)) == []
    empty = client_frame(b"", ABNF.OPCODE_CONT, fin=0)
    for _ in range(100):
        assert decoder.feed(empty * 1000) == []
    assert sys.getsizeof(decoder._message) < 1024  # the two bytes so far, not 100,000 entries
    assert decoder.feed(client_frame("llo", ABNF.OPCODE_CONT, fin=1)) == ["hello"]


def test_a_close_frame_gives_its_code_and_ends_the_reading() -> None:
    data = client_frame("last") + client_frame(b"\x03\xe8bye", ABNF.OPCODE_CLOSE) + client_frame("after")
    events = Decoder(LIMIT).feed(data)
    assert events[0] == "last"
    assert isinstance(events[1], Control)
    assert (events[1].opcode, events[1].code) == (frames.CLOSE, 1000)
    assert len(events) == 2


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (b"", frames.NO_STATUS),
        ((4000).to_bytes(2, "big"), 4000),
        ((1012).to_bytes(2, "big") + b"restart", 1012),
    ],
)
def test_close_codes_read(payload: bytes, code: int) -> None:
    [event] = Decoder(LIMIT).feed(client_frame(payload, ABNF.OPCODE_CLOSE))
    assert isinstance(event, Control)
    assert event.code == code


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (b"\x03", frames.PROTOCOL_ERROR),  # one byte: no code
        ((999).to_bytes(2, "big"), frames.PROTOCOL_ERROR),
        ((1005).to_bytes(2, "big"), frames.PROTOCOL_ERROR),  # reserved: never on the wire
        ((1006).to_bytes(2, "big"), frames.PROTOCOL_ERROR),
        ((2000).to_bytes(2, "big"), frames.PROTOCOL_ERROR),
        ((1000).to_bytes(2, "big") + b"\xff", frames.INVALID_DATA),
    ],
)
def test_bad_close_frames_are_refused(payload: bytes, code: int) -> None:
    assert refused(client_frame(payload, ABNF.OPCODE_CLOSE)) == code


# -- what the server writes ---------------------------------------------------------------


def server_frame(data: bytes, opcode: int) -> bytes:
    """websocket-client's own unmasked frame, as a server must send it."""
    built: bytes = ABNF(1, 0, 0, 0, opcode, 0, data).format()
    return built


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536])
def test_server_frames_are_unmasked_and_in_every_length_form(size: int) -> None:
    payload = os.urandom(size)
    assert frames.frame(frames.BINARY, payload) == server_frame(payload, ABNF.OPCODE_BINARY)
    text = "é" * (size // 2)
    expected = server_frame(text.encode(), ABNF.OPCODE_TEXT)
    assert frames.encode_texts([text]) == expected
    assert frames.encode_texts([text.encode()]) == expected


def test_several_texts_are_several_frames_in_one_buffer() -> None:
    texts = ["a", "b" * 200, "ç"]
    assert frames.encode_texts(texts) == b"".join(server_frame(t.encode(), ABNF.OPCODE_TEXT) for t in texts)


def test_close_frames_carry_their_code_and_a_short_reason() -> None:
    assert frames.close_frame(1012, "server restarting") == server_frame(
        b"\x03\xf4server restarting", ABNF.OPCODE_CLOSE
    )
    assert frames.close_frame(frames.NO_STATUS) == server_frame(b"", ABNF.OPCODE_CLOSE)
    assert len(frames.close_frame(1008, "x" * 500)) == 2 + 125


def test_the_handshake_answer_is_the_rfcs_example() -> None:
    """RFC 6455 section 1.3: this key is answered with this accept value."""
    assert frames.accept_key("dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    answer = frames.handshake_response("dGhlIHNhbXBsZSBub25jZQ==")
    assert answer.startswith(b"HTTP/1.1 101 ")
    assert b"\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n" in answer
    assert answer.endswith(b"\r\n\r\n")
    assert frames.handshake_response("ÿ not base64").startswith(b"HTTP/1.1 101 ")
