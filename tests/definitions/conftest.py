"""WordNet's database, where set-up put it (``make test`` installs Debian's wordnet-base)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wibble import wordnet


@pytest.fixture(scope="session")
def wordnet_dir() -> Path:
    folder = wordnet.find()
    assert folder is not None, (
        "WordNet's database is missing: `make test` installs it (Debian's wordnet-base), "
        "or set WIBBLE_WORDNET_DIR to a folder holding index.noun, data.noun, ..."
    )
    return folder
