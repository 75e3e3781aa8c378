"""Settings a host gives, and the client address the per-address budgets are charged to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import AppFactory
from wibble.web import ConfigError, create_app
from wibble.web.app import client_address, origin_allowed, trust_listening_name

PROXY = "127.0.0.1"
CLIENT = "203.0.113.5"
SPOOFED = "6.6.6.6"  # what a client writes in its own X-Forwarded-For, hoping to be someone else


def environ(peer: str, forwarded: str | None = None) -> dict[str, Any]:
    env = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        env["HTTP_X_FORWARDED_FOR"] = forwarded
    return env


ADDRESSES = [
    # (trusted proxies, peer, X-Forwarded-For, the address budgets are charged to)
    ([], CLIENT, None, CLIENT),
    ([], PROXY, CLIENT, PROXY),  # nobody trusted: the header is anyone's to write
    ([], CLIENT, SPOOFED, CLIENT),
    ([PROXY], PROXY, CLIENT, CLIENT),
    ([PROXY], PROXY, f"{SPOOFED}, {CLIENT}", CLIENT),  # the proxy appended the real peer
    ([PROXY], PROXY, f"{SPOOFED},{CLIENT}", CLIENT),
    ([PROXY, "10.0.0.0/8"], PROXY, f"{SPOOFED}, {CLIENT}, 10.1.2.3", CLIENT),  # two proxies deep
    ([PROXY], "198.51.100.1", SPOOFED, "198.51.100.1"),  # not from the proxy: header ignored
    ([PROXY], PROXY, None, PROXY),
    ([PROXY], PROXY, "", PROXY),
    (["::1"], "::1", "2001:db8::7", "2001:db8::7"),
    # `wibble serve --host ::` listens on IPv4 too, and sees an IPv4 proxy as ::ffff:127.0.0.1.
    ([PROXY], f"::ffff:{PROXY}", CLIENT, CLIENT),
]


@pytest.mark.parametrize(
    ("trusted", "peer", "forwarded", "expected"),
    ADDRESSES,
    ids=[f"trust={','.join(t) or 'none'} peer={p} xff={f}" for t, p, f, _ in ADDRESSES],
)
def test_the_client_address_is_the_right_most_hop_no_trusted_proxy_wrote(
    trusted: list[str], peer: str, forwarded: str | None, expected: str
) -> None:
    assert client_address(environ(peer, forwarded), trusted) == expected


@pytest.mark.parametrize(
    "setting",
    [{"TRUSTED_PROXIES": [PROXY]}, {"TRUSTED_PROXIES": PROXY}, {"TRUSTED_PROXIES": f"{PROXY}, 10.0.0.0/8"}],
    ids=["list", "text", "comma-separated"],
)
def test_a_trusted_proxy_set_in_the_config_is_believed(make_app: AppFactory, setting: dict[str, Any]) -> None:
    app = make_app(**setting)

    trusted = app.config["TRUSTED_PROXIES"]

    assert client_address(environ(PROXY, f"{SPOOFED}, {CLIENT}"), trusted) == CLIENT
    assert client_address(environ(CLIENT, SPOOFED), trusted) == CLIENT


def test_a_trusted_proxy_set_in_the_environment_is_believed(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WIBBLE_TRUSTED_PROXIES", PROXY)

    trusted = make_app().config["TRUSTED_PROXIES"]

    assert client_address(environ(PROXY, f"{SPOOFED}, {CLIENT}"), trusted) == CLIENT


def test_without_trusted_proxies_forwarded_for_is_ignored(make_app: AppFactory) -> None:
    trusted = make_app().config["TRUSTED_PROXIES"]

    assert client_address(environ(PROXY, CLIENT), trusted) == PROXY


BAD_SETTINGS = [
    ("DATA_DIR", 123),
    ("DATA_DIR", True),
    ("DATA_DIR", ["/tmp"]),
    ("TRUSTED_PROXIES", ["not an ip"]),
    ("TRUSTED_PROXIES", "10.0.0.1, proxy.example"),
    ("TRUSTED_PROXIES", [10]),
    ("TRUSTED_PROXIES", 10),
    ("ALLOWED_ORIGINS", 5),
    ("CACHE_DIR", 3),
    ("IDLE_TIMEOUT", 0),
    ("IDLE_TIMEOUT", -5),
    ("IDLE_TIMEOUT", "soon"),
    ("MAX_GAMES", "many"),
    ("MAX_GAMES", 1.5),  # (not rounded down to 1)
    ("RATE_LIMIT", True),
    ("GAMES_PER_MINUTE", None),
    ("MIN_BOARD_WORDS", -1),
    ("MIN_BOARD_WORDS", 2.5),
    ("MIN_BOARD_WORDS", True),
]


@pytest.mark.parametrize(("key", "value"), BAD_SETTINGS)
def test_a_setting_the_server_cannot_use_is_refused_naming_it(
    make_app: AppFactory, key: str, value: Any
) -> None:
    with pytest.raises(ConfigError) as refused:
        make_app(**{key: value})

    assert refused.value.code == "config/invalid"
    assert f"WIBBLE_{key}" in refused.value.message


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [("IDLE_TIMEOUT", "90", 90.0), ("MAX_GAMES", "500", 500), ("MIN_BOARD_WORDS", "0", 0)],
)
def test_numbers_from_the_environment_are_read_as_numbers(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, key: str, text: str, value: float
) -> None:
    monkeypatch.setenv(f"WIBBLE_{key}", text)

    assert make_app().config[key] == value


def test_a_bad_setting_from_the_environment_is_refused_naming_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # were it taken as a folder, it would be made here
    monkeypatch.setenv("WIBBLE_DATA_DIR", "123")  # read as JSON: the number 123

    with pytest.raises(ConfigError, match="WIBBLE_DATA_DIR"):
        create_app({"CACHE_DIR": ""})

    assert not (tmp_path / "123").exists()


def test_a_name_the_server_listens_on_is_trusted_as_its_pages_host(make_app: AppFactory) -> None:
    """``wibble serve --host mybox.lan``: the page opened as http://mybox.lan:8000 may use the
    websocket without the name also being listed in ALLOWED_HOSTS; other names still may not."""
    config = make_app(ALLOWED_HOSTS="games.example").config
    page = "http://mybox.lan:8000"
    assert not origin_allowed(page, page + "/", [], config["ALLOWED_HOSTS"])

    for host in ("MyBox.lan.", "0.0.0.0", "", "games.example"):
        trust_listening_name(config, host)

    assert config["ALLOWED_HOSTS"] == ["games.example", "mybox.lan"]  # no addresses, no repeats
    assert origin_allowed(page, page + "/", [], config["ALLOWED_HOSTS"])
    assert not origin_allowed(
        "http://evil.example:8000", "http://evil.example:8000/", [], config["ALLOWED_HOSTS"]
    )
