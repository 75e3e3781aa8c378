"""Several server processes sharing one Redis, as a host runs them behind a load balancer.

Every test starts real ``wibble serve --redis`` processes against a real redis-server
and talks to them over real websockets: a room whose people are connected to different
processes, a process SIGKILLed mid-match, and Redis itself killed and restarted.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.deployment import Deployment
from tests.processes.test_rooms import QUICK_BOTS, Clients, Seat, a_path, create, join, play, sit
from tests.redis_server import RedisServer
from tests.support import ROOT, Client, LiveServer

Message = dict[str, Any]


def serve(url: str, **env: str) -> LiveServer:
    return LiveServer("--redis", url, env={**QUICK_BOTS, **env})


@pytest.fixture
def processes(redis_url: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    first, second = (serve(redis_url, WIBBLE_ROUND_PAUSE_SECONDS="0") for _ in range(2))
    yield first, second
    first.stop()
    second.stop()


def record(server: LiveServer, match_id: str) -> Message:
    with urllib.request.urlopen(f"{server.url}/games/{match_id}/record", timeout=10) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def split_room(
    one: LiveServer | Deployment,
    two: LiveServer | Deployment,
    clients: Clients,
    bot: str | None = None,
    **rules: Any,
) -> tuple[Seat, Seat, str, str]:
    """Ann hosts a room on ``one`` (seat 0), Bo sits on ``two`` (seat 1), a bot of level ``bot`` in
    seat 2 if asked; the match started and both pages on it. Returns Ann, Bo, the code, the match."""
    ann, code = create(one, clients, **rules)
    bo = join(two, clients, code, "Bo")
    sit(bo, 1)
    if bot is not None:
        ann.send({"type": "set_seat", "seat": 2, "bot": bot})
    last, waiting = (2, (ann, bo)) if bot is not None else (1, (ann,))  # (Bo saw his own seat taken)
    for who in waiting:
        who.last("room", lambda m: m["seats"][last] is not None)
    ann.send({"type": "start_match"})
    match_id = ann.last("match")["match_id"]
    bo.last("match")
    return ann, bo, code, match_id


def test_a_room_whose_people_are_on_two_processes_plays_as_one(
    processes: tuple[LiveServer, LiveServer], clients: Clients
) -> None:
    one, two = processes
    ann, code = create(one, clients)  # Ann makes the room on process one...
    bo, cy = join(two, clients, code, "Bo"), join(two, clients, code, "Cy")  # ...Bo and Cy are on two
    di = join(one, clients, code, "Di")
    sit(bo, 1)
    sit(cy, 2)
    ann.last("room", lambda m: m["seats"][2] is not None)  # Ann, on one, hears seats taken on two
    ann.send({"type": "start_match"})
    matches = [who.last("match") for who in (ann, bo, cy, di)]
    assert [m["you"] for m in matches] == [0, 1, 2, None]
    match_id = matches[0]["match_id"]

    bo.send({"type": "press", "row": 0, "col": 0})  # on two, before Ann's turn is over
    assert bo.last("error")["code"] == "turn/not_your_turn"
    (r, c), *_ = a_path(ann)
    ann.send({"type": "press", "row": r, "col": c})
    for other in (bo, cy, di):
        assert other.last("chain")["chain"] == [[r, c]]  # the drag on one, live on two
    ann.send({"type": "cancel"})
    for everyone in (ann, bo, cy, di):
        everyone.last("chain", lambda m: m["chain"] == [])

    first = play(ann, (bo, cy, di))  # on one; everyone on both hears the same
    second = play(bo, (ann, cy, di))  # on two, right after
    third = play(cy, (ann, bo, di))
    assert [first["seat"], second["seat"], third["seat"]] == [0, 1, 2]
    moves = record(two, match_id)["moves"]
    assert [m["action"] for m in moves] == ["play", "play", "play"]


SLOW_BOTS = {
    "WIBBLE_BOT_THINK_SECONDS": "0.5",
    "WIBBLE_BOT_STEP_SECONDS": "0.5",
    "WIBBLE_DEADLINE_LEASE_SECONDS": "2",
}


def claim_holder(url: str, match_id: str) -> int | None:
    """The pid of the process whose claim on the match's bot turn is live (None: nobody's)."""
    import redis

    with redis.Redis.from_url(url, decode_responses=True) as client:
        holder = client.get(f"wibble:claim:{(match_id, 'bot')!r}")
    return None if holder is None else int(holder.split(":")[-2])


def test_a_process_killed_while_it_drags_a_bots_word_is_taken_over_and_the_bot_plays_once(
    redis_url: str, clients: Clients
) -> None:
    one, two = serve(redis_url, **SLOW_BOTS), serve(redis_url, **SLOW_BOTS)
    try:
        ann, bo, code, match_id = split_room(one, two, clients, bot="easy", rounds=1)
        play(ann, (bo,))
        play(bo, (ann,))  # the bot's turn now: one of the two processes drags its word

        ann.last("chain", lambda m: m.get("seat") == 2 and len(m["chain"]) >= 1)
        pid = claim_holder(redis_url, match_id)
        assert pid in (one.process.pid, two.process.pid)
        victim, survivor = (one, two) if pid == one.process.pid else (two, one)
        victim.kill()

        # Whoever was on the dead process comes back to the other one, in their seat.
        people = {"Ann": ann, "Bo": bo}
        on_victim = "Ann" if victim is one else "Bo"
        people[on_victim] = join(survivor, clients, code, on_victim, token=people[on_victim].token)
        assert people[on_victim].seat == (0 if on_victim == "Ann" else 1)
        for who in people.values():
            who.last("played", lambda m: m["seat"] == 2)  # the survivor takes the bot's turn over
        moves = record(survivor, match_id)["moves"]
        assert [m["seat"] for m in moves if m["action"] == "play"] == [0, 1, 2]
    finally:
        one.stop()
        two.stop()


def test_redis_killed_and_restarted_mid_match_loses_nothing_acknowledged(
    tmp_path: Path, clients: Clients
) -> None:
    store = RedisServer(tmp_path / "redis", aof=True).start()
    one, two = serve(store.url), serve(store.url)
    try:
        ann, bo, code, match_id = split_room(one, two, clients, rounds=2)
        first = play(ann, (bo,))  # acknowledged: everyone heard it

        store.kill()
        bo.send({"type": "pass", "seq": 1})
        refused = bo.last("error")
        assert refused["code"] == "server/storage"  # refused fast, and nothing changed
        store.start()  # the same port, the same folder: its append-only file

        deadline = time.monotonic() + 20
        while True:  # Bo tries again until Redis answers (the processes reconnect by themselves)
            bo.send({"type": "pass", "seq": 2})
            answer = outcome(bo)
            if answer["type"] == "turn":
                break
            assert answer["code"] == "server/storage", answer
            assert time.monotonic() < deadline, "play never resumed after Redis came back"
            time.sleep(0.2)  # a player's pause before trying again, not a wait for the server
        # Ann, on the other process, hears the pass: as it happened, or (if it came while her
        # process was still subscribing again) in the fresh snapshot her process sends on catching up.
        hears_the_pass(ann)
        moves = record(one, match_id)["moves"]
        assert [m["action"] for m in moves] == ["play", "pass"]
        assert moves[0]["path"] == first["path"]
    finally:
        one.stop()
        two.stop()
        store.stop()


def hears_the_pass(who: Seat) -> None:
    while True:
        message = who.client.recv()
        if message["type"] == "turn" and message.get("passed") == "pass":
            return
        if message["type"] == "match" and message["version"] >= 2:
            return
        assert message["type"] != "error", message


def answer(who: Seat, seq: int) -> Message:
    """The first message ``who`` hears that answers its request ``seq``."""
    while True:
        message = who.client.recv()
        if message.get("seq") == seq:
            return message


def outcome(who: Seat, seq: int | None = None) -> Message:
    """The answer to a move: the next refusal or turn ``who`` hears (with ``seq``: the answer to the
    move that carried it, not someone else's turn heard meanwhile)."""
    while True:
        message = who.client.recv()
        if message["type"] in ("error", "turn") and (seq is None or message.get("seq") == seq):
            return message


def health(server: LiveServer) -> Message:
    with urllib.request.urlopen(f"{server.url}/healthz", timeout=10) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def test_a_room_plays_through_nginx_configured_as_the_deploy_guide_says(
    redis_url: str, tmp_path: Path, clients: Clients
) -> None:
    site = Deployment(redis_url, tmp_path)
    try:
        ann, bo, code, match_id = split_room(site, site, clients)
        play(ann, (bo,))
        play(bo, (ann,))
        one, two = site.servers
        assert [health(one)["rooms"], health(two)["rooms"]] == [1, 1], "nginx sent one player to each"
    finally:
        site.stop()


def reaches(who: Seat, version: int, seen: int) -> int:
    """Reads what ``who`` hears until a message at ``version`` or later (a timeout fails the test),
    ``seen`` being the latest it had already; returns the latest it has now."""
    while seen < version:
        seen = max(seen, who.client.recv().get("version", -1))
    return seen


def test_pubsub_connections_killed_during_moves_every_page_still_ends_at_the_stored_version(
    redis_url: str, processes: tuple[LiveServer, LiveServer], clients: Clients
) -> None:
    import redis

    one, two = processes
    ann, bo, code, match_id = split_room(one, two, clients, rounds=3)
    seen = {"Ann": 0, "Bo": 0}
    with redis.Redis.from_url(redis_url) as admin:
        for turn in range(4):
            admin.execute_command("CLIENT", "KILL", "TYPE", "pubsub")  # every process's subscriptions cut
            mover = ann if turn % 2 == 0 else bo
            mover.send({"type": "pass", "seq": 100 + turn})
            answer = outcome(mover, 100 + turn)  # each moves once the other's move is done
            assert (answer["type"], answer.get("passed")) == ("turn", "pass"), answer
            seen[mover.name] = answer["version"]
    stored = record(one, match_id)["moves"][-1]["version"]
    while True:  # (a round that ends starts the next by a deadline: the stored version may move on)
        for who in (ann, bo):  # as it happened, or by the snapshot of a process catching up
            seen[who.name] = reaches(who, stored, seen[who.name])
        latest = record(one, match_id)["moves"][-1]["version"]
        if latest == stored:
            break
        stored = latest
    assert stored >= 4


def test_redis_paused_refuses_moves_fast_and_play_resumes_when_it_wakes(
    tmp_path: Path, clients: Clients
) -> None:
    store = RedisServer(tmp_path / "redis", aof=True).start()
    one, two = serve(store.url), serve(store.url)
    try:
        ann, bo, code, match_id = split_room(one, two, clients, rounds=2, turn_seconds=30)
        store.pause()
        try:
            started = time.monotonic()
            ann.send({"type": "pass"})
            assert outcome(ann)["code"] == "server/storage"
            assert time.monotonic() - started <= 1.5, "a move is refused within 1.5 s, not left hanging"
            bo.send({"type": "pass"})  # the other process is not wedged either
            assert outcome(bo)["code"] in ("server/storage", "turn/not_your_turn")
        finally:
            store.resume()
        deadline = time.monotonic() + 20
        while True:
            ann.send({"type": "pass"})
            answer = outcome(ann)
            if answer["type"] == "turn":
                break
            assert answer["code"] == "server/storage", answer
            assert time.monotonic() < deadline, "play never resumed after Redis woke"
            time.sleep(0.2)  # a player's pause before trying again
        assert (answer["turn"], answer["passed"]) == (1, "pass")  # Ann's own pass, not a forfeit
        moves = record(two, match_id)["moves"]
        assert [m["action"] for m in moves] == ["pass"]
    finally:
        one.stop()
        two.stop()
        store.stop()


def test_a_host_moving_from_sqlite_to_redis_copies_every_game_and_players_carry_on(
    redis_url: str, tmp_path: Path, clients: Clients
) -> None:
    from tests import wire

    def copy() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "wibble", "copy", str(tmp_path), redis_url],
            capture_output=True, text=True, timeout=60, cwd=ROOT,
        )  # fmt: skip

    alone = LiveServer("--data-dir", str(tmp_path))
    try:
        player = clients(alone)
        game = wire.new_game(player, seed=4)
        wire.play(player, wire.a_word(game)[1])
        # Copied while the server runs, the copy would miss what it saves next: refused, saying why.
        running = copy()
        assert (running.returncode, running.stdout) == (2, "")
        assert "is serving games from" in running.stderr
        assert "stop it first" in running.stderr
    finally:
        alone.stop()

    copied = copy()
    assert copied.returncode == 0, copied.stderr
    assert "copied 1 document (1 game) and 1 recorded move" in copied.stdout

    # The host starts the old server once more, a word is played, and copies again: the word is kept.
    alone = LiveServer("--data-dir", str(tmp_path))
    try:
        player = clients(alone)
        snapshot = player.ask(wire.resume_of(game))
        found = {entry["word"].casefold() for entry in snapshot["found"]}
        path = next(path for word, path in wire.words_on(snapshot, "en") if word.casefold() not in found)
        assert wire.play(player, path)[1]["result"] == "scored"
        before = wire.resume_state(lambda: clients(alone), game)
    finally:
        alone.stop()
    again = copy()
    assert again.returncode == 0, again.stderr
    assert "1 of them replaced an earlier copy there" in again.stdout

    shared = serve(redis_url)
    try:
        assert wire.resume_state(lambda: clients(shared), game) == before  # the same game, on Redis now
    finally:
        shared.stop()


