"""Rooms over real websockets against a real server: three seats and a spectator, drops and
reclaims, the grace period, the host, a removed player, a full room, a SIGKILL mid-match."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support import Client, LiveServer, find_paths, letters_of, shipped_list
from tests.wire import expect_error, hang_up, until

Message = dict[str, Any]
Clients = Callable[[LiveServer], Client]
QUICK_BOTS = {"WIBBLE_BOT_THINK_SECONDS": "0", "WIBBLE_BOT_STEP_SECONDS": "0.01"}
SHORT_GRACE = {**QUICK_BOTS, "WIBBLE_ROOM_GRACE_SECONDS": "1", "WIBBLE_ROUND_PAUSE_SECONDS": "0"}


def engine(request: pytest.FixtureRequest) -> tuple[str, str]:
    """Where the server under test keeps its rooms: memory, or a real Redis (shared by the run)."""
    if request.param == "redis":
        return ("--redis", request.getfixturevalue("redis_server").url)
    return ("--data-dir", "")


@pytest.fixture(scope="module", params=["memory", "redis"])
def server(request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    server = LiveServer(*engine(request), env=QUICK_BOTS)
    yield server
    server.stop()


@pytest.fixture(scope="module", params=["memory", "redis"])
def short_grace(request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    """A server that holds an away seat for one second (the setting, ROOM_GRACE_SECONDS, is 120 s)."""
    server = LiveServer(*engine(request), env=SHORT_GRACE)
    yield server
    server.stop()


@dataclass
class Seat:
    """A person in a room: their connection, their seat (None: watching) and token, the board they see."""

    client: Client
    name: str
    seat: int | None = None
    token: str | None = None
    board: list[list[Message]] = field(default_factory=list)
    turn: Message = field(default_factory=dict)
    """The last ``turn`` (or ``match``) message: whose turn, and its deadline."""

    def send(self, message: Message) -> None:
        self.client.send(message)

    def until(
        self, kind: str | tuple[str, ...], where: Callable[[Message], bool] = lambda m: True
    ) -> list[Message]:
        seen = until(self.client, kind, where)
        for message in seen:
            if message["type"] in ("match", "turn"):
                self.turn = message
            if message["type"] == "match":
                self.board = message["board"]
            elif message["type"] == "board":
                for tile in message["changed"]:
                    self.board[tile["row"]][tile["col"]] = tile
        return seen

    def last(self, kind: str | tuple[str, ...], where: Callable[[Message], bool] = lambda m: True) -> Message:
        return self.until(kind, where)[-1]


def create(server: LiveServer, clients: Clients, name: str = "Ann", **rules: Any) -> tuple[Seat, str]:
    host = Seat(clients(server), name)
    host.send({"type": "create_room", "name": name, "rules": rules})
    room = host.last("room")
    host.seat, host.token = room["you"], room["token"]
    return host, room["code"]


def join(server: LiveServer, clients: Clients, code: str, name: str, token: str | None = None) -> Seat:
    who = Seat(clients(server), name)
    who.send({"type": "join_room", "code": code, "name": name, **({"token": token} if token else {})})
    room = who.last("room")
    who.seat, who.token = room["you"], room.get("token")
    return who


def sit(who: Seat, seat: int) -> Message:
    who.send({"type": "take_seat", "seat": seat, "seq": 7})
    room = who.last("room", lambda m: m["you"] == seat)
    who.seat, who.token = seat, room["token"]
    return room


def table(server: LiveServer, clients: Clients, **rules: Any) -> tuple[str, Seat, Seat, Seat, Seat]:
    """Ann (host, seat 0), Bo (1), Cy (2) and Di watching; the match started, everyone's board known."""
    ann, code = create(server, clients, **rules)
    bo, cy, di = (join(server, clients, code, name) for name in ("Bo", "Cy", "Di"))
    sit(bo, 1)
    sit(cy, 2)
    ann.send({"type": "start_match"})
    for who in (ann, bo, cy, di):
        match = who.last("match")
        assert match["you"] == who.seat
    return code, ann, bo, cy, di


def a_path(who: Seat, wordlist: str = "en") -> list[tuple[int, int]]:
    words = shipped_list(wordlist)
    return max((path for _, path in find_paths(letters_of(who.board), words.trie, words.min_length)), key=len)


def play(who: Seat, others: tuple[Seat, ...]) -> Message:
    (r, c), *rest = a_path(who)
    who.send({"type": "press", "row": r, "col": c})
    for r, c in rest:
        who.send({"type": "enter", "row": r, "col": c})
    who.send({"type": "release"})
    played = who.last("played")
    for other in others:
        assert other.last("played") == played
    for everyone in (who, *others):
        everyone.until("turn")
    return played


def test_three_seats_and_a_spectator_each_see_every_move_and_only_the_turn_moves(
    server: LiveServer, clients: Clients
) -> None:
    code, ann, bo, cy, di = table(server, clients)
    bo.send({"type": "press", "row": 0, "col": 0})
    expect_error(bo.client, "turn/not_your_turn")
    di.send({"type": "press", "row": 0, "col": 0})
    expect_error(di.client, "room/not_seated")
    di.send({"type": "hint"})
    expect_error(di.client, "room/not_seated")

    (r, c), *_ = a_path(ann)
    ann.send({"type": "press", "row": r, "col": c})
    for other in (bo, cy, di):
        assert other.last("chain")["chain"] == [[r, c]]  # the drag, live
    ann.send({"type": "cancel"})
    for everyone in (ann, bo, cy, di):
        everyone.last("chain", lambda m: m["chain"] == [])
    played = play(ann, (bo, cy, di))
    assert played["seat"] == 0
    assert played["breakdown"]

    # Bo's turn now: Ann is refused; Bo passes, and everyone hears it.
    ann.send({"type": "press", "row": 0, "col": 0})
    expect_error(ann.client, "turn/not_your_turn")
    bo.send({"type": "pass"})
    for everyone in (ann, bo, cy, di):
        turn = everyone.last("turn")
        assert turn["turn"] == 2
        assert turn["passed"] == "pass"


