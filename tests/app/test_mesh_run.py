"""Meshes drawn in one shared buffer (app.mesh_run) give the pixels the mesh-by-mesh
path gives: overlapping half-transparent meshes in draw order, over an opaque, a clear
and a half-transparent picture, inside repainted rectangles, and a rig whose slots switch between
blend modes (a run stops at a mode that is not normal and starts again after it)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QImage, QPainter

import rigeditor.app.art_paint as art_paint
from rigeditor.app import mesh_raster
from rigeditor.app.art_paint import ImageCache, draw_art, draw_mesh
from rigeditor.app.mesh_batches import far_shift
from rigeditor.app.mesh_run import draw_run
from rigeditor.examples.art_files import example_project
from rigeditor.io import load_project
from rigeditor.model import evaluate

from test_draw_mesh import skinned  # noqa: F401 - the fixture

BACKGROUND = 0xFF202830


@pytest.fixture(autouse=True)
def _compiled():
    assert mesh_raster.compiled_raster(wait=True) is not None


def _paint(fn, background=BACKGROUND, size=(700, 600), dpr=1.0):
    target = QImage(int(size[0] * dpr), int(size[1] * dpr), QImage.Format.Format_ARGB32_Premultiplied)
    target.setDevicePixelRatio(dpr)
    target.fill(background)
    p = QPainter(target)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    fn(p)
    p.end()
    return np.frombuffer(target.constBits(), np.uint32).reshape(target.height(), -1)[:, :target.width()].copy()


def _half(image: QImage) -> QImage:
    """The picture at 55 % opacity (premultiplied: every texel translucent)."""
    out = QImage(image.size(), QImage.Format.Format_ARGB32_Premultiplied)
    out.fill(0)
    p = QPainter(out)
    p.setOpacity(0.55)
    p.drawImage(0, 0, image)
    p.end()
    return out


def _entries(pose, image, placements):
    m = pose.mesh
    texture = np.asarray(m.uvs) * [image.width(), image.height()]
    shift = far_shift(image.width(), image.height())
    return [(image, m.triangles, texture, pose.vertices(frame) * [s, -s] + [x, y], shift, m.uvs)
            for frame, s, x, y in placements]


def _one_by_one(entries, clip=None):
    return lambda p: [draw_mesh(p, e[0], e[5], e[1], e[3], clip=clip) for e in entries]


def _run(entries, clip=None):
    def paint(p):
        assert draw_run(p, entries, clip), "the run was drawn in one buffer"
    return paint


placement = st.tuples(st.sampled_from([0, 12, 24, 40]), st.floats(1.0, 2.5), st.floats(150, 450), st.floats(300, 520))


@settings(max_examples=12, deadline=None)
@given(st.lists(placement, min_size=2, max_size=6), st.sampled_from([BACKGROUND, 0, 0x80401808]))
def test_overlapping_translucent_meshes_in_one_buffer_are_the_meshes_drawn_one_by_one(skinned, placements, background):
    # Over an opaque, a clear and a half-transparent picture (premultiplied ARGB).
    pose, image = skinned
    entries = _entries(pose, _half(image), placements)
    ours = _paint(_run(entries), background)
    np.testing.assert_array_equal(ours, _paint(_one_by_one(entries), background))
    assert np.count_nonzero(ours != background) > 1_000


def test_the_run_overlaps_and_composites_in_draw_order(skinned):
    pose, image = skinned
    entries = _entries(pose, _half(image), [(0, 2.0, 300, 560), (24, 2.0, 330, 540), (40, 1.8, 280, 520)])
    ours = _paint(_run(entries))
    np.testing.assert_array_equal(ours, _paint(_one_by_one(entries)))
    alone = [_paint(_one_by_one([e])) != BACKGROUND for e in entries]
    overlap = alone[0] & alone[1] & alone[2]
    assert overlap.sum() > 2_000  # pixels all three cover, each translucent
    reversed_order = _paint(_run(entries[::-1]))
    assert np.count_nonzero(reversed_order[overlap] != ours[overlap]) > 1_000  # the order shows


@pytest.mark.parametrize("dpr", [2.0, 2.5])
def test_on_a_high_density_picture_the_run_is_the_meshes_one_by_one(skinned, dpr):
    pose, image = skinned
    entries = _entries(pose, _half(image), [(0, 2.0, 300, 560), (24, 2.0, 330, 540), (40, 1.8, 280, 520)])
    ours = _paint(_run(entries), dpr=dpr)
    np.testing.assert_array_equal(ours, _paint(_one_by_one(entries), dpr=dpr))
    assert np.count_nonzero(ours != BACKGROUND) > 20_000


def test_a_run_draws_inside_the_repainted_rectangles_only(skinned):
    pose, image = skinned
    entries = _entries(pose, _half(image), [(0, 2.0, 300, 560), (24, 2.0, 330, 540), (40, 1.8, 280, 520)])
    rects = np.array([[250, 300, 380, 420], [360, 350, 520, 470], [200, 480, 330, 600]], float)
    ours = _paint(_run(entries, rects))
    np.testing.assert_array_equal(ours, _paint(_one_by_one(entries, rects)))
    inside = np.zeros(ours.shape, bool)
    for x0, y0, x1, y1 in rects.astype(int):
        inside[y0:y1, x0:x1] = True
    assert np.all(ours[~inside] == BACKGROUND) and np.count_nonzero(ours[inside] != BACKGROUND) > 5_000


def test_a_picture_it_cannot_read_back_is_left_to_the_one_by_one_path(skinned):
    pose, image = skinned
    entries = _entries(pose, image, [(0, 2.0, 300, 560), (24, 2.0, 330, 540)])
    target = QImage(700, 600, QImage.Format.Format_ARGB32)  # straight alpha: blended at 16 bits by Qt
    target.fill(BACKGROUND)
    p = QPainter(target)
    try:
        assert not draw_run(p, entries)
        p.setOpacity(0.5)
        assert not draw_run(p, entries)
    finally:
        p.end()
    assert np.all(np.frombuffer(target.constBits(), np.uint32) == BACKGROUND)  # nothing drawn


MODES = ("normal", "normal", "additive", "normal", "normal", "multiply", "normal", "screen", "normal", "normal")


def test_a_rig_with_meshes_in_several_blend_modes_draws_as_mesh_by_mesh():
    path = example_project("skinned_arm")
    project = load_project(path)
    arm = project.art.slots[0]
    slots = tuple(replace(arm, name=f"arm{k}", blend=mode,
                          attachments=tuple(replace(a, opacity=0.4 + 0.06 * k) for a in arm.attachments))
                  for k, mode in enumerate(MODES))
    project = replace(project, art=replace(project.art, slots=slots))
    bake = evaluate(project)

    def scene(frame):
        row = bake.art.row(bake.index(frame))
        return lambda p: draw_art(p, project, row, lambda q: np.asarray(q) * [2.0, -2.0] + [300.0, 560.0],
                                  path.parent, ImageCache())
    runs = []
    real = art_paint.draw_run
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(art_paint, "draw_run", lambda *a, **k: runs.append(len(a[1])) or real(*a, **k))
        ours = [_paint(scene(f)) for f in (0, 24)]
    assert runs == [2, 2, 2] * 2  # normal pairs between the other modes (a lone one is drawn alone)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(art_paint, "draw_run", lambda *a, **k: False)
        theirs = [_paint(scene(f)) for f in (0, 24)]
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)
        assert np.count_nonzero(a != BACKGROUND) > 10_000


def test_a_scene_inside_a_window_draws_its_runs_where_it_draws_them_mesh_by_mesh(qtbot):
    # A widget rendered inside a window paints into the window's picture shifted by its
    # place there: the run reads and writes the pixels at that place.
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from rigeditor.app.document import Document
    from rigeditor.app.scene import SceneView

    path = example_project("skinned_arm")
    project = load_project(path)
    arm = project.art.slots[0]
    slots = tuple(replace(arm, name=f"arm{k}", attachments=tuple(replace(a, opacity=0.5) for a in arm.attachments))
                  for k in range(4))
    doc = Document(replace(project, art=replace(project.art, slots=slots)), path)
    window = QWidget()
    layout = QVBoxLayout(window)
    layout.setContentsMargins(137, 61, 0, 0)
    view = SceneView(doc)
    layout.addWidget(view)
    qtbot.addWidget(window)
    window.resize(900 + 137, 650 + 61)
    window.show()
    doc.set_frame(24)
    qtbot.wait(10)

    def rendered():
        target = QImage(window.size(), QImage.Format.Format_ARGB32_Premultiplied)
        target.fill(0)
        window.render(target)
        return np.frombuffer(target.constBits(), np.uint32).reshape(target.height(), -1)[:, :target.width()].copy()
    drawn = []
    real = art_paint.draw_run
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(art_paint, "draw_run", lambda *a, **k: drawn.append(real(*a, **k)) or drawn[-1])
        ours = rendered()
    assert drawn and all(drawn)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(art_paint, "draw_run", lambda *a, **k: False)
        theirs = rendered()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(art_paint, "draw_mesh", lambda *a, **k: None)
        mp.setattr(art_paint, "draw_run", lambda *a, **k: True)
        bare = rendered()
    np.testing.assert_array_equal(ours, theirs)
    assert np.count_nonzero(ours != bare) > 10_000  # the arms are drawn
