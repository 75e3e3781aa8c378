"""JSON text in and out through msgspec, falling back to the standard library wherever the two differ.

Every message, every stored document and every incoming frame passes through here, and
the standard library's ``json`` was 6-8% of a saturated server's CPU. msgspec's C
encoder and decoder do the same work in a fraction of the time (docs/benchmarks-log.md, "The
codec"), but they are not the same codec in every corner, so each function here takes
msgspec's answer only where it is the one ``json`` would give, and asks ``json`` itself
everywhere else:

- out: msgspec writes exactly ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))``
  for the types documents and messages hold (floats aside: ``1e+16`` is written ``1e16``,
  the same number). It refuses half a surrogate pair, ints past 64 bits, str subclasses
  and odd dict keys; those go to ``json``, which decides as it always did.
- in: msgspec refuses ``NaN``/``Infinity``, escaped half surrogate pairs, ints past 4,300
  digits and numbers past a float's range, all of which ``json.loads`` reads (and the
  protocol refuses in its own words); each goes to ``json``, which raises or returns
  exactly what it always did.

Two differences are kept: a float that is not finite (never in a document or a message the
code builds) is written ``null`` where ``json`` wrote ``NaN``, which is not JSON; and msgspec
writes some types ``json`` refused (dataclasses, sets, bytes, dates) where ``json`` raised, so
a message holding one by mistake goes out (a ``Pos`` as ``{"row":..,"col":..}``) instead of
failing: messages are built from plain types by ``wibble.protocol``, and its tests say so.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


def dumps(value: Any, ascii_fallback: bool = False) -> str:
    """Compact JSON text, with non-ASCII characters as themselves (as ``json.dumps`` with
    ``ensure_ascii=False`` and compact separators writes it).

    ``ascii_fallback``: where msgspec cannot write ``value``, escape every non-ASCII character
    (as plain ``json.dumps`` does), so that even half a surrogate pair gives UTF-8-safe text."""
    try:
        return _encode(value).decode()
    except (TypeError, ValueError, OverflowError):  # UnicodeEncodeError is a ValueError
        return json.dumps(value, ensure_ascii=ascii_fallback, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    """What ``json.loads(text)`` returns, or the error it raises."""
    try:
        return _decode(text)
    except (ValueError, RecursionError):  # msgspec's DecodeError is a ValueError
        return json.loads(text)


def fast_loads(text: str) -> Any:
    """``text`` decoded by msgspec, or ``None`` where only ``json.loads`` can say what it is.

    For frames a client sends, which the protocol refuses in ``json``'s own words: the caller
    falls back to its ``json.loads`` on ``None`` (JSON ``null`` also gives ``None``, and the
    fallback reads it the same). Texts longer than ``FAST_CHARS`` always get ``None``: how deep
    ``json`` may nest depends on the Python stack it is called from, and a text this short
    cannot nest deep enough to reach it."""
    if len(text) > FAST_CHARS:
        return None
    try:
        return _decode(text)
    except (ValueError, RecursionError):
        return None


FAST_CHARS = 512
"""At most 256 levels of nesting, far inside the 1,000 Python frames ``json`` may use."""
