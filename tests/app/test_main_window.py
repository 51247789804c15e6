"""The main window (pytest-qt, offscreen): layout, mode, title, closing, files through
the io layer, outliner, rig building, autosave and recovery, --screenshot.

Settings and the data folder live in tmp_path; dialogs are scripted (nothing modal)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage, QKeySequence

from fakes import FakeDialogs
from rigeditor.app.document import Document
from rigeditor.app.main_window import MainWindow
from rigeditor.app.tools import EditTool
from rigeditor.examples.rigs import arm, walk
from rigeditor.model.validation.project import problems

REPO = Path(__file__).resolve().parents[2]


def make_window(qtbot, tmp_path, project=None, path=None, **answers):
    doc = Document(project or arm(), path)
    dialogs = FakeDialogs(**answers)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    w = MainWindow(doc, settings=settings, dialogs=dialogs, data_dir=tmp_path / "data", restore_layout=False)
    qtbot.addWidget(w)
    return w, doc, dialogs


def edit(doc):
    """Any undoable change."""
    doc.apply("Set softness", doc.project.with_chain("arm", softness=doc.project.chain("arm").softness.__class__((0.05,))),
              touched={"chain:arm"})


# ----------------------------------------------------------------------------- layout and state

def test_layout_docks_mode_and_shortcuts(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    w.show()
    assert type(w.centralWidget()).__name__ == "SceneView"
    assert type(w.timeline).__name__ == "TimelineWidget"
    assert type(w.curves).__name__ == "CurvesWidget"
    from PySide6.QtCore import Qt

    assert w.dockWidgetArea(w.docks["outliner"]) == Qt.LeftDockWidgetArea
    assert w.dockWidgetArea(w.docks["inspector"]) == Qt.RightDockWidgetArea
    assert w.docks["history"] in w.tabifiedDockWidgets(w.docks["inspector"])
    assert w.dockWidgetArea(w.docks["timeline"]) == Qt.BottomDockWidgetArea
    assert w.undo_view.stack() is doc.undo_stack
    assert w.undo_action.shortcut() == QKeySequence(QKeySequence.Undo)
    assert w.redo_action.shortcut() == QKeySequence(QKeySequence.Redo)
    # Mode: tool bar toggle and status indicator, both ways.
    assert w.mode_actions[doc.mode].isChecked()
    w.mode_actions["setup"].trigger()
    assert doc.mode == "setup" and w.mode_status.text().strip() == "SETUP"
    doc.set_mode("animate")
    assert w.mode_actions["animate"].isChecked() and w.mode_status.text().strip() == "ANIMATE"


def test_the_history_lists_each_step_and_marks_the_current_one(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    model = w.undo_view.model()

    def rows():
        return [model.data(model.index(r, 0)) for r in range(model.rowCount())]

    assert rows() == ["(opened)"]
    edit(doc)
    assert rows() == ["(opened)", doc.undo_stack.text(0)]
    assert [i.row() for i in w.undo_view.selectionModel().selectedRows()] == [1]
    doc.undo_stack.undo()
    assert [i.row() for i in w.undo_view.selectionModel().selectedRows()] == [0]


def test_status_bar_frame_residual_and_reach(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    doc.select([("bone", "forearm")])  # a bone of the chain is enough
    doc.set_frame(24)
    assert "Frame 24" in w.frame_status.text()
    text = w.chain_status.text()
    assert "arm" in text and "25.000" in text and "out of reach" in text
    doc.set_frame(0)
    assert "in reach" in w.chain_status.text()
    doc.select([])
    assert w.chain_status.text() == "No chain selected"


def test_title_shows_name_and_modified_marker(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    assert "[*]" in w.windowTitle() and "arm" in w.windowTitle()
    assert not w.isWindowModified()
    edit(doc)
    assert w.isWindowModified()
    doc.undo_stack.undo()
    assert not w.isWindowModified()


def test_closing_with_changes_asks_save_discard_cancel(qtbot, tmp_path):
    w, doc, dialogs = make_window(qtbot, tmp_path, ask_save_changes=["cancel", "discard"])
    w.show()
    w.close()  # unmodified: no question
    assert dialogs.asked("ask_save_changes") == []
    w.show()
    edit(doc)
    assert w.close() is False and w.isVisible()
    assert len(dialogs.asked("ask_save_changes")) == 1
    assert w.close() is True
    assert len(dialogs.asked("ask_save_changes")) == 2


def test_delete_routes_to_items_and_asks_before_taking_chains(qtbot, tmp_path):
    w, doc, dialogs = make_window(qtbot, tmp_path, confirm=[False, True])
    doc.select([("bone", "upper_arm")])
    w.delete_action.trigger()
    assert dialogs.asked("confirm") and "arm" in dialogs.asked("confirm")[0][1]
    assert doc.project == arm()  # cancelled
    w.delete_action.trigger()
    assert doc.project.bones == () and doc.project.chains == () and doc.project.targets == ()
    assert problems(doc.project) == []
    doc.undo_stack.undo()
    assert doc.project == arm()


# ----------------------------------------------------------------------------- rig building

def test_add_ik_chain_from_two_selected_bones_in_picked_space(qtbot, tmp_path):
    from rigeditor import edits

    p, _ = edits.add_bone(walk(), "head", 30.0, 0.4, name="neck_top")
    p, _ = edits.add_bone(p, "neck_top", 20.0, 0.5, name="beak")
    w, doc, dialogs = make_window(qtbot, tmp_path, p, pick="character")
    doc.set_frame(10)
    doc.select([("bone", "beak"), ("bone", "neck_top")])
    assert w.rig.add_chain_action.isEnabled()
    before = doc.bake.tip_world[doc.row, doc.bake.column("beak")].copy()
    w.rig.add_chain_action.trigger()
    chain = doc.selected("chain")[0]
    c = doc.project.chain(chain)
    assert c.bones == ("neck_top", "beak")
    assert doc.project.target(c.target).space.default == "character"
    assert np.allclose(doc.bake.tip_world[doc.row, doc.bake.column("beak")], before, atol=1e-6)
    assert problems(doc.project) == []
    assert doc.undo_stack.undoText().startswith("Add IK chain")


def neck_run():
    """walk() with neck_top -> beak -> crest on the head, each at its parent's tip."""
    from rigeditor import edits

    p, _ = edits.add_bone(walk(), "head", 30.0, 0.3, name="neck_top")
    p, _ = edits.add_bone(p, "neck_top", 25.0, -0.5, name="beak")
    p, _ = edits.add_bone(p, "beak", 20.0, -0.4, name="crest")
    return p


