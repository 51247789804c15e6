"""A slot's tint (a Setup-mode edit, one undo step, drawn by the scene) and renaming a
slot from the outliner or the inspector (unique, references updated, undoable)."""
from __future__ import annotations

import numpy as np
import pytest

from fakes import FakeDialogs
from rigeditor import edits
from rigeditor.app.document import Document
from rigeditor.app.inspector import Inspector
from rigeditor.app.outliner import Outliner
from rigeditor.io import load_project
from rigeditor.examples.art_files import example_project
from views import grab_rgba, picture_point, release_all, screen_point, show_scene

EXAMPLE = example_project("dressed_arm")
_KEEP = []  # documents and widgets of the tests, alive until the session ends


@pytest.fixture(autouse=True)
def _release():
    yield
    release_all()


def _widgets(qtbot, mode="setup", frame=0, **answers):
    doc = Document(load_project(EXAMPLE), EXAMPLE)
    doc.set_mode(mode)
    doc.set_frame(frame)
    dialogs = FakeDialogs(**answers)
    outliner, inspector = Outliner(doc, dialogs=dialogs), Inspector(doc, dialogs=dialogs)
    for w in (outliner, inspector):
        qtbot.addWidget(w)
    _KEEP.append((doc, outliner, inspector))
    return doc, outliner, inspector, dialogs


def _torso_pixel(qtbot, view, doc):
    """The scene's colour at a flat, opaque pixel of the torso and the PNG's colour there."""
    qtbot.wait(10)
    world, colour = picture_point(doc, "torso", 20, 100, EXAMPLE.parent)
    x, y = screen_point(view, world)
    return grab_rgba(view)[y, x, :3].astype(float), colour[:3].astype(float)


def test_the_tint_multiplies_the_picture_in_one_undo_step(qtbot):
    doc, _, inspector, dialogs = _widgets(qtbot, color=[(1.0, 0.5, 0.25), None])
    view = show_scene(qtbot, doc)
    view.set_overlay("bones", False)
    doc.select([("slot", "torso")])
    button = inspector.field("slot.torso.tint")
    assert button.isEnabled() and button.text() == "white (as painted)"
    before, png = _torso_pixel(qtbot, view, doc)
    np.testing.assert_allclose(before, png, atol=8)  # as painted
    steps = doc.undo_stack.count()
    button.click()
    assert dialogs.asked("color") == [("Tint of torso", (1.0, 1.0, 1.0))]
    assert doc.project.art.slot("torso").find("torso").tint == (1.0, 0.5, 0.25, 1.0)
    assert doc.undo_stack.count() == steps + 1
    assert inspector.field("slot.torso.tint").text() == "#ff8040"
    tinted, _ = _torso_pixel(qtbot, view, doc)
    np.testing.assert_allclose(tinted, png * (1.0, 0.5, 0.25), atol=8)
    inspector.field("slot.torso.tint").click()  # cancelled: nothing changes
    assert doc.undo_stack.count() == steps + 1
    doc.undo_stack.undo()
    assert doc.project.art.slot("torso").find("torso").tint == (1.0, 1.0, 1.0, 1.0)
    np.testing.assert_allclose(_torso_pixel(qtbot, view, doc)[0], before, atol=2)


def test_the_tint_is_a_setup_edit_and_refuses_values_out_of_range(qtbot):
    doc, _, inspector, _ = _widgets(qtbot, mode="animate")
    doc.select([("slot", "torso")])
    assert not inspector.field("slot.torso.tint").isEnabled()
    for bad in ((1.2, 1.0, 1.0, 1.0), (1.0, 1.0, 1.0), (float("nan"), 1.0, 1.0, 1.0)):
        with pytest.raises(edits.EditError):
            edits.set_placement(doc.project, "torso", "torso", tint=bad)


def test_renaming_a_slot_in_the_outliner_renames_its_draw_order_keys_and_undoes(qtbot):
    doc, outliner, _, dialogs = _widgets(qtbot, mode="animate", frame=34)  # (Setup mode shows no keys)
    before = doc.project
    order_34 = [before.art.slots[i].name for i in doc.bake.art.order[doc.row]]
    assert order_34[0] == "hand"  # the draw-order key puts the hand behind the torso here
    doc.select([("slot", "hand")])
    outliner.item_for("slot", "hand").setText(0, "right_hand")
    p = doc.project
    assert [s.name for s in p.art.slots] == ["torso", "upper_arm", "forearm", "right_hand"]
    assert all("right_hand" in k.order and "hand" not in k.order for k in p.art.draw_order)
    assert [p.art.slots[i].name for i in doc.bake.art.order[doc.row]] == ["right_hand", *order_34[1:]]
    assert doc.selection == (("slot", "right_hand"),)
    assert outliner.item_for("slot", "right_hand") is not None
    # A name in use is refused, saying so; nothing changes.
    outliner.item_for("slot", "right_hand").setText(0, "torso")
    ((title, message),) = dialogs.asked("error")
    assert title == "Rename" and "already a slot named 'torso'" in message
    assert doc.project == p
    doc.undo_stack.undo()
    assert doc.project == before


def test_the_inspector_renames_the_selected_slot(qtbot):
    doc, _, inspector, _ = _widgets(qtbot)
    doc.select([("slot", "forearm")])
    field = inspector.field("slot.forearm.name")
    field.setText("lower_arm")
    field.editingFinished.emit()
    assert "lower_arm" in [s.name for s in doc.project.art.slots]
    assert doc.selection == (("slot", "lower_arm"),)
    assert doc.project.art.slot("lower_arm").find("forearm").path == "arm_art/forearm.png"
