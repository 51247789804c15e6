"""Transform constraints in the Spine export: the ``transform`` array and, for keyed
mixes, a ``transform`` timeline with a key per baked frame (the mixes as evaluated,
straight between frames). They run after the IK constraints, in their order, as
RigEditor evaluates them; a constrained bone's timelines are its own channels, so
Spine applies the constraint itself."""
from __future__ import annotations

import math

from rigeditor.io.spine.read_transform import SPINE_MIXES
from rigeditor.model.data.constraints import MIXES


def transform_sections(project, bake, times, first_order: int, bone_names) -> tuple[list, dict]:
    """(the ``transform`` array, {constraint: keys}) for ``project``'s constraints whose
    bones and target are exported bones (``bone_names``)."""
    out, keys = [], {}
    for t in sorted(project.transforms, key=lambda t: t.order):
        if t.target not in bone_names or not all(b in bone_names for b in t.bones):
            continue
        entry = {"name": t.name, "order": first_order + len(out), "bones": list(t.bones), "target": t.target}
        if t.local:
            entry["local"] = True
        if t.relative:
            entry["relative"] = True
        for spine, value in (("rotation", math.degrees(t.offset_rotation)), ("x", t.offset_x), ("y", t.offset_y),
                             ("scaleX", t.offset_scale_x), ("scaleY", t.offset_scale_y),
                             ("shearY", math.degrees(t.offset_shear_y))):
            if value:
                entry[spine] = round(float(value), 9)
        for ours, spine in zip(MIXES, SPINE_MIXES):
            entry[spine] = round(float(getattr(t, ours).default[0]), 9)
        out.append(entry)
        if any(getattr(t, m).keys for m in MIXES):
            sampled = [getattr(t, m).sample(bake.frames)[:, 0] for m in MIXES]
            keys[t.name] = [{"time": time, **{s: round(float(v[i]), 9) for s, v in zip(SPINE_MIXES, sampled)}}
                            for i, time in enumerate(times)]
    return out, keys
