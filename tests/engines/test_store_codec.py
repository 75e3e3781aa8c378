"""Documents dumped by msgspec (``wibble.codec``) are the JSON text the standard library wrote:
a store written by this code is read back identically, by it and by the code before it, and a
store written before reads the same today."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from tests.engines.games import new_game, play
from tests.protocol.test_codec import same
from wibble.engines.store import SqliteStore, Store

T0 = 1_700_000_000.0
COMPACT = {"ensure_ascii": False, "separators": (",", ":")}


def awkward_doc() -> dict[str, Any]:
    """A real game's document, with what a document may hold that is easy to get wrong."""
    game = new_game(seed=5)
    play(game, 2)
    return {
        **game.to_doc(),
        "names": ["Zoë", "👩‍⚕️", 'a "quote" \\ and\nnewline', "\u2028", "\x00\x1f\x7f"],
        "numbers": [0, -1, 2**53, -(2**63), 2**64, 10**30, 0.1, 1e-05, 1e16, -0.0, 1_700_000_000.123],
        "nested": {"empty": {}, "list": [[], [None, True, False]]},
    }


def test_a_document_comes_back_the_same_from_every_engine(store: Store) -> None:
    doc = awkward_doc()
    move = {"version": doc["version"] + 1, "word": "Zoë", "path": [[0, 0], [0, 1]]}
    store.create("g1", "game", doc, T0)
    row = store.load("g1")
    assert row is not None
    assert same(row.doc, doc)
    later = {**doc, "version": doc["version"] + 1}
    store.commit("g1", doc["version"], later, move, T0 + 1)
    row = store.load("g1")
    assert row is not None
    assert same(row.doc, later)
    assert [same(got, move) for got in store.moves("g1")] == [True]


def test_sqlite_keeps_the_text_json_wrote(tmp_path: Path) -> None:
    doc = awkward_doc()
    exact = {key: value for key, value in doc.items() if key != "numbers"}
    move = {"version": doc["version"] + 1, "word": "Zoë"}
    store = SqliteStore(tmp_path / "wibble.db")
    store.create("g1", "game", doc, T0)
    store.create("g2", "game", exact, T0)
    store.commit("g2", exact["version"], exact, move, T0 + 1)
    store.close()
    with sqlite3.connect(tmp_path / "wibble.db") as db:
        texts = dict(db.execute("SELECT id, doc FROM documents").fetchall())
        (moved,) = db.execute("SELECT move FROM records WHERE doc_id = 'g2'").fetchone()
    # the code before this read documents with json.loads: it reads these the same
    assert same(json.loads(texts["g1"]), doc)
    # and but for the spelling of some floats (1e16 for 1e+16), it is the text it wrote
    assert texts["g2"] == json.dumps(exact, **COMPACT)
    assert moved == json.dumps(move, **COMPACT)


def test_a_store_written_before_reads_the_same(tmp_path: Path) -> None:
    """Rows whose text json.dumps wrote (the code before this one) load as they were saved."""
    doc = awkward_doc()
    store = SqliteStore(tmp_path / "wibble.db")
    store.create("g1", "game", {"version": 0}, T0)
    store.close()
    with sqlite3.connect(tmp_path / "wibble.db") as db:
        db.execute("UPDATE documents SET doc = ? WHERE id = 'g1'", (json.dumps(doc, **COMPACT),))
    store = SqliteStore(tmp_path / "wibble.db")
    row = store.load("g1")
    store.close()
    assert row is not None
    assert same(row.doc, doc)
