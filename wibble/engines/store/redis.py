"""Documents in Redis: the store every process of a host shares (``wibble serve --redis``).

Keys, with ``P`` the prefix (``wibble``) and every key of one document under one hash tag:

- ``P:{id}`` a hash: ``kind``, ``version``, ``doc`` (JSON), ``created``, ``updated``, and the
  id of the write that made this version (``write``);
- ``P:{id}:moves`` a list: the document's record, oldest first;
- ``P:touched`` a sorted set of ids by when each was last touched (retention and counting);
- ``P:{due}:at`` a sorted set of ids by their document's next deadline, and ``P:{due}:version``
  the version of the document each entry was written for (see below).

A commit is one Lua script: it checks the version, writes the document and appends the
move, or changes nothing. The same write arriving twice (a reply lost to a timeout, then
retried) is recognised by its write id and succeeds once, however late the retry; another
process's write of the very same document is a conflict, as on every engine; a write that
is not applied yet and arrives after its writer gave up on it changes nothing.

``P:touched`` is an index beside the documents, kept up in the same round trip but outside
the script so that the script touches one slot (legal under Redis Cluster); a purge checks
each document's own time.

The deadline index (``P:{due}:...``) lives in a slot of its own for the same reason, and is
written after a commit succeeded, only when the document's next deadline changed (a second
round trip then). Its entries may be out of date, but only ever early: an entry is written
only for a newer version than the one it holds, and ``overdue`` checks each entry it finds
against the document's own ``due`` (written by the commit script itself), mending the entry
if it was early. So a deadline is never missed, and a stale entry costs one check.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, TypeVar

from ... import codec
from ...core import GameDataError
from ..redis_client import SOCKET_TIMEOUT, connect
from .base import KEEP, KINDS, AlreadyExists, Doc, Due, Row, StorageError, VersionConflict

_T = TypeVar("_T")

log = logging.getLogger(__name__)

CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'kind', ARGV[1], 'version', ARGV[2], 'doc', ARGV[3],
           'created', ARGV[4], 'updated', ARGV[4], 'due', ARGV[5])
return 1
"""


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

# What ``COMMIT`` answers:
#   APPLIED   1   written (or written already by this very write: a retry)
#   CONFLICT  0   the stored version is not ``expected`` (or no document is stored)
#   TOO_LATE -1   Redis ran it after ``valid_until``: nothing written
APPLIED, CONFLICT, TOO_LATE = 1, 0, -1

# KEYS[1] the document's hash, KEYS[2] its moves. The first two lines are written from the Python
# names above, so that the two sides cannot drift apart.
COMMIT = f"""
local {", ".join(CommitArgs._fields)} = unpack(ARGV)
local APPLIED, CONFLICT, TOO_LATE = {APPLIED}, {CONFLICT}, {TOO_LATE}
local stored = redis.call('HMGET', KEYS[1], 'version', 'write')
if not stored[1] then return CONFLICT end
if tonumber(stored[1]) == tonumber(version) and stored[2] == write_id then return APPLIED end
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

DELETE_IF_OLD = """
local updated = redis.call('HGET', KEYS[1], 'updated')
if updated and tonumber(updated) >= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
"""

IMPORT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'kind', ARGV[1], 'version', ARGV[2], 'doc', ARGV[3],
           'created', ARGV[4], 'updated', ARGV[5], 'due', ARGV[6])
for i = 7, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
return 1
"""

