"""The curves view: which chain it plots, that it plots the Bake's numbers, and its
playhead (offscreen)."""
from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from rigeditor.app import gesture_pacing
from rigeditor.app.curves import CurvesWidget, shown_chain
from rigeditor.app.document import Document
from rigeditor.core.geometry import unwrap
from rigeditor.model import CHARACTER, WORLD, Bone, Chain, Project, Space, StepChannel, Target, Timeline, keyed
from rigeditor.model.evaluation.bake import CAUSES
from rigeditor.examples.rigs import arm, walk
from rigeditor.edits.posing import set_target_key


def _curves(qtbot, project):
    doc = Document(project)
    w = CurvesWidget(doc)
    qtbot.addWidget(w)
    w.resize(900, 600)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def curves(qtbot):
    w = _curves(qtbot, walk())
    yield w
    w.doc.undo_stack.clear()  # while the Document lives: clearing emits its cleanChanged


def plotted(item):
    x, y = item.getOriginalDataset()
    return (np.empty(0), np.empty(0)) if x is None else (np.asarray(x), np.asarray(y))


def expected_angles(doc, bone):
    return np.degrees(unwrap(doc.bake.local_rotation[:, doc.bake.column(bone)]))  # as exported


def assert_shows(w, chain):
    # After an edit the residual and jitter plots follow the angles a turn each.
    for _ in range(50):
        if not w._steps and not w._angle_todo[1]:
            break
        QApplication.processEvents()
    doc = w.doc
    assert w.chain == chain
    bones = doc.project.chain(chain).bones
    assert list(w.angle_curves) == list(bones)
    for bone in bones:
        x, y = plotted(w.angle_curves[bone])
        assert np.array_equal(x, doc.bake.frames)
        assert np.allclose(y, expected_angles(doc, bone), atol=1e-12, rtol=0)
    cb = doc.bake.chains[chain]
    x, y = plotted(w.sensitivity_curve)
    assert np.allclose(y, cb.sensitivity) and np.array_equal(x, doc.bake.frames)
    # Together the cause-coloured residual curves cover every frame with its residual.
    for k, cause in enumerate(CAUSES):
        x, y = plotted(w.residual_curves[cause])
        if not np.any(cb.cause == k):
            assert len(x) == 0
            continue
        mine = cb.cause == k
        assert np.array_equal(x, doc.bake.frames)
        assert np.allclose(y[mine], cb.residual[mine])
        # Elsewhere a gap, but for the frame that joins it to the previous segment.
        assert np.isnan(y[~mine & ~np.r_[False, mine[:-1]]]).all()



def _tail(n: int, frames: int) -> Project:
    """An n-bone FABRIK tail (5-unit bones from the origin) whose tip follows a bezier
    loop keyed every 30 frames over ``frames`` frames."""
    bones = tuple(Bone(f"b{i}", None if i == 0 else f"b{i - 1}", 5.0, rest_offset=(0.0, 0.0) if i == 0 else (5.0, 0.0))
                  for i in range(n))
    path = [(f, (120.0 + 40 * math.cos(f / 40), 60 * math.sin(f / 30))) for f in range(0, frames, 30)]
    return Project("tail", Timeline(24.0, 0, frames - 1), (Space(CHARACTER),), bones,
                   (Target("tip", StepChannel(WORLD), keyed(path, "bezier")),),
                   (Chain("tail", tuple(b.name for b in bones), "tip", solver="fabrik", tolerance=0.05),))

def test_shows_the_first_chain_without_a_selection(curves):
    assert_shows(curves, "leg_l")


def test_follows_the_selection(curves):
    doc = curves.doc
    doc.select([("chain", "leg_r")])
    assert_shows(curves, "leg_r")
    doc.select([("bone", "forearm_l")])
    assert_shows(curves, "arm_l")
    doc.select([("target", "foot_r")])
    assert_shows(curves, "leg_r")
    doc.select([("bone", "spine")])  # no chain drives it: back to the first
    assert_shows(curves, "leg_l")


def test_curves_follow_an_edit(curves, qtbot):
    doc = curves.doc
    doc.select([("target", "foot_l")])
    before = plotted(curves.angle_curves["shin_l"])[1].copy()
    doc.apply("move foot", set_target_key(doc.project, "foot_l", 30, (20.0, 25.0)), touched={"target:foot_l"})
    # Edits in quick succession reach the curves at most every THROTTLE_S; the last lands.
    qtbot.waitUntil(lambda: not np.allclose(plotted(curves.angle_curves["shin_l"])[1], before), timeout=2000)
    assert_shows(curves, "leg_l")
    doc.undo_stack.undo()
    qtbot.waitUntil(lambda: np.allclose(plotted(curves.angle_curves["shin_l"])[1], before), timeout=2000)


