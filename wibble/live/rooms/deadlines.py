"""A room's deadlines, each an entry in the process's ``Timers`` set from the room's document
(``Keeper.schedule``), so any process holding the room can run them:

- ``((code, token), "grace")``: a person's last connection left; when it falls due, their seat
  is away (what follows is ``Keeper.settle``'s: a turn of theirs passes, a stand-in plays, a
  host hands the room on);
- ``(code, "room-empty")``: nobody is connected; when it falls due the room is deleted (its
  matches stay, with their records);
- ``(code, "room-crowd")``: the count of people watching, told at most once a ``CROWD_EVERY``;
- ``(code, "room-seats")``: a seat's coming and going, settled at most once a ``SEAT_EVERY``.

Housekeeping (``sweep``) and a process seen to have died (``notice_absent``) settle every room
against who is connected anywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from ..timers import Timers
from .held import LiveRoom, room_id
from .keeper import Keeper


class Deadlines:
    def __init__(self, keeper: Keeper, timers: Timers) -> None:
        self.keeper = keeper
        timers.route("grace", self._grace_due)
        timers.route("room-empty", self._empty_due)
        timers.route("room-crowd", self._crowd_due)
        timers.route("room-seats", self._seats_due)

    def _grace_due(self, key: Hashable) -> None:
        """A person has been away the whole grace period: a stand-in plays for them from now on
        (unless they are back on another process, which could not say so yet)."""
        if not isinstance(key, tuple) or not isinstance(key[0], tuple):
            return
        code, _ = key[0]
        live = self.keeper.docs.get(room_id(code))
        if live is not None:
            with live.lock:
                self.keeper.settle(live)

    def _empty_due(self, key: Hashable) -> None:
        keeper = self.keeper
        code = str(key[0]) if isinstance(key, tuple) else ""
        live = keeper.docs.get(room_id(code))
        if live is None:
            return
        with live.lock:
            if keeper.presence.count(live.doc_id):
                # Somebody came meanwhile: it is not empty, whether or not that can be saved now.
                keeper.settle(live)
                return
            since = live.room.empty_since
            if since is None or keeper.wall_clock() < since + keeper.limits.empty:
                return  # someone came and went meanwhile: its new deadline is set
        keeper.delete(code)

    def _seats_due(self, key: Hashable) -> None:
        self._under_lock(key, self.keeper.seats_due)

    def _crowd_due(self, key: Hashable) -> None:
        self._under_lock(key, self.keeper.crowd)

    def _under_lock(self, key: Hashable, run: Callable[[LiveRoom], None]) -> None:
        """``run`` on the room ``key`` names, if this process holds it, under the room's lock."""
        live = self.keeper.docs.get(room_id(str(key[0]))) if isinstance(key, tuple) else None
        if live is not None:
            with live.lock:
                run(live)

    def notice_absent(self) -> int:
        """Settle every room with who is connected anywhere (``Keeper.settle``): a person connected
        nowhere whose seat is not held for them yet is held from now, one whose grace period ran
        out is away (their turn passes, a stand-in plays, an away host hands on), one connected
        whose document still holds (or marks away) their seat is back, and a room nobody is in
        stands empty. Returns how many seats and rooms changed.

        A person who leaves starts their own grace period, on the process they left. One whose
        process died never leaves: their presence runs out with that process, and this (run
        once another process is seen to have died, ``Router.notice_departed``, and at every
        housekeeping pass) is where their grace period starts."""
        changed = 0
        for live in self.keeper.docs:
            with live.lock:
                settled = self.keeper.settle(live)
            changed += len(settled.back) + len(settled.held) + len(settled.away) + settled.emptied
        return changed

    def sweep(self, purge_batch: int = 500) -> int:
        """Housekeeping: rooms with people in them are noted as alive in the store, and stored rooms
        nobody has been in for the empty time (left there by a restart) are deleted."""
        keeper = self.keeper
        occupied = [live for live in keeper.docs if keeper.presence.count(live.doc_id)]
        for live in occupied:
            keeper.touch(live, force=True)
        self.notice_absent()
        return keeper.store.purge(keeper.wall_clock() - keeper.limits.empty, purge_batch, prefix="room:")
