"""The page's own files as a real Chromium fetches them: compressed the first time, and not
asked for again on the next visit."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.wibble_page import WibblePage
from tests.support import LiveServer

pytestmark = pytest.mark.e2e


class NetworkLog:
    """Every request of one page for a static file, as Chromium's network layer reports it: from the
    server, or from the memory or disk cache."""

    def __init__(self, page: Page) -> None:
        self.responses: list[dict[str, Any]] = []
        self.from_memory: list[str] = []
        session = page.context.new_cdp_session(page)
        session.send("Network.enable")
        session.on("Network.responseReceived", self._response)
        session.on(
            "Network.requestServedFromCache", lambda event: self.from_memory.append(event["requestId"])
        )

    def _response(self, event: dict[str, Any]) -> None:
        if "/static/" in event["response"]["url"]:
            self.responses.append(event)

    def clear(self) -> None:
        self.responses.clear()
        self.from_memory.clear()

    def from_server(self) -> list[dict[str, Any]]:
        """The static responses that came over the network (not out of a cache)."""
        return [
            event
            for event in self.responses
            if not event["response"].get("fromDiskCache")
            and not event["response"].get("fromServiceWorker")
            and event["requestId"] not in self.from_memory
        ]


def test_a_second_visit_asks_the_server_for_no_static_file(browser: Browser, server: LiveServer) -> None:
    # Only the HTTP cache here: the service worker's own cache is tested in test_installable.py.
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        log = NetworkLog(page)
        WibblePage(page).open(server.url)

        first = log.from_server()
        assert {e["response"]["url"].rsplit("/", 1)[1] for e in first} >= {
            "main.js",
            "store.js",
            "wibble.css",
        }
        for event in first:
            headers = {k.lower(): v for k, v in event["response"]["headers"].items()}
            assert headers["content-encoding"] == "gzip", event["response"]["url"]
            assert "immutable" in headers["cache-control"]

        page.close()
        # The player comes back later, in a new tab: out of the disk cache, without asking.
        again = context.new_page()
        log = NetworkLog(again)
        WibblePage(again).open(server.url)

        assert len(log.responses) == len(first)
        assert [e["response"]["url"] for e in log.from_server()] == []
        # And a reload asks again for the page only: every file is kept as it was.
        log.clear()
        again.reload()
        WibblePage(again).wait_idle()
        assert [e["response"]["url"] for e in log.from_server()] == []
    finally:
        context.close()
