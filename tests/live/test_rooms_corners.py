"""Rooms' corners, each a bug a review of the change found: a stand-in taking over a half-dragged
word, the host role while its holder is away, a removed person who had closed their tab, a room
reopened near the end of its empty time. Same helpers as ``tests.live.test_rooms``, with bots
that think a second, so that a bot that kept failing would show as a failure, not a hang."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.live.players import FakeClock, Live, errors, tick, types
from tests.live.test_rooms import (
    EMPTY,
    GRACE,
    Start,
    create,
    held,
    join,
    last,
    match_of,
    person,
    play_a_word,
    sit,
    table,
)
from wibble.engines.store import MemoryStore, Store
from wibble.live import LiveSettings, RoomLimits, wire
from wibble.live.matches import BotPace
from wibble.wordlists import WordLists

THINK = 1.0
PACED = BotPace(think=(THINK, THINK), step=0.0)
"""Bots that think a second: a bot that fails and retries does not spin ``run_due`` forever
(``tests.live.test_rooms``'s ``start`` uses bots that think for no time at all)."""


@pytest.fixture
def start(wordlists: WordLists, clock: FakeClock) -> Start:
    def make(store: Store | None = None, **room: Any) -> Live:
        store = store if store is not None else MemoryStore()
        limits = RoomLimits(**{"grace": GRACE, "empty": EMPTY, **room})
        settings = LiveSettings(pace=PACED, round_pause=0.0, rooms=limits)
        return Live(store, wire(store, wordlists, clock, clock, settings, entropy=random.Random(7)), clock)

    return make


# -- a stand-in that never gets to play -------------------------------------------------------


def _drag_one_tile(live: Live, code: str, who: Any) -> None:
    path = match_of(live, code).match.solve()[0].path
    assert types(who.send(type="press", row=path[0].row, col=path[0].col)) == ["chain"]


def test_a_stand_in_plays_for_someone_who_got_up_in_the_middle_of_a_drag(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    play_a_word(live, code, ann)
    _drag_one_tile(live, code, bo)  # Bo's turn: one tile pressed...
    assert errors(bo.send(type="leave_seat")) == []  # ...and Bo gets up (a stand-in should take over)
    mark = len(di.frames)
    for _ in range(10):
        tick(live, THINK)
    after = di.frames[mark:]
    # The stand-in's press is refused (the chain Bo left is still there), the bot turn is reset and
    # retried every THINK seconds, forever: the untimed match never moves on.
    assert match_of(live, code).match.turn != 1, "the stand-in never played Bo's turn"
    assert any(f["type"] in ("played", "turn") for f in after)


def test_a_stand_in_plays_for_someone_removed_in_the_middle_of_a_drag(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    play_a_word(live, code, ann)
    _drag_one_tile(live, code, bo)
    assert errors(ann.send(type="remove", seat=1)) == []
    for _ in range(10):
        tick(live, THINK)
    assert match_of(live, code).match.turn != 1, "the stand-in never played removed Bo's turn"


# -- the host role stuck with someone who is away ---------------------------------------------


def test_a_newcomer_who_sits_while_the_away_host_is_alone_gets_the_host_role(start: Start) -> None:
    live = start()
    ann, room = create(live)
    code = room["code"]
    bo = join(live, code, "Bo")  # watching
    ann.leave()
    tick(live, GRACE)  # Ann is away past her grace period; no other seated person is here: she keeps it
    assert held(live, code).room.host == 0
    sat = bo.send(type="take_seat", seat=1)
    # Bo is seated and here, Ann is away for good: nobody but Ann could ever start a match now.
    assert types(sat) == ["room"], "one room message says both: Bo's seat and Bo hosting"
    assert sat[0]["host"] == 1, "the away host keeps the room though a seated person is here"
    bo.send(type="set_seat", seat=2, bot="easy")
    assert types(bo.send(type="start_match")) == ["room", "match"]


# -- the address of a removed person ----------------------------------------------------------


def test_a_person_removed_while_disconnected_cannot_sit_again_from_where_they_played(start: Start) -> None:
    live = start()
    ann, room = create(live)
    code = room["code"]
    bo = join(live, code, "Bo", address="198.51.100.7")
    sit(bo, 1)
    bo.leave()  # Bo closes the tab (or is made to) just before the host removes him
    assert errors(ann.send(type="remove", seat=1)) == []
    again = join(live, code, "Bo", address="198.51.100.7")
    # The contract: "nobody from the network address they played from may take a seat again".
    assert errors(again.send(type="take_seat", seat=1)) == ["room/removed"]


def test_the_host_who_gets_up_beside_an_away_player_can_sit_down_and_host_again(start: Start) -> None:
    live = start()
    ann, room = create(live)
    code = room["code"]
    bo = join(live, code, "Bo")
    sit(bo, 1)
    bo.leave()
    tick(live, GRACE)  # Bo is away for good
    ann.send(type="leave_seat")  # nobody present is seated: the role goes to Bo, who is away
    sit(ann, 0)
    # Ann is the only person here, seated; the host is someone who left long ago.
    assert last(ann, "room")["host"] == 0, "an away person keeps the host role over the one person here"


# -- memory and the store ---------------------------------------------------------------------


def test_a_failed_join_does_not_leave_a_room_in_memory_that_the_store_has_purged(
    start: Start, clock: FakeClock
) -> None:
    first = start()
    ann, room = create(first)
    code, token = room["code"], room["token"]
    ann.leave()
    clock.advance(EMPTY - 30)
    second = start(first.store)  # a restart near the end of the room's empty time
    eve = person(second)
    assert errors(eve.send(type="join_room", code=code, name="Eve", token="y" * 30)) == ["room/bad_token"]
    clock.advance(60)
    second.router.rooms.deadlines.sweep()  # housekeeping: the stored room's last note is older than EMPTY
    back = join(second, code, "Ann", token=token)  # the room is still open in memory...
    assert back.frames[0]["you"] == 0
    # ...but every change to it fails now, and a restart would lose it.
    assert errors(back.send(type="set_rules", rounds=2)) == []
    assert second.store.load(f"room:{code}") is not None


# -- what the others see ----------------------------------------------------------------------


def test_when_an_away_seats_turn_is_passed_the_others_see_its_chain_dropped(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    play_a_word(live, code, ann)
    _drag_one_tile(live, code, bo)
    assert last(di, "chain")["chain"]  # Di sees Bo's tile pressed
    mark = len(di.frames)
    bo.leave()  # the network goes, mid-drag: the chain goes with the connection that dragged it
    tick(live, GRACE)  # the grace period ends: Bo's turn is passed
    seen = di.frames[mark:]
    assert "turn" in types(seen)
    # Everyone else stops showing Bo's half-dragged tiles (once, and before the turn passes).
    assert [f["chain"] for f in seen if f["type"] == "chain"] == [[]], types(seen)


# -- a second read of the reshaped live layer found these ------------------------------------------


def test_a_seat_back_on_a_new_connection_mid_drag_plays_its_turn(start: Start) -> None:
    """The tab that pressed went (a phone changing network) and the person came straight back:
    before, their half-dragged chain stayed, owned by a dead connection, and the seat could only
    pass (press: already chaining; enter, cancel, release: not your chain)."""
    live = start()
    code, ann, bo, cy, di = table(live)
    play_a_word(live, code, ann)
    token = last(bo, "room")["token"]
    _drag_one_tile(live, code, bo)
    bo.leave()
    again = join(live, code, "Bo", token=token)
    path = match_of(live, code).match.solve()[-1].path
    again.drag_path(path)
    assert types(again.send(type="release"))[0] == "played"


def test_a_seats_second_tab_takes_over_the_turn_when_the_dragging_tab_closes(start: Start) -> None:
    live = start()
    code, ann, bo, cy, di = table(live)
    play_a_word(live, code, ann)
    other = join(live, code, "Bo", token=last(bo, "room")["token"])
    _drag_one_tile(live, code, bo)
    assert errors(other.send(type="cancel")) == ["state/not_your_chain"]  # while it is dragged
    bo.leave()
    path = match_of(live, code).match.solve()[-1].path
    other.drag_path(path)
    assert types(other.send(type="release"))[0] == "played"


def test_someone_joining_mid_drag_takes_the_drag_from_nobody(start: Start) -> None:
    """Only a new tab of the seat whose turn it is takes a drag over. Before, anyone joining (a
    spectator, another seat back from a reload) let go of the dragging tab: the seat's other
    tab could then finish the drag, and when the dragging tab went, its chain stayed on every
    screen and the seat could not press again."""
    live = start()
    code, ann, bo, cy, di = table(live)
    play_a_word(live, code, ann)
    other = join(live, code, "Bo", token=last(bo, "room")["token"])  # Bo's second tab
    _drag_one_tile(live, code, bo)
    join(live, code, "Ed", address="198.51.100.9")  # a spectator comes in
    cy.leave()
    join(live, code, "Cy", token=last(cy, "room")["token"])  # Cy is back, on a new connection
    assert errors(other.send(type="cancel")) == ["state/not_your_chain"]  # still Bo's first tab's
    mark = len(di.frames)
    bo.leave()  # the dragging tab goes: its chain goes with it, on every screen
    assert [f["chain"] for f in di.frames[mark:] if f["type"] == "chain"] == [[]]
    path = match_of(live, code).match.solve()[-1].path
    other.drag_path(path)
    assert types(other.send(type="release"))[0] == "played"


def test_getting_up_between_matches_shows_the_match_as_a_spectator_sees_it(start: Start) -> None:
    """Before, the tab that got up kept its seat's view of the match (its ``you``), as only the
    seat's other connections were sent the match again."""
    live = start()
    code, ann, bo, cy, di = table(live)
    for _ in range(30):  # everyone passes to the end of the match
        if match_of(live, code).match.phase.value == "over":
            break
        who = {0: ann, 1: bo, 2: cy}[match_of(live, code).match.turn]
        assert errors(who.send(type="pass")) == []
    assert match_of(live, code).match.phase.value == "over"

    frames = bo.send(type="leave_seat")

    matches = [f for f in frames if f["type"] == "match"]
    assert matches, types(frames)
    assert matches[-1]["you"] is None