def test_a_second_server_on_a_folder_takes_its_lock_once_the_first_has_gone(tmp_path: Path) -> None:
    """As in a gunicorn reload: the new worker starts while the old one holds the folder; once the
    old one stops, the new one holds it, and a copy of the folder is still refused."""

    def copy() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "wibble", "copy", str(tmp_path), str(tmp_path / "elsewhere")],
            capture_output=True, text=True, timeout=60, cwd=ROOT,
        )  # fmt: skip

    first = LiveServer("--data-dir", str(tmp_path))
    second = LiveServer("--data-dir", str(tmp_path))
    try:
        first.stop()
        deadline = time.monotonic() + 10
        while (refused := copy()).returncode != 2:  # the second takes the lock within a second or so
            assert time.monotonic() < deadline, refused.stdout + refused.stderr
            time.sleep(0.3)
        assert "is serving games from" in refused.stderr
    finally:
        first.stop()
        second.stop()
    assert copy().returncode == 0  # nobody serves from it now


def test_an_addresss_budgets_hold_across_both_processes_together(redis_url: str) -> None:
    # LiveServer's roomy budgets are overridden: 3 connections and 2 new rooms a minute per address.
    tight = {"WIBBLE_MAX_CONNECTIONS_PER_ADDRESS": "3", "WIBBLE_ROOMS_PER_MINUTE": "2"}
    one, two = serve(redis_url, **tight), serve(redis_url, **tight)
    held: list[Client] = []
    try:
        held += [Client(one.ws_url), Client(one.ws_url), Client(two.ws_url)]
        for n, client in enumerate(held[:2]):
            assert client.ask({"type": "create_room", "name": f"P{n}", "rules": {}})["type"] == "room"
        refused = held[2].ask({"type": "create_room", "name": "P2", "rules": {}})  # on the other process
        assert (refused["type"], refused["code"]) == ("error", "limit/rooms")

        extra = Client(two.ws_url)  # a fourth connection, to the process that has only one of them
        held.append(extra)
        refused = extra.recv()
        assert (refused["type"], refused["code"]) == ("error", "limit/connections")
    finally:
        for client in held:
            client.close()
        one.stop()
        two.stop()


