"""Semantic checks of a Project: every problem, each with where it is.

The file layer checks types and ranges field by field; this module checks what only
the whole project can tell: names, references, trees without cycles, chains whose
bones really are a connected run. Messages read ``where: what``, with values in the
file's units: the model holds radians, but angles are shown in degrees as written.

Ranges are chosen so that what validates evaluates to finite numbers: lengths within
the solver's range, scales bounded away from zero (an inverse space transform stays
finite), bezier handles no larger than the values they shape.
"""
from __future__ import annotations

import math

import numpy as np

from rigeditor.core.limits import LIMIT_STRATEGIES
from rigeditor.core.twobone import MIN_LENGTH
from rigeditor.model.evaluation.inherit import INHERIT_MODES
from rigeditor.model.data.ik_flags import FLAG_TRACKS
from rigeditor.model.data.project import CHARACTER, MAX_SOFTNESS, SOFT_REACH, SOLVERS, WORLD, Project
from rigeditor.model.data.timeline import INTERPOLATIONS, Channel, StepChannel
from rigeditor.model.validation.art import art_problems
from rigeditor.model.validation.events import event_problems
from rigeditor.model.validation.clips import clip_problems
from rigeditor.model.validation.constraints import transform_problems
from rigeditor.model.validation.paths import path_attachment_problems, path_problems
from rigeditor.model.validation.physics import physics_problems
from rigeditor.model.validation.skin_constraints import skin_constraint_problems
from rigeditor.model.validation.chain_bones import chain_bones
from rigeditor.model.validation.spine_ik import spine_scale, uneven_chain


MAX_MAGNITUDE = 1e9
"""Largest accepted magnitude of a length, position or angle (model units, radians):
far beyond any rig, and it keeps every evaluation finite. Angles are bounded in
radians (shown in degrees: 5.72958e+10)."""

MIN_SCALE = 1e-6
"""Smallest magnitude of a space's scale component, at every frame: the inverse of a
space stays finite and a target carried into it stays within the solver's range."""

MIN_FPS, MAX_FPS = 1.0, 1000.0
"""Frame rates accepted (frames per second): film's 24 to high-speed capture's 1000.
Outside them exports break: at 1e-300 every Spine key lands at time 0 (times are kept
to 1e-9 s), at 1e300 CSV times need 300 digits."""

SCALE_SAMPLES = 1_000_000
"""Frames sampled at once when checking an animated scale over the timeline."""


def _shown(x, angle=False):
    """A model value as the file writes it (angles in degrees), for messages."""
    return f"{math.degrees(x):g} deg" if angle and math.isfinite(x) else f"{x:g}"


def _number(out, where, x, *, positive=False, angle=False):
    if not math.isfinite(x) or abs(x) > MAX_MAGNITUDE:
        out.append(f"{where}: must be a finite number of magnitude <= {_shown(MAX_MAGNITUDE, angle)}, "
                   f"got {_shown(x, angle)}")
    elif positive and x <= 0:
        out.append(f"{where}: must be a finite number > 0, got {x!r}")
    elif positive and x < MIN_LENGTH:
        out.append(f"{where}: must be >= {MIN_LENGTH:g} (the shortest bone the solver takes), got {x:g}")


def problems(project: Project, *, stored: bool = True) -> list[str]:
    """All problems found (empty when the project is valid), the stored animations'
    included. ``stored=False`` leaves them out, for an edit of the open animation's
    keys alone made to a valid project: each stored animation is checked opened, its
    own keys on the items in place of the open one's, so such an edit cannot change
    what it finds (and opening every stored animation on each mouse move of a drag
    cost 5-20 ms on a rig with three)."""
    out = _rig_problems(project)
    return out + clip_problems(project, _rig_problems) if stored else out


