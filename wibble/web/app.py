"""``create_app``: defaults, then ``WIBBLE_*`` environment variables, then the caller's overrides."""

from __future__ import annotations

import base64
import binascii
import logging
import time
from ipaddress import IPv6Address, ip_address, ip_network
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, jsonify, redirect, render_template, request
from flask_sock import Sock
from wsproto.utilities import RemoteProtocolError

from .. import protocol, wordnet
from ..cache import from_setting
from ..core import RecordError, WibbleError
from ..core.room import is_code
from ..definitions import Definitions
from ..engines import Engines, MemoryEngines
from ..engines.claims import LEASE
from ..engines.store import Store, default_data_dir, open_store
from ..live import BotPace, Limits, LiveSettings, RoomLimits, Router, wire
from ..live.race_replay import RaceReplays, finished_race, race_record
from ..live.records import MatchReplays, match_record, record_of, replay_frames
from ..live.rooms import room_id
from ..wordlists import DEFAULT_DIR, WordLists
from .assets import IMMUTABLE, REVALIDATE, Assets, Pages, is_version
from .connection import Connections, serve_connection, transport_socket, tune_socket

ROOT = Path(__file__).resolve().parents[2]

log = logging.getLogger(__name__)

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
    # Host names the page may be served under, e.g. ["wibble.example.org"]. An address
    # (192.168.1.20, [::1]) and localhost always are; any other name must be listed, since
    # a DNS-rebinding page can point a name of its own at this server (see origin_allowed).
    "ALLOWED_HOSTS": [],
    # Where games are saved: None for $XDG_DATA_HOME/wibble (else ~/.local/share/wibble);
    # "" keeps them in memory only, and they are lost when the server stops.
    "DATA_DIR": None,
    # Redis shared by several server processes (redis://HOST:PORT/DB), in place of DATA_DIR:
    # every game, match and room, who is connected, and every deadline (docs/deploy.md).
    "REDIS_URL": "",
    # With several processes: how long one process's claim on a deadline (a turn timer, a bot's
    # turn) holds without renewal, so how late a deadline runs when the process holding it dies.
    "DEADLINE_LEASE_SECONDS": LEASE,
    "RETENTION_DAYS": 30.0,  # a saved game nobody has opened for this long is deleted
    "IDLE_TIMEOUT": 3600.0,  # seconds a game with nobody connected stays in memory (it stays saved)
    "MAX_GAMES": 10_000,  # games held in memory at once; unattended ones make room (they stay saved)
    # What one client address may do (token buckets; see wibble/live/budgets.py).
    "MAX_CONNECTIONS_PER_ADDRESS": 50,
    "GAMES_PER_MINUTE": 60,  # new games per address
    "FAILED_RESUMES_PER_MINUTE": 30,  # wrong ids or tokens per address, before resumes are refused
    "BOARD_BUILDS_PER_SECOND": 100,  # new games for the whole server
    "HANDSHAKE_TIMEOUT": 10.0,  # seconds a client has to send its whole HTTP request
    # Plain HTTP connections (pages, records; not websockets) one address may hold open at once.
    "HTTP_CONNECTIONS_PER_ADDRESS": 50,
    # Proxies (addresses or networks) whose X-Forwarded-For names the real client.
    "TRUSTED_PROXIES": [],
    # Words every board (new or refilled) must allow, else it is drawn again; 0 turns this off.
    # A board with few words is a dull game; at 30, fewer than 1 English board in 100 is redrawn.
    "MIN_BOARD_WORDS": 30,
    # How long a bot in a match thinks before it plays (seconds: a number, or a range "1.5-3"),
    # and how long each tile of its drag takes, so that people can watch it spell its word.
    "BOT_THINK_SECONDS": "1.5-3",
    "BOT_STEP_SECONDS": 0.25,
    "ROUND_PAUSE_SECONDS": 3.0,  # between a match's rounds, while the page shows the scores
    # Rooms (docs/protocol.md, "Rooms"): how long an away person's seat is held before a
    # stand-in bot plays it, how long a room nobody is in is kept, and how many may be open.
    "ROOM_GRACE_SECONDS": 120.0,
    "ROOM_EMPTY_SECONDS": 1800.0,
    "MAX_ROOMS": 1000,
    "ROOM_MAX_SPECTATORS": 200,  # people watching one room at once
    "ROOM_SPECTATORS_PER_ADDRESS": 10,  # people watching one room from one address
    "ROOMS_PER_MINUTE": 5,  # new rooms per address
    # The daily board (/daily): how long its sprint lasts, and how many scored attempts one
    # address may start a day (one per player; more from an address shared by a household).
    "DAILY_SECONDS": 180,
    "DAILY_ATTEMPTS_PER_ADDRESS": 10,
    # Seconds a race's minute lasts: a room's 1, 2 or 3-minute race runs that many of these
    # (60: as it says; a test, or a host who wants quick races, makes it shorter).
    "RACE_MINUTE_SECONDS": 60,
    "FAILED_JOINS_PER_MINUTE": 20,  # wrong room codes or seat tokens per address, before joins are refused
    "DEFINITIONS_PER_MINUTE": 120,  # words one address may look up (docs/protocol.md, "Definitions")
    # WordNet's database, for English lists' definitions: None finds it where Debian's wordnet-base
    # puts it (/usr/share/wordnet) and other usual places; "" goes without (docs/deploy.md).
    "WORDNET_DIR": None,
    "RATE_LIMIT": 40.0,  # messages a second per connection, sustained...
    "RATE_BURST": 80.0,  # ...with bursts up to this many
    "FLOOD_CLOSE": 400,  # refused messages (within ~10 s) before the connection is closed
    "OUTBOX_LIMIT": 256,  # messages queued for a client that is not reading, before it is dropped
    "SEND_TIMEOUT": 10.0,  # seconds one send may wait for a client to read, before it is dropped
    # Seconds a connection may send nothing before it is closed (1008): the page sends a `ping`
    # at least every 10 s, so only a client that vanished (or never pings) stays silent this long.
    "SILENCE_TIMEOUT": 30.0,
    # flask-sock's options for every websocket: the largest message (1009 past it), and no
    # websocket pings: the page's own heartbeat does their work (docs/protocol.md, "Heartbeat"),
    # and the library's pings put a select() before every read.
    "SOCK_SERVER_OPTIONS": {"max_message_size": protocol.MAX_FRAME_BYTES, "ping_interval": None},
}


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        static_folder=None,  # served by _add_static, fingerprinted and compressed
        template_folder=str(ROOT / "templates"),
    )
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("WIBBLE")
    if test_config:
        app.config.from_mapping(test_config)
    _check_config(app.config)

    cache = from_setting(app.config["CACHE_DIR"])
    wordlists = WordLists(Path(app.config["WORDS_DIR"]), app.config["DEFAULT_WORDLIST"], cache=cache)
    engines: Engines
    if app.config["REDIS_URL"]:
        # Only then: without --redis, the redis package need not be installed.
        from ..engines.redis import open_engines

        engines = redis_engines = open_engines(app.config["REDIS_URL"])
        store: Store = redis_engines.store
    else:
        engines = MemoryEngines.of(time.monotonic, time.time)
        data_dir = app.config["DATA_DIR"]
        store = open_store(default_data_dir() if data_dir is None else data_dir)
    limits = Limits(
        app.config["MAX_CONNECTIONS_PER_ADDRESS"],
        app.config["GAMES_PER_MINUTE"],
        app.config["FAILED_RESUMES_PER_MINUTE"],
        app.config["BOARD_BUILDS_PER_SECOND"],
        app.config["ROOMS_PER_MINUTE"],
        app.config["FAILED_JOINS_PER_MINUTE"],
        app.config["DEFINITIONS_PER_MINUTE"],
    )
    settings = LiveSettings(
        idle_timeout=app.config["IDLE_TIMEOUT"],
        max_games=app.config["MAX_GAMES"],
        min_words=app.config["MIN_BOARD_WORDS"],
        limits=limits,
        pace=BotPace(app.config["BOT_THINK_SECONDS"], app.config["BOT_STEP_SECONDS"]),
        round_pause=app.config["ROUND_PAUSE_SECONDS"],
        lease=app.config["DEADLINE_LEASE_SECONDS"],
        daily_seconds=app.config["DAILY_SECONDS"],
        daily_per_address=app.config["DAILY_ATTEMPTS_PER_ADDRESS"],
        race_minute=app.config["RACE_MINUTE_SECONDS"],
        rooms=RoomLimits(
            app.config["ROOM_GRACE_SECONDS"],
            app.config["ROOM_EMPTY_SECONDS"],
            app.config["MAX_ROOMS"],
            app.config["ROOM_MAX_SPECTATORS"],
            app.config["ROOM_SPECTATORS_PER_ADDRESS"],
        ),
    )
    definitions = Definitions(wordlists, None if cache is None else cache.directory, _wordnet(app.config))
    router = wire(
        store,
        wordlists,
        clock=time.monotonic,
        wall_clock=time.time,
        settings=settings,
        engines=engines,
        definitions=definitions,
    )
    engines.start(on_beat=router.notice_departed, on_revived=router.revived, on_resubscribe=router.catch_up)
    connections = Connections(app.config["SEND_TIMEOUT"])
    app.extensions.update(
        {
            "wibble.live": router,
            "wibble.store": store,
            "wibble.wordlists": wordlists,
            "wibble.definitions": definitions,
            "wibble.connections": connections,
            "wibble.engines": engines,
            "wibble.host_refusals": HostRefusals(app.config["ALLOWED_HOSTS"]),
        }
    )
    _add_static(app, Assets(ROOT / "static"))
    _add_pages(app, wordlists, router)
    _add_records(app, wordlists, router)
    _add_guards(app)
    _add_websocket(app, router, connections)
    return app