def test_a_dead_processs_connections_stop_counting_once_it_is_gone(redis_url: str) -> None:
    tight = {"WIBBLE_MAX_CONNECTIONS_PER_ADDRESS": "2"}
    one, two = serve(redis_url, **tight), serve(redis_url, **tight)
    held: list[Client] = []
    try:
        held += [Client(one.ws_url), Client(one.ws_url)]
        assert held[0].ask({"type": "new_game"})["type"] == "game"
        one.kill()  # SIGKILL: it never says goodbye; its liveness key runs out (10 s)
        deadline = time.monotonic() + 30
        while True:
            client = Client(two.ws_url)
            reply = client.ask({"type": "new_game"})
            client.close()
            if reply["type"] == "game":
                break
            assert reply["code"] == "limit/connections", reply
            assert time.monotonic() < deadline, "a dead process's connections were counted for ever"
            time.sleep(0.5)  # a player's pause before trying again
    finally:
        for client in held:
            try:
                client.close()
            except OSError:
                pass
        one.stop()
        two.stop()


def test_a_process_paused_past_its_lease_is_taken_over_and_its_stale_work_refused_when_it_wakes(
    redis_url: str, clients: Clients
) -> None:
    one, two = serve(redis_url, **SLOW_BOTS), serve(redis_url, **SLOW_BOTS)
    paused: LiveServer | None = None
    try:
        ann, bo, code, match_id = split_room(one, two, clients, bot="easy", rounds=1)
        play(ann, (bo,))
        play(bo, (ann,))

        ann.last("chain", lambda m: m.get("seat") == 2 and len(m["chain"]) >= 1)
        pid = claim_holder(redis_url, match_id)
        paused, awake = (one, two) if pid == one.process.pid else (two, one)
        paused.process.send_signal(signal.SIGSTOP)  # frozen mid-drag, its claim running out
        watcher = ann if awake is one else bo
        watcher.last("played", lambda m: m["seat"] == 2)  # the other process played the bot's turn
        paused.process.send_signal(signal.SIGCONT)  # it wakes and carries on with what it had

        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # give the woken process every chance to commit twice
            moves = record(awake, match_id)["moves"]
            assert [m["seat"] for m in moves if m["action"] == "play"] == [0, 1, 2]
            if health(paused)["ok"]:
                break
        moves = record(awake, match_id)["moves"]
        assert [m["seat"] for m in moves if m["action"] == "play"] == [0, 1, 2], "the bot played once"
    finally:
        if paused is not None:
            paused.process.send_signal(signal.SIGCONT)
        one.stop()
        two.stop()


