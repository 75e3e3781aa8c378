"""A match's letter values over a real websocket: Spellcast's for a new English match, the classic ones when
the host chooses them (solo or in a room), and a value that names neither refused with its code."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.core.test_values import SPELLCAST
from tests.support import Client, LiveServer, shipped_list
from tests.wire import expect_error, until

SEED_WITH_Q = 10
"""A seed whose first board (30 words at least, as ``wibble serve`` asks by default) has a Q."""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    served = LiveServer("--data-dir", "")
    yield served
    served.stop()


def tiles(match: dict[str, Any]) -> list[dict[str, Any]]:
    return [tile for row in match["board"] for tile in row]


def test_a_new_english_match_shows_spellcasts_scores(
    server: LiveServer, clients: Callable[[LiveServer], Client]
) -> None:
    match = clients(server).ask({"type": "new_match", "seed": SEED_WITH_Q})

    assert match["type"] == "match", match
    assert match["wordlist"] == "en"
    assert match["settings"]["values"] == "spellcast"
    assert {tile["score"] for tile in tiles(match) if tile["letter"] == "Q"} == {8}
    assert all(tile["score"] == SPELLCAST[tile["letter"].lower()] for tile in tiles(match))
    assert match["letters"]["Q"]["score"] == 8
    assert match["letters"]["K"]["score"] == 6


def test_the_host_may_choose_the_lists_classic_values(
    server: LiveServer, clients: Callable[[LiveServer], Client]
) -> None:
    match = clients(server).ask({"type": "new_match", "seed": SEED_WITH_Q, "values": "classic"})

    assert match["settings"]["values"] == "classic"
    assert {tile["score"] for tile in tiles(match) if tile["letter"] == "Q"} == {10}


def test_a_list_without_spellcasts_table_plays_its_own_values(
    server: LiveServer, clients: Callable[[LiveServer], Client]
) -> None:
    match = clients(server).ask({"type": "new_match", "wordlist": "es", "seed": 3})

    assert match["settings"]["values"] == "classic"
    spanish = shipped_list("es")
    assert all(tile["score"] == spanish.letters[tile["letter"].lower()].score for tile in tiles(match))


@pytest.mark.parametrize("values", ["scrabble", "", 1, True, ["classic"], {"name": "classic"}])
def test_values_that_name_no_table_are_refused(
    server: LiveServer, clients: Callable[[LiveServer], Client], values: Any
) -> None:
    client = clients(server)

    client.send({"type": "new_match", "values": values})
    error = expect_error(client, "protocol/bad_field")

    assert "values" in error["message"]
    client.send({"type": "create_room", "name": "Ann", "rules": {"values": values}})
    expect_error(client, "protocol/bad_field")


def test_a_rooms_rules_choose_the_values_of_its_next_match(
    server: LiveServer, clients: Callable[[LiveServer], Client]
) -> None:
    host = clients(server)
    room = host.ask({"type": "create_room", "name": "Ann"})
    assert room["rules"]["values"] == "spellcast"

    host.send({"type": "set_rules", "values": "bogus"})
    expect_error(host, "protocol/bad_field")
    host.send({"type": "set_rules", "values": "classic", "seq": 4})
    [*_, changed] = until(host, "room", lambda m: m["rules"]["values"] == "classic")
    assert changed["rules"]["stand_in"] == room["rules"]["stand_in"]  # the rest as it was

    host.send({"type": "set_seat", "seat": 1, "bot": "easy", "seq": 5})
    until(host, "room", lambda m: m["seats"][1] is not None)
    host.send({"type": "start_match"})
    [*_, match] = until(host, "match")
    assert match["settings"]["values"] == "classic"
    english = shipped_list("en")
    assert all(tile["score"] == english.letters[tile["letter"].lower()].score for tile in tiles(match))
