"""Per-address budgets in Redis, so that they hold across every process together.

- ``P:budget:{kind}:{address}`` a hash (``tokens``, ``last``): a token bucket refilled by
  Redis's own clock, in one script, so every process spends from the same bucket; it
  expires once it would be full again.
- ``P:conns:{address}`` a hash: process → the connections it has open from the address.
  Only processes whose liveness key lives count (``RedisPresence``): a process that dies
  stops counting once its key expires, rather than leaking its connections for ever.

While Redis is away the budgets let everything through (nothing can be played then
anyway) rather than fail a connection: a budget protects the server, it is not a rule.
Two processes checking the same address at the same moment may let it one connection
past its cap (check, then count); the cap is a guard against floods, not an exact count.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..redis_client import read_many

log = logging.getLogger(__name__)

BUCKET = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
local burst = tonumber(ARGV[1])
local rate = burst / 60
local state = redis.call('HMGET', KEYS[1], 'tokens', 'last')
local tokens = tonumber(state[1]) or burst
local last = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - last) * rate)
if ARGV[2] ~= '1' then return tostring(tokens) end
if tokens < 1 then return '0' end
tokens = tokens - 1
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'last', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return '1'
"""


class RedisMeter:
    def __init__(
        self, client: Any, process: str, alive_key: Callable[[str], str], prefix: str = "wibble"
    ) -> None:
        self.client = client
        self.process = process
        self.prefix = prefix
        self._alive_key = alive_key
        """process → the name of its liveness key (``RedisPresence``'s)."""
        self._bucket = client.register_script(BUCKET)
        import redis

        self._errors: tuple[type[BaseException], ...] = (redis.RedisError,)
        self._uncounted: Counter[str] = Counter()
        """Connections let through while Redis was away (never counted there)."""

    def _key(self, kind: str, address: str) -> str:
        return f"{self.prefix}:budget:{{{kind}:{address}}}"

    def _conns(self, address: str) -> str:
        return f"{self.prefix}:conns:{{{address}}}"

    def available(self, kind: str, address: str, per_minute: float) -> float:
        try:
            return float(self._bucket(keys=[self._key(kind, address)], args=[per_minute, 0]))
        except self._errors as exc:
            log.warning("budgets unreachable (%s): letting it through", exc)
            return per_minute

    def take(self, kind: str, address: str, per_minute: float) -> bool:
        try:
            return bool(self._bucket(keys=[self._key(kind, address)], args=[per_minute, 1]) == "1")
        except self._errors as exc:
            log.warning("budgets unreachable (%s): letting it through", exc)
            return True

    def connect(self, address: str, limit: float) -> bool:
        try:
            if self.connections(address) >= limit:
                return False
            self.client.hincrby(self._conns(address), self.process, 1)
        except self._errors as exc:
            log.warning("connection counts unreachable (%s): letting it through, uncounted", exc)
            self._uncounted[address] += 1
        return True

    def disconnect(self, address: str) -> None:
        if self._uncounted[address] > 0:
            self._uncounted[address] -= 1
            if not self._uncounted[address]:
                del self._uncounted[address]
            return
        key = self._conns(address)
        try:
            if self.client.hincrby(key, self.process, -1) <= 0:
                self.client.hdel(key, self.process)
        except self._errors as exc:  # it stops counting with this process's liveness, at the latest
            log.warning("could not uncount a connection (%s)", exc)

    def connections(self, address: str) -> int:
        key = self._conns(address)
        counts: dict[str, str] = self.client.hgetall(key)
        if not counts:
            return 0
        processes = sorted(counts)
        alive = read_many(self.client, [self._alive_key(process) for process in processes])
        dead = [process for process, live in zip(processes, alive, strict=True) if live is None]
        if dead:
            self.client.hdel(key, *dead)
        return sum(
            max(0, int(counts[p])) for p, live in zip(processes, alive, strict=True) if live is not None
        )
