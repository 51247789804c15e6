"""Traps of the editor's first hour, driven with real keys and mouse events (pytest-qt,
offscreen): the bone tool's one parent rule (shown while dragging, Esc cancels),
Setup mode showing the setup pose, the Curves dock settling after an FK drag, K with
a number field focused, and the mesh tool keeping a vertex on its picture."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from windows import make_window, settle, px, world
from rigeditor.app.document import Document
from rigeditor.app.scene.layers import PAINT_ERRORS
from rigeditor.model import evaluate
from rigeditor.examples.rigs import arm, walk


@pytest.fixture(autouse=True)
def _no_paint_errors():
    del PAINT_ERRORS[:]
    yield
    assert not PAINT_ERRORS, PAINT_ERRORS[0]


def moves(widget, a: QPoint, b: QPoint, steps=6):
    for k in range(1, steps + 1):
        QTest.mouseMove(widget, QPoint(round(a.x() + (b.x() - a.x()) * k / steps),
                                       round(a.y() + (b.y() - a.y()) * k / steps)))


def drag(widget, a: QPoint, b: QPoint, steps=6):
    QTest.mousePress(widget, Qt.LeftButton, Qt.NoModifier, a)
    moves(widget, a, b, steps)
    QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, b)
    settle()


def tip(doc, bone):
    return doc.bake.tip_world[doc.row, doc.bake.column(bone)].copy()


def joint(doc, bone):
    return doc.bake.joint_world[doc.row, doc.bake.column(bone)].copy()


def grab(view) -> np.ndarray:
    img = view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    ptr = img.constBits()
    return np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())[:, :img.width() * 3] \
        .reshape(img.height(), img.width(), 3).astype(int)


def parent_tinted(image, point: QPoint, radius=3) -> bool:
    """Whether a pixel near ``point`` has the parent highlight's hue (cyan-blue: blue
    well above red), which nothing else in an empty rig's scene has."""
    y, x = point.y(), point.x()
    patch = image[y - radius:y + radius + 1, x - radius:x + radius + 1].reshape(-1, 3)
    return bool(np.any(patch[:, 2] - patch[:, 0] > 40))


# ---------------------------------------------------------------------- the bone tool

