"""Deadline claims in Redis: a key per claim, set only if free (or already this holder's), with a lease."""

from __future__ import annotations

from typing import Any

CLAIM = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


class RedisClaims:
    def __init__(self, client: Any, prefix: str = "wibble") -> None:
        self.client = client
        self.prefix = prefix
        self._claim = client.register_script(CLAIM)
        self._release = client.register_script(RELEASE)

    def _key(self, key: str) -> str:
        return f"{self.prefix}:claim:{key}"

    def claim(self, key: str, holder: str, lease: float) -> bool:
        return bool(self._claim(keys=[self._key(key)], args=[holder, max(1, int(lease * 1000))]))

    def release(self, key: str, holder: str) -> None:
        self._release(keys=[self._key(key)], args=[holder])

    def remaining(self, key: str) -> float:
        left = self.client.pttl(self._key(key))  # -2: no such key; -1: no expiry (never written so)
        return max(0, int(left)) / 1000
