"""Keeping boxes and clipping polygons consistent when what they name changes: a
renamed bone in a weighted polygon's bones, a renamed or deleted slot as a clipping
polygon's end (deleted: it clips to the end of the draw order, as Spine's runtimes
clip without an end slot)."""
from __future__ import annotations

from dataclasses import replace

from rigeditor.model.data.project import Project
from rigeditor.model.data.shapes import ShapeAttachment


def _each_shape(project: Project, change) -> Project:
    slots = []
    for s in project.art.slots:
        atts = tuple(change(a) if isinstance(a, ShapeAttachment) else a for a in s.attachments)
        slots.append(s if atts == s.attachments else replace(s, attachments=atts))
    return replace(project, art=replace(project.art, slots=tuple(slots)))


def renamed_bone_in_shapes(project: Project, old: str, new: str) -> Project:
    return _each_shape(project, lambda a: replace(a, bones=tuple(new if b == old else b for b in a.bones))
                       if old in a.bones else a)


def renamed_end_slot(project: Project, old: str, new: str) -> Project:
    return _each_shape(project, lambda a: replace(a, end=new) if a.end == old else a)


def deleted_end_slot(project: Project, slot: str) -> Project:
    return _each_shape(project, lambda a: replace(a, end="") if a.end == slot else a)


__all__ = ["renamed_bone_in_shapes", "renamed_end_slot", "deleted_end_slot"]
