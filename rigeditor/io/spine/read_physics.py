"""Spine 4.2 physics constraints -> RigEditor's (``model.data.physics``): the setup
(the skeleton's ``physics`` array) and the physics timelines of animations.

Spine's defaults are filled in as its reader does (limit 5000, fps 60, inertia 1,
strength 100, damping 1, mass 1, mix 1); a field Spine's reader would not take (not a
number, an unknown bone, fps or mass not above 0) is refused where it is (JSON path,
value). Timelines of the empty name (Spine's "every constraint") are keyed on each
constraint whose ``...Global`` flag is on; its reset keys on every constraint.
"""
from __future__ import annotations

import math

from rigeditor.io.spine.read_keys import frame_of
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.model.data.physics import GLOBALS, KEYED, PhysicsConstraint
from rigeditor.model.data.timeline import Channel, Key, constant

SPINE_GLOBALS = tuple(g.replace("_global", "Global") for g in GLOBALS)
"""Spine's names of the global flags (``inertiaGlobal`` ...), in GLOBALS' order."""
_SETUP = (("x", "x", 0.0), ("y", "y", 0.0), ("rotate", "rotate", 0.0), ("scaleX", "scale_x", 0.0),
          ("shearX", "shear_x", 0.0), ("limit", "limit", 5000.0), ("fps", "step", 60.0))
_KEYED_DEFAULTS = {"inertia": 1.0, "strength": 100.0, "damping": 1.0, "mass": 1.0, "wind": 0.0, "gravity": 0.0,
                   "mix": 1.0}


def _number(value, where, source):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SpineError(source, [f"{where}: must be a finite number, got {value!r}"])
    return float(value)


def physics_constraints(raw: list, bones: dict, root: str, notes, source=None, taken=frozenset(),
                        count: int | None = None, reference_scale: float = 100.0) -> tuple:
    """RigEditor's constraints for Spine's ``physics`` array; ``bones``: RigEditor's
    bones by name (the Spine root is the character space, not a bone); ``taken``: the
    orders of the other constraints; ``count``: how many constraints the skeleton has
    (one Spine never runs is listed, not imported)."""
    out = []
    taken = set(taken)
    count = len(raw or []) if count is None else count
    for i, c in enumerate(raw or []):
        at = f"physics[{i}]"
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            raise SpineError(source, [f"{at}.name: a physics constraint needs a name"])
        bone = c.get("bone")
        if bone not in bones and bone != root:
            raise SpineError(source, [f"{at}.bone: unknown bone {bone!r}"])
        values = {k: _number(c.get(k, d), f"{at}.{k}", source)
                  for k, _, d in _SETUP + (("order", None, 0),) + tuple((k, k, d) for k, d in _KEYED_DEFAULTS.items())}
        for k in ("fps", "mass"):
            if values[k] <= 0:
                raise SpineError(source, [f"{at}.{k}: must be > 0, got {values[k]:g}"])
        order = values["order"]
        if not (0 <= order < count) or order in taken or order != int(order):
            notes.add("physics constraints Spine never runs (an order outside 0 to the constraint "
                      "count - 1, or one another constraint has; not imported)", c["name"])
            continue
        taken.add(order)
        if bone == root:
            notes.add("physics constraints on the root bone (RigEditor's character space; not imported)", c["name"])
            continue
        flags = {ours: bool(c.get(spine, False)) for ours, spine in zip(GLOBALS, SPINE_GLOBALS)}
        out.append(PhysicsConstraint(
            c["name"], bone, int(order), **{ours: values[k] for k, ours, _ in _SETUP},
            reference_scale=float(reference_scale), **{k: constant(values[k]) for k in KEYED}, **flags))
    return tuple(out)


def physics_timelines(project, anim: dict, name: str, fps: float, notes, channel):
    """``project`` with animation ``name``'s ``physics`` timelines keyed on its
    constraints (in the file's order: a later timeline of one setting wins, as Spine
    applies them in that order)."""
    known = {p.name: p for p in project.physics}
    for cname, timelines in (anim.get("physics") or {}).items():
        if cname and cname not in known:
            continue  # a constraint not imported (listed with it)
        for setting, keys in (timelines or {}).items():
            if not keys:
                continue
            at = f"animations.{name}.physics.{cname}.{setting}"
            if setting == "reset":
                targets = list(known) if not cname else [cname]
                # a reset falls on the first frame at or after its 32-bit time (as a step)
                frames = {frame_of(float(k.get("time", 0.0)), fps, True) for k in keys}
                for t in targets:  # every reset timeline of a constraint resets it (both kinds)
                    had = {k.frame for k in project.physics_constraint(t).reset.keys}
                    keys_ = tuple(Key(f, (1.0,), "constant") for f in sorted(frames | had))
                    project = project.with_physics(t, reset=Channel((0.0,), keys_))
                continue
            if setting not in KEYED:
                notes.add(f"physics {setting} timelines (not supported)", name)
                continue
            targets = [cname] if cname else [p for p, c in known.items() if getattr(c, f"{setting}_global")]
            for t in targets:
                setup = project.physics_constraint(t)
                ch, _ = channel(keys, ("value",), 0.0, fps, setup=getattr(setup, setting).default, where=at)
                if setting == "mass":
                    for v in [ch.default[0]] + [k.value[0] for k in ch.keys]:
                        if not v > 0:
                            raise SpineError(None, [f"{at}: a mass must be > 0, got {v:g}"])
                project = project.with_physics(t, **{setting: ch})
    return project


__all__ = ["physics_constraints", "physics_timelines", "SPINE_GLOBALS"]