def _rig_problems(project: Project) -> list[str]:
    """The problems of the rig and the open animation. The parts an edit leaves as
    they were (the same tuples of spaces, bones, chains: items are immutable) are
    not checked again: a drag replaces one target on every move."""
    out: list[str] = []
    tl = project.timeline
    if not (math.isfinite(tl.fps) and MIN_FPS <= tl.fps <= MAX_FPS):
        out.append(f"timeline.fps: must be a number of frames per second within [{MIN_FPS:g}, {MAX_FPS:g}], "
                   f"got {tl.fps:g}")
    if tl.end < tl.start:
        out.append(f"timeline.end: must be >= start ({tl.start}), got {tl.end}")

    out.extend(_section(_unique_spaces, project.spaces))
    out.extend(_section(_unique_bones, project.bones))
    _unique(out, "targets", [t.name for t in project.targets])
    out.extend(_section(_unique_chains, project.chains))
    out.extend(_section(_space_problems, project.spaces, tl))
    out.extend(_section(_bone_problems, project.bones, tl))

    space_names = {s.name for s in project.spaces}
    bone_names = frozenset(b.name for b in project.bones)
    all_spaces = space_names | {WORLD}
    for i, t in enumerate(project.targets):
        where = f"targets[{i}]"
        _own(out, where + ".position", t.position, _channel, 2)
        _steps(out, f"{where}.space", t.space, all_spaces)

    target_names = frozenset(t.name for t in project.targets)
    out.extend(_section(_chain_problems, project.chains, project.bones, tl, target_names))
    out.extend(transform_problems(project, _channel))
    out.extend(path_problems(project, _channel))
    out.extend(path_attachment_problems(project.art, bone_names))
    out.extend(physics_problems(project, _channel))
    out.extend(_art_problems(project.art, bone_names))
    out.extend(skin_constraint_problems(project))
    out.extend(event_problems(project.events))
    return out


_sections: dict[tuple, tuple] = {}
SECTIONS = 64  # sections remembered (a few per rig: the open animation's and the stored ones')


def _section(check, *parts) -> list[str]:
    """``check(*parts)``'s problems, remembered for the same parts: tuples of items
    and the timeline compared by identity (immutable), names by equality."""
    key = (check, *(p if isinstance(p, frozenset) else id(p) for p in parts))
    hit = _sections.get(key)
    if hit is not None and all(a is b or isinstance(a, frozenset) for a, b in zip(hit[0], parts)):
        return list(hit[1])
    found = check(*parts)
    if len(_sections) >= SECTIONS:
        _sections.clear()
    _sections[key] = (parts, found)
    return list(found)


def _space_problems(spaces, tl) -> list[str]:
    out: list[str] = []
    space_names = {s.name for s in spaces}
    if CHARACTER not in space_names:
        out.append(f"spaces: the {CHARACTER!r} space (the rig root) is missing")
    for i, s in enumerate(spaces):
        where = f"spaces[{i}]"
        if s.name == WORLD:
            out.append(f"{where}.name: {WORLD!r} is reserved")
        if s.parent != WORLD and s.parent not in space_names:
            out.append(f"{where}.parent: unknown space {s.parent!r}")
        _own(out, where, s, _space_values, tl)
    out.extend(_cycles("spaces", {s.name: s.parent for s in spaces}, {WORLD}))
    return out


def _bone_problems(bones, tl) -> list[str]:
    out: list[str] = []
    bone_names = {b.name for b in bones}
    for i, b in enumerate(bones):
        where = f"bones[{i}]"
        _own(out, where, b, _bone_values, tl)
        if b.parent is not None and b.parent not in bone_names:
            out.append(f"{where}.parent: unknown bone {b.parent!r}")
    out.extend(_cycles("bones", {b.name: b.parent for b in bones}, {None}))
    return out


def _unique_spaces(items) -> list[str]:
    out: list[str] = []
    _unique(out, "spaces", [s.name for s in items])
    return out


def _unique_bones(items) -> list[str]:
    out: list[str] = []
    _unique(out, "bones", [b.name for b in items])
    return out


def _unique_chains(items) -> list[str]:
    out: list[str] = []
    _unique(out, "chains", [c.name for c in items])
    return out


def _chain_problems(chains, bones, tl, target_names) -> list[str]:
    """The chains' problems: what each reads is the bones, the timeline and the
    targets' names (``_chain``)."""
    out: list[str] = []
    view = _Rig(bones, tl)
    bone_names = {b.name for b in bones}
    used: dict = {}  # bone -> the chain that drives it first
    for i, c in enumerate(chains):
        _chain(out, f"chains[{i}]", c, view, bone_names, target_names, used)
    return out


class _Rig:
    """What a chain's checks read of a project: its bones (by name) and timeline."""

    def __init__(self, bones, timeline):
        self.bones, self.timeline = bones, timeline
        self._by_name = {}
        for b in reversed(bones):  # (a duplicate name: the first wins, as in Project)
            self._by_name[b.name] = b

    def bone(self, name):
        return self._by_name[name]


