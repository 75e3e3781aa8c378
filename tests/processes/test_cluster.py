"""Server processes on a real Redis Cluster (three masters, a replica each), as a host past one
Redis runs them: a room split over two processes, and a master SIGKILLed mid-match."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from tests.processes.test_processes import record, serve, split_room
from tests.processes.test_rooms import Clients, Message, Seat, a_path, play
from tests.redis_server import RedisCluster
from tests.support import Client, LiveServer
from tests.wire import a_word, until


@pytest.fixture
def on_cluster(cluster_url: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    first, second = (serve(cluster_url, WIBBLE_ROUND_PAUSE_SECONDS="0") for _ in range(2))
    yield first, second
    first.stop()
    second.stop()


def test_a_room_split_over_two_processes_on_a_cluster_plays_as_one(
    on_cluster: tuple[LiveServer, LiveServer], clients: Clients
) -> None:
    one, two = on_cluster
    ann, bo, _, match_id = split_room(one, two, clients, rounds=2)
    words = [play(ann, (bo,)), play(bo, (ann,)), play(ann, (bo,))]
    moves = record(two, match_id)["moves"]
    assert [(m["seat"], m["word"].upper()) for m in moves] == [(w["seat"], w["word"]) for w in words]


def play_through(who: Seat, others: tuple[Seat, ...], seconds: float = 30.0) -> tuple[Message, int]:
    """Play a word, and again each time the server says it could not save it (a failover under
    way), for up to ``seconds``; the word everyone was shown, and how many tries were refused."""
    deadline, refused = time.monotonic() + seconds, 0
    while True:
        (r, c), *rest = a_path(who)
        who.send({"type": "press", "row": r, "col": c})
        for r, c in rest:
            who.send({"type": "enter", "row": r, "col": c})
        who.send({"type": "release"})
        answer = who.last(("played", "error"))
        if answer["type"] == "played":
            break
        assert answer["code"] == "server/storage", answer
        assert time.monotonic() < deadline, f"still refused after {seconds} s ({refused} tries)"
        refused += 1
        who.send({"type": "cancel"})
        # A player trying again (the failover takes a few seconds, more on a busy machine). A try is
        # up to a dozen messages (a press, an enter a tile, the release, a cancel): at one try every
        # 0.2 s a long failover spent the connection's burst of 80 over 40 a second, and the server
        # rightly answered protocol/rate_limited.
        time.sleep(0.5)
    for other in others:
        assert other.last("played", lambda m: m["word"] == answer["word"]) == answer
    for everyone in (who, *others):
        everyone.until("turn")
    return answer, refused


def test_a_master_killed_mid_match_fails_over_and_nothing_acknowledged_is_lost(
    redis_cluster: RedisCluster, on_cluster: tuple[LiveServer, LiveServer], clients: Clients
) -> None:
    one, two = on_cluster
    master = None
    try:
        ann, bo, _, match_id = split_room(one, two, clients, rounds=3)
        shown = [play(ann, (bo,)), play(bo, (ann,))]
        master = redis_cluster.master_of(f"wibble:{{{match_id}}}")
        master.kill()  # SIGKILL: whatever it had not sent its replica is gone with it

        refused = 0
        for who, other in ((ann, bo), (bo, ann), (ann, bo)):
            word, tries = play_through(who, (other,))
            shown.append(word)
            refused += tries
        assert redis_cluster.master_of(f"wibble:{{{match_id}}}") is not master  # its replica took over

        # Every word anyone was shown is in the stored record, in order, on either process.
        for server in (one, two):
            moves = record(server, match_id)["moves"]
            assert [(m["seat"], m["word"].upper()) for m in moves] == [(w["seat"], w["word"]) for w in shown]
    finally:
        if master is not None:
            master.start()  # back, as the new master's replica: the cluster whole for the next test
            redis_cluster.wait_ready()


def test_a_process_started_while_a_master_is_down_comes_up_and_plays_once_it_has_failed_over(
    redis_cluster: RedisCluster,
) -> None:
    """A host restarts its processes while the cluster fails over (a master just died): each comes
    up, as a running one rides the failover out, rather than exiting with a traceback."""
    master = redis_cluster.masters()[1]
    server = None
    try:
        master.kill()
        server = serve(redis_cluster.url)  # (up once it prints its address, or this fails)
        redis_cluster.wait_ready()  # the replica has taken over
        client = Client(server.ws_url)
        deadline = time.monotonic() + 30
        while True:  # as a player tries again while the process's map of the cluster catches up
            game = client.ask({"type": "new_game"})
            if game["type"] == "game":
                break
            assert game["code"] == "server/storage", game
            assert time.monotonic() < deadline, "still refused 30 s after the failover"
            time.sleep(0.5)
        # (The game may be told again as the process catches up after the failover: read on to the word.)
        (r, c), *rest = a_word(game)[1]
        client.send({"type": "press", "row": r, "col": c})
        for r, c in rest:
            client.send({"type": "enter", "row": r, "col": c})
        client.send({"type": "release"})
        judged = until(client, "word")[-1]
        assert judged["result"] == "scored", judged
        client.close()
    finally:
        if server is not None:
            server.stop()
        master.start()
        redis_cluster.wait_ready()


def test_a_resharding_during_play_moves_the_match_to_another_master_and_play_goes_on(
    redis_cluster: RedisCluster, on_cluster: tuple[LiveServer, LiveServer], clients: Clients
) -> None:
    one, two = on_cluster
    ann, bo, _, match_id = split_room(one, two, clients, rounds=4)
    shown = [play(ann, (bo,))]
    key = f"wibble:{{{match_id}}}"
    source = redis_cluster.master_of(key)
    target = next(node for node in redis_cluster.masters() if node is not source)
    moving = threading.Thread(target=redis_cluster.move_slots, args=(source, target))
    moving.start()  # every slot of the match's master, to another master, while they play
    try:
        for who, other in ((bo, ann), (ann, bo), (bo, ann), (ann, bo)):
            shown.append(play_through(who, (other,))[0])
    finally:
        moving.join()
    for who, other in ((bo, ann), (ann, bo)):  # and once it is done
        shown.append(play_through(who, (other,))[0])
    assert redis_cluster.master_of(key) is target
    for server in (one, two):
        moves = record(server, match_id)["moves"]
        assert [(m["seat"], m["word"].upper()) for m in moves] == [(w["seat"], w["word"]) for w in shown]