def _add_static(app: Flask, assets: Assets) -> None:
    """The static files under this release's version (``static_url`` in the templates), cached for a
    year; under an older version, a redirect to this one's; under no version (an old page's
    link), this release's file, asked again each time."""
    app.extensions["wibble.assets"] = assets
    app.add_template_global(assets.url, "static_url")
    app.add_template_global(assets.imports, "static_imports")

    @app.get("/static/<path:filename>")
    def static(filename: str) -> Any:
        version, _, name = filename.partition("/")
        if not (is_version(version) and name):
            if filename not in assets.files:
                abort(404)
            return assets.response(request, filename, REVALIDATE)
        if name not in assets.files:
            abort(404)
        if version != assets.version:
            # A page of an older release: its modules import each other relatively, so sending it
            # to this release's copy keeps every import of the page inside one version.
            moved = redirect(assets.url(name), 302)
            moved.headers["Cache-Control"] = REVALIDATE
            return moved
        return assets.response(request, name, IMMUTABLE)

    @app.get("/sw.js")
    def service_worker() -> Response:
        """The service worker, at the root so that every page is in its scope: it keeps this
        release's files (it names them, so a release changes it and browsers install the new one)
        and the offline page. Asked again each time, as browsers do for service workers anyway."""
        script = render_template(
            "sw.js", version=assets.version, offline="/offline", files=[assets.url(n) for n in assets.files]
        )
        response = Response(script, mimetype="text/javascript")
        response.headers["Cache-Control"] = REVALIDATE
        response.add_etag()
        response.make_conditional(request)
        return response

    @app.get("/offline")
    def offline() -> str:
        """What the service worker shows when the server cannot be reached."""
        page: str = render_template("offline.html")
        return page

    pages = Pages()

    @app.after_request
    def pages_are_asked_again(response: Response) -> Response:
        """A page names this release's files, so it is never kept without asking (``no-cache``); its
        ETag makes the asking cheap (a 304 when the page has not changed). Gzipped when accepted."""
        if response.mimetype == "text/html" and response.status_code == 200 and not response.is_streamed:
            response.headers.setdefault("Cache-Control", REVALIDATE)
            pages.respond(request, response)
        return response


