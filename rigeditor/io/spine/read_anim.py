"""One Spine animation onto an imported project, and the target spaces that follow
their bones.

Timelines mapped: the root bone's rotate, translate, scale and shear (the ``character``
space); every other bone's rotate, translate and scale (the bone's channels: offsets
from its setup rotation and position, a factor of its setup scale, as in Spine; the
one-value kinds joined in pairs); an IK target bone's translate (the target's position);
slot attachment keys; draw order keys; IK mix, softness, bendPositive, stretch and
compress. Everything
else is listed as not imported, one line per kind.
"""
from __future__ import annotations

import bisect
import functools
import math
from dataclasses import replace

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.validation.chain_bones import spine_like
from rigeditor.model.validation.spine_ik import movable_child, solvable_scale, translated_clear
from rigeditor.io.spine.read_keys import (channel as _channel, duplicate_times, frame_of, key_times, rotated, scale_keys,
                                     runtime_points, step_channel)
from rigeditor.io.spine.read_events import event_keys
from rigeditor.io.spine.skeleton import constraint_moved
from rigeditor.io.spine.read_ik_flags import flag_tracks
from rigeditor.io.spine.read_color import KINDS as COLOR_KINDS, color_timeline
from rigeditor.model.data.attachments import NONE
from rigeditor.model.data.project import CHARACTER, MAX_SOFTNESS, Project, Timeline
from rigeditor.model.data.timeline import Channel, Key

_BONE_OTHER: dict[str, str] = {}
_PAIRS = {"translate": ("translatex", "translatey", 0.0), "scale": ("scalex", "scaley", 1.0),
          "shear": ("shearx", "sheary", 0.0)}


