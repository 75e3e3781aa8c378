"""The bus in Redis: every process hears what any process publishes on a topic its sessions watch.

Each process keeps its own ``MemoryBus`` of local sessions. ``publish`` delivers to them
at once, then publishes the same envelope (messages, audience, the publishing process)
on the topic's channel, ``P:bus:{topic}``; a process subscribes to a channel while one of
its sessions is on the topic, and its listener hands what other processes publish to its
local sessions. A reply to one local session never leaves the process.

Pub/sub delivers at most once, so each topic heard by other processes also keeps a short
history: a publish appends its envelope to the stream ``P:bus:{topic}:history`` (capped
at about ``HISTORY`` entries, gone ``HISTORY_SECONDS`` after the topic's last publish) and
publishes it with the entry's id, in one script. Each process remembers the last id it
heard on each topic. After a lost connection to Redis, the listener subscribes again,
replays from each topic's history what it missed, in order and once, and calls
``on_resubscribe`` with the topics whose history no longer reaches back that far (or that
it never heard from): the live layer sends those a fresh snapshot instead, and catches up
every document that moved. Either may fail while Redis is only partly back (a cluster's
failover that the process's command client has yet to learn): the listener tries it again
every ``RECONNECT_PAUSE`` until it is done, and what it hears on a topic meanwhile waits for
that topic's replay.

On a Redis Cluster the channels are sharded (``redis_channels``): a topic's messages travel
only within the shard of its hash tag, beside its history and its listeners.

Most topics are heard by one process only (a player's own game), so publishing every drag
step to Redis for nobody would cost each event a round trip. ``PUBLISH`` answers how many
subscribers heard it: once only this process did, and no other live process is listed as
listening in ``P:bus:{topic}:listeners`` (one cut off from Redis for a moment still is:
what it misses meanwhile must go into the history), the topic is *alone* and nothing more
is sent for it, until another process subscribes to it and says so on ``P:bus:joined``
(which every process hears, and which clears the mark at once), or ``ALONE_SECONDS`` pass.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from ... import codec
from ..redis_client import in_cluster, read_many
from .base import EVERYONE, Audience, Message, Subscriber, Unsettled, reply
from .memory import MemoryBus
from .redis_channels import PlainChannels, ShardChannels

log = logging.getLogger(__name__)

OWNERS_CHECKED_EVERY = 2.0
"""Seconds between the listener's checks, on a cluster, that each channel is still served by the
master it is subscribed on (``ShardChannels.check``)."""
RECONNECT_PAUSE = 0.5
"""Seconds between attempts to subscribe again while Redis is away, and to catch up after."""
REPLAY_PATIENCE = 30.0
"""How long messages heard after a resubscription wait for the history before them to be replayed
(this process's commands may reach Redis later than its subscriptions: a cluster's failover that
its command client has yet to learn); past it, a topic still not replayed is shown afresh instead."""
UNREPLAYED_KEPT = 10_000
"""Messages of one topic kept waiting for its replay, at most (then it gets a snapshot too)."""
COMPLAIN_EVERY = 10.0
"""Seconds between two log lines of a catch-up that still cannot be done."""
LISTEN_SECONDS = 1.0
"""The longest the listener waits for a message before it looks whether it was stopped."""
ALONE_KEPT = 100_000
"""Topics remembered as heard by this process alone, at most."""
ALONE_SECONDS = 5.0
"""How long a topic stays marked alone before a publish asks Redis again: should a mark ever be
wrong (a join not heard yet), other processes miss that topic's messages for this long at most
(nothing goes to its history meanwhile: their copies of the document catch up from the store,
``doorbell.Rechecks``)."""
HISTORY = 200
"""Envelopes kept in a topic's history (about: Redis trims whole blocks): a few seconds of a
busy room's drags, enough for a resubscription after a short outage."""
HISTORY_SECONDS = 600
"""A topic's history goes this long after its last publish."""
LISTED_SECONDS = HISTORY_SECONDS
"""A process stays listed as listening to a topic this long unless it lists itself again (its
listener does, every third of it): as long as the history that keeps what it misses."""

