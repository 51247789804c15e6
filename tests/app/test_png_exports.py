"""The PNG writers without a window: ``rigeditor render`` draws the scene objects as the
editor does, and the curve plots read like the editor's curves (frames, causes)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import shiboken6
from PySide6.QtGui import QColor, QImage

from rigeditor.app import style
from rigeditor.app.plot_export import MAX_CURVES, PALETTE, plot_layout, plot_png
from rigeditor.app.render import BACKGROUND, render_image
from rigeditor.model import evaluate
from rigeditor.model.evaluation.bake import CAUSES
from rigeditor.examples.rigs import arm, door, tail, walk


def _pixels(image: QImage) -> np.ndarray:
    """(h, w, 3) RGB of ``image``."""
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h, stride = image.width(), image.height(), image.bytesPerLine()
    rows = np.frombuffer(bytes(image.constBits()), np.uint8).reshape(h, stride)
    return rows[:, :w * 3].reshape(h, w, 3).astype(int)


def _near(pixels, color: QColor, tol=12) -> np.ndarray:
    """(k, 2) x, y of the pixels within ``tol`` of ``color`` on every channel."""
    rgb = np.array([color.red(), color.green(), color.blue()])
    ys, xs = np.nonzero((np.abs(pixels - rgb) <= tol).all(axis=-1))
    return np.column_stack([xs, ys])


def _over_background(color: QColor, alpha: int) -> QColor:
    a = alpha / 255.0
    return QColor(*(round(c * a + b * (1 - a)) for c, b in zip(
        (color.red(), color.green(), color.blue()), (BACKGROUND.red(), BACKGROUND.green(), BACKGROUND.blue()))))


def test_render_draws_the_door_along_its_swing(qapp):
    project, frame = door(), 40
    bake = evaluate(project)
    row = bake.index(frame)
    with_spaces = _pixels(render_image(bake, row, (800, 600), project=project))
    bare = _pixels(render_image(bake, row, (800, 600)))
    # The door reads as a band from its hinge to its handle, in the door's colour (faded).
    band = _over_background(style.space_color(project, "door"), 110)
    drawn = _near(with_spaces, band, tol=6)
    assert len(drawn) > 200 and len(_near(bare, band, tol=6)) == 0
    # The band runs along the door as it has swung by this frame (y flips in the image).
    d = bake.spaces["door"]
    swing = math.atan2(float(np.reshape(d.c, -1)[row]), float(np.reshape(d.a, -1)[row]))
    assert swing > 0.5  # well open
    centred = drawn - drawn.mean(axis=0)
    direction = np.linalg.svd(centred, full_matrices=False)[2][0]
    assert abs(abs(direction @ [math.cos(swing), -math.sin(swing)]) - 1.0) < 0.01
    # Each space's own mark, in its colour.
    for name in ("character", "door", "door_handle"):
        assert len(_near(with_spaces, style.space_color(project, name), tol=4)) >= 20, name


@pytest.fixture
def layout(qapp):
    made = []

    def make(project, **kw):
        view, lay, panels = plot_layout(project.name, evaluate(project), **kw)
        made.append(view)
        return lay, panels
    yield make
    for view in made:
        shiboken6.delete(view)


def _curves(plot):
    return [c for c in plot.listDataItems()]


def test_plots_run_over_frames_with_at_most_eight_curves_a_panel(layout):
    project = tail()
    bake = evaluate(project)
    _, panels = layout(project)
    rotation = [(p, legend) for p, legend in panels if "local rotation" in p.titleLabel.text]
    assert len(rotation) == 2  # ten bones: 8 + 2
    for plot, _ in panels:
        assert plot.getAxis("bottom").labelText == "frame"
        assert 0 < len(_curves(plot)) <= MAX_CURVES
        for curve in _curves(plot):
            np.testing.assert_array_equal(curve.getOriginalDataset()[0], bake.frames)
    names = []
    for plot, legend in rotation:
        names += [label.text for _, label in legend.items]
        colours = [c.opts["pen"].color().name() for c in _curves(plot)]
        assert colours == list(PALETTE[:len(colours)])  # the clear set, none twice
    assert names == list(bake.bones)


def test_legends_sit_beside_the_data_not_on_it(layout):
    _, panels = layout(walk())
    for plot, legend in panels:
        data = plot.vb.sceneBoundingRect()
        assert legend.items, plot.titleLabel.text
        assert legend.sceneBoundingRect().left() >= data.right()


def test_residuals_are_coloured_by_cause_as_in_the_editor(layout):
    project = arm()
    bake = evaluate(project)
    cb = bake.chains["arm"]
    _, panels = layout(project)
    (plot, legend), = [(p, l) for p, l in panels if p.titleLabel.text.startswith("residual")]
    present = [CAUSES[k] for k in sorted(set(cb.cause.tolist()))]
    assert "out_of_reach" in present and "none" in present  # the arm goes beyond reach and back
    by_colour = {c.opts["pen"].color().name(): c for c in _curves(plot)}
    assert set(by_colour) == {style.CAUSE_COLORS[c].name() for c in present}
    out = by_colour[style.CAUSE_COLORS["out_of_reach"].name()].getOriginalDataset()[1]
    frames = cb.cause == CAUSES.index("out_of_reach")
    np.testing.assert_allclose(out[frames], cb.residual[frames])
    assert [label.text for _, label in legend.items] == [style.CAUSE_LABELS[c] for c in present]


def test_plotted_angles_start_within_half_a_turn(layout):
    project = walk()
    _, panels = layout(project)
    plot = panels[0][0]
    (upper,) = [c for c, (_, label) in zip(_curves(plot), panels[0][1].items) if label.text == "upper_arm_l"]
    y = upper.getOriginalDataset()[1]
    assert -180.0 < y[0] <= 180.0 and np.abs(np.diff(y)).max() < 180.0


def test_the_png_grows_with_its_panels(qapp):
    def size(project):
        data = plot_png(project.name, evaluate(project))
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert size(arm()) == (1200, 900)  # three panels
    assert size(tail()) == (1200, 1200)  # two rotation panels, residual, sensitivity