def _chain(out, where, c, project, bone_names, target_names, used):
    """A chain's links to the rest of the project, then its own values."""
    if c.solver not in SOLVERS:
        out.append(f"{where}.solver: must be one of {', '.join(SOLVERS)}, got {c.solver!r}")
    if c.solver == "analytic" and len(c.bones) != 2:
        out.append(f"{where}.bones: the analytic solver drives exactly 2 bones, got {len(c.bones)}")
    if c.solver == "aim" and len(c.bones) != 1:
        out.append(f"{where}.bones: the aim solver drives exactly 1 bone, got {len(c.bones)}")
    if c.solver != "aim" and len(c.bones) < 2:
        out.append(f"{where}.bones: a chain needs at least 2 bones (one bone: solver 'aim'), got {len(c.bones)}")
    chain_bones(out, where, c, project, bone_names, used)
    spine_scale(out, where, c)
    uneven_chain(out, where, project, c, bone_names)
    if c.target not in target_names:
        out.append(f"{where}.target: unknown target {c.target!r}")
    _own(out, where, c, _chain_values)


def _chain_values(out, where, c):
    _channel(out, f"{where}.bend", c.bend, 1, values=(1.0, -1.0), stepped=True)
    for track in FLAG_TRACKS.values():
        _channel(out, f"{where}.{track}", getattr(c, track), 1, values=(0.0, 1.0), stepped=True)
    # RigEditor's exponential soft reach up to half the chain; Spine's quadratic one any
    # size (a fraction of the chain up to MAX_SOFTNESS: Spine's softness is in units).
    _channel(out, f"{where}.softness", c.softness, 1, lo=0.0, hi=MAX_SOFTNESS if c.soft_reach == "quadratic" else 0.5)
    _channel(out, f"{where}.mix", c.mix, 1, lo=0.0, hi=1.0)
    if len(c.limits) > len(c.bones):
        out.append(f"{where}.limits: {len(c.limits)} limits for {len(c.bones)} bones")
    for k, lim in enumerate(c.limits):
        if lim is None:
            continue
        lo, hi = lim
        if not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
            out.append(f"{where}.limits[{k}]: must be finite (min, max) with min <= max, "
                       f"got ({_shown(lo, True)}, {_shown(hi, True)})")
    s = c.strategy
    if s.kind not in LIMIT_STRATEGIES:
        out.append(f"{where}.strategy.kind: must be one of {', '.join(LIMIT_STRATEGIES)}, got {s.kind!r}")
    if not (0.0 <= s.max_stretch <= 0.5):
        out.append(f"{where}.strategy.max_stretch: must be between 0 and 0.5, got {s.max_stretch!r}")
    if not (math.isfinite(s.max_root_offset) and s.max_root_offset >= 0):
        out.append(f"{where}.strategy.max_root_offset: must be a finite number >= 0, got {s.max_root_offset!r}")
    if not (math.isfinite(s.root_time_constant) and s.root_time_constant >= 0):
        out.append(f"{where}.strategy.root_time_constant: must be >= 0 frames, got {s.root_time_constant!r}")
    if not (math.isfinite(c.tolerance) and c.tolerance > 0):
        out.append(f"{where}.tolerance: must be a finite number > 0, got {c.tolerance!r}")
    if not (isinstance(c.max_iterations, int) and c.max_iterations >= 1):
        out.append(f"{where}.max_iterations: must be an integer >= 1, got {c.max_iterations!r}")
    if c.soft_reach not in SOFT_REACH:
        out.append(f"{where}.soft_reach: must be one of {', '.join(SOFT_REACH)}, got {c.soft_reach!r}")


_last_arts: dict = {}  # id(art) -> (art, bone names, its problems)
LAST_ARTS = 16  # the open animation's artwork and each stored one's (validated by opening it)


def _art_problems(art, bone_names: frozenset) -> list[str]:
    """``art_problems``, remembered for the last artworks checked: most edits leave
    the artwork (meshes and their weights included) as it was."""
    hit = _last_arts.get(id(art))
    if hit is None or hit[0] is not art or hit[1] != bone_names:
        if len(_last_arts) >= LAST_ARTS:
            _last_arts.clear()
        hit = _last_arts[id(art)] = (art, bone_names, art_problems(art, bone_names))
    return list(hit[2])


def _space_values(out, where, s, tl):
    _channel(out, f"{where}.position", s.position, 2)
    _channel(out, f"{where}.rotation", s.rotation, 1, angle=True)
    _channel(out, f"{where}.scale", s.scale, 2)
    _scale(out, f"{where}.scale", s.scale, tl)
    _channel(out, f"{where}.shear", s.shear, 2, angle=True)


