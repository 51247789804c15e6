"""A slot colour applied to a picture by the compiled kernel (``core.tint_jit``) and by
the numpy path it replaces: the same bytes for every texel, the numpy path serving when
the kernel is away, and the scene drawing a keyed colour on a still slot frame by frame
as the runtime's rules give it."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rigeditor import edits
from rigeditor.app import blend
from rigeditor.app.document import Document
from rigeditor.examples.art_files import write_dressed_example
from rigeditor.io import load_project
from views import grab_rgba, picture_point, release_all, screen_point, show_scene


@pytest.fixture(autouse=True)
def _release():
    yield
    release_all()


def _picture(rng, w, h, clear=0.3):
    """A premultiplied ARGB32 QImage (w x h) of random texels (channel <= alpha), a
    fraction ``clear`` of them fully clear; and its bytes (h, w, 4) B, G, R, A."""
    from PySide6.QtGui import QImage

    a = rng.integers(0, 256, (h, w))
    a[rng.random((h, w)) < clear] = 0
    px = np.empty((h, w, 4), np.uint8)
    px[..., 3] = a
    for k in range(3):
        px[..., k] = np.floor(rng.random((h, w)) * (a + 1)).astype(np.uint8)
    image = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    view = np.frombuffer(image.bits(), np.uint8).reshape(h, image.bytesPerLine())[:, :w * 4]
    view.reshape(h, w, 4)[:] = px
    return image, px


def _bytes(image) -> np.ndarray:
    h, w = image.height(), image.width()
    return np.frombuffer(image.constBits(), np.uint8).reshape(h, image.bytesPerLine())[:, :w * 4].reshape(h, w, 4).copy()


def _numpy():
    """The numpy path's tint (the kernel taken away for the call)."""
    real = blend.compiled_tint

    def run(*args):
        blend.compiled_tint = lambda wait=False: None
        try:
            return blend.tinted(*args)
        finally:
            blend.compiled_tint = real
    return run


def test_the_kernel_is_there_for_the_tests():
    assert blend.compiled_tint(wait=True) is not None, "numba is a test dependency"


unit = st.floats(0.0, 1.0)
colour = st.tuples(unit, unit, unit)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), light=colour, dark=st.none() | colour, alpha=unit,
       size=st.tuples(st.integers(1, 70), st.integers(1, 70)))
def test_the_kernel_gives_the_numpy_paths_bytes(qapp, seed, light, dark, alpha, size):
    """Random pictures and colours: the compiled tint equals the numpy one, byte for byte."""
    image, _ = _picture(np.random.default_rng(seed), *size)
    assert blend.compiled_tint(wait=True) is not None
    compiled = _bytes(blend.tinted(image, light, dark, alpha))
    assert np.array_equal(compiled, _bytes(_numpy()(image, light, dark, alpha)))


def _every_texel():
    """A 256 x 256 premultiplied picture holding every valid (c <= a) texel: column c,
    row a, red, green and blue three different channels of that alpha; and a (256, 256)."""
    from PySide6.QtGui import QImage

    image = QImage(256, 256, QImage.Format.Format_ARGB32_Premultiplied)
    px = np.frombuffer(image.bits(), np.uint8).reshape(256, 256, 4)
    c, a = np.meshgrid(np.arange(256), np.arange(256))
    c = np.minimum(c, a)
    px[..., 0], px[..., 1], px[..., 2], px[..., 3] = c, np.maximum(c - 1, 0), a - c, a
    return image, a


@settings(max_examples=80, deadline=None)
@given(light=colour, dark=st.none() | colour, alpha=unit)
def test_every_texel_comes_out_the_same_both_ways(qapp, light, dark, alpha):
    """Every valid texel under random colours: the kernel's table rows, worked out as it
    goes, equal the numpy path's whole tables entry for entry."""
    image, _ = _every_texel()
    assert np.array_equal(_bytes(blend.tinted(image, light, dark, alpha)), _bytes(_numpy()(image, light, dark, alpha)))


@pytest.mark.parametrize("light, dark, alpha", [((0.5, 0.25, 1.0), None, 1.0), ((0.9, 0.3, 0.61), (0.2, 0.7, 0.05), 0.7),
                                                ((1.0, 1.0, 1.0), (1.0, 1.0, 1.0), 0.2), ((0.0, 0.0, 0.0), (0.4, 0.5, 0.6), 1.0)])
