"""One rule for every name a person gives, against a real server: a match's seat, a room's host,
a room's guest. Invisible names are refused; emoji joined into one picture are welcome."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.support import Client, LiveServer
from tests.wire import expect_error

Clients = Callable[[LiveServer], Client]
Message = dict[str, Any]

# Bots that think for a minute: a match started here never plays on behind the test's back.
SLOW_BOTS = {"WIBBLE_BOT_THINK_SECONDS": "60"}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    server = LiveServer("--data-dir", "", env=SLOW_BOTS)
    yield server
    server.stop()


def name_in_match(client: Client, name: str) -> Message:
    return client.ask({"type": "new_match", "name": name, "bots": [{"level": "easy"}]})


def name_in_new_room(client: Client, name: str) -> Message:
    return client.ask({"type": "create_room", "name": name})


def name_in_joined_room(client: Client, name: str) -> Message:
    host = client.ask({"type": "create_room", "name": "Host"})
    assert host["type"] == "room", host
    return client.ask({"type": "join_room", "code": host["code"], "name": name})


def shown_name(reply: Message) -> str:
    """The name the server kept, as everyone is shown it."""
    if reply["type"] == "match":
        name: str = reply["seats"][reply["you"]]["name"]
    else:
        assert reply["type"] == "room", reply
        name = reply["name"]
    return name


WHERE = [name_in_match, name_in_new_room, name_in_joined_room]

INVISIBLE = {
    "hangul filler": "\u3164",
    "hangul fillers around a space": "\u3164 \u3164",
    "halfwidth hangul filler": "\uffa0",
    "braille blank": "\u2800",
    "twenty accents on a letter": "a" + "\u0301" * 20,
    "four accents on a letter": "e\u0301\u0301\u0301\u0301",
    "zero-width space": "a\u200bb",
    "word joiner": "a\u2060b",
    "byte order mark": "\ufeffAnn",
    "direction override": "\u202eevil",
    "a lone zero-width joiner": "\u200d",
    "a joiner between letters": "a\u200db",
    "a joiner at the end": "Ann\U0001f469\u200d",
    "a joiner before a letter": "\U0001f469\u200dA",
    "two joiners": "\U0001f469\u200d\u200d\U0001f467",
    "a tag character": "Ann\U000e0041",
    "a control character": "bad\x07",
    "spaces only": "   ",
}

EMOJI = {
    "family": "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466",  # 👨‍👩‍👧‍👦
    "health worker": "\U0001f469\u200d\u2695\ufe0f",  # 👩‍⚕️
    "health worker with a skin tone": "\U0001f469\U0001f3fd\u200d\u2695\ufe0f",
    "firefighter in a name": "Bo \U0001f9d1\u200d\U0001f692",  # Bo 🧑‍🚒
    "rainbow flag": "\U0001f3f3\ufe0f\u200d\U0001f308",  # 🏳️‍🌈
    "a plain emoji": "\U0001f98a Fox",
}


@pytest.mark.parametrize("where", WHERE, ids=lambda f: f.__name__)
@pytest.mark.parametrize("name", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_an_invisible_or_overloaded_name_is_refused_everywhere(
    server: LiveServer, clients: Clients, where: Callable[[Client, str], Message], name: str
) -> None:
    client = clients(server)
    reply = where(client, name)
    assert (reply["type"], reply.get("code")) == ("error", "protocol/bad_field"), reply
    assert "name" in reply["message"]


@pytest.mark.parametrize("where", WHERE, ids=lambda f: f.__name__)
@pytest.mark.parametrize("name", EMOJI.values(), ids=EMOJI.keys())
def test_emoji_joined_into_one_picture_are_a_name_everywhere(
    server: LiveServer, clients: Clients, where: Callable[[Client, str], Message], name: str
) -> None:
    client = clients(server)
    assert shown_name(where(client, name)) == name


def test_a_match_seat_name_is_trimmed_and_as_long_as_a_rooms(server: LiveServer, clients: Clients) -> None:
    client = clients(server)
    assert shown_name(name_in_match(client, "  Zoë  ")) == "Zoë"
    assert shown_name(name_in_match(client, "x" * 20)) == "x" * 20
    client.send({"type": "new_match", "name": "x" * 21, "bots": []})
    expect_error(client, "protocol/bad_field")
    assert shown_name(client.ask({"type": "new_match", "bots": []})) == "You"  # no name: the default
