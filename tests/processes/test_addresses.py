"""Every address the server prints works, and a name it refuses is explained once, to the host and
to the player, instead of a page that reconnects for ever."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from websocket import WebSocketBadStatusException, create_connection

from tests.support import LiveServer


def page_config(port: int, name: str, path: str = "/") -> dict[str, Any]:
    """The page's config as a browser that opened ``http://name:port/`` gets it (asked through
    loopback with that Host: a test reaches no other network)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Host": f"{name}:{port}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        html = response.read().decode()
    found = re.search(r'<script id="wibble-config" type="application/json">(.*?)</script>', html, re.S)
    assert found, html[:300]
    config: dict[str, Any] = json.loads(found.group(1))
    return config


def plays(port: int, name: str) -> bool:
    """Whether the page's websocket, opened as the page at ``http://name:port/`` opens it, is let in."""
    try:
        ws = create_connection(
            f"ws://127.0.0.1:{port}/ws", host=f"{name}:{port}", origin=f"http://{name}:{port}", timeout=10
        )
    except WebSocketBadStatusException as exc:
        if exc.status_code != 403:
            raise
        return False
    try:
        ws.send(json.dumps({"type": "ping"}))
        return json.loads(ws.recv()) == {"type": "pong"}
    finally:
        ws.close()


@pytest.fixture
def everywhere() -> Iterator[LiveServer]:
    server = LiveServer("--host", "0.0.0.0", "--data-dir", "")
    yield server
    server.stop()


def printed_addresses(server: LiveServer) -> list[str]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for line in list(server.output):
            if line.startswith("Other devices on your network:"):
                return re.findall(r"http://\S+/", line)
        time.sleep(0.05)
    raise AssertionError("no 'Other devices' line in:\n" + "".join(server.output))


def test_every_address_a_server_on_all_interfaces_prints_opens_a_game_that_plays(
    everywhere: LiveServer,
) -> None:
    port = int(everywhere.url.rsplit(":", 1)[1])
    urls = printed_addresses(everywhere)
    assert urls, "it printed no address for other devices"
    for url in urls:
        name = urlsplit(url).hostname
        assert name is not None
        assert urlsplit(url).port == port
        assert "refused_host" not in page_config(port, name), url
        assert plays(port, name), url


def test_a_refused_name_is_told_to_the_page_and_logged_once_with_the_setting_that_admits_it() -> None:
    server = LiveServer("--data-dir", "")
    try:
        port = int(server.url.rsplit(":", 1)[1])
        for path in ("/", "/daily", "/"):
            assert page_config(port, "mybox.example", path)["refused_host"] == "mybox.example"
        assert not plays(port, "mybox.example")
        assert "refused_host" not in page_config(port, "localhost")
        assert plays(port, "localhost")
        time.sleep(0.2)  # (the server's log lines are read by a thread)
        lines = [line for line in server.output if "WIBBLE_ALLOWED_HOSTS=mybox.example" in line]
        assert len(lines) == 1, server.output
    finally:
        server.stop()
    # Listed, the same name plays.
    listed = LiveServer("--data-dir", "", env={"WIBBLE_ALLOWED_HOSTS": "mybox.example"})
    try:
        port = int(listed.url.rsplit(":", 1)[1])
        assert "refused_host" not in page_config(port, "mybox.example")
        assert plays(port, "mybox.example")
    finally:
        listed.stop()
