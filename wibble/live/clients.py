"""A connection as the live layer sees it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..ratelimit import TokenBucket
    from .matches import LiveMatch
    from .registry import LiveGame
    from .rooms import LiveRoom


class Client:
    """One connection: at most one game or match at a time, the token that opened it, a way to reach it.

    ``deliver`` takes an encoded frame and must never block (the websocket layer
    queues it); ``address`` is the client's network address, for per-address budgets.
    """

    __slots__ = ("address", "deliver", "failed_joins", "game", "match", "name", "room", "seat", "token")

    def __init__(self, deliver: Callable[[str], None], address: str = "") -> None:
        self.deliver = deliver
        self.address = address
        self.game: LiveGame | None = None
        self.match: LiveMatch | None = None
        self.seat: int | None = None
        """The seat this connection plays in its match or room (the one its token opened); None watches."""
        self.token: str | None = None
        self.room: LiveRoom | None = None
        self.name = ""
        """The display name it joined its room with (a seat it takes gets this name)."""
        self.failed_joins: TokenBucket | None = None
