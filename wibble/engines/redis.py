"""Every Redis engine of one server process, opened together from one address, and its heartbeat."""

from __future__ import annotations

import functools
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from .bus.redis import RedisBus
from .claims.redis import RedisClaims
from .meter.redis import RedisMeter
from .presence.redis import RedisPresence
from .redis_client import connect, in_cluster, opener, spread_tags
from .store.redis import BUCKETS, RedisStore

log = logging.getLogger(__name__)


@functools.cache
def epoch_tags() -> list[str]:
    """The hash tags of a cluster's epoch tokens (``watch_epoch``), worked out once."""
    return spread_tags("epoch", BUCKETS)


@dataclass
class RedisEngines:
    """Every engine of one server process in the Redis at ``url`` (the twin of ``MemoryEngines``),
    with the store; ``process`` names this process to the others."""

    url: str
    client: Any
    process: str
    store: RedisStore
    bus: RedisBus
    presence: RedisPresence
    claims: RedisClaims
    meter: RedisMeter
    shared: bool = True
    """Other processes share these engines (what a commit here changes is rung to them)."""
    _beating: threading.Event = field(default_factory=threading.Event)
    _reviving: threading.Lock = field(default_factory=lambda: threading.Lock())  # (gevent's, once patched)
    _epoch: str | None = None
    """The token this process found in ``P:epoch`` (``watch_epoch``)."""
    _last_beat: float = field(default=0.0, init=False)
    """When the last beat reached Redis (monotonic: a stopped process's clock runs on)."""
    _on_beat: Callable[[], object] = field(default=lambda: None, init=False)
    _on_revived: Callable[[Collection[str]], object] = field(default=lambda skipped: None, init=False)

    def start(
        self,
        on_beat: Callable[[], object],
        on_revived: Callable[[Collection[str]], object],
        on_resubscribe: Callable[[set[str]], object],
    ) -> None:
        """Keep this process alive in presence (a heartbeat every third of its expiry), and call
        ``on_beat`` after each beat (the live layer notices who else's process died), and
        ``revive`` after the first beat that follows a gap past the expiry: the others took
        this process for dead meanwhile (it was stopped, or cut off from Redis), and its people for
        gone. The bus calls ``on_resubscribe`` once it has subscribed again after a lost connection
        and replayed what it could (and again, for what it raises ``Unsettled`` about)."""
        self._on_beat, self._on_revived = on_beat, on_revived
        self.bus.on_resubscribe = on_resubscribe
        self._last_beat = time.monotonic()
        threading.Thread(target=self._beat_on, name="wibble-heartbeat", daemon=True).start()

    def _beat_on(self) -> None:
        while not self._beating.wait(self.presence.ttl / 3):
            self.beat()

    def beat(self) -> None:
        try:
            revived = time.monotonic() - self._last_beat > self.presence.ttl
            self.presence.beat()  # first, and alone: a shard that is away must not make this process dead
            self._last_beat = time.monotonic()
            if revived:
                log.warning("this process was taken for dead (stopped, or cut off from Redis); back now")
                self.revive()
            self._on_beat()
        except Exception as exc:  # Redis is away: its sessions may count as gone meanwhile
            log.warning("could not renew this process's presence: %s", exc)
        try:
            self.watch_epoch()
        except Exception as exc:  # (a shard away, a failover under way: the next beat looks again)
            log.warning("could not check whether Redis kept its data: %s", exc)

    def revive(self) -> None:
        """Stopped for a while (SIGSTOP, a paused machine): catch up before anything runs or is told.
        The bus drops what other processes published meanwhile (older than the store), the live
        layer catches up with the topics that had some (``on_revived``), then the bus delivers
        what it kept back during the catch-up."""
        with self._reviving:  # one at a time (the heartbeat and the timers both notice a stop):
            try:  # another's go_on would let out, before this one's snapshots, what this one holds back
                self._on_revived(self.bus.skip_backlog())
            finally:
                self.bus.go_on()

    def watch_epoch(self) -> bool:
        """Whether Redis still holds what it held at the last look; False, and an error in the log,
        once it has lost its data (restarted with nothing on disk, flushed, failed over to an empty
        replica). ``P:epoch`` is a token the first process writes and every process reads at each
        heartbeat: while Redis keeps its data the token stays; gone or changed, the data went with it.
        On a cluster there is a token in each 64th of the slots (``P:{epoch-N-K}``, ``spread_tags``),
        so that a shard that lost its data is noticed whichever it is."""
        keys = [f"{self.store.prefix}:epoch"]
        if in_cluster(self.client):
            keys = [f"{self.store.prefix}:{tag}" for tag in epoch_tags()]
        pipe = self.client.pipeline(transaction=False)
        for key in keys:
            pipe.set(key, secrets.token_hex(8), nx=True)
            pipe.get(key)
        now = "/".join(pipe.execute()[1::2])
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
        if config.get("appendonly") == "yes":
            return None
        if saves.get("save"):
            return (
                f"Redis at {self.url} keeps only snapshots (no AOF): a Redis crash loses every move "
                "since the last one, words players saw scored. See docs/deploy.md (appendonly yes)."
            )
        return (
            f"Redis at {self.url} keeps nothing on disk (no AOF, no snapshots): a Redis restart "
            "loses every game. See docs/deploy.md (appendonly yes)."
        )


def open_engines(url: str, prefix: str = "wibble") -> RedisEngines:
    """Connect to Redis at ``url`` (``StoreOpenError`` if it cannot) and open every engine on it."""
    client = connect(url)  # first: it says so in one line if the redis package is missing
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    # The bus listens on a client of its own that never retries by itself: redis-py would
    # reconnect and subscribe again silently, and the messages lost meanwhile would never be
    # caught up. A lost connection must reach the bus, which subscribes again and catches up.
    open_listener = opener(url, client, retry=Retry(NoBackoff(), 0), max_connections=4)
    process = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
    presence = RedisPresence(client, process, prefix)
    return RedisEngines(
        url,
        client,
        process,
        RedisStore(url, prefix, client=client),
        RedisBus(client, process, prefix, open_listener=open_listener, alive_key=presence.alive_key),
        presence,
        RedisClaims(client, prefix),
        RedisMeter(client, process, presence.alive_key, prefix),
    )