def test_one_seat_racing_the_same_word_from_two_processes_commits_it_once(
    processes: tuple[LiveServer, LiveServer], clients: Clients
) -> None:
    one, two = processes
    ann, bo, code, match_id = split_room(one, two, clients)
    again = join(two, clients, code, "Ann", token=ann.token)  # Ann's second tab, on the other process
    again.last("match")
    (r, c), *rest = a_path(ann)
    drags = [
        [{"type": "press", "row": r, "col": c}, *({"type": "enter", "row": y, "col": x} for y, x in rest)]
        for _ in (ann, again)
    ]
    for moves in zip(*drags, strict=True):  # both tabs drag the same word, step by step...
        ann.send(moves[0])
        again.send(moves[1])
    ann.send({"type": "release", "seq": 901})  # ...and let go at once
    again.send({"type": "release", "seq": 902})

    answers = [answer(tab, seq) for tab, seq in ((ann, 901), (again, 902))]  # each tab's own answer
    assert sorted(a["type"] for a in answers) == ["error", "played"], answers
    bo.last("turn")  # the turn passed to Bo once, for the one word played
    plays = [m for m in record(one, match_id)["moves"] if m["action"] == "play"]
    assert len(plays) == 1, "one word, played once"
    assert bo.turn["turn"] == 1


