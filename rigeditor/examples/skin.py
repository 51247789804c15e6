"""The arm bending at the elbow, drawn two ways, for the seam before/after:

- ``rigid_arm``: two rigid layers, a sleeve on the upper arm and a forearm on the
  forearm, whose round ends overlap at the elbow (cracks open as the elbow bends);
- ``skinned_arm``: the same picture as ONE image, meshed from its alpha and weighted to
  both bones with bounded biharmonic weights (the elbow bends without a crack).

Both bend the elbow by FK from straight to ``MAX_BEND`` and back, with the upper arm
turning a little. The pictures are painted by ``rigeditor.examples.skin_files``.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rigeditor.model.data.attachments import Art, ImageAttachment, Slot
from rigeditor.edits.mesh_ops import mesh_from_image
from rigeditor.model.data.project import CHARACTER, Bone, Project, Space, Timeline
from rigeditor.model.data.timeline import StepChannel, keyed

SKIN_DIR = "skin_art"
UPPER, FORE = 150.0, 125.0
SIZES = {"upper_arm": (176, 46), "forearm": (146, 38), "arm": (300, 46)}
"""Image sizes in pixels (width, height); "arm" is both layers in one picture."""
ARM_X = 137.0
"""The one-picture arm's centre on the upper arm (its left edge at -13, like the sleeve's)."""
MAX_BEND = 90.0
"""Degrees: the elbow's largest bend (at frame 24)."""
BLEND_WIDTH = 96.0
"""Model units: the elbow's transition width for the skinned arm's weights."""
DECIMALS = 9
"""The generated mesh numbers (vertices and UVs, weights) are kept to 1e-9 (pixels,
fractions of the picture, of a vertex's weight): a sparse solve on another CPU or BLAS
differs in the last bits (1e-15) and must not change the committed file, while a real
change of the outline or the weights moves them by far more."""


def _rig(name: str, art: Art) -> Project:
    bend = keyed([(0, (0.0,)), (24, (math.radians(MAX_BEND),)), (48, (0.0,))], "bezier")
    lift = keyed([(0, (0.0,)), (24, (math.radians(20.0),)), (48, (0.0,))], "bezier")
    return Project(
        name=name, timeline=Timeline(fps=24.0, start=0, end=48), spaces=(Space(CHARACTER),),
        bones=(Bone("upper_arm", None, UPPER, rotation=lift),
               Bone("forearm", "upper_arm", FORE, rest_offset=(UPPER, 0.0), rotation=bend)),
        art=art)


def rigid_arm() -> Project:
    """Two rigid layers meeting at the elbow."""
    def image(name, x):
        w, h = SIZES[name]
        return ImageAttachment(name, f"{SKIN_DIR}/{name}.png", float(w), float(h), x=x)

    slots = (Slot("forearm", "forearm", (image("forearm", 60.0),), StepChannel("forearm")),
             Slot("upper_arm", "upper_arm", (image("upper_arm", 75.0),), StepChannel("upper_arm")))
    return _rig("rigid_arm", Art(slots))


def skinned_arm(alpha) -> Project:
    """One picture of the arm on the upper arm, meshed from ``alpha`` ((46, 300), the
    picture's opacity) and skinned to both bones."""
    w, h = SIZES["arm"]
    slot = Slot("arm", "upper_arm", (ImageAttachment("arm", f"{SKIN_DIR}/arm.png", float(w), float(h), x=ARM_X),),
                StepChannel("arm"))
    project = _rig("skinned_arm", Art((slot,)))
    project = mesh_from_image(project, "arm", "arm", alpha, bones=("upper_arm", "forearm"), detail=1.5,
                              spacing=16.0, joint_spacing=6.0, blend_width=BLEND_WIDTH)
    mesh = project.art.slot("arm").find("arm")
    # + 0.0: a value that rounds to zero is written 0.0, never -0.0.
    rounded = replace(mesh, **{k: np.round(getattr(mesh, k), DECIMALS) + 0.0 for k in ("vertices", "uvs", "weights")})
    return replace(project, art=project.art.with_slot("arm", attachments=(rounded,)))


__all__ = ["rigid_arm", "skinned_arm", "SKIN_DIR", "SIZES", "MAX_BEND", "BLEND_WIDTH"]
