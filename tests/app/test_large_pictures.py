"""A picture declaring more pixels than RigEditor reads is a placeholder in the editor,
decided from its header: Qt never prints "QImageIOHandler: Rejecting image"."""
from __future__ import annotations

import numpy as np

from rigeditor.app.art_paint import ImageCache
from rigeditor.io.art.images import encode_png
from tests.io.test_input_limits import _bomb


def test_a_20000_by_20000_picture_is_a_placeholder_and_qt_says_nothing(qtbot, qtlog, tmp_path, capfd):
    big, small = tmp_path / "big.png", tmp_path / "small.png"
    _bomb(big)
    small.write_bytes(encode_png(np.full((32, 64, 4), 200, dtype=np.uint8)))
    cache = ImageCache()
    assert cache.get(big) is None
    image = cache.get(small)
    assert (image.width(), image.height()) == (64, 32)
    assert capfd.readouterr().err == ""
    assert [r.message for r in qtlog.records] == []  # pytest-qt takes Qt's messages off stderr
