"""The Flask app as ``create_app`` builds it, with games saved under ``tmp_path`` and no list cache."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.live.players import Player
from wibble.web import create_app

AppFactory = Callable[..., Flask]


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[AppFactory]:
    """``create_app`` with a fresh data folder and no list cache, plus any settings; stores closed after."""
    made: list[Flask] = []

    def make(**settings: Any) -> Flask:
        app = create_app({"DATA_DIR": str(tmp_path / "data"), "CACHE_DIR": "", **settings})
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["wibble.store"].close()


@pytest.fixture
def app(make_app: AppFactory) -> Flask:
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def player(app: Flask) -> Player:
    """Someone playing on this app's server, as its websocket handler would pass their messages on."""
    return Player(app.extensions["wibble.live"])
