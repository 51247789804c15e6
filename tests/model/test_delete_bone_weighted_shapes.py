"""Deleting a bone a weighted box (or path) is weighted to: the polygon lets go of it and
stays where it is in the rest pose (before, the project kept a name of a bone that was
gone, and the edit was refused)."""
import math
from dataclasses import replace

import numpy as np
import pytest

from rigeditor import edits
from rigeditor.model import evaluate
from rigeditor.model.data.attachments import Art, Slot
from rigeditor.model.data.path_attachment import PathAttachment
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.shapes import BOX, ShapeAttachment
from rigeditor.model.data.timeline import StepChannel
from rigeditor.model.validation.project import problems


WORLD_POINTS = np.array([[7.6, 1.4], [5.9, 2.1], [5.1, 1.0]])


def _rig():
    """hip -> leg -> foot (turned, offset); a box weighted to leg and foot: vertex 0
    to the foot alone, vertex 1 shared 0.3 / 0.7, vertex 2 to the leg alone, each
    influence holding its vertex where WORLD_POINTS puts it in the rest pose (as
    Spine writes them); a weighted path on the same bones."""
    bones = (Bone("hip", None, 3.0, (1.0, 2.0), 0.3), Bone("leg", "hip", 4.0, (3.0, 0.0), -0.8),
             Bone("foot", "leg", 2.0, (4.0, 0.0), 1.1))
    bare = Project(timeline=Timeline(24.0, 0, 0), bones=bones)
    frames = _frames(bare)

    def local(bone, p):
        a, o = frames[bone]
        d = p - o
        return float(math.cos(a) * d[0] + math.sin(a) * d[1]), float(-math.sin(a) * d[0] + math.cos(a) * d[1])

    names = ("leg", "foot")
    weights = ({"foot": 1.0}, {"leg": 0.3, "foot": 0.7}, {"leg": 1.0})
    infl = tuple(tuple((names.index(b), *local(b, p), w) for b, w in ws.items())
                 for p, ws in zip(WORLD_POINTS, weights))
    box = ShapeAttachment("box", kind=BOX, bones=names, influences=infl)
    path = PathAttachment("p", bones=names, influences=infl, vertices=(), lengths=(5.0,))
    slot = Slot("s", "hip", (box,), attachment=StepChannel("box"), paths=(path,))
    return replace(bare, art=Art(slots=(slot,)))


def _frames(project):
    """Each bone's rest frame in character space by hand: (angle, origin)."""
    frames = {}
    for b in project.bones:
        a, (ox, oy) = b.rest_rotation, b.rest_offset
        if b.parent is None:
            frames[b.name] = (a, np.array([ox, oy]))
        else:
            pa, po = frames[b.parent]
            frames[b.name] = (pa + a, po + np.array([math.cos(pa) * ox - math.sin(pa) * oy,
                                                     math.sin(pa) * ox + math.cos(pa) * oy]))
    return frames


def _world(project, bones, influences):
    """Each weighted vertex in the rest pose: the weighted sum of its bones' rest
    frames (by hand) applied to its positions."""
    frames = _frames(project)
    out = []
    for vertex in influences:
        p = np.zeros(2)
        for i, x, y, w in vertex:
            a, o = frames[bones[i]] if bones[i] != "character" else (0.0, np.zeros(2))
            p += w * (o + np.array([math.cos(a) * x - math.sin(a) * y, math.sin(a) * x + math.cos(a) * y]))
        out.append(p)
    return np.array(out)


@pytest.mark.parametrize("gone", ["foot", "leg"])
def test_a_weighted_box_lets_go_of_a_deleted_bone_and_stays_put(gone):
    project = _rig()
    box = project.art.slots[0].attachments[0]
    before = _world(project, box.bones, box.influences)
    assert np.allclose(before, WORLD_POINTS, atol=1e-12)
    after_project = edits.delete_bone(project, gone)
    assert not problems(after_project)
    shaped = after_project.art.slots[0].attachments[0]
    assert all(b in {x.name for x in after_project.bones} | {"character"} for b in shaped.bones)
    assert np.allclose(_world(after_project, shaped.bones, shaped.influences), before, atol=1e-9)
    bake = evaluate(after_project)  # and it evaluates: the box is drawn where it was
    assert np.allclose(bake.art.shapes[0].vertices(0), before, atol=1e-9)
    path = after_project.art.slots[0].paths[0]
    assert path.bones == shaped.bones and path.influences == shaped.influences


def test_renaming_a_bone_renames_it_in_weighted_paths_too():
    from rigeditor.edits.art import renamed_bone_in_slots

    project = renamed_bone_in_slots(_rig(), "foot", "toe")
    assert project.art.slots[0].paths[0].bones == ("leg", "toe")
    assert project.art.slots[0].attachments[0].bones == ("leg", "toe")
