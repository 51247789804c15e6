"""Text that must not cover other text (pytest-qt, offscreen): the scene's overlay
labels (the mesh overlays' among the targets'), the curves' axis numbers and level
labels once the mesh plot joins them, and deep bone names in the outliner."""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRectF, QSettings
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from fakes import FakeDialogs
from rigeditor import edits
from rigeditor.app.document import Document
from rigeditor.app.main_window import MainWindow
from rigeditor.app.scene.layers import PAINT_ERRORS
from rigeditor.examples.files import example_folder, load_example


@pytest.fixture(autouse=True)
def _no_paint_errors():
    del PAINT_ERRORS[:]
    yield
    assert not PAINT_ERRORS, PAINT_ERRORS[0]


def settle():
    for _ in range(5):
        QApplication.processEvents()


def skinned_arm_with_chain():
    """The skinned arm (a mesh on two bones) with an IK chain, so every curve has data."""
    project, _ = edits.add_chain(load_example("skinned_arm"), ("upper_arm", "forearm"), "character", 0)
    return project


def make_window(qtbot, tmp_path, project, size=(1280, 800)):
    doc = Document(project, None, images=example_folder("skinned_arm"))
    w = MainWindow(doc, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat), dialogs=FakeDialogs(),
                   data_dir=tmp_path / "data", restore_layout=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    settle()
    return w, doc


def tick_texts(axis) -> list[tuple[QRectF, str]]:
    """The numbers pyqtgraph draws on ``axis`` this size, in scene coordinates."""
    image = QImage(8, 8, QImage.Format_ARGB32)
    p = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(p)
    finally:
        p.end()
    return [(axis.mapRectToScene(QRectF(r)), t) for r, _, t in specs[2]] if specs else []


def disjoint(rects) -> bool:
    return not any(a.intersects(b) for a, b in combinations(rects, 2))


@pytest.mark.parametrize("size", [(1280, 800), (1024, 640)])
def test_the_curves_numbers_and_levels_stay_apart_with_the_mesh_plot(qtbot, tmp_path, size):
    w, doc = make_window(qtbot, tmp_path, skinned_arm_with_chain(), size)
    curves = w.curves
    assert curves.seam.attached and curves.chain == "upper_arm_ik"
    w.grab().save(str(tmp_path / "curves.png"))
    graph = w.graph.plot.getPlotItem()  # the curve editor gives way first: at its least height
    for plot in curves.plots + [curves.seam.plot, graph]:
        texts = tick_texts(plot.getAxis("left"))
        assert len(texts) >= (2 if plot is not curves.seam.plot else 1), texts  # a scale to read
        assert disjoint([r for r, _ in texts]), [(t, r.top(), r.bottom()) for r, t in texts]
    levels = [item.label for item in curves.sensitivity_plot.items
              if isinstance(item, pg.InfiniteLine) and getattr(item, "label", None) is not None]
    assert sorted(lb.toPlainText() for lb in levels) == ["danger 5", "safe 0.5"]
    boxes = [lb.sceneBoundingRect() for lb in levels]
    assert disjoint(boxes), boxes
    vb = curves.sensitivity_plot.vb.sceneBoundingRect()
    assert all(vb.contains(b) for b in boxes)


def test_the_mesh_overlays_labels_take_their_place_among_the_others(qtbot, tmp_path):
    from rigeditor.model.data.timeline import constant

    project = skinned_arm_with_chain()
    w, doc = make_window(qtbot, tmp_path, project)
    view = w.scene
    view.set_overlay("weights", True)
    settle()
    # The target right where the weights label has always been written: above the mesh's top.
    (mesh,) = view.ctx.state.art.meshes.values()
    dev = np.array([[p.x(), p.y()] for p in (view.map_to_viewport(v) for v in mesh)])
    top = mesh[int(np.argmin(dev[:, 1]))]
    above = view.map_from_viewport(view.map_to_viewport(top) + type(view.map_to_viewport(top))(40, -14))
    doc.apply("Move target", project.with_target("forearm_target", position=constant(*map(float, above))))
    settle()
    view.viewport().grab()
    placed = view.layer("labels").placed
    texts = [lb.text for lb in placed]
    assert "weights: upper_arm" in texts and any(t.startswith("forearm_target") for t in texts), texts
    rects = [lb.rect for lb in placed]
    assert disjoint(rects), [(lb.text, lb.rect) for lb in placed]
    # Selecting the other bone shows its weights, and the label says so.
    doc.select([("bone", "forearm")])
    settle()
    assert "weights: forearm" in [lb.text for lb in view.layer("labels").placed]
    # The collapse overlay's worst-area label joins the layout the same way.
    view.set_overlay("collapse", True)
    settle()
    placed = view.layer("labels").placed
    assert any(lb.text.startswith("worst area") for lb in placed) and disjoint([lb.rect for lb in placed])
    w.grab().save(str(tmp_path / "overlays.png"))


DEEP = ["spine", "chest", "shoulder_left", "upper_arm_left", "forearm_left_twist", "wrist_left",
        "hand_left", "finger_index_left_01", "finger_index_left_02", "finger_index_left_03_tip"]


def deep_rig():
    from rigeditor.model.data.project import Project

    project, parent = Project(), None
    for name in DEEP:
        project, parent = edits.add_bone(project, parent, 20.0, 0.1, name=name)
    return project


def test_deep_bone_names_are_shown_whole_in_the_outliner(qtbot, tmp_path):
    from PySide6.QtGui import QFontMetrics

    from rigeditor.app.outliner import Outliner

    doc = Document(deep_rig())
    outliner = Outliner(doc)
    qtbot.addWidget(outliner)
    outliner.resize(200, 420)  # the dock's default width
    outliner.show()
    qtbot.waitExposed(outliner)
    settle()
    fm = QFontMetrics(outliner.font())
    vp = outliner.viewport().rect()
    deepest = outliner.item_for("bone", DEEP[-1])
    for name in DEEP:  # every name has the room of its text: none is cut or elided
        rect = outliner.visualItemRect(outliner.item_for("bone", name))
        assert rect.width() >= fm.horizontalAdvance(name), name
    assert outliner.visualItemRect(deepest).left() + fm.horizontalAdvance(DEEP[-1]) > vp.width()  # the dock is narrower...
    assert outliner.horizontalScrollBar().maximum() > 0  # ...so it scrolls sideways
    # Selected (in the scene, say), a deep bone is scrolled into view, name and all.
    doc.select([("bone", DEEP[-1])])
    settle()
    rect = outliner.visualItemRect(deepest)
    assert vp.contains(rect.topLeft()) and rect.left() + fm.horizontalAdvance(DEEP[-1]) <= vp.width()
    # Its tooltip names it with the bones above it.
    assert " \u25b8 ".join(DEEP) in deepest.toolTip(0)
    outliner.grab().save(str(tmp_path / "outliner.png"))
