"""The project file's field types and channels: numbers, frames, vectors, ranges and
their messages, the keyed channels every part of the file shares (schema_version 4).
A range check raises a "range" error, which ``context={"lenient": True}`` lets
through (see ``rigeditor.io.schema.project``)."""
from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict, ValidationInfo, with_config
from pydantic_core import PydanticCustomError
from typing_extensions import NotRequired, Required, TypedDict

from rigeditor.model.data.timeline import INTERPOLATIONS

MAX_FRAME = 10_000_000
"""Frame numbers in a file lie in [-MAX_FRAME, MAX_FRAME]."""


def _rule(text: str, ok):
    """A range check: ``ok(value)`` or a "range" error reading ``text, got value``."""
    def check(value, info: ValidationInfo):
        if ok(value) or (info.context or {}).get("lenient"):
            return value
        got = _show(value)
        raise PydanticCustomError("range", "{message}", {"message": f"{text}, got {got}"})
    return AfterValidator(check)


def _show(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return repr(value)


def _one_of(options):
    return _rule("must be one of " + ", ".join(options), lambda v: v in options)


Num = Annotated[float, Strict()]  # a JSON number: int or float, never a string or bool
Int = Annotated[int, Strict()]
Str = Annotated[str, Strict()]
Frame = Annotated[Int, Field(ge=-MAX_FRAME, le=MAX_FRAME)]
Positive = Annotated[Num, _rule("must be > 0", lambda v: v > 0)]
NonNegative = Annotated[Num, _rule("must be >= 0", lambda v: v >= 0)]
Vec2 = Annotated[list[Num], Field(min_length=2, max_length=2)]
Handle1 = Annotated[list[Num], Field(min_length=2, max_length=2)]
Handle2 = Annotated[list[Num], Field(min_length=3, max_length=3)]
Interp = Literal[INTERPOLATIONS]  # a literal matches strings only: no coercion
Softness = Annotated[Num, _rule("must be between 0 and 0.5", lambda v: 0 <= v <= 0.5)]
Mix = Annotated[Num, _rule("must be between 0 and 1", lambda v: 0 <= v <= 1)]
Bend = Annotated[Num, _rule("must be +1 or -1", lambda v: v in (1, -1))]


Limit = Annotated[list[Num], Field(min_length=2, max_length=2),
                  _rule("must be [min, max] with min <= max (degrees)", lambda v: v[0] <= v[1])]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


# ---- animated values: a default and keys; 1-D values are numbers, 2-D are [x, y]
def _key(name: str, value, handle):
    """A key: frame and value required; interp and handles optional (see convert)."""
    fields = {"frame": Required[Frame], "value": Required[value], "interp": NotRequired[Interp],
              "out_handle": NotRequired[Optional[handle]], "in_handle": NotRequired[Optional[handle]]}
    return with_config(ConfigDict(extra="forbid", allow_inf_nan=False))(TypedDict(name, fields))


Key1 = _key("Key1", Num, Handle1)
Key2 = _key("Key2", Vec2, Handle2)


class Channel1(_Model):
    default: Num
    keys: list[Key1] = []


class Channel2(_Model):
    default: Vec2
    keys: list[Key2] = []


class SoftnessChannel(Channel1):
    default: Softness
    keys: list[_key("SoftnessKey", Softness, Handle1)] = []


class MixChannel(Channel1):
    default: Mix
    keys: list[_key("MixKey", Mix, Handle1)] = []


class BendChannel(Channel1):
    """A stepped track: its keys' interp defaults to "constant"."""

    default: Bend
    keys: list[_key("BendKey", Bend, Handle1)] = []


class StepKey(_Model):
    frame: Frame
    value: Str


class StepChannel(_Model):
    default: Str
    keys: list[StepKey] = []


# ---- the project
