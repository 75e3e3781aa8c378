"""The pure rules of a definition: a form's headword, a gloss cut short, which meanings show."""

from __future__ import annotations

import pytest

from wibble.core.definitions import MAX_MEANINGS, Meaning, base_forms, short_sense, shown

NOUNS = {"box", "goose", "church", "man", "city", "wa", "running"}
VERBS = {"run", "box", "bake", "hop"}


@pytest.mark.parametrize(
    ("word", "pos", "known", "exceptions", "bases"),
    [
        ("boxes", "noun", NOUNS, {}, ["box"]),
        ("churches", "noun", NOUNS, {}, ["church"]),
        ("cities", "noun", NOUNS, {}, ["city"]),
        ("geese", "noun", NOUNS, {"geese": ("goose",)}, ["goose"]),  # irregular: from the exception list
        ("ran", "verb", VERBS, {"ran": ("run",)}, ["run"]),
        ("baked", "verb", VERBS, {}, ["bake"]),
        ("baking", "verb", VERBS, {}, ["bake"]),
        ("hopping", "verb", VERBS, {"hopping": ("hop",)}, ["hop"]),
        ("running", "noun", NOUNS, {}, ["running"]),  # a headword itself comes first
        ("was", "noun", NOUNS, {}, []),  # not a plural of WA: a two-letter base is an abbreviation
        ("xyzzy", "noun", NOUNS, {}, []),
    ],
)
def test_a_form_finds_its_headword(
    word: str, pos: str, known: set[str], exceptions: dict[str, tuple[str, ...]], bases: list[str]
) -> None:
    assert base_forms(word, pos, exceptions, known.__contains__) == bases


def test_a_gloss_loses_its_quoted_examples() -> None:
    gloss = 'move fast by using one\'s feet; "Don\'t run--you\'ll be out of breath"; "The children ran"'
    assert short_sense(gloss) == "move fast by using one's feet"
    assert short_sense("flee; take to one's heels; cut and run") == "flee; take to one's heels; cut and run"
    assert short_sense('"an example only"') == "an example only"


def test_the_commonest_meaning_shows_first_with_two_senses_and_the_next_with_one() -> None:
    noun = Meaning("noun", "run", ("a score in baseball", "a race", "a trip"))
    verb = Meaning("verb", "run", ("move fast", "flee"))
    adjective = Meaning("adjective", "run", ("melted",))
    result = shown([(noun, 3), (verb, 40), (adjective, 0)])
    assert len(result) == MAX_MEANINGS
    assert result == [
        Meaning("verb", "run", ("move fast", "flee")),
        Meaning("noun", "run", ("a score in baseball",)),
    ]


def test_meanings_met_equally_often_keep_their_order() -> None:
    first, second = Meaning("noun", "a", ("x",)), Meaning("verb", "a", ("y",))
    assert shown([(first, 0), (second, 0)]) == [first, second]
