"""Transform constraints in the editor (pytest-qt, offscreen): listed in the outliner,
every setting edited in the inspector as one undo step, the link drawn in the scene."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from fakes import FakeDialogs
from rigeditor import edits
from rigeditor.app.document import Document
from rigeditor.app.inspector import Inspector
from rigeditor.app.outliner import Outliner
from rigeditor.examples.rigs import arm
from rigeditor.model.data.project import Bone


def rig():
    p = arm()
    p = replace(p, bones=p.bones + (Bone("prop", None, 40.0, (150.0, -80.0)),))
    return edits.add_transform(p, ["prop"], "forearm", name="hold")


def test_the_outliner_lists_constraints_and_selects_them(qtbot):
    doc = Document(rig())
    w = Outliner(doc, FakeDialogs())
    qtbot.addWidget(w)
    group = w.group("transform")
    assert [group.child(i).text(0) for i in range(group.childCount())] == ["hold"]
    w.item_for("transform", "hold").setSelected(True)
    assert doc.selection == (("transform", "hold"),)
    assert "prop follow forearm" in w.item_for("transform", "hold").toolTip(0)


def test_each_setting_is_one_undo_step(qtbot):
    doc = Document(rig())
    w = Inspector(doc, FakeDialogs())
    qtbot.addWidget(w)
    doc.select([("transform", "hold")])
    before = doc.project
    space = w.field("transform.hold.local")
    space.setCurrentIndex(space.findData(True))
    assert doc.project.transform("hold").local is True
    mode = w.field("transform.hold.relative")
    mode.setCurrentIndex(mode.findData(True))
    assert doc.project.transform("hold").relative is True
    w.field("transform.hold.offset_rotation").edited.emit(0.5)
    w.field("transform.hold.offset_rotation").edited.emit(0.75)  # the same field again: merged
    assert doc.project.transform("hold").offset_rotation == 0.75
    doc.undo_stack.undo()
    assert doc.project.transform("hold").offset_rotation == 0.0
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.project == before


def test_a_mix_is_keyed_in_animate_mode_and_moves_the_bone(qtbot):
    doc = Document(rig())
    w = Inspector(doc, FakeDialogs())
    qtbot.addWidget(w)
    doc.select([("transform", "hold")])
    doc.set_frame(10)
    w.field("transform.hold.mix_x").edited.emit(0.0)
    ch = doc.project.transform("hold").mix_x
    assert [k.frame for k in ch.keys] == [10]
    # with no x mix the prop keeps its own x at frame 10, while its y follows the forearm
    k = doc.bake.bones.index("prop")
    f = doc.bake.bones.index("forearm")
    row = int(np.flatnonzero(doc.bake.frames == 10)[0])
    joint = doc.bake.bone_bakes[k].joint[row]
    assert joint[0] == pytest.approx(150.0, abs=1e-9)
    assert joint[1] == pytest.approx(doc.bake.bone_bakes[f].joint[row][1], abs=1e-9)


def test_the_scene_draws_a_link_from_bone_to_target(qtbot):
    from rigeditor.app.scene.view import SceneView

    doc = Document(rig())
    doc.select([("transform", "hold")])
    view = SceneView(doc)
    qtbot.addWidget(view)
    view.resize(500, 400)
    view.show()
    layer = view._layers["constraints"]
    state = view.ctx.state
    dm = view.ctx.device_map(view.viewportTransform())
    sig, lo, hi = layer.elements(state, dm)
    prop, forearm = doc.bake.bones.index("prop"), doc.bake.bones.index("forearm")
    assert sig.shape[0] == 1
    assert sig[0, :2] == pytest.approx(state.joints[prop]) and sig[0, 2:4] == pytest.approx(state.joints[forearm])
    assert sig[0, 4] == 1  # lit: the constraint is selected
    image = view.grab().toImage()
    assert not image.isNull()