def test_bone_tool_parent_is_the_tip_pressed_else_the_selected_bone_shown_while_dragging(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    w.new_action.trigger()
    view, vp = w.scene, w.scene.viewport()
    QTest.keyClick(view, Qt.Key_B)
    c = vp.rect().center()
    hip, neck, up = c + QPoint(0, 120), c + QPoint(0, 0), c + QPoint(0, -110)
    drag(vp, hip, neck)  # nothing selected: a root bone
    drag(vp, px(view, tip(doc, "bone1")), up)  # from bone1's tip: its child
    assert doc.project.bone("bone1").parent is None and doc.project.bone("bone2").parent == "bone1"
    assert doc.selection == (("bone", "bone2"),)  # the bone just drawn is selected
    status = w.statusBar()

    # 10 px below bone1's tip is on no tip: the selected bone2 will be the parent, and
    # the scene and the status bar say so before anything is made.
    before = grab(view)
    mid1, mid2 = px(view, (joint(doc, "bone1") + tip(doc, "bone1")) / 2), \
        px(view, (joint(doc, "bone2") + tip(doc, "bone2")) / 2)
    side = QPoint(7, 0)  # beside each bone's body, inside the highlight's reach
    assert not parent_tinted(before, mid2 + side) and not parent_tinted(before, mid1 + side)
    press = px(view, tip(doc, "bone1")) + QPoint(0, 10)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, press)
    moves(vp, press, press + QPoint(-120, 20))
    settle()
    assert "bone2" in status.currentMessage() and "selected" in status.currentMessage()
    during = grab(view)
    w.grab().save(str(tmp_path / "bone_tool_parent.png"))  # to look at
    assert parent_tinted(during, mid2 + side), "the parent-to-be is highlighted"
    assert not parent_tinted(during, mid1 + side), "only the parent-to-be"
    # Esc cancels: no bone, no undo step, no highlight, the status bar says so.
    steps = doc.undo_stack.count()
    QTest.keyClick(view, Qt.Key_Escape)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, press + QPoint(-120, 20))
    settle()
    assert [b.name for b in doc.project.bones] == ["bone1", "bone2"]
    assert doc.undo_stack.count() == steps
    assert "cancel" in status.currentMessage().lower()
    assert not parent_tinted(grab(view), mid2 + side)

    # The same drag released: bone3 is bone2's child, starting where the press was.
    drag(vp, press, press + QPoint(-120, 20))
    bone3 = doc.project.bone("bone3")
    assert bone3.parent == "bone2"
    np.testing.assert_allclose(joint(doc, "bone3"), world(view, press), atol=1e-6)

    # A press within a few pixels of bone1's tip takes bone1, whatever is selected,
    # and the new bone starts exactly on that tip.
    near = px(view, tip(doc, "bone1")) + QPoint(3, -2)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, near)
    moves(vp, near, near + QPoint(110, 30))
    assert "bone1" in status.currentMessage() and "tip" in status.currentMessage()
    assert parent_tinted(grab(view), mid1 + side)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, near + QPoint(110, 30))
    settle()
    assert doc.project.bone("bone4").parent == "bone1"
    np.testing.assert_allclose(joint(doc, "bone4"), tip(doc, "bone1"), atol=1e-9)

    # A click (no drag) picks the next parent as in Spine: a bone selects it, empty
    # canvas selects nothing; no bone is made.
    count = len(doc.project.bones)
    QTest.mouseClick(vp, Qt.LeftButton, Qt.NoModifier, mid1)
    assert doc.selection == (("bone", "bone1"),) and "bone1" in status.currentMessage()
    QTest.mouseClick(vp, Qt.LeftButton, Qt.NoModifier, QPoint(20, vp.height() - 20))
    assert doc.selection == () and "root" in status.currentMessage()
    assert len(doc.project.bones) == count

    # Nothing selected and a press on empty canvas 13 px from a tip (bone1's base,
    # the hip, is no tip): a root bone, and the status bar says so.
    far = px(view, tip(doc, "bone3")) + QPoint(13, 0)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, far)
    moves(vp, far, far + QPoint(60, 60))
    assert "root" in status.currentMessage()
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, far + QPoint(60, 60))
    settle()
    assert doc.project.bone("bone5").parent is None
    doc.select([])
    drag(vp, hip, hip + QPoint(-70, 90))
    assert doc.project.bone("bone6").parent is None
    np.testing.assert_allclose(joint(doc, "bone6"), world(view, hip), atol=1e-6)


# ---------------------------------------------------------------------- the Curves dock

def _rotate_fk_bone(view, doc, bone, degrees, steps=8):
    """Drag FK ``bone`` round its joint by about ``degrees`` with real mouse events."""
    j, t = joint(doc, bone), tip(doc, bone)
    g = j + 0.8 * (t - j)
    a = np.radians(degrees)
    v = g - j
    turned = j + np.array([v[0] * np.cos(a) - v[1] * np.sin(a), v[0] * np.sin(a) + v[1] * np.cos(a)])
    drag(view.viewport(), px(view, g), px(view, turned), steps=steps)


def test_the_curves_stop_saying_updating_after_an_fk_drag_undo_redo_and_frames(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path, walk())
    view = w.scene
    doc.set_frame(6)
    view.zoom_by(2.0, view.map_to_viewport(joint(doc, "head")))
    settle()
    title = w.curves._title
    shown = w.curves.chain
    assert shown is not None and "updating" not in title.text()
    rotation = doc.bake.world_rotation[doc.row, doc.bake.column("head")]
    _rotate_fk_bone(view, doc, "head", 40.0)
    qtbot.waitUntil(lambda: not doc.range_pending, timeout=5000)
    settle()
    assert doc.bake.world_rotation[doc.row, doc.bake.column("head")] != rotation  # the drag edited
    assert w.curves.chain == shown  # the chain plotted did not change, nor did its solve
    assert "updating" not in title.text()
    for step in (doc.undo_stack.undo, doc.undo_stack.redo, lambda: doc.set_frame(20)):
        step()
        settle()
        assert "updating" not in title.text()


# ---------------------------------------------------------------------- keys over fields

