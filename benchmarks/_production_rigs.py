"""Case (c) of the production benchmark: a two-bone arm chain (and a hand) whose one
picture, the example arm (``core.mesh.shapes.ExampleArm``, 340 x 200 px), is meshed at
about 1.3 px into ~20,000 triangles skinned with automatic weights to the three bones.
Model units are the picture's pixels; the arm's target circles slowly inside reach
over 1,000 frames."""
from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np

from rigeditor.model import WORLD, Bone, Chain, Project, StepChannel, Target, Timeline, keyed
from rigeditor.model import CHARACTER, Space

ART = "arm_art/arm.png"
SPACING_PX = 1.3
"""Interior edge length of the mesh, pixels: about 20,000 triangles on the example arm."""


def arm_picture(alpha) -> np.ndarray:
    """(H, W, 4) uint8 RGBA: the arm's opacity ``alpha`` (H, W) in [0, 1] over a skin
    tone shaded across the picture, so a misplaced triangle shows."""
    h, w = alpha.shape
    x = np.linspace(0.0, 1.0, w)[None, :]
    y = np.linspace(0.0, 1.0, h)[:, None]
    rgb = np.stack([np.broadcast_to(200 + 40 * x, (h, w)), 140 + 60 * y * np.ones_like(x),
                    np.broadcast_to(110 + 50 * (1 - x), (h, w))], axis=-1)
    a = np.clip(alpha, 0.0, 1.0)
    return np.concatenate([rgb * a[..., None], 255 * a[..., None]], axis=-1).round().astype(np.uint8)


def _arm_rig(frames, key_every) -> Project:
    """Upper arm, forearm, hand laid on the picture's bones (pixels, y down -> model y up);
    the upper arm and forearm an analytic chain to ``hand_ik``."""
    from rigeditor.core.mesh.shapes import ExampleArm

    (s, e), (_, wr), (_, tip) = (np.array(b) * [1.0, -1.0] for b in ExampleArm.bones)
    lengths = [float(np.hypot(*(b - a))) for a, b in ((s, e), (e, wr), (wr, tip))]
    angles = [math.atan2(*(b - a)[::-1]) for a, b in ((s, e), (e, wr), (wr, tip))]
    bones = (Bone("upper", None, lengths[0], rest_rotation=angles[0]),
             Bone("fore", "upper", lengths[1], rest_offset=(lengths[0], 0.0), rest_rotation=angles[1] - angles[0]),
             Bone("hand", "fore", lengths[2], rest_offset=(lengths[1], 0.0), rest_rotation=angles[2] - angles[1]))
    reach = lengths[0] + lengths[1]
    path = []
    for f in range(0, frames, key_every):
        t = 2 * math.pi * f / 400.0
        path.append((f, (0.6 * reach + 0.2 * reach * math.cos(t), 0.25 * reach + 0.2 * reach * math.sin(t))))
    chain = Chain("arm", ("upper", "fore"), "hand_ik", solver="analytic")
    return Project(name="arm20k", timeline=Timeline(30.0, 0, frames - 1), spaces=(Space(CHARACTER),),
                   bones=bones, targets=(Target("hand_ik", StepChannel(WORLD), keyed(path, "bezier")),),
                   chains=(chain,))


def skinned_arm(folder: Path, frames=1000, key_every=40, spacing=SPACING_PX) -> tuple[Path, int]:
    """Write the arm's PNG and project into ``folder``; (the project file, its triangle
    count). The picture sits on the upper arm with the shoulder at the bone's origin."""
    from PIL import Image

    from rigeditor.core.mesh.shapes import ExampleArm
    from rigeditor.edits.mesh_ops import mesh_from_image
    from rigeditor.io import save_project
    from rigeditor.model.data.attachments import Art, ImageAttachment, Slot

    alpha = ExampleArm.alpha()
    h, w = alpha.shape
    png = Path(folder) / ART
    png.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(arm_picture(alpha), "RGBA").save(png)
    sx, sy = ExampleArm.shoulder
    # The image frame has its origin at the picture's centre, y up; the shoulder at the bone's origin.
    image = ImageAttachment("arm", ART, float(w), float(h), x=w / 2 - sx, y=sy - h / 2)
    project = replace(_arm_rig(frames, key_every), art=Art((Slot("arm", "upper", (image,), StepChannel("arm")),)))
    project = mesh_from_image(project, "arm", "arm", alpha, bones=("upper", "fore", "hand"), detail=0.5,
                              spacing=spacing, joint_spacing=spacing)
    out = Path(folder) / "arm20k.rigproj"
    save_project(project, out)
    return out, len(project.art.slot("arm").find("arm").triangles)
