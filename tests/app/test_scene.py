"""The central scene, driven with real mouse and wheel events (pytest-qt, offscreen)."""
from __future__ import annotations

import math
import sys
from dataclasses import replace

import numpy as np
import PySide6
import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QColor, QImage, QKeyEvent, QKeySequence, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QHBoxLayout, QMainWindow, QWidget

from rigeditor.app import style
from rigeditor.app.document import Document
from rigeditor.app.scene import OVERLAY_NAMES, SceneView
from rigeditor.app.scene.layers import PAINT_ERRORS
from rigeditor.app.scene.paint import format_units
from rigeditor.app.tools import EditTool
from rigeditor.model import Bone
from rigeditor.examples.rigs import EXAMPLES
from views import ALIVE as _ALIVE, release_all, show_scene


# ---------------------------------------------------------------------- the binding
def test_the_qt_binding_keeps_its_references_to_none():
    """Some Qt bindings return None from void methods without taking a reference
    (harmless on Python >= 3.12, where None is immortal). On 3.11 every setPen,
    drawEllipse or update() then frees a little of None, and after a few thousand
    calls the process aborts (``none_dealloc``): a scene that repaints while
    dragging dies within seconds. Seen with PySide6 6.12.0 on CPython 3.11."""
    obj = QObject()
    before = sys.getrefcount(None)
    for _ in range(200):
        obj.setObjectName("probe")  # returns None
    lost = before - sys.getrefcount(None)
    assert lost < 100, (f"PySide6 {PySide6.__version__} on Python {sys.version.split()[0]} loses a "
                        f"reference to None per void call ({lost} in 200): pin another PySide6")


# ---------------------------------------------------------------------- helpers
def to_px(view, world) -> QPoint:
    """Viewport pixel (rounded) of a model-space point, through the view's transform."""
    p = view.viewportTransform().map(QPointF(float(world[0]), float(world[1])))
    return QPoint(round(p.x()), round(p.y()))


def to_world(view, px) -> np.ndarray:
    inv, ok = view.viewportTransform().inverted()
    assert ok
    p = inv.map(QPointF(px))
    return np.array([p.x(), p.y()])


_WINDOWS = []  # windows around a view, kept until their views are closed


@pytest.fixture(autouse=True)
def _keep_alive():
    """Hold each test's documents and views until the test is torn down. (A view with
    no Qt parent is owned by Python: collected mid-paint it would take its C++ side
    along.) Documents drop their history while still alive: an undo stack destroyed
    while not clean signals into its half-destroyed Document."""
    del PAINT_ERRORS[:]
    yield
    release_all()
    del _WINDOWS[:]
    assert not PAINT_ERRORS, PAINT_ERRORS[0]


def make_view(qtbot, example="arm", frame=0, mode="animate"):
    """``example``: a name in EXAMPLES or a Project."""
    doc = Document(EXAMPLES[example]() if isinstance(example, str) else example)
    doc.set_frame(frame)
    doc.set_mode(mode)
    return doc, show_scene(qtbot, doc)


def handle_world(view, target):
    s = view.ctx.state
    return s.handle[s.targets.index(target)].copy()


def drag(view, start: QPoint, end: QPoint, steps=6):
    vp = view.viewport()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    for i in range(1, steps + 1):
        t = i / steps
        QTest.mouseMove(vp, QPoint(round(start.x() + (end.x() - start.x()) * t),
                                   round(start.y() + (end.y() - start.y()) * t)))
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, end)


def drag_target(view, target, to_world_point):
    """Drag ``target``'s handle to the pixel of ``to_world_point``; return the world
    point the handle must land on (release point plus the sub-pixel grab offset)."""
    h = handle_world(view, target)
    p0, p1 = to_px(view, h), to_px(view, to_world_point)
    drag(view, p0, p1)
    return to_world(view, p1) + (h - to_world(view, p0))


def chain_at(doc, name="arm"):
    cb = doc.bake.chains[name]
    return cb, doc.row


# ---------------------------------------------------------------------- target drags
def test_dragging_a_reachable_target_puts_the_end_effector_on_it(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    expected = drag_target(view, "hand", (170.0, -110.0))  # d ~ 202: inside (25, 275)
    cb, row = chain_at(doc)
    np.testing.assert_allclose(cb.target_world[row], expected, atol=1e-9)
    np.testing.assert_allclose(cb.end_world[row], expected, atol=1e-6)
    assert cb.residual[row] < 1e-6
    # The drag keyed the position at the current frame (animate mode), in world space.
    key = next(k for k in doc.project.target("hand").position.keys if k.frame == 0)
    np.testing.assert_allclose(key.value, expected, atol=1e-9)
    # The release pixel and the end effector agree on screen.
    end_px = view.map_to_viewport(cb.end_world[row])
    assert abs(end_px.x() - to_px(view, (170.0, -110.0)).x()) <= 1.0
    assert abs(end_px.y() - to_px(view, (170.0, -110.0)).y()) <= 1.0


def test_the_pose_follows_the_pointer_during_the_drag(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    vp = view.viewport()
    p0 = to_px(view, handle_world(view, "hand"))
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, p0)
    ends = []
    for world in [(190.0, 30.0), (150.0, -60.0), (60.0, -150.0)]:
        QTest.mouseMove(vp, to_px(view, world))
        cb, row = chain_at(doc)
        ends.append(cb.end_world[row].copy())
        np.testing.assert_allclose(cb.end_world[row], world, atol=2.0 / view.px_per_unit)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, to_px(view, (60.0, -150.0)))
    assert len({tuple(np.round(e, 6)) for e in ends}) == 3