def test_add_ik_chain_from_three_selected_bones_is_fabrik_and_valid(qtbot, tmp_path):
    w, doc, dialogs = make_window(qtbot, tmp_path, neck_run(), pick="world")
    doc.set_frame(10)
    doc.select([("bone", "crest"), ("bone", "neck_top"), ("bone", "beak")])  # any order
    assert w.rig.add_chain_action.isEnabled()
    assert w.inspector.field("make_chain").isEnabled()
    before = doc.bake.tip_world[doc.row, doc.bake.column("crest")].copy()
    w.rig.add_chain_action.trigger()
    assert dialogs.asked("error") == []
    chain = doc.selected("chain")[0]
    c = doc.project.chain(chain)
    assert c.bones == ("neck_top", "beak", "crest") and c.solver == "fabrik"
    assert doc.project.target(c.target).space.default == "world"
    assert problems(doc.project) == []
    cb = doc.bake.chains[chain]
    assert np.all(cb.converged)
    assert np.linalg.norm(doc.bake.tip_world[doc.row, doc.bake.column("crest")] - before) <= c.tolerance
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText().startswith("Add IK chain")
    # Its inspector shows the iterative read-outs; an iterative chain has no elbow to flip.
    assert w.inspector.field("readout.iterations").text().endswith(f"/ {c.max_iterations}")
    assert not w.rig.flip_action.isEnabled()
    assert "it" in w.chain_status.text()
    doc.undo_stack.undo()
    assert doc.project.chains == neck_run().chains


def test_add_ik_chain_refuses_a_selection_that_is_not_one_run(qtbot, tmp_path):
    w, doc, dialogs = make_window(qtbot, tmp_path, neck_run(), pick="world")
    doc.select([("bone", "neck_top"), ("bone", "crest"), ("bone", "head")])  # beak missing: a gap
    why = w.inspector.field("make_chain.why").text()
    assert not w.inspector.field("make_chain").isEnabled() and "run" in why
    before = doc.project
    assert w.rig.add_ik_chain() is None
    (title, message), = dialogs.asked("error")
    assert title == "Add IK chain" and message == why and "'crest'" in message
    assert dialogs.asked("pick") == [] and doc.project is before and doc.undo_stack.count() == 0


