"""A match: Spellcast's rules (rounds, turns, multipliers, gems) and the bots that play them.

- ``settings``: the rules as data, Spellcast's by default;
- ``tiles``: what lies on the board besides letters, and the pipelines that build it;
- ``state``: the match itself, every command with its actor (the seat);
- ``restore``: a stored document back into a match, checked;
- ``record``: a match's record played again from its seed, move by move, and checked;
- ``bots``: how a bot chooses its move, by level;
- ``teams``: a 2v2's teams, their totals, and teammates' suggestions.
"""

from .bots import BotMove, choose
from .record import MatchMove, MatchRecord, match_differences, replay_match
from .restore import restore
from .settings import (
    BOT_NAMES,
    LEVELS,
    MAX_ROUNDS,
    MAX_SEATS,
    SPELLCAST,
    TURN_SECONDS,
    VALUES,
    Costs,
    Settings,
)
from .state import (
    BoardChanged,
    ChainMoved,
    GemsChanged,
    HintGiven,
    Match,
    MatchEvent,
    MatchOver,
    Phase,
    Played,
    Seat,
    Suggested,
    TurnChanged,
    WordRefused,
)
from .teams import TEAM_NAMES, VERSUS, teammates
from .tiles import Specials

__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "MAX_ROUNDS",
    "MAX_SEATS",
    "TURN_SECONDS",
    "SPELLCAST",
    "VALUES",
    "BoardChanged",
    "BotMove",
    "ChainMoved",
    "Costs",
    "GemsChanged",
    "HintGiven",
    "Match",
    "MatchEvent",
    "MatchMove",
    "MatchOver",
    "MatchRecord",
    "Phase",
    "Played",
    "Seat",
    "Settings",
    "Specials",
    "Suggested",
    "TEAM_NAMES",
    "VERSUS",
    "TurnChanged",
    "WordRefused",
    "choose",
    "match_differences",
    "replay_match",
    "restore",
    "teammates",
]
