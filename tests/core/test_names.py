"""Names beside each other: a second Ann, a bot never named as a player, in any case."""

from __future__ import annotations

import itertools

from wibble.core.match import BOT_NAMES
from wibble.core.names import MAX_DISPLAY_NAME, bot_names, distinct


def test_a_name_taken_already_in_any_case_gets_the_next_free_number_within_the_limit() -> None:
    assert distinct("Ann", ["Bo"]) == "Ann"
    assert distinct("ann", ["Ann", "ANN 2"]) == "ann 3"
    long = "W" * MAX_DISPLAY_NAME
    assert distinct(long, [long]) == "W" * (MAX_DISPLAY_NAME - 2) + " 2"


def test_bots_take_the_names_nobody_has_then_numbered_ones() -> None:
    names = list(itertools.islice(bot_names(["ada", "Bot 8"]), 7))

    assert names == [*BOT_NAMES[1:], "Bot 7", "Bot 9"]
    assert len({name.casefold() for name in names}) == len(names)
