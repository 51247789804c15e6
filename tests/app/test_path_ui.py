"""Path constraints in the editor (pytest-qt, offscreen): listed in the outliner,
modes and values edited in the inspector as one undo step each, the path drawn in
the scene in Setup and Animate mode."""
from __future__ import annotations

import math

import numpy as np
import pytest

from fakes import FakeDialogs
from rigeditor import edits
from rigeditor.app.document import Document
from rigeditor.app.inspector import Inspector
from rigeditor.app.outliner import Outliner
from rigeditor.model.data.attachments import Art, Slot
from rigeditor.model.data.path_attachment import PathAttachment
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import StepChannel

# an S-shaped open path of three points (handle, point, handle each)
CURVY = ((-40, -30), (0, 0), (40, 30), (60, 80), (100, 100), (140, 90), (170, 40), (200, 0), (230, -30))


def rig():
    bones = (Bone("holder", None, 10.0, (-100.0, -50.0), 0.2),
             Bone("b0", None, 40.0, (-150.0, 60.0)), Bone("b1", "b0", 35.0, (40.0, 0.0)),
             Bone("b2", "b1", 30.0, (35.0, 0.0)))
    path = PathAttachment("rail", tuple((float(x), float(y)) for x, y in CURVY), lengths=(0.0,) * 3)
    p = Project(timeline=Timeline(24.0, 0, 24), bones=bones,
                art=Art((Slot("track", "holder", (), StepChannel("rail"), paths=(path,)),)))
    return edits.add_path(p, ["b0", "b1", "b2"], "track", name="follow", rotate_mode="chain")


def test_the_outliner_lists_path_constraints_and_selects_them(qtbot):
    doc = Document(rig())
    w = Outliner(doc, FakeDialogs())
    qtbot.addWidget(w)
    group = w.group("path")
    assert [group.child(i).text(0) for i in range(group.childCount())] == ["follow"]
    w.item_for("path", "follow").setSelected(True)
    assert doc.selection == (("path", "follow"),)
    assert "b0, b1, b2 along the path of slot track" in w.item_for("path", "follow").toolTip(0)


def test_each_mode_and_value_is_one_undo_step(qtbot):
    doc = Document(rig())
    w = Inspector(doc, FakeDialogs())
    qtbot.addWidget(w)
    doc.select([("path", "follow")])
    before = doc.project
    mode = w.field("path.follow.rotate_mode")
    mode.setCurrentIndex(mode.findData("chainScale"))
    assert doc.project.path("follow").rotate_mode == "chainScale"
    spacing = w.field("path.follow.spacing_mode")
    spacing.setCurrentIndex(spacing.findData("percent"))
    assert doc.project.path("follow").spacing_mode == "percent"
    w.field("path.follow.offset_rotation").edited.emit(0.25)
    w.field("path.follow.offset_rotation").edited.emit(0.5)  # the same field again: merged
    assert doc.project.path("follow").offset_rotation == 0.5
    w.field("path.follow.position").edited.emit(0.3)
    assert doc.project.path("follow").position.default == (0.3,)  # Setup mode: the setup value
    for _ in range(4):
        doc.undo_stack.undo()
    assert doc.project == before


def test_position_is_keyed_in_animate_mode_and_moves_the_bones(qtbot):
    doc = Document(rig())
    w = Inspector(doc, FakeDialogs())
    qtbot.addWidget(w)
    doc.select([("path", "follow")])
    doc.set_mode("animate")
    doc.set_frame(12)
    w.field("path.follow.position").edited.emit(0.5)
    ch = doc.project.path("follow").position
    assert [k.frame for k in ch.keys] == [12]
    row = int(np.flatnonzero(doc.bake.frames == 12)[0])
    # at half the path the first bone sits on the S's middle point, turned along it
    held = doc.bake.bone_bakes[doc.bake.bones.index("b0")].joint[row]
    h = np.array([math.cos(0.2), math.sin(0.2)])
    middle = np.array([-100.0, -50.0]) + 100.0 * h + 100.0 * np.array([-h[1], h[0]])
    assert np.hypot(*(held - middle)) < 5.0  # constant speed: half the arc length, near the middle point


@pytest.mark.parametrize("mode", ["setup", "animate"])
def test_the_scene_draws_the_path_through_its_points(qtbot, mode):
    from rigeditor.app.scene.view import SceneView

    doc = Document(rig())
    if mode == "animate":
        doc.set_mode("animate")
    doc.select([("path", "follow")])
    view = SceneView(doc)
    qtbot.addWidget(view)
    view.resize(640, 480)
    view.show()
    view.frame_all()
    state = view.ctx.state
    (slot, pts), = state.paths
    assert slot == "track"
    # the curve passes through the path's points, carried by the holder's frame
    c, s = math.cos(0.2), math.sin(0.2)
    for x, y in (CURVY[1], CURVY[4], CURVY[7]):
        p = np.array([-100.0 + c * x - s * y, -50.0 + s * x + c * y])
        assert np.min(np.hypot(*(pts - p).T)) < 1e-9
    sig, lo, hi = view._layers["paths"].elements(state, view.ctx.device_map(view.viewportTransform()))
    assert sig.shape[0] == 1 and sig[0, 4] == 1  # lit: its constraint is selected
    image = view.grab().toImage()
    assert not image.isNull()