# KEYS[1] the topic's history; ARGV the channel (in the same slot), the envelope, the history's
# length and life. {command} is PUBLISH, or SPUBLISH on a cluster.
PUBLISH = """
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'e', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return redis.call('{command}', ARGV[1], id .. ' ' .. ARGV[2])
"""


def _id(entry_id: str) -> tuple[int, int]:
    """A stream entry's id in the order Redis gives them ("1700000000000-3")."""
    ms, _, n = entry_id.partition("-")
    return int(ms), int(n or 0)


def _audience_doc(audience: Audience) -> list[Any]:
    holders = None if audience.holders is None else sorted(audience.holders)
    return [holders, audience.session, audience.skip]


def _audience(doc: list[Any]) -> Audience:
    holders, session, skip = doc
    return Audience(None if holders is None else frozenset(holders), session, skip)


class RedisBus:
    reply = staticmethod(reply)

    def __init__(
        self,
        client: Any,
        process: str,
        prefix: str = "wibble",
        open_listener: Callable[[], Any] | None = None,
        alive_key: Callable[[str], str] | None = None,
        listed_for: float = LISTED_SECONDS,
    ) -> None:
        self.client = client
        self._open_listener = open_listener or (lambda: client)
        """Opens the client whose connections the subscriptions use (one that never retries by
        itself: a lost connection must reach ``_listen``)."""
        self.listener = self._open_listener()
        self._sharded = in_cluster(client)
        self.process = process
        self.prefix = prefix
        self.listed_for = listed_for
        """Seconds a listing lasts unless renewed (``LISTED_SECONDS``; tests shorten it)."""
        self.local = MemoryBus()
        self.on_resubscribe: Callable[[set[str]], object] = lambda gaps: None
        """Called after the listener subscribed again following a lost connection and replayed
        what it could, with the topics it could not replay (see the module's docstring). It may
        raise ``Unsettled`` with the topics it could not show yet: it is called again with those
        (so it must be safe to call twice)."""
        self._heard: dict[str, str] = {}
        """Each topic subscribed here: the id of the last envelope heard on it."""
        self._publish = client.register_script(
            PUBLISH.replace("{command}", ShardChannels.publish if self._sharded else PlainChannels.publish)
        )
        self._alive_key = alive_key or (lambda process: f"{prefix}:alive:{process}")
        """The key that lives while a process does (``RedisPresence.alive_key``)."""
        self._channels: set[str] = set()
        self._alone: dict[str, float] = {}
        """Topics no other process listens to, each until when (see the module's docstring)."""
        self._joined = f"{prefix}:bus:joined"
        self._joins_heard = 0
        self._lock = threading.Lock()
        self._subs = self._open_channels()
        self._stopped = False
        self._thread: threading.Thread | None = None
        self._listed_at = time.monotonic()
        """When ``_relist`` last ran (each subscription lists its topic as it is made)."""
        self._checked_at = time.monotonic()
        """When the listener last checked that each channel's master still serves it (a cluster)."""
        self._waiting: list[tuple[str, str, str]] | None = None
        """While a catch-up is under way (``skip_backlog`` until ``go_on``): what other processes
        publish, kept back so that it reaches the pages after their fresh snapshots."""
        self._unreplayed: dict[str, list[tuple[str, str]]] = {}
        """After a resubscription, each topic whose history is still to be replayed: what other
        processes publish on it meanwhile (ids and envelopes), kept back to come after (``_settle``)."""
        self._owed: set[str] | None = None
        """After a resubscription, until the live layer has caught up: the topics it is to show
        afresh (``on_resubscribe``)."""
        self._lost_at = 0.0
        """When the catch-up under way began: the first resubscription since the last was done."""
        self._settled_at = 0.0
        """When the listener last tried to catch up (monotonic)."""
        self._complained_at = -COMPLAIN_EVERY
        """When a catch-up that could not be done yet was last logged."""
        self.start()

    def _open_channels(self) -> PlainChannels | ShardChannels:
        """Subscribe to every channel afresh: the joins, and every topic this process listens to."""
        channels = [self._joined, *self._channels]
        if self._sharded:
            return ShardChannels(self.listener, channels)
        return PlainChannels(self.listener, channels)

    def _channel(self, topic: str) -> str:
        return f"{self.prefix}:bus:{{{topic}}}"

    def _topic(self, channel: str) -> str:
        return channel[len(self.prefix) + 6 : -1]

    def _history(self, topic: str) -> str:
        return f"{self._channel(topic)}:history"

    def _listeners(self, topic: str) -> str:
        return f"{self._channel(topic)}:listeners"

    # -- the Bus interface -----------------------------------------------------------------

    def subscribe(self, topic: str, subscriber: Subscriber) -> None:
        self.local.subscribe(topic, subscriber)
        channel = self._channel(topic)
        with self._lock:
            if channel in self._channels or self._stopped:
                return  # (a stopped bus subscribes to nothing more: its connections are closed)
            self._channels.add(channel)
            try:
                self._subs.subscribe(channel)
            except Exception as exc:  # the listener finds the connection lost and subscribes again
                log.warning("could not subscribe to %s yet (%s)", channel, exc)
        self.start()
        self._say_joined([topic])

    def _list(self, pipe: Any, topics: Iterable[str]) -> None:
        """Add to ``pipe``: this process listens to ``topics`` (for ``_others_listen``), for the
        next ``listed_for`` seconds (the listener lists them again well before: ``_relist``)."""
        for topic in topics:
            pipe.sadd(self._listeners(topic), self.process)
            pipe.pexpire(self._listeners(topic), int(self.listed_for * 1000))

    def _unlist(self, topic: str) -> None:
        try:
            self.client.srem(self._listeners(topic), self.process)
        except Exception as exc:  # (a process listed that does not listen costs others a look)
            log.warning("could not note that this process stopped listening to %s: %s", topic, exc)

    def _relist(self) -> None:
        """List again every topic this process listens to, before the lists expire (the listener
        does it every third of their life, in one round trip)."""
        self._listed_at = time.monotonic()
        with self._lock:  # a copy taken while no subscription changes it
            topics = [self._topic(channel) for channel in self._channels]
        if not topics:
            return
        try:
            pipe = self.client.pipeline(transaction=False)
            self._list(pipe, topics)
            pipe.execute()
        except Exception as exc:  # the next pass tries again
            log.warning("could not list this process's topics again: %s", exc)

    def _others_listen(self, topic: str) -> bool:
        """Whether another live process is listed as listening to ``topic`` (it may be cut off
        from Redis for a moment, and hear nothing: the history keeps what it misses)."""
        others = sorted(set(self.client.smembers(self._listeners(topic))) - {self.process})
        if not others:
            return False
        return any(key is not None for key in read_many(self.client, [self._alive_key(p) for p in others]))

    def unsubscribe(self, topic: str, subscriber: Subscriber) -> None:
        self.local.unsubscribe(topic, subscriber)
        if self.local.has(topic):
            return
        self._alone.pop(topic, None)  # (whoever publishes on it next asks Redis afresh)
        channel = self._channel(topic)
        with self._lock:
            if channel in self._channels:
                self._channels.discard(channel)
                self._heard.pop(topic, None)
                try:
                    self._subs.unsubscribe(channel)
                except Exception as exc:  # the listener subscribes afresh to what is left
                    log.warning("could not unsubscribe from %s: %s", channel, exc)
        self._unlist(topic)

    def publish(
        self,
        topic: str,
        messages: Iterable[Message],
        audience: Audience = EVERYONE,
        origin: str | None = None,
        seq: int | None = None,
    ) -> None:
        messages = list(messages)
        if not messages:
            return
        self.local.publish(topic, messages, audience, origin, seq)
        alone_until = self._alone.get(topic)
        if alone_until is not None:
            if alone_until > time.monotonic():
                return  # nobody elsewhere listens
            self._alone.pop(topic, None)
        if audience.session is not None and self.local.holds(topic, audience.session):
            return  # one local session's own: nobody elsewhere hears it
        # Other processes read it with json.loads (or codec.loads): any JSON text will do, and
        # escaped where msgspec cannot write it, as json.dumps did, so Redis can always take it.
        envelope = codec.dumps(
            {"p": self.process, "a": _audience_doc(audience), "m": messages}, ascii_fallback=True
        )
        joins = self._joins_heard
        try:
            args = [self._channel(topic), envelope, HISTORY, HISTORY_SECONDS]
            heard = self._publish(keys=[self._history(topic)], args=args)
        except Exception as exc:  # the others catch up with a snapshot when they resubscribe
            log.warning("could not publish on %s to other processes: %s", topic, exc)
            return
        if heard > (1 if self.local.has(topic) else 0):
            return
        try:
            if self._others_listen(topic):
                return  # one listed as listening is only cut off for a moment
        except Exception as exc:
            log.warning("could not ask who listens to %s: %s", topic, exc)
            return
        # Alone only if no process said it joined since this PUBLISH was sent: it may have
        # subscribed just after it, and its word been read here during the round trips above
        # (a join read later clears the mark). Checked and marked with nothing in between that
        # could let the listener run.
        with self._lock:
            if self._joins_heard != joins:
                return
            if len(self._alone) >= ALONE_KEPT:
                self._alone.clear()  # a bound on memory: the next publish of each asks again
            self._alone[topic] = time.monotonic() + ALONE_SECONDS

    def skip_backlog(self) -> set[str]:
        """After this process was stopped: what other processes published meanwhile waits unread in
        the listener's connection, and is older than the snapshots the live layer is about to send.
        Each topic's last heard id moves to the newest in its history, so that backlog is dropped as
        it arrives (``_hand_on``); returns the topics that had one, for a fresh snapshot instead."""
        skipped = set()
        with self._lock:
            topics = [self._topic(channel) for channel in self._channels]
            if self._waiting is None:
                self._waiting = []
        pipe = self.client.pipeline(transaction=False)
        for topic in topics:
            pipe.xrevrange(self._history(topic), count=1)
        for topic, newest in zip(topics, pipe.execute(), strict=True):
            if not newest:
                continue
            entry_id = newest[0][0]
            last = self._heard.get(topic)
            if last is None or _id(entry_id) > _id(last):
                self._heard[topic] = entry_id
                skipped.add(topic)
        return skipped

    def go_on(self) -> None:
        """The catch-up after ``skip_backlog`` is done: deliver what was kept back meanwhile (what
        is older than the newest id heard on its topic is dropped, as ever)."""
        with self._lock:
            waiting, self._waiting = self._waiting or [], None
        for topic, entry_id, text in waiting:
            self._hand_on(topic, entry_id, text)

    def _say_joined(self, topics: list[str]) -> None:
        """Tell the other processes that this one listens to ``topics`` now, and list it so (one
        round trip)."""
        try:
            pipe = self.client.pipeline(transaction=False)
            self._list(pipe, topics)
            joined = json.dumps({"p": self.process, "t": topics})
            if self._sharded:
                pipe.spublish(self._joined, joined)
            else:
                pipe.publish(self._joined, joined)
            pipe.execute()
        except Exception as exc:  # until Redis is back nothing crosses anyway; resubscribing says it again
            log.warning("could not tell other processes of a subscription: %s", exc)

    # -- the listener ----------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._listen, name="wibble-bus", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop listening; once this returns Redis holds none of this process's subscriptions.

        The listener is woken and let finish its read before its connection is closed: closed
        under a read still going on, a connection could come back subscribed and stay open (seen
        on a busy machine), and other processes would count a listener that is gone."""
        with self._lock:  # a resubscription under way has finished, or will not begin
            self._stopped = True
            subs = self._subs
        thread = self._thread
        if thread is not None and thread is not threading.current_thread() and thread.is_alive():
            try:
                self._wake(subs)
            except Exception:  # (Redis away: the listener looks again within LISTEN_SECONDS)
                pass
            thread.join(LISTEN_SECONDS + 0.5)
        with self._lock:
            subs = self._subs
            try:
                subs.close()
            except Exception:
                pass
        subs.join(LISTEN_SECONDS + 0.5)  # a cluster's readers close their own connections

    def _wake(self, subs: PlainChannels | ShardChannels) -> None:
        """The listener's read returns now. On one Redis a word on the joined channel, which the
        listener reads (and ignores: it has no topics), sent on another connection: writing on
        the listener's own while it reads it left a socket unclosed when both reconnected at
        once (a cut-off connection)."""
        if isinstance(subs, ShardChannels):
            subs.wake()
        else:
            self.client.publish(self._joined, json.dumps({"p": self.process}))

    def _listen(self) -> None:
        while not self._stopped:
            if time.monotonic() - self._listed_at > self.listed_for / 3:
                self._relist()
            owing = bool(self._unreplayed) or self._owed is not None
            if owing and time.monotonic() - self._settled_at >= RECONNECT_PAUSE:
                self._settle()
            wait = RECONNECT_PAUSE if owing else LISTEN_SECONDS
            try:  # (a listing shorter than 3 s is relisted in time: tests)
                if self._sharded and time.monotonic() - self._checked_at > OWNERS_CHECKED_EVERY:
                    self._checked_at = time.monotonic()
                    self._subs.check(self._owner_of, self._ask)
                message = self._subs.next(timeout=min(wait, self.listed_for / 3))
            except Exception as exc:
                if self._stopped:
                    return
                log.warning("lost the bus's connection to Redis (%s); subscribing again", exc)
                self._resubscribe()
                continue
            if message is None:
                continue
            channel, data = message
            if channel == self._joined:
                self._heard_joined(data)
            else:
                self._deliver(channel, data)

    def _owner_of(self, channel: str) -> str:
        """The master that serves ``channel``'s slot, as the command client knows it."""
        return str(self.client.get_node_from_key(channel).name)

    def _ask(self, channel: str) -> None:
        try:  # a read in the channel's slot: a client behind the map is told where it is now
            self.client.exists(channel)
        except Exception:  # (a master away: the client learns the map from the others)
            pass

    def _heard_joined(self, data: str) -> None:
        try:
            joined = json.loads(data)
        except ValueError:
            return
        if joined.get("p") != self.process and "t" in joined:  # (without topics: a wake, see stop)
            with self._lock:
                self._joins_heard += 1
                for topic in joined.get("t", ()):
                    self._alone.pop(topic, None)

    def _deliver(self, channel: str, data: str) -> None:
        entry_id, _, text = data.partition(" ")
        topic = self._topic(channel)
        kept = self._unreplayed.get(topic)
        if kept is None:
            self._pass_on(topic, entry_id, text)
        elif len(kept) < UNREPLAYED_KEPT:  # the history before it is still to be replayed: after it
            kept.append((entry_id, text))
        else:  # too much to keep: the topic is shown afresh instead (once the live layer can)
            self._replayed(topic, gap=True)
            self._pass_on(topic, entry_id, text)

    def _pass_on(self, topic: str, entry_id: str, text: str) -> None:
        waiting = self._waiting
        if waiting is not None:  # a catch-up is under way: after its snapshots
            waiting.append((topic, entry_id, text))
            return
        self._hand_on(topic, entry_id, text)

    def _hand_on(self, topic: str, entry_id: str, text: str) -> None:
        """Deliver one envelope heard on ``topic`` to the sessions here, unless it was heard
        already (a replay and the live channel may both bring it) or came from here."""
        try:
            order = _id(entry_id)
            envelope = codec.loads(text)
        except ValueError:
            log.warning("a bus message on %s is damaged; dropped", topic)
            return
        last = self._heard.get(topic)
        if last is not None and order <= _id(last):
            return
        self._heard[topic] = entry_id
        if envelope.get("p") == self.process:
            return  # this process delivered it already
        try:
            self.local.publish(topic, envelope["m"], _audience(envelope["a"]))
        except Exception:
            log.exception("delivering a bus message on %s failed", topic)

    def _replay(self, topic: str) -> bool:
        """Deliver what ``topic``'s history holds after the last envelope heard on it; whether
        some was lost to it (the history no longer reaches back, or nothing was ever heard)."""
        last = self._heard.get(topic)
        if last is None:
            return True
        entries = self.client.xrange(self._history(topic), min=last)
        for entry_id, fields in entries:
            self._hand_on(topic, entry_id, fields.get("e", ""))
        return not entries or entries[0][0] != last  # (trimmed past it: what lay between is lost)

    def _resubscribe(self) -> None:
        while not self._stopped:
            time.sleep(RECONNECT_PAUSE)
            if self._stopped:  # stopped meanwhile: subscribing again would list it as listening anew
                return
            try:
                with self._lock:
                    if self._stopped:
                        return
                    self._subs.close()
                    if self._sharded:  # a fresh client: it asks the cluster where each slot is now
                        old, self.listener = self.listener, self._open_listener()
                        old.close()
                    self._subs = self._open_channels()
            except Exception as exc:
                log.warning("Redis is still away (%s)", exc)
                continue
            log.warning("the bus is back: subscribed again to %d topics; catching up", len(self._channels))
            self._alone.clear()  # (who listens may have changed meanwhile)
            self._say_joined([self._topic(channel) for channel in self._channels])
            if not self._unreplayed and self._owed is None:  # (else: lost again during one; it goes on)
                self._lost_at = time.monotonic()
            for channel in self._channels:
                self._unreplayed.setdefault(self._topic(channel), [])
            self._owed = self._owed or set()
            self._settle()
            return

    def _settle(self) -> None:
        """Catch up after a resubscription: replay what each topic's history kept since the last
        envelope heard on it, then deliver what was heard on it meanwhile; once every topic is
        replayed, have the live layer show afresh those that could not be (``on_resubscribe``).
        What fails (Redis only partly back) is left for the listener to try again: a player must
        not miss a word for it. A topic whose replay still fails after ``REPLAY_PATIENCE`` is
        shown afresh instead; the live layer's catch-up is tried until it is done."""
        now = self._settled_at = time.monotonic()
        failed: Exception | None = None
        for topic in list(self._unreplayed):
            if self._channel(topic) not in self._channels:  # (unsubscribed meanwhile)
                self._unreplayed.pop(topic, None)
                continue
            try:
                gap = self._replay(topic)
            except Exception as exc:
                if now - self._lost_at < REPLAY_PATIENCE:
                    failed = exc
                    continue
                gap = True
            self._replayed(topic, gap)
        if failed is not None:
            self._complain(f"could not replay the history of {len(self._unreplayed)} topics yet ({failed})")
            return
        if self._owed is None:
            return
        try:
            self.on_resubscribe(set(self._owed))
        except Unsettled as exc:  # some documents could not be shown yet: those again, soon
            self._owed = exc.topics
            self._complain(f"could not catch up with {len(exc.topics)} topics yet ({exc})")
            return
        except Exception:
            log.exception("catching up after Redis came back failed")
        self._owed = None

    def _replayed(self, topic: str, gap: bool) -> None:
        """``topic``'s replay is done (or given up: ``gap``): what was kept back for it goes on."""
        if gap:
            self._owed = (self._owed or set()) | {topic}
        for entry_id, text in self._unreplayed.pop(topic, []):  # (what the replay brought is dropped)
            self._pass_on(topic, entry_id, text)

    def _complain(self, what: str) -> None:
        """Log a catch-up that cannot be done yet: at once, then every ``COMPLAIN_EVERY`` seconds."""
        if time.monotonic() - self._complained_at >= COMPLAIN_EVERY:
            self._complained_at = time.monotonic()
            log.warning("%s; trying again every %.1f s", what, RECONNECT_PAUSE)
