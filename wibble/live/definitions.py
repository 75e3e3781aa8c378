"""``define`` requests: a word's short definition, to the session that asked, and nothing changed.

The books are ``wibble.definitions``'; this service checks the address's budget, asks the book
(compiled on the first request when set-up did not) and replies on the bus like every read.
"""

from __future__ import annotations

from .. import protocol
from ..core import RuleError, WordListError
from ..definitions import Definitions
from ..protocol import Define
from .parts import Parts, Service
from .sessions import Session


class Lookups(Service):
    def __init__(self, parts: Parts, definitions: Definitions) -> None:
        super().__init__(parts)
        self.definitions = definitions

    def tell(self, session: Session, command: Define) -> None:
        name = command.wordlist or self.wordlists.default
        try:
            self.wordlists.path(name)
        except KeyError:
            names = ", ".join(self.wordlists.names())
            raise RuleError("game/unknown_wordlist", f"no word list named {name!r} (have: {names})") from None
        self.budgets.define(session.address)  # spent only on a question that can be answered
        try:
            answer = self.definitions.define(name, command.word)
        except WordListError:
            # The file and line are for the host's log (``Definitions.book`` wrote it), not for players.
            raise RuleError(
                "define/unavailable", "this list's definitions cannot be read now (the host can see why)"
            ) from None
        self.bus.reply(session, [protocol.definition(answer)], command.seq)
