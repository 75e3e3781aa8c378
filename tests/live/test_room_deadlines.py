"""A room's deadlines are data: each held seat's grace period and an empty room's end are in the
room's document, so they survive a restart, any process can act on them, and handling one twice
changes nothing."""

from __future__ import annotations

from tests.live.players import EMPTY, GRACE, FakeClock, Live, Start, tick
from tests.live.test_rooms import create, join, last, match_of, play_a_word, sit, table
from wibble.core.room import Room
from wibble.live.router import PICK_UP_SLACK


def stored_room(live: object, code: str) -> Room:
    row = live.store.load(f"room:{code}")  # type: ignore[attr-defined]
    assert row is not None
    return Room.from_doc(row.doc)


def deserted(live: Live) -> str:
    """A room of two seated people, Ann (the host) and Bo, who have both left it; its code."""
    ann, room = create(live)
    bo = join(live, room["code"], "Bo")
    sit(bo, 1)
    for who in (ann, bo):
        who.leave()
    return str(room["code"])


def test_a_grace_period_is_in_the_rooms_document_and_a_restart_does_not_start_it_again(
    start: Start, clock: FakeClock
) -> None:
    first = start()
    code, ann, bo, cy, di = table(first)
    play_a_word(first, code, ann)
    bo_token = last(bo, "room")["token"]
    bo.leave()
    left_at = clock()
    [held] = [s for s in stored_room(first, code).seats if s is not None and s.grace_until is not None]
    assert held.grace_until == left_at + GRACE  # saved, not only a timer in this process

    clock.advance(GRACE / 2)
    second = start(first.store)  # the process died; Ann and Cy come back to the new one at once
    ann_again = join(second, code, "Ann", token=last(ann, "room")["token"])
    join(second, code, "Cy", token=last(cy, "room")["token"])
    tick(second, GRACE / 2 - 0.5)
    assert match_of(second, code).match.turn == 1  # Bo's seat is still held...
    tick(second, 0.5)  # ...until the deadline the document had, not a fresh two minutes
    assert last(ann_again, "presence") == {"type": "presence", "seat": 1, "connected": False, "away": True}
    room = stored_room(second, code)
    assert room.away() == {held.token}
    assert match_of(second, code).match.turn == 2
    back = join(second, code, "Bo", token=bo_token)
    assert back.frames[0]["you"] == 1
    assert stored_room(second, code).away() == set()


def test_a_grace_deadline_handled_twice_marks_the_seat_away_once(start: Start, clock: FakeClock) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    bo.leave()
    tick(live, GRACE)
    away_moves = [m for m in live.store.moves(match_of(live, code).match_id) if m["action"] == "away"]
    version = stored_room(live, code).version
    rooms = live.router.rooms
    token = next(iter(stored_room(live, code).away()))
    rooms.deadlines._grace_due(
        ((code, token), "grace")
    )  # as a second process holding the same deadline would
    assert stored_room(live, code).version == version
    assert [m for m in live.store.moves(match_of(live, code).match_id) if m["action"] == "away"] == away_moves


def test_an_empty_rooms_end_is_in_its_document(start: Start, clock: FakeClock) -> None:
    first = start()
    code = deserted(first)
    assert stored_room(first, code).empty_since == clock()
    clock.advance(EMPTY / 2)
    second = start(first.store)  # a restart: the room is loaded by a watcher's visit...
    watcher = join(second, code, "Cy")
    watcher.leave()
    assert stored_room(second, code).empty_since == clock()  # ...and is empty again since they left
    tick(second, EMPTY - 1)
    assert second.store.load(f"room:{code}") is not None
    tick(second, 1)
    assert second.store.load(f"room:{code}") is None


def test_the_last_to_leave_marks_the_room_empty_even_after_another_process_changed_it(start: Start) -> None:
    from tests.live.players import LIST, Person

    live = start()
    ann = Person(live.router)
    [room] = ann.send(type="create_room", name="Ann", rules={"wordlist": LIST})
    code = room["code"]
    row = live.store.load(f"room:{code}")  # another process commits the room; its doorbell is late
    assert row is not None
    doc = {**row.doc, "version": row.doc["version"] + 1}
    live.store.commit(f"room:{code}", row.doc["version"], doc, {"version": doc["version"]}, 1.0)
    ann.leave()  # noting Ann left meets that commit; the room is taken from the store, then...
    assert stored_room(live, code).empty_since is not None  # ...noted empty all the same


