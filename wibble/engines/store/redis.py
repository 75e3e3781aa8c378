"""Documents in Redis: the store every process of a host shares (``wibble serve --redis``).

Keys, with ``P`` the prefix (``wibble``) and every key of one document under one hash tag:

- ``P:{id}`` a hash: ``kind``, ``version``, ``doc`` (JSON), ``created``, ``updated``, its next
  deadline (``due``), and the id of the write that made this version (``write``);
- ``P:{id}:moves`` a list: the document's record, oldest first;
- ``P:touched`` a sorted set of ids by when each was last touched (retention and counting);
- ``P:{due}:at`` a sorted set of ids by their document's next deadline, and ``P:{due}:version``
  the version of the document each entry was written for (see below).

On a Redis Cluster each of the two indexes is ``BUCKETS`` of them, each under a hash tag of
its own (``P:{touched-3-K}``, ``P:{due-3-K}:at``: ``spread_tags``, one in each 64th of the
slots, so that every master of an evenly sharded cluster holds some): a
document's entries are in the bucket its id hashes to, and a question of the whole index
(a purge, the pick-up of deadlines, a count) asks every bucket.

A commit is one Lua script, in one round trip: it checks the version, writes the document
and appends the move, or changes nothing. The same write arriving twice (a reply lost to a
timeout, then retried) is recognised by its write id and succeeds once, however late the
retry (a document's creation too: its retry is not told that the id is taken); another
process's write of the very same document is a conflict, as on every engine;
a write that is not applied yet and arrives after its writer gave up on it changes nothing.
The script touches the document's own slot only (legal under Redis Cluster).

Both indexes live beside the documents and may be out of date, but only ever early, and each
reader mends what it finds early against the document itself:

- ``P:touched`` is written when a document is made; a commit does not move it (the document's
  own ``updated`` does). A purge checks each document's own time, deletes it only if that is
  old, and otherwise moves its entry up to it.
- The deadline index is written after a commit succeeded, only when the document's next
  deadline changed (a second round trip then). An entry is written only for a newer version
  than the one it holds, and ``overdue`` checks each entry it finds against the document's own
  ``due`` (written by the commit script itself), mending the entry if it was early. So a
  deadline is never missed, and a stale entry costs one check.
"""

from __future__ import annotations

import logging
import secrets
import time
import zlib
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, TypeVar

from ... import codec
from ...core import GameDataError
from ..redis_client import SOCKET_TIMEOUT, connect, in_cluster, spread_tags
from .base import KEEP, KINDS, AlreadyExists, Doc, Due, Row, StorageError, VersionConflict
from .redis_replicas import ReplicatedWrites

_T = TypeVar("_T")

log = logging.getLogger(__name__)


class CommitArgs(NamedTuple):
    """``COMMIT``'s ARGV, in order: the script takes each under the same name."""

    expected: int
    """The version the writer read: the stored one must still be it."""
    version: int
    """The new document's version."""
    doc: str
    """The new document (JSON)."""
    move: str
    """The move appended to the document's record (JSON)."""
    now: float
    """When the document was last used (its ``updated``)."""
    valid_until: float
    """The last moment, on Redis's clock, at which the write may still apply (``commit``)."""
    write_id: str
    """This write's own id: a retry of it is told apart from another writer's."""
    due: str
    """The document's next deadline (``_when``), or ``KEEP_DUE``."""


KEEP_DUE = "keep"
"""``CommitArgs.due`` when the commit leaves the next deadline as it was."""

# What ``COMMIT`` and ``CREATE`` answer:
#   APPLIED   1   written (or written already by this very write: a retry)
#   CONFLICT  0   the stored version is not ``expected`` (or no document is stored)
#   TOO_LATE -1   Redis ran it after ``valid_until``: nothing written
APPLIED, CONFLICT, TOO_LATE = 1, 0, -1