def apply_animation(project: Project, skel, name: str, chains: dict, notes, *, curves: str = "runtime",
                    fps: float, turns: dict | None = None) -> Project:
    """``project`` with animation ``name`` of ``skel`` on its timeline. curves:
    "authored" keeps Spine's bezier curves as curves; "runtime" plays them as Spine's
    runtimes do (linear keys at the corners of the ten straight pieces a runtime plays
    for a bezier segment). Keys keep their times (``spine_keys.frame_of``); the timeline
    ends on the first frame at or after the last key, and keeps that key's frame when it
    falls between frames (``Timeline.exact_end``: the animation's duration)."""
    anim = skel.animations[name]
    channel = functools.partial(_channel, runtime=curves == "runtime")
    turns = turns or {}
    times = key_times(anim)
    last = max((frame_of(t, fps) for t in times), default=0.0)
    end = math.ceil(last - 1e-6)
    exact = last if end - 1 < last < end and last > 0 else None
    project = replace(project, timeline=Timeline(fps=fps, start=0, end=end, exact_end=exact))
    spine = {b.name: b for b in skel.bones}
    root = skel.bones[0]
    bone_names = {b.name for b in project.bones}
    target_names = {t.name for t in project.targets} - constraint_moved(skel)  # (those ride their own bones)
    approx = []
    driven = {b for c, _ in chains.values() for b in c.bones}
    # Bone channels are gathered and set in one pass at the end: one with_bone per
    # channel copied the bone tuple each time (20,000 keyed bones: minutes).
    changed: dict[str, dict] = {}
    for bone, timelines in anim.get("bones", {}).items():
        b = spine[bone]
        for kind, keys in timelines.items():  # as written (a joined pair has keys at one time by design)
            if isinstance(keys, list):
                _duplicates(notes, keys, f"{bone}.{kind}")
        for kind, keys in _paired(timelines, approx, bone, runtime=curves == "runtime").items():
            if not keys:
                continue
            at = f"animations.{name}.bones.{bone}.{kind}"
            if bone == root.name and kind in ("rotate", "translate", "scale", "shear"):
                project, exact = _root(project, root, kind, keys, fps, functools.partial(channel, where=at))
                approx += [] if exact else [f"{bone}.{kind}"]
                continue
            if kind == "translate" and bone in target_names:
                ch, exact = channel(keys, ("x", "y"), 0.0, fps, setup=(b.x, b.y), add=(b.x, b.y), where=at)
                project = project.with_target(bone, position=ch)
                approx += [] if exact else [f"{bone}.{kind}"]
            if bone not in bone_names:
                continue  # a target bone's own rotation or scale moves nothing
            if kind == "rotate":
                ch, _ = channel(keys, ("value",), 0.0, fps, setup=(0.0,), mul=math.radians(1.0), where=at)
                changed.setdefault(bone, {})["rotation"] = ch
            elif kind in ("translate", "scale", "shear", "inherit") and bone in driven and not (
                    kind == "translate" and all(c.bones[0] == bone or movable_child(c) for c in project.chains_of_bone(bone))
                    or kind == "scale" and _solvable_keys(project, bone, keys, b, at, channel)
                    or kind in ("shear", "inherit") and all(map(spine_like, project.chains_of_bone(bone)))):
                notes.add(f"{kind} keys on bones an IK chain drives (dropped: a chain solves with its "
                          "bones' authored lengths and joints)", bone)
            elif kind == "translate":
                ch, exact = channel(keys, ("x", "y"), 0.0, fps, setup=(0.0, 0.0), where=at)
                parent = project.bone(bone).parent
                if parent in turns:  # the parent's frame is turned: its keys turn back with it
                    ch = rotated(ch, -turns[parent])
                if bone in driven and any(c.bones[0] != bone for c in project.chains_of_bone(bone)) \
                        and not translated_clear(replace(project.bone(bone), translate=ch), project.timeline):
                    notes.add("translate keys bringing an IK chain's second bone onto its first bone's origin "
                              "(dropped: the solve has no segment there)", bone)
                    continue
                changed.setdefault(bone, {})["translate"] = ch
                approx += [] if exact else [f"{bone}.{kind}"]
            elif kind == "scale":  # 0 and negative scales are legal, as in Spine
                ch, exact = channel(keys, ("x", "y"), 1.0, fps, setup=b.scale, mul=b.scale, where=at)
                changed.setdefault(bone, {})["scale"] = ch
                approx += [] if exact else [f"{bone}.{kind}"]
            elif kind == "shear":  # offsets from the setup shear, in degrees
                setup = tuple(math.radians(s) for s in b.shear)
                ch, exact = channel(keys, ("x", "y"), 0.0, fps, setup=setup, mul=math.radians(1.0), add=setup,
                                    where=at)
                changed.setdefault(bone, {})["shear"] = ch
                approx += [] if exact else [f"{bone}.{kind}"]
            elif kind == "inherit":  # 4.2: stepped
                modes = [(float(k.get("time", 0.0)), k.get("inherit", "normal")) for k in keys]
                if project.bone(bone).parent in turns:  # its rest rotation follows the setup mode
                    notes.add("inherit keys below a turned IK parent (approximated)", bone)
                changed.setdefault(bone, {})["inherit"] = step_channel(modes, fps, b.inherit)
            else:
                notes.add(_BONE_OTHER.get(kind, f"bone {kind} timelines (not supported)"), bone)
    if changed:
        project = replace(project, bones=tuple(replace(b, **changed[b.name]) if b.name in changed else b
                                               for b in project.bones))
    if approx:
        notes.add("curves whose x and y ease with different timing (approximated)", ", ".join(approx))
    project = _slots(project, anim, fps, notes, channel, name)
    project = _draw_order(project, skel, anim, fps)
    project = _ik(project, skel, anim, fps, chains, notes, channel)
    from rigeditor.io.spine.read_transform import transform_timelines

    project = transform_timelines(project, anim, name, fps, notes, channel)
    from rigeditor.io.spine.read_deform import deform_tracks

    project = replace(project, art=replace(project.art, deforms=deform_tracks(project, skel, anim, name, fps, notes,
                                                                              runtime=curves == "runtime")))
    project = replace(project, events=replace(project.events, keys=event_keys(
        anim.get("events") or [], project.events.definitions, fps, f"animations.{name}.events")))
    from rigeditor.io.spine.read_path import path_timelines

    project = path_timelines(project, anim, name, fps, notes, channel)
    from rigeditor.io.spine.read_physics import physics_timelines

    project = physics_timelines(project, anim, name, fps, notes, channel)
    labels = {"path": "path constraint timelines",
              "physics": "physics timelines"}
    from rigeditor.io.spine.read_sequence import sequence_keys

    project = sequence_keys(project, anim, fps, notes, name)
    for kind, value in anim.items():
        if kind not in ("bones", "slots", "ik", "drawOrder", "transform", "attachments", "deform", "events", "path", "physics") and value:
            notes.add(f"{labels.get(kind, kind + ' timelines')} (not supported)", name)
    return project


