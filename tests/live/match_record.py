"""Make a match record as the server keeps one: a person and three bots (easy, medium, hard) through
the live layer, in-process, to the end; the record is what ``GET /games/<id>/record`` answers.

``tests/core/records/bots-before-levels.json`` was made with this at commit 21b0f2d, with
the bots as they were before their levels were calibrated, so that ``tests/core/test_bot_records``
can check that a record made by the old bots still replays and restores. Running it
again now records the bots as they are now, which is not that fixture:

    .venv/bin/python -m tests.live.match_record OUT.json
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from tests.live.players import FakeClock, Live, Person, tick, types
from tests.support import WORDS
from wibble.engines.store import MemoryStore
from wibble.live import LiveSettings, wire
from wibble.live.matches import BotPace
from wibble.live.records import match_record
from wibble.wordlists import WordLists

LIST = "en-easy"
SEED = 17
QUICK = BotPace(think=(0.0, 0.0), step=0.0)


def recorded_match(list_name: str = LIST, seed: int = SEED) -> dict[str, Any]:
    """Two rounds: the person plays the board's lowest word, then shuffles and plays; the bots play."""
    clock = FakeClock()
    store = MemoryStore()
    router = wire(store, WordLists(WORDS), clock, clock, LiveSettings(pace=QUICK), entropy=random.Random(7))
    live = Live(store, router, clock)
    me = Person(router)
    bots = [{"level": level} for level in ("easy", "medium", "hard")]
    [snapshot] = me.send(type="new_match", wordlist=list_name, seed=seed, bots=bots, rounds=2)
    mid = snapshot["match_id"]
    held = router.matches.get(mid)
    assert held is not None
    match = held.match

    me.drag_path(match.solve()[-1].path)
    assert types(me.send(type="release"))[0] == "played"
    router.timers.run_due()  # the three bots play round 1
    tick(live, 3.0)  # the pause between rounds
    assert (match.round, match.turn) == (2, 0)
    assert types(me.send(type="shuffle"))[0] == "board"
    me.drag_path(match.solve()[len(match.solve()) // 2].path)
    assert types(me.send(type="release"))[0] == "played"
    router.timers.run_due()  # and round 2
    assert match.phase.value == "over"
    record = match_record(store, mid)
    assert record is not None
    return record


def main() -> None:
    record = recorded_match()
    Path(sys.argv[1]).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
