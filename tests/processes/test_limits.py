"""The server's limits over a real socket: frame size, rate, Origin, slow readers, idle games, the cap."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from websocket import (
    ABNF,
    WebSocketBadStatusException,
    WebSocketConnectionClosedException,
    WebSocketTimeoutException,
    create_connection,
)

from tests.support import Client, LiveServer, messages_in
from tests.wire import (
    Connect,
    a_word,
    committed_view,
    drag,
    expect_error,
    final_of,
    hang_up,
    new_game,
    play,
    record_of,
    resume_of,
    state,
)

# Alone: it times rate limits and floods, so nothing else runs beside it (make test).
pytestmark = pytest.mark.alone

MESSAGE_TOO_BIG = 1009
POLICY_VIOLATION = 1008


@contextmanager
def live(*args: str, env: dict[str, str]) -> Iterator[LiveServer]:
    server = LiveServer(*args, env=env)
    try:
        yield server
    finally:
        server.stop()


def close_code(client: Client, timeout: float = 5.0) -> int:
    """Read frames until the close frame; its status code.

    ``recv_frame`` is the raw reader: unlike ``recv_data`` it does not try to answer the
    close frame, which fails with a broken pipe when the server has already hung up.
    """
    client.ws.settimeout(timeout)
    while True:
        frame = client.ws.recv_frame()
        if frame.opcode == ABNF.OPCODE_CLOSE:
            assert len(frame.data) >= 2, frame.data
            return int.from_bytes(frame.data[:2], "big")


def assert_tcp_closes(client: Client, within: float = 3.0) -> None:
    """The server really hangs up: the raw socket reads EOF (or a reset) soon."""
    sock = client.ws.sock
    assert sock is not None
    sock.settimeout(within)
    started = time.monotonic()
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        pytest.fail(f"the server kept the TCP connection open for {within}s after closing")
    except ConnectionError:
        pass
    finally:
        client.ws.shutdown()  # our end too, without a closing handshake
    assert time.monotonic() - started < within


def round_trip(client: Client) -> float:
    started = time.monotonic()
    reply = client.ask({"type": "cancel"})
    assert reply["type"] == "error", reply
    return time.monotonic() - started


# -- frames over 4 KB ---------------------------------------------------------------------


def send_raw(client: Client, frame: str | bytes) -> None:
    if isinstance(frame, bytes):
        client.ws.send_binary(frame)
    else:
        client.ws.send(frame)


@pytest.mark.parametrize(
    "frame",
    [
        "x" * 5000,
        json.dumps({"type": "resume", "game_id": "g" * 5000, "token": "t"}),
        "x" * 4097,
        b"\x00" * 5000,
    ],
    ids=["text-5000", "json-5000", "text-4097", "binary-5000"],
)
def test_an_oversize_frame_closes_with_1009(server: LiveServer, connect: Connect, frame: str | bytes) -> None:
    bystander = connect()
    bystander_game = new_game(bystander, seed=11)
    big = connect()
    game = new_game(big, seed=12)
    watcher = connect()
    watcher.ask(resume_of(game))
    drag(big, [(0, 0), (0, 1)])
    assert [watcher.recv()["type"] for _ in range(2)] == ["chain", "chain"]

    send_raw(big, frame)
    assert close_code(big) == MESSAGE_TOO_BIG
    assert_tcp_closes(big)

    # The server noticed the connection is gone: the chain it was dragging is cancelled...
    cancelled = watcher.recv()
    assert cancelled["type"] == "chain"
    assert cancelled["chain"] == []
    # ...the game is still there for a resumer, and everyone else carries on.
    assert watcher.ask(resume_of(game))["phase"] == "idle"
    assert bystander.ask({"type": "press", "row": 0, "col": 0})["type"] == "chain"
    # (Asked by the bystander, who drags it: another connection's resume would take over.)
    assert state(bystander.ask(resume_of(bystander_game)))["chain"] == [[0, 0]]
    assert round_trip(connect()) < 1.0
    assert server.alive()


def test_a_frame_of_exactly_4096_bytes_is_read(connect: Connect) -> None:
    client = connect()
    frame = json.dumps({"type": "fly", "pad": ""})
    frame = frame[:-2] + "x" * (4096 - len(frame)) + '"}'
    assert len(frame.encode()) == 4096
    client.ws.send(frame)
    expect_error(client, "protocol/unknown_type")
    assert new_game(client)["type"] == "game"


def test_a_fragmented_message_over_4096_bytes_closes_with_1009(connect: Connect) -> None:
    client = connect()
    new_game(client)
    piece = "x" * 1500
    client.ws.send_frame(ABNF.create_frame(piece, ABNF.OPCODE_TEXT, fin=0))
    client.ws.send_frame(ABNF.create_frame(piece, ABNF.OPCODE_CONT, fin=0))
    client.ws.send_frame(ABNF.create_frame(piece, ABNF.OPCODE_CONT, fin=1))
    assert close_code(client) == MESSAGE_TOO_BIG
    assert_tcp_closes(client)


def test_a_fragmented_message_under_the_limit_is_one_message(connect: Connect) -> None:
    client = connect()
    text = json.dumps({"type": "new_game", "seed": 5})
    client.ws.send_frame(ABNF.create_frame(text[:10], ABNF.OPCODE_TEXT, fin=0))
    client.ws.send_frame(ABNF.create_frame(text[10:], ABNF.OPCODE_CONT, fin=1))
    reply = client.recv()
    assert reply["type"] == "game"
    assert reply["seed"] == 5


def test_the_frame_limit_counts_bytes_not_characters(connect: Connect) -> None:
    """docs/protocol.md: frames over 4,096 *bytes* close with 1009; 'ñ' is two bytes in UTF-8."""
    client = connect()
    frame = json.dumps({"type": "ñ" * 2100}, ensure_ascii=False)
    assert len(frame) < 4096 < len(frame.encode())
    client.ws.send(frame)
    client.ws.settimeout(5)
    try:
        got = client.ws.recv_frame()
        assert got.opcode == ABNF.OPCODE_CLOSE, (
            f"a {len(frame.encode())}-byte frame was read: {got.data[:80]!r}"
        )
        assert int.from_bytes(got.data[:2], "big") == MESSAGE_TOO_BIG
    finally:
        hang_up(client)


# -- flooding -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def flood_server() -> Iterator[LiveServer]:
    env = {"WIBBLE_RATE_LIMIT": "5", "WIBBLE_RATE_BURST": "5", "WIBBLE_FLOOD_CLOSE": "50"}
    with live(env=env) as server:
        yield server


def drain(client: Client, quiet: float = 0.5) -> list[dict[str, Any]]:
    """Every message that arrives until ``quiet`` seconds pass with none."""
    messages = []
    client.ws.settimeout(quiet)
    try:
        while True:
            messages.append(client.recv())
    except WebSocketTimeoutException:
        pass
    finally:
        client.ws.settimeout(10)
    return messages


def test_a_ping_flood_does_not_slow_others(server: LiveServer, connect: Connect) -> None:
    """Pings are the library's to answer and reach no message rate limit; a client flooding them for
    two seconds (reading its pongs, so that TCP never makes it wait) holds up nobody else."""
    flooder, bystander = connect(), connect()
    new_game(flooder, seed=1)
    new_game(bystander, seed=1)
    stop = threading.Event()
    pongs = [0]

    def read_pongs() -> None:
        flooder.ws.settimeout(1)
        while not stop.is_set():
            try:
                op, _ = flooder.ws.recv_data(control_frame=True)
            except (WebSocketTimeoutException, OSError, WebSocketConnectionClosedException):
                return
            pongs[0] += op == ABNF.OPCODE_PONG

    def flood() -> None:
        while not stop.is_set():
            try:
                flooder.ws.ping(b"x" * 125)
            except (OSError, WebSocketConnectionClosedException):
                return

    threads = [threading.Thread(target=read_pongs), threading.Thread(target=flood)]
    for thread in threads:
        thread.start()
    try:
        worst = max(round_trip(bystander) for _ in range(20))
    finally:
        stop.set()
        for thread in threads:
            thread.join(5)
    assert pongs[0] > 100, "the flood never got going"
    assert worst < 0.5


def test_compression_is_not_negotiated(server: LiveServer) -> None:
    """A compressed 4 KB frame could inflate to megabytes before the size check; so no deflate."""
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        raw.sendall(
            (
                "GET /ws HTTP/1.1\r\n"
                f"Host: {host}:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
            ).encode()
        )
        reply = raw.recv(4096).decode("latin-1")
    assert reply.startswith("HTTP/1.1 101")
    assert "sec-websocket-extensions" not in reply.lower()


def test_too_many_messages_are_ignored_with_rate_limited(flood_server: LiveServer, connect: Connect) -> None:
    polite = connect(flood_server.ws_url)
    polite_game = new_game(polite, seed=1)
    client = connect(flood_server.ws_url)
    game = new_game(client, seed=2)
    watcher = connect(flood_server.ws_url)
    before = state(watcher.ask(resume_of(game)))
    record = record_of(flood_server, game)

    for _ in range(20):  # 40 messages: fewer than FLOOD_CLOSE can be refused in a row
        client.send({"type": "press", "row": 0, "col": 0})
        client.send({"type": "cancel"})
    replies = drain(client)
    codes = [m.get("code", m["type"]) for m in replies]
    assert "protocol/rate_limited" in codes, codes
    # One warning a second, not one per message; most of the 40 were ignored outright.
    assert codes.count("protocol/rate_limited") == 1, codes
    assert len(replies) < 20, codes
    limited = replies[codes.index("protocol/rate_limited")]
    assert limited["type"] == "error"
    assert limited["message"]
    # What got through was played in order and nothing else happened: the watcher heard
    # exactly the accepted moves, drags commit nothing, and the game holds the last chain.
    heard = drain(watcher, 0.3)
    accepted = [m for m in replies if m["type"] == "chain"]
    assert heard == accepted
    assert all(m["version"] == before["version"] for m in accepted), accepted
    assert record_of(flood_server, game) == record

    time.sleep(1.2)  # the bucket refills
    after = state(client.ask(resume_of(game)))  # the dragger's own resume keeps its chain
    assert after["board"] == before["board"]
    assert after["found"] == before["found"]
    assert after["version"] == before["version"]
    assert after["chain"] == (accepted[-1]["chain"] if accepted else [])
    assert polite.ask(resume_of(polite_game))["type"] == "game"
    assert flood_server.alive()


def test_sustained_flooding_closes_with_1008(flood_server: LiveServer, connect: Connect) -> None:
    polite = connect(flood_server.ws_url)
    polite_game = new_game(polite, seed=3)
    flooder = connect(flood_server.ws_url)
    sent = 0
    try:
        for _ in range(300):
            flooder.send({"type": "cancel"})
            sent += 1
    except (OSError, WebSocketConnectionClosedException):
        pass  # the server may hang up before all are sent
    assert sent >= 55
    assert close_code(flooder) == POLICY_VIOLATION
    assert_tcp_closes(flooder)
    # A well-behaved client on the same server is not affected.
    for _ in range(3):
        assert polite.ask(resume_of(polite_game))["type"] == "game"
        time.sleep(0.25)
    assert flood_server.alive()


def test_a_polite_client_is_never_rate_limited(flood_server: LiveServer, connect: Connect) -> None:
    client = connect(flood_server.ws_url)
    game = new_game(client, seed=4)
    for i in range(6):  # four a second, under the five allowed
        reply = client.ask({"type": "press", "row": 0, "col": 0} if i % 2 == 0 else {"type": "cancel"})
        assert reply["type"] == "chain", reply
        assert reply["chain"] == ([[0, 0]] if i % 2 == 0 else []), reply
        time.sleep(0.25)
    after = client.ask(resume_of(game))
    assert after["phase"] == "idle"
    assert after["version"] == game["version"] == 0  # three drags, all cancelled: nothing committed


# -- Origin -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def roomy_server() -> Iterator[LiveServer]:
    """No practical rate limit, and one allow-listed origin."""
    env = {
        "WIBBLE_RATE_LIMIT": "1000000",
        "WIBBLE_RATE_BURST": "1000000",
        "WIBBLE_ALLOWED_ORIGINS": '["http://good.example"]',
    }
    with live(env=env) as server:
        yield server


def handshake(url: str, **options: Any) -> None:
    ws = create_connection(url, timeout=10, **options)
    try:
        ws.send(json.dumps({"type": "new_game"}))
        assert json.loads(ws.recv())["type"] == "game"
    finally:
        ws.close()


def refused(url: str, **options: Any) -> int:
    with pytest.raises(WebSocketBadStatusException) as info:
        create_connection(url, timeout=10, **options).close()
    return info.value.status_code


def port_of(server: LiveServer) -> int:
    return int(server.url.rsplit(":", 1)[1])


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "https://evil.example",
        "null",
        "http://localhost:1",
        "http://localhost.evil.example:{port}",
        "http://evil.example/http://localhost:{port}",
        "file://",
        "",
    ],
)
def test_a_foreign_origin_is_refused_with_403(server: LiveServer, origin: str) -> None:
    assert refused(server.ws_url, origin=origin.format(port=port_of(server))) == 403
    handshake(server.ws_url)  # and the server goes on serving


def test_the_pages_own_origin_is_accepted(server: LiveServer) -> None:
    handshake(server.ws_url, origin=server.url)
    handshake(server.ws_url, origin=server.url + "/")


def test_no_origin_is_accepted(server: LiveServer) -> None:
    handshake(server.ws_url, suppress_origin=True)


def test_an_allow_listed_origin_is_accepted(roomy_server: LiveServer) -> None:
    handshake(roomy_server.ws_url, origin="http://good.example")
    handshake(roomy_server.ws_url, origin=roomy_server.url)
    for origin in ["http://evil.example", "https://good.example", "http://good.example.evil.example"]:
        assert refused(roomy_server.ws_url, origin=origin) == 403, origin


def test_a_rebound_host_name_is_refused_though_origin_and_host_agree(server: LiveServer) -> None:
    """DNS rebinding: a page at http://evil.example:PORT whose name the attacker re-points at
    this server (on someone's home network, say) sends a Host and an Origin that agree with
    each other. Only names the host configured are trusted; an address cannot be rebound."""
    port = port_of(server)
    for name in ("evil.example", "localhost.evil.example", "wibble.example"):
        assert refused(server.ws_url, host=f"{name}:{port}", origin=f"http://{name}:{port}") == 403, name
    for name in ("127.0.0.1", "192.168.1.20", "[::1]", "localhost"):  # the page opened by its address
        handshake(server.ws_url, host=f"{name}:{port}", origin=f"http://{name}:{port}")


def test_host_names_set_in_allowed_hosts_are_trusted() -> None:
    with live(env={"WIBBLE_ALLOWED_HOSTS": "wibble.example, Games.Example."}) as server:
        port = port_of(server)
        handshake(server.ws_url, host=f"wibble.example:{port}", origin=f"http://wibble.example:{port}")
        handshake(server.ws_url, host="games.example", origin="https://games.example")  # behind a proxy
        assert (
            refused(server.ws_url, host=f"evil.example:{port}", origin=f"http://evil.example:{port}") == 403
        )
        # The name must be the page's own: an allowed Host does not make any Origin welcome.
        assert (
            refused(server.ws_url, host=f"wibble.example:{port}", origin=f"http://evil.example:{port}") == 403
        )


# -- a client that stops reading ------------------------------------------------------------


SNAKE = [(r, c if r % 2 == 0 else 4 - c) for r in range(5) for c in range(5)]


@dataclass
class SlowReader:
    broadcasts: int
    worst_round_trip: float
    generator_got: int
    frames: list[Any] = field(default_factory=list)
    ending: str = ""


@pytest.fixture(scope="module")
def slow_reader(roomy_server: LiveServer) -> Iterator[SlowReader]:
    """One connection never reads while another makes ~25,000 broadcasts on their game."""
    url = roomy_server.ws_url
    # A tiny receive buffer, so the server's queue for this client fills up quickly.
    sleeper = Client(url, sockopt=((socket.SOL_SOCKET, socket.SO_RCVBUF, 4096),))
    player, other = Client(url), Client(url)
    try:
        game = new_game(sleeper, seed=7)
        player.ask(resume_of(game))
        new_game(other)
        drag(player, SNAKE)  # a 25-tile chain: every chain message is ~340 bytes
        back, forth = SNAKE[-2], SNAKE[-1]
        broadcasts, got, worst = len(SNAKE), 0, 0.0
        for _ in range(250):
            # In batches a player reads as it goes: a client that sent hundreds of messages without
            # reading their answers would be a client that stops reading, and be dropped.
            for _ in range(50):
                player.send({"type": "enter", "row": back[0], "col": back[1]})
                player.send({"type": "enter", "row": forth[0], "col": forth[1]})
            for _ in range(100):
                assert player.recv()["type"] == "chain"
                got += 1
            broadcasts += 100
            worst = max(worst, round_trip(other))
        result = SlowReader(broadcasts, worst, got)
        # Now the sleeper wakes up and reads what it can.
        sleeper.ws.settimeout(5)
        try:
            while True:
                frame = sleeper.ws.recv_frame()
                if frame.opcode == ABNF.OPCODE_CLOSE:
                    code = int.from_bytes(frame.data[:2], "big") if len(frame.data) >= 2 else None
                    result.ending = f"close {code}"
                    break
                assert frame.opcode == ABNF.OPCODE_TEXT, frame
                assert frame.fin, frame
                result.frames.extend(messages_in(frame.data.decode("utf-8")))
        except (WebSocketConnectionClosedException, ConnectionError) as exc:
            result.ending = f"eof ({type(exc).__name__})"
        except Exception as exc:
            result.ending = f"{type(exc).__name__}: {str(exc)[:300]}"
        yield result
    finally:
        for client in (sleeper, player, other):
            try:
                client.close()
            finally:
                hang_up(client)


def test_a_client_that_stops_reading_does_not_stall_anyone(
    slow_reader: SlowReader, roomy_server: LiveServer
) -> None:
    assert slow_reader.generator_got == slow_reader.broadcasts - len(SNAKE)
    assert slow_reader.worst_round_trip < 1.0
    client = Client(roomy_server.ws_url)
    try:
        started = time.monotonic()
        game = new_game(client)
        assert client.ask({"type": "press", "row": 0, "col": 0})["type"] == "chain"
        assert time.monotonic() - started < 1.0
        assert game["type"] == "game"
    finally:
        client.close()
    assert roomy_server.alive()


def test_a_client_that_stops_reading_is_dropped_cleanly(slow_reader: SlowReader) -> None:
    """docs: past 256 queued messages it is dropped; what it does get must still be whole frames."""
    frames, ending = slow_reader.frames, slow_reader.ending
    assert ending.startswith(("close", "eof")), f"after {len(frames)} good frames the stream broke: {ending}"
    assert all(isinstance(frame, dict) and frame.get("type") in {"game", "chain"} for frame in frames)
    assert len(frames) < slow_reader.broadcasts, "it was never dropped"


# -- idle games leave memory, not the store -----------------------------------------------------


def games_in_memory(server: LiveServer) -> int:
    """What ``/healthz`` says: how many games the server holds in memory now."""
    with urllib.request.urlopen(f"{server.url}/healthz", timeout=10) as response:
        count: int = json.loads(response.read())["games"]
    return count


def test_an_idle_game_leaves_memory_and_resumes_from_the_store(
    start_server: Callable[..., LiveServer], connect: Connect
) -> None:
    server = start_server(env={"WIBBLE_IDLE_TIMEOUT": "1"})
    url = server.ws_url
    leaver = connect(url)
    abandoned = new_game(leaver, seed=21)
    _, path = a_word(abandoned)
    assert play(leaver, path)[1]["result"] == "scored"
    left = state(leaver.ask(resume_of(abandoned)))
    stayer = connect(url)
    kept = new_game(stayer, seed=22)
    leaver.close()
    # Within the timeout the game is still in memory, and can be resumed...
    quick = connect(url)
    assert state(quick.ask(resume_of(abandoned))) == left
    quick.close()
    assert games_in_memory(server) == 2
    time.sleep(1.6)  # IDLE_TIMEOUT is 1 s; sweeps run at most every 0.5 s
    # ...after it, the next new_game sweeps it out of memory; a game with a player stays.
    new_game(connect(url))
    assert games_in_memory(server) == 2  # the kept game and the one just started
    # Out of memory is not gone: it resumes from the store exactly as it was left.
    probe = connect(url)
    assert state(probe.ask(resume_of(abandoned))) == left
    assert games_in_memory(server) == 3
    assert final_of(record_of(server, abandoned)) == committed_view(left)
    assert probe.ask(resume_of(kept))["game_id"] == kept["game_id"]


# -- the cap on games in memory -------------------------------------------------------------------


def test_at_the_cap_unattended_games_make_room() -> None:
    with live(env={"WIBBLE_MAX_GAMES": "3"}) as capped:
        play_at_the_cap(capped)


def ask_until_room(client: Client, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` until it is not refused with server/full (a leaving client is noticed soon)."""
    deadline = time.monotonic() + 5
    while True:
        reply = client.ask(message)
        if reply["type"] != "error":
            return reply
        assert reply["code"] == "server/full", reply
        assert time.monotonic() < deadline, "the unattended game never made room"
        time.sleep(0.1)


def play_at_the_cap(capped: LiveServer) -> None:
    clients = [Client(capped.ws_url) for _ in range(6)]
    try:
        games = [new_game(client, seed=i) for i, client in enumerate(clients[:3])]
        clients[3].send({"type": "new_game"})
        reply = expect_error(clients[3], "server/full")
        assert reply["request"] == "new_game"
        # Still usable: it can join a game that exists.
        assert clients[3].ask(resume_of(games[0]))["game_id"] == games[0]["game_id"]
        # games[1] gets a word, then nobody is connected to it.
        _, path = a_word(games[1])
        assert play(clients[1], path)[1]["result"] == "scored"
        left = state(clients[1].ask(resume_of(games[1])))
        clients[1].close()
        fresh = ask_until_room(clients[4], {"type": "new_game"})
        assert fresh["type"] == "game", fresh
        # games[1] is out of memory, and every game in memory has a player: it cannot
        # come back yet, and says why (it is not lost: not game/not_found).
        clients[5].send(resume_of(games[1]))
        assert expect_error(clients[5], "server/full")["request"] == "resume"
        # Once another game is unattended, it makes room, and games[1] comes back from
        # the store exactly as it was left.
        clients[4].close()
        back = ask_until_room(clients[5], resume_of(games[1]))
        assert state(back) == left
        for game in (games[0], games[2]):  # games with players stay
            assert clients[3].ask(resume_of(game))["game_id"] == game["game_id"]
        # And the game pushed out for it is saved too: a game as it began.
        assert final_of(record_of(capped, fresh)) == committed_view(fresh)
    finally:
        for client in clients:
            try:
                client.close()
            finally:
                hang_up(client)