def _add_pages(app: Flask, wordlists: WordLists, live: Router) -> None:
    """The game's page, a room's link and the health check."""
    store = live.store

    refusals: HostRefusals = app.extensions["wibble.host_refusals"]

    def page_config(**extra: Any) -> dict[str, Any]:
        """What the page is told: the word lists, and whether its websocket will be refused because
        the name it was opened under is not trusted (it then says so, instead of retrying for ever)."""
        lists = [{"name": i.name, "title": i.title, "language": i.language} for i in wordlists.info()]
        config: dict[str, Any] = {"wordlists": lists, "default_wordlist": wordlists.default, **extra}
        refused = refusals.check(urlsplit(request.host_url).hostname)
        if refused is not None:
            config["refused_host"] = refused
        return config

    @app.get("/")
    def index() -> str:
        return render_template("index.html", config=page_config())

    @app.get("/daily")
    def daily_page() -> str:
        """The daily board: the same page, opening on today's board (one board a day for everyone)."""
        return render_template("index.html", config=page_config(daily=True))

    @app.get("/r/<code>")
    def room_page(code: str) -> str:
        """A room's link: the same page, told which room to join, and whether there is none (the page
        then says so at once, before it asks a name). The join checks the code again: the room may
        close meanwhile."""
        code = code.upper()[:16]
        config = page_config(room=code)
        if not room_may_exist(live, code, client_address(request.environ, app.config["TRUSTED_PROXIES"])):
            config["room_gone"] = True
        return render_template("index.html", config=config)

    @app.get("/healthz")
    def health() -> dict[str, Any]:
        # Which engine, not where: the database's path tells a stranger about the host's disk.
        return {"ok": True, "games": len(live.games), "rooms": len(live.rooms), "store": store.engine}