def test_residual_shows_the_out_of_reach_cause(qtbot):
    w = _curves(qtbot, arm())
    cb = w.doc.bake.chains["arm"]
    out = cb.cause == CAUSES.index("out_of_reach")
    assert out.any()
    x, y = plotted(w.residual_curves["out_of_reach"])
    assert np.allclose(y[out], cb.residual[out]) and y[out].max() > 10
    assert_shows(w, "arm")


def test_angles_are_unwrapped(qtbot):
    # A target circling the shoulder twice: the upper arm turns 720 degrees.
    n = 96
    path = [(f, (200.0 * math.cos(4 * math.pi * f / n), 200.0 * math.sin(4 * math.pi * f / n))) for f in range(n + 1)]
    project = Project(
        name="circle", timeline=Timeline(24.0, 0, n), spaces=(Space(CHARACTER),),
        bones=(Bone("upper", None, 150.0), Bone("lower", "upper", 125.0, rest_offset=(150.0, 0.0))),
        targets=(Target("t", StepChannel(WORLD), keyed(path)),),
        chains=(Chain("c", ("upper", "lower"), "t"),),
    )
    w = _curves(qtbot, project)
    y = plotted(w.angle_curves["upper"])[1]
    assert np.max(np.abs(np.diff(y))) < 30  # no +-360 jumps
    assert y[-1] - y[0] == pytest.approx(720, abs=5)
    assert_shows(w, "c")


def test_playhead_follows_the_frame_and_frame_changes_do_not_replot(curves, qtbot):
    calls = []
    for item in [*curves.angle_curves.values(), curves.sensitivity_curve, *curves.residual_curves.values()]:
        item.sigPlotChanged.connect(lambda *_: calls.append(1))
    for f in (5, 17, 48):  # frames in quick succession: each shown within the pace (gesture_pacing)
        curves.doc.set_frame(f)
        qtbot.waitUntil(lambda: [line.value() for line in curves.playheads] == [f, f, f], timeout=1000)
    qtbot.wait(round(2000 / gesture_pacing.PACE_HZ))  # a pause: the next frame is shown at once
    curves.doc.set_frame(30)
    assert [line.value() for line in curves.playheads] == [30, 30, 30]
    assert calls == []


def test_dragging_the_playhead_scrubs(curves, qtbot):
    doc = curves.doc
    curves.playheads[1].setValue(22.4)  # what InfiniteLine does on each drag move
    assert doc.frame == 22 and doc.row == doc.bake.index(22)
    assert [line.value() for line in curves.playheads] == [22, 22, 22]
    # And a real drag with the mouse on the angle plot's line.
    view = curves.view
    vb = curves.angle_plot.vb

    def at(frame):
        rect = vb.viewRect()
        return view.mapFromScene(vb.mapViewToScene(QPointF(frame, rect.center().y())))

    seen = []
    doc.frameChanged.connect(seen.append)
    vp = view.viewport()
    start, end = at(22), at(35)
    _send(vp, QEvent.MouseButtonPress, start, Qt.LeftButton)
    for t in np.linspace(0, 1, 9)[1:]:
        QTest.qWait(12)
        _send(vp, QEvent.MouseMove, QPointF(start) + (QPointF(end) - QPointF(start)) * float(t), Qt.NoButton)
    _send(vp, QEvent.MouseButtonRelease, end, Qt.LeftButton, held=Qt.NoButton)
    assert doc.frame == 35 and len(seen) >= 3
    assert [line.value() for line in curves.playheads] == [35, 35, 35]


def test_shown_chain_rules():
    p = walk()
    assert shown_chain(p, ()) == "leg_l"
    assert shown_chain(p, (("space", "character"), ("target", "hand_on_hip"))) == "arm_l"
    assert shown_chain(Project(), ()) is None


def test_a_project_without_chains_plots_nothing(qtbot):
    w = _curves(qtbot, Project(bones=(Bone("b", None, 10.0),)))
    assert w.chain is None and w.angle_curves == {}


def _send(widget, kind, pos, button, held=Qt.LeftButton):
    p = QPointF(pos)
    QApplication.sendEvent(widget, QMouseEvent(kind, p, widget.mapToGlobal(p), button, held, Qt.NoModifier))


