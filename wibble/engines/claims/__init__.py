"""Claims: which process handles a deadline that several hold.

``base`` holds the contract (``Claims``, ``LEASE``); ``memory`` the claims of one process;
``redis`` those of every process (imported only with ``--redis``).
"""

from .base import LEASE, Claims
from .memory import MemoryClaims

__all__ = ["LEASE", "Claims", "MemoryClaims"]