def test_beyond_reach_the_end_stays_on_the_outer_circle_and_the_residual_shows(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    expected = drag_target(view, "hand", (330.0, 80.0))
    cb, row = chain_at(doc)
    inner, outer = cb.reach
    shoulder = cb.shoulder_world[row]
    assert np.hypot(*(cb.end_world[row] - shoulder)) == pytest.approx(outer, abs=1e-6)
    beyond = np.hypot(*(expected - shoulder)) - outer
    assert beyond > 50
    assert cb.residual[row] == pytest.approx(beyond, abs=1e-6)
    assert cb.cause_names(row) == "out_of_reach"
    # The end points at the target: on the shoulder -> target line.
    direction = (expected - shoulder) / np.hypot(*(expected - shoulder))
    np.testing.assert_allclose(cb.end_world[row], shoulder + direction * outer, atol=1e-6)

    residual = view.layer("residual")
    assert residual.isVisible()
    texts = residual.texts
    assert texts == [f"{format_units(cb.residual[row])} u  {style.CAUSE_LABELS['out_of_reach']}"]
    view.grab()  # paint: the label layer lays the text out on screen
    placed = {lb.key: lb for lb in view.layer("labels").placed}
    assert "residual:arm" in placed and placed["residual:arm"].rect.intersects(view.viewport().rect())

    view.set_overlay("residual", False)
    assert not residual.isVisible() and residual.texts == []
    view.grab()
    assert "residual:arm" not in {lb.key for lb in view.layer("labels").placed}


def test_no_residual_drawn_when_the_target_is_reached(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    assert doc.bake.chains["arm"].residual[doc.row] < 1e-9
    assert view.layer("residual").texts == []


def test_one_drag_is_one_undo_step_and_undo_restores_the_end(qtbot):
    doc, view = make_view(qtbot, "arm", frame=36)
    before = doc.bake.chains["arm"].end_world[doc.row].copy()
    count = doc.undo_stack.count()
    drag_target(view, "hand", (100.0, 150.0))
    assert doc.undo_stack.count() == count + 1
    assert not np.allclose(doc.bake.chains["arm"].end_world[doc.row], before)
    doc.undo_stack.undo()
    np.testing.assert_array_equal(doc.bake.chains["arm"].end_world[doc.row], before)
    # The view redrew from the restored bake.
    np.testing.assert_array_equal(view.ctx.state.end[0], before)
    # A second drag is its own step.
    doc.undo_stack.redo()
    drag_target(view, "hand", (60.0, 180.0))
    assert doc.undo_stack.count() == count + 2


def test_dragging_a_door_space_target_keeps_it_in_its_space(qtbot):
    doc, view = make_view(qtbot, "door", frame=40)
    t0 = doc.project.target("hand")
    assert t0.space.value_at(40) == "door_handle"
    expected = drag_target(view, "hand", (240.0, 60.0))
    t1 = doc.project.target("hand")
    assert t1.space == t0.space  # the space track did not change
    assert t1.space.value_at(40) == "door_handle"
    key = next(k for k in t1.position.keys if k.frame == 40)
    handle = doc.bake.spaces["door_handle"].take(doc.row)
    np.testing.assert_allclose(handle.apply(np.array(key.value)), expected, atol=1e-9)
    np.testing.assert_allclose(key.value, handle.inverse().apply(expected), atol=1e-9)
    assert np.hypot(*key.value) < 200  # handle-space numbers, not world numbers
    cb, row = chain_at(doc)
    np.testing.assert_allclose(cb.target_world[row], expected, atol=1e-9)
    # On a later frame the target rides the door: same declared value, other world point.
    row50 = doc.bake.index(50)
    assert doc.bake.chains["arm"].target_space[row50] == doc.bake.chains["arm"].target_space[row]


def test_setup_mode_moves_the_default_of_an_unkeyed_target(qtbot):
    doc, view = make_view(qtbot, "walk", frame=10, mode="setup")
    assert not doc.project.target("hand_on_hip").position.keys
    expected = drag_target(view, "hand_on_hip", (30.0, 120.0))
    t = doc.project.target("hand_on_hip")
    assert not t.position.keys  # not keyed: the rest value moved
    character = doc.bake.spaces["character"].take(doc.row)
    np.testing.assert_allclose(character.apply(np.array(t.position.default)), expected, atol=1e-9)


def test_setup_mode_moves_the_default_of_a_keyed_target_and_shows_it(qtbot):
    # Setup mode shows the setup pose (keys ignored), so its edit is the default there.
    doc, view = make_view(qtbot, "arm", frame=6, mode="setup")
    keys_before = doc.project.target("hand").position.keys
    assert keys_before and 6 not in {k.frame for k in keys_before}
    expected = drag_target(view, "hand", (160.0, 90.0))
    t = doc.project.target("hand")
    assert t.position.keys == keys_before
    character = doc.bake.spaces["character"].take(doc.row)
    np.testing.assert_allclose(character.apply(np.array(t.position.default)), expected, atol=1e-9)


# ---------------------------------------------------------------------- bones
def _rotate_bone_drag(view, doc, bone, degrees):
    col = doc.bake.column(bone)
    joint, tip = doc.bake.joint_world[doc.row, col], doc.bake.tip_world[doc.row, col]
    grab = joint + 0.8 * (tip - joint)
    a = math.radians(degrees)
    v = grab - joint
    turned = joint + np.array([v[0] * math.cos(a) - v[1] * math.sin(a), v[0] * math.sin(a) + v[1] * math.cos(a)])
    p0, p1 = to_px(view, grab), to_px(view, turned)
    expected = math.atan2(*(to_world(view, p1) - joint)[::-1]) - math.atan2(*(to_world(view, p0) - joint)[::-1])
    drag(view, p0, p1, steps=8)
    return expected


@pytest.mark.parametrize("mode", ["animate", "setup"])
def test_dragging_an_fk_bone_rotates_it(qtbot, mode):
    doc, view = make_view(qtbot, "walk", frame=6, mode=mode)
    view.zoom_by(2.0, view.map_to_viewport(doc.bake.joint_world[doc.row, doc.bake.column("head")]))
    assert doc.project.chain_of_bone("head") is None
    col = doc.bake.column("head")
    before = doc.bake.world_rotation[doc.row, col]
    head0 = doc.project.bone("head")
    turn = _rotate_bone_drag(view, doc, "head", 40.0)
    after = doc.bake.world_rotation[doc.row, col]
    assert math.remainder(after - before - turn, 2 * math.pi) == pytest.approx(0.0, abs=1e-9)
    assert math.degrees(turn) == pytest.approx(40.0, abs=2.0)
    head = doc.project.bone("head")
    if mode == "animate":
        assert head.rest_rotation == head0.rest_rotation
        assert [k.frame for k in head.rotation.keys] == [6]
    else:
        assert head.rotation == head0.rotation
        assert head.rest_rotation == pytest.approx(head0.rest_rotation + turn, abs=1e-12)
    assert doc.selection == (("bone", "head"),)
    doc.undo_stack.undo()
    assert doc.bake.world_rotation[doc.row, col] == before


def test_dragging_an_ik_bone_does_not_edit(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    messages = []
    view.statusMessage.connect(messages.append)
    project = doc.project
    col = doc.bake.column("upper_arm")
    mid = (doc.bake.joint_world[doc.row, col] + doc.bake.tip_world[doc.row, col]) / 2
    drag(view, to_px(view, mid), to_px(view, mid + (0.0, 60.0)))
    assert doc.project is project
    assert doc.selection == (("bone", "upper_arm"),)
    assert messages and "hand" in messages[0]
    QTest.mouseDClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, to_px(view, mid))
    assert doc.selection == (("chain", "arm"),)


def test_clicks_select_and_empty_space_clears(qtbot):
    doc, view = make_view(qtbot, "walk", frame=0)
    vp = view.viewport()
    QTest.mouseClick(vp, Qt.LeftButton, Qt.NoModifier, to_px(view, handle_world(view, "foot_r")))
    assert doc.selection == (("target", "foot_r"),)
    QTest.mouseClick(vp, Qt.LeftButton, Qt.ShiftModifier, to_px(view, handle_world(view, "hand_on_hip")))
    assert set(doc.selection) == {("target", "foot_r"), ("target", "hand_on_hip")}
    QTest.mouseClick(vp, Qt.LeftButton, Qt.NoModifier, QPoint(5, vp.height() // 2))
    assert doc.selection == ()
    assert doc.undo_stack.count() == 0  # clicks never edit


# ---------------------------------------------------------------------- navigation
def _wheel(view, pos: QPoint, notches: float):
    vp = view.viewport()
    ev = QWheelEvent(QPointF(pos), QPointF(vp.mapToGlobal(pos)), QPoint(0, 0), QPoint(0, int(120 * notches)),
                     Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(vp, ev)


@pytest.mark.parametrize("notches", [1, -1, 3])
def test_wheel_zoom_keeps_the_point_under_the_cursor(qtbot, notches):
    doc, view = make_view(qtbot, "walk", frame=0)
    pos = QPoint(640, 170)
    under = to_world(view, pos)
    scale = view.px_per_unit
    _wheel(view, pos, notches)
    assert view.px_per_unit == pytest.approx(scale * 1.2 ** notches)
    back = view.map_to_viewport(under)
    assert abs(back.x() - pos.x()) <= 1.0 and abs(back.y() - pos.y()) <= 1.0


def test_y_is_up_on_screen(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    assert to_px(view, (0.0, 100.0)).y() < to_px(view, (0.0, 0.0)).y()
    assert to_px(view, (100.0, 0.0)).x() > to_px(view, (0.0, 0.0)).x()


def test_frame_keys_fit_everything_and_the_selection(qtbot):
    doc, view = make_view(qtbot, "walk", frame=0)
    view.zoom_by(0.1)
    QTest.keyClick(view, Qt.Key_F)
    rect = view.viewport().rect()
    for p in doc.bake.joint_world[doc.row]:
        assert rect.contains(to_px(view, p))
    whole = view.px_per_unit
    doc.select([("bone", "head")])
    QTest.keyClick(view, Qt.Key_F, Qt.ShiftModifier)
    assert view.px_per_unit > whole
    col = doc.bake.column("head")
    assert rect.contains(to_px(view, doc.bake.tip_world[doc.row, col]))


def test_middle_drag_pans(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    origin = view.map_to_viewport((0.0, 0.0))
    vp = view.viewport()
    QTest.mousePress(vp, Qt.MiddleButton, Qt.NoModifier, QPoint(300, 300))
    QTest.mouseMove(vp, QPoint(340, 280))
    QTest.mouseRelease(vp, Qt.MiddleButton, Qt.NoModifier, QPoint(340, 280))
    moved = view.map_to_viewport((0.0, 0.0))
    assert (moved.x() - origin.x(), moved.y() - origin.y()) == pytest.approx((40.0, -20.0), abs=1.0)
    assert doc.undo_stack.count() == 0


def test_handles_keep_their_screen_size_at_any_zoom(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    blue = style.space_color(doc.project, "world")
    for factor in (1.0, 6.0, 1 / 8):
        view.zoom_by(factor, view.map_to_viewport(handle_world(view, "hand")))
        image = view.grab().toImage()
        c = to_px(view, handle_world(view, "hand"))
        inside = QColor(image.pixel(c.x(), c.y() - (style.HANDLE_RADIUS_PX - 3)))
        outside = QColor(image.pixel(c.x(), c.y() - (style.HANDLE_RADIUS_PX + 6)))
        assert _close(inside, blue), factor
        assert not _close(outside, blue), factor


def _close(a: QColor, b: QColor, tol=40):
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < tol


# ---------------------------------------------------------------------- overlays
def test_overlays_toggle(qtbot):
    doc, view = make_view(qtbot, "walk", frame=12)
    assert list(view.overlays) == list(OVERLAY_NAMES)
    assert all(isinstance(label, str) and label for label in OVERLAY_NAMES.values())
    assert {n for n, on in view.overlays.items() if not on} == {
        "onion", "art_dim", "cracks", "mesh", "weights", "collapse"}
    seen = []
    view.overlayChanged.connect(lambda n, on: seen.append((n, on)))
    for name in OVERLAY_NAMES:
        on = view.overlays[name]
        view.set_overlay(name, not on)
        assert view.overlays[name] is (not on)
        if name == "art_dim":  # a way of drawing the art, not a layer of its own
            assert view.layer("art").dim is (not on)
        else:
            assert view.layer(name).isVisible() is (not on)
    initially = [True] * 6 + [False, True, False, True, True, True, False, False, False, False]  # constraints, paths: on
    assert seen == [(n, not on) for n, on in zip(OVERLAY_NAMES, initially)]
    view.overlays["reach"] = True  # a copy: writing it changes nothing
    assert view.overlays["reach"] is False
    with pytest.raises(KeyError):
        view.set_overlay("nope", True)


def test_onion_skin_draws_neighbouring_frames(qtbot):
    doc, view = make_view(qtbot, "walk", frame=12)
    assert view.ctx.state.onion == ()
    view.set_overlay("onion", True)
    offsets = [o for o, _, _ in view.ctx.state.onion]
    assert offsets and min(offsets) < 0 < max(offsets)
    for off, joints, _ in view.ctx.state.onion:
        np.testing.assert_array_equal(joints, doc.bake.joint_world[doc.row + off])


def test_jitter_legend_follows_the_overlay(qtbot):
    doc, view = make_view(qtbot, "walk", frame=12)
    legend = view._legend
    assert legend.isVisible()
    view.set_overlay("jitter", False)
    assert not legend.isVisible()


def test_limit_arcs_mark_the_bound_joint(qtbot):
    doc, view = make_view(qtbot, "walk", frame=0)
    arcs = {a.bone: a for a in view.ctx.state.limits}
    assert set(arcs) == {"shin_l", "shin_r"}
    assert not any(a.bound for a in arcs.values())
    # The knee may fold 150 degrees: a foot 10 units from the hip needs ~168.
    hip = doc.bake.chains["leg_l"].shoulder_world[doc.row]
    drag_target(view, "foot_l", hip + (3.0, -10.0))
    cb = doc.bake.chains["leg_l"]
    assert cb.limited[doc.row] and cb.cause_names(doc.row) == "limit"
    arcs = {a.bone: a for a in view.ctx.state.limits}
    assert arcs["shin_l"].bound and not arcs["shin_r"].bound
    assert arcs["shin_l"].angle == pytest.approx(arcs["shin_l"].lo, abs=1e-9)
    assert f"{format_units(cb.residual[doc.row])} u  {style.CAUSE_LABELS['limit']}" in view.layer("residual").texts


def test_the_elbow_is_painted_in_its_jitter_colour(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    cb = doc.bake.chains["arm"]
    image = view.grab().toImage()
    c = to_px(view, cb.elbow_world[doc.row])
    assert _close(QColor(image.pixel(c.x(), c.y())), style.sensitivity_color(cb.sensitivity[doc.row]))
    view.set_overlay("jitter", False)
    image = view.grab().toImage()
    assert not _close(QColor(image.pixel(c.x(), c.y())), style.sensitivity_color(cb.sensitivity[doc.row]))


# ---------------------------------------------------------------------- updates
def test_edits_update_geometry_without_rebuilding_the_structure(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    structure = view.ctx.structure
    items = list(view.scene().items())
    drag_target(view, "hand", (100.0, 100.0))
    assert view.ctx.structure is structure
    assert list(view.scene().items()) == items
    # An FK edit (rest rotation of a bone) is no structural change either.
    doc.apply("Turn", doc.project.with_bone("upper_arm", rest_rotation=0.2), touched={"bone:upper_arm"})
    assert view.ctx.structure is structure
    bones = doc.project.bones + (Bone("finger", "forearm", 20.0, rest_offset=(125.0, 0.0)),)
    doc.apply("Add bone", replace(doc.project, bones=bones))
    assert view.ctx.structure is not structure
    assert "finger" in view.ctx.structure.bones
    assert list(view.scene().items()) == items  # still the same few layers
    col = doc.bake.column("finger")
    np.testing.assert_array_equal(view.ctx.state.tips[col], doc.bake.tip_world[doc.row, col])


def test_scrubbing_redraws_the_current_frame(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    doc.set_frame(24)
    np.testing.assert_array_equal(view.ctx.state.end[0], doc.bake.chains["arm"].end_world[doc.bake.index(24)])
    assert view.layer("residual").texts  # frame 24 is out of reach


# ---------------------------------------------------------------------- partial repaints
def _pixels(image):
    image = image.convertToFormat(QImage.Format_RGB32)
    w, h = image.width(), image.height()
    raw = np.frombuffer(image.constBits(), np.uint8).reshape(h, image.bytesPerLine())
    return raw[:, : w * 4].reshape(h, w, 4).astype(int)


def _stale_pixels(view) -> int:
    """Pixels where what is on screen (the window's backing store, painted piece by
    piece from damage boxes) differs from painting the whole view afresh."""
    QApplication.processEvents()
    on_screen = _pixels(QApplication.primaryScreen().grabWindow(view.winId()).toImage())
    fresh = _pixels(view.grab().toImage())
    assert on_screen.shape == fresh.shape
    return int(np.count_nonzero(np.abs(on_screen - fresh).max(axis=2) > 40))


def test_partial_repaints_leave_nothing_stale_while_dragging(qtbot):
    doc, view = make_view(qtbot, "walk", frame=12)
    vp = view.viewport()
    h = handle_world(view, "foot_l")
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, to_px(view, h))
    for k in range(1, 12):
        QTest.mouseMove(vp, to_px(view, h + (4.0 * k, 5.0 * k)))
        QApplication.processEvents()
    assert _stale_pixels(view) == 0  # mid-drag: only damage boxes were repainted
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, to_px(view, h + (44.0, 55.0)))


def test_partial_repaints_leave_nothing_stale_when_scrubbing_and_undoing(qtbot):
    doc, view = make_view(qtbot, "door", frame=10)
    for frame in (14, 22, 35, 36, 60):
        doc.set_frame(frame)
        QApplication.processEvents()
    assert _stale_pixels(view) == 0
    drag_target(view, "hand", (200.0, 40.0))
    doc.undo_stack.undo()
    assert _stale_pixels(view) == 0


def test_opening_other_documents_rebuilds_and_frames_them(qtbot):
    from rigeditor.model import Project

    doc, view = make_view(qtbot, "arm", frame=24)
    drag_target(view, "hand", (100.0, 100.0))
    doc.replace_document(EXAMPLES["walk"](), None)
    assert view.ctx.structure.targets == ("foot_l", "foot_r", "hand_on_hip")
    rect = view.viewport().rect()
    for p in doc.bake.joint_world[doc.row]:
        assert rect.contains(to_px(view, p))  # framed on opening
    view.grab()
    doc.replace_document(Project(), None)  # nothing in it
    assert view.ctx.state.joints.shape == (0, 2) and view.ctx.state.chains == ()
    view.grab()
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, QPoint(100, 100))
    assert doc.selection == ()


def test_escape_cancels_a_drag_and_leaves_nothing_to_redo(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0)
    before = doc.project
    vp = view.viewport()
    h = handle_world(view, "hand")
    p0, p1 = to_px(view, h), to_px(view, (120.0, 40.0))
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, p0)
    QTest.mouseMove(vp, p1)
    assert doc.project != before  # the pose followed the pointer
    QTest.keyClick(view, Qt.Key_Escape)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, p1)
    assert doc.project == before
    assert not doc.undo_stack.canRedo() and not doc.undo_stack.canUndo()



# ---------------------------------------------------------------------- bone tool
def _tip(doc, bone):
    return doc.bake.tip_world[doc.row, doc.bake.column(bone)].copy()


def _joint(doc, bone):
    return doc.bake.joint_world[doc.row, doc.bake.column(bone)].copy()


def test_the_scene_honours_the_edit_tool_with_a_crosshair(qtbot):
    doc, view = make_view(qtbot, "walk", frame=0)
    vp = view.viewport()
    assert vp.cursor().shape() != Qt.CrossCursor
    EditTool.of(doc).set_tool("bone")
    assert vp.cursor().shape() == Qt.CrossCursor
    # Hovering a bone or a target keeps the crosshair in bone mode.
    for world in (handle_world(view, "foot_l"), (_joint(doc, "spine") + _tip(doc, "spine")) / 2):
        QTest.mouseMove(vp, to_px(view, world))
        assert vp.cursor().shape() == Qt.CrossCursor
    EditTool.of(doc).set_tool("select")
    QTest.mouseMove(vp, QPoint(5, 5))
    assert vp.cursor().shape() != Qt.CrossCursor


def test_bone_tool_drag_from_a_tip_makes_a_child_there_in_one_undo_step(qtbot):
    doc, view = make_view(qtbot, "walk", frame=12)
    EditTool.of(doc).set_tool("bone")
    tip = _tip(doc, "head")
    vp = view.viewport()
    p0 = to_px(view, tip + (2.0 / view.px_per_unit, 3.0 / view.px_per_unit))  # near the tip, not on it
    p1 = to_px(view, tip + (70.0, -20.0))
    count = doc.undo_stack.count()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, p0)
    for k in range(1, 9):
        QTest.mouseMove(vp, QPoint(round(p0.x() + (p1.x() - p0.x()) * k / 8), round(p0.y() + (p1.y() - p0.y()) * k / 8)))
        QApplication.processEvents()
    # Mid-drag: a preview from the tip itself to the pointer, nothing in the document yet.
    start, end, snapped, _ = view._preview.bone
    np.testing.assert_array_equal(start, tip)
    np.testing.assert_allclose(end, to_world(view, p1), atol=1e-9)
    assert snapped
    assert doc.undo_stack.count() == count
    assert _stale_pixels(view) == 0  # the preview's damage boxes cover what it paints
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, p1)
    assert view._preview.bone is None
    assert doc.undo_stack.count() == count + 1
    (kind, name), = doc.selection
    bone = doc.project.bone(name)
    assert kind == "bone" and bone.parent == "head"
    assert bone.rest_offset == (doc.project.bone("head").length, 0.0)  # exactly at the tip
    np.testing.assert_allclose(_joint(doc, name), tip, atol=1e-9)
    np.testing.assert_allclose(_tip(doc, name), to_world(view, p1), atol=1e-9)
    doc.undo_stack.undo()
    assert name not in [b.name for b in doc.project.bones]


def test_bone_tool_off_a_tip_parents_to_the_selected_bone_or_makes_a_root(qtbot):
    doc, view = make_view(qtbot, "walk", frame=0)
    EditTool.of(doc).set_tool("bone")
    p0, p1 = QPoint(120, 120), QPoint(200, 90)
    transform = view.viewportTransform()
    drag(view, p0, p1)
    assert view.viewportTransform() == transform  # the first edit of a document keeps the view
    (_, root), = doc.selection
    assert doc.project.bone(root).parent is None
    np.testing.assert_allclose(_joint(doc, root), to_world(view, p0), atol=1e-9)
    np.testing.assert_allclose(_tip(doc, root), to_world(view, p1), atol=1e-9)
    # With one bone selected, a drag from elsewhere makes its child, starting where the
    # drag began (the press does not change the selection in bone mode).
    doc.select([("bone", "spine")])
    q0, q1 = QPoint(700, 500), QPoint(760, 560)
    drag(view, q0, q1)
    (_, child), = doc.selection
    assert child != root and doc.project.bone(child).parent == "spine"
    np.testing.assert_allclose(_joint(doc, child), to_world(view, q0), atol=1e-9)
    np.testing.assert_allclose(_tip(doc, child), to_world(view, q1), atol=1e-9)
    assert doc.undo_stack.count() == 2


def test_bone_tool_short_drags_and_escape_make_no_bone(qtbot):
    doc, view = make_view(qtbot, "walk", frame=0)
    EditTool.of(doc).set_tool("bone")
    before = doc.project
    drag(view, QPoint(150, 150), QPoint(152, 151))  # a click, not a drag
    assert doc.project is before
    vp = view.viewport()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, QPoint(150, 150))
    QTest.mouseMove(vp, QPoint(260, 200))
    assert view._preview.bone is not None
    QTest.keyClick(view, Qt.Key_Escape)
    assert view._preview.bone is None
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, QPoint(260, 200))
    assert doc.project is before and doc.undo_stack.count() == 0
    assert vp.cursor().shape() == Qt.CrossCursor
    # The next drag works as usual.
    drag(view, QPoint(150, 150), QPoint(260, 200))
    assert doc.undo_stack.count() == 1


# ---------------------------------------------------------------------- setup: tip drags
def _tip_drag(view, doc, bone, to, steps=6):
    """Drag ``bone``'s tip (grabbed a few pixels off it) to the pixel of world ``to``;
    returns where the tip must land (release point plus the grab offset)."""
    tip = _tip(doc, bone)
    p0 = to_px(view, tip) + QPoint(2, -2)
    p1 = to_px(view, to)
    drag(view, p0, p1, steps)
    return to_world(view, p1) + (tip - to_world(view, p0))


def test_setup_tip_drag_sets_length_and_rest_angle_and_children_follow(qtbot):
    doc, view = make_view(qtbot, "walk", frame=12, mode="setup")
    spine0 = doc.project.bone("spine")
    joint, tip0 = _joint(doc, "spine"), _tip(doc, "spine")
    count = doc.undo_stack.count()
    expected = _tip_drag(view, doc, "spine", joint + (40.0, 75.0))
    spine = doc.project.bone("spine")
    assert spine.length == pytest.approx(np.hypot(*(expected - joint)), abs=1e-9)  # unit scale here
    turn = math.atan2(*(expected - joint)[::-1]) - math.atan2(*(tip0 - joint)[::-1])
    assert spine.rest_rotation == pytest.approx(spine0.rest_rotation + turn, abs=1e-9)
    assert spine.rotation == spine0.rotation  # setup: nothing keyed
    np.testing.assert_allclose(_tip(doc, "spine"), expected, atol=1e-9)
    # The head started at the spine's tip and still does; the arm (at 55 of 60) keeps its offset.
    assert doc.project.bone("head").rest_offset == (spine.length, 0.0)
    np.testing.assert_allclose(_joint(doc, "head"), expected, atol=1e-9)
    assert doc.project.bone("upper_arm_l").rest_offset == (55.0, 0.0)
    assert doc.selection == (("bone", "spine"),)
    assert doc.undo_stack.count() == count + 1
    doc.undo_stack.undo()
    assert doc.project.bone("spine") == spine0
    np.testing.assert_array_equal(_tip(doc, "spine"), tip0)


def test_tip_drag_is_measured_in_a_scaled_and_mirrored_parent_space(qtbot):
    from rigeditor.model import Project, Space, Timeline
    from rigeditor.model.data.timeline import constant

    character = Space("character", "world", position=constant(20.0, -10.0), rotation=constant(0.3),
                      scale=constant(-1.5, 0.8))
    project = Project("mirrored", Timeline(24.0, 0, 10), spaces=(character,), bones=(
        Bone("root", None, 80.0, rest_rotation=0.4),
        Bone("child", "root", 40.0, rest_offset=(80.0, 0.0), rest_rotation=-0.7)))
    doc, view = make_view(qtbot, project, mode="setup")
    expected = _tip_drag(view, doc, "root", _joint(doc, "root") + (-60.0, 90.0))
    np.testing.assert_allclose(_tip(doc, "root"), expected, atol=1e-9)  # the tip is under the pointer
    np.testing.assert_allclose(_joint(doc, "child"), expected, atol=1e-9)
    space = doc.bake.spaces["character"].take(doc.row)
    local = space.inverse().apply(expected) - np.array([0.0, 0.0])  # the root's joint is the origin
    root = doc.project.bone("root")
    assert root.length == pytest.approx(np.hypot(*local), abs=1e-9)
    assert root.length != pytest.approx(np.hypot(*(expected - _joint(doc, "root"))), rel=1e-3)
    assert math.remainder(root.rest_rotation - math.atan2(local[1], local[0]), 2 * math.pi) == pytest.approx(0, abs=1e-9)


def test_setup_tip_drag_on_an_ik_bone_changes_its_length_and_the_chain_keeps_solving(qtbot):
    doc, view = make_view(qtbot, "arm", frame=0, mode="setup")
    upper0 = doc.project.bone("upper_arm")
    shoulder, elbow0 = _joint(doc, "upper_arm"), _tip(doc, "upper_arm")
    aim = shoulder + 110.0 * (elbow0 - shoulder) / np.hypot(*(elbow0 - shoulder)) + (0.0, 25.0)
    expected = _tip_drag(view, doc, "upper_arm", aim)
    upper = doc.project.bone("upper_arm")
    assert upper.length == pytest.approx(np.hypot(*(expected - shoulder)), abs=1e-9)
    assert upper.length < 140
    turn = math.atan2(*(expected - shoulder)[::-1]) - math.atan2(*(elbow0 - shoulder)[::-1])
    assert upper.rest_rotation == pytest.approx(upper0.rest_rotation + turn, abs=1e-9)
    assert doc.project.bone("forearm").rest_offset == (upper.length, 0.0)  # the chain stays connected
    cb = doc.bake.chains["arm"]
    assert cb.reach[1] == pytest.approx(upper.length + 125.0)
    assert cb.residual[doc.row] < 1e-6  # still reachable: the hand is still on its target
    assert np.hypot(*(_tip(doc, "upper_arm") - shoulder)) == pytest.approx(upper.length, abs=1e-9)
    assert doc.undo_stack.count() == 1


def test_animate_mode_tip_drag_rotates_and_keeps_the_length(qtbot):
    doc, view = make_view(qtbot, "walk", frame=6, mode="animate")
    head0 = doc.project.bone("head")
    spine0 = doc.project.bone("spine")
    before = spine0.rotation.value_at(6)[0]
    _tip_drag(view, doc, "spine", _joint(doc, "spine") + (40.0, 75.0))
    spine = doc.project.bone("spine")
    assert spine.length == 60.0 and doc.project.bone("head") == head0
    assert spine.rest_rotation == spine0.rest_rotation
    assert abs(spine.rotation.value_at(6)[0] - before) > 0.3  # keyed at frame 6: a rotation


def test_escape_cancels_a_tip_drag(qtbot):
    doc, view = make_view(qtbot, "walk", frame=0, mode="setup")
    before = doc.project
    vp = view.viewport()
    p0 = to_px(view, _tip(doc, "spine"))
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, p0)
    QTest.mouseMove(vp, p0 + QPoint(40, -30))
    assert doc.project.bone("spine").length != before.bone("spine").length
    QTest.keyClick(view, Qt.Key_Escape)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, p0 + QPoint(40, -30))
    assert doc.project == before
    assert not doc.undo_stack.canRedo() and not doc.undo_stack.canUndo()


