"""Path constraints and path attachments in the Spine export: the ``path`` array, each
slot's path attachments in their skins, and, for keyed values, ``path`` timelines with
a key per baked frame (position, spacing and the mixes as evaluated, straight between
frames). A constrained bone's timelines are its own channels, so Spine applies the
constraint itself, in the order RigEditor runs it."""
from __future__ import annotations

import math

_MIXES = (("mix_rotate", "mixRotate"), ("mix_x", "mixX"), ("mix_y", "mixY"))


def _r(x: float) -> float:
    return round(float(x), 9)


def bone_length(project, bone) -> float:
    """A bone's Spine length: a bone a path constraint drives that it measures as a
    point (``constraints.path.setup_length``) is written as Spine's point, 0."""
    from rigeditor.model.evaluation.constraints.path import setup_length

    if any(bone.name in c.bones for c in project.paths):
        return setup_length(bone)
    return bone.length


def path_attachment_map(p, bone_index: dict, root_index: int = 0) -> dict:
    """Spine's map of path attachment ``p``; bone_index: {bone: Spine bone index}
    (None, the character space: the root's ``root_index``)."""
    out = {"type": "path", "closed": bool(p.closed), "constantSpeed": bool(p.constant_speed),
           "vertexCount": p.vertex_count, "lengths": [_r(v) for v in p.lengths]}
    if p.weighted:
        flat = []
        for row in p.influences:
            flat.append(len(row))
            for b, x, y, w in row:
                bone = p.bones[b]
                flat += [root_index if bone is None else bone_index[bone], _r(x), _r(y), _r(w)]
        out["vertices"] = flat
    else:
        out["vertices"] = [_r(v) for xy in p.vertices for v in xy]
    return out


def path_sections(project, bake, times, bone_names, slot_names) -> tuple[list, dict]:
    """(the ``path`` array, {constraint: timelines}) for ``project``'s path constraints
    whose bones are exported bones and whose slot is exported; orders as RigEditor's
    (`write_order.renumber` makes them Spine's)."""
    out, keys = [], {}
    for c in sorted(project.paths, key=lambda c: c.order):
        if c.target not in slot_names or not all(b in bone_names for b in c.bones):
            continue
        entry = {"name": c.name, "order": c.order, "bones": list(c.bones), "target": c.target,
                 "positionMode": c.position_mode, "spacingMode": c.spacing_mode, "rotateMode": c.rotate_mode}
        if c.offset_rotation:
            entry["rotation"] = _r(math.degrees(c.offset_rotation))
        for ours in ("position", "spacing"):
            entry[ours] = _r(getattr(c, ours).default[0])
        for ours, spine in _MIXES:
            entry[spine] = _r(getattr(c, ours).default[0])
        out.append(entry)
        timelines = {}
        for ours in ("position", "spacing"):
            if getattr(c, ours).keys:
                v = getattr(c, ours).sample(bake.frames)[:, 0]
                timelines[ours] = [{"time": t, "value": _r(v[i])} for i, t in enumerate(times)]
        if any(getattr(c, ours).keys for ours, _ in _MIXES):
            v = [getattr(c, ours).sample(bake.frames)[:, 0] for ours, _ in _MIXES]
            timelines["mix"] = [{"time": t, **{s: _r(m[i]) for (_, s), m in zip(_MIXES, v)}}
                                for i, t in enumerate(times)]
        if timelines:
            keys[c.name] = timelines
    return out, keys


__all__ = ["path_attachment_map", "path_sections"]
