"""A page opened by a name the server does not trust says why it cannot play, and how the host
fixes it, instead of reconnecting for ever (Chromium resolves any *.localhost name to loopback)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, WebSocket, expect

from tests.support import LiveServer

pytestmark = pytest.mark.e2e


def test_a_page_under_a_refused_name_says_why_and_tries_no_websocket(page: Page, server: LiveServer) -> None:
    sockets: list[WebSocket] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    port = server.url.rsplit(":", 1)[1]
    page.goto(f"http://wibble.localhost:{port}/")
    banner = page.get_by_test_id("connection-status")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("does not accept the address “wibble.localhost”")
    expect(banner).to_contain_text("WIBBLE_ALLOWED_HOSTS=wibble.localhost")
    expect(page.locator('[data-action="retry"]')).to_be_hidden()
    page.wait_for_timeout(1500)  # (a page that retried would have opened a socket by now)
    assert sockets == []


def test_the_same_page_under_localhost_plays(page: Page, server: LiveServer) -> None:
    port = server.url.rsplit(":", 1)[1]
    page.goto(f"http://localhost:{port}/")
    expect(page.get_by_text(re.compile(r"\d+ words to find"))).to_be_visible()  # a game came over the socket
    expect(page.get_by_test_id("connection-status")).to_be_hidden()
