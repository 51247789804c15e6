"""The rest pose's frames: where each bone sits before any animation, in character
space, and the bind frames of a mesh's bones in its slot bone's frame (model units,
radians). Read by the mesh edits, the skin bake and the crack check alike."""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.data.project import Project


def rest_frame(project: Project, bone: str | None) -> Affine:
    """A bone's frame in the rest pose, in character space (None: the character space)."""
    m = Affine.identity()
    while bone is not None:
        b = project.bone(bone)
        m = Affine.rotation_about_origin(b.rest_rotation, *b.rest_offset).compose(m)
        bone = b.parent
    return m


def bind_of(project: Project, slot_bone: str | None, bones) -> np.ndarray:
    """(B, 6) rest frames of ``bones`` in the rest frame of ``slot_bone``."""
    inv = rest_frame(project, slot_bone).inverse()
    return np.array([[float(v) for v in inv.compose(rest_frame(project, b)).fields()] for b in bones]).reshape(-1, 6)


def bone_segments(project: Project, slot_bone: str | None, bones) -> np.ndarray:
    """(B, 2, 2) each bone's origin and tip in the slot bone's rest frame."""
    bind = bind_of(project, slot_bone, bones)
    out = []
    for b, f in zip(bones, bind):
        m = Affine(*f)
        out.append(m.apply(np.array([[0.0, 0.0], [project.bone(b).length, 0.0]])))
    return np.array(out).reshape(-1, 2, 2)