def _add_records(app: Flask, wordlists: WordLists, live: Router) -> None:
    """A game's, match's or race's record, its replay, and the replay page."""
    store = live.store
    match_replays = MatchReplays(wordlists)
    race_replays = RaceReplays(wordlists)

    @app.get("/games/<game_id>/record")
    def record(game_id: str) -> tuple[Any, int] | Any:
        """Everything needed to replay a game, never its token: an id lets anyone watch, not play.
        A race's (its runners' game records) only once it is over, as its replay."""
        try:
            return jsonify(_record(store, game_id))
        except WibbleError as exc:
            return _error_response(exc)

    @app.get("/games/<game_id>/replay")
    def replay_data(game_id: str) -> tuple[Any, int] | Any:
        """The record played back on this server: the board before every move, for the replay page.
        A match's replay is played from its public record alone, so only once it is over; a race's
        from its runners' records, once it is over too."""
        try:
            record = match_record(store, game_id)
            if record is not None:
                return Response(match_replays.json(game_id, record), mimetype="application/json")
            race = finished_race(store, game_id)
            if race is not None:
                return Response(race_replays.json(store, race), mimetype="application/json")
            return jsonify(replay_frames(record_of(store, game_id, time.time()), wordlists))
        except KeyError:
            return _error_response(WibbleError("game/unavailable", "this game's word list is gone"))
        except WibbleError as exc:
            return _error_response(exc)

    @app.get("/replay/<game_id>")
    def replay_page(game_id: str) -> str | tuple[str, int]:
        """A game's replay page, a match's or a race's: one address for all, as "Your games" and the
        end screens link them."""
        try:
            row = store.load(game_id)
        except WibbleError:  # a damaged row, a store that failed: the page asks, and says why
            row = None
        else:
            # No such game: a page that says so, with nothing to play on it. A room or a day's
            # leaderboard has no replay, and answers as nothing at all: else this page would tell
            # anyone, unmetered, which room codes are open (``room_may_exist`` meters the guesses).
            if row is None or row.kind in ("room", "daily"):
                return render_template("replay_missing.html"), 404
        kind = None if row is None else row.kind
        template = {"match": "match_replay.html", "race": "race_replay.html"}.get(kind or "", "replay.html")
        page: str = render_template(template, config={"game_id": game_id})
        return page


