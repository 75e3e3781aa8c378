"""Matches in play: create and resume them, apply each seat's commands, run bots and timers.

The same shape as an endless game's: a command goes through the
match's own checklist (``wibble.core.match``: over? your turn? can you pay? legal?);
what changed the match for good (its ``version`` grew) is committed to the store
with a compare-and-set before anyone hears of it; a drag is only broadcast. A
refused command is answered to its sender alone.

Seats are seats: each human seat has its own token (only its hash is stored), a
session acts as the seat its token holds, and bots act through the very same
commands, driven by deadlines: a bot "thinks" for a while, then drags its word
tile by tile so that people watch it play. Every deadline (a turn's timer, the
pause between rounds, a bot's next step) is one entry in ``Timers``; when it falls
due the match is asked again under its lock, so a timer that fires just as the
turn ends changes nothing.

The service is in parts: ``service`` (create, resume, attach, moves, telling), ``moves``
(a seat's command as the core applies it and the record keeps it),
``held`` (the match in memory and as a stored document), ``bots`` (the bot driver),
``deadlines`` (turn timers, round pauses, a bot's next step) and ``rooms`` (the one
way rooms reach their matches).

A match is stored like a game (same store, same table): its document is the
match's ``to_doc`` plus the seats' token hashes, and, on a bot's turn, when the bot
is done thinking (planned in the commit that gave it the turn). It survives a
restart, its turn timer and its bot's plan included; its bots and timers are
scheduled again when someone resumes it, or on another process that holds it.
"""

from .bots import BotPace
from .held import BotTurn, LiveMatch
from .rooms import RoomMatches
from .service import Matches

__all__ = ["BotPace", "BotTurn", "LiveMatch", "Matches", "RoomMatches"]
