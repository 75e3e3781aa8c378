"""The meter: what each client address has spent, for the budgets of ``wibble.live.budgets``.

``base`` holds the contract (``Meter``); ``memory`` the counts of one process; ``redis``
those of every process together (imported only with ``--redis``).
"""

from .base import Meter
from .memory import MemoryMeter

__all__ = ["MemoryMeter", "Meter"]
