"""Per-address budgets in Redis, so that they hold across every process together.

- ``P:budget:{kind}:{address}`` a hash (``tokens``, ``last``): a token bucket refilled by
  Redis's own clock, in one script, so every process spends from the same bucket; it
  expires once it would be full again.
- ``P:conns:{address}`` a hash: process → the connections it has open from the address.
  Only processes whose liveness key lives count (``RedisPresence``): a process that dies
  stops counting once its key expires, rather than leaking its connections for ever.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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

    def _key(self, kind: str, address: str) -> str:
        return f"{self.prefix}:budget:{{{kind}:{address}}}"

    def _conns(self, address: str) -> str:
        return f"{self.prefix}:conns:{{{address}}}"

    def available(self, kind: str, address: str, per_minute: float) -> float:
        return float(self._bucket(keys=[self._key(kind, address)], args=[per_minute, 0]))

    def take(self, kind: str, address: str, per_minute: float) -> bool:
        return bool(self._bucket(keys=[self._key(kind, address)], args=[per_minute, 1]) == "1")

    def connect(self, address: str, limit: float) -> bool:
        if self.connections(address) >= limit:
            return False
        self.client.hincrby(self._conns(address), self.process, 1)
        return True

    def disconnect(self, address: str) -> None:
        key = self._conns(address)
        if self.client.hincrby(key, self.process, -1) <= 0:
            self.client.hdel(key, self.process)

    def connections(self, address: str) -> int:
        key = self._conns(address)
        counts: dict[str, str] = self.client.hgetall(key)
        if not counts:
            return 0
        processes = sorted(counts)
        alive = self.client.mget([self._alive_key(process) for process in processes])
        dead = [process for process, live in zip(processes, alive, strict=True) if live is None]
        if dead:
            self.client.hdel(key, *dead)
        return sum(
            max(0, int(counts[p])) for p, live in zip(processes, alive, strict=True) if live is not None
        )