def _record(store: Store, game_id: str) -> dict[str, Any]:
    """The record of the match, race or game ``game_id`` names (a race's only once it is over)."""
    record = match_record(store, game_id)
    if record is not None:
        return record
    race = finished_race(store, game_id)
    return race_record(store, race) if race is not None else record_of(store, game_id, time.time()).to_doc()


def room_may_exist(live: Router, code: str, address: str) -> bool:
    """False when ``code`` names no room: it has not a code's shape, or the store holds no room of
    that id. A code of the right shape that names none counts against ``address``'s failed joins,
    as a wrong code sent on the websocket does, so that pages do not become a way to guess codes
    past that budget; once it is spent, or when the store cannot be read, nothing is told here
    (True), and the page's join is answered as before."""
    if not is_code(code):
        return False
    try:
        live.budgets.check_join(address)
        row = live.store.load(room_id(code))
    except WibbleError:
        return True
    if row is not None and row.kind == "room":
        return True
    live.budgets.failed_join(address)
    return False


class HostRefusals:
    """Which host names a page was refused under, each logged once, with the setting that admits it:
    a host who opens the game by a name the server does not trust learns why, and how to fix it."""

    def __init__(self, allowed: list[str]) -> None:
        self.allowed = allowed
        self._logged: set[str] = set()

    def check(self, name: str | None) -> str | None:
        """None when ``name`` is trusted; else the name, logged the first time it is refused."""
        if host_trusted(name, self.allowed):
            return None
        refused = (name or "").lower().rstrip(".")
        if refused not in self._logged and len(self._logged) < 100:
            self._logged.add(refused)
            log.warning(
                "refused the host name %r: pages opened under it cannot play (a name nobody listed could be"
                " a DNS-rebinding page's). If it is this server's name, start it with"
                " WIBBLE_ALLOWED_HOSTS=%s (or wibble serve --host %s)",
                refused,
                refused or "NAME",
                refused or "NAME",
            )
        return refused


def _add_guards(app: Flask) -> None:
    """Headers on every response, and the checks a websocket handshake must pass."""
    refusals: HostRefusals = app.extensions["wibble.host_refusals"]

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
        if not handshake_readable(request.headers):
            # Left to the websocket library, a malformed handshake is a 500 and a traceback.
            return "This is Wibble's websocket endpoint; open the game's page instead.\n", 400
        origin = request.headers.get("Origin")
        if not origin_allowed(
            origin, request.host_url, app.config["ALLOWED_ORIGINS"], app.config["ALLOWED_HOSTS"]
        ):
            if origin is not None and _netloc(origin) == request.host:
                refusals.check(urlsplit(request.host_url).hostname)  # the page's own name: say why
            abort(403)
        sock = transport_socket(request.environ)
        if sock is None:
            return "This server does not hand websockets to the app; run `wibble serve`.\n", 501
        # Compression is never agreed: the library would accept permessage-deflate when offered, and
        # inflate before checking the size, so a 4 KB compressed frame could become megabytes. Our
        # messages are small; the offer is removed before flask-sock reads the handshake.
        request.environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
        tune_socket(sock)
        return None


