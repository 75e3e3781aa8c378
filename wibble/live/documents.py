"""One lifecycle for every kind of document in play: load, keep, commit, recover.

A game, a match and a room differ in their rules, not in how they are kept. Each
is held in memory as a cache of the store (``Documents``): created or loaded on
demand, let go when nobody has used it for ``idle_timeout`` or to make room at
``capacity`` (the store keeps it), and changed for good only through ``commit``:

1. apply the change to the document in memory (the core checks it first);
2. if its version moved, write it to the store with a compare-and-set on the
   version it had, with what the record keeps of the change;
3. if the write failed, put the document back as it was and re-raise, so the
   player can simply try again; if another process wrote first, take the stored
   document (``Kind.reloaded`` shows it to everyone) and re-raise;
4. otherwise ring the doorbell, when other processes share the store, so that
   their copies take the new version.

Another process's commit reaches a copy here through ``refresh``: the copy takes
the stored version silently (``Kind.refresh``), since that process told everyone.

A ``Kind`` adapts one sort of document: how it becomes a stored document and back.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection, Iterator
from contextlib import AbstractContextManager
from typing import Any, Generic, Protocol, TypeVar

from ..core import RuleError, WibbleError
from ..engines.presence import Presence
from ..engines.store import KEEP, Due, Gone, StorageError, Store, VersionConflict
from .doorbell import Doorbell, Rechecks

log = logging.getLogger(__name__)

GONE = -1
"""The version a doorbell rings for a document another stack deleted."""

Doc = dict[str, Any]
R = TypeVar("R")


class Held(Protocol):
    """A document in memory, with its lock; ``last_active`` counts people only, never timers."""

    @property
    def lock(self) -> AbstractContextManager[Any]: ...

    last_active: float

    @property
    def doc_id(self) -> str: ...

    @property
    def version(self) -> int: ...


H = TypeVar("H", bound=Held)
K = TypeVar("K", bound=Held, contravariant=True)


class Kind(Protocol[K]):
    name: str
    """How a player hears of it ("game", "match", "room", "race")."""

    def dump(self, held: K) -> Doc:
        """The document the store keeps."""

    def restore(self, held: K, doc: Doc) -> None:
        """Put ``held`` back exactly as ``doc`` says (a write failed: nothing changed)."""

    def reloaded(self, held: K, doc: Doc) -> None:
        """Another process committed first: ``held`` becomes ``doc``; show it to everyone."""

    def refresh(self, held: K, doc: Doc) -> None:
        """Another process committed ``doc``, a newer version, and told everyone: ``held`` takes it
        without a word (its deadlines follow it)."""

    def due(self, held: K) -> float | None:
        """When the document's next deadline falls (wall-clock) that must run even if nobody is
        connected to it (a room's grace period, its end once empty), if any: what the store
        indexes, so that some process takes it on if the one holding it died."""


class Documents(Generic[H]):
    def __init__(
        self,
        kind: Kind[H],
        store: Store,
        presence: Presence,
        clock: Callable[[], float],
        wall_clock: Callable[[], float],
        capacity: float,
        full: str,
        idle_timeout: float = float("inf"),
        evictable: Callable[[H], bool] = lambda held: True,
        on_drop: Callable[[H], object] = lambda held: None,
        adopt: Callable[[str], object] = lambda doc_id: None,
        doorbell: Doorbell | None = None,
        rechecks: Rechecks | None = None,
    ) -> None:
        self.kind = kind
        self.store = store
        self.presence = presence
        self.clock = clock
        self.wall_clock = wall_clock
        self.capacity = capacity
        self.full = full
        """What a new document hears when memory is full of documents in use."""
        self.idle_timeout = idle_timeout
        self.evictable = evictable
        """Whether a document nobody is connected to may leave memory (a room's match may not)."""
        self.on_drop = on_drop
        """Called as a document leaves memory (its deadlines go with it)."""
        self.adopt = adopt
        """Load a stored document into memory, its deadlines set from it (each service's own
        loader): ``pick_up`` calls it for documents whose deadline nobody handled."""
        self.doorbell = doorbell
        """With other stacks (processes) sharing the store: every commit and deletion is rung to
        them, and a document held here listens for theirs (``refresh``)."""
        self.rechecks = rechecks
        """With a doorbell: a document that comes into memory is also checked against the store
        soon after (a commit rung just before this process listened is not missed)."""
        if doorbell is not None:
            doorbell.on(kind.name, self.refresh)
        self._held: dict[str, H] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._held)

    def __iter__(self) -> Iterator[H]:
        return iter(list(self._held.values()))

    def get(self, doc_id: str | None) -> H | None:
        """The document if it is in memory."""
        return None if doc_id is None else self._held.get(doc_id)

    # -- keeping -------------------------------------------------------------------------

    def create(self, held: H) -> H:
        """Save a new document, then keep it."""
        self.save_new(held)
        return self.keep(held)

    def save_new(self, held: H) -> None:
        """Save a new document without keeping it yet (``AlreadyExists`` if its id is taken). Room
        is made first: a document refused for want of memory leaves nothing in the store."""
        self.make_space()
        kind = self.kind
        self.store.create(held.doc_id, kind.name, kind.dump(held), self.wall_clock(), kind.due(held))

    def make_space(self) -> None:
        """Make room for one more document now, or ``server/full``: asked before anything is spent
        on a new one (an address's budget, a board's build), so that a refusal costs nothing."""
        with self._lock:
            self._make_space()

    def keep(self, held: H) -> H:
        """Hold ``held`` in memory (or the copy another greenlet loaded meanwhile)."""
        with self._lock:
            present = self._held.get(held.doc_id)
            if present is not None:
                return present
            self._make_space()
            self._held[held.doc_id] = held
        if self.doorbell is not None:
            self.doorbell.watch(held.doc_id)
            if self.rechecks is not None:
                self.rechecks.add(self.catch_up_one, held.doc_id)
        return held

    def drop(self, doc_id: str) -> None:
        """Let a document go from memory (the store keeps it)."""
        with self._lock:
            held = self._held.pop(doc_id, None)
        if held is not None:
            self._dropped(held)

    def _dropped(self, held: H) -> None:
        if self.doorbell is not None:
            self.doorbell.unwatch(held.doc_id)
        self.on_drop(held)

    def delete(self, doc_id: str) -> None:
        """Delete a document for good: from memory, from the store, and from every other stack's
        memory (the doorbell). Raises ``StorageError`` if the store could not (it stays)."""
        self.drop(doc_id)
        self.store.delete(doc_id)
        if self.doorbell is not None:
            self.doorbell.ring(self.kind.name, doc_id, GONE)

    def sweep(self) -> int:
        """Let go of documents nobody has been connected to for ``idle_timeout``; returns how many."""
        now = self.clock()
        with self._lock:
            stale = [
                held
                for doc_id, held in self._held.items()
                if self._unattended(held) and now - held.last_active > self.idle_timeout
            ]
            for held in stale:
                del self._held[held.doc_id]
        for held in stale:
            self._dropped(held)
        return len(stale)

    def touch(self, held: H) -> None:
        """Note in the store that the document was opened (it is kept ``RETENTION_DAYS`` from then)."""
        try:
            self.store.touch(held.doc_id, self.wall_clock())
        except StorageError as exc:  # only the retention clock missed a beat
            log.warning("could not note that %s %s was opened: %s", self.kind.name, held.doc_id, exc.reason)

    def _unattended(self, held: H) -> bool:
        return self.evictable(held) and not self.presence.count(held.doc_id)

    def _make_space(self) -> None:
        """At ``capacity``, the longest-unattended document leaves memory; ``server/full`` if none can.

        Idle documents are let go by housekeeping (``sweep``), not here: a scan of every
        document on every new one would cost O(documents) on the path of a player's message.
        """
        if len(self._held) < self.capacity:
            return
        unattended = [held for held in self._held.values() if self._unattended(held)]
        if not unattended:
            raise RuleError("server/full", self.full)
        oldest = min(unattended, key=lambda held: held.last_active)
        del self._held[oldest.doc_id]
        self._dropped(oldest)

    # -- committing ----------------------------------------------------------------------

    def commit(self, held: H, apply: Callable[[], R], record: Callable[[R], Doc]) -> R:
        """Apply a change; if the version moved, save it (compare-and-set) before anyone hears.

        Call it under ``held.lock``. ``record`` says what the record keeps of the change.
        A failed save, or a change refused after it began, leaves ``held`` as it was.
        """
        kind = self.kind
        before, version, due = kind.dump(held), held.version, kind.due(held)
        try:
            result = apply()
            if held.version == version:
                return result  # refused as a word, or nothing to do: nothing to save
            after = kind.due(held)
            next_due: Due = KEEP if after == due else after  # (the index is written only on a change)
            self.store.commit(
                held.doc_id, version, kind.dump(held), record(result), self.wall_clock(), next_due
            )
        except VersionConflict:
            try:
                row = self.store.load(held.doc_id)
            except WibbleError:
                kind.reloaded(held, before)
                raise
            if row is None:  # not changed elsewhere: gone (a Redis restarted empty)
                log.error(
                    "%s %s is no longer in the store (was it reset?): its players are told it is gone",
                    kind.name,
                    held.doc_id,
                )
                kind.restore(held, before)
                self.drop(held.doc_id)
                raise Gone(kind.name, held.doc_id) from None
            log.warning("%s %s changed in the store under us; reloading it", kind.name, held.doc_id)
            kind.reloaded(held, row.doc)
            raise
        except StorageError as exc:
            log.error("could not save a change to %s %s: %s", kind.name, held.doc_id, exc.reason)
            kind.restore(held, before)
            raise
        except WibbleError:
            if held.version != version:  # refused half way (a budget, say): undo what was begun
                kind.restore(held, before)
            raise
        if self.doorbell is not None:
            self.doorbell.ring(kind.name, held.doc_id, held.version)
        return result

    def pick_up(self, doc_id: str) -> None:
        """A deadline of ``doc_id`` fell due and nobody handled it (its process died, or this one
        restarted): hold the document here, so its deadlines are set in this process's timers,
        which claim each before running it. One held here already has them."""
        if doc_id not in self._held:
            try:
                self.adopt(doc_id)
            except WibbleError as exc:  # damaged, full, the store away: the next look tries again
                log.warning("could not pick up %s %s: %s", self.kind.name, doc_id, exc.code)

    def catch_up(self, missed: Collection[str] = (), failed: set[str] | None = None) -> int:
        """After the bus lost messages (and so may its doorbell have): every copy held here takes
        the stored document if it is newer, and shows it to everyone; one in ``missed`` (whose
        sessions missed messages that could not be replayed) is shown to everyone even if it was
        current. Returns how many were shown. Given ``failed``, a copy that could not be checked
        or shown (the store or presence away) is added to it, for the caller to try again."""
        shown = 0
        for held in self:
            try:
                if self.catch_up_one(held.doc_id, strict=failed is not None):
                    shown += 1
                elif held.doc_id in missed:
                    with held.lock:
                        self.kind.reloaded(held, self.kind.dump(held))
                    shown += 1
            except WibbleError:
                if failed is None:
                    raise
                failed.add(held.doc_id)
        return shown

    def catch_up_one(self, doc_id: str, strict: bool = False) -> bool:
        """If the copy of ``doc_id`` held here is older than the stored one, it takes the stored one
        and everyone on it is shown it (they may have missed how it got there). Whether it was.
        Asked on every refused command with several processes: the version is read first, and the
        document only if this copy is behind. ``strict``: a store that cannot be asked raises (the
        refusal may have been the copy's, not the rules'), rather than answering no."""
        held = self._held.get(doc_id)
        try:
            stored = None if held is None else self.store.version(doc_id)
        except WibbleError as exc:
            log.warning("could not ask whether %s %s is current: %s", self.kind.name, doc_id, exc.code)
            if strict:
                raise
            return False
        if held is None or (stored is not None and stored <= held.version):
            return False
        return self._take_stored(doc_id, show=True, strict=strict)

    def refresh(self, doc_id: str, version: int) -> None:
        """Another process committed ``version`` of ``doc_id`` (``GONE``: deleted it): a copy held
        here that is older takes the stored document, silently (that process told everyone); one
        the store no longer has leaves memory."""
        held = self._held.get(doc_id)
        if held is not None and not 0 <= version <= held.version:
            self._take_stored(doc_id, show=False)

    def _take_stored(self, doc_id: str, show: bool, strict: bool = False) -> bool:
        """The copy of ``doc_id`` held here takes the stored document if that is newer (``show``:
        and shows it to everyone), or leaves memory if the store has none. Whether it changed
        (``strict``: a store that cannot be read raises)."""
        held = self._held.get(doc_id)
        if held is None:
            return False
        try:
            row = self.store.load(doc_id)
        except WibbleError as exc:  # the next command reloads it on a conflict instead
            log.warning("could not bring %s %s up to date: %s", self.kind.name, doc_id, exc.code)
            if strict:
                raise
            return False
        if row is None:
            self.drop(doc_id)  # deleted by another process (a room that stood empty)
            return True
        with held.lock:
            stored = row.doc.get("version")
            if not (isinstance(stored, int) and stored > held.version):
                return False
            self.kind.refresh(held, row.doc)  # its deadlines follow it...
            if show:
                self.kind.reloaded(held, row.doc)  # ...and everyone here is shown it
        return True
