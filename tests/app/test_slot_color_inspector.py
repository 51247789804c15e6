"""The inspector's slot colour section: the blend mode, the light colour and alpha, and
two-colour tint with its dark colour; one undo step each, setup colour in Setup mode,
colour keys in Animate mode, and the scene draws what was picked."""
from __future__ import annotations

import numpy as np
import pytest

from fakes import FakeDialogs
from rigeditor.app.document import Document
from rigeditor.app.inspector import Inspector
from rigeditor.io import load_project
from rigeditor.examples.art_files import example_project
from views import grab_rgba, picture_point, release_all, screen_point, show_scene

EXAMPLE = example_project("dressed_arm")
_KEEP = []


@pytest.fixture(autouse=True)
def _release():
    yield
    release_all()


def _widgets(qtbot, mode="setup", frame=0, **answers):
    doc = Document(load_project(EXAMPLE), EXAMPLE)
    doc.set_mode(mode)
    doc.set_frame(frame)
    dialogs = FakeDialogs(**answers)
    inspector = Inspector(doc, dialogs=dialogs)
    qtbot.addWidget(inspector)
    _KEEP.append((doc, inspector))
    doc.select([("slot", "torso")])
    return doc, inspector, dialogs


def test_the_setup_colour_and_blend_are_one_undo_step_each_and_drawn(qtbot):
    doc, inspector, dialogs = _widgets(qtbot, color=[(1.0, 0.5, 0.25)])
    view = show_scene(qtbot, doc)
    view.set_overlay("bones", False)
    steps = doc.undo_stack.count()
    inspector.field("slot.torso.color").click()
    assert dialogs.asked("color") == [("Colour of torso", (1.0, 1.0, 1.0))]
    s = doc.project.art.slot("torso")
    assert (s.red.default, s.green.default, s.blue.default, s.alpha.default) == ((1.0,), (0.5,), (0.25,), (1.0,))
    assert doc.undo_stack.count() == steps + 1
    assert inspector.field("slot.torso.color").text() == "#ff8040"
    qtbot.wait(10)
    world, png = picture_point(doc, "torso", 20, 100, EXAMPLE.parent)
    x, y = screen_point(view, world)
    drawn = grab_rgba(view)[y, x, :3].astype(float)
    np.testing.assert_allclose(drawn, png[:3] * [1.0, 0.5, 0.25], atol=8)  # the slot colour multiplies
    blend = inspector.field("slot.torso.blend")
    blend.setCurrentIndex(blend.findData("additive"))
    assert doc.project.art.slot("torso").blend == "additive"
    assert doc.undo_stack.count() == steps + 2
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.project.art.slot("torso").red.default == (1.0,) and doc.project.art.slot("torso").blend == "normal"


def test_two_colour_tint_then_a_dark_colour(qtbot):
    doc, inspector, dialogs = _widgets(qtbot, color=[(0.2, 0.1, 0.4)])
    dark = inspector.field("slot.torso.dark")
    assert not dark.isEnabled()
    tint = inspector.field("slot.torso.two_color")
    tint.setCurrentIndex(tint.findData(True))
    assert doc.project.art.slot("torso").dark
    dark = inspector.field("slot.torso.dark")
    assert dark.isEnabled()
    dark.click()
    s = doc.project.art.slot("torso")
    assert (s.dark_red.default, s.dark_green.default, s.dark_blue.default) == ((0.2,), (0.1,), (0.4,))


def test_in_animate_mode_a_picked_colour_keys_the_slot(qtbot):
    doc, inspector, _ = _widgets(qtbot, mode="animate", frame=12, color=[(0.0, 1.0, 1.0)])
    inspector.field("slot.torso.color").click()
    s = doc.project.art.slot("torso")
    assert [k.frame for k in s.red.keys] == [12] and s.red.keys[0].value == (0.0,)
    assert float(doc.bake.art.color[doc.row, doc.bake.art.slots.index("torso"), 0]) == 0.0
