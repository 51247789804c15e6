"""Artwork on the rig: image attachments, slots and draw order (pure data, no Qt, no files).

Units: model units for lengths and positions (y-up). One image pixel is one model
unit at scale 1. Angles are radians inside the model (degrees in the file).

- An :class:`ImageAttachment` is a picture (a PNG whose path is relative to the project
  file) placed in its slot's bone frame: ``T(x, y) . R(rotation) . S(scale) . T(-pivot)``
  applied to the image's own frame (origin at the image's centre, +x right, +y up).
  The image's ``width`` and ``height`` (pixels) are kept in the project, so a missing
  file still has a place and a size (the editor draws a placeholder there).
- A :class:`Slot` is one layer carried by a bone (or by the character space when
  ``bone`` is None: a layer imported but not bound yet). It holds its attachments and
  a stepped track of which one shows (``""`` = none): hand open / hand closed.
- :class:`Art` is all slots in setup draw order (first = drawn first, at the back)
  and a stepped draw-order track whose keys are whole orders.

An attachment has a ``kind`` so other kinds (meshes: vertices, triangles, UVs,
weights) can sit beside images in a slot later. Tracks live on the slot and on Art
like the bones' tracks live on the bones, so moving all tracks into clips (several
animations) moves these with them.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.data.timeline import Channel, StepChannel

NONE = ""
"""The attachment name that shows nothing."""


@dataclass(frozen=True)
class ImageAttachment:
    """A picture in its slot's bone frame.

    path: the PNG, relative to the project file's folder ("/" separators).
    width, height: image size in pixels (> 0). x, y: where the pivot sits in the bone
    frame (model units). rotation: radians. scale: (sx, sy), non-zero (negative mirrors).
    pivot: the point of the image the offset, rotation and scale act about, relative to
    the image's centre (pixels, y-up); (0, 0) = the centre. tint: RGBA multipliers in
    [0, 1]. opacity: [0, 1], multiplies the tint's alpha.
    """

    name: str
    path: str
    width: float
    height: float
    x: float = 0.0
    y: float = 0.0
    rotation: float = 0.0
    scale: tuple[float, float] = (1.0, 1.0)
    pivot: tuple[float, float] = (0.0, 0.0)
    tint: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)
    opacity: float = 1.0
    kind: str = "image"
    skin: str = ""  # the skin it belongs to ("": the default skin; see model.data.skins)
    sequence: object = None  # a model.data.sequences.Sequence: frame-by-frame pictures

    def local(self) -> Affine:
        """The image frame (origin at its centre) in the bone frame, as one affine."""
        placed = Affine.trs(self.x, self.y, self.rotation, self.scale[0], self.scale[1])
        return placed.compose(Affine.trs(-self.pivot[0], -self.pivot[1]))

    def corners(self) -> np.ndarray:
        """(4, 2) corners in the image frame: bottom-left, top-left, top-right,
        bottom-right (the order Spine's runtimes give a region's world vertices)."""
        w, h = 0.5 * self.width, 0.5 * self.height
        return np.array([[-w, -h], [-w, h], [w, h], [w, -h]])

    def centre(self) -> tuple[float, float]:
        """Where the image's centre sits in the bone frame (Spine's region x, y)."""
        m = self.local()
        return float(m.tx), float(m.ty)


@dataclass(frozen=True)
class Slot:
    """One layer on a bone. bone: None = rides the character space (not bound yet).
    attachment: stepped track of the attachment name shown ("" = none). sequence:
    stepped track of sequence keys (``model.data.sequences``; "" = the setup frame)."""

    name: str
    bone: str | None
    attachments: tuple[ImageAttachment, ...] = ()
    attachment: StepChannel = field(default_factory=lambda: StepChannel(NONE))
    sequence: StepChannel = field(default_factory=lambda: StepChannel(NONE))  # model.data.sequences
    # Colour (model.data.slot_color): light RGBA and dark RGB, one channel a component;
    # dark: two-colour tint on; blend: normal, additive, multiply or screen.
    red: Channel = field(default_factory=lambda: Channel((1.0,)))
    green: Channel = field(default_factory=lambda: Channel((1.0,)))
    blue: Channel = field(default_factory=lambda: Channel((1.0,)))
    alpha: Channel = field(default_factory=lambda: Channel((1.0,)))
    dark_red: Channel = field(default_factory=lambda: Channel((0.0,)))
    dark_green: Channel = field(default_factory=lambda: Channel((0.0,)))
    dark_blue: Channel = field(default_factory=lambda: Channel((0.0,)))
    dark: bool = False
    blend: str = "normal"
    paths: tuple = ()  # path attachments the track may show (model.data.path_attachment)

    def find(self, name: str, skin: str = "") -> ImageAttachment:
        """The attachment ``name`` of skin ``skin`` (default: the default skin's, else
        the first of that name)."""
        named = [a for a in self.attachments if a.name == name]
        for a in named:
            if a.skin == skin:
                return a
        if named and not skin:
            return named[0]
        raise KeyError(f"slot {self.name!r} has no attachment named {name!r}")

    def with_attachment(self, name: str, /, skin: str = "", **changes) -> "Slot":
        target = self.find(name, skin)
        return replace(self, attachments=tuple(replace(a, **changes) if a is target else a
                                               for a in self.attachments))


@dataclass(frozen=True)
class DrawOrderKey:
    """From ``frame`` on, the slots draw in ``order`` (all slot names, back to front)."""

    frame: float
    order: tuple[str, ...]


@dataclass(frozen=True)
class Art:
    """slots: setup draw order, back to front. draw_order: stepped keys of whole orders.
    skins: the skins other than the default one, in order; active_skins: the ones
    shown, combined in order over the default skin (``model.data.skins``).
    skin_bones: (skin, bones) pairs: the bones only that skin brings (Spine's skin
    bones); a slot on one shows nothing unless an active skin brings it or a bone below
    it (``skins.inactive_bones``). skin_constraints: (skin, items) pairs: the constraints
    only that skin brings, as "chain:NAME", "transform:NAME", "path:NAME" or
    "physics:NAME"; they act only while an active skin lists them (``skin_applied``).
    deforms: the open animation's deform keys per mesh (``model.data.deform``)."""

    slots: tuple[Slot, ...] = ()
    draw_order: tuple[DrawOrderKey, ...] = ()
    skins: tuple[str, ...] = ()
    active_skins: tuple[str, ...] = ()
    deforms: tuple = ()
    skin_bones: tuple[tuple[str, tuple[str, ...]], ...] = ()
    skin_constraints: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def slot(self, name: str) -> Slot:
        for s in self.slots:
            if s.name == name:
                return s
        raise KeyError(f"no slot named {name!r}")

    def with_slot(self, name: str, /, **changes) -> "Art":
        self.slot(name)
        return replace(self, slots=tuple(replace(s, **changes) if s.name == name else s for s in self.slots))

    def with_draw_order_key(self, frame: float, order) -> "Art":
        keys = {k.frame: k for k in self.draw_order}
        keys[frame] = DrawOrderKey(frame, tuple(order))
        return replace(self, draw_order=tuple(keys[f] for f in sorted(keys)))

    def order_codes(self, frames) -> np.ndarray:
        """(N, S) slot indices back to front per frame (the setup order before the first key)."""
        frames = np.asarray(frames, dtype=float)
        names = [s.name for s in self.slots]
        orders = np.array([list(range(len(names)))] + [[names.index(n) for n in k.order]
                                                       for k in self.draw_order], dtype=int)
        orders = orders.reshape(len(self.draw_order) + 1, len(names))
        key_frames = np.array([k.frame for k in self.draw_order], dtype=float)
        row = np.searchsorted(key_frames, frames, side="right")  # 0 = setup order
        return orders[row]


__all__ = ["NONE", "ImageAttachment", "Slot", "DrawOrderKey", "Art"]