@contextmanager
def room_on_one_of_two(
    redis_url: str, clients: Clients, grace: str, empty: str
) -> Iterator[tuple[LiveServer, Seat, Seat, str, Any]]:
    """Two processes with short room times; Ann (host) and Bo seated in a room on the first.
    Yields the first process, Ann, Bo, the room's key in Redis and a Redis client."""
    import redis

    quick = {"WIBBLE_ROOM_GRACE_SECONDS": grace, "WIBBLE_ROOM_EMPTY_SECONDS": empty}
    one, two = serve(redis_url, **quick), serve(redis_url, **quick)
    try:
        ann, code = create(one, clients)
        bo = join(one, clients, code, "Bo")
        sit(bo, 1)
        with redis.Redis.from_url(redis_url, decode_responses=True) as admin:
            yield one, ann, bo, f"wibble:{{room:{code}}}", admin
    finally:
        one.stop()
        two.stop()


def test_a_room_everyone_left_closes_on_time_though_its_process_was_killed_and_no_other_held_it(
    redis_url: str, clients: Clients
) -> None:
    with room_on_one_of_two(redis_url, clients, grace="1", empty="4") as (one, ann, bo, key, admin):
        ann.client.close()
        bo.client.close()
        for _ in range(100):  # the last to leave marks the room empty, in its document
            doc = json.loads(admin.hget(key, "doc") or "{}")
            if doc.get("empty_since") is not None:
                break
            time.sleep(0.05)
        emptied = doc["empty_since"]
        one.kill()  # the only process that held the room; nobody opens it again

        while admin.exists(key) and time.time() < emptied + 30:
            time.sleep(0.1)
        closed = time.time()
        assert not admin.exists(key), "the room was never closed"
    assert closed >= emptied + 4  # at its time, not before...
    assert closed < emptied + 4 + 10  # ...and soon after (the other process looks every 2 s)


