"""What only the Redis engine has to get right: a server that forgot its scripts, one round trip."""

from __future__ import annotations

import pytest
import redis

from tests.engines.games import new_game, play
from wibble.engines.store import AlreadyExists, StorageError, VersionConflict
from wibble.engines.store.redis import RedisStore

T0 = 1_700_000_000.0


def test_a_redis_that_lost_its_scripts_still_commits_and_touches(redis_url: str) -> None:
    store = RedisStore(redis_url)
    game = new_game(seed=2)
    store.create("g1", "game", game.to_doc(), T0)
    first, second = play(game, 2)
    store.commit("g1", first.expected, first.doc, first.move, T0 + 1)
    store.client.script_flush()  # as after a restart of Redis (scripts are not kept on disk)
    store.commit("g1", second.expected, second.doc, second.move, T0 + 2)
    store.client.script_flush()
    store.touch("g1", T0 + 3)
    row = store.load("g1")
    assert row is not None
    assert (row.doc, row.updated) == (second.doc, T0 + 3)
    assert store.moves("g1") == [first.move, second.move]


def test_a_redis_that_lost_its_scripts_misses_each_once(redis_url: str) -> None:
    store = RedisStore(redis_url)
    store.create("m1", "match", {"version": 0}, T0, due=T0 + 10)
    store.client.script_flush()
    with redis.Redis.from_url(redis_url, decode_responses=True) as admin:
        admin.config_resetstat()
        store.commit("m1", 0, {"version": 1}, {"n": 1}, T0 + 1, due=T0 + 60)  # the commit, then the index
        store.commit("m1", 1, {"version": 2}, {"n": 2}, T0 + 2, due=T0 + 70)
        stats = admin.info("commandstats")
    assert int(stats["cmdstat_evalsha"]["failed_calls"]) == 2  # the first commit's, then its index's
    assert int(stats["cmdstat_script|load"]["calls"]) == 2
    assert store.overdue(T0 + 90, 10) == [("m1", "match")]


def test_a_commit_is_one_round_trip_of_five_commands(redis_url: str) -> None:
    store = RedisStore(redis_url)
    game = new_game(seed=3)
    store.create("g1", "game", game.to_doc(), T0)
    first, step = play(game, 2)
    store.commit("g1", first.expected, first.doc, first.move, T0 + 1)  # (Redis learns the script)
    with redis.Redis.from_url(redis_url, decode_responses=True) as admin:
        admin.config_resetstat()
        store.commit("g1", step.expected, step.doc, step.move, T0 + 2)
        calls = {name: int(entry["calls"]) for name, entry in admin.info("commandstats").items()}
    calls.pop("cmdstat_config|resetstat", None)
    # The script and its own TIME, HMGET, HSET and RPUSH (the retention index is not moved: a
    # purge checks each document's own time).
    assert calls == {
        "cmdstat_evalsha": 1,
        "cmdstat_time": 1,
        "cmdstat_hmget": 1,
        "cmdstat_hset": 1,
        "cmdstat_rpush": 1,
    }


def test_a_purge_keeps_a_document_used_since_its_entry_and_moves_the_entry_up(redis_url: str) -> None:
    store = RedisStore(redis_url)
    game = new_game(seed=5)
    store.create("g1", "game", game.to_doc(), T0)
    [step] = play(game, 1)
    store.commit("g1", step.expected, step.doc, step.move, T0 + 100)
    assert store.client.zscore(f"{store.prefix}:touched", "g1") == T0  # (the commit left it)

    assert store.purge(T0 + 50, 10) == 0
    assert store.load("g1") is not None
    assert store.client.zscore(f"{store.prefix}:touched", "g1") == T0 + 100  # mended

    assert store.purge(T0 + 150, 10) == 1
    assert store.load("g1") is None
    assert store.count() == 0


def test_a_commit_that_reaches_redis_after_its_writer_gave_up_changes_nothing(redis_url: str) -> None:
    store = RedisStore(redis_url)
    game = new_game(seed=4)
    store.create("g1", "game", game.to_doc(), T0)
    [step] = play(game, 1)
    store._offset -= 5.0  # as if the write sat 5 s in a paused Redis's buffer before it ran
    with pytest.raises(StorageError):
        store.commit("g1", step.expected, step.doc, step.move, T0 + 1)
    assert store.load("g1").doc == new_game(seed=4).to_doc()  # type: ignore[union-attr]
    assert store.moves("g1") == []


def test_a_creation_that_reaches_redis_after_its_writer_gave_up_makes_nothing(redis_url: str) -> None:
    # The player was told the game could not be made (``server/storage``): it must not appear
    # later, holding a daily try, say, that the player can then no longer start.
    store = RedisStore(redis_url)
    store._offset -= 5.0  # as if the write sat 5 s in a paused Redis's buffer before it ran
    with pytest.raises(StorageError):
        store.create("g1", "game", new_game(seed=4).to_doc(), T0)
    assert store.load("g1") is None
    store.create("g1", "game", new_game(seed=4).to_doc(), T0)  # the next try: made (the offset mended)
    assert store.load("g1") is not None


def test_without_the_redis_package_the_host_is_told_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from wibble.engines.redis import open_engines
    from wibble.engines.store import StoreOpenError

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "redis" else real(name, *a)
    )
    with pytest.raises(StoreOpenError, match=r"\.venv/bin/pip install -e '\.\[redis\]'"):
        open_engines("redis://127.0.0.1:1/0")


