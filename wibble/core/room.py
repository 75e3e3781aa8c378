"""A room: eight seats, a host, what it plays next (a match, a 2v2, a race) and its rules, and
which match or race it is playing.

A room is a plain document, as a game or a match is: the live layer loads it from
the store, calls one of these commands, and commits the new document with a
compare-and-set on ``version`` before anyone hears of the change. Each command
checks everything first (is this the host? is a match being played? is the seat
free?) and raises ``RuleError`` without changing anything when a check fails.

Who is connected is not in the document: that is presence, ephemeral, and the live
layer passes what it needs (``present``) to the commands that choose a new host. What
follows from it for good is: until when a seat whose person left is held for them
(``grace_until``), that a seat's person is away (a stand-in plays for them), and since
when nobody has been in the room (``empty_since``). Every deadline is in the document,
so any process can load a room, see what falls due when, and act on it; a deadline
handled twice changes nothing the second time.

A seat holds a person (with the SHA-256 of their secret token), or a bot. A person
who leaves or is removed during a match is ``gone``: their seat plays on as a
stand-in bot until the match ends, and is free once it has.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .errors import GameDataError, RuleError
from .fields import count_of, field_of, is_time
from .match import LEVELS, MAX_ROUNDS, MAX_SEATS, SPELLCAST, TURN_SECONDS, VALUES, VERSUS
from .names import bot_names, distinct

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""No 0/O, no 1/I/L: a code read aloud or copied by hand comes out right."""
CODE_LENGTH = 6
"""31**6 is about 887 million codes: with failed joins rate-limited, guessing one is hopeless."""
MAX_REMOVED = 64
"""Removed tokens (and the hashed addresses they played from) remembered: a removed player hears
``room/removed`` rather than a bad token, and cannot simply sit down again."""
DOC_FORMAT = 1

MATCH, TEAMS, RACE = "match", "teams", "race"
MODES = (MATCH, TEAMS, RACE)
"""What a room plays: Spellcast's turn-based match, the same in two teams of two (2v2), or a race
(everyone plays the same sprint at once, each on their own copy of one seeded board)."""
ROOM_SEATS = 8
"""A room's seats: a race runs up to eight; a match plays in the first ``MAX_SEATS`` (6), a 2v2 in
the first four."""
RACE_SECONDS = (60, 120, 180)
"""How long a race lasts: 1, 2 or 3 minutes, the host's choice."""
TEAMS_SEATS = len(VERSUS)
"""A 2v2 is played in seats 0-3: team A in seats 0 and 2, team B in 1 and 3, so that seat
order (A1, B1, A2, B2) is the turn order a match already plays, alternating between the teams."""
TEAM_SEATS = {"a": (0, 2), "b": (1, 3)}
"""Each team's seats, by the name ``take_seat {team}`` gives it."""


def new_code(entropy: random.Random) -> str:
    return "".join(entropy.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code)


@dataclass(frozen=True, slots=True)
class Rules:
    rounds: int = 5
    turn_seconds: int | None = None
    wordlist: str | None = None
    """The word list's name; None: the server's default."""
    stand_in: str = "medium"
    """The level of the bot that plays a seat whose person is away or gone."""
    values: str = SPELLCAST
    """The letter values a match plays with: Spellcast's table where the list has one, or ``classic``."""
    mode: str = MATCH
    """What the room plays next: one of ``MODES``."""
    race_seconds: int = 120
    """A race's length, one of ``RACE_SECONDS``."""

    def __post_init__(self) -> None:
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise ValueError(f"rounds must be 1-{MAX_ROUNDS}")
        if self.turn_seconds is not None and not TURN_SECONDS[0] <= self.turn_seconds <= TURN_SECONDS[1]:
            raise ValueError(f"turn_seconds must be {TURN_SECONDS[0]}-{TURN_SECONDS[1]} or None")
        if self.stand_in not in LEVELS:
            raise ValueError("stand_in must be a bot level")
        if self.values not in VALUES:
            raise ValueError(f"values must be one of {', '.join(VALUES)}")
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        if self.race_seconds not in RACE_SECONDS:
            raise ValueError("race_seconds must be 60, 120 or 180")

    def to_doc(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "turn_seconds": self.turn_seconds,
            "wordlist": self.wordlist,
            "stand_in": self.stand_in,
            "values": self.values,
            "mode": self.mode,
            "race_seconds": self.race_seconds,
        }