# ---------------------------------------------------------------------- Space
def _window_with_play_shortcut(qtbot):
    """The view in a main window with a window-wide Space action (like play/pause),
    and a plain focusable widget beside it."""
    doc = Document(EXAMPLES["arm"]())
    window = QMainWindow()
    qtbot.addWidget(window)
    central = QWidget()
    layout = QHBoxLayout(central)
    view = SceneView(doc)
    other = QWidget()
    other.setFocusPolicy(Qt.StrongFocus)
    layout.addWidget(view, 1)
    layout.addWidget(other)
    window.setCentralWidget(central)
    _ALIVE.append((doc, view))
    _WINDOWS.append(window)
    played = []
    action = QAction("Play", window)
    action.setShortcut(QKeySequence(Qt.Key_Space))
    action.setShortcutContext(Qt.WindowShortcut)
    action.triggered.connect(lambda: played.append("action"))
    window.addAction(action)
    window.resize(1000, 650)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    # Let the layout settle: a late resize re-frames a view nobody has navigated yet,
    # which would move the origin the pan tests measure from.
    qtbot.waitUntil(lambda: view.viewport().width() > 0)
    qtbot.wait(100)
    view.playToggleRequested.connect(lambda: played.append("view"))
    return doc, view, other, played


def test_space_tap_in_the_view_asks_to_play_and_does_not_pan(qtbot):
    doc, view, other, played = _window_with_play_shortcut(qtbot)
    other.setFocus()
    QTest.keyClick(other, Qt.Key_Space)
    assert played == ["action"]  # the window-wide shortcut is live elsewhere
    view.setFocus()
    assert view.hasFocus()
    origin = view.map_to_viewport((0.0, 0.0))
    QTest.keyClick(view, Qt.Key_Space)
    assert played == ["action", "view"]  # the view took the key, and asked once
    # Held down (the system repeats it as auto-repeat release/press pairs), then
    # released: one request, on the real release.
    QTest.keyPress(view, Qt.Key_Space)
    for _ in range(3):
        QApplication.sendEvent(view, QKeyEvent(QEvent.KeyRelease, Qt.Key_Space, Qt.NoModifier, " ", True))
        QApplication.sendEvent(view, QKeyEvent(QEvent.KeyPress, Qt.Key_Space, Qt.NoModifier, " ", True))
    assert played == ["action", "view"]
    QTest.keyRelease(view, Qt.Key_Space)
    assert played == ["action", "view", "view"]
    moved = view.map_to_viewport((0.0, 0.0))
    assert (moved.x(), moved.y()) == (origin.x(), origin.y())
    assert view.viewport().cursor().shape() != Qt.OpenHandCursor


