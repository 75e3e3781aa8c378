"""The ``definition`` message: what a word the page shows means, as a player asked for it."""

from __future__ import annotations

from typing import Any

from ..core.definitions import Answer


def definition(answer: Answer) -> dict[str, Any]:
    """A word's meanings (each a part of speech, its headword and one or two senses), where they
    come from, or ``source: null`` when its list has no definitions at all."""
    return {
        "type": "definition",
        "word": answer.word,
        "wordlist": answer.wordlist,
        "source": answer.source,
        "meanings": [meaning.to_json() for meaning in answer.meanings],
    }
