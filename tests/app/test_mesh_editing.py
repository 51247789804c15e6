"""Meshes in the editor: drawn textured where the Bake deforms them, edited with the
mesh tool and the weight brush (one undo step per gesture), the heat map and collapse
overlays, the seam curve, Make Mesh from Picture."""
from __future__ import annotations

import math
import shutil
from dataclasses import replace

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest

from rigeditor.app.document import Document
from rigeditor.app.scene.layers import PAINT_ERRORS
from rigeditor.app.tools import EditTool
from rigeditor.io import load_project
from rigeditor.examples.art_files import example_project
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.timeline import keyed
from views import release_all, show_scene

SKINNED = example_project("skinned_arm")


@pytest.fixture(autouse=True)
def _release():
    yield
    release_all()


def _view(qtbot, frame=24, project=None, rig=True):
    doc = Document(project or load_project(SKINNED), SKINNED)
    doc.set_frame(frame)
    view = show_scene(qtbot, doc)
    if not rig:  # only the art and its overlays
        for name in ("bones", "spaces"):
            view.set_overlay(name, False)
    view.frame_all()
    qtbot.wait(10)
    return doc, view


def _px(view, world) -> QPoint:
    p = view.viewportTransform().map(QPointF(float(world[0]), float(world[1])))
    return QPoint(round(p.x()), round(p.y()))


def _grab(view) -> np.ndarray:
    img = view.viewport().grab().toImage().convertToFormat(view.viewport().grab().toImage().Format.Format_RGBA8888)
    return np.frombuffer(img.constBits(), dtype=np.uint8).reshape(
        img.height(), img.bytesPerLine())[:, :img.width() * 4].reshape(img.height(), img.width(), 4).copy()


def _mesh(doc) -> MeshAttachment:
    return doc.project.art.slots[0].attachments[0]


def _pose(doc):
    return doc.bake.art.meshes[0]


def _centroids(doc):
    """World centroids of the triangles at the document's row, and their UV centroids."""
    m, v = _mesh(doc), _pose(doc).vertices(doc.row)
    return v[m.triangles].mean(axis=1), m.uvs[m.triangles].mean(axis=1)


def test_the_bent_mesh_shows_the_picture_on_its_deformed_triangles(qtbot):
    doc, view = _view(qtbot, rig=False)
    shot = _grab(view)
    png = np.asarray(Image.open(SKINNED.parent / "skin_art" / "arm.png").convert("RGB")).astype(int)
    world, uv = _centroids(doc)
    ratio = view.viewport().devicePixelRatioF()
    checked = 0
    for w, (u, v) in zip(world, uv):
        pu, pv = int(u * png.shape[1]), int(v * png.shape[0])
        if not (3 <= pv < png.shape[0] - 3):
            continue  # the soft edge of the drawing
        p = _px(view, w)
        got = shot[round(p.y() * ratio), round(p.x() * ratio), :3].astype(int)
        near = png[max(pv - 2, 0):pv + 3, max(pu - 2, 0):pu + 3].reshape(-1, 3)  # sampling blurs a pixel or two
        assert (got >= near.min(axis=0) - 12).all() and (got <= near.max(axis=0) + 12).all(), (w, got, png[pv, pu])
        checked += 1
    assert checked > 30 and not PAINT_ERRORS


def test_dragging_a_vertex_with_the_mesh_tool_moves_it_in_one_undo_step(qtbot):
    doc, view = _view(qtbot, frame=0)
    doc.set_mode("setup")  # Setup mode edits the mesh (Animate mode keys a deform)
    doc.select([("slot", "arm")])
    EditTool.of(doc).set_tool("mesh")
    m = _mesh(doc)
    i = m.hull_count() + 5  # an interior vertex
    start = _pose(doc).vertices(doc.row)[i]
    vp = view.viewport()
    a = _px(view, start)
    b = a + QPoint(4, -3)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, a)
    for k in (1, 2, 3):
        QTest.mouseMove(vp, a + (b - a) * k / 3)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, b)
    moved = _mesh(doc).vertices[i]
    scale = view.viewportTransform().m11()
    # at frame 0 the arm lies straight on the upper arm bone: screen pixels are image pixels / scale
    np.testing.assert_allclose(moved - m.vertices[i], np.array([4, 3]) / scale, atol=1.0 / scale)
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    np.testing.assert_array_equal(_mesh(doc).vertices, m.vertices)