def test_space_drag_pans_and_does_not_ask_to_play(qtbot):
    doc, view, other, played = _window_with_play_shortcut(qtbot)
    view.setFocus()
    vp = view.viewport()
    origin = view.map_to_viewport((0.0, 0.0))
    QTest.keyPress(view, Qt.Key_Space)
    assert vp.cursor().shape() == Qt.OpenHandCursor
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, QPoint(300, 300))
    QTest.mouseMove(vp, QPoint(330, 320))
    QTest.mouseMove(vp, QPoint(360, 345))
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, QPoint(360, 345))
    QTest.keyRelease(view, Qt.Key_Space)
    moved = view.map_to_viewport((0.0, 0.0))
    assert (moved.x() - origin.x(), moved.y() - origin.y()) == pytest.approx((60.0, 45.0), abs=1.0)
    assert played == []
    assert doc.selection == () and doc.undo_stack.count() == 0
    # The next tap asks again.
    QTest.keyClick(view, Qt.Key_Space)
    assert played == ["view"]


def test_during_a_drag_labels_ride_with_their_anchor_and_the_others_stay_put(qtbot):
    # Placing a label is the costly part of a drag's layout: the dragged target's
    # label moves along with its handle while its spot stays free, and every other
    # label keeps its place; none overlaps another.
    doc, view = make_view(qtbot, "walk", frame=30)
    view.grab()
    labels = view.layer("labels")

    def rects():
        return {lb.key: (lb.rect.x(), lb.rect.y(), lb.rect.width(), lb.rect.height()) for lb in labels.placed}

    before = rects()
    vp = view.viewport()
    p0 = to_px(view, handle_world(view, "foot_l"))
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, p0)
    for step in range(1, 5):
        QTest.mouseMove(vp, p0 + QPoint(3 * step, 2 * step))
        now = rects()
        assert now["target:foot_l"][2:] == before["target:foot_l"][2:]
        dx, dy = now["target:foot_l"][0] - before["target:foot_l"][0], now["target:foot_l"][1] - before["target:foot_l"][1]
        assert (dx, dy) == pytest.approx((3 * step, 2 * step), abs=1.0)  # the handle's motion, to rounding
        for key in ("target:foot_r", "target:hand_on_hip", "space:character"):
            assert now[key] == before[key], key
        boxes = [lb.rect for lb in labels.placed]
        assert not any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, p0 + QPoint(12, 8))


