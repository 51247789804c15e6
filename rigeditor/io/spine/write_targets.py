"""The bones standing for spaces and IK targets in the Spine export.

Spine's IK aims at a bone: each IK target becomes one, under the bone of its declared
space; each space a target is declared in becomes a bone too (``character`` is the root,
``world`` a bone keyed with the character's inverse, a scene space a bone keyed with
its own channels).
"""
from __future__ import annotations

import numpy as np

from rigeditor.io.errors import ExportError
from rigeditor.io.spine import write_ik
from rigeditor.io.spine.write_bone_keys import STILL, channel_timelines, keys2, less_setup, rounded, trs_keys, unique
from rigeditor.io.spine.write_curves import curve_keys
from rigeditor.model.data.project import CHARACTER, WORLD


def place_space_bones(project, bake, root, span, times, taken, bones, timelines) -> tuple[dict, set]:
    """A bone per space an IK target is declared in: {space: bone name}. ``character``
    is the root; ``world`` a bone under the root, keyed per frame with the character's
    inverse when the character moves (so it stays at the world origin), or without keys
    when that inverse shears (then in ``carried``: what is in it is carried into the
    root's frame per frame); a scene space is a bone under its parent's, keyed with the
    space's own channels. Returns ({space: bone name}, carried)."""
    char = bake.spaces[CHARACTER]
    out, carried = {CHARACTER: root, WORLD: root}, set()
    spaces = write_ik.target_spaces(project, [c.target for c in project.chains], bake.frames[0])
    still = all(np.allclose(v, e, rtol=0.0, atol=STILL) for v, e in zip(char.fields(), (1, 0, 0, 1, 0, 0)))
    if write_ik.in_world(project, spaces, bake.frames[0]):
        keys = {}
        try:
            if not still:  # (a still character needs no keys: the bone names the space)
                trs_keys(char.inverse(), bake.frames, times, keys, f"the inverse of the {CHARACTER} space")
        except ExportError:
            # A rotated character with unequal scales has no unsheared inverse: the
            # world bone stays on the root, and what is in world is carried into the
            # root's frame frame by frame (the same bones in every animation).
            keys = {}
            carried.add(WORLD)
        out[WORLD] = name = unique(WORLD, taken)
        bones.append({"name": name, "parent": root})
        timelines[name] = keys
    for space in spaces:
        s = project.space(space)
        followed = write_ik.followed_bone(project, bake, space)
        if followed is not None:  # (an imported Spine target's parent bone: its targets go back under it)
            out[space] = followed
            continue
        out[space] = name = unique(space, taken)
        bones.append({"name": name, "parent": out[s.parent]})
        mine = timelines.setdefault(name, {})
        if s.parent in carried:  # under a world bone that stays on the root: the space per frame
            trs_keys(char.inverse().compose(bake.spaces[space]), bake.frames, times, mine,
                      f"the space {space} in the {CHARACTER} space{write_ik.aimed_in(project, space, bake.frames[0])}")
            continue
        channel_timelines(s, span, bake, times, mine, bones[-1])
    return out, carried


def place_target_bone(project, bake, target, span, times, taken, space_bone, carried, bones, timelines) -> str:
    """The bone a target's chains aim at: named like the target (the import maps it
    back to that target) unless a bone has that name, under the bone of its declared
    space, keyed with the target's own keys. A target that switches spaces stays under
    the bone of its first space, keyed per frame with its position carried into that
    space (continuous wherever the evaluation is: the switch itself does not pop)."""
    t = project.target(target)
    name = unique(target if target not in taken else f"{target}_target", taken)
    first = t.space.value_at(bake.frames[0])
    entry = {"name": name, "parent": space_bone[first]}
    bones.append(entry)
    mine = timelines.setdefault(name, {})
    if write_ik.switches(project, target) or span is None or first in carried:
        frame = bake.spaces[CHARACTER if first in carried else first]
        local = frame.inverse().apply(declared_world(project, bake, target))
        if np.abs(local).max() > STILL:
            mine["translate"] = keys2(times, local)
    elif t.position.keys:
        # The still value is the bone's setup, the keys offsets from it (Spine's
        # translate keys are: the import reads a target bone's so)
        if any(t.position.default):
            entry["x"], entry["y"] = rounded(t.position.default)
        mine["translate"] = curve_keys(less_setup(t.position, t.position.default), *span, bake.fps, ("x", "y"), 1.0, 1e-5)
    else:  # a still target is the bone's setup position
        entry["x"], entry["y"] = rounded(t.position.default)
    return name


def declared_world(project, bake, target) -> np.ndarray:
    """(N, 2) the target's keyed position carried into world, frame by frame (no
    smoothing: a smoothed chain is baked where smoothing shows)."""
    from rigeditor.model.evaluation.spaces import space_at

    t = project.target(target)
    return space_at(bake.spaces, t.space.values(), t.space.sample(bake.frames)).apply(t.position.sample(bake.frames))