def test_ctrl_click_deletes_a_vertex_and_double_click_adds_one(qtbot):
    doc, view = _view(qtbot, frame=24)
    doc.select([("slot", "arm")])
    EditTool.of(doc).set_tool("mesh")
    n = len(_mesh(doc).vertices)
    i = _mesh(doc).hull_count() + 3
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.ControlModifier, _px(view, _pose(doc).vertices(doc.row)[i]))
    assert len(_mesh(doc).vertices) == n - 1
    world, _ = _centroids(doc)
    target = world[len(world) // 2]
    QTest.mouseDClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, _px(view, target))
    assert len(_mesh(doc).vertices) == n
    # the new vertex sits under the pointer in the bent pose
    assert np.hypot(*(_pose(doc).vertices(doc.row)[-1] - target)) < 2.0 / view.viewportTransform().m11()
    assert doc.undo_stack.count() == 2


def test_a_brush_stroke_paints_the_selected_bone_in_one_undo_step(qtbot):
    doc, view = _view(qtbot, frame=0)
    doc.select([("slot", "arm"), ("bone", "forearm")])
    tool = EditTool.of(doc)
    tool.set_tool("weights")
    assert view.overlays["weights"]  # the brush shows the heat map
    before = _mesh(doc).dense_weights()[:, 1].copy()
    a, b = _px(view, (40.0, 0.0)), _px(view, (90.0, 0.0))
    vp = view.viewport()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, a)
    for k in range(1, 9):
        QTest.mouseMove(vp, a + (b - a) * k / 8)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, b)
    after = _mesh(doc).dense_weights()[:, 1]
    p = _mesh(doc).in_slot_frame()
    under = (p[:, 0] > 45) & (p[:, 0] < 85) & (np.abs(p[:, 1]) < 8)
    far = p[:, 0] > 200
    assert (after[under] > before[under] + 0.1).all()
    np.testing.assert_allclose(after[far], before[far])
    assert doc.undo_stack.count() == 1
    # Shift subtracts what was added
    QTest.mousePress(vp, Qt.LeftButton, Qt.ShiftModifier, a)
    for k in range(1, 9):
        QTest.mouseMove(vp, a + (b - a) * k / 8)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.ShiftModifier, b)
    assert (_mesh(doc).dense_weights()[under, 1] < after[under]).all()
    assert doc.undo_stack.count() == 2


def _colour_at(view, shot, world):
    p = _px(view, world)
    r = view.viewport().devicePixelRatioF()
    return shot[round(p.y() * r), round(p.x() * r), :3].astype(int)


def test_the_heat_map_reads_red_where_the_bone_has_all_the_weight_and_blue_where_none(qtbot):
    doc, view = _view(qtbot, frame=24, rig=False)
    view.set_overlay("art", False)
    view.set_overlay("weights", True)
    doc.select([("bone", "forearm")])
    qtbot.wait(10)
    shot = _grab(view)
    world, _ = _centroids(doc)
    w = _mesh(doc).dense_weights()[:, 1][_mesh(doc).triangles].mean(axis=1)
    hot, cold = world[np.argmax(w)], world[np.argmin(w)]
    r, g, b = _colour_at(view, shot, hot)
    assert r > 150 and r > b + 80
    r, g, b = _colour_at(view, shot, cold)
    assert b > 150 and b > r + 80


def test_the_collapse_overlay_marks_the_collapsed_triangles(qtbot):
    doc, view = _view(qtbot, frame=24, rig=False)
    p = doc.project
    bent = replace(p, bones=(p.bones[0], replace(p.bones[1], rotation=keyed([(0, 0.0), (24, math.radians(125.0))]))))
    doc.apply("bend further", bent)
    view.set_overlay("art", False)
    view.set_overlay("collapse", True)
    qtbot.wait(10)
    shot = _grab(view)
    ratios = _pose(doc).ratios(doc.row)
    world, _ = _centroids(doc)
    v = _pose(doc).vertices(doc.row)[_mesh(doc).triangles]
    e1, e2 = v[:, 1] - v[:, 0], v[:, 2] - v[:, 0]
    area = 0.5 * np.abs(e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]) * view.viewportTransform().m11() ** 2
    big = area > 40.0  # a triangle with room for its colour on screen
    kept = world[np.argmax(big & (np.abs(ratios - 1.0) < 0.02))]
    worst = world[np.argmin(np.where(big, ratios, np.inf))]
    assert ratios[big].min() < 0.3
    r, g, b = _colour_at(view, shot, worst)
    assert r > 150 and g < 120  # red (collapsed) or magenta (flipped)
    r, g, b = _colour_at(view, shot, kept)
    assert g > r  # green: kept its area