def _duplicates(notes, keys, what: str) -> None:
    """Warn of two keys at one time (played as Spine plays them, see spine_keys)."""
    for t in duplicate_times(keys):
        notes.add("two keys at one time (played as Spine plays them: the first ends the segment before, "
                  "the last holds from that time on)", f"{what} at {t:.4g} s")


def _paired(timelines: dict, approx: list, bone: str, runtime: bool = False) -> dict:
    """``timelines`` with Spine's one-value timelines (translatex, scaley, ...) joined
    into their two-value kind; the other value stays at its setup (0 moved, scale 1).
    Two one-value timelines keyed at different times are joined on every corner of
    either as the runtime plays them (``runtime``: exact, :func:`_joined`); with authored
    curves, linearly on the union of their key times (listed as approximated)."""
    singles = {name for x, y, _ in _PAIRS.values() for name in (x, y)}
    out = {k: v for k, v in timelines.items() if k not in singles}
    for kind, (name_x, name_y, rest) in _PAIRS.items():
        xs, ys = timelines.get(name_x) or [], timelines.get(name_y) or []
        if kind in out or not (xs or ys):
            continue
        if xs and ys and [k.get("time", 0.0) for k in xs] != [k.get("time", 0.0) for k in ys]:
            if runtime:
                out[kind] = _joined(xs, ys, rest)
                continue
            approx.append(f"{bone}.{kind}")
            times = sorted({float(k.get("time", 0.0)) for k in xs + ys})
            x = np.interp(times, [k.get("time", 0.0) for k in xs], [k.get("value", rest) for k in xs])
            y = np.interp(times, [k.get("time", 0.0) for k in ys], [k.get("value", rest) for k in ys])
            out[kind] = [{"time": t, "x": float(a), "y": float(b)} for t, a, b in zip(times, x, y)]
            continue
        keys = []
        for i in range(len(xs or ys)):
            kx, ky = (xs[i] if xs else None), (ys[i] if ys else None)
            key = {"time": (kx or ky).get("time", 0.0), "x": kx.get("value", rest) if kx else rest,
                   "y": ky.get("value", rest) if ky else rest}
            cx, cy = (kx or {}).get("curve"), (ky or {}).get("curve")
            if kx and ky and (cx is None) != (cy is None) or ("stepped" in (cx, cy) and cx != cy and kx and ky):
                approx.append(f"{bone}.{kind}")  # one value linear or held, the other curved
            if "stepped" in (cx, cy):
                key["curve"] = "stepped"
            elif isinstance(cx, list) or isinstance(cy, list):
                base = cx if isinstance(cx, list) else cy

                def flat(v):  # a value that does not change (the missing one), on the other's timing
                    return [base[0], v, base[2], v]

                key["curve"] = ((cx[:4] if isinstance(cx, list) else flat(key["x"]))
                                + (cy[:4] if isinstance(cy, list) else flat(key["y"])))
            keys.append(key)
        out[kind] = keys
    return out