@dataclass(frozen=True, slots=True)
class RoomSeat:
    name: str
    kind: str
    """"human" or "bot"."""
    level: str | None = None
    speed: int = 1
    token: str | None = None
    """A person's token hash (hex); None for a bot, or once the person is gone."""
    joined: int = 0
    """The order people sat down in: the host role passes to the earliest."""
    gone: bool = False
    where: str = ""
    """The hashed address a person sat down from: barred from sitting again if the host removes them."""
    grace_until: float | None = None
    """The person is connected nowhere: their seat is held for them until then (seconds since the
    epoch); after that they are ``away``."""
    away: bool = False
    """The person stayed away past their grace period: a stand-in plays for them until they are back."""

    def to_doc(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "level": self.level,
            "speed": self.speed,
            "token": self.token,
            "joined": self.joined,
            "gone": self.gone,
            "where": self.where,
            "grace_until": self.grace_until,
            "away": self.away,
        }


class Room:
    """One room; not thread-safe (the live layer holds its lock)."""

    def __init__(self, code: str, rules: Rules | None = None) -> None:
        self.code = code
        self.rules = rules or Rules()
        self.seats: list[RoomSeat | None] = [None] * ROOM_SEATS
        self.host: int | None = None
        self.removed: list[str] = []
        self.barred: list[str] = []
        """Where removed people played from (hashed addresses): they may watch, not sit."""
        self.match_id: str | None = None
        self.race_id: str | None = None
        """The room's race, when the last thing it started was a race (then ``match_id`` is None)."""
        self.joins = 0
        self.empty_since: float | None = None
        """When the last person connected to the room left (None: someone is in it)."""
        self.version = 0

    # -- questions ------------------------------------------------------------------------

    def seat_of(self, token: str) -> int | None:
        """The seat a token hash (hex) opens, if any."""
        return next((i for i, s in enumerate(self.seats) if s is not None and s.token == token), None)

    def filled(self, playing: bool) -> list[int]:
        """Seats with someone in them; between matches a gone person's seat is free."""
        return [i for i, seat in enumerate(self.seats) if seat is not None and (playing or not seat.gone)]

    def holder(self, seat: int, playing: bool) -> RoomSeat | None:
        held = self.seats[seat]
        return held if held is not None and (playing or not held.gone) else None

    def away(self) -> set[str]:
        """The token hashes of the people who are away (a stand-in plays for each)."""
        return {s.token for s in self.seats if s is not None and s.away and s.token is not None}

    def due(self) -> dict[str, float]:
        """Each person whose seat is held for them (token hash), and until when."""
        return {
            s.token: s.grace_until
            for s in self.seats
            if s is not None and s.token is not None and s.grace_until is not None
        }

    def people(self) -> list[int]:
        """Seats held by a person who still holds their token, earliest to sit first."""
        held = [(s.joined, i) for i, s in enumerate(self.seats) if s and s.kind == "human" and s.token]
        return [i for _, i in sorted(held)]

    # -- commands -----------------------------------------------------------------------

    def left(self, token: str, until: float) -> bool:
        """The person holding ``token`` is connected nowhere: their seat is held for them until
        ``until``, unless it already is, or they are away. Whether the room changed."""
        seat = self.seat_of(token)
        held = None if seat is None else self.seats[seat]
        if seat is None or held is None or held.away or held.grace_until is not None:
            return False
        self.seats[seat] = replace(held, grace_until=until)
        self.version += 1
        return True

    def back(self, token: str) -> bool:
        """The person holding ``token`` is connected again: their grace period and away mark end.
        Whether they had been away (a stand-in was playing for them)."""
        seat = self.seat_of(token)
        held = None if seat is None else self.seats[seat]
        if seat is None or held is None or (held.grace_until is None and not held.away):
            return False
        self.seats[seat] = replace(held, grace_until=None, away=False)
        self.version += 1
        return held.away

    def grace_over(self, token: str, now: float) -> bool:
        """If the grace period of ``token``'s person has run out by ``now``, they are away from
        now on. Whether they became away (a second call, or an early one, changes nothing)."""
        seat = self.seat_of(token)
        held = None if seat is None else self.seats[seat]
        if seat is None or held is None or held.grace_until is None or now < held.grace_until:
            return False
        self.seats[seat] = replace(held, grace_until=None, away=True)
        self.version += 1
        return True

    def emptied(self, now: float) -> bool:
        """Nobody is connected to the room any more (since ``now``, unless it was already so)."""
        if self.empty_since is not None:
            return False
        self.empty_since = now
        self.version += 1
        return True

    def occupied(self) -> bool:
        """Someone is connected to the room again."""
        if self.empty_since is None:
            return False
        self.empty_since = None
        self.version += 1
        return True

    @property
    def teams(self) -> bool:
        return self.rules.mode == TEAMS

    def take_seat(
        self,
        seat: int | None,
        name: str,
        token: str,
        playing: bool,
        where: str = "",
        team: str | None = None,
    ) -> int:
        """A person sits down (``seat`` None: the first free one, of ``team`` if it is named). The
        first person to sit in a room with no host becomes its host. ``where`` is the (hashed)
        address they sit from. A 2v2 room seats four: a fifth seat, or a team's third, is refused."""
        self._between(playing)
        if where and where in self.barred:
            raise RuleError(
                "room/removed",
                "the host removed someone who played from your network address, so this room's seats"
                " are closed to it; you can watch",
            )
        if team is not None and not self.teams:
            raise RuleError("room/not_teams", "this room plays no 2v2: choose a seat, not a team")
        if seat is None:
            seats = TEAM_SEATS[team] if team is not None else range(self.seats_in_play)
            free = [i for i in seats if self.holder(i, playing) is None]
            if not free and team is not None:
                raise RuleError("room/team_full", f"team {team.upper()} has both its seats taken")
            if not free:
                raise RuleError("room/full", "every seat is taken; you can watch")
            seat = free[0]
        self._in_play(seat)
        if self.holder(seat, playing) is not None:
            raise RuleError("room/seat_taken", "someone is in that seat")
        # (A seat left mid-match, free between matches, keeps no name from anyone.)
        others = [s.name for i in range(len(self.seats)) if i != seat and (s := self.holder(i, playing))]
        name = distinct(name, others)
        self.seats[seat] = RoomSeat(name, "human", token=token, joined=self.joins, where=where)
        self.joins += 1
        if self.host is None:
            self.host = seat
        self.version += 1
        return seat

    def leave_seat(self, seat: int, playing: bool, present: Collection[int] = ()) -> None:
        """The person in ``seat`` gets up: free at once between matches; during one, the seat is
        ``gone`` and a stand-in plays it to the end. A host who gets up hands the room on."""
        held = self.seats[seat]
        if held is None:
            raise RuleError("room/not_seated", "that seat is empty")
        self.seats[seat] = replace(held, token=None, gone=True) if playing else None
        if self.host == seat:
            self.host = None
            self.hand_on(present)
        self.version += 1

    def remove(
        self,
        by: int | None,
        seat: int,
        playing: bool,
        present: Collection[int] = (),
        where: Collection[str] = (),
    ) -> str | None:
        """The host takes ``seat`` away from its bot or person; returns the removed person's token
        hash, which opens nothing from now on. ``where`` (the hashed addresses the person plays
        from) may not take a seat again, unless someone still seated plays from it too."""
        self._host(by)
        held = self.holder(seat, playing)
        if held is None:
            raise RuleError("room/seat_empty", "that seat is empty")
        if seat == by:
            raise RuleError("room/not_host", "to leave your own seat, get up (leave_seat)")
        if held.kind == "bot" and playing:
            raise RuleError("room/match_running", "a bot plays on until the match ends")
        token = held.token
        if held.kind == "human" and playing:
            self.seats[seat] = replace(held, token=None, gone=True)
        else:
            self.seats[seat] = None
        if token is not None:
            self.removed = [*self.removed, token][-MAX_REMOVED:]
            # An address someone else seated plays from (the host's own, a household's, everyone's
            # on one machine) is not barred: it would close the seats to them, the host included.
            staying = {
                s.where
                for i, s in enumerate(self.seats)
                if s is not None and s.token is not None and i != seat
            }
            fresh = [w for w in {*where, held.where} if w and w not in self.barred and w not in staying]
            self.barred = [*self.barred, *fresh][-MAX_REMOVED:]
        self.version += 1
        return token

    def set_rules(self, by: int | None, rules: Rules, playing: bool) -> None:
        """The host sets the next match's rules. A room turns to 2v2 only with nobody in seats
        4-7, and its seats' speeds go back to 1 (a 2v2's turns alternate, one a seat a round); to a
        match only with nobody in seats 6-7 (a race's)."""
        self._host(by)
        self._between(playing)
        to_teams = rules.mode == TEAMS and not self.teams
        if to_teams and any(self.holder(i, playing) is not None for i in range(TEAMS_SEATS, ROOM_SEATS)):
            raise RuleError("room/too_many_for_teams", "a 2v2 seats four: seats 5 to 8 must be empty first")
        if rules.mode == MATCH and any(
            self.holder(i, playing) is not None for i in range(MAX_SEATS, ROOM_SEATS)
        ):
            raise RuleError("room/too_many_for_match", "a match seats six: seats 7 and 8 must be empty first")
        # Every refusal above; the changes below.
        if to_teams:
            self.seats = [None if s is None else replace(s, speed=1) for s in self.seats]
        self.rules = rules
        self.version += 1

    def set_seat(self, by: int | None, seat: int, bot: str | None, speed: int | None, playing: bool) -> None:
        """The host puts a bot in a free seat or changes its level, or gives a seat a speed."""
        self._host(by)
        self._between(playing)
        self._in_play(seat)
        if self.teams and speed not in (None, 1):
            raise RuleError("room/teams_speed", "in a 2v2 every seat plays once a round (speed 1)")
        held = self.holder(seat, playing)
        if bot is not None:
            if held is not None and held.kind != "bot":
                raise RuleError("room/seat_taken", "a person is in that seat")
            if held is None:
                held = RoomSeat(next(bot_names(s.name for s in self.seats if s is not None)), "bot", bot)
            held = replace(held, level=bot)
        if speed is not None:
            if held is None:
                raise RuleError("room/seat_empty", "that seat is empty")
            held = replace(held, speed=speed)
        self.seats[seat] = held
        self.version += 1

    def start(self, by: int | None, playing: bool, match_id: str, race: bool = False) -> dict[int, int]:
        """The host starts a match: gone people's seats are freed, everyone moves up into the free
        seats (seat order is turn order), and the room plays ``match_id`` (with ``race``: the race
        of that id). Returns where each seat moved (old index to new). In a 2v2 nobody moves (that
        would change teams): the match fills seats 0-3 that are empty with bots of its own
        (``Play``), and the room's seats stay as they are, so a rematch has the same teams and a
        newcomer can take a bot's place."""
        self._host(by)
        self._between(playing)
        if race and self.rules.mode != RACE:
            raise RuleError("room/mode_changed", "the room's rules no longer say race; start again")
        if self.teams:
            self.seats = [None if s is None or s.gone else s for s in self.seats]
            self.match_id, self.race_id = match_id, None
            self.version += 1
            return {i: i for i in self.filled(playing=False)}
        filled = self.filled(playing=False)
        if len(filled) < 2:
            what = "a race" if race else "a match"
            raise RuleError("room/too_few", f"{what} needs at least two seats filled (people or bots)")
        if not race and len(filled) > MAX_SEATS:  # (set_rules keeps seats 7 and 8 empty for a match)
            raise RuleError("room/too_many_for_match", "a match seats six: seats 7 and 8 must be empty first")
        moved = {old: new for new, old in enumerate(filled)}
        seats = [self.seats[old] for old in filled]
        self.seats = seats + [None] * (ROOM_SEATS - len(seats))
        self.host = None if self.host is None else moved.get(self.host)
        self.match_id, self.race_id = (None, match_id) if race else (match_id, None)
        self.version += 1
        return moved

    def hand_on(self, present: Collection[int] = ()) -> bool:
        """Give the host role to the seated person who joined first (one who is here, if any is).
        Returns whether the host changed."""
        people = self.people()
        here = [seat for seat in people if seat in present]
        host = (here or people)[0] if people else None
        if host == self.host:
            return False
        self.host = host
        return True

    def apply(self, change: Settled) -> bool:
        """Apply what ``settle`` found follows from who is connected (one commit). Whether the room
        changed."""
        before = self.version
        for seat in change.back:
            self.back(self._token(seat))
        for seat in change.held:
            self.left(self._token(seat), change.until)
        for seat in change.away:
            self.grace_over(self._token(seat), change.now)
        if change.host is not None:
            self.host = change.host
            self.version += 1
        if change.emptied:
            self.emptied(change.now)
        if change.occupied:
            self.occupied()
        return self.version != before

    def _token(self, seat: int) -> str:
        held = self.seats[seat]
        return "" if held is None or held.token is None else held.token

    def _host(self, by: int | None) -> None:
        if by is None or by != self.host:
            raise RuleError("room/not_host", "only the room's host can do that")

    @property
    def seats_in_play(self) -> int:
        """How many of the seats the room's mode plays: four in a 2v2, six in a match, eight in a race."""
        return {TEAMS: TEAMS_SEATS, RACE: ROOM_SEATS}.get(self.rules.mode, MAX_SEATS)

    def _in_play(self, seat: int) -> None:
        if self.teams and seat >= TEAMS_SEATS:
            raise RuleError("room/team_full", "a 2v2 has four seats (two a team): seats 1-4")
        if seat >= self.seats_in_play:
            raise RuleError("room/race_seat", "seats 7 and 8 are for races: a match seats six")

    def _between(self, playing: bool) -> None:
        if playing:
            raise RuleError("room/match_running", "not while a match is being played; wait for it to end")

    # -- documents ------------------------------------------------------------------------

    def to_doc(self) -> dict[str, Any]:
        return {
            "kind": "room",
            "format": DOC_FORMAT,
            "code": self.code,
            "rules": self.rules.to_doc(),
            "seats": [None if seat is None else seat.to_doc() for seat in self.seats],
            "host": self.host,
            "removed": list(self.removed),
            "barred": list(self.barred),
            "match_id": self.match_id,
            "race_id": self.race_id,
            "joins": self.joins,
            "empty_since": self.empty_since,
            "version": self.version,
        }

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> Room:
        """A room from its stored document; ``GameDataError`` if any field is damaged."""
        if doc.get("kind") != "room" or doc.get("format") != DOC_FORMAT:
            raise GameDataError("not a room of a known format")
        room = cls(field_of(doc, "code", str), _rules(field_of(doc, "rules", Mapping)))
        entries = field_of(doc, "seats", list)
        if len(entries) == MAX_SEATS:  # (saved when a room had six seats, before races)
            entries = [*entries, *[None] * (ROOM_SEATS - MAX_SEATS)]
        if len(entries) != ROOM_SEATS:
            raise GameDataError("field 'seats' is damaged")
        room.seats = [None if entry is None else _seat(entry) for entry in entries]
        host = doc.get("host")
        if host is not None and not (type(host) is int and 0 <= host < ROOM_SEATS and room.seats[host]):
            raise GameDataError("field 'host' is damaged")
        room.host = host
        removed = field_of(doc, "removed", list)
        if not all(isinstance(token, str) for token in removed):
            raise GameDataError("field 'removed' is damaged")
        room.removed = removed[-MAX_REMOVED:]
        barred = field_of(doc, "barred", list)
        if not all(isinstance(where, str) for where in barred):
            raise GameDataError("field 'barred' is damaged")
        room.barred = barred[-MAX_REMOVED:]
        match_id = doc.get("match_id")
        if match_id is not None and not isinstance(match_id, str):
            raise GameDataError("field 'match_id' is damaged")
        room.match_id = match_id
        race_id = doc.get("race_id")  # (absent in rooms saved before races)
        if race_id is not None and not isinstance(race_id, str):
            raise GameDataError("field 'race_id' is damaged")
        room.race_id = race_id
        room.joins = count_of(doc, "joins")
        empty_since = doc.get("empty_since")  # (absent in rooms saved before deadlines were data)
        if not (empty_since is None or is_time(empty_since)):
            raise GameDataError("field 'empty_since' is damaged")
        room.empty_since = empty_since
        room.version = count_of(doc, "version")
        return room