def test_the_curves_dock_plots_the_worst_ratio_per_frame_for_a_mesh_project(qtbot):
    from rigeditor.app.curves import CurvesWidget

    doc = Document(load_project(SKINNED), SKINNED)
    curves = CurvesWidget(doc)
    qtbot.addWidget(curves)
    assert curves.seam.attached
    qtbot.waitUntil(lambda: bool(curves.seam.curves), timeout=10_000)  # reduced behind the UI thread
    (item,) = curves.seam.curves.values()
    np.testing.assert_allclose(item.yData, 100 * _pose(doc).worst[0])
    doc.apply("no meshes", replace(doc.project, art=replace(doc.project.art, slots=())))
    curves._update()
    assert not curves.seam.attached


def test_make_mesh_from_picture_meshes_the_selected_slot_in_one_step(qtbot, tmp_path):
    from fakes import FakeDialogs
    from rigeditor.app.main_window import MainWindow

    folder = tmp_path / "rigid_arm"
    shutil.copytree(example_project("rigid_arm").parent, folder)
    path = folder / "rigid_arm.rigproj"
    doc = Document(load_project(path), path)
    window = MainWindow(doc, dialogs=FakeDialogs(), restore_layout=False)
    qtbot.addWidget(window)
    doc.select([("slot", "upper_arm")])
    assert window.mesh.make_mesh_action.isEnabled() and not window.mesh.weights_action.isEnabled()
    window.mesh.make_mesh_action.trigger()
    qtbot.waitUntil(lambda: not window.mesh.background.busy, timeout=30_000)  # it runs behind
    m = doc.project.art.slot("upper_arm").find("upper_arm")
    assert isinstance(m, MeshAttachment) and m.bones == ("upper_arm", "forearm")
    assert doc.undo_stack.count() == 1 and window.mesh.weights_action.isEnabled()
    doc.undo_stack.undo()
    assert not isinstance(doc.project.art.slot("upper_arm").find("upper_arm"), MeshAttachment)


