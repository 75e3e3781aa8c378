"""Wibble as an installed app: a manifest Chromium accepts, and a service worker that keeps the
page's files and, with no connection, shows our page instead of the browser's error."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import free_port
from tests.e2e.wibble_page import WibblePage
from tests.support import LiveServer

pytestmark = pytest.mark.e2e


def wait_for_service_worker(page: Page) -> None:
    """Until the service worker has kept the files and controls this page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_the_manifest_is_one_chromium_accepts_for_installing(page: Page, server: LiveServer) -> None:
    WibblePage(page).open(server.url)
    session = page.context.new_cdp_session(page)

    manifest: dict[str, Any] = session.send("Page.getAppManifest")
    data = json.loads(manifest["data"])

    assert manifest["errors"] == []
    assert data["name"] == "Wibble"
    assert data["display"] == "standalone"
    assert data["start_url"] == "/"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        response = page.request.get(manifest["url"].rsplit("/", 1)[0] + "/" + icon["src"])
        assert response.ok, icon
        assert response.headers["content-type"].startswith(icon["type"])
    # What Chromium checks before it offers "Install": a manifest, icons, a service worker.
    wait_for_service_worker(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # (Playwright's contexts are incognito ones, where nothing installs: the one error allowed.)
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []


def test_with_no_connection_a_reload_shows_our_page_saying_play_needs_the_server(
    page: Page, server: LiveServer, console_errors: list[str]
) -> None:
    game = WibblePage(page).open(server.url)
    wait_for_service_worker(page)
    page.evaluate("() => localStorage.setItem('wibble.settings', JSON.stringify({theme: 'dark'}))")

    page.context.set_offline(True)
    page.reload()

    offline = page.get_by_test_id("offline")
    expect(offline).to_contain_text("Playing needs the server")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")  # the player's theme
    # Drawn with the page's own stylesheet, out of the service worker's cache.
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('.offline')).borderTopLeftRadius")
        != "0px"
    )

    page.context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    game.wait_idle()
    console_errors.clear()  # Chromium logs the failed requests of the offline reload


def test_a_server_that_is_down_shows_our_page_too(
    page: Page, server_on: Callable[..., LiveServer], console_errors: list[str]
) -> None:
    port = free_port()
    live = server_on(port)
    WibblePage(page).open(live.url)
    wait_for_service_worker(page)
    live.stop()

    page.reload()

    expect(page.get_by_test_id("offline")).to_contain_text("No connection to Wibble's server")
    console_errors.clear()