def _add_websocket(app: Flask, live: Router, connections: Connections) -> None:
    trusted = app.config["TRUSTED_PROXIES"]
    sock = Sock()

    @sock.route("/ws")  # type: ignore[untyped-decorator]
    def ws(websocket: Any) -> None:
        # Deadlines (turn timers, bots) run in the serving process, however it was started:
        # `wibble serve`, gunicorn, or `flask run`.
        live.timers.start()
        address = client_address(request.environ, trusted)
        serve_connection(websocket, request.environ, live, app.config, address, connections)

    @app.errorhandler(RemoteProtocolError)
    def unreadable_handshake(exc: RemoteProtocolError) -> tuple[str, int]:
        # A handshake the guard let through and the library still could not read: a 400 and one
        # line, not a 500 and a traceback a client could repeat to fill the log.
        log.info("refused a websocket handshake the library could not read: %s", exc)
        return "This is Wibble's websocket endpoint; open the game's page instead.\n", 400

    sock.init_app(app)


_STATUS = {
    "game/not_found": 404,
    "game/unavailable": 409,
    "record/wordlist_changed": 409,
    "record/mismatch": 409,
    "record/match": 409,
    "record/in_progress": 409,
    "record/incomplete": 409,
    "server/storage": 503,
}


def _error_response(exc: WibbleError) -> tuple[Any, int]:
    status = _STATUS.get(exc.code, 400 if isinstance(exc, RecordError) else 500)
    return jsonify(protocol.error(exc)), status


