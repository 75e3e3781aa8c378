"""Ids, secret tokens and what the store keeps of them (hashes), in one place."""

from __future__ import annotations

import hashlib
import secrets


def new_token(nbytes: int = 24) -> str:
    """A secret (an id or a token) from the OS: never from an injected, seeded entropy, which a
    test may make guessable."""
    return secrets.token_urlsafe(nbytes)


def token_hash(token: str) -> bytes:
    """What the store keeps instead of a token: a database that leaks lets nobody play."""
    return hashlib.sha256(token.encode()).digest()


def holder_of(token: str) -> str:
    """The token's hash as documents and presence name a seat's holder (hex)."""
    return token_hash(token).hex()


def address_hash(address: str) -> str:
    """What a room remembers of where a removed person played from: never the address itself."""
    return token_hash(f"address:{address}").hex() if address else ""
