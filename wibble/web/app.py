"""``create_app``: defaults, then ``WIBBLE_*`` environment variables, then the caller's overrides."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, render_template, request
from flask_sock import Sock

from .. import protocol
from ..cache import from_setting
from ..core import WibbleError
from ..sessions import Lobby
from ..wordlists import DEFAULT_DIR, WordLists
from .connection import serve_connection

ROOT = Path(__file__).resolve().parents[2]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'none'"
)

DEFAULTS: dict[str, Any] = {
    "WORDS_DIR": str(DEFAULT_DIR),
    "DEFAULT_WORDLIST": None,  # None: "en" if the folder has it, else its first list
    # Where compiled word lists are kept between runs (also read by `wibble solve` and
    # `wibble wordlists`). None: $XDG_CACHE_HOME/wibble, else ~/.cache/wibble; "" turns it off.
    "CACHE_DIR": None,
    # Origins allowed to open the websocket besides the page's own, e.g. ["https://example.org"].
    "ALLOWED_ORIGINS": [],
    "IDLE_TIMEOUT": 3600.0,  # seconds a game with nobody connected is kept
    "MAX_GAMES": 10_000,
    # Words every board (new or refilled) must allow, else it is drawn again; 0 turns this off.
    # A board with few words is a dull game; at 30, fewer than 1 English board in 100 is redrawn.
    "MIN_BOARD_WORDS": 30,
    "RATE_LIMIT": 40.0,  # messages a second per connection, sustained...
    "RATE_BURST": 80.0,  # ...with bursts up to this many
    "FLOOD_CLOSE": 400,  # refused messages (within ~10 s) before the connection is closed
    # Bytes a second a connection may send, all frames counted (pings too): past it, reads wait.
    "READ_BYTES_PER_SECOND": 8192,
    "READ_BURST_BYTES": 32768,
    "OUTBOX_LIMIT": 256,  # messages queued for a client that is not reading, before it is dropped
    "SOCK_SERVER_OPTIONS": {"max_message_size": protocol.MAX_FRAME_BYTES, "ping_interval": 25},
}


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        static_folder=str(ROOT / "static"),
        template_folder=str(ROOT / "templates"),
    )
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("WIBBLE")
    if test_config:
        app.config.from_mapping(test_config)
    _check_config(app.config)

    cache = from_setting(app.config["CACHE_DIR"])
    wordlists = WordLists(Path(app.config["WORDS_DIR"]), app.config["DEFAULT_WORDLIST"], cache=cache)
    lobby = Lobby(
        wordlists,
        clock=time.monotonic,
        idle_timeout=float(app.config["IDLE_TIMEOUT"]),
        max_games=int(app.config["MAX_GAMES"]),
        min_words=app.config["MIN_BOARD_WORDS"],
    )
    app.extensions["wibble.lobby"] = lobby

    @app.get("/")
    def index() -> str:
        lists = [{"name": i.name, "title": i.title, "language": i.language} for i in wordlists.info()]
        return render_template(
            "index.html",
            config={"wordlists": lists, "default_wordlist": wordlists.default},
        )

    @app.get("/healthz")
    def health() -> dict[str, Any]:
        return {"ok": True, "games": len(lobby)}

    @app.after_request
    def security_headers(response: Response) -> Response:
        # The page loads only its own files and talks only to its own websocket.
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    @app.before_request
    def guard_websocket() -> tuple[str, int] | None:
        if request.path != "/ws":
            return None
        headers = request.headers
        if (
            headers.get("Upgrade", "").lower() != "websocket"
            or not headers.get("Sec-WebSocket-Key")
            or headers.get("Sec-WebSocket-Version") != "13"
        ):
            # Left to the websocket library, a malformed handshake is a 500 and a traceback.
            return "This is Wibble's websocket endpoint; open the game's page instead.\n", 400
        if not origin_allowed(request.headers.get("Origin"), request.host_url, app.config["ALLOWED_ORIGINS"]):
            abort(403)
        # simple-websocket accepts permessage-deflate whenever a client offers it, and
        # inflates before checking the size limit: a 4 KB frame could become megabytes.
        # Our messages are small, so compression is simply not offered back.
        request.environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
        return None

    sock = Sock(app)

    @sock.route("/ws")  # type: ignore[untyped-decorator]
    def ws(connection: Any) -> None:
        serve_connection(connection, lobby, app.config)

    return app


class ConfigError(WibbleError):
    """A setting has a value the server cannot use."""

    def __init__(self, message: str) -> None:
        super().__init__("config/invalid", message)


_POSITIVE_NUMBERS = {
    "IDLE_TIMEOUT": float,
    "MAX_GAMES": int,
    "RATE_LIMIT": float,
    "RATE_BURST": float,
    "FLOOD_CLOSE": int,
    "OUTBOX_LIMIT": int,
    "READ_BYTES_PER_SECOND": float,
    "READ_BURST_BYTES": float,
}


def _check_config(config: dict[str, Any]) -> None:
    """Turn settings into the types the server uses, or say which one is wrong (not a traceback later)."""
    for key, kind in _POSITIVE_NUMBERS.items():
        value = config[key]
        try:
            if isinstance(value, bool):
                raise ValueError
            number = kind(value)
            if not number > 0:
                raise ValueError
        except (TypeError, ValueError):
            raise ConfigError(f"WIBBLE_{key} must be a positive number, not {value!r}") from None
        config[key] = number
    config["MIN_BOARD_WORDS"] = _whole_number("MIN_BOARD_WORDS", config["MIN_BOARD_WORDS"])
    origins = config["ALLOWED_ORIGINS"]
    if isinstance(origins, str):  # WIBBLE_ALLOWED_ORIGINS=https://a.example,https://b.example
        origins = [origin.strip() for origin in origins.split(",") if origin.strip()]
    if not isinstance(origins, list | tuple) or not all(isinstance(o, str) for o in origins):
        raise ConfigError("WIBBLE_ALLOWED_ORIGINS must be a list of origins like https://example.org")
    config["ALLOWED_ORIGINS"] = list(origins)
    cache_dir = config["CACHE_DIR"]
    if not (cache_dir is None or cache_dir is False or isinstance(cache_dir, str)):
        raise ConfigError("WIBBLE_CACHE_DIR must be a folder path (or empty to turn the cache off)")


def _whole_number(key: str, value: Any) -> int:
    """``value`` as an int >= 0 (from the config, or the text of a ``WIBBLE_*`` variable)."""
    # A bool is an int to Python, and int() would round 2.5 down: neither is what the host meant.
    if isinstance(value, int | str) and not isinstance(value, bool):
        try:
            number = int(value)
        except ValueError:
            pass
        else:
            if number >= 0:
                return number
    raise ConfigError(f"WIBBLE_{key} must be a whole number, 0 or more, not {value!r}")


def origin_allowed(origin: str | None, host_url: str, allowed: list[str]) -> bool:
    """Browsers always send Origin on a websocket; other clients may omit it (and could forge it)."""
    if origin is None:
        return True
    if origin.rstrip("/") in {a.rstrip("/") for a in allowed}:
        return True
    mine, theirs = urlsplit(host_url), urlsplit(origin)
    return (theirs.scheme, theirs.netloc) in {
        ("http", mine.netloc),
        ("https", mine.netloc),
    }
