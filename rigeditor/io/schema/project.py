"""The project file's current layout (schema_version 4) as pydantic models.

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

from typing import Annotated, Optional

from pydantic import Field

from rigeditor.core.filters import KINDS as SMOOTHING_KINDS
from rigeditor.core.limits import LIMIT_STRATEGIES
from rigeditor.io.schema.art import DrawOrder, Slot
from rigeditor.io.schema.clips import Animation
from rigeditor.io.schema.fields import (
    BendChannel, Channel1, Channel2, Frame, Int, Limit, MixChannel, NonNegative, Num, Positive, SoftnessChannel, StepChannel, Str, Vec2, _Model, _one_of, _rule,
)
from rigeditor.model.data.project import SOLVERS, WORLD

FORMAT = "rigeditor-project"
SCHEMA_VERSION = 4


class Timeline(_Model):
    fps: Positive
    start: Frame
    end: Frame


class Space(_Model):
    name: Str
    parent: Str = WORLD
    position: Channel2 = Field(default_factory=lambda: Channel2(default=[0.0, 0.0]))
    rotation: Channel1 = Field(default_factory=lambda: Channel1(default=0.0))
    scale: Channel2 = Field(default_factory=lambda: Channel2(default=[1.0, 1.0]))


class Bone(_Model):
    name: Str
    parent: Optional[Str]
    length: Positive
    rest_offset: Vec2 = [0.0, 0.0]
    rest_rotation: Num = 0.0
    rotation: Channel1 = Field(default_factory=lambda: Channel1(default=0.0))
    translate: Channel2 = Field(default_factory=lambda: Channel2(default=[0.0, 0.0]))
    scale: Channel2 = Field(default_factory=lambda: Channel2(default=[1.0, 1.0]))


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


class Document(_Model):
    format: Str
    schema_version: Int
    name: Str
    timeline: Timeline
    spaces: list[Space]
    bones: list[Bone]
    targets: list[Target]
    chains: list[Chain]
    slots: list["Slot"]
    draw_order: "DrawOrder"
    animation: Str
    animations: list["Animation"]



Document.model_rebuild()
