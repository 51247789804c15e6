"""Slot colour and blend modes drawn as Spine's runtimes draw them, in `rigeditor render`
and the editor (one drawing module): a picture of a known colour over a known
background, each pixel checked against the colour worked out by hand from the blend
functions (premultiplied alpha) and the two-colour tint shader."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rigeditor import edits
from rigeditor.app.render import _fit, render_image
from rigeditor.io.art.images import encode_png
from rigeditor.model.data.attachments import Art, ImageAttachment, Slot
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import StepChannel
from rigeditor.model.evaluation.evaluate import evaluate

TOP = np.array([200, 100, 50])  # the picture's colour (opaque)
BACK = np.array([40, 80, 160])  # the picture behind it (opaque)
W, H = 400, 300


def _project(tmp_path, **color) -> Project:
    for name, rgb in (("top", TOP), ("back", BACK)):
        px = np.zeros((40, 40, 4), dtype=np.uint8)
        px[..., :3], px[..., 3] = rgb, 255
        (tmp_path / f"{name}.png").write_bytes(encode_png(px))
    art = Art((Slot("back", "arm", (ImageAttachment("back", "back.png", 200, 200),), StepChannel("back")),
               Slot("top", "arm", (ImageAttachment("top", "top.png", 60, 60, x=50, y=50),), StepChannel("top"))))
    p = Project(name="b", bones=(Bone("arm", None, 10.0),), timeline=Timeline(30.0, 0, 0), art=art)
    return edits.set_slot_color(p, "top", **color) if color else p


def _pixel(project, tmp_path, at=(50.0, 50.0)) -> np.ndarray:
    bake = evaluate(project)
    image = render_image(bake, 0, (W, H), project, tmp_path)
    q = _fit(bake, 0, W, H)(np.array(at))
    c = image.pixelColor(int(q.x()), int(q.y()))
    return np.array([c.red(), c.green(), c.blue()])


def _over(top, back, alpha=1.0):
    return alpha * top + (1 - alpha) * back


CASES = {
    "normal": (dict(), TOP),
    "normal at half alpha": (dict(light=(1, 1, 1, 0.5)), _over(TOP, BACK, 0.5)),
    "additive": (dict(blend="additive"), np.minimum(TOP + BACK, 255)),
    "additive at half alpha": (dict(blend="additive", light=(1, 1, 1, 0.5)), np.minimum(0.5 * TOP + BACK, 255)),
    "multiply": (dict(blend="multiply"), TOP * BACK / 255),
    "multiply at half alpha": (dict(blend="multiply", light=(1, 1, 1, 0.5)),
                               0.5 * TOP * BACK / 255 + (1 - 0.5) * BACK),
    "screen": (dict(blend="screen"), TOP + BACK - TOP * BACK / 255),
    "light colour": (dict(light=(0.5, 1.0, 0.25, 1.0)), TOP * [0.5, 1.0, 0.25]),
    # two-colour tint: (1 - c) * dark + c * light, c the picture's colour in [0, 1]
    "dark tint": (dict(light=(0.5, 1.0, 1.0, 1.0), dark=(0.2, 0.4, 0.6)),
                  ((1 - TOP / 255) * [0.2, 0.4, 0.6] + TOP / 255 * [0.5, 1.0, 1.0]) * 255),
    "dark tint, additive, half alpha": (
        dict(light=(0.5, 1.0, 1.0, 0.5), dark=(0.2, 0.4, 0.6), blend="additive"),
        np.minimum(0.5 * ((1 - TOP / 255) * [0.2, 0.4, 0.6] + TOP / 255 * [0.5, 1.0, 1.0]) * 255 + BACK, 255)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_slot_draws_as_the_runtime_blends_it(qapp, tmp_path, case):
    color, expected = CASES[case]
    got = _pixel(_project(tmp_path, **color), tmp_path)
    np.testing.assert_allclose(got, expected, atol=2.0, err_msg=case)
    # Beside the picture the background is untouched by the slot's mode.
    np.testing.assert_allclose(_pixel(_project(tmp_path, **color), tmp_path, at=(-50.0, -50.0)), BACK, atol=1)


def test_an_animated_colour_is_drawn_on_its_frame(qapp, tmp_path):
    p = _project(tmp_path)
    p = edits.key_slot_color(p, "top", 0, (1.0, 1.0, 1.0, 1.0))
    p = edits.key_slot_color(p, "top", 10, (0.0, 1.0, 1.0, 1.0))
    p = replace(p, timeline=Timeline(30.0, 0, 10))
    bake = evaluate(p)
    image = render_image(bake, 5, (W, H), p, tmp_path)
    q = _fit(bake, 5, W, H)(np.array([50.0, 50.0]))
    c = image.pixelColor(int(q.x()), int(q.y()))
    assert abs(c.red() - 100) <= 2 and (c.green(), c.blue()) == (100, 50)  # red halfway to 0


@pytest.mark.parametrize("blend, expected", [("additive", np.minimum(TOP + BACK, 255)),
                                             ("screen", TOP + BACK - TOP * BACK / 255)])
def test_a_mesh_under_an_additive_mode_has_no_doubled_seams(qapp, blend, expected):
    from PySide6.QtGui import QColor, QImage, QPainter

    from rigeditor.app.art_paint import draw_mesh
    from rigeditor.app.blend import composition

    picture = QImage(40, 40, QImage.Format.Format_ARGB32_Premultiplied)
    picture.fill(QColor(*TOP.tolist()))
    target = QImage(100, 100, QImage.Format.Format_ARGB32_Premultiplied)
    target.fill(QColor(*BACK.tolist()))
    p = QPainter(target)
    p.setCompositionMode(composition(blend))
    # A square of two triangles whose shared edge is the diagonal.
    uvs = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    device = np.array([[20, 20], [80, 20], [80, 80], [20, 80]], float)
    draw_mesh(p, picture, uvs, np.array([[0, 1, 2], [0, 2, 3]]), device, seams=False)
    p.end()
    diagonal = np.array([[target.pixelColor(k, k).red(), target.pixelColor(k, k).green(),
                          target.pixelColor(k, k).blue()] for k in range(25, 76)])
    np.testing.assert_allclose(diagonal, np.tile(expected, (len(diagonal), 1)), atol=2)


def test_a_colour_keyed_over_time_reads_the_picture_once(qapp, tmp_path, monkeypatch):
    from rigeditor.app import art_paint

    _project(tmp_path)
    reads = []
    real = art_paint._read
    monkeypatch.setattr(art_paint, "_read", lambda path: reads.append(path) or real(path))
    cache = art_paint.ImageCache()
    for k in range(8):  # eight frames of a fading red
        image = cache.get(tmp_path / "top.png", (1.0 - k / 8, 1.0, 1.0, 1.0))
        c = image.pixelColor(20, 20)
        assert abs(c.red() - TOP[0] * (1.0 - k / 8)) <= 1 and c.green() == TOP[1]
    assert len(reads) == 1


def test_the_coloured_copies_kept_stay_under_their_bound(qapp, tmp_path, monkeypatch):
    """A fade over many frames keeps at most COLORED_BYTES of tinted copies, the ones
    drawn last: the latest colours are drawn again without a re-tint, the first one
    is tinted again and draws the same pixels."""
    from rigeditor.app import art_paint

    _project(tmp_path)  # 40 x 40 pictures: 6,400 bytes a copy
    monkeypatch.setattr(art_paint, "COLORED_BYTES", 5 * 6400)
    made = []
    real = art_paint.tinted
    monkeypatch.setattr(art_paint, "tinted", lambda *a: made.append(a[1]) or real(*a))
    cache = art_paint.ImageCache()
    fade = [(1.0 - k / 40, 1.0, 1.0, 1.0) for k in range(1, 31)]  # 30 different 8-bit reds
    first = cache.get(tmp_path / "top.png", fade[0]).pixelColor(20, 20)
    for light in fade[1:]:
        cache.get(tmp_path / "top.png", light)
    assert sum(c.sizeInBytes() for c in cache._colored.values()) <= 5 * 6400 and len(made) == 30
    for light in fade[-5:]:  # the five drawn last: kept
        cache.get(tmp_path / "top.png", light)
    assert len(made) == 30
    again = cache.get(tmp_path / "top.png", fade[0]).pixelColor(20, 20)
    assert len(made) == 31 and again == first and abs(first.red() - TOP[0] * fade[0][0]) <= 1


def _every_texel():
    """A premultiplied picture holding every valid (channel <= alpha) 8-bit texel once
    per channel: column c, row a (blue, green and red all c)."""
    from PySide6.QtGui import QImage

    image = QImage(256, 256, QImage.Format.Format_ARGB32_Premultiplied)
    px = np.frombuffer(image.bits(), dtype=np.uint8).reshape(256, image.bytesPerLine())[:, :1024].reshape(256, 256, 4)
    c, a = np.meshgrid(np.arange(256), np.arange(256))
    px[..., 0] = px[..., 1] = px[..., 2] = np.minimum(c, a)
    px[..., 3] = a
    return image, np.minimum(c, a), a


@pytest.mark.parametrize("light, alpha", [((0.5, 0.25, 1.0), 1.0), ((0.9, 0.3, 0.61), 0.7), ((1.0, 1.0, 1.0), 0.2)])
def test_a_plain_tint_is_the_two_colour_tint_with_a_black_dark_colour(qapp, light, alpha):
    """Spine's plain tint is its two-colour tint with the dark colour black: both draw
    every texel alike, each channel c_pm * light * alpha to the nearest level."""
    from rigeditor.app.blend import tinted

    image, c, a = _every_texel()

    def channels(img):
        px = np.frombuffer(img.constBits(), dtype=np.uint8).reshape(256, img.bytesPerLine())[:, :1024]
        return px.reshape(256, 256, 4).astype(int)

    plain, black = channels(tinted(image, light, None, alpha)), channels(tinted(image, light, (0.0, 0.0, 0.0), alpha))
    assert np.array_equal(plain, black)
    for channel, k in ((2, 0), (1, 1), (0, 2)):  # B, G, R in memory
        assert np.abs(plain[..., channel] - c * light[k] * alpha).max() <= 0.5 + 1e-3
    assert np.abs(plain[..., 3] - a * alpha).max() <= 0.5 + 1e-3
