"""The art in the scene: pictures where the Bake puts them, placeholders, dimming."""
from __future__ import annotations


import numpy as np
import pytest
from PIL import Image

from rigeditor.app.document import Document
from rigeditor.app.scene.layers import PAINT_ERRORS
from rigeditor.io import load_project
from rigeditor.examples.art_files import example_project
from views import grab_rgba as _grab, picture_point, release_all, screen_point as _screen, show_scene

EXAMPLE = example_project("dressed_arm")


@pytest.fixture(autouse=True)
def _release():
    yield
    release_all()


def _view(qtbot, path, frame):
    doc = Document(load_project(EXAMPLE), path)
    doc.set_frame(frame)
    return doc, show_scene(qtbot, doc)


def _interior(doc, slot, u, v):
    return picture_point(doc, slot, u, v, EXAMPLE.parent)


def test_pictures_are_drawn_where_the_bake_puts_them(qtbot, tmp_path):
    doc, view = _view(qtbot, EXAMPLE, 34)
    shot = _grab(view)
    Image.fromarray(shot).save(tmp_path / "dressed_34.png")
    for slot, points in (("torso", [(20, 30), (70, 170)]), ("forearm", [(40, 30), (110, 30)])):
        for u, v in points:
            world, colour = _interior(doc, slot, u, v)
            x, y = _screen(view, world)
            assert np.abs(shot[y, x, :3].astype(int) - colour[:3]).max() <= 24, (slot, u, v)
    assert PAINT_ERRORS == []


def test_dimming_fades_the_art_and_hiding_bones_leaves_it(qtbot):
    doc, view = _view(qtbot, EXAMPLE, 34)
    world, colour = _interior(doc, "torso", 20, 30)
    x, y = _screen(view, world)
    full = _grab(view)[y, x, :3].astype(int)
    view.set_overlay("art_dim", True)
    qtbot.wait(10)
    dim = _grab(view)[y, x, :3].astype(int)
    view.set_overlay("art", False)
    qtbot.wait(10)
    background = _grab(view)[y, x, :3].astype(int)
    assert np.abs(full - colour[:3]).max() <= 24
    # 35 % opacity: a third of the way from the background to the picture.
    np.testing.assert_allclose(dim, background + 0.35 * (full - background), atol=6)


def test_a_missing_picture_draws_a_placeholder_not_an_error(qtbot, tmp_path):
    moved = tmp_path / "dressed.rigproj"  # no arm_art/ beside it
    moved.write_bytes(EXAMPLE.read_bytes())
    doc, view = _view(qtbot, moved, 34)
    world, _ = _interior(doc, "torso", 20, 30)
    x, y = _screen(view, world)
    shot = _grab(view)
    Image.fromarray(shot).save(tmp_path / "missing.png")
    view.set_overlay("art", False)
    qtbot.wait(10)
    wash = shot[y, x, :3].astype(int) - _grab(view)[y, x, :3].astype(int)
    assert wash[0] > 20 and wash[0] > wash[1] + 10 and wash[0] > wash[2] + 10  # a red wash
    assert PAINT_ERRORS == []


def test_clicking_a_picture_selects_its_slot_and_dragging_moves_it_in_setup_mode(qtbot):
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    doc, view = _view(qtbot, EXAMPLE, 34)
    doc.set_mode("setup")
    world, _ = _interior(doc, "torso", 20, 170)  # low on the torso, away from the bones
    x, y = _screen(view, world)
    ratio = view.viewport().devicePixelRatioF()
    start = QPoint(int(x / ratio), int(y / ratio))
    before = doc.project.art.slot("torso").find("torso")
    QTest.mousePress(view.viewport(), Qt.LeftButton, Qt.NoModifier, start)
    assert doc.selection == (("slot", "torso"),)
    for k in range(1, 5):
        QTest.mouseMove(view.viewport(), start + QPoint(10 * k, 0))
    QTest.mouseRelease(view.viewport(), Qt.LeftButton, Qt.NoModifier, start + QPoint(40, 0))
    after = doc.project.art.slot("torso").find("torso")
    scale = view.viewportTransform().m11()  # pixels per model unit
    assert after.x - before.x == pytest.approx(40 / scale, abs=1.0 / scale)
    assert after.y == pytest.approx(before.y, abs=1e-9)
    doc.undo_stack.undo()  # the drag is one step
    assert doc.project.art.slot("torso").find("torso") == before


def test_the_crack_overlay_paints_the_gap_at_the_elbow(qtbot, tmp_path):
    from rigeditor.io.art.images import alpha_masks
    from rigeditor.model.diagnostics.cracks import crack_points

    doc, view = _view(qtbot, EXAMPLE, 0)
    ((crack, points),) = [(c, p) for c, p in crack_points(doc.project, doc.bake, alpha_masks(
        doc.project, EXAMPLE.parent), doc.row) if c.child_slot == "forearm"]
    assert crack.area[0] > 50  # the elbow is bent at frame 0
    assert view.overlays["cracks"] is False  # off by default: it costs a few ms a frame
    view.set_overlay("cracks", True)
    qtbot.wait(10)
    shot = _grab(view)
    Image.fromarray(shot).save(tmp_path / "cracks.png")
    x, y = _screen(view, points.mean(axis=0))
    # The crack is hatched: look within 3 px of its centre (the framing follows the
    # animation's extent, so the exact pixel may fall between two strokes).
    patch = shot[y - 3:y + 4, x - 3:x + 4, :3].astype(int).reshape(-1, 3)
    assert any(r > 180 and g < 120 and b < 120 for r, g, b in patch)  # the crack's red
    view.set_overlay("cracks", False)
    qtbot.wait(10)
    r2, g2, b2 = _grab(view)[y, x, :3].astype(int)
    assert not (r2 > 180 and g2 < 120 and b2 < 120)


def test_a_picture_rewritten_in_place_shows_once_the_project_is_opened_again(qtbot, tmp_path):
    """As a PSD imported again over its own folder does: the scene must not keep the
    old picture for the half second it trusts a file's time."""
    import shutil

    folder = tmp_path / "dressed_arm"
    shutil.copytree(EXAMPLE.parent, folder)
    path = folder / EXAMPLE.name
    doc, view = _view(qtbot, path, 34)
    world, colour = _interior(doc, "torso", 20, 30)
    x, y = _screen(view, world)
    assert np.abs(_grab(view)[y, x, :3].astype(int) - colour[:3]).max() <= 24
    slot = next(s for s in doc.project.art.slots if s.name == "torso")
    picture = folder / slot.attachments[0].path
    size = Image.open(picture).size
    Image.new("RGBA", size, (0, 200, 0, 255)).save(picture)
    doc.replace_document(load_project(path), path)
    qtbot.wait(10)
    assert np.abs(_grab(view)[y, x, :3].astype(int) - (0, 200, 0)).max() <= 24
