"""One way to open a Redis client, with settings measured for a game server.

redis-py's defaults left a call hanging for about a minute against a paused Redis, and
its default pool refused connections beyond its size under load. So: a short socket
timeout with one retry (a paused or lost Redis fails a move in about a second, and the
player hears ``server/storage``), and a blocking pool (a burst of greenlets waits its
turn for a connection instead of failing).
"""

from __future__ import annotations

import importlib.util
from typing import Any

from .store.base import StoreOpenError

SOCKET_TIMEOUT = 0.5
"""Seconds a call waits for Redis before it is tried once more, then refused."""
POOL_SIZE = 64
POOL_WAIT = 1.0
"""Seconds a greenlet waits for a free connection from the pool."""


def redis_available() -> bool:
    return importlib.util.find_spec("redis") is not None


def connect(url: str, **overrides: Any) -> Any:
    """A client for ``url`` (``redis://HOST:PORT/DB``), checked with a PING; ``StoreOpenError`` with
    a one-line reason if the package is missing or the server does not answer."""
    if not redis_available():
        raise StoreOpenError(
            "--redis needs the redis package: pip install 'wibble[redis]' (or `pip install redis`)"
        )
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    settings: dict[str, Any] = {
        "socket_timeout": SOCKET_TIMEOUT,
        "socket_connect_timeout": SOCKET_TIMEOUT,
        "retry": Retry(NoBackoff(), 1),
        "max_connections": POOL_SIZE,
        "timeout": POOL_WAIT,
        "decode_responses": True,
        "health_check_interval": 30,
    }
    settings.update(overrides)
    try:
        pool = redis.BlockingConnectionPool.from_url(url, **settings)
        client = redis.Redis(connection_pool=pool)
        client.ping()
    except ValueError as exc:
        raise StoreOpenError(f"--redis {url!r} is not a Redis address: {exc}") from None
    except redis.RedisError as exc:
        raise StoreOpenError(f"cannot reach Redis at {url}: {exc}") from None
    return client
