"""A commit on a Redis Cluster is acknowledged once a replica has it too.

A cluster's master answers a write before its replicas have it (replication is
asynchronous): should the master die in between, its replica takes over without the write,
and a move the player was told about is gone. So on a cluster a commit is sent to its slot's
master together with ``WAIT 1 <ms>`` on the same connection (WAIT counts the writes of the
connection that asks), and answered once one replica has it.

- Measured on loopback (``benchmarks/cluster_wait.py``, medians of 3 rounds): a commit with its
  WAIT, sent to the master's own connection, 172 µs and 111 µs of this process's CPU; without
  it, through the cluster client, 179 and 120 µs; on a single Redis 141 and 95 µs. So the wait
  costs less than the cluster client's own routing it replaces.
- A master with no replica in sync within ``WAIT_MS`` (none configured, or it is down or far
  behind) still has the write, on its own disk (AOF): the commit is acknowledged, the host is
  warned, and that master's commits wait for no replica for ``UNREPLICATED_SECONDS`` (so a
  cluster without replicas is not slowed by ``WAIT_MS`` on every move).
- A commit that meets a redirection or a lost connection (a resharding, a failover) makes this
  client ask the cluster where the slot is now (a read through the cluster client, which follows
  redirections and learns the new map) and is sent there once more. One that meets either again
  (a slot half-way through a migration, a failover still under way) is sent through the cluster
  client, without the WAIT: docs/deploy.md says what that can lose.
"""

from __future__ import annotations

import logging
import time
from typing import Any

log = logging.getLogger(__name__)

WAIT_MS = 100
"""How long a commit waits for a replica at most (a replica on the same network answers in
well under a millisecond)."""
UNREPLICATED_SECONDS = 10.0
"""How long a master that had no replica in sync is written without waiting for one."""


class ReplicatedWrites:
    """Runs a script's write on its slot's master and waits for one replica to have it."""

    def __init__(self, client: Any) -> None:
        import redis

        self.client = client
        self._redirected = (
            redis.exceptions.AskError,  # (and MOVED)
            redis.exceptions.ClusterError,  # (CLUSTERDOWN: a failover under way)
            redis.exceptions.TryAgainError,
        )
        self._lost = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
        self._no_script = redis.exceptions.NoScriptError
        self._alone: dict[str, float] = {}
        """Masters found with no replica in sync, each until when their writes wait for none."""

    def run(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        """``script(keys, args)``, once a replica has what it wrote (see the module's docstring)."""
        for attempt in (1, 2):
            node = self.client.get_node_from_key(keys[0])
            try:
                return self._on(node, script, keys, args)
            except self._redirected + self._lost:
                if attempt == 2:
                    break
                self.client.exists(keys[0])  # the cluster client follows the slot, and learns where
        return script(keys=keys, args=args)  # (a slot half-way through a move: no WAIT)

    def _on(self, node: Any, script: Any, keys: list[str], args: list[Any]) -> Any:
        connection = self.client.get_redis_connection(node)
        wait = self._alone.get(node.name, 0.0) < time.monotonic()
        for attempt in (1, 2):
            pipe = connection.pipeline(transaction=False)
            pipe.evalsha(script.sha, len(keys), *keys, *args)
            if wait:
                pipe.execute_command("WAIT", 1, WAIT_MS)
            try:
                answers = pipe.execute()
                break
            except self._no_script:  # this master never had it (new, or restarted)
                if attempt == 2:
                    raise
                connection.script_load(script.script)
        if wait and answers[1] < 1:
            self._alone[node.name] = time.monotonic() + UNREPLICATED_SECONDS
            log.warning(
                "Redis master %s has no replica in sync (none answered within %d ms): its writes are"
                " on its own disk only until one catches up (docs/deploy.md, Redis Cluster)",
                node.name,
                WAIT_MS,
            )
        return answers[0]