@dataclass(frozen=True, slots=True)
class Settled:
    """What follows for good from who is connected to a room, at one moment (see ``settle``)."""

    now: float
    until: float
    """When the seats in ``held`` stop being held (``now`` plus the grace period)."""
    back: tuple[int, ...] = ()
    """Seats whose person is connected again: their grace period, or their being away, ends."""
    returned: tuple[int, ...] = ()
    """Those of ``back`` that were away: the stand-in playing for them stops."""
    held: tuple[int, ...] = ()
    """Seats whose person is connected nowhere: held for them until ``until``."""
    away: tuple[int, ...] = ()
    """Seats whose grace period has run out: away from now on (a stand-in plays for them)."""
    host: int | None = None
    """The new host, when an away host hands the room on to someone here (None: unchanged)."""
    emptied: bool = False
    """Nobody is connected to the room any more: it stands empty from ``now``."""
    occupied: bool = False
    """Someone is connected to an empty room again."""

    @property
    def changed(self) -> bool:
        return bool(self.back or self.held or self.away or self.emptied or self.occupied) or (
            self.host is not None
        )


def settle(room: Room, here: Collection[str], anyone: bool, now: float, grace: float) -> Settled:
    """The rules that follow from presence, as one change: ``here`` is the token hashes connected
    to the room (anywhere), ``anyone`` whether anybody at all is (spectators count), ``grace`` how
    long a seat is held for a person who left. Nothing is changed here: ``Room.apply`` applies it.

    - a person connected again is back: their grace period ends, and so does a stand-in's play;
    - a person connected nowhere has their seat held until ``now + grace`` (once: a held or away
      seat keeps what it has);
    - a held seat whose time has run out by ``now`` is away: a stand-in plays it;
    - an away host hands the room on to the earliest-seated person here, if anyone is;
    - a room nobody is connected to stands empty from ``now``; one somebody is in, does not.
    """
    back, returned, held, away = [], [], [], []
    seated = {seat: room.seats[seat] for seat in room.people()}  # (each a person with a token)
    present = [seat for seat, person in seated.items() if person and person.token in here]
    for seat, person in seated.items():
        if person is None:  # pragma: no cover - people() holds only seats with a person
            continue
        if seat in present:
            if person.away or person.grace_until is not None:
                back.append(seat)
                if person.away:
                    returned.append(seat)
        elif person.grace_until is not None and now >= person.grace_until:
            away.append(seat)
        elif not person.away and person.grace_until is None:
            held.append(seat)
    host = None
    boss = None if room.host is None else room.seats[room.host]
    if boss is not None and ((boss.away and room.host not in back) or room.host in away):
        host = next((seat for seat in present if seat != room.host), None)
    return Settled(
        now,
        now + grace,
        tuple(back),
        tuple(returned),
        tuple(held),
        tuple(away),
        host,
        emptied=not anyone and room.empty_since is None,
        occupied=anyone and room.empty_since is not None,
    )


