"""A 2v2 room through the live layer: seats by team, bots in the empty ones, a team's drags and
suggestions heard by that team alone, and each refusal a typed error that changes nothing."""

from __future__ import annotations

import json
from typing import Any

from tests.live.players import Message, Person, Start, errors, tick, types
from tests.live.test_rooms import create, join, last, match_of, sit
from wibble.live.records import match_record, match_replay
from wibble.wordlists import WordLists


def two_v_two(start: Start, **rules: Any) -> tuple[Any, str, Person, Person, Person, Person]:
    """Ann (A1, host) and Cy (A2) against Bo (B1) and a bot (B2); Di watches. Ann's turn."""
    live = start()
    ann, room = create(live, mode="teams", **rules)
    code = room["code"]
    bo, cy, di = join(live, code, "Bo"), join(live, code, "Cy"), join(live, code, "Di")
    sit(bo, 1)
    assert [f["you"] for f in cy.send(type="take_seat", team="a") if f["type"] == "room"] == [2]
    frames = ann.send(type="start_match")
    assert types(frames) == ["room", "match"], frames
    return live, code, ann, bo, cy, di


def heard(who: Person, mark: int, kind: str) -> list[Message]:
    return [f for f in who.since(mark) if f["type"] == kind]


def test_empty_seats_fill_with_bots_and_the_teams_alternate(start: Start) -> None:
    live, code, ann, *_ = two_v_two(start, rounds=1)
    match = last(ann, "match")
    assert match["teams"] == [0, 1, 0, 1]
    assert [s["name"] for s in match["seats"]] == ["Ann", "Bo", "Cy", "Ada"]
    assert match["seats"][3]["kind"] == "bot"
    room = last(ann, "room")
    assert [s and s["name"] for s in room["seats"]] == ["Ann", "Bo", "Cy", "Ada", None, None, None, None]
    assert live.router.rooms.docs.get(f"room:{code}").room.seats[3] is None  # the bot is the match's


def test_a_drag_is_heard_by_the_dragging_team_alone(start: Start) -> None:
    live, code, ann, bo, cy, di = two_v_two(start)
    marks = {who: len(who.frames) for who in (ann, bo, cy, di)}
    path = match_of(live, code).match.solve()[-1].path
    ann.drag_path(path)
    assert len(heard(cy, marks[cy], "chain")) == len(path)
    assert heard(bo, marks[bo], "chain") == []
    assert heard(di, marks[di], "chain") == []
    # A snapshot shows the chain only to the team dragging it.
    assert join(live, code, "Eve").frames[-1]["chain"] == []
    ann.send(type="release")
    for who in (bo, cy, di):
        assert [f["seat"] for f in heard(who, marks[who], "played")] == [0]


def test_a_teammates_suggestion_reaches_the_team_alone_and_ends_with_the_turn(start: Start) -> None:
    live, code, ann, bo, cy, di = two_v_two(start)
    marks = {who: len(who.frames) for who in (ann, bo, cy, di)}
    cy.send(type="suggest", row=1, col=2, to=0)
    cy.send(type="suggest", row=0, col=0)
    for who in (ann, cy):
        told = heard(who, marks[who], "suggestion")
        assert [f["marks"] for f in told] == [[[1, 2]], [[1, 2], [0, 0]]]
        assert {f["seat"] for f in told} == {2}
    assert heard(bo, marks[bo], "suggestion") == []
    assert heard(di, marks[di], "suggestion") == []
    ann.send(type="pass")
    assert match_of(live, code).match.marks == {}


def test_refused_suggestions_are_typed_and_change_nothing(start: Start) -> None:
    live, code, ann, bo, cy, di = two_v_two(start)
    held = match_of(live, code).match
    version = held.version
    assert errors(bo.send(type="suggest", row=0, col=0)) == ["turn/not_your_team"]
    assert errors(cy.send(type="suggest", row=0, col=0, to=1)) == ["match/not_teammate"]
    assert errors(di.send(type="suggest", row=0, col=0)) == ["room/not_seated"]
    assert errors(cy.send(type="suggest", row=9, col=0)) == ["move/off_board"]
    assert held.marks == {}
    assert held.version == version


def test_a_suggestion_in_a_match_of_each_for_themselves_is_refused(start: Start) -> None:
    live = start()
    ann, room = create(live)
    bo = join(live, room["code"], "Bo")
    sit(bo, 1)
    ann.send(type="start_match")
    assert errors(ann.send(type="suggest", row=0, col=0)) == ["match/not_teams"]


def test_seats_past_the_teams_are_refused(start: Start) -> None:
    live = start()
    ann, room = create(live)
    code = room["code"]
    eve = join(live, code, "Eve")
    sit(eve, 4)
    assert errors(ann.send(type="set_rules", mode="teams")) == ["room/too_many_for_teams"]
    eve.send(type="leave_seat")
    ann.send(type="set_rules", mode="teams")
    assert errors(eve.send(type="take_seat", seat=5)) == ["room/team_full"]
    sit(eve, 2)
    assert errors(join(live, code, "Fay").send(type="take_seat", team="a")) == ["room/team_full"]
    assert errors(ann.send(type="set_seat", seat=1, speed=2)) == ["room/teams_speed"]
    assert last(ann, "room")["rules"]["mode"] == "teams"


def test_a_rematch_keeps_the_teams_and_the_end_shows_each_teams_words(
    start: Start, wordlists: WordLists
) -> None:
    live, code, ann, bo, cy, di = two_v_two(start, rounds=1)
    ann.send(type="pass")
    bo.send(type="pass")
    cy.send(type="pass")
    for _ in range(200):
        if match_of(live, code).match.phase.value == "over":
            break
        tick(live, 1)
    over = last(di, "match_over")
    assert [(t["name"], t["seats"]) for t in over["teams"]] == [("A", [0, 2]), ("B", [1, 3])]
    assert over["winner"] in (None, 0, 1)
    # Its replay is a match's, with the teams and the same end.
    record = match_record(live.store, match_of(live, code).match_id)
    replayed = match_replay(json.loads(json.dumps(record)), wordlists)
    assert replayed["teams"] == [0, 1, 0, 1]
    assert (replayed["final"]["teams"], replayed["final"]["winner"]) == (over["teams"], over["winner"])
    assert types(ann.send(type="rematch"))[-1] == "match"
    again = last(ann, "match")
    assert [s["name"] for s in again["seats"]] == ["Ann", "Bo", "Cy", "Ada"]
    assert again["teams"] == [0, 1, 0, 1]
    assert again["phase"] == "playing"
