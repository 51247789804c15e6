"""The file layout of a sequence (frame-by-frame pictures) on an image or mesh
attachment, and its conversion (docs/file-format.md). A slot's sequence keys are a
stepped track beside its attachment track (``Slot.sequence``)."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from rigeditor.io.schema.project import NonNegative, Str, _Model, _rule
from rigeditor.model.data.sequences import Sequence as ModelSequence

Whole = Annotated[NonNegative, _rule("must be a whole number", lambda v: float(v).is_integer())]


class Sequence(_Model):
    """paths: one picture per frame (relative to the project file); start, digits:
    Spine's region numbering; setup: the frame the setup pose shows (0-based)."""
    paths: Annotated[list[Str], Field(min_length=1)]
    start: Whole = 1
    digits: Whole = 0
    setup: Whole = 0


def to_sequence(s: Sequence | None) -> ModelSequence | None:
    if s is None:
        return None
    return ModelSequence(tuple(s.paths), int(s.start), int(s.digits), int(s.setup))


def sequence_data(s: ModelSequence | None) -> dict:
    if s is None:
        return {}
    return {"sequence": {"paths": list(s.paths), "start": s.start, "digits": s.digits, "setup": s.setup}}


__all__ = ["Sequence", "to_sequence", "sequence_data"]
