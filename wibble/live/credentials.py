"""Ids, secret tokens and what the store keeps of them (hashes), in one place."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Sequence


def new_token(nbytes: int = 24) -> str:
    """A secret (an id or a token) from the OS: never from an injected, seeded entropy, which a
    test may make guessable."""
    return secrets.token_urlsafe(nbytes)


def new_key(nbytes: int) -> bytes:
    """A secret key from the OS (the host's daily key), for the same reason as ``new_token``."""
    return secrets.token_bytes(nbytes)


def rematch_id(match_id: str, holders: Sequence[str | None]) -> str:
    """The id of the match a ``rematch`` of ``match_id`` starts: one id, worked out alike by every
    process, so that asking again anywhere (another tab, another process, after a restart) finds
    that same match rather than forking another. Keyed by the seats' holders (their tokens'
    hashes, which only the store keeps): a match id is shared in replay links, and its rematch's
    must not follow from it. Shaped as a match's own id (16 characters)."""
    key = hashlib.sha256("|".join(h or "" for h in holders).encode()).digest()
    digest = hashlib.blake2b(match_id.encode(), digest_size=12, key=key, person=b"wibble-rematch").digest()
    return base64.urlsafe_b64encode(digest).decode()


def token_hash(token: str) -> bytes:
    """What the store keeps instead of a token: a database that leaks lets nobody play."""
    return hashlib.sha256(token.encode()).digest()


def holder_of(token: str) -> str:
    """The token's hash as documents and presence name a seat's holder (hex)."""
    return token_hash(token).hex()


def address_hash(address: str) -> str:
    """What a room remembers of where a removed person played from: never the address itself."""
    return token_hash(f"address:{address}").hex() if address else ""
