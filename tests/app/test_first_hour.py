"""A newcomer's first hour, driven with real keys and mouse events (pytest-qt,
offscreen): File > New gives an empty rig with a hint on how to start, every view
copes with nothing in it, the first bones get short names, a chain and its target
follow, Delete on everything deletes what it can, the standard shortcuts take every
binding, and the jitter legend folds and moves out of the way."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, QSettings, Qt
from PySide6.QtGui import QAction, QImage, QKeySequence, QPainter
from PySide6.QtTest import QTest

from fakes import FakeDialogs
from windows import make_window, settle, px, world
from rigeditor import edits
from rigeditor.app.curves import NO_CHAIN
from rigeditor.app.document import Document
from rigeditor.app.main_window import MainWindow
from rigeditor.app.scene import hint
from rigeditor.app.scene.layers import PAINT_ERRORS
from rigeditor.model import evaluate
from rigeditor.examples.rigs import EXAMPLES, arm, door
from rigeditor.examples.files import load_example
from rigeditor.examples.files import EXAMPLE_NAMES
from rigeditor.model.data.project import CHARACTER, Project
from rigeditor.model.validation.project import problems


@pytest.fixture(autouse=True)
def _no_paint_errors():
    del PAINT_ERRORS[:]
    yield
    assert not PAINT_ERRORS, PAINT_ERRORS[0]


def drag(widget, a: QPoint, b: QPoint, steps=6, modifiers=Qt.NoModifier):
    QTest.mousePress(widget, Qt.LeftButton, modifiers, a)
    for k in range(1, steps + 1):
        QTest.mouseMove(widget, QPoint(round(a.x() + (b.x() - a.x()) * k / steps),
                                       round(a.y() + (b.y() - a.y()) * k / steps)))
    QTest.mouseRelease(widget, Qt.LeftButton, modifiers, b)
    settle()


def tip(doc, bone):
    return doc.bake.tip_world[doc.row, doc.bake.column(bone)].copy()


def joint(doc, bone):
    return doc.bake.joint_world[doc.row, doc.bake.column(bone)].copy()


# ---------------------------------------------------------------------- starting from nothing

def test_new_is_an_empty_rig_in_setup_mode_and_examples_are_one_menu_away(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    w.new_action.trigger()
    p = doc.project
    assert [s.name for s in p.spaces] == [CHARACTER]
    assert p.bones == () and p.chains == () and p.targets == ()
    assert doc.mode == "setup" and w.mode_status.text().strip() == "SETUP"
    assert doc.path is None and not doc.is_modified() and doc.undo_stack.count() == 0
    assert problems(p) == []
    assert w.files.save_as(tmp_path / "empty.rigproj") and w.files.load(tmp_path / "empty.rigproj")
    assert doc.project == p
    # File > New from Example lists every example; each opens as a new, unsaved project.
    file_menu = w.menuBar().actions()[0].menu()
    sub = next(a.menu() for a in file_menu.actions() if a.menu() and "Example" in a.text().replace("&", ""))
    assert [a.text().lower().replace(" ", "_") for a in sub.actions()] == [
        *EXAMPLES, "dressed_arm", "dressed_walk", "rigid_arm", "skinned_arm"]
    for action in sub.actions():
        action.trigger()
        name = action.text().lower().replace(" ", "_")
        assert doc.project == load_example(name) and doc.project.name == name and doc.path is None
        assert doc.mode == "animate"
        assert f"{name} (unsaved)" in w.windowTitle()


def _origin_px(view) -> QPointF:
    return QPointF(px(view, view.doc.bake.spaces[CHARACTER].take(view.doc.row).apply(np.zeros(2))))


def _card_rect(view) -> QRectF:
    """Where the hint card is drawn in this viewport (the same function the view paints
    with, run on a scratch image)."""
    image = QImage(view.viewport().size(), QImage.Format_ARGB32)
    p = QPainter(image)
    try:
        return hint.draw_start_hint(p, QRectF(view.viewport().rect()), view.edit_tool.tool, avoid=_origin_px(view))
    finally:
        p.end()


def _median_gray(image: QImage, r: QRectF) -> float:
    inner = r.adjusted(12, 12, -12, -12).toRect()
    values = [QImage.pixelColor(image, x, y).lightness()
              for x in range(inner.left(), inner.right(), 3) for y in range(inner.top(), inner.bottom(), 3)]
    return float(np.median(values))


def test_the_empty_scene_says_how_to_start_until_the_first_bone(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path, Project())
    view = w.scene
    card = _card_rect(view)
    assert view.viewport().rect().contains(card.toRect())
    background = _median_gray(view.viewport().grab().toImage(), QRectF(0, view.height() - 60, 60, 50))
    empty = view.viewport().grab().toImage()
    assert _median_gray(empty, card) < background - 8  # the dark card is there
    # The hint names the keys the actions really have.
    text = hint.text()
    for action in (w.rig.bone_tool_action, w.rig.add_chain_action, w.rig.select_tool_action):
        assert action.shortcut().toString() in text
    # ...and the menu entries that start from art or an example, by the menu's own words.
    file_menu = {a.text() for a in w.menuBar().actions()[0].menu().actions()}
    for action in (w.import_psd_action, w.import_images_action, w.import_spine_action):
        assert action.text() in text and action.text() in file_menu
    assert "File \u25b8 New from Example (" in text and "New from E&xample" in file_menu
    named = text.split("New from Example (")[1].split("\u2026)")[0].split(", ")
    assert {"arm", "dressed_walk"} <= set(named) <= set(EXAMPLE_NAMES)
    # Wherever the view is panned, the card leaves the character's origin (where the
    # first bone usually starts) in sight.
    for y in (40, card.center().y(), view.viewport().height() / 2):
        view.pan_by(0, y - _origin_px(view).y())
        settle()
        origin, card = _origin_px(view), _card_rect(view)
        assert abs(origin.y() - y) <= 1
        assert not card.intersects(QRectF(origin - QPointF(20, 20), origin + QPointF(20, 20)))
        assert _median_gray(view.viewport().grab().toImage(), card) < background - 8
    # A bone away from the card: the hint is gone; undo brings it back.
    far = world(view, QPoint(30, view.viewport().height() - 30))
    project, _ = edits.add_bone_between(doc.project, doc.bake, doc.row, far, far + (0.0, 1.0 / view.px_per_unit * 20), None)
    doc.apply("Add bone", project)
    settle()
    assert abs(_median_gray(view.viewport().grab().toImage(), card) - background) <= 3
    doc.undo_stack.undo()
    settle()
    assert _median_gray(view.viewport().grab().toImage(), card) < background - 8


def test_every_view_overlay_timeline_and_curve_copes_with_an_empty_project(qtbot, tmp_path):
    bake = evaluate(Project())
    frames = Project().timeline.frames
    assert bake.local_rotation.shape == (len(frames), 0) and bake.joint_world.shape == (len(frames), 0, 2)
    assert bake.chains == {} and set(bake.spaces) == {"world", CHARACTER}
    again = evaluate(Project(), previous=bake, changed={"chain:none"})
    assert again.local_rotation.shape == bake.local_rotation.shape and again.chains == {}

    w, doc, dialogs = make_window(qtbot, tmp_path, Project())
    view = w.scene
    for name in view.OVERLAY_NAMES:
        view.set_overlay(name, True)
    view.viewport().grab()
    QTest.keyClick(view, Qt.Key_F)
    QTest.keyClick(view, Qt.Key_F, Qt.ShiftModifier)
    view.zoom_by(3.0)
    QTest.mouseMove(view.viewport(), QPoint(200, 200))
    drag(view.viewport(), QPoint(200, 200), QPoint(260, 240))  # select tool on nothing: nothing happens
    assert doc.undo_stack.count() == 0
    # The timeline: scrub, step, key with nothing selected, play and stop.
    for frame in (0, 24, doc.project.timeline.end):
        doc.set_frame(frame)
        settle()
        assert w.frame_status.text().startswith(f"Frame {frame}")
    for action in w.timeline_actions:
        action.trigger()
        settle()
    if w.timeline.is_playing():
        w.timeline.pause()
    assert doc.undo_stack.count() == 0 and doc.project == Project()
    # The curves: no chain, a sentence saying how to get one, no data drawn.
    assert w.curves._title.text() == NO_CHAIN
    assert w.curves.angle_curves == {}
    assert all(c.xData is None or len(c.xData) == 0 for c in w.curves.residual_curves.values())
    assert w.chain_status.text() == "No chain selected"
    # The legend has no elbow to colour.
    assert not view.legend.isVisible()
    # The outliner lists the character alone; selected there, the inspector shows it.
    item = w.outliner.item_for("space", CHARACTER)
    assert [w.outliner.group(k).childCount() for k in ("bone", "chain", "target", "space")] == [0, 0, 0, 1]
    QTest.mouseClick(w.outliner.viewport(), Qt.LeftButton, Qt.NoModifier,
                     w.outliner.visualItemRect(item).center())
    assert doc.selection == (("space", CHARACTER),)
    w.grab()
    # Every export writes an empty rig (no error, a file).
    for kind, suffix in (("csv", ".csv"), ("json", ".json"), ("spine", ".spine.json"), ("png", ".png")):
        assert w.files.export(kind, tmp_path / f"empty{suffix}"), dialogs.asked("error")
        assert (tmp_path / f"empty{suffix}").stat().st_size > 0


def test_a_newcomer_draws_two_bones_adds_a_chain_and_drags_its_target(qtbot, tmp_path):
    w, doc, dialogs = make_window(qtbot, tmp_path)
    w.new_action.trigger()
    view, vp = w.scene, w.scene.viewport()
    QTest.keyClick(view, Qt.Key_B)  # the Bone tool, as the hint says
    assert view.edit_tool.tool == "bone"
    c = vp.rect().center()
    a, b = c + QPoint(-150, 40), c + QPoint(-20, -60)
    drag(vp, a, b)
    assert [x.name for x in doc.project.bones] == ["bone1"]
    np.testing.assert_allclose(joint(doc, "bone1"), world(view, a), atol=1e-9)
    np.testing.assert_allclose(tip(doc, "bone1"), world(view, b), atol=1e-9)
    # The second bone from the first one's tip: its child, joined exactly there.
    end = c + QPoint(110, 20)
    drag(vp, px(view, tip(doc, "bone1")) + QPoint(2, 1), end)
    assert [x.name for x in doc.project.bones] == ["bone1", "bone2"]
    bone2 = doc.project.bone("bone2")
    assert bone2.parent == "bone1" and bone2.rest_offset == (doc.project.bone("bone1").length, 0.0)
    # Select both with the Select tool (click, Shift+click on the bodies), then Ctrl+I.
    QTest.keyClick(view, Qt.Key_V)
    for bone, mods in (("bone1", Qt.NoModifier), ("bone2", Qt.ShiftModifier)):
        mid = (joint(doc, bone) + tip(doc, bone)) / 2
        QTest.mouseClick(vp, Qt.LeftButton, mods, px(view, mid))
    assert set(doc.selection) == {("bone", "bone1"), ("bone", "bone2")}
    QTest.keyClick(view, Qt.Key_I, Qt.ControlModifier)
    settle()
    assert dialogs.asked("pick"), "Ctrl+I asks which space the target is declared in"
    (chain,) = doc.project.chains
    assert chain.bones == ("bone1", "bone2") and chain.solver == "analytic"
    (target,) = doc.project.targets
    assert chain.target == target.name
    # Drag the new target to a point the arm reaches: the end lands on it.
    handle = view.ctx.state.handle[view.ctx.state.targets.index(target.name)]
    goal = (joint(doc, "bone1") + tip(doc, "bone2")) / 2 + (0.0, 15.0)
    p0, p1 = px(view, handle), px(view, goal)
    drag(vp, p0, p1)
    landed = world(view, p1) + (handle - world(view, p0))
    cb = doc.bake.chains[chain.name]
    np.testing.assert_allclose(cb.end_world[doc.row], landed, atol=1e-6)
    assert float(cb.residual[doc.row]) < 1e-6
    assert doc.undo_stack.count() == 4  # bone, bone, chain, drag
    assert problems(doc.project) == []


# ---------------------------------------------------------------------- names

def test_new_bones_are_numbered_short_and_unique_at_any_depth():
    p = Project()
    names = []
    parent = None
    for _ in range(4):
        p, name = edits.add_bone(p, parent, 10.0)
        names.append(name)
        parent = name  # each a child of the last: names must not grow with depth
    assert names == ["bone1", "bone2", "bone3", "bone4"]
    # After bone7 comes bone8; other names sharing the prefix do not count.
    p = edits.rename(p, "bone", "bone2", "bone7")
    p = edits.rename(p, "bone", "bone3", "bones")
    p, name = edits.add_bone(p, None, 10.0)
    assert name == "bone8"
    assert edits.numbered_name(["bone_9", "bone", "backbone3", "bone1x"], "bone") == "bone1"


def test_the_bone_dialogs_propose_the_next_numbered_name(qtbot, tmp_path):
    w, doc, dialogs = make_window(qtbot, tmp_path, Project())
    w.rig.add_root_bone_action.trigger()
    w.rig.add_child_bone_action.trigger()  # the new bone is selected: a child of it
    proposed = [fields[0][2] for _, fields in dialogs.asked("form")]
    assert proposed == ["bone1", "bone2"]
    assert doc.project.bone("bone2").parent == "bone1"


# ---------------------------------------------------------------------- delete

def test_delete_everything_in_the_outliner_deletes_what_it_can_in_one_step(qtbot, tmp_path):
    w, doc, dialogs = make_window(qtbot, tmp_path, door())
    tree = w.outliner
    tree.setFocus()
    QTest.keyClick(tree, Qt.Key_A, Qt.ControlModifier)
    everything = {(k, x.name) for k, pool in (("bone", doc.project.bones), ("chain", doc.project.chains),
                                              ("target", doc.project.targets), ("space", doc.project.spaces))
                  for x in pool}
    assert set(doc.selection) == everything
    QTest.keyClick(tree, Qt.Key_Delete)
    settle()
    p = doc.project
    # The hand target was declared in the handle: once it is gone, so can the door be.
    assert [s.name for s in p.spaces] == [CHARACTER]
    assert p.bones == () and p.chains == () and p.targets == ()
    assert not dialogs.asked("error") and not dialogs.asked("confirm")  # all of it was selected
    assert doc.undo_stack.count() == 1
    assert doc.selection == (("space", CHARACTER),)  # what was kept stays selected
    message = w.statusBar().currentMessage()
    assert "Deleted" in message and "Kept character" in message and "rig root" in message
    doc.undo_stack.undo()
    assert doc.project == door()


def test_delete_asks_only_for_what_the_selection_does_not_hold(qtbot, tmp_path):
    w, doc, dialogs = make_window(qtbot, tmp_path, confirm=[False])
    doc.select([("bone", "forearm")])
    w.delete_action.trigger()
    (question,) = dialogs.asked("confirm")
    assert "chain arm" in question[1]
    assert doc.project == arm()  # cancelled
    # Only the character: nothing can go; said in a message, nothing changes.
    doc.select([("space", CHARACTER)])
    w.delete_action.trigger()
    (error,) = dialogs.asked("error")
    assert "rig root" in error[1] and doc.undo_stack.count() == 0


def test_delete_items_tries_refused_items_again_after_the_others():
    p = door()
    new, deleted, kept = edits.delete_items(p, [("space", "door"), ("space", "door_handle"), ("target", "hand"),
                                                   ("space", CHARACTER)])
    # The hand target drives the arm chain: refused; so its space stays, and the door
    # the handle hangs under; the character never goes. Each says why.
    reasons = dict(kept)
    assert set(reasons) == {("target", "hand"), ("space", "door_handle"), ("space", "door"), ("space", CHARACTER)}
    assert "arm" in reasons[("target", "hand")] and "hand" in reasons[("space", "door_handle")]
    assert "door_handle" in reasons[("space", "door")] and "rig root" in reasons[("space", CHARACTER)]
    assert new == p and deleted == []
    new, deleted, kept = edits.delete_items(p, [("space", "door"), ("space", "door_handle"), ("chain", "arm")])
    assert kept == [] and {s.name for s in new.spaces} == {CHARACTER}
    assert set(deleted) == {("chain", "arm"), ("target", "hand"), ("space", "door"), ("space", "door_handle")}
    assert problems(new) == []


# ---------------------------------------------------------------------- shortcuts

STANDARD = ("new_action", QKeySequence.New), ("open_action", QKeySequence.Open), \
    ("save_action", QKeySequence.Save), ("save_as_action", QKeySequence.SaveAs), \
    ("quit_action", QKeySequence.Quit), ("undo_action", QKeySequence.Undo), \
    ("redo_action", QKeySequence.Redo), ("delete_action", QKeySequence.Delete), \
    ("select_all_action", QKeySequence.SelectAll)


def test_standard_actions_take_every_platform_binding_and_none_is_ambiguous(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    for attr, key in STANDARD:
        bound = getattr(w, attr).shortcuts()
        for seq in QKeySequence.keyBindings(key):
            assert seq in bound, f"{attr} lacks {seq.toString()}"
    redo = [s.toString() for s in w.redo_action.shortcuts()]
    assert "Ctrl+Shift+Z" in redo and "Ctrl+Y" in redo
    assert "Ctrl+Q" in [s.toString() for s in w.quit_action.shortcuts()]
    assert "Ctrl+Shift+S" in [s.toString() for s in w.save_as_action.shortcuts()]
    # Two actions on one key would both go dead (Qt calls that ambiguous).
    owners = {}
    for action in w.findChildren(QAction):
        for seq in action.shortcuts():
            owners.setdefault(seq.toString(), set()).add(action.text())
    assert {k: v for k, v in owners.items() if len(v) > 1} == {}


def test_undo_and_redo_keys_work_on_every_binding(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    edited = doc.project.with_chain("arm", mix=doc.project.chain("arm").mix.__class__((0.5,)))
    doc.apply("Set mix", edited)
    view = w.scene
    view.setFocus()
    for redo in ((Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier), (Qt.Key_Y, Qt.ControlModifier)):
        QTest.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
        assert doc.project == arm()
        QTest.keyClick(view, *redo)
        assert doc.project == edited


# ---------------------------------------------------------------------- the jitter legend

def _view_point(legend, view_pos: QPoint) -> QPoint:
    """A point given in the view's pixels, in the legend's own (it moves while dragged)."""
    return legend.mapFromGlobal(legend.parentWidget().mapToGlobal(view_pos))


def drag_legend(legend, grab: QPoint, to: QPoint, steps=8):
    """Press on the legend at ``grab`` (its pixels), move to ``to`` (the view's pixels
    where the grabbed point should end), release."""
    start = legend.mapTo(legend.parentWidget(), grab)
    QTest.mousePress(legend, Qt.LeftButton, Qt.NoModifier, grab)
    for k in range(1, steps + 1):
        v = QPoint(round(start.x() + (to.x() - start.x()) * k / steps), round(start.y() + (to.y() - start.y()) * k / steps))
        QTest.mouseMove(legend, _view_point(legend, v))
    QTest.mouseRelease(legend, Qt.LeftButton, Qt.NoModifier, _view_point(legend, to))
    settle()


def test_the_jitter_legend_folds_moves_to_a_corner_and_keeps_out_of_zoom(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    view = w.scene
    legend = view.legend
    assert legend.isVisible()
    vp = view.viewport().geometry()
    doc.select([("chain", "arm")])
    before = doc.selection
    # Bottom left at first, a few pixels from both edges.
    g = legend.geometry()
    assert g.left() - vp.left() == vp.bottom() - g.bottom() == 10
    full = g.size()
    # A click on the title folds it to that line, still in its corner; again unfolds.
    title = legend.title_rect().center().toPoint()
    QTest.mouseClick(legend, Qt.LeftButton, Qt.NoModifier, title)
    settle()
    assert legend.collapsed and legend.height() < full.height() / 2 and legend.width() < full.width()
    assert legend.geometry().left() == g.left() and legend.geometry().bottom() == g.bottom()
    QTest.mouseClick(legend, Qt.LeftButton, Qt.NoModifier, legend.title_rect().center().toPoint())
    settle()
    assert not legend.collapsed and legend.size() == full
    # A drag moves it; dropped in the top right quarter it anchors to that corner.
    grab = QPoint(20, legend.height() - 8)
    to = QPoint(vp.right() - 60 - legend.width() + grab.x(), vp.top() + 60)
    drag_legend(legend, grab, to)
    assert legend.geometry().topLeft() + grab == to
    assert legend.corner == ("top", "right")
    right, top = vp.right() - legend.geometry().right(), legend.geometry().top() - vp.top()
    # Clicks and drags on the legend are not the scene's: no edit, same selection.
    assert doc.undo_stack.count() == 0 and doc.selection == before
    # The window grows: the legend keeps its distances to that corner.
    w.resize(w.width() + 200, w.height() + 100)
    settle()
    vp = view.viewport().geometry()
    assert (vp.right() - legend.geometry().right(), legend.geometry().top() - vp.top()) == (right, top)
    # Zooming in on the rig leaves it where it is, at its size.
    g = legend.geometry()
    view.zoom_by(8.0)
    settle()
    assert legend.geometry() == g
    # Dragged past the edge, it stays whole inside the view.
    drag_legend(legend, QPoint(10, 10), QPoint(vp.right() + 300, vp.bottom() + 300))
    assert vp.contains(legend.geometry())
    assert legend.corner == ("bottom", "right")
    # Folded there, it comes back folded there in the next session.
    legend.set_collapsed(True)
    w.save_layout()
    again = MainWindow(Document(arm()), settings=QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat),
                       dialogs=FakeDialogs(), data_dir=tmp_path / "data")
    qtbot.addWidget(again)
    assert again.scene.legend.state() == legend.state()
    assert again.scene.legend.collapsed and again.scene.legend.corner == ("bottom", "right")