def test_ghost_dashes_run_along_each_segment_and_leave_gaps():
    """The mirror solution's dashes (drawn as short solid lines): every dash lies on
    its segment, none passes the segment's end, and dashes cover DASH/(DASH+GAP) of
    the length (within one dash)."""
    from rigeditor.app.scene.overlays import DASH_PX, GAP_PX, dash_lines

    a = np.array([[0.0, 0.0], [10.0, 5.0]])
    b = np.array([[30.0, 40.0], [10.0, 5.5]])  # 50 px long, then shorter than one dash
    lines = dash_lines(a, b)
    for k, length in enumerate((50.0, 0.5)):
        u = (b[k] - a[k]) / length
        on = []
        for ln in lines:
            p0, p1 = np.array([ln.x1(), ln.y1()]), np.array([ln.x2(), ln.y2()])
            t0, t1 = (p0 - a[k]) @ u, (p1 - a[k]) @ u
            off = max(abs(u[0] * (p[1] - a[k][1]) - u[1] * (p[0] - a[k][0])) for p in (p0, p1))
            if off < 1e-9 and -1e-9 <= t0 <= length + 1e-9:
                assert t1 <= length + 1e-9
                on.append(t1 - t0)
        assert on, "a segment without dashes"
        covered = sum(on)
        assert abs(covered - length * DASH_PX / (DASH_PX + GAP_PX)) <= DASH_PX
        assert covered < length or length <= DASH_PX