def _component_corners(keys: list[dict], rest: float) -> list[tuple[float, float, float]]:
    """One Spine one-value timeline (translatex, scaley...) as its runtime plays it:
    (time s, value from the left, value from there on) at every corner of its
    piecewise-linear graph (keys, a stepped segment's end, the ten pieces of a bezier
    segment). Before the first key the value is ``rest`` (the setup), after the last
    the last key's."""
    pts: list[list[float]] = []
    for i, key in enumerate(keys):
        t, v = float(key.get("time", 0.0)), float(key.get("value", rest))
        left = rest if i == 0 else (pts[-1][2] if keys[i - 1].get("curve") == "stepped" else v)
        if pts and pts[-1][0] == t:  # two keys at one time: the first ends the segment, the last holds
            pts[-1][2] = v
        else:
            pts.append([t, left, v])
        curve = key.get("curve")
        if isinstance(curve, list) and i + 1 < len(keys):
            nxt = keys[i + 1]
            c = np.asarray(curve[:4], dtype=float).reshape(1, 4)
            for tk, vk in runtime_points(t, np.array([v]), c, float(nxt.get("time", 0.0)),
                                         np.array([float(nxt.get("value", rest))])):
                pts.append([tk, float(vk[0]), float(vk[0])])
    return [tuple(p) for p in pts]


def _value_at(pts, times, t: float, rest: float) -> tuple[float, float]:
    """(from the left, from there on) of a component's corners ``pts`` (their
    ``times``) at time ``t``."""
    j = bisect.bisect_left(times, t)
    if j < len(pts) and pts[j][0] == t:
        return pts[j][1], pts[j][2]
    if j == 0:
        return rest, rest
    if j == len(pts):
        return pts[-1][2], pts[-1][2]
    (t0, _, v0), (t1, v1, _) = pts[j - 1], pts[j]
    held = v0 if t1 == t0 else v0 + (v1 - v0) * (t - t0) / (t1 - t0)
    return held, held


def _joined(xs: list[dict], ys: list[dict], rest: float) -> list[dict]:
    """Two one-value timelines keyed at different times as one two-value timeline of
    linear keys that plays exactly what the runtime plays for each: every corner of
    either is a key, and a jump (a stepped segment's end, a first key after the
    other's) is two keys at one time (the first ends the segment before)."""
    px, py = _component_corners(xs, rest), _component_corners(ys, rest)
    tx, ty = [p[0] for p in px], [p[0] for p in py]
    out = []
    for t in sorted(set(tx) | set(ty)):
        (lx, rx), (ly, ry) = _value_at(px, tx, t, rest), _value_at(py, ty, t, rest)
        if lx != rx or ly != ry:  # a jump: held up to its 32-bit time, as a stepped key is
            out.append({"time": t, "x": lx, "y": ly, "curve": "stepped"})
        out.append({"time": t, "x": rx, "y": ry})
    return out


def _root(project, root, kind, keys, fps, channel):
    space = project.space(CHARACTER)
    if kind == "rotate":
        ch, exact = channel(keys, ("value",), 0.0, fps, setup=(math.radians(root.rotation),),
                            mul=math.radians(1.0), add=math.radians(root.rotation))
        return project.with_space(CHARACTER, rotation=ch), exact
    if kind == "translate":
        ch, exact = channel(keys, ("x", "y"), 0.0, fps, setup=(root.x, root.y), add=(root.x, root.y))
        return project.with_space(CHARACTER, position=ch), exact
    if kind == "shear":  # offsets from the setup shear, in degrees, as a bone's
        setup = tuple(math.radians(s) for s in root.shear)
        ch, exact = channel(keys, ("x", "y"), 0.0, fps, setup=setup, mul=math.radians(1.0), add=setup)
        return project.with_space(CHARACTER, shear=ch), exact
    ch, exact = channel(keys, ("x", "y"), 1.0, fps, setup=root.scale, mul=root.scale)
    scale_keys(keys, root.scale, channel.keywords["where"])
    del space
    return project.with_space(CHARACTER, scale=ch), exact


