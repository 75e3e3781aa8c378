"""Two live stacks in one test, as two server processes would be: one store, one bus, one presence.

A room's seats are split between them. Every connection must see every update in the same
order, a deadline must fire once however many stacks hold it, a command on either stack
must act on the document as it stands (never refused because the other stack moved it),
and a seat connected to one stack is never taken by a stand-in on the other.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tests.live.players import LIST, FakeClock, Person, errors, types
from wibble.core import Pos
from wibble.core.match import restore as restore_match
from wibble.engines import MemoryEngines
from wibble.engines.bus import Unsettled
from wibble.engines.store import MemoryStore, StorageError
from wibble.live import LiveSettings, RoomLimits, Router, wire
from wibble.live.budgets import Limits
from wibble.live.matches import BotPace
from wibble.wordlists import WordLists

TURN = 30
GRACE = 120.0
BROADCAST = {"room", "presence", "chain", "played", "board", "gems", "turn", "match_over"}
"""Messages everyone in the room hears alike (snapshots and replies are each connection's own)."""


class AwayStore(MemoryStore):
    """The shared store, which can be made to fail every read (a Redis failover under way), or
    let something happen while a version is asked for (the round trip another message overtakes)."""

    away = False
    meanwhile: Callable[[], object] | None = None

    def version(self, doc_id: str) -> int | None:
        if self.away:
            raise StorageError("the cluster is failing over (injected)")
        meanwhile, self.meanwhile = self.meanwhile, None
        if meanwhile is not None:
            meanwhile()
        return super().version(doc_id)


class Stacks:
    def __init__(
        self,
        wordlists: WordLists,
        clock: FakeClock,
        pace: BotPace | None = None,
        limits: Limits | None = None,
        **rooms: Any,
    ) -> None:
        self.clock = clock
        self.store = AwayStore()
        engines = MemoryEngines.of(clock, clock)  # one bus, one presence, one set of claims
        settings = LiveSettings(
            pace=pace or BotPace(think=(0.0, 0.0), step=0.0),
            round_pause=0.0,
            rooms=RoomLimits(**{"grace": GRACE, **rooms}),
            limits=limits,
        )
        self.a, self.b = (
            wire(
                self.store,
                wordlists,
                clock,
                clock,
                settings,
                random.Random(n),
                replace(engines, process=f"stack-{n}", shared=True),
            )
            for n in (1, 2)
        )

    def tick(self, seconds: float) -> None:
        """Time passes; each stack runs what fell due on it (as each process's timer loop would)."""
        self.clock.advance(seconds)
        self.a.timers.run_due()
        self.b.timers.run_due()


@pytest.fixture
def stacks(wordlists: WordLists, clock: FakeClock) -> Stacks:
    return Stacks(wordlists, clock)


def on(router: Router, **join: Any) -> Person:
    person = Person(router)
    frames = person.send(type="join_room", **join)
    assert types(frames)[0] == "room", frames
    return person


def split_match(stacks: Stacks, rounds: int) -> tuple[Person, Person, str]:
    """Ann on stack A hosts a room, Bo joins it on B and sits; Ann starts its match (its id)."""
    ann = Person(stacks.a)
    [room] = ann.send(type="create_room", name="Ann", rules={"wordlist": LIST, "rounds": rounds})
    bo = on(stacks.b, code=room["code"], name="Bo")
    bo.send(type="take_seat", seat=1)
    return ann, bo, ann.send(type="start_match")[-1]["match_id"]


def words(stacks: Stacks, match_id: str) -> list[tuple[Pos, ...]]:
    row = stacks.store.load(match_id)
    assert row is not None
    words = stacks.a.matches.get(match_id) or stacks.b.matches.get(match_id)
    assert words is not None
    return [found.path for found in restore_match(row.doc, words.match.words).solve()]


def play(who: Person, path: tuple[Pos, ...]) -> None:
    who.drag_path(path)
    assert types(who.send(type="release"))[0] == "played"


def play_unheard_by_b(stacks: Stacks, who: Person, match_id: str) -> None:
    """``who`` plays a word on stack A whose doorbell B misses (lost in a failover, or late):
    B's copy of the match stays behind the store."""
    doorbell = stacks.b.matches.docs.doorbell
    assert doorbell is not None
    doorbell.unwatch(match_id)
    play(who, words(stacks, match_id)[-1])
    doorbell.watch(match_id)


def heard(who: Person, since: int) -> list[tuple[str, object]]:
    return [(f["type"], f.get("version")) for f in who.frames[since:] if f["type"] in BROADCAST]


def test_a_room_split_between_two_stacks_plays_as_one(stacks: Stacks) -> None:
    ann = Person(stacks.a)
    [room] = ann.send(
        type="create_room", name="Ann", rules={"wordlist": LIST, "rounds": 2, "turn_seconds": TURN}
    )
    code = room["code"]
    bo = on(stacks.b, code=code, name="Bo")
    assert bo.send(type="take_seat", seat=1)[-1]["you"] == 1  # stack B commits; A hears by the doorbell
    cy, dee = on(stacks.b, code=code, name="Cy"), on(stacks.a, code=code, name="Dee")
    everyone = [ann, bo, cy, dee]
    start = [len(p.frames) for p in everyone]

    snapshots = ann.send(type="start_match")  # stack A starts the match; B's watchers follow it
    mid = snapshots[-1]["match_id"]
    assert all(any(f["type"] == "match" and f["match_id"] == mid for f in p.frames) for p in everyone)
    play(ann, words(stacks, mid)[-1])  # on A
    play(bo, words(stacks, mid)[-1])  # on B, right after A's commit: never refused as a conflict

    # Round 2, Ann's turn: the turn's deadline is held by both stacks, and fires once.
    stacks.tick(TURN)
    timeouts = [m for m in stacks.store.moves(mid) if m["action"] == "timeout"]
    assert len(timeouts) == 1
    assert [len([f for f in p.frames if f.get("passed") == "timeout"]) for p in everyone] == [1, 1, 1, 1]

    orders = [heard(p, n) for p, n in zip(everyone, start, strict=True)]
    assert all(order == orders[0] for order in orders), "every connection hears the same, in order"
    assert errors(sum((p.frames for p in everyone), [])) == []


def test_a_copy_behind_the_store_is_caught_up_before_it_refuses_and_never_refuses_unchecked(
    stacks: Stacks,
) -> None:
    """Stack B misses A's doorbell for a word (lost in a failover). Bo's turn has come, but B's copy
    says it is Ann's: a press there is checked against the store first, and played. If the store
    cannot be asked, Bo hears that it is away (try again), never "it is Ann's turn"."""
    ann, bo, mid = split_match(stacks, rounds=3)
    for stale in (True, False):
        play_unheard_by_b(stacks, ann, mid)
        held = stacks.b.matches.get(mid)
        assert held is not None
        assert held.match.turn == 0  # B's copy: still Ann's turn
        first = words(stacks, mid)[-1][0]
        if stale:
            stacks.store.away = True
            [refused] = bo.send(type="press", row=first.row, col=first.col)
            assert refused["code"] == "server/storage", refused
            stacks.store.away = False
        assert types(bo.send(type="press", row=first.row, col=first.col))[-1] == "chain"
        assert bo.send(type="cancel")[-1]["type"] == "chain"
        assert errors(bo.send(type="pass")) == []


def test_a_doorbell_that_lands_while_a_refusal_is_checked_still_lets_the_move_through(stacks: Stacks) -> None:
    """B's copy is behind (A's doorbell late: after a failover it is replayed after the match's own
    messages, which show Bo his turn). Bo presses at once: refused by the copy, checked against the
    store, and the doorbell lands during that round trip. The copy the press was judged on was
    behind, so it is tried again and played, not refused with "it is Ann's turn"."""
    ann, bo, mid = split_match(stacks, rounds=3)
    play_unheard_by_b(stacks, ann, mid)
    stored = stacks.store.version(mid)
    assert stored is not None
    stacks.store.meanwhile = lambda: stacks.b.matches.docs.refresh(mid, stored)  # the late doorbell
    first = words(stacks, mid)[-1][0]
    assert types(bo.send(type="press", row=first.row, col=first.col))[-1] == "chain"
    assert stacks.store.meanwhile is None  # (the store was asked)


def bo_sits_on_b_unheard_by_a(stacks: Stacks) -> tuple[Person, str]:
    """Ann (on A) makes a room; Bo sits in seat 1 on B, and A's doorbell for it is still on its
    way (A's copy of the room is behind the store). Ann, and the room's code."""
    ann = Person(stacks.a)
    [room] = ann.send(type="create_room", name="Ann", rules={"wordlist": LIST, "rounds": 2})
    bo = on(stacks.b, code=room["code"], name="Bo")
    doorbell = stacks.a.rooms.docs.doorbell
    assert doorbell is not None
    doc_id = f"room:{room['code']}"
    doorbell.unwatch(doc_id)
    bo.send(type="take_seat", seat=1)
    doorbell.watch(doc_id)
    return ann, room["code"]


def test_a_change_that_meets_another_stacks_commit_first_is_made_on_the_room_as_it_stands(
    stacks: Stacks,
) -> None:
    """Bo sits on B; A's doorbell for it is still on its way when Ann, on A, puts a bot in another
    seat. A's commit meets B's (a conflict): the copy takes the stored room, and Ann's change is
    made on it, as if she had sent it a moment later, not refused as "changed elsewhere"."""
    ann, code = bo_sits_on_b_unheard_by_a(stacks)
    answer = ann.send(type="set_seat", seat=2, bot="easy")
    assert errors(answer) == []
    seats = answer[-1]["seats"]
    assert (seats[1]["name"], seats[2]["kind"]) == ("Bo", "bot")


def test_a_seat_another_stack_gave_first_is_refused_as_taken_not_as_a_conflict(stacks: Stacks) -> None:
    """Bo sits on B; A's doorbell for it is still on its way when Cy, on A, asks for the same seat.
    A's commit meets B's; tried again on the stored room, Cy's request breaks a rule, and Cy hears
    that rule (the seat is taken), with the room as it stands, not that the "game" changed."""
    _, code = bo_sits_on_b_unheard_by_a(stacks)
    cy = on(stacks.a, code=code, name="Cy")

    answer = cy.send(type="take_seat", seat=1)

    assert errors(answer) == ["room/seat_taken"]
    assert [f["seats"][1]["name"] for f in answer if f["type"] == "room"] == ["Bo"]


def test_a_match_started_on_the_room_as_it_stands_after_a_conflict_costs_one_game(
    wordlists: WordLists, clock: FakeClock
) -> None:
    """Ann (on A) starts the match with a bot while A's copy of the room is behind (Bo sat down on
    B): the start meets B's commit and is made once more on the stored room, with Bo in it. Ann's
    address pays for one new game, not one for each try."""
    stacks = Stacks(wordlists, clock, limits=Limits(games_per_minute=10))
    ann = Person(stacks.a)
    [room] = ann.send(type="create_room", name="Ann", rules={"wordlist": LIST, "rounds": 2})
    ann.send(type="set_seat", seat=1, bot="easy")
    bo = on(stacks.b, code=room["code"], name="Bo")
    doorbell = stacks.a.rooms.docs.doorbell
    assert doorbell is not None
    doorbell.unwatch(f"room:{room['code']}")
    bo.send(type="take_seat", seat=2)
    doorbell.watch(f"room:{room['code']}")

    answer = ann.send(type="start_match")

    assert errors(answer) == []
    assert [s["name"] for s in answer[-1]["seats"]][::2] == ["Ann", "Bo"]
    assert stacks.a.budgets.meter.available("games", ann.session.address, 10) == pytest.approx(9, abs=0.01)


def test_a_catch_up_after_the_bus_came_back_that_cannot_ask_the_store_says_so_to_be_tried_again(
    stacks: Stacks,
) -> None:
    """B missed A's word (its bus was cut off). Its catch-up, while the store cannot be asked,
    names what it could not do rather than report all is well (the bus then tries again with
    those); once the store answers, B's copy takes the word and Bo is shown it."""
    ann, bo, mid = split_match(stacks, rounds=3)
    play_unheard_by_b(stacks, ann, mid)
    stacks.store.away = True
    with pytest.raises(Unsettled) as unsettled:
        stacks.b.catch_up({mid})
    assert mid in unsettled.value.topics  # (and the room: the store could be asked nothing)
    stacks.store.away = False
    since = len(bo.frames)
    assert stacks.b.catch_up({mid}) >= 1
    [snapshot] = [f for f in bo.frames[since:] if f["type"] == "match"]
    assert snapshot["turn"] == 1  # Bo's turn, as it is in the store


def test_a_seat_that_moves_to_the_other_stack_within_its_grace_is_never_played_by_a_stand_in(
    stacks: Stacks,
) -> None:
    ann = Person(stacks.a)
    [room] = ann.send(type="create_room", name="Ann", rules={"wordlist": LIST, "rounds": 3})
    bo = on(stacks.a, code=room["code"], name="Bo")
    token = [f for f in bo.send(type="take_seat", seat=1) if f["type"] == "room"][-1]["token"]
    mid = ann.send(type="start_match")[-1]["match_id"]

    bo.leave()  # Bo's connection to stack A drops: A starts Bo's grace period...
    back = on(stacks.b, code=room["code"], name="Bo", token=token)  # ...Bo is back at once, on B
    assert back.frames[0]["you"] == 1
    stacks.tick(GRACE + 1)  # A's grace period for Bo runs out, and finds Bo here (on B)

    row = stacks.store.load(mid)
    assert row is not None
    assert [m for m in stacks.store.moves(mid) if m["action"] == "away"] == []
    assert not any(f["type"] == "presence" and f.get("away") for f in ann.frames)
    play(ann, words(stacks, mid)[-1])
    assert back.frames[-1]["type"] == "turn"
    assert back.frames[-1]["turn"] == 1  # Bo's own turn, for Bo to play on stack B
    play(back, words(stacks, mid)[-1])


def test_a_rooms_next_match_started_on_one_stack_lets_the_last_go_on_the_other(stacks: Stacks) -> None:
    ann, bo, first = split_match(stacks, rounds=1)
    for who in (ann, bo):
        assert errors(who.send(type="pass")) == []
    second = ann.send(type="start_match")[-1]["match_id"]

    assert second != first
    assert stacks.b.matches.get(first) is None  # B let the old one go (it stays saved)
    assert stacks.b.matches.get(second) is not None


def test_a_bots_turn_held_by_both_stacks_is_dragged_by_one(wordlists: WordLists, clock: FakeClock) -> None:
    stacks = Stacks(wordlists, clock, pace=BotPace(think=(1.0, 1.0), step=0.25))
    ann = Person(stacks.a)
    [room] = ann.send(type="create_room", name="Ann", rules={"wordlist": LIST, "rounds": 1})
    ann.send(type="set_seat", seat=1, bot="medium")
    cy = on(stacks.b, code=room["code"], name="Cy")  # watches on B, so B holds the match too
    mid = ann.send(type="start_match")[-1]["match_id"]
    play(ann, words(stacks, mid)[-1])
    mark = len(cy.frames)

    for _ in range(40):  # the bot thinks 1 s on each stack, then drags a tile every 0.25 s
        stacks.tick(0.25)

    plays = [m for m in stacks.store.moves(mid) if m["action"] == "play"]
    assert [m["seat"] for m in plays] == [0, 1]
    path = plays[1]["path"]
    chains = [f for f in cy.frames[mark:] if f["type"] == "chain"]
    assert [len(f["chain"]) for f in chains] == list(range(1, len(path) + 1)), "one drag, tile by tile"


def test_a_bots_turn_begins_when_its_document_says_on_whichever_stack_runs_it(
    wordlists: WordLists, clock: FakeClock
) -> None:
    stacks = Stacks(wordlists, clock, pace=BotPace(think=(0.5, 3.0), step=0.25))
    ann = Person(stacks.a)
    [room] = ann.send(type="create_room", name="Ann", rules={"wordlist": LIST, "rounds": 1})
    ann.send(type="set_seat", seat=1, bot="medium")
    cy = on(stacks.b, code=room["code"], name="Cy")
    mid = ann.send(type="start_match")[-1]["match_id"]
    play(ann, words(stacks, mid)[-1])  # on A: the commit that gives the bot its turn plans it

    plan = stacks.store.load(mid).doc["bot"]  # type: ignore[union-attr]
    plans = [stack.matches.get(mid).bot for stack in (stacks.a, stacks.b)]  # type: ignore[union-attr]
    assert [bot.at for bot in plans] == [plan["at"]] * 2  # type: ignore[union-attr]  # one think, not one a stack
    mark = len(cy.frames)
    clock.advance(plan["at"] - clock() - 0.01)
    stacks.b.timers.run_due()  # A is gone: B alone runs the bot, at the planned time
    assert cy.frames[mark:] == []
    clock.advance(0.01)
    stacks.b.timers.run_due()
    assert [f["type"] for f in cy.frames[mark:]] == ["chain"]


def test_a_room_loaded_on_the_other_stack_holds_no_seat_of_someone_connected_on_this_one(
    stacks: Stacks,
) -> None:
    from wibble.core.room import Room

    ann = Person(stacks.a)
    [room] = ann.send(type="create_room", name="Ann", rules={"wordlist": LIST})
    on(stacks.b, code=room["code"], name="Cy")  # B loads the room from the store: Ann is on A
    row = stacks.store.load(f"room:{room['code']}")
    assert row is not None
    stored = Room.from_doc(row.doc)
    assert (stored.due(), stored.away(), stored.empty_since) == ({}, set(), None)


def test_a_room_one_stack_deletes_leaves_the_others_memory_too(stacks: Stacks) -> None:
    ann = Person(stacks.a)
    [room] = ann.send(type="create_room", name="Ann", rules={"wordlist": LIST})
    cy = on(stacks.b, code=room["code"], name="Cy")
    ann.leave()
    cy.leave()
    stacks.tick(RoomLimits().empty)  # whichever stack claims the empty room's end deletes it
    assert stacks.store.load(f"room:{room['code']}") is None
    assert stacks.a.rooms.docs.get(f"room:{room['code']}") is None
    assert stacks.b.rooms.docs.get(f"room:{room['code']}") is None


def test_watchers_from_one_address_count_on_every_stack(wordlists: WordLists, clock: FakeClock) -> None:
    stacks = Stacks(wordlists, clock, spectators_per_address=2)
    ann = Person(stacks.a)
    [room] = ann.send(type="create_room", name="Ann", rules={"wordlist": LIST})
    for router in (stacks.a, stacks.b):  # one watcher from this address on each process
        watcher = Person(router, "198.51.100.1")
        assert types(watcher.send(type="join_room", code=room["code"], name="W"))[0] == "room"
    third = Person(stacks.b, "198.51.100.1")
    assert errors(third.send(type="join_room", code=room["code"], name="W")) == ["room/crowded"]
    other = Person(stacks.b, "198.51.100.2")
    assert types(other.send(type="join_room", code=room["code"], name="X"))[0] == "room"


def test_a_removal_bars_the_address_the_person_plays_from_on_another_stack(stacks: Stacks) -> None:
    ann = Person(stacks.a)
    [room] = ann.send(type="create_room", name="Ann", rules={"wordlist": LIST})
    bo = Person(stacks.a, "198.51.100.7")
    bo.send(type="join_room", code=room["code"], name="Bo")
    [seated] = [f for f in bo.send(type="take_seat", seat=1) if f["type"] == "room"]
    bo.leave()  # Bo's phone moves to the other process, and plays from a new address
    phone = Person(stacks.b, "203.0.113.50")
    phone.send(type="join_room", code=room["code"], name="Bo", token=seated["token"])
    ann.send(type="remove", seat=1)
    again = Person(stacks.b, "203.0.113.50")  # a new tab from where the phone played
    again.send(type="join_room", code=room["code"], name="Bo again")
    assert errors(again.send(type="take_seat", seat=2)) == ["room/removed"]


def a_finished_match_on_both_stacks(stacks: Stacks) -> tuple[Person, Person, str, str]:
    """A match against a bot, its seat's tab on A and another on B, played out: the tabs, its id
    and the seat's token."""
    ann = Person(stacks.a)
    [snapshot] = ann.send(type="new_match", wordlist=LIST, rounds=1, bots=[{"level": "easy"}])
    mid, token = snapshot["match_id"], snapshot["token"]
    other_tab = Person(stacks.b)
    other_tab.resume_match(mid, token)
    ann.send(type="pass")
    for _ in range(50):  # the bot plays its turn, and the match is over
        stacks.tick(0.5)
        if "match_over" in types(ann.frames):
            break
    return ann, other_tab, mid, token


def test_a_rematch_asked_on_both_stacks_is_one_match(stacks: Stacks) -> None:
    """A match's one rematch was known only to the process that started it: the same seat's tab
    on the other process (or anyone after a restart) asking for it started yet another."""
    ann, other_tab, mid, token = a_finished_match_on_both_stacks(stacks)
    [first] = ann.send(type="rematch")
    [second] = other_tab.send(type="rematch")
    assert first["type"] == second["type"] == "match"
    assert first["match_id"] == second["match_id"] != mid
    again = Person(stacks.a)  # and a third tab, from nothing but the old match and its token
    again.resume_match(mid, token)
    assert again.send(type="rematch")[0]["match_id"] == first["match_id"]


def test_a_rematch_two_stacks_start_at_the_same_moment_is_the_one_made_first(
    stacks: Stacks, monkeypatch: pytest.MonkeyPatch
) -> None:
    """B starts the rematch between A's look in the store (nothing yet) and A's own creation of
    it: A's creation meets B's document, and A's tab plays that one, not a second match."""
    ann, other_tab, _, _ = a_finished_match_on_both_stacks(stacks)
    [made] = other_tab.send(type="rematch")
    monkeypatch.setattr(stacks.a.matches, "_stored", lambda match_id: None)  # (looked before B made it)
    [joined] = ann.send(type="rematch")
    assert joined["type"] == "match"
    assert joined["match_id"] == made["match_id"]
    assert joined["version"] == made["version"] == 0


def test_a_drag_saved_on_one_stack_leaves_no_chain_on_the_other(stacks: Stacks) -> None:
    """A power used mid-drag saves the match with its chain. The other stack's copy, refreshed
    from that document, kept a chain no tab of its own dragged: once the drag was cancelled
    (which saves nothing), the seat's press there was refused, already chaining."""
    ann = Person(stacks.a)
    [snapshot] = ann.send(type="new_match", wordlist=LIST, turn_seconds=60, bots=[{"level": "easy"}])
    mid, token = snapshot["match_id"], snapshot["token"]
    phone = Person(stacks.b)  # the same seat, on the other process
    phone.resume_match(mid, token)
    path = words(stacks, mid)[0]
    phone.drag_path(path[:2])
    assert types(phone.send(type="extend"))[0] == "turn"  # saved, chain and all
    assert types(phone.send(type="cancel")) == ["chain"]
    assert types(ann.send(type="press", row=path[0].row, col=path[0].col)) == ["chain"]
