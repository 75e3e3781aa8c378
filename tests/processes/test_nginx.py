"""nginx in front of processes that die, restart or pause, configured as docs/deploy/nginx.conf
says (``Deployment``: that very file, only its ports changed), with real ``wibble serve --redis``
processes and a real redis-server.

A page, a game's record or a health check must never get a 502 while some process is up (a
process restarted a moment ago included), nor wait on a paused process for more than a few
seconds; a game's websocket, quiet but for the page's pings, must still stay open.
"""

from __future__ import annotations

import os
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.deployment import Deployment
from tests.support import Client, LiveServer
from tests.wire import new_game

# How Deployment starts its processes (a restarted one must be started the same way).
BEHIND = {"WIBBLE_TRUSTED_PROXIES": "127.0.0.1"}
# The slowest a request through nginx may be while one process is paused: nginx gives a process up
# after its 5 s proxy_read_timeout and asks another, which answers in milliseconds. A request
# that waits for the paused process itself would wait an hour.
BOUND = 6.0
# The test's own patience for one request: past the bound, and short enough that a config which
# sends requests to the paused process for good fails in seconds, not minutes.
PATIENCE = 10.0
# A config that makes requests wait: given up on after this many, the rest would only repeat.
GIVE_UP_AFTER = 3

Sites = Callable[[int], Deployment]


@pytest.fixture
def sites(redis_url: str, tmp_path: Path) -> Iterator[Sites]:
    """Start a deployment of ``n`` processes; at the end, stopped ones woken (a stopped process
    does not even hear SIGTERM) and everything stopped."""
    started: list[Deployment] = []

    def start(processes: int) -> Deployment:
        folder = tmp_path / f"site{len(started)}"
        folder.mkdir()
        started.append(Deployment(redis_url, folder, processes=processes))
        return started[-1]

    yield start
    for site in started:
        for server in site.servers:
            if server.alive():
                os.kill(server.process.pid, signal.SIGCONT)
        site.stop()


def get(url: str) -> tuple[int | str, float]:
    """The status of a GET (or why there was none) and the seconds it took."""
    began = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE) as response:
            response.read()
            status: int | str = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except OSError as exc:  # (a timeout among them)
        status = f"{type(exc).__name__}: {exc}"
    return status, time.monotonic() - began


def a_recorded_game(site: Deployment) -> str:
    """A game started through nginx's websocket: the id whose record any process can serve."""
    client = Client(site.ws_url)
    try:
        game_id = str(new_game(client)["game_id"])
    finally:
        client.close()
    assert get(f"{site.url}/games/{game_id}/record")[0] == 200
    return game_id


def pages(game_id: str) -> list[str]:
    """What a player's browser asks for over plain HTTP, in turn."""
    return ["/", "/healthz", "/daily", f"/games/{game_id}/record"]


def restart(site: Deployment, index: int, redis_url: str) -> None:
    """Start process ``index`` again on its own port, as a host's service manager would after it
    died: nginx's upstream block still names that port."""
    dead = site.servers[index]
    dead.stop()  # (it is dead already: this only closes its output)
    port = dead.url.rsplit(":", 1)[1]
    site.servers[index] = LiveServer("--redis", redis_url, "--port", port, env=BEHIND)


def tail(path: Path, lines: int = 8) -> str:
    try:
        return "\n".join(path.read_text().splitlines()[-lines:]) or "(empty)"
    except OSError as exc:
        return f"({exc})"


def test_processes_killed_and_restarted_one_after_another_never_cost_a_502(
    sites: Sites, redis_url: str, tmp_path: Path
) -> None:
    """A rolling restart, as a host's deploy or crashes make one: each of three processes killed
    (SIGKILL) and started again on its port, then two killed at once. While some process is up,
    every request is answered by one, though nginx saw each of them refuse a connection
    moments ago."""
    site = sites(3)
    paths = pages(a_recorded_game(site))
    statuses: list[int | str] = []
    slowest = 0.0

    def requests(count: int) -> None:
        nonlocal slowest
        for n in range(count):
            status, seconds = get(site.url + paths[n % len(paths)])
            statuses.append(status)
            slowest = max(slowest, seconds)

    began = time.monotonic()
    for index in (0, 1):  # one down at a time, each back on its port before the next goes
        site.servers[index].kill()
        requests(10)
        restart(site, index, redis_url)
    site.servers[2].kill()  # then two down at once: only process 1, restarted just now, is up
    site.servers[0].kill()
    requests(10)
    took = time.monotonic() - began

    bad = [status for status in statuses if status != 200]
    figures = (
        f"{statuses.count(502)} of {len(statuses)} requests got 502, {len(bad)} not 200; "
        f"slowest {slowest:.2f} s; all in {took:.1f} s"
    )
    print(f"\nnginx, processes killed: {figures}")
    assert bad == [], f"{figures}\n{statuses}\nnginx's error log:\n{tail(tmp_path / 'site0' / 'error.log')}"
    assert slowest < BOUND, figures


def test_a_paused_process_delays_no_request_more_than_a_few_seconds(sites: Sites, tmp_path: Path) -> None:
    """One of two processes stopped (SIGSTOP: its kernel still accepts connections, nothing
    answers them): nginx gives it up after a few seconds and asks the other, and soon stops
    asking it at all."""
    site = sites(2)
    paths = pages(a_recorded_game(site))
    os.kill(site.servers[0].process.pid, signal.SIGSTOP)

    answers: list[tuple[int | str, float]] = []
    began = time.monotonic()
    for n in range(20):
        answers.append(get(site.url + paths[n % len(paths)]))
        if sum(seconds > BOUND for _, seconds in answers) >= GIVE_UP_AFTER:
            break
    took = time.monotonic() - began

    statuses = [status for status, _ in answers]
    slowest = max(seconds for _, seconds in answers)
    late = sum(seconds > BOUND for _, seconds in answers)
    figures = (
        f"{len(answers)} requests: {statuses.count(200)} answered 200, {late} over {BOUND:.0f} s; "
        f"slowest {slowest:.2f} s; all in {took:.1f} s"
    )
    print(f"\nnginx, a process paused: {figures}")
    detail = f"{figures}\n{[(s, round(t, 2)) for s, t in answers]}"
    assert len(answers) == 20, f"given up after {GIVE_UP_AFTER} slow requests: {detail}"
    assert statuses == [200] * 20, f"{detail}\nnginx's error log:\n{tail(tmp_path / 'site0' / 'error.log')}"
    assert slowest <= BOUND, detail
    assert site.servers[0].alive(), "the stopped process died"


# An idle page's pings (docs/protocol.md, "Heartbeat": one when it has heard nothing for 5 s, or
# sent nothing for 10 s): the longest silence between two, twice location /'s read timeout.
IDLE_GAPS = (10.0,)


def test_a_quiet_websocket_through_nginx_stays_open(sites: Sites) -> None:
    """The websocket keeps its long timeouts: the short ones that give up on a silent page request
    must not cut a game whose socket carries only pings for a while."""
    site = sites(2)
    client = Client(site.ws_url)
    try:
        game = new_game(client)
        client.ws.settimeout(PATIENCE)
        for gap in IDLE_GAPS:
            time.sleep(gap)  # the silence itself is what is tested
            client.send({"type": "ping"})
            while client.recv()["type"] != "pong":  # (a timer's news may come first)
                pass
        client.send({"type": "resume", "game_id": game["game_id"], "token": game["token"]})
        assert client.recv()["type"] == "game", "the same socket, still playing"
    finally:
        client.close()
