"""The bus: every message a connection receives, published on a topic to an audience.

``base`` holds the contract (``Bus``, ``Subscriber``, ``Audience`` and its helpers);
``memory`` the bus of one process; ``redis`` the bus of several (imported only with
``--redis``).
"""

from .base import EVERYONE, Audience, Bus, Message, Subscriber, Unsettled, all_but, holders_of, only
from .memory import MemoryBus

__all__ = [
    "EVERYONE",
    "Audience",
    "Bus",
    "MemoryBus",
    "Message",
    "Subscriber",
    "Unsettled",
    "all_but",
    "holders_of",
    "only",
]