PURGE_BATCH = 500


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
        self._no_script = redis.exceptions.NoScriptError
        self.prefix = prefix
        self.description = f"Redis at {url}"
        self._touched = f"{prefix}:touched"
        self._index = [f"{prefix}:{{due}}:at", f"{prefix}:{{due}}:version"]
        self._scripts: list[Any] = []
        """Every script this store runs: what a Redis that lost them is given again (``_pipelined``)."""
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
        script = self.client.register_script(text)
        self._scripts.append(script)
        return script

    def key(self, doc_id: str) -> str:
        return f"{self.prefix}:{{{doc_id}}}"

    def _keys(self, doc_id: str) -> list[str]:
        key = self.key(doc_id)
        return [key, f"{key}:moves"]

    # -- the Store interface -----------------------------------------------------------

    def create(self, doc_id: str, kind: str, doc: Doc, now: float, due: float | None = None) -> None:
        args = [kind, doc["version"], _dump(doc), now, _when(due)]
        made = self._call(lambda: self._create(keys=self._keys(doc_id)[:1], args=args))
        if not made:
            raise AlreadyExists(doc_id)
        self._call(lambda: self.client.zadd(self._touched, {doc_id: now}))
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

        def write(pipe: Any) -> None:
            pipe.evalsha(self._commit.sha, 2, *self._keys(doc_id), *args)
            pipe.zadd(self._touched, {doc_id: now}, xx=True)

        done = self._call(lambda: self._pipelined(write)[0])
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
            self._index_due(keys=self._index, args=[doc_id, version, _when(due)])
        except self._errors as exc:
            log.warning("could not index the next deadline of %s: %s", doc_id, exc)

    def touch(self, doc_id: str, now: float) -> None:
        def write(pipe: Any) -> None:
            pipe.evalsha(self._touch.sha, 1, self.key(doc_id), now)
            pipe.zadd(self._touched, {doc_id: now}, xx=True)

        self._call(lambda: self._pipelined(write))

    def moves(self, doc_id: str) -> list[Doc]:
        texts = self._call(lambda: self.client.lrange(self._keys(doc_id)[1], 0, -1))
        try:
            return [codec.loads(text) for text in texts]
        except ValueError as exc:
            raise GameDataError(f"a stored move is not JSON ({exc})") from None

    def delete(self, doc_id: str) -> None:
        def write() -> None:
            pipe = self.client.pipeline(transaction=False)
            pipe.delete(*self._keys(doc_id))
            pipe.zrem(self._touched, doc_id)
            pipe.execute()

        self._call(write)
        self._unindex(doc_id)

    def _unindex(self, doc_id: str) -> None:
        def write() -> None:
            pipe = self.client.pipeline(transaction=False)
            pipe.zrem(self._index[0], doc_id)
            pipe.hdel(self._index[1], doc_id)
            pipe.execute()

        try:
            write()
        except self._errors as exc:  # ``overdue`` drops the entry when it finds no document
            log.warning("could not take %s out of the deadline index: %s", doc_id, exc)

    def purge(self, before: float, limit: int, prefix: str = "") -> int:
        deleted, offset = 0, 0
        while deleted < limit:
            ids: list[str] = self._call(
                lambda offset=offset: self.client.zrangebyscore(  # type: ignore[misc]
                    self._touched, "-inf", f"({before}", start=offset, num=PURGE_BATCH
                )
            )
            if not ids:
                break
            kept = 0
            for doc_id in ids:
                if doc_id.startswith(prefix) and deleted < limit and self._delete_old(doc_id, before):
                    deleted += 1
                else:
                    kept += 1  # another prefix, or touched since the index was read: it stays
            offset += kept
        return deleted

    def _delete_old(self, doc_id: str, before: float) -> bool:
        if not self._call(lambda: self._delete_if_old(keys=self._keys(doc_id), args=[before])):
            return False
        self._call(lambda: self.client.zrem(self._touched, doc_id))
        self._unindex(doc_id)
        return True

    def overdue(self, before: float, limit: int) -> list[tuple[str, str]]:
        entries: list[tuple[str, float]] = self._call(
            lambda: self.client.zrangebyscore(
                self._index[0], "-inf", f"({before!r}", 0, limit, withscores=True
            )
        )
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
                self._call(lambda: self._mend(keys=self._index, args=[doc_id, score, _when(due)]))  # noqa: B023
        return found

    def version(self, doc_id: str) -> int | None:
        stored = self._call(lambda: self.client.hget(self.key(doc_id), "version"))
        return None if stored is None else int(stored)

    def count(self) -> int:
        return int(self._call(lambda: self.client.zcard(self._touched)))

    def export(self) -> Iterator[tuple[Row, list[Doc]]]:
        for doc_id in self._call(lambda: self.client.zrange(self._touched, 0, -1)):
            row = self.load(doc_id)
            if row is not None:
                yield row, self.moves(doc_id)

    def import_row(self, row: Row, moves: list[Doc]) -> None:
        def write() -> int:
            args = [row.kind, row.doc["version"], _dump(row.doc), row.created, row.updated, _when(row.due)]
            return int(self._import(keys=self._keys(row.doc_id), args=[*args, *map(_dump, moves)]))

        if not self._call(write):
            raise AlreadyExists(row.doc_id)
        self._call(lambda: self.client.zadd(self._touched, {row.doc_id: row.updated}))
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
        """Send what ``build`` adds to a pipeline in one round trip. Scripts go as EVALSHA itself,
        not as redis-py's Script objects, which ask SCRIPT EXISTS first (a second round trip);
        a Redis that lost its scripts (restarted, or SCRIPT FLUSH) is given every one again, once."""
        for attempt in (1, 2):
            pipe = self.client.pipeline(transaction=False)
            build(pipe)
            try:
                return list(pipe.execute())
            except self._no_script:
                if attempt == 2:
                    raise
                for script in self._scripts:
                    self.client.script_load(script.script)
        raise AssertionError("unreachable")  # pragma: no cover

    def _call(self, work: Callable[[], _T]) -> _T:
        """Run one exchange with Redis; any failure of Redis is a ``StorageError`` (nothing written)."""
        try:
            return work()
        except self._errors as exc:
            raise StorageError(f"redis: {exc}") from None
