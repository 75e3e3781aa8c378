"""The commands of a drag (press, enter, release, cancel), read straight into typed structs.

Five frames in six a server reads are these. msgspec's typed decoder reads one and checks
its fields (whole numbers, not bools or fractions; in range; ``seq`` or null) in one pass,
where the general path builds a dict and checks each field by hand. Only a frame it
accepts is taken from here, and it accepts only what the hand-written checks accept, with
the same meaning (``tests/protocol/test_codec.py`` compares the two on every frame of the
bad-input table and on generated ones). Anything else it refuses, and the general path then
reads the frame as before, so every error is the documented one, in the same words.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from .. import codec
from ..core import Pos
from .commands import MAX_COORD, MAX_SEQ, Cancel, Command, Enter, Press, Release

_Coord = Annotated[int, msgspec.Meta(ge=-MAX_COORD, le=MAX_COORD)]
_Seq = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)] | None


class _Press(msgspec.Struct, tag="press", tag_field="type"):
    row: _Coord
    col: _Coord
    seq: _Seq = None

    def command(self) -> Command:
        return Press(Pos(self.row, self.col), seq=self.seq)


class _Enter(msgspec.Struct, tag="enter", tag_field="type"):
    row: _Coord
    col: _Coord
    seq: _Seq = None

    def command(self) -> Command:
        return Enter(Pos(self.row, self.col), seq=self.seq)


class _Release(msgspec.Struct, tag="release", tag_field="type"):
    seq: _Seq = None

    def command(self) -> Command:
        return Release(seq=self.seq)


class _Cancel(msgspec.Struct, tag="cancel", tag_field="type"):
    seq: _Seq = None

    def command(self) -> Command:
        return Cancel(seq=self.seq)


_decode = msgspec.json.Decoder(_Press | _Enter | _Release | _Cancel).decode


def drag_command(frame: str) -> Command | None:
    """The drag command ``frame`` is, or None: another command, or one the general path must judge.

    Frames over ``codec.FAST_CHARS`` are left to it too (how deeply ``json`` lets a frame nest
    depends on the stack it is called from)."""
    if len(frame) > codec.FAST_CHARS:
        return None
    try:
        drag: _Press | _Enter | _Release | _Cancel = _decode(frame)
    except (ValueError, RecursionError):  # msgspec's DecodeError and ValidationError are ValueErrors
        return None
    return drag.command()
