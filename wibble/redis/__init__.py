"""The Redis engines: the store, the bus, presence and deadlines shared by several server processes.

Each engine keeps the interface of its in-memory (or SQLite) twin, so the rules and the
live layer never know which they talk to. ``wibble serve --redis redis://HOST:PORT/DB``
(or ``WIBBLE_REDIS_URL``) picks them all; without it nothing here is imported, and the
``redis`` package need not be installed.

Every key of one document shares a hash tag (``{id}``), so each script touches one slot.
"""

from .client import connect, redis_available
from .engines import Engines, open_engines
from .store import RedisStore

__all__ = ["Engines", "RedisStore", "connect", "open_engines", "redis_available"]
