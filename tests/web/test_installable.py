"""What makes Wibble installable, as served: the manifest and its icons, the service worker, the
offline page."""

from __future__ import annotations

import json
import struct

import pytest
from flask import Flask
from flask.testing import FlaskClient

from wibble.web import app as web_app
from wibble.web import icons


def manifest_url(client: FlaskClient) -> str:
    html = client.get("/").get_data(as_text=True)
    return html.split('<link rel="manifest" href="')[1].split('"')[0]


def test_the_manifest_says_how_wibble_installs(client: FlaskClient, app: Flask) -> None:
    url = manifest_url(client)
    response = client.get(url)

    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    assert "immutable" in response.headers["Cache-Control"]
    manifest = json.loads(response.data)
    assert (manifest["name"], manifest["start_url"], manifest["scope"]) == ("Wibble", "/", "/")
    assert manifest["display"] == "standalone"
    folder = url.rsplit("/", 1)[0]
    for icon in manifest["icons"]:
        image = client.get(f"{folder}/{icon['src']}")
        assert image.status_code == 200
        assert image.mimetype == icon["type"]
        if icon["type"] == "image/png":
            width, height = struct.unpack(">II", image.data[16:24])
            assert f"{width}x{height}" == icon["sizes"]
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])


@pytest.mark.parametrize("name", ["icon.svg", *(f"icon-{size}.png" for size in icons.SIZES)])
def test_the_committed_icons_are_what_the_drawing_makes(name: str) -> None:
    """python -m wibble.web.icons static/icons writes them again after a change to the drawing."""
    committed = (web_app.ROOT / "static" / "icons" / name).read_bytes()
    drawn = icons.svg().encode() if name.endswith(".svg") else icons.png(int(name[5:-4]))
    assert committed == drawn


def test_the_service_worker_is_at_the_root_and_keeps_this_releases_files(
    client: FlaskClient, app: Flask
) -> None:
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    script = response.get_data(as_text=True)
    assets = app.extensions["wibble.assets"]
    for name in ("js/main.js", "css/wibble.css", "manifest.webmanifest", "icons/icon-192.png"):
        assert json.dumps(assets.url(name)) in script
    assert '"/offline"' in script
    again = client.get("/sw.js", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_the_offline_page_needs_nothing_but_this_releases_files(client: FlaskClient, app: Flask) -> None:
    response = client.get("/offline")

    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-cache"
    assert "Playing needs the server" in html
    assets = app.extensions["wibble.assets"]
    assert assets.url("css/wibble.css") in html
    # Its one script (the theme) is this release's, which the service worker keeps.
    assert html.count("<script") == 1
    assert assets.url("js/theme.js") in html
