"""Keeping boxes and clipping polygons consistent when what they name changes: a
renamed bone in a weighted polygon's bones, deleted bones (a weighted box, clipping
polygon or path lets go of them), a renamed or deleted slot as a clipping polygon's end
(deleted: it clips to the end of the draw order, as Spine's runtimes clip without an
end slot)."""
from __future__ import annotations

from dataclasses import replace

from rigeditor.model.data.project import CHARACTER, Project
from rigeditor.model.data.rest import rest_frame
from rigeditor.model.data.shapes import ShapeAttachment


def _each_shape(project: Project, change) -> Project:
    slots = []
    for s in project.art.slots:
        atts = tuple(change(a) if isinstance(a, ShapeAttachment) else a for a in s.attachments)
        slots.append(s if atts == s.attachments else replace(s, attachments=atts))
    return replace(project, art=replace(project.art, slots=tuple(slots)))


def renamed_bone_in_shapes(project: Project, old: str, new: str) -> Project:
    """Weighted boxes, clipping polygons and paths name bone ``old`` as ``new``."""
    def rn(a):
        return replace(a, bones=tuple(new if b == old else b for b in a.bones)) if old in a.bones else a

    project = _each_shape(project, rn)
    slots = tuple(replace(s, paths=tuple(map(rn, s.paths))) if any(old in p.bones for p in s.paths) else s
                  for s in project.art.slots)
    return replace(project, art=replace(project.art, slots=slots))


def renamed_end_slot(project: Project, old: str, new: str) -> Project:
    return _each_shape(project, lambda a: replace(a, end=new) if a.end == old else a)


def deleted_end_slot(project: Project, slot: str) -> Project:
    return _each_shape(project, lambda a: replace(a, end="") if a.end == slot else a)


def dropped_bones_in_shapes(project: Project, gone) -> Project:
    """Before deleting the bones ``gone``: weighted boxes, clipping polygons and paths
    let go of them. A vertex keeps its other influences, their weights renormalised
    (each influence holds the vertex where it is in the rest pose, so it stays there);
    a vertex left with none follows the nearest kept bone above its heaviest one (or
    the character space) with weight 1, from where it is in the rest pose."""
    gone = set(gone)

    def change(a):
        if not a.influences or gone.isdisjoint(a.bones):
            return a
        bones = [b for b in a.bones if b not in gone]
        vertices = []
        for vertex in a.influences:
            kept = [(a.bones[i], x, y, w) for i, x, y, w in vertex if a.bones[i] not in gone]
            total = sum(w for *_, w in kept)
            if kept and total > 0:
                vertices.append([(b, x, y, w / total) for b, x, y, w in kept])
                continue
            heaviest = max(vertex, key=lambda inf: inf[3])[0]
            keeper = _kept_above(project, a.bones[heaviest], gone)
            wsum = sum(w for *_, w in vertex) or 1.0
            world = sum((w / wsum) * rest_frame(project, _bone(a.bones[i])).apply((x, y)) for i, x, y, w in vertex)
            lx, ly = (float(v) for v in rest_frame(project, _bone(keeper)).inverse().apply(world))
            if keeper not in bones:
                bones.append(keeper)
            vertices.append([(keeper, lx, ly, 1.0)])
        index = {b: k for k, b in enumerate(bones)}
        influences = tuple(tuple((index[b], float(x), float(y), float(w)) for b, x, y, w in v) for v in vertices)
        return replace(a, bones=tuple(bones), influences=influences)

    slots = []
    for s in project.art.slots:
        atts = tuple(change(a) if isinstance(a, ShapeAttachment) else a for a in s.attachments)
        paths = tuple(change(p) for p in s.paths)
        slots.append(s if atts == s.attachments and paths == s.paths else replace(s, attachments=atts, paths=paths))
    return replace(project, art=replace(project.art, slots=tuple(slots)))


def _bone(name):
    """A weighted vertex's holder as ``rest_frame`` takes it (the character space: None)."""
    return None if name == CHARACTER else name


def _kept_above(project, bone, gone):
    while bone is not None and bone != CHARACTER and bone in gone:
        bone = project.bone(bone).parent
    return CHARACTER if bone is None else bone


__all__ = ["renamed_bone_in_shapes", "renamed_end_slot", "deleted_end_slot", "dropped_bones_in_shapes"]