def client_address(environ: dict[str, Any], trusted: list[str]) -> str:
    """The client's address: the peer's, or the one a trusted proxy says it forwarded for.

    X-Forwarded-For is read right to left, skipping the trusted proxies, so a client
    cannot pick its own address by sending the header itself.
    """
    peer: str = environ.get("REMOTE_ADDR") or ""
    if not trusted or not is_trusted(peer, trusted):
        return peer
    hops = [hop.strip() for hop in environ.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not is_trusted(hop, trusted):
            return str(hop)
    return hops[0] if hops else peer


def is_trusted(address: str, trusted: list[str]) -> bool:
    try:
        ip = ip_address(address)
    except ValueError:
        return False
    # A server listening on :: sees an IPv4 peer as ::ffff:a.b.c.d; a host names it a.b.c.d.
    if isinstance(ip, IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in ip_network(net, strict=False) for net in trusted)


class ConfigError(WibbleError):
    """A setting has a value the server cannot use."""

    def __init__(self, message: str) -> None:
        super().__init__("config/invalid", message)


_POSITIVE_NUMBERS = {
    "IDLE_TIMEOUT": float,
    "RETENTION_DAYS": float,
    "MAX_GAMES": int,
    "MAX_CONNECTIONS_PER_ADDRESS": float,
    "GAMES_PER_MINUTE": float,
    "FAILED_RESUMES_PER_MINUTE": float,
    "BOARD_BUILDS_PER_SECOND": float,
    "HANDSHAKE_TIMEOUT": float,
    "HTTP_CONNECTIONS_PER_ADDRESS": float,
    "ROOM_GRACE_SECONDS": float,
    "ROOM_EMPTY_SECONDS": float,
    "MAX_ROOMS": int,
    "ROOM_MAX_SPECTATORS": int,
    "ROOM_SPECTATORS_PER_ADDRESS": int,
    "ROOMS_PER_MINUTE": float,
    "DAILY_SECONDS": int,
    "DAILY_ATTEMPTS_PER_ADDRESS": int,
    "RACE_MINUTE_SECONDS": int,
    "FAILED_JOINS_PER_MINUTE": float,
    "DEFINITIONS_PER_MINUTE": float,
    "RATE_LIMIT": float,
    "RATE_BURST": float,
    "FLOOD_CLOSE": int,
    "OUTBOX_LIMIT": int,
    "SEND_TIMEOUT": float,
    "DEADLINE_LEASE_SECONDS": float,
    "SILENCE_TIMEOUT": float,
}


def _check_config(config: dict[str, Any]) -> None:
    """Turn settings into the types the server uses, or say which one is wrong (not a traceback later)."""
    for key, kind in _POSITIVE_NUMBERS.items():
        config[key] = _positive(key, kind, config[key])
    config["MIN_BOARD_WORDS"] = _whole_number("MIN_BOARD_WORDS", config["MIN_BOARD_WORDS"])
    config["BOT_THINK_SECONDS"] = _seconds_range("BOT_THINK_SECONDS", config["BOT_THINK_SECONDS"])
    config["BOT_STEP_SECONDS"] = _seconds_range("BOT_STEP_SECONDS", config["BOT_STEP_SECONDS"])[0]
    config["ROUND_PAUSE_SECONDS"] = _seconds_range("ROUND_PAUSE_SECONDS", config["ROUND_PAUSE_SECONDS"])[0]
    config["ALLOWED_ORIGINS"] = _text_list(
        "ALLOWED_ORIGINS", config["ALLOWED_ORIGINS"], "origins like https://example.org"
    )
    config["ALLOWED_HOSTS"] = [
        name.lower().rstrip(".")
        for name in _text_list("ALLOWED_HOSTS", config["ALLOWED_HOSTS"], "host names like wibble.example.org")
    ]
    config["TRUSTED_PROXIES"] = _text_list(
        "TRUSTED_PROXIES", config["TRUSTED_PROXIES"], "addresses or networks like 10.0.0.1"
    )
    for proxy in config["TRUSTED_PROXIES"]:
        try:
            ip_network(proxy, strict=False)
        except ValueError:
            raise ConfigError(f"WIBBLE_TRUSTED_PROXIES: {proxy!r} is not an address or network") from None
    cache_dir = config["CACHE_DIR"]
    if not (cache_dir is None or cache_dir is False or isinstance(cache_dir, str)):
        raise ConfigError("WIBBLE_CACHE_DIR must be a folder path (or empty to turn the cache off)")
    if not isinstance(config["REDIS_URL"], str):
        raise ConfigError("WIBBLE_REDIS_URL must be an address like redis://localhost:6379/0")
    if not (config["DATA_DIR"] is None or isinstance(config["DATA_DIR"], str)):
        # WIBBLE_DATA_DIR=123 arrives as a number, =true as a bool: neither is a folder the host meant.
        raise ConfigError("WIBBLE_DATA_DIR must be a folder path (or empty to keep games in memory only)")


def _wordnet(config: dict[str, Any]) -> Path | None:
    """WordNet's folder as the host set it (``WORDNET_DIR``), else where it is usually installed."""
    setting = config["WORDNET_DIR"]
    if setting == "" or setting is False:
        return None
    if not (setting is None or isinstance(setting, str)):
        raise ConfigError("WIBBLE_WORDNET_DIR must be a folder path (or empty to go without WordNet)")
    try:
        folder = wordnet.find(setting)
    except FileNotFoundError as exc:
        raise ConfigError(f"WIBBLE_WORDNET_DIR: {exc}") from None
    if folder is None:
        log.warning(
            "no WordNet database found (Debian: apt install wordnet-base): English lists have no definitions"
        )
    return folder


def _positive(key: str, kind: type, value: Any) -> Any:
    try:
        # int() would round 1.5 down, silently: not what the host meant.
        if isinstance(value, bool) or (kind is int and isinstance(value, float) and not value.is_integer()):
            raise ValueError
        number = kind(value)
        if not number > 0:
            raise ValueError
    except (TypeError, ValueError):
        raise ConfigError(f"WIBBLE_{key} must be a positive number, not {value!r}") from None
    return number


def _text_list(key: str, value: Any, what: str) -> list[str]:
    """A list of strings, from a list or from comma-separated text (WIBBLE_X=a,b)."""
    if isinstance(value, str):
        value = [item.strip() for item in value.split(",") if item.strip()]
    if not isinstance(value, list | tuple) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"WIBBLE_{key} must be a list of {what}")
    return list(value)


