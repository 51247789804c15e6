"""The project file's current layout (schema_version 6) as pydantic models.

Types and ranges are checked here, field by field, so each problem has a location;
what needs the whole project (names, references, trees) is checked afterwards by
``rigeditor.model.validation.project.problems``. Units as written in the file: lengths and
positions in model units (y-up), angles in degrees, time in frames.
docs/file-format.md describes every field.

A range check raises a "range" error; validating again with ``context={"lenient":
True}`` lets ranges through, so a file whose only faults are ranges still gets its
semantic checks (and the user sees every problem at once). Keys are TypedDicts with
native constraints (a file may hold 100,000 of them: no model instance, no Python
validator per key); their defaults are applied by the conversion.
"""
from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict, ValidationInfo, model_validator, with_config
from pydantic_core import PydanticCustomError
from typing_extensions import NotRequired, Required, TypedDict

from rigeditor.core.filters import KINDS as SMOOTHING_KINDS
from rigeditor.core.limits import LIMIT_STRATEGIES
from rigeditor.io.schema.duration import check_exact_end
from rigeditor.model.data.project import MAX_SOFTNESS, SOFT_REACH, SOLVERS, SPINE_SCALE, WORLD
from rigeditor.model.data.timeline import INTERPOLATIONS

FORMAT = "rigeditor-project"
SCHEMA_VERSION = 8
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
KeyTime = Annotated[Num, Field(ge=-MAX_FRAME, le=MAX_FRAME)]
"""A key's frame: any number (a key may lie between frames, schema 5 on)."""


def frame_number(frame: float) -> int | float:
    """A key's frame as written: an integer on a whole frame (as every file before schema
    5 has it), else the float."""
    f = float(frame)
    return int(f) if f.is_integer() else f
Positive = Annotated[Num, _rule("must be > 0", lambda v: v > 0)]
NonNegative = Annotated[Num, _rule("must be >= 0", lambda v: v >= 0)]
Vec2 = Annotated[list[Num], Field(min_length=2, max_length=2)]
Handle1 = Annotated[list[Num], Field(min_length=2, max_length=2)]
Handle2 = Annotated[list[Num], Field(min_length=3, max_length=3)]
Interp = Literal[INTERPOLATIONS]  # a literal matches strings only: no coercion
# Spine's quadratic softness may exceed the chain (in units, any size); RigEditor's own
# exponential one stops at half of it (checked with the chain: validation.project).
Softness = Annotated[Num, _rule(f"must be between 0 and {MAX_SOFTNESS:g}", lambda v: 0 <= v <= MAX_SOFTNESS)]
Mix = Annotated[Num, _rule("must be between 0 and 1", lambda v: 0 <= v <= 1)]
Bend = Annotated[Num, _rule("must be +1 or -1", lambda v: v in (1, -1))]
Flag = Annotated[Num, _rule("must be 1 (on) or 0 (off)", lambda v: v in (0, 1))]


Limit = Annotated[list[Num], Field(min_length=2, max_length=2),
                  _rule("must be [min, max] with min <= max (degrees)", lambda v: v[0] <= v[1])]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


# ---- animated values: a default and keys; 1-D values are numbers, 2-D are [x, y]
def _key(name: str, value, handle):
    """A key: frame and value required; interp and handles optional (see convert)."""
    fields = {"frame": Required[KeyTime], "value": Required[value], "interp": NotRequired[Interp],
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


class FlagChannel(Channel1):
    """A stepped on/off track (Spine's keyed IK flags): keys' interp defaults to "constant"."""

    default: Flag = 0.0
    keys: list[_key("FlagKey", Flag, Handle1)] = []


class StepKey(_Model):
    frame: KeyTime
    value: Str


class StepChannel(_Model):
    default: Str
    keys: list[StepKey] = []


# ---- the project
class Timeline(_Model):
    fps: Positive
    start: Frame
    end: Frame
    exact_end: Optional[KeyTime] = None  # optional: a last key between frames (io.schema.duration)
    _exact_end = model_validator(mode="after")(check_exact_end)


class Space(_Model):
    name: Str
    parent: Str = WORLD
    position: Channel2 = Field(default_factory=lambda: Channel2(default=[0.0, 0.0]))
    rotation: Channel1 = Field(default_factory=lambda: Channel1(default=0.0))
    scale: Channel2 = Field(default_factory=lambda: Channel2(default=[1.0, 1.0]))
    shear: Channel2 = Field(default_factory=lambda: Channel2(default=[0.0, 0.0]))  # degrees; optional


class Bone(_Model):
    name: Str
    parent: Optional[Str]
    length: Positive
    rest_offset: Vec2 = [0.0, 0.0]
    rest_rotation: Num = 0.0
    rotation: Channel1 = Field(default_factory=lambda: Channel1(default=0.0))
    translate: Channel2 = Field(default_factory=lambda: Channel2(default=[0.0, 0.0]))
    scale: Channel2 = Field(default_factory=lambda: Channel2(default=[1.0, 1.0]))
    shear: Channel2 = Field(default_factory=lambda: Channel2(default=[0.0, 0.0]))
    inherit: StepChannel = Field(default_factory=lambda: StepChannel(default="normal"))


class Target(_Model):
    name: Str
    space: StepChannel
    position: Channel2


class Strategy(_Model):
    kind: Annotated[Str, _one_of(LIMIT_STRATEGIES)] = "accept"
    max_stretch: Annotated[Num, _rule("must be between 0 and 0.5", lambda v: 0 <= v <= 0.5)] = 0.10
    max_root_offset: NonNegative = 0.0
    root_time_constant: NonNegative = 2.0


class Smoothing(_Model):
    kind: Annotated[Str, _one_of(SMOOTHING_KINDS)] = "none"
    time_constant_s: Positive = 0.05
    min_cutoff_hz: Positive = 1.0
    beta: NonNegative = 0.0
    d_cutoff_hz: Positive = 1.0


class Chain(_Model):
    name: Str
    bones: list[Str]
    target: Str
    solver: Annotated[Str, _one_of(SOLVERS)] = "analytic"
    bend: BendChannel = Field(default_factory=lambda: BendChannel(default=1.0))
    softness: SoftnessChannel = Field(default_factory=lambda: SoftnessChannel(default=0.0))
    mix: MixChannel = Field(default_factory=lambda: MixChannel(default=1.0))
    limits: list[Optional[Limit]] = []
    strategy: Strategy = Field(default_factory=Strategy)
    smoothing: Smoothing = Field(default_factory=Smoothing)
    tolerance: Positive = 1e-3
    max_iterations: Annotated[Int, _rule("must be >= 1", lambda v: v >= 1)] = 64
    soft_reach: Annotated[Str, _one_of(SOFT_REACH)] = "exponential"
    order: Int = 0  # schema 6 on
    spine_scale: list[Annotated[Str, _one_of(SPINE_SCALE)]] = []
    spine_stretch: FlagChannel = Field(default_factory=FlagChannel)  # optional: Spine's keyed flags
    spine_compress: FlagChannel = Field(default_factory=FlagChannel)
