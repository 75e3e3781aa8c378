"""Names as players read them beside each other: how long one may be, and two never alike.

A turn line says "Ann's turn": with two seats called Ann, or a bot called Ada beside a player
called ada, nobody could tell whose. So a name someone goes by already gets a number, and bots
take the names nobody has, compared in any case.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from .match.settings import BOT_NAMES

MAX_DISPLAY_NAME = 20
"""Characters a player's name may have (``protocol.fields.display_name`` checks it)."""


def distinct(name: str, taken: Iterable[str]) -> str:
    """``name``, or with a number after it if one of ``taken`` is it already, in any case (within
    ``MAX_DISPLAY_NAME`` characters: "Ann 2", "Ann 3")."""
    folded = {other.casefold() for other in taken}
    if name.casefold() not in folded:
        return name
    for number in itertools.count(2):
        suffix = f" {number}"
        candidate = name[: MAX_DISPLAY_NAME - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in folded:
            return candidate
    raise AssertionError("unreachable")  # (itertools.count never ends)


def bot_names(taken: Iterable[str]) -> Iterator[str]:
    """Names for bots beside seats going by ``taken``, as many as asked: ``BOT_NAMES`` in order,
    then "Bot 7", "Bot 8"..., each unlike every name taken or given before it, in any case."""
    given = {name.casefold() for name in taken}
    spare = (f"Bot {number}" for number in itertools.count(len(BOT_NAMES) + 1))
    for name in itertools.chain(BOT_NAMES, spare):
        if name.casefold() not in given:
            given.add(name.casefold())
            yield name
