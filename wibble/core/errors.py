"""Errors the game raises, each with a namespaced code a client can act on.

Two families, as in chess libraries: a ``ProtocolError`` means the message itself
is malformed; a ``RuleError`` means it was well formed but against the rules or
the game's current phase. Either way the game is left exactly as it was.
"""

from __future__ import annotations


class WibbleError(Exception):
    """Base class: a stable ``code`` such as ``move/not_adjacent`` and a readable message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request: str | None = None
        """The ``type`` of the message that was refused, once the layer that knows it says so."""

    def about(self, request: str) -> WibbleError:
        """Note which request this error answers; returns self, for ``raise exc.about(...)``."""
        self.request = request
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class ProtocolError(WibbleError):
    """The message could not be understood (bad JSON, wrong field types, unknown type)."""


class RuleError(WibbleError):
    """The message was understood but is not allowed now (bad move, wrong phase)."""


class WordListError(WibbleError):
    """A word list or its settings file is unusable; the message names the file and line."""

    def __init__(self, source: str, message: str, line: int | None = None) -> None:
        where = f"{source}:{line}" if line is not None else source
        super().__init__("wordlist/invalid", f"{where}: {message}")
        self.source = source
        self.detail = message
        self.line = line

    def again(self) -> WordListError:
        """A fresh copy, to raise again without piling up tracebacks."""
        return WordListError(self.source, self.detail, self.line)


class GameDataError(WibbleError):
    """A saved game's document is damaged or no longer fits its word list; the reason is for the log."""

    def __init__(self, reason: str) -> None:
        super().__init__("game/unavailable", reason)
