"""A host's definitions file beside a word list: its format, checked like a word list is."""

from __future__ import annotations

import pytest

from wibble.core import WordListError
from wibble.core.definitions import Meaning, parse_definitions

WORDS = {"casa", "casas", "perro", "correr", "corre"}
SOURCE = "mine.definitions.tsv"


def parse(text: str) -> dict[str, list[Meaning]]:
    return parse_definitions(text, SOURCE, WORDS.__contains__)


def test_a_file_gives_senses_by_part_of_speech_and_forms_point_at_their_headword() -> None:
    book = parse(
        "# Definiciones\n"
        "casa\tsustantivo\tedificio para habitar\n"
        "casa\tsustantivo\tfamilia, linaje\r\n"
        "correr\tverbo\tir deprisa\n"
        "\n"
        "Casas\t=\tcasa\n"
        "corre\t=\tcorrer\n"
    )
    assert book["casa"] == [Meaning("sustantivo", "casa", ("edificio para habitar", "familia, linaje"))]
    assert book["casas"] == book["casa"]  # a form shows its headword's meanings, headword named
    assert book["corre"] == [Meaning("verbo", "correr", ("ir deprisa",))]
    assert "perro" not in book


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ("casa  sustantivo  edificio\n", 1, "field(s)"),
        ("casa\tsustantivo\n", 1, "field(s)"),
        ("casa\tsustantivo\tuno\tdos\n", 1, "field(s)"),
        ("# ok\nca5a\tsustantivo\tedificio\n", 2, "not a word"),
        ("gato\tsustantivo\tfelino\n", 1, "not a word of the list"),
        ("casa\t\tedificio\n", 1, "part of speech"),
        ("casa\tsustantivo\t" + "x" * 301 + "\n", 1, "sense"),
        ("casa\tsustantivo\t\n", 1, "sense"),
        ("casas\t=\tperro\n", 1, "no senses in this file"),
        ("casa\tsustantivo\tedificio\ncasa\t=\tcasas\n", 2, "both a headword and a form"),
        ("# nothing but a comment\n", None, "has no definitions"),
    ],
)
def test_a_bad_line_is_named_with_its_file_and_number(text: str, line: int | None, says: str) -> None:
    with pytest.raises(WordListError) as refused:
        parse(text)
    assert refused.value.source == SOURCE
    assert refused.value.line == line
    assert says in refused.value.message
