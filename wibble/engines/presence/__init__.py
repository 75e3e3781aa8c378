"""Presence: who is connected to which document, on any process.

``base`` holds the contract (``Presence``, and ``holders``); ``memory`` the members of
one process; ``redis`` those of every process, with their liveness (imported only with
``--redis``).
"""

from .base import Presence, holders
from .memory import MemoryPresence

__all__ = ["MemoryPresence", "Presence", "holders"]
