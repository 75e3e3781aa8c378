"""Whether a person could have played a sprint: its pace, judged from the times the server
stamped on its words (``Game.times``), never from anything a client said.

The unit is tiles: the letters of the words scored, counted in the busiest ``WINDOW`` seconds
of the sprint. A person spends a keystroke (typing) or a stretch of the finger (dragging) on
each tile, and a look at the refilled board between words; a program spends one message on
each tile and needs no look. ``MOST_TILES`` is set from measured figures of the fastest play
our own page allows (``benchmarks/human_pace.py``: a fast typist's and a fast dragger's pace,
with no time at all spent finding words), with a margin on the human side; docs/benchmarks.md
has the figures and the command. A try above it is still the player's, but is not ranked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WINDOW = 10.0
"""Seconds in which the tiles are counted (the busiest such stretch of the sprint)."""

MOST_TILES = 180
"""The most tiles of scored words a person can play in ``WINDOW`` seconds, with a margin. Our page
driven with no time at all spent finding words (benchmarks/human_pace.py, 2026-11-28): 81 at a
fast typist's 80 ms a key (150 words a minute), 125 at 60 ms, 154 at 50 ms (240 words a minute,
beyond any typist's sustained pace); drags 75 at 60 ms a tile, 120 at 30 ms. With no round trip
either, 7-letter words at 50 ms a key would be 175. A solver at the message rate limit: 357."""


@dataclass(frozen=True, slots=True)
class Pace:
    """A sprint's busiest stretch: ``peak`` tiles in ``window`` seconds, against the bound ``most``."""

    peak: int
    most: int = MOST_TILES
    window: float = WINDOW

    @property
    def human(self) -> bool:
        """Whether a person can play this fast (at the bound itself they can)."""
        return self.peak <= self.most


def plays(times: Sequence[float], words: Sequence[str]) -> list[tuple[float, int]]:
    """Each timed word as (seconds into the sprint, tiles): ``times`` are the last words'
    (a sprint saved before times were kept has fewer times than words)."""
    count = min(len(times), len(words))
    if count == 0:
        return []
    return [(at, len(word)) for at, word in zip(times[-count:], words[-count:], strict=True)]


def peak(played: Sequence[tuple[float, int]], window: float = WINDOW) -> int:
    """The most tiles played within any ``window`` seconds (from one word's time, up to but
    not including ``window`` later)."""
    ordered = sorted(played)
    most = in_window = start = 0
    for at, tiles in ordered:
        in_window += tiles
        while ordered[start][0] <= at - window:
            in_window -= ordered[start][1]
            start += 1
        most = max(most, in_window)
    return most


def judge(
    times: Sequence[float], words: Sequence[str], most: int = MOST_TILES, window: float = WINDOW
) -> Pace:
    """The pace of a sprint whose words ``words`` (in the order found) were scored at ``times``."""
    return Pace(peak(plays(times, words), window), most, window)