def _bone_values(out, where, b, tl):
    _number(out, f"{where}.length", b.length, positive=True)
    for k, v in enumerate(b.rest_offset):
        _number(out, f"{where}.rest_offset[{k}]", v)
    _number(out, f"{where}.rest_rotation", b.rest_rotation, angle=True)
    _channel(out, f"{where}.rotation", b.rotation, 1, angle=True)
    _channel(out, f"{where}.translate", b.translate, 2)
    # A bone's scale may be 0 or change sign (as in Spine), above an IK chain too: a
    # chain in a collapsed frame holds its FK pose (constraints.ik._invertible).
    _channel(out, f"{where}.scale", b.scale, 2)
    _channel(out, f"{where}.shear", b.shear, 2, angle=True)
    _steps(out, f"{where}.inherit", b.inherit, INHERIT_MODES, "inherit mode")


_fine_items: dict = {}  # id(item) -> (item, context): items whose own checks found nothing
FINE_ITEMS = 1 << 17
"""Items remembered as fine, at most: room for every bone of a 20,000-bone rig and its
chains' items several times over (an import validates the rig after each stage; at 4,096
a big rig was checked afresh every time)."""


def _own(out, where, item, check, *context) -> None:
    """``check(out, where, item, *context)``: the checks of ``item``'s own values,
    which depend on nothing else in the project. Items are immutable and an edit
    replaces only the items it changes, so an item found fine (in the same
    ``context``, compared by equality) is not checked again: a drag in a rig of 20
    chains checks the one target it moves, not 80 items a move."""
    hit = _fine_items.get(id(item))
    if hit is not None and hit[0] is item and hit[1] == (check, context):
        return
    found = len(out)
    check(out, where, item, *context)
    if len(out) == found:
        if len(_fine_items) > FINE_ITEMS:
            _fine_items.clear()
        _fine_items[id(item)] = (item, (check, context))


def _unique(out, kind, names):
    seen = set()
    for i, n in enumerate(names):
        if not isinstance(n, str) or not n.strip():
            out.append(f"{kind}[{i}].name: must be a non-empty name, got {n!r}")
        elif n in seen:
            out.append(f"{kind}[{i}].name: duplicate name {n!r}")
        seen.add(n)


def _cycles(kind, parent_of, roots):
    """One ``kind: cycle a -> b -> a`` per cycle of the ``parent_of`` tree, in linear
    time: each walk up stops at a node an earlier walk already settled, so every node
    is visited once (a 20,000-bone chain took minutes with a list of seen nodes)."""
    out, settled = [], set()
    for start in parent_of:
        path, on_path, node = [], {}, start
        while node not in roots and node in parent_of and node not in settled:
            if node in on_path:
                loop = path[on_path[node]:] + [node]
                out.append(f"{kind}: cycle {' -> '.join(loop)}")
                break
            on_path[node] = len(path)
            path.append(node)
            node = parent_of[node]
        settled.update(path)
    return out


def _scale(out, where, ch: Channel, tl):
    """Every scale component keeps its magnitude >= MIN_SCALE: the keys, the default,
    and (for an animated scale) every frame of the timeline, since an interpolation
    between keys of opposite sign passes through zero."""
    values = [("default", ch.default)] + [(f"keys[{k}].value", key.value) for k, key in enumerate(ch.keys)]
    bad = [f"{where}.{w}: a scale component must have magnitude >= {MIN_SCALE:g} (a smaller one collapses "
           f"the space), got {_shown(min(v, key=abs))}" for w, v in values
           if len(v) == 2 and all(math.isfinite(x) for x in v) and min(map(abs, v)) < MIN_SCALE]
    out.extend(bad)
    if bad or not ch.keys or not (math.isfinite(tl.fps) and tl.end >= tl.start):
        return
    try:
        for first in range(tl.start, tl.end + 1, SCALE_SAMPLES):
            frames = np.arange(first, min(first + SCALE_SAMPLES, tl.end + 1))
            small = np.flatnonzero(~(np.abs(ch.sample(frames)).min(axis=1) >= MIN_SCALE))
            if small.size:
                out.append(f"{where}: at frame {frames[small[0]]} a scale component's magnitude falls below "
                           f"{MIN_SCALE:g} (keys of opposite sign, or a handle, take it through zero)")
                return
    except (ValueError, TypeError, IndexError):
        return  # malformed keys: reported by the channel's own checks


