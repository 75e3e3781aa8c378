"""The page itself, as a browser fetches it: the word-list picker's data and the safety headers."""

from __future__ import annotations

import json
import re
import urllib.request

from tests.support import LiveServer


def fetch(url: str) -> tuple[int, dict[str, str], str]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, dict(response.headers), response.read().decode()


def test_the_page_lists_every_word_list_with_its_title(server: LiveServer) -> None:
    status, _, html = fetch(server.url + "/")
    assert status == 200
    config = json.loads(
        re.search(r'id="wibble-config" type="application/json">(.*?)</script>', html).group(1)
    )
    titles = {entry["name"]: entry["title"] for entry in config["wordlists"]}
    assert titles == {"en": "English (ENABLE)", "en-easy": "English, everyday words", "es": "Español"}
    assert config["default_wordlist"] == "en"


def test_the_page_may_only_load_its_own_scripts_and_talk_to_its_own_server(server: LiveServer) -> None:
    _, headers, _ = fetch(server.url + "/")
    policy = headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "connect-src 'self'" in policy
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_the_scripts_are_served_as_javascript_modules(server: LiveServer) -> None:
    for name in ("main", "protocol", "connection", "store", "view", "input"):
        status, headers, body = fetch(f"{server.url}/static/js/{name}.js")
        assert status == 200
        assert "javascript" in headers["Content-Type"]
        assert body.strip()
