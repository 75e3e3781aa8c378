"""Where games are kept between moves: one small interface, several engines.

The layer above never knows which engine it talks to:

- ``SqliteStore`` keeps games in a SQLite file (the default: one server process);
- ``MemoryStore`` keeps them in this process only (``--data-dir ""``: nothing survives a restart);
- ``RedisStore`` (``wibble.engines.store.redis``) keeps them in Redis, for several processes.

A store holds documents (plain JSON types) of a kind (a game, a match, a room),
never live objects, and knows nothing of the rules: it creates a document only
under an id that is free, refuses a write whose expected version is stale, and
hands documents back. Beside each document it keeps the time of its next deadline,
in an index any process can ask which deadlines nobody handled (``overdue``).
"""

from .base import (
    KEEP,
    KINDS,
    AlreadyExists,
    Due,
    Gone,
    Row,
    StorageError,
    Store,
    StoreOpenError,
    VersionConflict,
)
from .memory import MemoryStore
from .sqlite import SqliteStore, default_data_dir, open_store

__all__ = [
    "KEEP",
    "KINDS",
    "Due",
    "Gone",
    "AlreadyExists",
    "Row",
    "MemoryStore",
    "SqliteStore",
    "StorageError",
    "Store",
    "StoreOpenError",
    "VersionConflict",
    "default_data_dir",
    "open_store",
]