def test_a_seat_that_drops_comes_back_with_its_token_to_the_match_as_it_was(
    server: LiveServer, clients: Clients
) -> None:
    code, ann, bo, cy, di = table(server, clients)
    play(ann, (bo, cy, di))
    hang_up(bo.client)
    for other in (ann, cy, di):
        assert other.last("presence") == {"type": "presence", "seat": 1, "connected": False, "away": False}
    back = join(server, clients, code, "Bo", token=bo.token)
    match = back.last("match")
    assert back.seat == 1
    assert match["you"] == 1
    assert match["turn"] == 1
    assert match["version"] == 1
    assert ann.last("presence")["connected"] is True
    play(back, (ann, cy, di))


def test_a_stale_or_foreign_token_opens_nothing(server: LiveServer, clients: Clients) -> None:
    _, code = create(server, clients)
    other, other_code = create(server, clients, name="Zed")
    stranger = Seat(clients(server), "Eve")
    stranger.send({"type": "join_room", "code": code, "name": "Eve", "token": other.token})
    expect_error(stranger.client, "room/bad_token")
    stranger.send({"type": "join_room", "code": "22222X", "name": "Eve"})
    expect_error(stranger.client, "room/not_found")


def test_when_the_grace_period_ends_the_turn_passes_and_a_stand_in_plays_on(
    short_grace: LiveServer, clients: Clients
) -> None:
    code, ann, bo, cy, di = table(short_grace, clients)
    play(ann, (bo, cy, di))
    hang_up(bo.client)  # on Bo's turn, untimed
    for other in (ann, cy, di):
        other.last("presence", lambda m: m["away"])
    turn = di.last("turn")
    assert turn["passed"] == "pass"
    assert turn["turn"] == 2
    play(cy, (ann, di))  # round 2: Ann, then the stand-in for Bo plays by itself
    for who in (ann, cy, di):
        if who.turn["phase"] != "playing":  # the pause between rounds, if the match has one
            who.last("turn", lambda m: m["phase"] == "playing")
    play(ann, (cy, di))
    assert di.last("played")["seat"] == 1


def test_a_host_who_leaves_hands_the_room_to_who_sat_first(short_grace: LiveServer, clients: Clients) -> None:
    ann, code = create(short_grace, clients)
    cy, bo = join(short_grace, clients, code, "Cy"), join(short_grace, clients, code, "Bo")
    sit(cy, 3)
    sit(bo, 1)
    hang_up(ann.client)
    room = bo.last("room", lambda m: m["host"] != 0)
    assert room["host"] == 3
    cy.send({"type": "set_rules", "rounds": 2})
    assert bo.last("room")["rules"]["rounds"] == 2


def test_a_removed_player_watches_and_cannot_come_back_to_the_seat(
    server: LiveServer, clients: Clients
) -> None:
    code, ann, bo, cy, di = table(server, clients)
    ann.send({"type": "remove", "seat": 2})
    cy.last("removed")
    assert cy.last("room")["you"] is None
    cy.send({"type": "pass"})
    expect_error(cy.client, "room/not_seated")
    again = Seat(clients(server), "Cy")
    again.send({"type": "join_room", "code": code, "name": "Cy", "token": cy.token})
    expect_error(again.client, "room/removed")
    bo.send({"type": "remove", "seat": 0})
    assert bo.last("error")["code"] == "room/not_host"


def test_a_full_room_has_no_seventh_seat(server: LiveServer, clients: Clients) -> None:
    ann, code = create(server, clients)
    for seat in range(1, 6):
        sit(join(server, clients, code, f"P{seat}"), seat)
    late = join(server, clients, code, "Late")
    late.send({"type": "take_seat", "seat": 5})
    expect_error(late.client, "room/seat_taken")


def test_a_sigkill_mid_match_brings_every_page_back_to_the_same_turn_and_time(
    tmp_path: Path, clients: Clients
) -> None:
    first = LiveServer("--data-dir", str(tmp_path), env=QUICK_BOTS)
    try:
        code, ann, bo, cy, di = table(first, clients, turn_seconds=600)
        play(ann, (bo, cy, di))
        deadline = bo.turn["deadline"]
        first.kill()
    finally:
        first.stop()
    again = LiveServer("--data-dir", str(tmp_path), env=QUICK_BOTS)
    try:
        back = {who.name: join(again, clients, code, who.name, token=who.token) for who in (ann, bo, cy)}
        matches = {name: who.last("match") for name, who in back.items()}
        assert {m["you"] for m in matches.values()} == {0, 1, 2}
        assert {m["turn"] for m in matches.values()} == {1}
        assert {m["version"] for m in matches.values()} == {1}
        assert {m["deadline"] for m in matches.values()} == {deadline}  # the same moment, not a fresh 600 s
        assert 0 < matches["Bo"]["remaining"] < 600
        watcher = join(again, clients, code, "Di")
        assert watcher.last("match")["you"] is None
        play(back["Bo"], (back["Ann"], back["Cy"], watcher))
    finally:
        again.stop()