def test_flip_elbow_follows_the_solver(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    doc.select([("chain", "arm")])
    assert w.rig.flip_action.isEnabled()
    combo = w.inspector.field("chain.arm.solver")
    combo.setCurrentIndex(combo.findData("ccd"))
    assert doc.project.chain("arm").solver == "ccd"
    assert not w.rig.flip_action.isEnabled()
    w.rig.flip_action.trigger()  # shortcut or menu while disabled: nothing happens
    assert doc.project.chain("arm").bend == arm().chain("arm").bend
    doc.undo_stack.undo()
    assert w.rig.flip_action.isEnabled()


def test_scene_play_toggle_request_plays_and_pauses(qtbot, tmp_path, monkeypatch):
    import rigeditor.app.scene as scene_module
    from PySide6.QtCore import Signal

    base = scene_module.SceneView
    if not hasattr(base, "playToggleRequested"):
        # The scene's Space key is being added elsewhere: stand in with the same signal.
        monkeypatch.setattr(scene_module, "SceneView",
                            type("SceneView", (base,), {"playToggleRequested": Signal()}))
    w, doc, _ = make_window(qtbot, tmp_path)
    assert not w.timeline.is_playing()
    w.scene.playToggleRequested.emit()
    assert w.timeline.is_playing() and w.timeline.play_action.isChecked()
    w.scene.playToggleRequested.emit()
    assert not w.timeline.is_playing() and not w.timeline.play_action.isChecked()


def test_space_tapped_in_the_scene_toggles_play_once(qtbot, tmp_path):
    from PySide6.QtCore import Qt

    w, doc, _ = make_window(qtbot, tmp_path)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    w.scene.setFocus()
    qtbot.waitUntil(w.scene.hasFocus)
    qtbot.keyClick(w.scene, Qt.Key_Space)  # the view claims Space; the window's shortcut stays out
    assert w.timeline.is_playing()
    qtbot.keyClick(w.scene, Qt.Key_Space)
    assert not w.timeline.is_playing()


def test_add_child_bone_and_scene_object_through_dialogs(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path, form=[{"name": "hand_bone", "length": 30.0, "angle": 15.0},
                                                   {"name": "cup", "parent": "world"}])
    doc.select([("bone", "forearm")])
    w.rig.add_child_bone_action.trigger()
    assert doc.project.bone("hand_bone").parent == "forearm"
    assert doc.selection == (("bone", "hand_bone"),)
    w.rig.add_object_action.trigger()
    assert doc.project.space("cup").parent == "world"
    assert problems(doc.project) == []
    assert doc.undo_stack.count() == 2


def test_bone_tool_creates_a_bone_from_a_tip_in_one_undo_step(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    tool = EditTool.of(doc)
    assert tool is w.edit_tool
    assert w.rig.bone_tool_action.isEnabled()
    tool.set_tool("bone")
    assert w.rig.bone_tool_action.isChecked()
    tip = doc.bake.tip_world[doc.row, doc.bake.column("forearm")]
    name = tool.create_bone(tip, tip + np.array([0.0, 40.0]), "forearm")
    assert doc.project.bone(name).parent == "forearm"
    assert np.allclose(doc.bake.tip_world[doc.row, doc.bake.column(name)], tip + [0.0, 40.0], atol=1e-9)
    assert doc.undo_stack.count() == 1 and problems(doc.project) == []


def test_outliner_selection_rename_and_drag_reparent(qtbot, tmp_path):
    from rigeditor import edits

    p, _ = edits.add_bone(walk(), "head", 10.0, name="hat")
    w, doc, dialogs = make_window(qtbot, tmp_path, p)
    o = w.outliner
    # doc -> outliner
    doc.select([("bone", "head")])
    assert [it.text(0) for it in o.selectedItems()] == ["head"]
    # outliner -> doc
    o.clearSelection()
    o.item_for("chain", "leg_l").setSelected(True)
    assert doc.selection == (("chain", "leg_l"),)
    # rename by editing the item
    o.item_for("bone", "thigh_l").setText(0, "femur_l")
    assert doc.project.chain("leg_l").bones == ("femur_l", "shin_l")
    assert o.item_for("bone", "femur_l") is not None
    # drag a bone onto another: reparent (one undo step); onto the heading: root
    assert o.drop(("bone", "hat"), ("bone", "upper_arm_l"))
    assert doc.project.bone("hat").parent == "upper_arm_l"
    assert o.item_for("bone", "hat").parent() is o.item_for("bone", "upper_arm_l")
    assert o.drop(("bone", "hat"), ("group", "bone"))
    assert doc.project.bone("hat").parent is None
    # a refused reparent says why and changes nothing
    before = doc.project
    assert not o.drop(("bone", "shin_l"), ("bone", "spine"))
    assert doc.project is before and "leg_l" in dialogs.asked("error")[-1][1]
    assert problems(doc.project) == []


# ----------------------------------------------------------------------------- files (through io)

def test_keys_survive_save_and_reopen(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    doc.set_mode("animate")
    # A key through the inspector: the target's position at frame 30.
    doc.select([("target", "hand")])
    doc.set_frame(30)
    w.inspector.field("target.hand.position.y").setValue(-42.5)
    # A key through the timeline's K: the chain at frame 12.
    doc.select([("chain", "arm")])
    doc.set_frame(12)
    w.timeline.key_action.trigger()
    assert doc.project.chain("arm").softness.keys
    saved = doc.project
    path = tmp_path / "arm_keys.rigproj"
    assert w.files.save_as(path)
    assert not doc.is_modified() and doc.path == path and path.name in w.windowTitle()
    assert str(path.resolve()) in w.files.recent_files()

    doc2 = Document(arm())
    w2 = MainWindow(doc2, settings=w.settings, dialogs=FakeDialogs(), data_dir=tmp_path / "data2",
                    restore_layout=False)
    qtbot.addWidget(w2)
    assert w2.files.open(path)
    hand = doc2.project.target("hand").position
    assert any(k.frame == 30 and k.value[1] == pytest.approx(-42.5) for k in hand.keys)
    assert [k.frame for k in doc2.project.chain("arm").softness.keys] == [12]
    assert [k.frame for k in doc2.project.chain("arm").bend.keys] == [12]
    assert doc2.project.target("hand") == saved.target("hand")
    assert doc2.project.chain("arm") == saved.chain("arm")


def test_bad_file_shows_the_io_message_and_leaves_the_document(qtbot, tmp_path):
    import rigeditor.io as io

    bad = tmp_path / "broken.rigprojproj"
    bad.write_text('{"format": "rigeditor", "version": 2, "bones": [ oops', encoding="utf-8")
    w, doc, dialogs = make_window(qtbot, tmp_path)
    edit(doc)
    project, count, path = doc.project, doc.undo_stack.count(), doc.path
    dialogs.answers["ask_save_changes"] = "discard"
    assert w.files.open(bad) is False
    (title, message), = dialogs.asked("error")
    with pytest.raises(io.ProjectFileError) as err:
        io.load_project(bad)
    assert message == str(err.value) and "broken.rigprojproj" in message
    assert doc.project is project and doc.undo_stack.count() == count and doc.path == path
    assert doc.is_modified()


def test_save_error_shows_message_and_keeps_document_modified(qtbot, tmp_path):
    w, doc, dialogs = make_window(qtbot, tmp_path)
    edit(doc)
    assert not w.files.save_as(tmp_path / "no_such_folder" / "x.rigproj")
    assert dialogs.asked("error") and doc.is_modified() and doc.path is None


@pytest.mark.parametrize("kind, name", [("csv", "c.csv"), ("json", "c.json"), ("spine", "s.json"), ("png", "p.png")])
def test_exports_go_through_the_io_layer(qtbot, tmp_path, kind, name):
    w, doc, dialogs = make_window(qtbot, tmp_path, save_file=str(tmp_path / name))
    w.export_actions[kind].trigger()
    assert dialogs.asked("error") == []
    assert (tmp_path / name).stat().st_size > 100
    # A failed export (its folder would sit under a file) says why and writes nothing.
    before = sorted(tmp_path.rglob("*"))
    assert not w.files.export(kind, tmp_path / name / "sub" / name)
    assert dialogs.asked("error") and sorted(tmp_path.rglob("*")) == before
    # Exports create their folder.
    assert w.files.export(kind, tmp_path / "new" / name) and (tmp_path / "new" / name).stat().st_size > 100


def test_recent_files_and_layout_persist_in_settings(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    assert w.files.save_as(tmp_path / "one.rigproj")
    w.save_layout()
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    assert settings.value("window/state") is not None
    assert str((tmp_path / "one.rigproj").resolve()) in [str(x) for x in settings.value("recentFiles")]
    assert w.recent_menu.actions()[0].text() == str((tmp_path / "one.rigproj").resolve())


# ----------------------------------------------------------------------------- --screenshot

def _non_blank(path: Path) -> bool:
    img = QImage(str(path))
    assert not img.isNull() and img.width() > 600 and img.height() > 400
    colors = {img.pixel(x, y) for x in range(0, img.width(), 23) for y in range(0, img.height(), 19)}
    return len(colors) > 20


def test_screenshot_from_the_command_line_offscreen(tmp_path):
    out = tmp_path / "walk.png"
    env = {"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    r = subprocess.run([sys.executable, "-m", "rigeditor.cli", "--screenshot", str(out), "walk", "--frame", "20"],
                       cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert _non_blank(out)