def test_a_long_chains_cached_curves_all_fit_in_the_pixmap_cache(qtbot):
    # Each angle curve is cached as a pixmap of its plot, so moving the playhead
    # repaints the line, not the curves: only while every pixmap fits in Qt's pixmap
    # cache (10 MB by default, which a 50-bone chain in a large dock overflows: every
    # frame change then re-rendered all 50 curves).
    from PySide6.QtGui import QPixmapCache

    QPixmapCache.setCacheLimit(10 * 1024)  # Qt's default, as a fresh application has it
    n = 50
    project = _tail(n, 300)
    w = _curves(qtbot, project)
    w.resize(1600, 1000)
    qtbot.wait(100)
    plot = w.plots[0]
    rect = plot.vb.sceneBoundingRect()
    ratio = w.view.devicePixelRatioF()
    needed_kb = len(w.angle_curves) * rect.width() * rect.height() * ratio * ratio * 4 / 1024
    assert len(w.angle_curves) == n
    assert QPixmapCache.cacheLimit() >= needed_kb


def test_a_long_chains_title_names_its_ends_and_does_not_widen_the_view(qtbot):
    # A 50-bone chain's title once listed every bone, and its label's size hint
    # widened the dock and the main window to 2,847 px.
    n = 50
    bones = tuple(Bone(f"tail_{i}", None if i == 0 else f"tail_{i - 1}", 5.0,
                       rest_offset=(0.0, 0.0) if i == 0 else (5.0, 0.0)) for i in range(n))
    path = [(0, (120.0, 20.0)), (20, (100.0, -30.0))]
    project = Project("tail", Timeline(24.0, 0, 20), (Space(CHARACTER),), bones,
                      (Target("tip", StepChannel(WORLD), keyed(path, "bezier")),),
                      (Chain("tail", tuple(b.name for b in bones), "tip", solver="fabrik", tolerance=0.05),))
    w = _curves(qtbot, project)
    text = w._title.text()
    assert "tail_0, tail_1" in text and "tail_49" in text and "50 bones" in text
    assert "tail_25" not in text
    assert w._title.toolTip() == ", ".join(b.name for b in bones)
    assert w.minimumSizeHint().width() < 600
    w.resize(500, 400)
    qtbot.wait(20)
    assert w.width() == 500
def test_a_long_chains_angle_curves_are_thin_and_a_limbs_stay_thick(qtbot):
    # Fifty 2 px curves merge into one band (and cost Qt 3-4x the paint of 1 px ones
    # when a range lands): above DENSE_CURVES bones each is 1 px, a limb's stay 2 px.
    from rigeditor.app.curves import CURVE_WIDTH_PX, DENSE_CURVES

    n = DENSE_CURVES + 1
    bones = tuple(Bone(f"b{i}", None if i == 0 else f"b{i - 1}", 5.0, rest_offset=(0.0, 0.0) if i == 0 else (5.0, 0.0))
                  for i in range(n))
    limb = (Bone("u", None, 20.0), Bone("l", "u", 20.0, rest_offset=(20.0, 0.0)))
    project = Project("two", Timeline(24.0, 0, 30), (Space(CHARACTER),), bones + limb,
                      (Target("tip", StepChannel(WORLD), keyed([(0, (30.0, 10.0)), (30, (20.0, -10.0))])),
                       Target("hand", StepChannel(WORLD), keyed([(0, (25.0, 10.0))]))),
                      (Chain("tail", tuple(b.name for b in bones), "tip", solver="fabrik", tolerance=0.05),
                       Chain("arm", ("u", "l"), "hand")))
    w = _curves(qtbot, project)

    def widths():
        return {item.opts["pen"].width() for item in w.angle_curves.values()}

    assert w.chain == "tail" and len(w.angle_curves) == n and widths() == {1}
    w.doc.select([("chain", "arm")])
    assert w.chain == "arm" and list(w.angle_curves) == ["u", "l"] and widths() == {CURVE_WIDTH_PX}
    w.doc.select([("chain", "tail")])
    assert widths() == {1}
    w.doc.undo_stack.clear()


