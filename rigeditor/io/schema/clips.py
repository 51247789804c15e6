"""The animations part of the project file (schema_version 4).

``animation`` names the animation open in the editor: its keys are the ``keys`` of
the items' channels (as in earlier versions). ``animations`` lists every animation
in order, each with its inclusive frame range and, for the others, the keys of
their tracks per item and attribute (the same key layout as the items' channels,
angles in degrees). The open animation's entry has no tracks and its range is the
timeline's. docs/file-format.md describes every field.
"""
from __future__ import annotations

from typing import Optional

from pydantic import Field, model_validator

from rigeditor.io.schema.duration import check_exact_end
from rigeditor.io.schema.project import (
    BendChannel, Channel1, Channel2, FlagChannel, Frame, KeyTime, MixChannel, SoftnessChannel, StepKey, Str, _Model,
)
from rigeditor.io.schema.art import DrawOrderKey
from rigeditor.io.schema.deform import DeformTrack
from rigeditor.io.schema.events import EventKey

_Keys1 = Channel1.model_fields["keys"].annotation
_Keys2 = Channel2.model_fields["keys"].annotation
_BendKeys = BendChannel.model_fields["keys"].annotation
_SoftnessKeys = SoftnessChannel.model_fields["keys"].annotation
_MixKeys = MixChannel.model_fields["keys"].annotation
_FlagKeys = FlagChannel.model_fields["keys"].annotation


class BoneTracks(_Model):
    rotation: _Keys1 = []
    translate: _Keys2 = []
    scale: _Keys2 = []
    shear: _Keys2 = []
    inherit: list[StepKey] = []


class TargetTracks(_Model):
    space: list[StepKey] = []
    position: _Keys2 = []


class ChainTracks(_Model):
    bend: _BendKeys = []
    softness: _SoftnessKeys = []
    mix: _MixKeys = []
    spine_stretch: _FlagKeys = []  # optional: Spine's keyed IK flags
    spine_compress: _FlagKeys = []


class TransformTracks(_Model):
    mix_rotate: _Keys1 = []
    mix_x: _Keys1 = []
    mix_y: _Keys1 = []
    mix_scale_x: _Keys1 = []
    mix_scale_y: _Keys1 = []
    mix_shear_y: _Keys1 = []


class PathTracks(_Model):
    position: _Keys1 = []
    spacing: _Keys1 = []
    mix_rotate: _Keys1 = []
    mix_x: _Keys1 = []
    mix_y: _Keys1 = []


class PhysicsTracks(_Model):  # model.data.physics.TRACKS
    inertia: _Keys1 = []
    strength: _Keys1 = []
    damping: _Keys1 = []
    mass: _Keys1 = []
    wind: _Keys1 = []
    gravity: _Keys1 = []
    mix: _Keys1 = []
    reset: _Keys1 = []


class SpaceTracks(_Model):
    position: _Keys2 = []
    rotation: _Keys1 = []
    scale: _Keys2 = []
    shear: _Keys2 = []  # degrees; optional


class SlotTracks(_Model):
    attachment: list[StepKey] = []
    red: _Keys1 = []  # the slot's colour channels (schema_slot_color)
    green: _Keys1 = []
    blue: _Keys1 = []
    alpha: _Keys1 = []
    dark_red: _Keys1 = []
    dark_green: _Keys1 = []
    dark_blue: _Keys1 = []
    sequence: list[StepKey] = []  # sequence keys (io.schema.sequences)


class Tracks(_Model):
    bones: dict[Str, BoneTracks] = {}
    targets: dict[Str, TargetTracks] = {}
    chains: dict[Str, ChainTracks] = {}
    transforms: dict[Str, TransformTracks] = {}  # schema 6 on
    paths: dict[Str, PathTracks] = {}  # path constraints, optional
    physics: dict[Str, PhysicsTracks] = {}  # optional (physics constraints)
    spaces: dict[Str, SpaceTracks] = {}
    slots: dict[Str, SlotTracks] = {}
    draw_order: list[DrawOrderKey] = []
    deforms: list[DeformTrack] = []  # optional, as the document's
    events: list[EventKey] = []  # schema events


class Animation(_Model):
    name: Str
    start: Frame
    end: Frame
    tracks: Tracks = Field(default_factory=Tracks)
    exact_end: Optional[KeyTime] = None  # optional: a last key between frames (io.schema.duration)
    _exact_end = model_validator(mode="after")(check_exact_end)