def test_k_and_tool_keys_work_while_a_number_field_has_focus(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    doc.set_mode("animate")
    doc.set_frame(10)
    doc.select([("target", "hand")])
    settle()
    keys_before = {k.frame for k in doc.project.target("hand").position.keys}
    assert 10 not in keys_before
    field = w.inspector.field("target.hand.position.x")
    QTest.mouseClick(field, Qt.LeftButton)  # the caret in the number field, as a user would
    settle()
    assert QApplication.focusWidget() in (field, field.lineEdit())
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_K)
    settle()
    assert {k.frame for k in doc.project.target("hand").position.keys} == keys_before | {10}
    # A tool key too, and the field still takes what can be typed into it.
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_B)
    assert w.edit_tool.tool == "bone"
    field = w.inspector.field("target.hand.position.x")
    field.setFocus()
    field.lineEdit().selectAll()
    QTest.keyClicks(field.lineEdit(), "-12.5")
    assert "-12.5" in field.lineEdit().text()
    # Where a letter can be typed (a name), it is typed, not taken as a shortcut.
    w.edit_tool.set_tool("select")
    doc.select([("chain", "arm")])
    settle()
    name = w.inspector.field("chain.arm.name")
    name.setFocus()
    name.end(False)
    steps = doc.undo_stack.count()
    QTest.keyClick(name, Qt.Key_B)
    assert name.text() == "armb" and w.edit_tool.tool == "select" and doc.undo_stack.count() == steps


# ---------------------------------------------------------------------- the mesh tool

def test_a_vertex_dragged_off_its_picture_stays_on_its_edge_said_once(qtbot, tmp_path):
    from rigeditor import edits
    from rigeditor.io import load_project
    from rigeditor.examples.art_files import example_project
    from rigeditor.model.validation.project import problems

    path = example_project("skinned_arm")
    w, doc, dialogs = make_window(qtbot, tmp_path, load_project(path), path)
    doc.set_frame(0)
    doc.set_mode("setup")  # the setup vertices (Animate mode's drag keys a deform, anywhere)
    view, vp = w.scene, w.scene.viewport()
    view.frame_all()
    doc.select([("slot", "arm")])
    w.edit_tool.set_tool("mesh")
    settle()
    said = []
    view.statusMessage.connect(said.append)
    m = doc.project.art.slots[0].attachments[0]
    i = int(np.argmax(m.vertices[:m.hull_count(), 1]))  # the outline's top vertex (image frame, y up)
    pose, row = doc.bake.art.meshes[0], doc.row
    # The world direction of the picture's +y here, from the editor's own inverse map.
    to_image = np.column_stack([edits.vertex_to_image(pose, row, i, e) for e in np.eye(2)])
    up = np.linalg.solve(to_image, [0.0, 1.0])
    up /= np.hypot(*up)
    start = pose.vertices(row)[i]
    a, b = px(view, start), px(view, start + up * 400.0 / view.viewportTransform().m11())
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, a)
    moves(vp, a, b, steps=10)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, b)
    settle()
    assert dialogs.asked("error") == []  # no box at all
    edge = [t for t in said if "picture" in t]
    assert len(edge) == 1, said  # said once, in the status bar
    moved = doc.project.art.slots[0].attachments[0]
    unclamped = m.vertices[i] + edits.vertex_to_image(pose, row, i, world(view, b) - world(view, a))
    assert unclamped[1] > m.height / 2 + 10  # the pointer went well past the top edge
    expected = np.clip(unclamped, [-m.width / 2, -m.height / 2], [m.width / 2, m.height / 2])
    np.testing.assert_allclose(moved.vertices[i], expected, atol=1e-6)
    assert np.all((moved.uvs >= 0) & (moved.uvs <= 1))
    assert doc.undo_stack.count() == 1 and problems(doc.project) == []


# ---------------------------------------------------------------------- Setup mode

def _shown_joints(view):
    """Joint and tip of every bone as the scene holds them to paint (world)."""
    return view.ctx.state.joints.copy(), view.ctx.state.tips.copy()


