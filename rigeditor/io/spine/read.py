"""``rigeditor import-spine SKELETON.json [--atlas A.atlas] -o PROJECT.rigproj``: a
Spine 4.0-4.2 skeleton becomes a RigEditor project.

Mapping (docs/file-format.md has the table):

- Spine's root bone is the ``character`` space (its x, y, rotation, scale and their
  timelines); every other bone is a bone (length, x, y, rotation, scale), a root's
  child having no parent bone. A length of 0 (a point in Spine) becomes ``POINT_LENGTH``.
- Slots keep their bone, setup attachment and draw order; the skins' region
  attachments become pictures cut out of the atlas pages (``read_attachments``,
  ``read_atlas``) and written beside the project as ``STEM_images/REGION.png``, their
  meshes meshes on those pictures (``read_mesh``).
- Every animation becomes a clip (``spine_anim``), ``animation`` the open one.
- A two-bone IK constraint becomes an analytic chain (bendPositive -> bend,
  softness -> soft reach, mix, stretch -> the stretch strategy). Its Spine target is
  a bone (softness eases the reach quadratically, as Spine's does: ``soft_reach``);
  the RigEditor target is a position in a declared space: the target bone's
  own x, y (and translate keys) in the space of its parent, which is ``character``
  when the parent is the root, else a space named after the parent bone that
  follows it (its transform baked per frame from the evaluated parent bone). A target
  bone that carries nothing else (no child bones, no slots) is only a target.
- A chain's child may sit off its parent's axis or short of its tip, as in Spine: the
  solver bends the segment to the child's origin and every bone keeps its frame
  (``constraints/segments.py``); a stretching chain's child is placed on the axis at
  its x, as Spine's stretching IK places it.

A RigEditor export carries what Spine lacks in ``skeleton.rigeditor``: its spaces,
targets, chains and authored keys are rebuilt from there (``read_roundtrip``).

Whatever cannot be imported is listed, one warning per kind (``ImportResult.warnings``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

from rigeditor.io.art.layers import refuse_existing, relative, write_import
from rigeditor.io.spine.read_attachments import AtlasPages, bind_meshes, read_art
from rigeditor.io.spine.read_ik_flags import keyed_on
from rigeditor.io.spine.read_ik_uneven import scaled_unevenly
from rigeditor.io.spine.read_mesh import weight_bones
from rigeditor.io.spine.read_events import event_definitions
from rigeditor.model.data.events import Events
from rigeditor.io.spine.read_path import path_bones, path_constraints
from rigeditor.io.spine.skeleton import SECTIONS, SpineError, SpineSkeleton, constraint_moved, read_spine
from rigeditor.model.data.project import CHARACTER, WORLD, Bone, Chain, Project, Space, Target
from rigeditor.model.data.project import MAX_SOFTNESS, POINT_LENGTH as _POINT
from rigeditor.model.data.skins import CONSTRAINT_FIELDS
from rigeditor.model.data.timeline import StepChannel, constant
from rigeditor.model.validation.project import MAX_MAGNITUDE
from rigeditor.model.validation.chain_bones import spine_like
from rigeditor.model.validation.spine_ik import solvable_scale

POINT_LENGTH = _POINT
"""Model units given to a Spine bone of length 0 (RigEditor bones have a length; one
this short is a point to every constraint: ``Bone.measured_length``)."""


@dataclass
class ImportResult:
    """project; images: {file name: RGBA array}; warnings: one line per kind of thing
    not imported; animation: the open one (None without animations)."""

    project: Project
    images: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)
    animation: str | None = None


class Notes:
    """Things not imported, gathered per kind: one warning line each."""

    def __init__(self):
        self.kinds: dict[str, list[str]] = {}

    def add(self, kind: str, item: str = "") -> None:
        items = self.kinds.setdefault(kind, [])
        if item and item not in items:
            items.append(item)

    def lines(self) -> list[str]:
        out = []
        for kind, items in self.kinds.items():
            shown = ", ".join(items[:12]) + (f" and {len(items) - 12} more" if len(items) > 12 else "")
            out.append(f"{kind}: {shown}" if items else kind)
        return out


def import_spine(skeleton, out, *, atlas=None, animation: str | None = None, force: bool = False,
                 curves: str = "runtime") -> ImportResult:
    """Read ``skeleton`` (and its atlas: ``atlas`` or the .atlas beside it), write the
    project to ``out`` and its pictures to ``OUT_STEM_images/``. Nothing is written
    when anything is wrong (SpineError). curves: "authored" (editable bezier curves) or
    "runtime" (as Spine's runtimes play them, see ``spine_anim.apply_animation``)."""
    skeleton, out = Path(skeleton), Path(out)
    skel = read_spine(skeleton)
    folder = out.with_name(f"{out.stem}_images")
    refuse_existing([out, folder], force)
    needs_atlas = any(a.get("type", "region") in ("region", "mesh", "linkedmesh") for skin in skel.skins.values()
                      for slot in (skin.get("attachments") or {}).values() for a in slot.values())
    atlas_path = Path(atlas) if atlas else skeleton.with_suffix(".atlas")
    pages = None
    if needs_atlas or atlas:
        pages = AtlasPages(atlas_path)
    base = out.parent if str(out.parent) else Path(".")
    try:
        result = spine_project(skel, pages, name=out.stem, animation=animation,
                               image_folder=relative(folder, base), source=skeleton, curves=curves)
    except SpineError as exc:
        if exc.path != "<memory>":
            raise
        raise SpineError(skeleton, exc.problems) from None  # the mapping's refusals name the skeleton file
    from rigeditor.io.art.images import encode_png

    write_import(result.project, out, folder, {n: encode_png(img) for n, img in result.images.items()})
    return result


def spine_project(skel: SpineSkeleton, pages: AtlasPages | None, *, name: str = "spine",
                  animation: str | None = None, image_folder: str = "images", source=None,
                  curves: str = "runtime") -> ImportResult:
    """The project of ``skel`` (pictures from ``pages``), without writing anything."""
    from rigeditor.io.spine.read_anim import bake_target_spaces

    notes = Notes()
    root = skel.bones[0]
    character = Space(CHARACTER, WORLD, constant(root.x, root.y), constant(math.radians(root.rotation)),
                      constant(*root.scale), constant(*(math.radians(s) for s in root.shear)))
    parent_of = {b.name: (None if b.parent == root.name else b.parent) for b in skel.bones[1:]}
    bones: dict[str, Bone] = {}
    for b in skel.bones[1:]:
        bones[b.name] = Bone(b.name, parent_of[b.name], b.length if b.length > 0 else POINT_LENGTH,
                             (b.x, b.y), math.radians(b.rotation), scale=constant(*b.scale),
                             shear=constant(*(math.radians(s) for s in b.shear)), inherit=StepChannel(b.inherit))

    slot_bones = {s.bone for s in skel.slots}
    chains, targets, spaces, target_of = _constraints(skel, bones, parent_of, slot_bones, notes)
    for chain in chains:  # a chain that cannot solve Spine's frame rules solves plain frames: T . R . S
        for driven in chain.bones:
            if bones[driven].spine_frame and not spine_like(chain):
                notes.add("shear or inherit modes on bones an IK chain drives (dropped)", driven)
                bones[driven] = replace(bones[driven], shear=constant(0.0, 0.0), inherit=StepChannel("normal"))
    only = target_only(skel, slot_bones)  # once: it reads every weighted mesh
    for t in targets.values():
        if t.name in only and t.name in bones:
            del bones[t.name]
    for world_bone in world_bones(skel, slot_bones):
        bones.pop(world_bone, None)
    if skel.other.get("unread_transform"):
        notes.add("bone inherit modes written as 'transform' in a 4.2 file (the 4.2 runtimes read only "
                  "'inherit': played as normal, as they play it)", ", ".join(skel.other["unread_transform"]))
    art, images, pending = read_art(skel, pages, bones, root.name, image_folder, notes)

    from rigeditor.io.spine.read_transform import transform_constraints

    count = len(skel.ik) + sum(len(skel.other.get(k) or []) for k in ("transform", "path", "physics"))
    transforms = transform_constraints(skel.other.get("transform"), bones, root.name, {}, notes, source,
                                       {c.order for c in skel.ik}, count)
    paths = path_constraints(skel.other.get("path"), bones, root.name, {s.name: s for s in art.slots}, notes,
                             source, {c.order for c in skel.ik} | {t.order for t in transforms}, count)
    from rigeditor.io.spine.read_physics import physics_constraints

    physics = physics_constraints(skel.other.get("physics"), bones, root.name, notes, source,
                                  {c.order for c in skel.ik} | {t.order for t in transforms} | {p.order for p in paths}, count,
                                  skel.other.get("referenceScale", 100.0))
    project = Project(name=name, spaces=(character,) + tuple(spaces.values()), bones=tuple(bones.values()),
                      targets=tuple(targets.values()), chains=tuple(chains), transforms=transforms, paths=paths,
                      art=art, events=Events(event_definitions(skel.other.get("events"))),
                      physics=physics)
    project = replace(project, art=replace(project.art, skin_constraints=skin_constraints(skel, project, notes)))
    _check(project, source)  # before evaluating it: an invalid rig may not evaluate
    project = bind_meshes(project, skel, pending, notes)
    project = bake_target_spaces(project, spaces, {}, keyed=False)
    project, chosen = _animations(project, skel, animation, target_of, notes, curves, spaces, source)
    from rigeditor.io.spine.read_roundtrip import restore

    project, chosen = restore(project, skel, notes, chosen)  # a RigEditor export: what Spine lacks
    _check(project, source)
    return ImportResult(project, images, notes.lines(), chosen)


_KINDS = tuple((SECTIONS[kind], kind, field) for kind, field in CONSTRAINT_FIELDS.items())
"""(Spine's section, the skin item's kind, the Project field) per kind of constraint."""


def skin_constraints(skel: SpineSkeleton, project: Project, notes) -> tuple:
    """Art.skin_constraints: per skin, the skin-required constraints it lists (Spine's
    ``"skin": true``; a listed one without it acts always, as in Spine)."""
    required = {("ik", c.name) for c in skel.ik if c.skin} | {
        (kind, c.get("name")) for kind in ("transform", "path", "physics")
        for c in skel.other.get(kind) or [] if isinstance(c, dict) and c.get("skin") is True}
    ours = {(spine, c.name): f"{prefix}:{c.name}" for spine, prefix, field in _KINDS for c in getattr(project, field)}
    out, listed = [], set()
    for name, skin in skel.skins.items():
        items = tuple(ours[k, c] for k, _, _ in _KINDS for c in (skin.get(k) or ())
                      if (k, c) in required and (k, c) in ours)
        listed |= {(k, c) for k, _, _ in _KINDS for c in (skin.get(k) or ())}
        if items and name == "default":
            notes.add("skin constraints in the default skin (acting always)", name)
        elif items:
            out.append((name, items))
    skin_bones = {b.name for b in skel.bones if b.skin}
    slot_bone = {sl.name: sl.bone for sl in skel.slots}
    on_skin_bones = sorted({c.name for c in skel.ik if c.target in skin_bones} | {
        c.get("name") for kind, key in (("transform", "target"), ("physics", "bone"), ("path", "target"))
        for c in skel.other.get(kind) or [] if isinstance(c, dict)
        and (c.get(key) if kind != "path" else slot_bone.get(c.get(key))) in skin_bones} - {c for _, c in required})
    if on_skin_bones:  # (Spine leaves a constraint out while its target's skin is off)
        notes.add("constraints on skin bones that are not skin constraints themselves (acting whichever skin is on)",
                  ", ".join(str(n) for n in on_skin_bones))
    lost = sorted(c for k, c in required - listed) + sorted(c for k, c in required & listed if (k, c) not in ours)
    if lost:
        notes.add("skin constraints no skin brings or RigEditor has no constraint for (acting always)", ", ".join(lost))
    return tuple(out)


def target_only(skel: SpineSkeleton, slot_bones) -> set[str]:
    """IK target bones that carry nothing: no child bones, no slots, in no IK chain."""
    parents = {b.parent for b in skel.bones}
    driven = {b for c in skel.ik for b in c.bones}
    carried = weight_bones(skel) | path_bones(skel) | constraint_moved(skel) | {
        c.get("target") for c in skel.other.get("transform") or [] if isinstance(c, dict)}
    return {c.target for c in skel.ik if c.target not in parents and c.target not in slot_bones
            and c.target not in driven and c.target not in carried and c.target != skel.bones[0].name}


def world_bones(skel: SpineSkeleton, slot_bones) -> set[str]:
    """Bones that stand for the world (as RigEditor's export writes it: a bone named
    ``world`` under the root, at its origin, carrying only IK targets, keyed to cancel
    the root's motion): the targets under one are declared in world."""
    root = skel.bones[0].name
    only = target_only(skel, slot_bones)
    children: dict[str, list[str]] = {}
    for b in skel.bones:
        children.setdefault(b.parent, []).append(b.name)
    return {b.name for b in skel.bones[1:]
            if b.name == WORLD and b.parent == root and b.length == 0 and (b.x, b.y, b.rotation) == (0, 0, 0)
            and b.scale == (1.0, 1.0) and b.name not in slot_bones and b.name not in weight_bones(skel) | path_bones(skel)
            and children.get(b.name) and all(c in only for c in children[b.name])}


def _constraints(skel, bones, parent_of, slot_bones, notes):
    """(chains, targets, target spaces, {constraint: (chain, target)})."""
    root = skel.bones[0].name
    spine = {b.name: b for b in skel.bones}
    chains, targets, spaces, target_of = [], {}, {}, {}
    world = world_bones(skel, slot_bones)
    for c in skel.ik:
        if len(c.bones) == 1:
            chain = _aim_chain(c, skel, bones, notes)
            if chain is not None:
                _target(c, skel, spine, targets, spaces, world)
                chains.append(chain)
                target_of[c.name] = (chain, max(bones[c.bones[0]].length, 1e-9))
            continue
        if len(c.bones) != 2:
            notes.add("IK constraints on more than two bones (Spine plays one or two)", c.name)
            continue
        parent, child = c.bones
        if root in c.bones or spine[child].parent != parent:
            notes.add("IK constraints on the root or on bones that are not parent and child", c.name)
            continue
        cx, cy = spine[child].x, spine[child].y
        reach = math.hypot(cx, cy)
        if reach > MAX_MAGNITUDE:  # the parent's length in RigEditor
            at = f"bones[{[b.name for b in skel.bones].index(child)}]"
            raise SpineError(None, [f"{at}.x, {at}.y: ({cx:g}, {cy:g}) puts IK child {child!r} {reach:g} from its "
                                    f"parent's origin, RigEditor's parent length (magnitude <= {MAX_MAGNITUDE:g})"])
        if reach <= 1e-9:
            notes.add("IK constraints whose child bone starts on its parent's origin", c.name)
            continue
        # The solver bends the segment from the parent's origin to the child's, as
        # Spine's IK measures it, and the bones keep their frames. A stretching chain
        # measures (and places) the child on its parent's axis, as Spine does.
        if (c.stretch or keyed_on(skel, c.name, "stretch") or scaled_unevenly(skel, parent)) and abs(cx) <= 1e-9 < abs(cy):
            # (Spine measures such a child on its parent's axis: at the origin.)
            notes.add("IK constraints whose child bone starts on its parent's origin", c.name)
            continue
        if (c.stretch or keyed_on(skel, c.name, "stretch")) and abs(cy) > 0.0:
            notes.add("stretching IK children off their parent's axis (placed on it at x, as Spine's "
                      "stretching IK does)", child)
            bones[child] = replace(bones[child], rest_offset=(cx, 0.0))
        for k, name in enumerate(c.bones):
            if bones[name].scale.default != (1.0, 1.0) and not solvable_scale(bones[name].scale, k, None):
                notes.add("setup scale 0 along y on the first bone of a two-bone IK chain (dropped: Spine's "
                          "solve divides by it)", name)
                bones[name] = replace(bones[name], scale=constant(1.0, 1.0))
        _target(c, skel, spine, targets, spaces, world)
        total = math.hypot(*bones[child].rest_offset) + bones[child].length  # the segments
        # Spine's two-bone IK has no compress, and uniform only goes with stretch (set up or keyed).
        flags = (("stretch",) if c.stretch else ()) + (
            ("uniform",) if c.uniform and (c.stretch or keyed_on(skel, c.name, "stretch")) else ())
        chains.append(Chain(c.name, c.bones, c.target, "analytic", constant(1.0 if c.bend_positive else -1.0),
                            constant(min(c.softness / total, MAX_SOFTNESS)), constant(min(max(c.mix, 0.0), 1.0)),
                            soft_reach="quadratic", spine_scale=flags, order=c.order))  # softness, stretch as Spine plays them
        target_of[c.name] = (chains[-1], total)
    return chains, targets, spaces, target_of


def _target(c, skel, spine, targets, spaces, world) -> None:
    """The constraint's target bone as a target (once per bone), in its parent's space
    (``world``: the bones that stand for the world space, as the export writes it)."""
    root = skel.bones[0].name
    tb = spine[c.target]
    if c.target in constraint_moved(skel) and c.target != root:
        # A transform, path or physics constraint moves the target bone itself: the
        # target rides the bone's own frame (a space baked from its pose) at its origin.
        space = _space_name(c.target, spaces)
        spaces.setdefault(c.target, Space(space, CHARACTER))
        targets.setdefault(c.target, Target(c.target, StepChannel(space), constant(0.0, 0.0)))
        return
    space = CHARACTER if tb.parent in (None, root) else _space_name(tb.parent, spaces)
    if tb.parent in world:
        space = WORLD
    elif space != CHARACTER:
        spaces.setdefault(tb.parent, Space(space, CHARACTER))
    if c.target == root:
        space, position = CHARACTER, (0.0, 0.0)
    else:
        position = (tb.x, tb.y)
    targets.setdefault(c.target, Target(c.target, StepChannel(space), constant(*position)))


def _aim_chain(c, skel, bones, notes):
    """A one-bone constraint as an aim chain (None, with a note, where it cannot be)."""
    (name,) = c.bones
    if name == skel.bones[0].name:
        notes.add("IK constraints on the root or on bones that are not parent and child", c.name)
        return None
    flags = (("stretch",) if c.stretch else ()) + (("compress",) if c.compress else ())
    flags += ("uniform",) if c.uniform and (flags or any(keyed_on(skel, c.name, f) for f in ("stretch", "compress"))) else ()
    return Chain(c.name, c.bones, c.target, "aim", mix=constant(min(max(c.mix, 0.0), 1.0)), spine_scale=flags,
                 order=c.order)  # (Spine runs it among the others by order)


def _space_name(bone: str, spaces: dict) -> str:
    if bone in spaces:
        return spaces[bone].name
    taken = {CHARACTER, WORLD} | {s.name for s in spaces.values()}
    name, n = bone, 1
    while name in taken:
        n += 1
        name = f"{bone}_{n}"
    return name


def _animations(project, skel, animation, chains, notes, curves, spaces, source):
    """(project with every animation of ``skel`` as its clips, ``animation`` (default:
    the first) open, the open one's name or None)."""
    from rigeditor.io.spine.read_anim import apply_animation, bake_target_spaces
    from rigeditor.io.spine.read_keys import frame_rate, key_times
    from rigeditor.model.data.clips import tracks_of
    from rigeditor.model.data.project import Animation, Timeline

    names = list(skel.animations)
    if animation is not None and animation not in names:
        raise SpineError(source, [f"--animation: no animation {animation!r} (it has: {', '.join(names) or 'none'})"])
    if not names:
        return replace(project, timeline=Timeline(fps=skel.fps or 30.0, start=0, end=0)), None
    fps, _ = frame_rate([t for n in names for t in key_times(skel.animations[n])], skel.fps)
    chosen = animation if animation is not None else names[0]
    posed = {}
    for name in names:
        p = apply_animation(project, skel, name, chains, notes, curves=curves, fps=fps)
        _check(p, source)
        posed[name] = bake_target_spaces(p, spaces, {}, keyed=True)
    clips = tuple(Animation(n, p.timeline.start, p.timeline.end, {} if n == chosen else tracks_of(p),
                            p.timeline.exact_end) for n, p in posed.items())
    return replace(posed[chosen], animations=clips, animation=chosen), chosen


def _check(project: Project, source) -> None:
    from rigeditor.model.validation.project import problems as validate

    problems = validate(project)
    if problems:
        raise SpineError(source, [f"import: the mapped rig is invalid: {problems[0]}"])