def _slots(project, anim, fps, notes, channel, name=""):
    art = project.art
    for slot_name, timelines in anim.get("slots", {}).items():
        for kind, keys in timelines.items():
            if kind in COLOR_KINDS:
                art = art.with_slot(slot_name, **color_timeline(
                    art.slot(slot_name), kind, keys, fps, channel, f"animations.{name}.slots.{slot_name}.{kind}",
                    notes))
                continue
            if kind != "attachment":
                notes.add(f"slot {kind} timelines (not supported)", slot_name)
                continue
            slot = art.slot(slot_name)
            names = {a.name for a in slot.attachments}
            pairs = [(float(k.get("time", 0.0)), k.get("name") if k.get("name") in names else NONE) for k in keys]
            art = art.with_slot(slot_name, attachment=step_channel(pairs, fps, slot.attachment.default))
    return replace(project, art=art)


def _draw_order(project, skel, anim, fps):
    if not anim.get("drawOrder"):
        return project
    names = [s.name for s in skel.slots]
    keys = {}
    for key in anim["drawOrder"]:
        keys[frame_of(float(key.get("time", 0.0)), fps, step=True)] = tuple(names[i] for i in spine_order(
            names, key.get("offsets") or []))
    art = project.art
    for frame in sorted(keys):
        art = art.with_draw_order_key(frame, keys[frame])
    return replace(project, art=art)


def spine_order(names: list[str], offsets: list[dict]) -> list[int]:
    """Slot indices back to front for a Spine draw-order key: each listed slot (in
    setup order) moves by its offset; the others keep their setup order around them."""
    n = len(names)
    order = [-1] * n
    unchanged, original = [], 0
    for o in offsets:
        index = names.index(o["slot"])
        while original != index:
            unchanged.append(original)
            original += 1
        order[original + int(o["offset"])] = original
        original += 1
    unchanged.extend(range(original, n))
    for i in range(n - 1, -1, -1):
        if order[i] == -1:
            order[i] = unchanged.pop()
    return order


def _ik(project, skel, anim, fps, chains, notes, channel):
    spine = {c.name: c for c in skel.ik}
    for name, keys in anim.get("ik", {}).items():
        if name not in chains or not keys:
            continue
        _, total = chains[name]
        c = spine[name]
        # The setup values as the chain has them (clamped, capped: _constraints).
        mix, _ = channel(keys, ("mix",), 1.0, fps, setup=(min(max(c.mix, 0.0), 1.0),))
        # A key's curve lists the mix curve, then the softness curve (4 numbers each).
        soft_keys = [{**k, "curve": k["curve"][4:]} if isinstance(k.get("curve"), list) and len(k["curve"]) > 4
                     else k for k in keys]
        soft, _ = channel(soft_keys, ("softness",), 0.0, fps, setup=(min(c.softness / total, MAX_SOFTNESS),),
                          mul=1.0 / total)
        if any(k.value[0] > MAX_SOFTNESS for k in soft.keys):
            notes.add(f"IK softness beyond {MAX_SOFTNESS:g} times the chain (capped)", name)
        # A curve may overshoot below 0 between keys (runtime keys): no softness there.
        soft = replace(soft, keys=tuple(replace(k, value=(min(max(k.value[0], 0.0), MAX_SOFTNESS),)) for k in soft.keys))
        mix = replace(mix, keys=tuple(replace(k, value=(min(max(k.value[0], 0.0), 1.0),)) for k in mix.keys))
        bends = [Key(0, (1.0 if c.bend_positive else -1.0,), "constant")] if keys[0].get("time", 0.0) > 0 else []
        _duplicates(notes, keys, f"ik {name}")
        bends += [Key(frame_of(float(k.get("time", 0.0)), fps, step=True), (1.0 if k.get("bendPositive", True) else -1.0,),
                      "constant") for k in keys]
        bend = Channel(default=(1.0 if c.bend_positive else -1.0,),
                       keys=tuple({k.frame: k for k in bends}.values()))
        flags = flag_tracks(c, keys, fps, len(c.bones) == 1)  # stretch (and one bone's compress) keys
        project = project.with_chain(name, mix=mix, softness=soft, bend=bend, **flags)
    return project