def test_every_texel_tints_as_the_runtime_rule_gives_it_both_ways(qapp, light, dark, alpha):
    """Every valid 8-bit texel (channel c <= alpha a) at once: (a - c) * dark + c * light,
    times alpha, to the nearest level, by the kernel and by the numpy path; the picture
    given is left as it was."""
    image, a = _every_texel()
    before = _bytes(image)
    compiled, numpy = _bytes(blend.tinted(image, light, dark, alpha)), _bytes(_numpy()(image, light, dark, alpha))
    assert np.array_equal(compiled, numpy) and np.array_equal(_bytes(image), before)
    d = (0.0, 0.0, 0.0) if dark is None else dark
    for channel, k in ((2, 0), (1, 1), (0, 2)):  # B, G, R in memory
        texel = before[..., channel].astype(float)
        expected = ((a - texel) * d[k] + texel * light[k]) * alpha
        assert np.abs(compiled[..., channel] - expected).max() <= 0.5 + 1e-3
    assert np.abs(compiled[..., 3] - a * alpha).max() <= 0.5 + 1e-3


def test_without_the_kernel_the_numpy_path_tints(qapp, monkeypatch):
    """numba away (the kernel None): the numpy path gives the same picture."""
    image, px = _picture(np.random.default_rng(5), 33, 17)
    with_kernel = _bytes(blend.tinted(image, (0.3, 0.6, 0.9), (0.1, 0.0, 0.2), 0.5))
    calls = []
    monkeypatch.setattr(blend, "compiled_tint", lambda wait=False: calls.append(wait))
    without = _bytes(blend.tinted(image, (0.3, 0.6, 0.9), (0.1, 0.0, 0.2), 0.5))
    assert calls and np.array_equal(with_kernel, without)
    assert not np.array_equal(without, px)  # it did tint


@pytest.mark.parametrize("path", ["compiled", "numpy"])
def test_a_tinted_copy_keeps_the_pictures_size_and_scale(qapp, monkeypatch, path):
    """Size, format and device pixel ratio (a 2x picture draws at half its pixels) as given."""
    from PySide6.QtGui import QImage

    if path == "numpy":
        monkeypatch.setattr(blend, "compiled_tint", lambda wait=False: None)
    image, _ = _picture(np.random.default_rng(2), 31, 9)
    image.setDevicePixelRatio(2.0)
    out = blend.tinted(image, (0.5, 0.5, 0.5), None, 1.0)
    assert (out.width(), out.height(), out.devicePixelRatio()) == (31, 9, 2.0)
    assert out.format() == QImage.Format.Format_ARGB32_Premultiplied


@pytest.mark.parametrize("path", ["compiled", "numpy"])
def test_a_still_slot_draws_its_keyed_colour_on_every_frame(qtbot, tmp_path, monkeypatch, path):
    """The torso (on no bone: it never moves) keyed from white at frame 0 to a dark red
    with a dark colour at frame 20: scrubbed forward and back, the scene shows on each
    frame the picture's colour under that frame's slot colour (the runtime's two-colour
    rule worked out here from the PNG)."""
    if path == "numpy":
        monkeypatch.setattr(blend, "compiled_tint", lambda wait=False: None)
    project_path = write_dressed_example(tmp_path, psd=False)
    p = edits.set_slot_color(load_project(project_path), "torso", dark=(0.0, 0.0, 0.0))
    p = edits.key_slot_color(p, "torso", 0, (1.0, 1.0, 1.0, 1.0), dark=(0.0, 0.0, 0.0))
    p = edits.key_slot_color(p, "torso", 20, (0.8, 0.2, 0.4, 1.0), dark=(0.3, 0.5, 0.1))
    doc = Document(p, project_path)
    doc.set_mode("animate")
    view = show_scene(qtbot, doc)
    view.set_overlay("bones", False)
    bake = doc.bake
    for frame in (0, 5, 10, 20, 10, 0):
        doc.set_frame(frame)
        qtbot.wait(10)
        world, png = picture_point(doc, "torso", 20, 100, tmp_path)
        x, y = screen_point(view, world)
        s, row = bake.art.column("torso"), bake.index(frame)
        light, dark = bake.art.color[row, s, :3], bake.art.dark[row, s]
        c = png[:3] / 255.0
        expected = ((1 - c) * dark + c * light) * 255
        np.testing.assert_allclose(grab_rgba(view)[y, x, :3].astype(float), expected, atol=3,
                                   err_msg=f"frame {frame}")
