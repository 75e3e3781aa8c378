"""Reading one field of a client's message: whole numbers in range, bounded text, a tile, a name.

Each reader raises ``ProtocolError`` naming the field, so every refusal tells the
client exactly what to fix.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from ..core import Pos, ProtocolError
from ..core.names import MAX_DISPLAY_NAME
from .commands import MAX_COORD


def reject_constant(name: str) -> float:
    raise ProtocolError("protocol/bad_json", f"{name} is not valid JSON")


def int_field(data: dict[str, Any], name: str, low: int, high: int, required: bool = True) -> int | None:
    if name not in data or (not required and data[name] is None):
        if required:
            raise ProtocolError("protocol/missing_field", f"field {name!r} is required")
        return None
    value = data[name]
    # bool is a subclass of int in Python; true must not mean row 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError("protocol/bad_field", f"field {name!r} must be a whole number")
    if not low <= value <= high:
        raise ProtocolError("protocol/bad_field", f"field {name!r} is out of range")
    return value


def text_field(
    data: dict[str, Any], name: str, limit: int, required: bool = True, *, least: int = 1, stated: str = ""
) -> str | None:
    """Text of ``least`` to ``limit`` characters; the refusal states ``stated`` as the rule when the
    field's own rule is narrower than these bounds (a name's 1-20 once trimmed, say)."""
    if name not in data or (not required and data[name] is None):
        if required:
            raise ProtocolError("protocol/missing_field", f"field {name!r} is required")
        return None
    value = data[name]
    if not isinstance(value, str) or not least <= len(value) <= limit or not is_text(value):
        rule = stated or f"{least}-{limit}"
        raise ProtocolError("protocol/bad_field", f"field {name!r} must be text of {rule} characters")
    return value


def pos_field(data: dict[str, Any]) -> Pos:
    row = int_field(data, "row", -MAX_COORD, MAX_COORD)
    col = int_field(data, "col", -MAX_COORD, MAX_COORD)
    assert row is not None
    assert col is not None
    return Pos(row, col)


def is_text(value: str) -> bool:
    """False for strings holding half a UTF-16 surrogate pair (JSON can escape one; UTF-8 cannot)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# Letters that draw nothing although Unicode calls them printable: fillers a name made of
# them would be an invisible player.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
_MAX_MARKS = 2
"""Combining marks allowed on one letter: enough for any script, not for a name that covers its neighbours."""


_JOINER = "\u200d"
"""The zero-width joiner: invisible on its own, but it is what joins 👨 👩 👧 into one family
picture and 👩 ⚕ into a health worker, so it is allowed between two emoji and nowhere else."""
_EMOJI_TRAILERS = frozenset("\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff")
"""What may follow an emoji before a joiner: the emoji presentation selector and the skin tones."""


def _is_emoji(ch: str) -> bool:
    # Emoji are "other symbols" to Unicode; Python's tables have no Extended_Pictographic.
    return unicodedata.category(ch) == "So"


def _joins_emoji(text: str, at: int) -> bool:
    """Whether the joiner at ``at`` sits between two emoji (an emoji's selector or skin tone may
    come before it), as in every emoji ZWJ sequence."""
    before = at - 1
    while before >= 0 and text[before] in _EMOJI_TRAILERS:
        before -= 1
    return before >= 0 and _is_emoji(text[before]) and at + 1 < len(text) and _is_emoji(text[at + 1])


def _visible(text: str) -> bool:
    """No control, format or blank characters, but for the joiners inside emoji sequences."""
    for at, ch in enumerate(text):
        if ch in _BLANK_LETTERS:
            return False
        if not ch.isprintable() and not (ch == _JOINER and _joins_emoji(text, at)):
            return False
    return True


def _stacked_marks(text: str) -> int:
    """The most marks on one letter of ``text``: counted as written (NFC), and counted again
    decomposed, where only marks that stack on a letter count (a combining class above 0: an
    acute, a tilde). NFC folds a first accent into its letter (á), which would let a third one
    through on top of it; and a Kannada vowel sign (ೋ) decomposes into three signs of class 0,
    which are one syllable's, not accents stacked."""
    most = run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch).startswith("M") else 0
        most = max(most, run)
    run = 0
    for ch in unicodedata.normalize("NFD", text):
        run = run + 1 if unicodedata.combining(ch) else 0
        most = max(most, run)
    return most


def display_name(data: dict[str, Any], name: str = "name") -> str:
    """A player's display name, the one rule for every name anyone is shown (a room's seats,
    a match's seat): 1-20 characters once trimmed, none of them control or invisible."""
    value = text_field(data, name, 4 * MAX_DISPLAY_NAME, stated=f"1-{MAX_DISPLAY_NAME}")
    assert value is not None
    text = unicodedata.normalize("NFC", value).strip()
    problem = None
    if not 1 <= len(text) <= MAX_DISPLAY_NAME:
        problem = f"must be 1-{MAX_DISPLAY_NAME} characters once trimmed"
    elif not _visible(text):
        problem = "cannot hold invisible characters (a zero-width space, say) or control characters"
    else:
        if _stacked_marks(text) > _MAX_MARKS:
            problem = "has too many accents on one letter"
        if all(unicodedata.category(ch).startswith(("M", "Z")) for ch in text):
            problem = "needs a visible letter"
        elif unicodedata.category(text[0]).startswith("M"):  # it would sit on what comes before it
            problem = "may not start with an accent"
    if problem:
        raise ProtocolError("protocol/bad_field", f"field {name!r} {problem}")
    return text
