"""Path constraint edits: add, set, delete, refusals; bone and slot edits carry them."""
import math

import numpy as np
import pytest

from rigeditor import edits
from rigeditor.edits import EditError
from rigeditor.model.data.attachments import Art, Slot
from rigeditor.model.data.path_attachment import PathAttachment
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import StepChannel
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems

LINE = ((-50.0, 0.0), (0.0, 0.0), (50.0, 0.0), (100.0, 0.0), (150.0, 0.0), (200.0, 0.0))


def rig():
    path = PathAttachment("p", LINE, lengths=(150.0, 150.0))
    weighted = PathAttachment("w", (), bones=("b1",), influences=tuple(((0, x, y, 1.0),) for x, y in LINE),
                              lengths=(150.0, 150.0))
    return Project(timeline=Timeline(30.0, 0, 2),
                   bones=(Bone("holder", None, 5.0), Bone("b0", None, 20.0, (0.0, 30.0)),
                          Bone("b1", "b0", 10.0, (20.0, 0.0))),
                   art=Art((Slot("track", "holder", (), StepChannel("p"), paths=(path, weighted)),)))


def x_of(project, bone):
    bake = evaluate(project)
    return float(np.broadcast_to(bake.bone_bakes[bake.bones.index(bone)].world.tx, bake.frames.shape)[0])


def test_add_set_and_delete_a_path_constraint():
    p = edits.add_path(rig(), ["b0", "b1"], "track", position_mode="fixed")
    c = p.paths[0]
    assert (c.name, c.bones, c.target, c.order) == ("track_path", ("b0", "b1"), "track", 0)
    assert problems(p) == []
    p = edits.set_path_value(p, "track_path", "position", 60.0)
    assert x_of(p, "b0") == pytest.approx(60.0, abs=1e-9)  # 60 units along the line from the holder
    assert x_of(p, "b1") == pytest.approx(60.0 + 20.0, abs=1e-9)  # length spacing 0: the bone's length on
    p = edits.set_path(p, "track_path", spacing_mode="fixed", offset_rotation=math.radians(10))
    p = edits.set_path_value(p, "track_path", "spacing", 5.0)
    assert x_of(p, "b1") == pytest.approx(65.0, abs=1e-9)
    assert edits.add_path(p, ["b1"], "track").paths[1].order == 1  # after every constraint
    assert edits.delete_path(p, "track_path").paths == ()


@pytest.mark.parametrize("change, message", [
    (dict(rotate_mode="spin"), "'rotate_mode' is one of tangent, chain, chainScale"),
    (dict(target="nowhere"), "There is no slot named 'nowhere'"),
    (dict(bones=["b0", "b0"]), "listed twice"),
    (dict(bones=[]), "at least one bone"),
    (dict(offset_rotation=math.inf), "'offset_rotation' must be a finite number"),
    (dict(order=1.5), "order is a whole number"),
    (dict(colour=1), "no setting 'colour'"),
])
def test_what_a_path_constraint_cannot_have_is_refused(change, message):
    p = edits.add_path(rig(), ["b0"], "track", name="pc")
    with pytest.raises(EditError, match=message):
        edits.set_path(p, "pc", **change)
    with pytest.raises(EditError, match="no value 'mix'"):
        edits.set_path_value(p, "pc", "mix", 1.0)


def test_renaming_and_deleting_bones_and_slots_carries_the_constraint():
    p = edits.add_path(rig(), ["b0", "b1"], "track", name="pc")
    p = edits.rename(p, "bone", "b1", "tip")
    p = edits.rename(p, "slot", "track", "rail")
    assert (p.path("pc").bones, p.path("pc").target) == (("b0", "tip"), "rail")
    assert p.art.slot("rail").paths[1].bones == ("tip",)
    assert problems(p) == []
    gone = edits.delete(p, "bone", "tip")
    # The path weighted wholly to the deleted bone stays where it was, on its parent.
    assert gone.path("pc").bones == ("b0",) and [x.name for x in gone.art.slot("rail").paths] == ["p", "w"]
    assert gone.art.slot("rail").paths[1].bones == ("b0",)
    assert problems(gone) == []
    assert edits.delete(p, "slot", "rail").paths == ()
    assert edits.rename(p, "path", "pc", "rail_follow").path("rail_follow").bones == ("b0", "tip")