# KEYS[1] the document's hash; ARGV: kind, version, doc, now, due, write id, valid-until (the
# last three as a commit's). CONFLICT here: another document has the id.
CREATE = f"""
local stored = redis.call('HMGET', KEYS[1], 'version', 'write')
if stored[1] then
  -- this very write again (its reply was lost, redis-py retried): it was made; anyone else's, taken
  if tonumber(stored[1]) == tonumber(ARGV[2]) and stored[2] == ARGV[6] then
    redis.call('HSET', KEYS[1], 'write', ARGV[6])  -- (a write again, so a WAIT after it waits for the first)
    return {APPLIED}
  end
  return {CONFLICT}
end
local clock = redis.call('TIME')
if tonumber(clock[1]) + tonumber(clock[2]) / 1000000 > tonumber(ARGV[7]) then return {TOO_LATE} end
redis.call('HSET', KEYS[1], 'kind', ARGV[1], 'version', ARGV[2], 'doc', ARGV[3],
           'created', ARGV[4], 'updated', ARGV[4], 'due', ARGV[5], 'write', ARGV[6])
return {APPLIED}
"""

# KEYS[1] the document's hash, KEYS[2] its moves. The first two lines are written from the Python
# names above, so that the two sides cannot drift apart.
COMMIT = f"""
local {", ".join(CommitArgs._fields)} = unpack(ARGV)
local APPLIED, CONFLICT, TOO_LATE = {APPLIED}, {CONFLICT}, {TOO_LATE}
local stored = redis.call('HMGET', KEYS[1], 'version', 'write')
if not stored[1] then return CONFLICT end
if tonumber(stored[1]) == tonumber(version) and stored[2] == write_id then
  redis.call('HSET', KEYS[1], 'write', write_id)  -- (a write again, so a WAIT after it waits for the first)
  return APPLIED
end
local clock = redis.call('TIME')
if tonumber(clock[1]) + tonumber(clock[2]) / 1000000 > tonumber(valid_until) then return TOO_LATE end
if tonumber(stored[1]) ~= tonumber(expected) then return CONFLICT end
redis.call('HSET', KEYS[1], 'version', version, 'doc', doc, 'updated', now, 'write', write_id)
if due ~= '{KEEP_DUE}' then redis.call('HSET', KEYS[1], 'due', due) end
redis.call('RPUSH', KEYS[2], move)
return APPLIED
"""

INDEX = """
local held = redis.call('HGET', KEYS[2], ARGV[1])
if held and tonumber(held) > tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
return 1
"""

MEND = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
"""

TOUCH = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'updated', ARGV[1])
return 1
"""

# What ``DELETE_IF_OLD`` answers: '' when it deleted the document (or found none), else the
# document's own last use (newer than ARGV[1]: it stays).
DELETE_IF_OLD = """
local updated = redis.call('HGET', KEYS[1], 'updated')
if updated and tonumber(updated) >= tonumber(ARGV[1]) then return updated end
redis.call('DEL', KEYS[1], KEYS[2])
return ''
"""

IMPORT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'kind', ARGV[1], 'version', ARGV[2], 'doc', ARGV[3],
           'created', ARGV[4], 'updated', ARGV[5], 'due', ARGV[6])