def test_setup_mode_shows_and_edits_the_setup_pose_on_every_frame(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path, walk())
    view = w.scene
    p = doc.project
    animated = evaluate(p)
    doc.set_frame(18)
    settle()
    a18 = _shown_joints(view)
    np.testing.assert_allclose(a18[0], animated.joint_world[animated.index(18)], atol=1e-9)
    assert not np.allclose(animated.joint_world[animated.index(0)], animated.joint_world[animated.index(18)])

    w.mode_actions["setup"].trigger()
    settle()
    assert doc.mode == "setup"
    s18 = _shown_joints(view)
    doc.set_frame(0)
    settle()
    s0 = _shown_joints(view)
    np.testing.assert_allclose(s0[0], s18[0], atol=1e-12)  # one pose on every frame
    assert not np.allclose(s18[0], a18[0], atol=1.0)  # not the animation's frame 18
    # The setup pose by hand: the character at its default place (0, 95), the spine
    # up at its rest rotation plus its rotation's default, the head 60 along it.
    col = {b: k for k, b in enumerate(view.ctx.structure.bones)}
    spine = np.pi / 2 + p.bone("spine").rotation.default[0]
    np.testing.assert_allclose(s0[0][col["spine"]], (0.0, 95.0), atol=1e-9)
    np.testing.assert_allclose(s0[0][col["head"]], np.array([0.0, 95.0]) + 60.0 * np.array([np.cos(spine),
                                                                                             np.sin(spine)]),
                               atol=1e-9)
    # Each leg reaches its foot target's default (world, 96 units from the hip; legs 100).
    for foot, shin in (("foot_l", "shin_l"), ("foot_r", "shin_r")):
        np.testing.assert_allclose(s0[1][col[shin]], p.target(foot).position.default, atol=1e-6)

    # A setup drag of a keyed target moves its default, which shows; its keys stay.
    keys = p.target("foot_l").position.keys
    handle = view.ctx.state.handle[view.ctx.state.targets.index("foot_l")]
    goal = handle + np.array([-10.0, 12.0])
    a, b = px(view, handle), px(view, goal)
    drag(view.viewport(), a, b)
    t = doc.project.target("foot_l")
    assert t.position.keys == keys
    expected = handle + world(view, b) - world(view, a)
    np.testing.assert_allclose(t.position.default, expected, atol=1e-9)
    np.testing.assert_allclose(_shown_joints(view)[1][col["shin_l"]], expected, atol=1e-6)
    # The inspector shows and edits the setup values too.
    doc.select([("target", "foot_l")])
    settle()
    field = w.inspector.field("target.foot_l.position.x")
    assert field.value() == pytest.approx(expected[0], abs=0.01)
    field.setValue(-20.0)
    settle()
    t = doc.project.target("foot_l")
    assert t.position.keys == keys and t.position.default[0] == pytest.approx(-20.0)

    # Exports take the animation whatever the mode; Animate mode shows frame 18 again.
    exported = doc.settled_bake()
    np.testing.assert_array_equal(exported.joint_world, evaluate(doc.project).joint_world)
    doc.set_frame(18)
    w.mode_actions["animate"].trigger()
    settle()
    now = evaluate(doc.project)
    np.testing.assert_allclose(_shown_joints(view)[0], now.joint_world[now.index(18)], atol=1e-9)


def test_setup_mode_edits_take_the_frame_first_path_and_land_the_setup_range(qtbot):
    from test_range_worker import arms, assert_same_bake

    from rigeditor.app.scene.gestures import move_target
    from rigeditor.model.data.clips import setup_pose

    doc = Document(arms())
    doc.set_frame(120)
    doc.set_mode("setup")
    assert_same_bake(doc.range_bake, evaluate(setup_pose(doc.project)))
    key = ("drag", doc.begin_gesture())
    start = doc.project
    for k in range(1, 4):  # a drag of hand_0 (keyed): its default moves, its keys stay
        after = move_target(start, "hand_0", doc.frame, (100.0 + 10 * k, 40.0), "setup")
        doc.pose_edit("Move target hand_0 (setup)", after, touched={"target:hand_0"}, merge_key=key)
        assert doc.range_pending  # the frame under the hand first
        want = evaluate(setup_pose(doc.project))
        assert_same_bake(doc.bake, want, rows=[want.index(doc.frame)])
    doc.end_gesture()
    qtbot.waitUntil(lambda: not doc.range_pending, timeout=10_000)
    assert doc.project.target("hand_0").position.keys == start.target("hand_0").position.keys
    assert_same_bake(doc.range_bake, evaluate(setup_pose(doc.project)))
    assert_same_bake(doc.settled_bake(), evaluate(doc.project))  # export: the animation