def test_people_whose_process_was_killed_are_held_for_by_another_that_never_held_their_room(
    redis_url: str, clients: Clients
) -> None:
    with room_on_one_of_two(redis_url, clients, grace="2", empty="4") as (one, ann, bo, key, admin):

        def seats() -> list[Any]:
            return list(json.loads(admin.hget(key, "doc") or '{"seats": []}')["seats"][:2])

        one.kill()  # with Ann and Bo connected to it; neither comes back
        killed = time.time()
        while seats() and not all(s and s.get("grace_until") for s in seats()):
            time.sleep(0.1)
            assert time.time() < killed + 30, "nobody started their grace periods"
        held = time.time()
        while admin.exists(key):  # then the room stands empty, and closes
            time.sleep(0.1)
            assert time.time() < held + 30, "the room was never closed"
    # Not before the dead process's liveness ran out (10 s), nor long after.
    assert killed + 9 < held < killed + 10 + 6


def first_dailies_at_once(redis_url: str) -> tuple[list[Message], list[str]]:
    """On a fresh store, two fresh processes each asked for a daily board at the same moment:
    the boards they answered, and each one's log."""
    with redis.Redis.from_url(redis_url) as store:
        store.flushall()
    servers: list[LiveServer] = []
    players: list[Client] = []
    boards: list[Message] = [{}, {}]
    together = threading.Barrier(2)

    def draw(seat: int) -> None:
        together.wait(10)
        boards[seat] = players[seat].ask(
            {"type": "new_daily", "player": f"p{seat}-" + "x" * 29, "name": "Ann"}
        )

    try:
        # Both started together: each start is a second or more of a busy machine's time.
        starting = [threading.Thread(target=lambda: servers.append(serve(redis_url))) for _ in range(2)]
        for thread in starting:
            thread.start()
        for thread in starting:
            thread.join(60)
        assert len(servers) == 2, "a server did not start"
        players.extend(Client(server.ws_url) for server in servers)
        threads = [threading.Thread(target=draw, args=(seat,)) for seat in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(20)
    finally:
        for client in players:
            client.close()
        for server in servers:
            server.stop()
    return boards, ["".join(server.output) for server in servers]


def test_two_processes_drawing_their_first_daily_board_at_the_same_moment_draw_the_same(
    redis_url: str,
) -> None:
    """The host's daily key is made by the first process to draw a daily board. Two drawing their
    first at once, on a fresh store, must meet on one key (the store's create decides), or the
    players on one process would play another "daily" board than those on the other. (Whether the
    creates meet in a round is up to timing: about one round in three did when this was written;
    tests/live/test_daily.py makes them meet every time, on one process.)"""
    for round_no in range(3):  # the two creates meet in about one round of three
        (one, two), logs = first_dailies_at_once(redis_url)
        assert (one.get("type"), two.get("type")) == ("game", "game"), (one, two)
        assert one["board"] == two["board"], f"round {round_no}"
        made = [log for log in logs if re.search(r"\d\d:\d\d:\d\d INFO made this host's key", log)]
        assert len(made) == 1, logs  # one key made, as the host's log says (with its time)