def test_a_retried_commit_that_had_applied_is_told_as_applied_however_late(redis_url: str) -> None:
    # (From a second read: the first try applied, its reply was lost, redis-py's one retry came
    # after the valid-until; the player was told "nothing changed" though the store had it.)
    store = RedisStore(redis_url)
    store._write_id = lambda: "one write"  # type: ignore[method-assign]  # (a retry resends the same)
    store.create("g1", "game", {"version": 0}, T0)
    store.commit("g1", 0, {"version": 1}, {"version": 1}, T0 + 1)  # the first try: applied
    store._patience = -5.0  # the identical retry reaches Redis after its valid-until
    store.commit("g1", 0, {"version": 1}, {"version": 1}, T0 + 1)  # told: applied, as it was
    assert store.moves("g1") == [{"version": 1}]


def test_a_retried_create_that_had_applied_is_told_as_made_and_anothers_as_taken(redis_url: str) -> None:
    # A new game's creation whose reply was lost (a failover, a timeout) is sent again by redis-py
    # as it was: the player must hear that the game was made, not that its id is taken.
    store, other = RedisStore(redis_url), RedisStore(redis_url)
    store._write_id = lambda: "one write"  # type: ignore[method-assign]  # (a retry resends the same)
    store.create("g1", "game", {"version": 0, "n": 1}, T0)
    store._patience = -5.0  # the retry reaches Redis after its valid-until: still made, as it was
    store.create("g1", "game", {"version": 0, "n": 1}, T0)
    store._patience = RedisStore(redis_url)._patience
    with pytest.raises(AlreadyExists):
        other.create("g1", "game", {"version": 0, "n": 2}, T0)  # another's of the same id: taken
    row = store.load("g1")
    assert row is not None
    assert row.doc == {"version": 0, "n": 1}
    store.commit("g1", 0, {"version": 1}, {"version": 1}, T0 + 1)  # and it plays on as any
    with pytest.raises(AlreadyExists):
        store.create("g1", "game", {"version": 0, "n": 1}, T0)  # once moved on, it is not a retry


def test_another_writers_identical_document_is_a_conflict_as_on_every_engine(redis_url: str) -> None:
    # Two processes playing the same word for one seat build the very same document: one commits,
    # the other must hear that it did not (before, both were told "played" and told everyone).
    one, other = RedisStore(redis_url), RedisStore(redis_url)
    one.create("g1", "game", {"version": 0}, T0)
    one.commit("g1", 0, {"version": 1}, {"version": 1}, T0 + 1)
    with pytest.raises(VersionConflict):
        other.commit("g1", 0, {"version": 1}, {"version": 1}, T0 + 1)
    assert one.moves("g1") == [{"version": 1}]


def test_a_commit_that_moves_a_deadline_indexes_it_in_one_more_round_trip_and_one_that_keeps_it_in_none(
    redis_url: str,
) -> None:
    store = RedisStore(redis_url)
    store.create("m1", "match", {"version": 0}, T0, due=T0 + 10)
    with redis.Redis.from_url(redis_url, decode_responses=True) as admin:
        admin.config_resetstat()
        store.commit("m1", 0, {"version": 1}, {"n": 1}, T0 + 1)  # KEEP: the clock did not move
        kept = {name: int(entry["calls"]) for name, entry in admin.info("commandstats").items()}
        admin.config_resetstat()
        store.commit("m1", 1, {"version": 2}, {"n": 2}, T0 + 2, due=T0 + 60)
        moved = {name: int(entry["calls"]) for name, entry in admin.info("commandstats").items()}
    assert kept["cmdstat_evalsha"] == 1
    assert moved["cmdstat_evalsha"] == 2  # the commit, then the index's own script
    assert store.overdue(T0 + 30, 10) == []
    assert store.overdue(T0 + 90, 10) == [("m1", "match")]


def test_an_index_entry_left_early_is_mended_and_one_for_a_newer_version_is_never_undone(
    redis_url: str,
) -> None:
    store = RedisStore(redis_url)
    store.create("m1", "match", {"version": 0}, T0, due=T0 + 10)
    store.commit("m1", 0, {"version": 1}, {"n": 1}, T0 + 1, due=T0 + 100)
    # As if the commit's index write had been lost: the entry still says the old, earlier time.
    store.client.zadd(f"{store.prefix}:{{due}}:at", {"m1": T0 + 10})

    assert store.overdue(T0 + 50, 10) == []  # checked against the document, and mended
    assert store.client.zscore(f"{store.prefix}:{{due}}:at", "m1") == T0 + 100

    # An index write for an older version, arriving late, changes nothing.
    store._index_due(keys=store._index_of("m1"), args=["m1", 0, repr(T0 + 5)])
    assert store.client.zscore(f"{store.prefix}:{{due}}:at", "m1") == T0 + 100


def test_a_deleted_documents_entry_left_behind_is_dropped(redis_url: str) -> None:
    store = RedisStore(redis_url)
    store.create("room:ABCD", "room", {"version": 0}, T0, due=T0 + 10)
    store.client.delete(store.key("room:ABCD"))  # deleted, its index entry left behind
    assert store.overdue(T0 + 20, 10) == []
    assert store.client.zscore(f"{store.prefix}:{{due}}:at", "room:ABCD") is None
