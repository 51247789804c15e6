"""A slot's colour and blend mode in the project file (optional: a slot without them
is white, without dark colour, normal blending). docs/file-format.md describes it.

``color`` holds one channel per component (the same layout as every 1-D channel: a
default and keys), light ``red green blue alpha`` and dark ``dark_red dark_green
dark_blue``, and ``dark`` (two-colour tint on). Defaults lie in [0, 1]; key values are
any finite number (a curve imported as the runtime plays it may overshoot a little),
the evaluated colour being clamped to [0, 1].
"""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from rigeditor.io.schema.project import Channel1, Num, _Model, _one_of, _rule
from rigeditor.model.data.slot_color import BLENDS, DEFAULTS

Unit = Annotated[Num, _rule("must be between 0 and 1", lambda v: 0 <= v <= 1)]
Blend = Annotated[str, _one_of(BLENDS)]


class ColorChannel(Channel1):
    default: Unit


def _channel(name: str):
    return Field(default_factory=lambda: ColorChannel(default=DEFAULTS[name]))


class SlotColor(_Model):
    red: ColorChannel = _channel("red")
    green: ColorChannel = _channel("green")
    blue: ColorChannel = _channel("blue")
    alpha: ColorChannel = _channel("alpha")
    dark: bool = False
    dark_red: ColorChannel = _channel("dark_red")
    dark_green: ColorChannel = _channel("dark_green")
    dark_blue: ColorChannel = _channel("dark_blue")