def _seconds_range(key: str, value: Any) -> tuple[float, float]:
    """Seconds, 0 to 60: a number (exactly that) or a range "low-high" (anything between)."""
    try:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, list | tuple):
            low, high = (float(v) for v in value)
        elif isinstance(value, str) and "-" in value.strip().lstrip("-"):
            low, high = (float(v) for v in value.split("-", 1))
        else:
            low = high = float(value)
        if not 0 <= low <= high <= 60:
            raise ValueError
    except (TypeError, ValueError):
        raise ConfigError(
            f"WIBBLE_{key} must be seconds (0-60) or a range like 1.5-3, not {value!r}"
        ) from None
    return low, high


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


HANDSHAKE_LISTS = ("Connection", "Upgrade", "Sec-WebSocket-Protocol", "Sec-WebSocket-Extensions")
"""The handshake's headers the websocket library reads as comma-separated ASCII lists."""


def handshake_readable(headers: Any) -> bool:
    """Whether a websocket handshake is one the library can read: a Host, an upgrade to websocket,
    version 13, a key of 16 bytes in base64 (RFC 6455 4.2.1), and its list headers in ASCII.
    Anything else is answered 400 here: the library would raise on it (a 500 and a traceback in
    the log for each such request)."""
    key = headers.get("Sec-WebSocket-Key", "")
    try:
        sixteen = len(base64.b64decode(key, validate=True)) == 16
    except (ValueError, binascii.Error):
        sixteen = False
    return (
        sixteen
        and bool(headers.get("Host"))  # (HTTP/1.0 may leave it out; the library cannot do without)
        and headers.get("Upgrade", "").lower() == "websocket"
        and headers.get("Sec-WebSocket-Version") == "13"
        and all(headers.get(name, "").isascii() for name in HANDSHAKE_LISTS)
    )


def _netloc(url: str) -> str | None:
    """The host and port of ``url``, or None if no URL parser can read it (``http://[zz]``)."""
    try:
        return urlsplit(url).netloc
    except ValueError:
        return None


def origin_allowed(origin: str | None, host_url: str, allowed: list[str], hosts: list[str]) -> bool:
    """Whether a websocket handshake comes from the game's own page (or an allow-listed origin).

    Browsers always send Origin on a websocket; other clients may omit it (and could forge it).
    Origin matching the request's own Host is not enough on its own: a page at
    http://evil.example:8000 whose DNS name is then re-pointed at this server (rebinding)
    sends a Host and an Origin that agree. So the Host must also be a name the server trusts.
    """
    if origin is None:
        return True
    if origin.rstrip("/") in {a.rstrip("/") for a in allowed}:
        return True
    try:
        mine, theirs = urlsplit(host_url), urlsplit(origin)
        name = mine.hostname
    except ValueError:  # an Origin or a Host no URL parser can read (``http://[::1``): not ours
        return False
    same = (theirs.scheme, theirs.netloc) in {("http", mine.netloc), ("https", mine.netloc)}
    return same and host_trusted(name, hosts)


def host_trusted(name: str | None, hosts: list[str]) -> bool:
    """An address (nobody can re-point one), localhost (browsers resolve it themselves), or a
    name the host listed in ``ALLOWED_HOSTS`` (or gave as ``wibble serve --host``)."""
    if not name:
        return False
    name = name.lower().rstrip(".")
    if name == "localhost" or name in hosts:
        return True
    try:
        ip_address(name)
    except ValueError:
        return False
    return True


def trust_listening_name(config: dict[str, Any], host: str) -> None:
    """A name given to ``wibble serve --host`` is the server's own: its page may be served under
    it without listing it in ``ALLOWED_HOSTS`` (addresses and localhost need no listing)."""
    name = host.lower().rstrip(".")
    if name and not host_trusted(name, config["ALLOWED_HOSTS"]):
        config["ALLOWED_HOSTS"].append(name)
