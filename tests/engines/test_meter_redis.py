"""What only the Redis meter has to get right: counts that outlive no process, and budgets that let
everything through while Redis is away rather than refuse players."""

from __future__ import annotations

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from tests.engines.harness import until
from wibble.engines.meter.redis import RedisMeter
from wibble.engines.presence.redis import RedisPresence
from wibble.engines.redis_client import connect

ME = "198.51.100.7"


def test_the_connections_of_a_process_that_died_stop_counting_once_its_liveness_runs_out(
    redis_url: str,
) -> None:
    doomed, survivor = (
        RedisPresence(connect(redis_url), "host:1:a", ttl=0.3),
        RedisPresence(connect(redis_url), "host:2:b"),
    )
    dying = RedisMeter(connect(redis_url), doomed.process, doomed.alive_key)
    living = RedisMeter(connect(redis_url), survivor.process, survivor.alive_key)
    assert dying.connect(ME, 2)
    assert living.connect(ME, 2)
    assert not living.connect(ME, 2)
    until(lambda: living.connections(ME) == 1)  # (SIGKILLed: it never says its connections ended)
    assert living.connect(ME, 2)


def test_while_redis_is_away_every_budget_lets_players_through(redis_url: str) -> None:
    # Nobody listens there. The client tries again as the server's own do (``redis_client``: once,
    # at once); redis-py's default backs off for seconds, which no player's move would wait for.
    away = redis.Redis(port=1, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 1), decode_responses=True)
    meter = RedisMeter(away, "host:1:a", lambda process: f"wibble:alive:{process}")
    assert meter.available("games", ME, 3) == 3
    assert all(meter.take("games", ME, 3) for _ in range(5))
    assert all(meter.connect(ME, 1) for _ in range(3))  # let through, uncounted
    for _ in range(3):
        meter.disconnect(ME)