def _channel(out, where, ch: Channel, dim, *, lo=None, hi=None, values=None, stepped=False, angle=False):
    def check_value(w, v):
        if len(v) != dim:
            out.append(f"{w}: expected {dim} number(s), got {len(v)}")
            return
        for x in v:
            if not math.isfinite(x):
                out.append(f"{w}: must be finite, got {x!r}")
            elif abs(x) > MAX_MAGNITUDE:
                out.append(f"{w}: magnitude must be <= {_shown(MAX_MAGNITUDE, angle)}, got {_shown(x, angle)}")
            elif lo is not None and not (lo <= x <= hi):
                out.append(f"{w}: must be between {lo:g} and {hi:g}, got {x:g}")
            elif values is not None and x not in values:
                out.append(f"{w}: must be one of {', '.join(f'{v:+g}' for v in values)}, got {x:g}")

    check_value(f"{where}.default", ch.default)
    if _keys_look_fine(ch.keys, dim, lo, hi, values, stepped):
        return
    found = len(out)
    previous = None
    for k, key in enumerate(ch.keys):
        w = f"{where}.keys[{k}]"
        check_value(f"{w}.value", key.value)
        if key.interp not in INTERPOLATIONS:
            out.append(f"{w}.interp: must be one of {', '.join(INTERPOLATIONS)}, got {key.interp!r}")
        elif stepped and key.interp != "constant":
            out.append(f"{w}.interp: this track is stepped, interp must be 'constant', got {key.interp!r}")
        if not (isinstance(key.frame, (int, float)) and math.isfinite(key.frame)):
            out.append(f"{w}.frame: must be a finite number, got {key.frame!r}")
        else:
            if previous is not None and key.frame <= previous:
                out.append(f"{w}.frame: keys must be in increasing frame order, got {key.frame:g} after {previous:g}")
            previous = key.frame
        for name in ("out_handle", "in_handle"):
            h = getattr(key, name)
            if h is not None and (len(h) != dim + 1 or not all(math.isfinite(x) for x in h)):
                out.append(f"{w}.{name}: expected {dim + 1} finite numbers (dt, dv...), got {h!r}")
            elif h is not None and max(map(abs, h[1:])) > MAX_MAGNITUDE:
                # A bezier curve stays within its control points: bounded handles, bounded curve.
                out.append(f"{w}.{name}: dv magnitude must be <= {_shown(MAX_MAGNITUDE, angle)}, "
                           f"got {_shown(max(h[1:], key=abs), angle)}")
    if len(out) == found:
        _remember_fine(ch.keys, (dim, lo, hi, values, stepped))  # handles set by hand: checked once


def _steps(out, where, ch: StepChannel, allowed, what: str = "space"):
    if ch.default not in allowed:
        out.append(f"{where}.default: unknown {what} {ch.default!r}")
    previous = None
    for k, (frame, value) in enumerate(ch.keys):
        if value not in allowed:
            out.append(f"{where}.keys[{k}].value: unknown {what} {value!r}")
        if previous is not None and frame <= previous:
            out.append(f"{where}.keys[{k}].frame: keys must be in increasing frame order, got {frame:g} after "
                       f"{previous:g}")
        previous = frame


_fine: dict = {}  # id(keys) -> (keys, check arguments): key tuples found fine


def _keys_look_fine(keys, dim, lo, hi, values, stepped) -> bool:
    """Whole-array checks of a channel's keys: True when none can be a problem, so
    the per-key loop (which words each problem) runs only for a channel that has one.
    A 100,000-key project validates in a few numpy passes instead of a Python loop.
    Keys are immutable and an edit replaces only the channels it changes, so a tuple
    found fine is not checked again (a drag in a 20,000-key project revalidates one
    channel a move, not all of them)."""
    if not keys:
        return True
    args = (dim, lo, hi, values, stepped)
    hit = _fine.get(id(keys))
    if hit is not None and hit[0] is keys and hit[1] == args:
        return True
    if not _check_keys(keys, dim, lo, hi, values, stepped):
        return False
    _remember_fine(keys, args)
    return True


def _remember_fine(keys, args) -> None:
    if len(_fine) > 4096:
        _fine.clear()
    _fine[id(keys)] = (keys, args)


def _check_keys(keys, dim, lo, hi, values, stepped) -> bool:
    interps = {k.interp for k in keys}
    if not interps <= (frozenset({"constant"}) if stepped else _INTERPS):
        return False
    if any(k.out_handle is not None or k.in_handle is not None for k in keys):
        return False  # rare: let the loop check the handles
    try:
        vals = np.array([k.value for k in keys], dtype=float)
        frames = np.array([k.frame for k in keys])
    except (ValueError, TypeError):
        return False
    if vals.shape != (len(keys), dim) or frames.ndim != 1:
        return False
    if not (np.all(np.abs(vals) <= MAX_MAGNITUDE) and np.all(np.diff(frames) > 0)):
        return False  # NaN fails the comparison too
    if lo is not None and not np.all((vals >= lo) & (vals <= hi)):
        return False
    return values is None or bool(np.all(np.isin(vals, values)))


_INTERPS = frozenset(INTERPOLATIONS)