for i = 7, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
return 1
"""

PURGE_BATCH = 500
BUCKETS = 64
"""Buckets of each index on a Redis Cluster (one on a single Redis): every master of an evenly
sharded cluster of up to 32 holds some."""


def _dump(doc: Doc) -> str:
    return codec.dumps(doc)  # json.dumps's compact text (a float may be spelt shorter: 1e16)


def _when(due: float | None) -> str:
    """A deadline as the scripts take it ('' for none)."""
    return "" if due is None else repr(float(due))


def _due(text: str | None) -> float | None:
    try:
        return None if not text else float(text)
    except ValueError:
        return None


class RedisStore:
    """Documents in the Redis at ``url`` (``redis://HOST:PORT/DB``); ``client`` for one already open."""

    engine = "redis"

    def __init__(self, url: str, prefix: str = "wibble", client: Any = None) -> None:
        self.client = client if client is not None else connect(url)  # (says so if redis is missing)
        import redis

        self._errors: tuple[type[BaseException], ...] = (redis.RedisError,)
        self.prefix = prefix
        self.description = f"Redis at {url}"
        cluster = in_cluster(self.client)
        if cluster:
            self.description = f"the Redis Cluster at {url}"
            tags = spread_tags("touched", BUCKETS), spread_tags("due", BUCKETS)
            self._touched = [f"{prefix}:{tag}" for tag in tags[0]]
            self._indexes = [[f"{prefix}:{tag}:at", f"{prefix}:{tag}:version"] for tag in tags[1]]
        else:
            self._touched = [f"{prefix}:touched"]
            self._indexes = [[f"{prefix}:{{due}}:at", f"{prefix}:{{due}}:version"]]
        self._replicated = ReplicatedWrites(self.client) if cluster else None
        """On a cluster: what acknowledges a write once a replica has it (``redis_replicas``)."""
        self._create = self._script(CREATE)
        self._commit = self._script(COMMIT)
        self._touch = self._script(TOUCH)
        self._delete_if_old = self._script(DELETE_IF_OLD)
        self._import = self._script(IMPORT)
        self._index_due = self._script(INDEX)
        self._mend = self._script(MEND)
        # How far Redis's clock is ahead of this machine's (it may be another machine), and how long
        # this process waits for a write's answer, retries included, less a margin for the offset's
        # own error. Both bound the moment a write may still apply (``commit``).
        self._offset = self._clock_offset()
        self._patience = SOCKET_TIMEOUT * 2 - 0.05

    def _script(self, text: str) -> Any:
        # redis-py's Script: EVALSHA, and on a Redis that lost the script (restarted, SCRIPT
        # FLUSH, a new node) SCRIPT LOAD and EVALSHA again.
        return self.client.register_script(text)

    def _write(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        """Run a script that writes what a player is told of (a document made, a commit)."""
        if self._replicated is not None:
            return self._replicated.run(script, keys, args)
        return script(keys=keys, args=args)

    def key(self, doc_id: str) -> str:
        return f"{self.prefix}:{{{doc_id}}}"

    def _keys(self, doc_id: str) -> list[str]:
        key = self.key(doc_id)
        return [key, f"{key}:moves"]

    def _bucket(self, doc_id: str) -> int:
        return zlib.crc32(doc_id.encode()) % len(self._touched)

    def _touched_of(self, doc_id: str) -> str:
        """The bucket of ``P:touched`` that holds ``doc_id``."""
        return self._touched[self._bucket(doc_id)]

    def _index_of(self, doc_id: str) -> list[str]:
        """The bucket of the deadline index that holds ``doc_id``: its two keys."""
        return self._indexes[self._bucket(doc_id)]

    # -- the Store interface -----------------------------------------------------------

    def create(self, doc_id: str, kind: str, doc: Doc, now: float, due: float | None = None) -> None:
        # A write id and a valid-until, as a commit's: the same create retried is told apart from
        # another's of the id, and one that reaches Redis after this process gave up on it (the
        # player was told nothing was made) is not made.
        write_id = self._write_id()
        # The retention entry first (only if there is none): on a cluster it is another shard's,
        # and a document written without one would never be purged, counted or exported. One left
        # without its document (the write then failed) is dropped by the next purge.
        self._call(lambda: self.client.zadd(self._touched_of(doc_id), {doc_id: now}, nx=True))
        valid_until = time.time() + self._offset + self._patience  # (the wait for this write alone)
        args = [kind, doc["version"], _dump(doc), now, _when(due), write_id, valid_until]
        made = self._call(lambda: self._write(self._create, self._keys(doc_id)[:1], args))
        if made == TOO_LATE:
            self._offset = self._clock_offset()
            raise StorageError("redis: the write reached Redis too late, and was not applied")
        if made != APPLIED:
            raise AlreadyExists(doc_id)
        if due is not None:
            self._reindex(doc_id, doc["version"], due)

    def load(self, doc_id: str) -> Row | None:
        kind, text, created, updated, due = self._call(
            lambda: self.client.hmget(self.key(doc_id), "kind", "doc", "created", "updated", "due")
        )
        if text is None:
            return None
        try:
            doc = codec.loads(text)
            times = float(created), float(updated)
        except (TypeError, ValueError) as exc:
            raise GameDataError(f"its stored document is damaged ({exc})") from None
        if not isinstance(doc, dict) or kind not in KINDS:
            raise GameDataError("its stored row is damaged")
        return Row(doc_id, kind, doc, *times, _due(due))

    def commit(self, doc_id: str, expected: int, doc: Doc, move: Doc, now: float, due: Due = KEEP) -> None:
        # A write that reaches Redis after this process gave up on it (Redis was paused, say) must
        # not land: the player was told nothing changed. So it carries the last moment, on Redis's
        # own clock, at which it may still apply: when this process stops waiting for the answer.
        valid_until = time.time() + self._offset + self._patience
        write_id = self._write_id()  # this write's own: a retry of it is told apart from another's

        args = CommitArgs(
            expected=expected,
            version=doc["version"],
            doc=_dump(doc),
            move=_dump(move),
            now=now,
            valid_until=valid_until,
            write_id=write_id,
            due=KEEP_DUE if due is KEEP else _when(due),
        )

        done = self._call(lambda: self._write(self._commit, self._keys(doc_id), list(args)))
        if done == TOO_LATE:
            self._offset = self._clock_offset()  # (a clock that stepped would refuse every write)
            raise StorageError("redis: the write reached Redis too late, and was not applied")
        if done != APPLIED:
            raise VersionConflict(doc_id, expected)
        if due is not KEEP:
            self._reindex(doc_id, doc["version"], due)

    def _reindex(self, doc_id: str, version: int, due: float | None) -> None:
        """Enter the document's next deadline in the index (its commit is done: a failure here
        leaves the index early or without the entry; only logged, the document is saved)."""
        try:
            self._index_due(keys=self._index_of(doc_id), args=[doc_id, version, _when(due)])
        except self._errors as exc:
            log.warning("could not index the next deadline of %s: %s", doc_id, exc)

    def touch(self, doc_id: str, now: float) -> None:
        self._call(lambda: self._touch(keys=[self.key(doc_id)], args=[now]))

    def moves(self, doc_id: str) -> list[Doc]:
        texts = self._call(lambda: self.client.lrange(self._keys(doc_id)[1], 0, -1))
        try:
            return [codec.loads(text) for text in texts]
        except ValueError as exc:
            raise GameDataError(f"a stored move is not JSON ({exc})") from None

    def delete(self, doc_id: str) -> None:
        def write() -> None:
            pipe = self.client.pipeline(transaction=False)
            for key in self._keys(doc_id):  # (a cluster's pipeline deletes one key a command)
                pipe.delete(key)
            pipe.zrem(self._touched_of(doc_id), doc_id)
            pipe.execute()

        self._call(write)
        self._unindex(doc_id)

    def _unindex(self, doc_id: str) -> None:
        def write() -> None:
            pipe = self.client.pipeline(transaction=False)
            at, versions = self._index_of(doc_id)
            pipe.zrem(at, doc_id)
            pipe.hdel(versions, doc_id)
            pipe.execute()

        try:
            write()
        except self._errors as exc:  # ``overdue`` drops the entry when it finds no document
            log.warning("could not take %s out of the deadline index: %s", doc_id, exc)

    def purge(self, before: float, limit: int, prefix: str = "") -> int:
        deleted = 0
        for touched in self._touched:
            deleted += self._purge_bucket(touched, before, limit - deleted, prefix)
            if deleted >= limit:
                break
        return deleted

    def _purge_bucket(self, touched: str, before: float, limit: int, prefix: str) -> int:
        deleted, offset = 0, 0
        while deleted < limit:
            ids: list[str] = self._call(
                lambda offset=offset: self.client.zrangebyscore(  # type: ignore[misc]
                    touched, "-inf", f"({before}", start=offset, num=PURGE_BATCH
                )
            )
            if not ids:
                break
            kept = 0
            for doc_id in ids:
                if not doc_id.startswith(prefix) or deleted >= limit:
                    kept += 1  # another prefix: its entry stays where it is
                elif self._purge_one(touched, doc_id, before):
                    deleted += 1
            offset += kept
        return deleted

    def _purge_one(self, touched: str, doc_id: str, before: float) -> bool:
        """Delete ``doc_id`` if its own last use is before ``before`` (True); else move its entry
        in ``touched`` up to that use, out of the purge's range."""
        updated = self._call(lambda: self._delete_if_old(keys=self._keys(doc_id), args=[before]))
        if updated:
            self._call(lambda: self.client.zadd(touched, {doc_id: float(updated)}, xx=True))
            return False
        self._call(lambda: self.client.zrem(touched, doc_id))
        self._unindex(doc_id)
        return True

    def overdue(self, before: float, limit: int) -> list[tuple[str, str]]:
        def ask(pipe: Any) -> None:
            for at, _ in self._indexes:
                pipe.zrangebyscore(at, "-inf", f"({before!r}", 0, limit, withscores=True)

        found_in = self._call(lambda: self._pipelined(ask))
        entries: list[tuple[str, float]] = sorted(
            (entry for bucket in found_in for entry in bucket), key=lambda entry: entry[1]
        )[:limit]
        if not entries:
            return []

        def read(pipe: Any) -> None:
            for doc_id, _ in entries:
                pipe.hmget(self.key(doc_id), "kind", "due")

        found = []
        for (doc_id, score), (kind, text) in zip(
            entries, self._call(lambda: self._pipelined(read)), strict=True
        ):
            due = _due(text)
            if kind is not None and due is not None and due < before:
                found.append((doc_id, kind))
            elif kind is None or due != score:  # early (or its document is gone): mend it
                keys = self._index_of(doc_id)
                self._call(lambda: self._mend(keys=keys, args=[doc_id, score, _when(due)]))  # noqa: B023
        return found

    def version(self, doc_id: str) -> int | None:
        stored = self._call(lambda: self.client.hget(self.key(doc_id), "version"))
        return None if stored is None else int(stored)

    def count(self) -> int:
        def ask(pipe: Any) -> None:
            for touched in self._touched:
                pipe.zcard(touched)

        return sum(int(n) for n in self._call(lambda: self._pipelined(ask)))

    def export(self) -> Iterator[tuple[Row, list[Doc]]]:
        for touched in self._touched:
            for doc_id in self._call(lambda touched=touched: self.client.zrange(touched, 0, -1)):  # type: ignore[misc]
                row = self.load(doc_id)
                if row is not None:
                    yield row, self.moves(doc_id)

    def import_row(self, row: Row, moves: list[Doc]) -> None:
        def write() -> int:
            args = [row.kind, row.doc["version"], _dump(row.doc), row.created, row.updated, _when(row.due)]
            return int(self._write(self._import, self._keys(row.doc_id), [*args, *map(_dump, moves)]))

        if not self._call(write):
            raise AlreadyExists(row.doc_id)
        self._call(lambda: self.client.zadd(self._touched_of(row.doc_id), {row.doc_id: row.updated}))
        if row.due is not None:
            self._reindex(row.doc_id, row.doc["version"], row.due)

    def close(self) -> None:
        try:
            self.client.close()
        except self._errors:
            pass

    # -- helpers ----------------------------------------------------------------------

    @staticmethod
    def _write_id() -> str:
        return secrets.token_hex(8)

    def _clock_offset(self) -> float:
        """Redis's clock minus this machine's, read as the middle of one round trip."""
        before = time.time()
        seconds, micros = self._call(lambda: self.client.time())
        after = time.time()
        return float(seconds) + float(micros) / 1e6 - (before + after) / 2

    def _pipelined(self, build: Callable[[Any], None]) -> list[Any]:
        """Send what ``build`` adds to a pipeline in one round trip (on a cluster, one to each
        node it concerns, sent together)."""
        pipe = self.client.pipeline(transaction=False)
        build(pipe)
        return list(pipe.execute())

    def _call(self, work: Callable[[], _T]) -> _T:
        """Run one exchange with Redis; any failure of Redis is a ``StorageError`` (nothing written)."""
        try:
            return work()
        except self._errors as exc:
            raise StorageError(f"redis: {exc}") from None
