"""Every Redis engine of one server process, opened together from one address."""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bus.redis import RedisBus
from .claims.redis import RedisClaims
from .meter.redis import RedisMeter
from .presence.redis import RedisPresence
from .redis_client import connect
from .store.redis import RedisStore

log = logging.getLogger(__name__)


@dataclass
class Engines:
    url: str
    client: Any
    process: str
    store: RedisStore
    bus: RedisBus
    presence: RedisPresence
    claims: RedisClaims
    meter: RedisMeter
    _beating: threading.Event = field(default_factory=threading.Event)
    _epoch: str | None = None
    """The token this process found in ``P:epoch`` (``watch_epoch``)."""

    def start(
        self, on_beat: Callable[[], object] = lambda: None, on_revived: Callable[[], object] = lambda: None
    ) -> None:
        """Keep this process alive in presence (a heartbeat every third of its expiry), and call
        ``on_beat`` after each beat (the live layer notices who else's process died), and
        ``on_revived`` after the first beat that follows a gap past the expiry: the others took
        this process for dead meanwhile (it was stopped, or cut off from Redis), and its people for
        gone."""
        threading.Thread(
            target=self._beat, args=(on_beat, on_revived), name="wibble-heartbeat", daemon=True
        ).start()

    def _beat(self, on_beat: Callable[[], object], on_revived: Callable[[], object]) -> None:
        last = time.monotonic()  # the last beat that reached Redis (a stopped process's clock runs on)
        while not self._beating.wait(self.presence.ttl / 3):
            try:
                revived = time.monotonic() - last > self.presence.ttl
                self.watch_epoch()
                self.presence.beat()
                last = time.monotonic()
                if revived:
                    log.warning("this process was taken for dead (stopped, or cut off from Redis); back now")
                    on_revived()
                on_beat()
            except Exception as exc:  # Redis is away: its sessions may count as gone meanwhile
                log.warning("could not renew this process's presence: %s", exc)

    def watch_epoch(self) -> bool:
        """Whether Redis still holds what it held at the last look; False, and an error in the log,
        once it has lost its data (restarted with nothing on disk, flushed, failed over to an empty
        replica). ``P:epoch`` is a token the first process writes and every process reads at each
        heartbeat: while Redis keeps its data the token stays; gone or changed, the data went with it."""
        key = f"{self.store.prefix}:epoch"
        self.client.set(key, secrets.token_hex(8), nx=True)
        now = self.client.get(key)
        before, self._epoch = self._epoch, now
        if before is None or now == before:
            return True
        log.error(
            "Redis at %s lost its data (restarted with nothing on disk, or flushed): every game, match"
            " and room that was in it is gone, and their players are told so as they play. Keep Redis's"
            " data on disk (appendonly yes; docs/deploy.md)",
            self.url,
        )
        return False

    def stop(self) -> None:
        """A clean stop: this process's sessions are gone at once, and its subscriptions end."""
        self._beating.set()
        self.bus.stop()
        try:
            self.presence.forget_process()
        except Exception as exc:
            log.warning("could not clear this process's presence: %s", exc)

    def persistence(self) -> str | None:
        """A warning for the host if Redis keeps nothing on disk (else None)."""
        try:
            config = self.client.config_get("appendonly")
            saves = self.client.config_get("save")
        except Exception:  # CONFIG may be disabled (a managed Redis): nothing to say
            return None
        if config.get("appendonly") == "yes" or saves.get("save"):
            return None
        return (
            f"Redis at {self.url} keeps nothing on disk (no AOF, no snapshots): a Redis restart "
            "loses every game. See docs/deploy.md (appendonly yes)."
        )


def open_engines(url: str, prefix: str = "wibble") -> Engines:
    """Connect to Redis at ``url`` (``StoreOpenError`` if it cannot) and open every engine on it."""
    client = connect(url)  # first: it says so in one line if the redis package is missing
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    # The bus listens on a client of its own that never retries by itself: redis-py would
    # reconnect and subscribe again silently, and the messages lost meanwhile would never be
    # caught up. A lost connection must reach the bus, which subscribes again and catches up.
    listener = connect(url, retry=Retry(NoBackoff(), 0), max_connections=4)
    process = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
    presence = RedisPresence(client, process, prefix)
    return Engines(
        url,
        client,
        process,
        RedisStore(url, prefix, client=client),
        RedisBus(client, process, prefix, listener=listener, alive_key=presence.alive_key),
        presence,
        RedisClaims(client, prefix),
        RedisMeter(client, process, presence.alive_key, prefix),
    )
