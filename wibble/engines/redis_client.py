"""One way to open a Redis client, with settings measured for a game server.

redis-py's defaults left a call hanging for about a minute against a paused Redis, and
its default pool refused connections beyond its size under load. So: a short socket
timeout with one retry (a paused or lost Redis fails a move in about a second, and the
player hears ``server/storage``), and a blocking pool (a burst of greenlets waits its
turn for a connection instead of failing).

An address may name any node of a Redis Cluster: the node is asked (``INFO cluster``), and
then the client is redis-py's cluster client, which learns every node and slot from it and
sends each command to the master of its key's slot. The engines work on either; what
differs is in ``in_cluster``'s callers (keys that must share a slot, the bus's channels).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

from .store.base import StoreOpenError

SOCKET_TIMEOUT = 0.5
"""Seconds a call waits for Redis before it is tried once more, then refused."""
POOL_SIZE = 64
POOL_WAIT = 1.0
"""Seconds a greenlet waits for a free connection from the pool."""


def redis_available() -> bool:
    return importlib.util.find_spec("redis") is not None


def in_cluster(client: Any) -> bool:
    """Whether ``client`` is a Redis Cluster's (``connect`` chose it)."""
    from redis.cluster import RedisCluster

    return isinstance(client, RedisCluster)


def read_many(client: Any, keys: list[str]) -> list[Any]:
    """``MGET`` of ``keys``; in a cluster, where one MGET must keep to one slot, one MGET for
    each slot, sent together (redis-py's ``mget_nonatomic``): values, in the order of ``keys``."""
    if not keys:
        return []
    return list(client.mget_nonatomic(keys) if in_cluster(client) else client.mget(keys))


SLOTS = 16384
"""The hash slots of a Redis Cluster."""


def spread_tags(name: str, count: int) -> list[str]:
    """``count`` hash tags (``{name-N-K}``) whose slots lie one in each of ``count`` equal runs of
    the 16,384: every master that serves a contiguous run of at least two of those (as
    ``redis-cli --cluster create`` and an even resharding give them) serves one of the tags.
    Tags named ``name-N`` alone would hash wherever CRC16 puts them, some masters holding none."""
    from redis.crc import key_slot

    tags = []
    for n in range(count):
        low, high = n * SLOTS // count, (n + 1) * SLOTS // count
        k = 0
        while not low <= key_slot(f"{name}-{n}-{k}".encode()) < high:
            k += 1
        tags.append(f"{{{name}-{n}-{k}}}")
    return tags


def _asks_for_cluster(client: Any) -> bool:
    try:
        return bool(client.info("cluster").get("cluster_enabled"))
    except Exception:  # INFO may be disabled (a managed Redis): then it is a plain Redis
        return False


def _settings(**overrides: Any) -> dict[str, Any]:
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
    return settings


def _cluster_client(url: str, settings: dict[str, Any]) -> Any:
    """A cluster's client, starting from the node at ``url``: every node gets a pool of its own with
    ``settings``, and ``retry`` is the cluster client's own (a command that failed is tried again
    after asking where its slot is now)."""
    import redis

    client = redis.RedisCluster.from_url(url, connection_pool_class=redis.BlockingConnectionPool, **settings)
    client.ping()
    return client


def connect(url: str, **overrides: Any) -> Any:
    """A client for ``url`` (``redis://HOST:PORT/DB``), checked with a PING; a cluster's client if
    the server there is a node of a Redis Cluster. ``StoreOpenError`` with a one-line reason if
    the package is missing or the server does not answer."""
    if not redis_available():
        raise StoreOpenError(
            "--redis needs the redis package: in Wibble's folder, .venv/bin/pip install -e '.[redis]'"
        )
    import redis

    settings = _settings(**overrides)
    try:
        pool = redis.BlockingConnectionPool.from_url(url, **settings)
        client = redis.Redis(connection_pool=pool)
        client.ping()
        if _asks_for_cluster(client):
            client.close()
            client = _cluster_client(url, settings)
    except ValueError as exc:
        raise StoreOpenError(f"--redis {url!r} is not a Redis address: {exc}") from None
    except (redis.RedisError, redis.exceptions.RedisClusterException) as exc:
        raise StoreOpenError(f"cannot reach Redis at {url}: {exc}") from None
    return client


def opener(url: str, client: Any, **overrides: Any) -> Callable[[], Any]:
    """Opens another client like ``client`` (for ``url``) with ``overrides``, each time it is
    called. On a cluster it starts from every node ``client`` knows at that moment, not from
    ``url``'s: that node may have failed since, and ``client`` learns each failover as it meets it."""
    if not in_cluster(client):
        return lambda: connect(url, **overrides)

    def open_cluster() -> Any:
        import redis

        failed: Exception = StoreOpenError(f"no node of the cluster at {url} answers")
        for node in client.get_nodes():
            try:
                return _cluster_client(f"redis://{node.host}:{node.port}/0", _settings(**overrides))
            except (redis.RedisError, redis.exceptions.RedisClusterException) as exc:
                failed = exc  # (a cluster client that cannot start raises the latter) the next node
        raise failed

    return open_cluster
