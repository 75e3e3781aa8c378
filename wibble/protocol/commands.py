"""What a client may ask for: one frozen dataclass per message type, already checked.

``wibble.protocol.parse`` builds these from JSON; nothing else in the server ever
sees a client's raw message. Limits on sizes and ranges live here beside them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Pos

MAX_FRAME_BYTES = 4096
"""A larger message is refused with close code 1009 (flask-sock's ``max_message_size``)."""

MAX_COORD = 1 << 31
MAX_SEED = (1 << 53) - 1  # JavaScript numbers stay exact up to here
MAX_NAME = 64
MAX_ID = 128
MAX_SEQ = (1 << 53) - 1


@dataclass(frozen=True, slots=True)
class Request:
    """What every command carries: the client's own number for it, echoed in its replies."""

    seq: int | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Ping(Request):
    """The page's heartbeat: answered with ``pong`` by the connection itself, so that each side
    notices the other gone silent (docs/protocol.md, "Heartbeat")."""


@dataclass(frozen=True, slots=True)
class NewGame(Request):
    wordlist: str | None
    seed: int | None
    sprint: int | None = None
    """A sprint's clock in seconds (one of ``SPRINT_SECONDS``); None: untimed Endless."""


@dataclass(frozen=True, slots=True)
class NewDaily(Request):
    """Today's daily board: ``player`` is the browser's own secret id (one scored attempt a day
    each), ``name`` what the leaderboard shows."""

    player: str
    name: str


@dataclass(frozen=True, slots=True)
class Leaderboard(Request):
    """Today's leaderboard (and yesterday's board); ``player`` to be told one's own rank."""

    player: str | None = None


@dataclass(frozen=True, slots=True)
class Define(Request):
    """A short definition of ``word``, one the page shows, as list ``wordlist`` has it (None: the
    default list). Changes nothing: a read, answered to this session alone."""

    word: str
    wordlist: str | None = None


MIN_PLAYER_ID = 16
"""A player id shorter than this is refused: the page makes 32 random characters."""


@dataclass(frozen=True, slots=True)
class Resume(Request):
    game_id: str
    token: str


@dataclass(frozen=True, slots=True)
class Press(Request):
    pos: Pos


@dataclass(frozen=True, slots=True)
class Enter(Request):
    pos: Pos


@dataclass(frozen=True, slots=True)
class Release(Request):
    pass


@dataclass(frozen=True, slots=True)
class Cancel(Request):
    pass


@dataclass(frozen=True, slots=True)
class EndSprint(Request):
    """``done``, "I'm done": end this connection's sprint now, as if its clock ran out (docs/protocol.md)."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    level: str
    speed: int = 1
    """Turns a round: a host gives a bot speed 2 as a handicap (for the others), and it plays twice."""


@dataclass(frozen=True, slots=True)
class NewMatch(Request):
    wordlist: str | None
    seed: int | None
    rounds: int
    turn_seconds: int | None
    bots: tuple[BotSpec, ...]
    name: str
    speed: int = 1
    values: str = "spellcast"
    """The letter values: ``spellcast`` (a list without that table plays its own) or ``classic``."""


@dataclass(frozen=True, slots=True)
class ResumeMatch(Request):
    match_id: str
    token: str


@dataclass(frozen=True, slots=True)
class Pass(Request):
    pass


@dataclass(frozen=True, slots=True)
class Shuffle(Request):
    pass


@dataclass(frozen=True, slots=True)
class Swap(Request):
    pos: Pos
    letter: str


@dataclass(frozen=True, slots=True)
class Hint(Request):
    pass


@dataclass(frozen=True, slots=True)
class Extend(Request):
    pass


@dataclass(frozen=True, slots=True)
class Rematch(Request):
    pass


@dataclass(frozen=True, slots=True)
class Suggest(Request):
    """A 2v2's seat marks a tile for its teammate (a tap toggles it); ``pos`` None clears its marks.
    ``to``: the teammate's seat, if the client names it (any other seat is refused)."""

    pos: Pos | None = None
    to: int | None = None


# -- rooms -----------------------------------------------------------------------------

MAX_ROOM_SEATS = 8


class Unset:
    """A field the message left out, where None has a meaning of its own (``turn_seconds``: untimed)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET = Unset()


@dataclass(frozen=True, slots=True)
class RulesPatch:
    """Rules a host changes; a field left out (None, or ``UNSET`` for ``turn_seconds``) keeps its value."""

    rounds: int | None = None
    turn_seconds: int | None | Unset = UNSET
    wordlist: str | None = None
    stand_in: str | None = None
    values: str | None = None
    mode: str | None = None
    race_seconds: int | None = None


@dataclass(frozen=True, slots=True)
class CreateRoom(Request):
    name: str
    rules: RulesPatch = RulesPatch()


@dataclass(frozen=True, slots=True)
class JoinRoom(Request):
    code: str
    name: str
    token: str | None = None


@dataclass(frozen=True, slots=True)
class TakeSeat(Request):
    seat: int | None
    team: str | None = None
    """In a 2v2 room, "a" or "b": that team's free seat (``seat`` is then None)."""


@dataclass(frozen=True, slots=True)
class LeaveSeat(Request):
    pass


@dataclass(frozen=True, slots=True)
class LeaveRoom(Request):
    pass


@dataclass(frozen=True, slots=True)
class SetRules(Request):
    rules: RulesPatch


@dataclass(frozen=True, slots=True)
class SetSeat(Request):
    seat: int
    bot: str | None = None
    """A bot's level: put a bot in a free seat, or change a bot's level."""
    speed: int | None = None


@dataclass(frozen=True, slots=True)
class Remove(Request):
    seat: int


@dataclass(frozen=True, slots=True)
class StartMatch(Request):
    pass


@dataclass(frozen=True, slots=True)
class Follow(Request):
    """Watch a race runner's board as it changes (a spectator, or a runner once the race is over)."""

    seat: int


Command = (
    NewGame
    | NewDaily
    | Leaderboard
    | Define
    | Ping
    | Resume
    | Press
    | Enter
    | Release
    | Cancel
    | EndSprint
    | NewMatch
    | ResumeMatch
    | Pass
    | Shuffle
    | Swap
    | Hint
    | Extend
    | Rematch
    | Suggest
    | CreateRoom
    | JoinRoom
    | TakeSeat
    | LeaveSeat
    | LeaveRoom
    | SetRules
    | SetSeat
    | Remove
    | StartMatch
    | Follow
)
MatchCommand = NewMatch | ResumeMatch | Pass | Shuffle | Swap | Hint | Extend | Rematch | Suggest
"""Commands that only make sense in a match (the drag commands serve both modes)."""
RoomCommand = (
    CreateRoom
    | JoinRoom
    | TakeSeat
    | LeaveSeat
    | LeaveRoom
    | SetRules
    | SetSeat
    | Remove
    | StartMatch
    | Follow
)
"""Commands about a room itself (a room's match takes the match commands)."""
