"""Where games are kept between moves: one small interface, several engines.

The layer above never knows which engine it talks to:

- ``SqliteStore`` keeps games in a SQLite file (the default: one server process);
- ``MemoryStore`` keeps them in this process only (``--data-dir ""``: nothing survives a restart);
- a Redis engine can follow for several processes: every write is already a
  compare-and-set on the game's version, which is what such a store needs.

A store holds documents (plain JSON types) of a kind (a game, a match, a room),
never live objects, and knows nothing of the rules: it creates a document only
under an id that is free, refuses a write whose expected version is stale, and
hands documents back.
"""

from .base import KINDS, AlreadyExists, Row, StorageError, Store, StoreOpenError, VersionConflict
from .memory import MemoryStore
from .sqlite import SqliteStore, default_data_dir, open_store

__all__ = [
    "KINDS",
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
