"""The page's own files as a host (or a proxy) sees them: compressed when asked, kept for a year
under a fingerprinted address, and the pages that name them asked again each time."""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import AppFactory
from wibble.web import app as web_app

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def page_urls(html: str) -> dict[str, str]:
    """The static files a page names, by file name: {"wibble.css": "/static/<version>/css/wibble.css"}."""
    return {url.rsplit("/", 1)[1]: url for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', html)}


def test_the_page_names_its_files_under_one_fingerprinted_prefix(client: FlaskClient, app: Flask) -> None:
    urls = page_urls(client.get("/").get_data(as_text=True))

    version = app.extensions["wibble.assets"].version
    assert set(urls) >= {"wibble.css", "main.js"}
    assert all(url.startswith(f"/static/{version}/") for url in urls.values())
    assert re.fullmatch(r"[0-9a-f]{12}", version)


def test_a_script_is_gzipped_when_the_browser_accepts_it_and_smaller(client: FlaskClient) -> None:
    url = page_urls(client.get("/").get_data(as_text=True))["main.js"]

    plain = client.get(url)
    packed = client.get(url, headers=GZIP)

    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 2
    assert int(packed.headers["Content-Length"]) == len(packed.data)
    assert plain.headers["Vary"] == packed.headers["Vary"] == "Accept-Encoding"
    assert packed.headers["Content-Type"].startswith("text/javascript")
    # Each copy has its own validator: a cache never mistakes one for the other.
    assert plain.headers["ETag"] != packed.headers["ETag"]


def test_a_browser_that_refuses_gzip_gets_the_file_as_it_is(client: FlaskClient) -> None:
    url = page_urls(client.get("/").get_data(as_text=True))["wibble.css"]

    refused = client.get(url, headers={"Accept-Encoding": "gzip;q=0, identity"})

    assert "Content-Encoding" not in refused.headers
    assert refused.data.startswith(b"/*") or b"{" in refused.data[:2000]


def test_fingerprinted_files_are_kept_for_a_year_without_asking(client: FlaskClient) -> None:
    for url in page_urls(client.get("/").get_data(as_text=True)).values():
        response = client.get(url, headers=GZIP)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"


def test_the_pages_are_asked_for_again_and_answered_304_when_unchanged(client: FlaskClient) -> None:
    for path in ("/", "/r/K7QX2M"):
        first = client.get(path)
        assert first.headers["Cache-Control"] == "no-cache"
        etag = first.headers["ETag"]
        again = client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304
        assert again.data == b""


def test_a_changed_file_gives_every_file_a_new_address(
    tmp_path: Path, make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "release"
    shutil.copytree(web_app.ROOT / "static", root / "static")
    shutil.copytree(web_app.ROOT / "templates", root / "templates")
    monkeypatch.setattr(web_app, "ROOT", root)
    before = page_urls(make_app().test_client().get("/").get_data(as_text=True))

    with (root / "static" / "js" / "store.js").open("a") as changed:
        changed.write("\n// the next release\n")
    after_app = make_app()
    after = page_urls(after_app.test_client().get("/").get_data(as_text=True))

    # Not only store.js: main.js imports it relatively, so the whole tree moves together.
    assert before["main.js"] != after["main.js"]
    assert before["wibble.css"] != after["wibble.css"]
    client = after_app.test_client()
    # A page of the old release still gets its files: sent to this release's copy.
    moved = client.get(before["main.js"])
    assert moved.status_code == 302
    assert moved.headers["Location"].endswith(after["main.js"])
    assert moved.headers["Cache-Control"] == "no-cache"
    assert client.get(after["main.js"]).status_code == 200


def test_a_file_without_a_version_is_served_but_asked_for_again(client: FlaskClient) -> None:
    response = client.get("/static/js/main.js")

    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-cache"
    again = client.get("/static/js/main.js", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize(
    "path",
    [
        "/static/js/nothing.js",
        "/static/0123456789ab/js/nothing.js",
        "/static/0123456789ab/",
        "/static/../app.py",
    ],
)
def test_an_unknown_static_file_is_a_404(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_a_page_is_gzipped_when_asked_once_for_every_visitor(client: FlaskClient) -> None:
    plain = client.get("/")
    packed = client.get("/", headers=GZIP)
    again = client.get("/", headers=GZIP)

    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 3
    assert again.data == packed.data
    assert packed.headers["Vary"] == "Accept-Encoding"
    assert packed.headers["ETag"] != plain.headers["ETag"]
    unchanged = client.get("/", headers={**GZIP, "If-None-Match": packed.headers["ETag"]})
    assert unchanged.status_code == 304


def test_the_page_asks_for_every_module_it_imports_at_once(client: FlaskClient, app: Flask) -> None:
    html = client.get("/").get_data(as_text=True)
    preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    prefix = app.extensions["wibble.assets"].prefix

    names = {url.removeprefix(prefix) for url in preloads}
    # store.js is imported by main.js; clock.js only by view/match.js, in an import over several lines.
    assert {"js/store.js", "js/view/wording.js", "js/view/clock.js"} <= names
    assert "js/main.js" not in names  # the script tag asks for it
    assert len(names) == len(preloads)
    for url in preloads:
        assert url.startswith(prefix)
        assert client.get(url).status_code == 200


def test_every_block_of_the_stylesheet_is_closed() -> None:
    """CSS closes a block left open at the end of the file by itself, so an `@media` missing its
    `}` is no error to a browser: it silently takes every rule after it into its condition (a
    merge once put desktop rules under `pointer: coarse` so). Every block closes where it began."""
    css = (web_app.ROOT / "static" / "css" / "wibble.css").read_text(encoding="utf-8")
    depth = 0
    for at, char in enumerate(re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group()), css, flags=re.S)):
        depth += {"{": 1, "}": -1}.get(char, 0)
        assert depth >= 0, f"a }} with no block open, at line {css.count(chr(10), 0, at) + 1}"
    assert depth == 0, f"{depth} block(s) still open at the end of the file"
