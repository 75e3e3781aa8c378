"""The two tiers (tests/tiers.py): a test lands in the second by what it uses, and the fast tier
starts no server, Redis, nginx or browser, or fails saying where the test belongs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests import tiers
from tests.support import LiveServer


@pytest.mark.parametrize(
    ("path", "fixtures", "params", "second"),
    [
        ("core/test_game.py", ["tmp_path"], [], False),
        ("web/test_pages.py", ["client", "monkeypatch"], ["sqlite"], False),
        ("live/test_rooms.py", ["start", "new_store"], ["memory"], False),
        ("live/test_rooms.py", ["start", "new_store"], ["redis"], True),  # its fixture asks for redis_url
        ("store/test_contract.py", ["store", "open_store"], ["redis", 3], True),
        ("core/test_tiers.py", ["command"], ["redis-server --port 0"], False),  # a word, not the engine
        ("web/test_pages.py", ["connect", "server"], [], True),
        ("engines/test_bus.py", ["redis_url"], [], True),
        ("core/test_cli.py", ["start_server"], [], True),
        ("processes/test_play.py", [], [], True),
        ("e2e/test_play.py", ["page"], [], True),
    ],
)
def test_a_test_is_in_the_second_tier_by_its_folder_its_fixtures_or_its_redis_case(
    path: str, fixtures: list[str], params: list[object], second: bool
) -> None:
    assert tiers.is_second_tier(Path(path), fixtures, params) is second


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, "-m", "wibble", "serve", "--port", "0"],
        ["/venv/bin/wibble", "serve"],
        ["/usr/bin/redis-server", "--port", "0"],
        ["nginx", "-p", "/tmp", "-c", "nginx.conf"],
        [sys.executable, "-m", "gunicorn", "wibble.web:app"],
        [sys.executable, "-m", "flask", "--app", "wibble.web:create_app", "run"],
        "redis-server --port 0",
    ],
)
def test_a_fast_test_that_starts_a_server_fails_naming_where_it_belongs(command: list[str] | str) -> None:
    assert tiers.starts_a_server(command)
    with pytest.raises(tiers.ServerInFastTier, match="tests/processes/"):  # (this test is in the fast tier)
        subprocess.Popen(command)


def test_a_live_server_cannot_start_in_the_fast_tier() -> None:
    with pytest.raises(tiers.ServerInFastTier, match="test_a_live_server_cannot_start_in_the_fast_tier"):
        LiveServer()


def test_other_programs_still_run_in_the_fast_tier() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "wibble", "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert "serve" in done.stdout


def test_the_fast_tiers_selection_holds_no_test_of_the_second(request: pytest.FixtureRequest) -> None:
    """Marked before ``-m`` selects: ``-m "not processes"`` (``make fast``) leaves no marked test."""
    items = request.session.items
    assert request.node in items
    marked = [item for item in items if item.get_closest_marker(tiers.MARKER)]
    if request.config.getoption("markexpr") == f"not {tiers.MARKER}":
        assert marked == []
    for item in items:
        folder = item.path.relative_to(Path(__file__).parent).parts[0]
        if folder in tiers.SECOND_TIER_FOLDERS:
            assert item in marked, item.nodeid


def test_the_second_tier_is_split_by_what_may_run_beside_what() -> None:

    # The live layer on Redis: nothing but a redis-server, so with the fast tier, on every core.
    assert tiers.runs_in_process(Path("live/test_rooms.py"), ["redis_url", "clock"])
    # A server process of ours, or a browser: not in-process.
    assert not tiers.runs_in_process(Path("live/test_x.py"), ["redis_url", "start_server"])
    assert not tiers.runs_in_process(Path("processes/test_play.py"), ["redis_url"])
    assert not tiers.runs_in_process(Path("e2e/test_play.py"), ["page"])
    assert tiers.in_browser(Path("e2e/test_play.py"))
    assert not tiers.in_browser(Path("processes/test_play.py"))
