"""Reading fields of a stored document strictly: a wrong type is damage, never a guess."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .errors import GameDataError


def field_of(doc: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = doc.get(name)
    # bool is an int to Python; a document saying `true` for a number is damaged.
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise GameDataError(f"field {name!r} is missing or not a {getattr(kind, '__name__', kind)}")
    return value


def count_of(doc: Mapping[str, Any], name: str) -> int:
    value: int = field_of(doc, name, int)
    if value < 0:
        raise GameDataError(f"field {name!r} is negative")
    return value


def is_time(value: Any) -> bool:
    """A stored moment (seconds on a clock): a finite number, not negative, and not a boolean."""
    return type(value) in (int, float) and math.isfinite(value) and value >= 0