# -- deadlines nobody in memory handles: any process takes them on (``Router.pick_up``) --------


def test_a_room_everyone_left_closes_on_time_after_a_restart_though_nobody_opens_it(
    start: Start, clock: FakeClock
) -> None:
    first = start()
    code = deserted(first)
    emptied = clock()
    second = start(first.store)  # the first process is gone; nobody visits the room again

    clock.advance(GRACE - 1)
    assert second.router.pick_up() == 0  # Ann's and Bo's seats are held for them a while yet
    clock.advance(1 + PICK_UP_SLACK + 0.5)
    assert second.router.pick_up() == 1  # they are not: this process takes the room on
    tick(second, 0)
    assert stored_room(second, code).empty_since == emptied  # empty since they left, not since now
    tick(second, emptied + EMPTY - clock() - 1)
    assert second.store.load(f"room:{code}") is not None
    tick(second, 1)
    assert second.store.load(f"room:{code}") is None
    assert second.router.pick_up() == 0  # and nothing is left to take on


def test_an_empty_room_left_in_the_store_by_a_restart_closes_at_its_time(
    start: Start, clock: FakeClock
) -> None:
    first = start()
    ann, room = create(first)
    code = room["code"]
    tick(first, GRACE)  # (the process held it that long, its grace periods run out there)
    ann.leave()
    emptied = clock()
    tick(first, GRACE)
    second = start(first.store)
    clock.advance(emptied + EMPTY - clock() - 1)
    assert second.router.pick_up() == 0
    clock.advance(1 + PICK_UP_SLACK + 0.5)
    assert second.router.pick_up() == 1
    tick(second, 0)
    assert second.store.load(f"room:{code}") is None


def test_a_grace_period_runs_out_on_a_process_that_never_held_the_room(
    start: Start, clock: FakeClock
) -> None:
    first = start()
    code, ann, bo, cy, di = table(first)
    bo.leave()
    [bo_token] = stored_room(first, code).due()
    second = start(first.store)  # the process holding the room died with everyone on it

    clock.advance(GRACE + PICK_UP_SLACK + 0.5)
    assert second.router.pick_up() == 1
    tick(second, 0)
    room = stored_room(second, code)
    assert bo_token in room.away()  # a stand-in plays for Bo from now on
    assert min(room.due().values()) == clock() + GRACE  # the others' seats are held from now
    assert second.router.pick_up() == 0
    tick(second, 1)
    assert stored_room(second, code).version == room.version  # handled once


def test_a_deadline_the_holding_process_runs_on_time_is_not_taken_on_by_another(
    start: Start, clock: FakeClock
) -> None:
    first = start()
    code, ann, bo, cy, di = table(first)
    bo.leave()
    tick(first, GRACE)  # the process holding the room handles it on time
    other = start(first.store)
    clock.advance(PICK_UP_SLACK + 0.5)
    assert other.router.pick_up() == 0
    assert other.router.rooms.docs.get(f"room:{code}") is None


def test_a_room_someone_is_back_in_is_not_closed_when_the_store_cannot_note_it_in_use(start: Start) -> None:
    from tests.live.players import FlakyStore

    store = FlakyStore()
    live = start(store)
    ann, room = create(live)
    code = room["code"]
    ann.leave()  # the room stands empty from now, in its document
    store.failing = True  # (a full disk, a locked file)
    back = join(live, code, "Ann", room["token"])  # she is back, but that cannot be saved
    tick(live, EMPTY)  # the empty room's end falls due with her in it
    store.failing = False
    assert live.router.rooms.docs.get(f"room:{code}") is not None
    assert last(back, "room")["code"] == code
    assert "room/not_in_room" not in [f.get("code") for f in back.send(type="set_rules", rules={"rounds": 2})]
    live.router.rooms.deadlines.sweep()  # housekeeping notes it in use, now that the store takes it
    assert stored_room(live, code).empty_since is None