def test_the_weight_brush_shows_its_reach_and_the_keys_resize_it(qtbot):
    from fakes import FakeDialogs
    from rigeditor.app.main_window import MainWindow

    doc = Document(load_project(SKINNED), SKINNED)
    window = MainWindow(doc, dialogs=FakeDialogs(), restore_layout=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    tool = EditTool.of(doc)
    window.mesh.weights_tool_action.trigger()
    assert tool.tool == "weights" and window.scene.overlays["weights"]
    r, s = tool.brush_radius, tool.brush_strength
    window.mesh.bigger_action.trigger()
    window.mesh.weaker_action.trigger()
    assert tool.brush_radius == pytest.approx(1.25 * r) and tool.brush_strength == pytest.approx(s / 1.5)
    view = window.scene
    QTest.mouseMove(view.viewport(), QPoint(300, 300))
    centre, radius = view.layer("weights").brush
    np.testing.assert_allclose(centre, view.map_from_viewport(QPointF(300, 300)))
    assert radius == tool.brush_radius
    window.mesh.mesh_tool_action.trigger()
    assert view.layer("weights").brush is None and view.layer("mesh").handles


def _weights_window(qtbot, blend_width):
    from fakes import FakeDialogs
    from rigeditor.app.main_window import MainWindow

    doc = Document(load_project(SKINNED), SKINNED)
    window = MainWindow(doc, dialogs=FakeDialogs(form={"blend_width": blend_width}), restore_layout=False)
    qtbot.addWidget(window)
    doc.select([("slot", doc.project.art.slots[0].name)])
    assert window.mesh.weights_action.isEnabled()
    return doc, window


def test_recompute_weights_runs_behind_reports_progress_and_lands_in_one_step(qtbot):
    from PySide6.QtWidgets import QProgressDialog

    doc, window = _weights_window(qtbot, 30.0)
    before = _mesh(doc).weights.copy()
    seen = []
    window.mesh.weights_action.trigger()
    # The action returned with the solve still behind it: nothing changed yet.
    assert window.mesh.background.busy and doc.undo_stack.count() == 0
    busy = window.mesh.background

    def look():
        if busy.busy:
            seen.extend(d.value() for d in window.findChildren(QProgressDialog))
        return not busy.busy
    qtbot.waitUntil(look, timeout=30_000)
    assert seen == sorted(seen)  # the dialog only rises (the long solve below shows it)
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Weights of arm"
    assert np.abs(_mesh(doc).weights - before).max() > 0.01  # a narrower blend moved the weights
    qtbot.waitUntil(lambda: not window.findChildren(QProgressDialog))  # and the dialog is gone
    doc.undo_stack.undo()
    np.testing.assert_array_equal(_mesh(doc).weights, before)


def test_cancelling_the_weight_solve_leaves_the_project_as_it_was(qtbot):
    doc, window = _weights_window(qtbot, 30.0)
    before = doc.project
    window.mesh.weights_action.trigger()
    window.mesh.background.cancel()  # as the dialog's Cancel, while the solve runs
    qtbot.waitUntil(lambda: not window.mesh.background.busy, timeout=30_000)
    assert doc.project is before and doc.undo_stack.count() == 0
    assert "cancelled" in window.statusBar().currentMessage()


def _slow_weights(monkeypatch, steps=400):
    """edits.recompute_weights made long (``steps`` x 10 ms) and honest about its hooks,
    as the real solve is: progress rises, cancel() stops it at the next step. Returns
    the calls seen: (last fraction, stopped by cancel)."""
    import time

    from rigeditor import edits
    from rigeditor.core.biharmonic import Cancelled

    real, calls = edits.recompute_weights, []

    def slow(project, *args, progress=None, cancel=None):
        for i in range(steps):
            if cancel():
                calls.append((i / steps, True))
                raise Cancelled("cancelled")
            progress(i / steps)
            time.sleep(0.01)
        calls.append((1.0, False))
        return real(project, *args)

    monkeypatch.setattr(edits, "recompute_weights", slow)
    return calls


def test_a_long_solve_shows_its_dialog_keeps_the_window_alive_and_cancels(qtbot, monkeypatch):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QProgressDialog

    calls = _slow_weights(monkeypatch)
    doc, window = _weights_window(qtbot, 30.0)
    before = doc.project
    ticks = []
    timer = QTimer(window)  # the window's event loop, served while the solve runs
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(20)
    window.mesh.weights_action.trigger()
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(QProgressDialog)), timeout=3_000)
    (dialog,) = [d for d in window.findChildren(QProgressDialog) if d.isVisible()]
    qtbot.waitUntil(lambda: dialog.value() > 0)
    qtbot.wait(300)
    assert window.mesh.background.busy and len(ticks) >= 5  # the UI thread's own timers ran meanwhile
    dialog.cancel()
    qtbot.waitUntil(lambda: not window.mesh.background.busy, timeout=3_000)
    timer.stop()
    (fraction, stopped), = calls
    assert stopped and fraction < 0.9  # stopped partway, not run to its end
    assert doc.project is before and doc.undo_stack.count() == 0
    assert "cancelled" in window.statusBar().currentMessage()


def test_an_edit_made_while_the_solve_runs_is_kept_and_the_stale_weights_dropped(qtbot, monkeypatch):
    from rigeditor import edits

    _slow_weights(monkeypatch, steps=30)
    doc, window = _weights_window(qtbot, 30.0)
    window.mesh.weights_action.trigger()
    bone = doc.project.bones[0].name
    assert doc.apply("rename", edits.rename(doc.project, "bone", bone, "shoulder_bone"))  # before the dialog shows
    qtbot.waitUntil(lambda: not window.mesh.background.busy, timeout=5_000)
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "rename"
    assert doc.project.bones[0].name == "shoulder_bone"
    assert "not applied" in window.statusBar().currentMessage()