def _solvable_keys(project, bone, keys, b, at, channel) -> bool:
    """Whether scale keys on a bone chains drive can play in each of them: any on an aim
    chain's bone; on an analytic chain's, what ``solvable_scale`` lets it take."""
    ch = None
    for chain in project.chains_of_bone(bone):
        if chain.solver == "aim":
            continue
        if chain.solver != "analytic":
            return False
        if ch is None:
            ch, _ = channel(keys, ("x", "y"), 1.0, project.timeline.fps, setup=b.scale, mul=b.scale, where=at)
        if not solvable_scale(ch, chain.bones.index(bone), project.timeline):
            return False
    return True


def bake_target_spaces(project: Project, spaces: dict, turns: dict, *, keyed: bool) -> Project:
    """Give every target space (named after an IK target's parent bone) the
    transform of that bone in character space: its defaults from the setup pose
    (``keyed`` False, on a project without keys), or keys on every frame of the open
    animation (``keyed``; one key when it holds still away from the setup, none when it
    stays there). The bone's pose may itself depend on chains, so this repeats until
    nothing changes (at most once per chain, plus one)."""
    if not spaces:
        return project
    from rigeditor.model.evaluation.evaluate import evaluate

    frames = project.timeline.frames if keyed else np.zeros(1)
    for _ in range(len(project.chains) + 1):
        bake = evaluate(project, frames)
        to_char = bake.spaces[CHARACTER].inverse()
        changed = False
        for bone, space in spaces.items():
            local = to_char.compose(bake.bone_world.take((slice(None), bake.column(bone))))
            if bone in turns:  # Spine's frame of a turned bone
                local = local.compose(Affine.rotation_about_origin(-turns[bone]))
            old = project.space(space.name)
            new = _space_channels(local, bake.frames, old, keyed)
            if (old.position, old.rotation, old.scale, old.shear) != new:
                project = project.with_space(space.name, position=new[0], rotation=new[1], scale=new[2],
                                             shear=new[3])
                changed = True
        if not changed:
            break
    return project


def _space_channels(local: Affine, frames, old, keyed: bool) -> tuple[Channel, Channel, Channel, Channel]:
    """(position, rotation, scale, shear) channels of per-frame transforms ``local``:
    the bone's whole affine frame, shear and uneven scale included (``inherit.decompose``)."""
    from rigeditor.model.evaluation.inherit import decompose

    n = frames.shape[0]
    a, b, c, d, tx, ty = (np.broadcast_to(np.asarray(v, dtype=float), (n,)) for v in local.fields())
    angle, scale, shear = decompose(a, b, c, d)
    # Unwrapped along the frames: keys a frame apart interpolate the short way.
    values = [np.stack([tx, ty], axis=-1), np.unwrap(angle)[:, None], scale, np.unwrap(shear, axis=0)]
    out = []
    for v, ch in zip(values, (old.position, old.rotation, old.scale, old.shear)):
        setup = tuple(float(x) for x in v[0])
        if not keyed:
            out.append(Channel(setup))
        elif np.ptp(v, axis=0).max() > 1e-12:
            out.append(Channel(ch.default, tuple(Key(int(f), tuple(map(float, row))) for f, row in zip(frames, v))))
        elif np.abs(v[0] - ch.default).max() > 1e-12:
            out.append(Channel(ch.default, (Key(int(frames[0]), setup),)))
        else:
            out.append(Channel(ch.default))
    return tuple(out)
