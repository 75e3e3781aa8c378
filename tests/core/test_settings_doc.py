"""A match's settings as its document stores them: field by field what ``dataclasses.asdict`` wrote,
so documents saved before and after ``Settings.to_doc`` stopped using it are the same. ``teams``
came later: a match without teams leaves it out, so its document reads as before."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from wibble.core.match.settings import Costs, Settings


@pytest.mark.parametrize(
    "settings",
    [
        Settings(),
        Settings(rounds=3, turn_seconds=30, round_pause=0.5, costs=Costs(2, 4, 5, 0), values="classic"),
    ],
    ids=["defaults", "changed"],
)
def test_settings_document_is_what_asdict_wrote(settings: Settings) -> None:
    before = {**asdict(settings), "scoring": list(settings.scoring)}
    del before["teams"]  # (None: written by no document from before teams existed)
    doc = settings.to_doc()
    assert doc == before
    assert list(doc) == list(before)  # the same order of keys: the same stored text
    assert list(doc["costs"]) == list(before["costs"])
    assert Settings.from_doc(doc) == settings


def test_a_2v2s_settings_name_its_teams_after_everything_else() -> None:
    settings = Settings(teams=(0, 1, 0, 1))
    doc = settings.to_doc()
    assert list(doc)[-1] == "teams"
    assert doc["teams"] == [0, 1, 0, 1]
    assert Settings.from_doc(doc) == settings