def _rules(doc: Mapping[str, Any]) -> Rules:
    try:
        rounds, turn_seconds = doc["rounds"], doc["turn_seconds"]
        wordlist, stand_in = doc["wordlist"], doc["stand_in"]
        if type(rounds) is not int or not (turn_seconds is None or type(turn_seconds) is int):
            raise ValueError("a number is damaged")
        if not (wordlist is None or isinstance(wordlist, str)):
            raise ValueError("the word list is damaged")
        values = doc.get("values", SPELLCAST)  # saved before rooms chose: the default
        # (saved before rooms had modes: a match, and a race's default length)
        mode, race_seconds = doc.get("mode", MATCH), doc.get("race_seconds", 120)
        if type(race_seconds) is not int:
            raise ValueError("race_seconds is damaged")
        return Rules(rounds, turn_seconds, wordlist, stand_in, values, mode, race_seconds)
    except (KeyError, TypeError, ValueError) as exc:
        raise GameDataError(f"field 'rules' is damaged: {exc}") from None


def _seat(entry: Any) -> RoomSeat:
    if not isinstance(entry, Mapping):
        raise GameDataError("field 'seats' is damaged")
    kind, level, token = entry.get("kind"), entry.get("level"), entry.get("token")
    speed, gone, where = entry.get("speed"), entry.get("gone"), entry.get("where")
    if kind not in ("human", "bot") or (kind == "bot" and level not in LEVELS):
        raise GameDataError("a seat is neither a person nor a bot of a known level")
    if not (token is None or isinstance(token, str)) or type(gone) is not bool or not isinstance(where, str):
        raise GameDataError("a seat is damaged")
    if type(speed) is not int or not 1 <= speed <= 4:
        raise GameDataError("a seat's speed is damaged")
    grace_until, away = entry.get("grace_until"), entry.get("away", False)
    if not (grace_until is None or is_time(grace_until)) or type(away) is not bool:
        raise GameDataError("a seat's grace period is damaged")
    name, joined = field_of(entry, "name", str), count_of(entry, "joined")
    return RoomSeat(name, kind, level, speed, token, joined, gone, where, grace_until, away)