def test_a_long_chains_angle_curves_all_land_and_each_turn_plots_a_few(qtbot):
    """A 50-bone chain's curves are given their data a few per turn of the event loop
    (ANGLE_BATCH), the first at once; once the loop has run, every curve is its bone's
    angle to its parent, read here off the bones' own joints and tips (unwrapped)."""
    from rigeditor.app.curves import ANGLE_BATCH

    n, frames = 50, 120
    project = _tail(n, frames)
    w = _curves(qtbot, project)
    qtbot.wait(50)
    w._shown = None  # plot the same range again, as when a range lands
    for item in w.angle_curves.values():
        item.setData([], [])
    w._update()
    plotted = [item for item in w.angle_curves.values() if item.yData is not None and len(item.yData)]
    assert len(plotted) == ANGLE_BATCH < n
    qtbot.waitUntil(lambda: all(item.yData is not None and len(item.yData) for item in w.angle_curves.values()),
                    timeout=5_000)
    bake = w.doc.range_bake
    heading = None
    for name in (b.name for b in project.bones):
        bb = bake.bone(name)
        d = bb.tip - bb.joint
        world = np.arctan2(d[:, 1], d[:, 0])
        local = world if heading is None else world - heading
        heading = world
        want = np.degrees(np.unwrap(np.angle(np.exp(1j * local))))
        got = w.angle_curves[name].yData
        # The same turn as the plot's (unwrapped from the first frame), to rounding.
        assert np.allclose(got - got[0], want - want[0], atol=1e-6), name
    assert np.array_equal(w.angle_curves["b0"].xData, bake.frames)


def test_the_cause_legend_shows_the_causes_present_in_order_as_a_fresh_one_would(qtbot):
    """The legend's entries are made once and put back as the causes present change;
    what it shows is what a legend built afresh shows: the same entries, in the same
    order and places, the same size."""
    import pyqtgraph as pg

    from rigeditor.app import style
    from rigeditor.app.curves import show_entries

    w = _curves(qtbot, arm())
    legend, curves = w._cause_legend, w.residual_curves
    made = {}
    for present in (CAUSES[:3], CAUSES[1:2], (CAUSES[0], CAUSES[2]), CAUSES, ()):
        entries = [(curves[c], style.CAUSE_LABELS[c]) for c in present]
        show_entries(legend, entries, made)
        fresh = pg.LegendItem(colCount=legend.columnCount, labelTextColor=style.TEXT)
        w.residual_plot.vb.scene().addItem(fresh)
        for curve, text in entries:
            fresh.addItem(curve, text)
        qtbot.wait(5)
        shown = [(label.text, legend.layout.itemAt(0, 2 * k + 1) is label, label.isVisible())
                 for k, (_, label) in enumerate(legend.items)]
        assert shown == [(text, True, True) for _, text in entries]
        assert [s.item for s, _ in legend.items] == [c for c, _ in entries]
        assert abs(legend.width() - fresh.width()) <= 1.0 and abs(legend.height() - fresh.height()) <= 1.0
        w.residual_plot.vb.scene().removeItem(fresh)
    w.doc.undo_stack.clear()


def test_a_drags_end_plots_the_angles_at_once_and_the_other_plots_in_the_next_turns(qtbot):
    """The walk's 48 frames are evaluated whole at every edit of a drag; at its end the
    curves show the new range: the angles at once, the residual (in each frame's
    cause's colour) and the jitter a turn or two later, each the range's own values."""
    from rigeditor.app.curves import SENSITIVITY_RANGE

    w = _curves(qtbot, walk())
    doc = w.doc
    doc.select([("target", "foot_l")])
    doc.set_frame(12)
    key = ("drag", doc.begin_gesture())
    for k in range(3):  # the foot pulled out of reach, then some
        doc.apply("Move target", set_target_key(doc.project, "foot_l", 12, (400.0 + 60 * k, -300.0)),
                  touched={"target:foot_l"}, merge_key=key)
    assert not doc.range_pending
    doc.end_gesture()
    cb = doc.range_bake.chains["leg_l"]
    assert w._shown[1] is cb and "updating" not in w._title.text()
    thigh = np.degrees(unwrap(doc.range_bake.bone("thigh_l").local_rotation))
    assert np.allclose(w.angle_curves["thigh_l"].yData, thigh)
    qtbot.waitUntil(lambda: not w._steps, timeout=2_000)
    for i, cause in enumerate(cb.cause.tolist()):
        y = w.residual_curves[CAUSES[cause]].yData
        assert y is not None and np.isclose(y[i], cb.residual[i]), i
    assert cb.cause[12] == CAUSES.index("out_of_reach") and cb.residual[12] > 100.0
    want = np.clip(np.nan_to_num(cb.sensitivity, nan=SENSITIVITY_RANGE[1]), *SENSITIVITY_RANGE)
    assert np.allclose(w.sensitivity_curve.yData, want)
    doc.undo_stack.clear()
