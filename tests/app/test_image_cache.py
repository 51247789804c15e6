"""A picture edited on disk shows in the editor once its modification time is asked
again (at most STAMP_SECONDS later); in between a paint reuses what it read."""
from __future__ import annotations

import os

import numpy as np

from rigeditor.app.art_paint import STAMP_SECONDS, ImageCache
from rigeditor.io.art.images import encode_png


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def _write(path, width, value):
    pixels = np.full((8, width, 4), value, dtype=np.uint8)
    pixels[..., 3] = 255
    path.write_bytes(encode_png(pixels))


def _touch_later(path, seconds):
    stamp = path.stat().st_mtime + seconds
    os.utime(path, (stamp, stamp))


def test_a_picture_replaced_on_disk_shows_once_its_stamp_is_asked_again(qtbot, tmp_path):
    clock, path = Clock(), tmp_path / "hand.png"
    _write(path, 16, 200)
    cache = ImageCache(clock=clock)
    assert cache.get(path).width() == 16
    _write(path, 24, 90)
    _touch_later(path, 5)  # a file system with coarse times still sees a new stamp
    clock.now += STAMP_SECONDS / 2
    assert cache.get(path).width() == 16  # the paint within the interval reuses the read
    clock.now += STAMP_SECONDS
    image = cache.get(path)
    assert image.width() == 24
    assert image.pixelColor(0, 0).red() == 90


def test_a_missing_picture_is_a_placeholder_until_the_file_appears(qtbot, tmp_path):
    clock, path = Clock(), tmp_path / "late.png"
    cache = ImageCache(clock=clock)
    assert cache.get(path) is None
    _write(path, 12, 255)
    clock.now += STAMP_SECONDS * 1.01
    assert cache.get(path).width() == 12


def test_a_deleted_picture_becomes_a_placeholder(qtbot, tmp_path):
    clock, path = Clock(), tmp_path / "gone.png"
    _write(path, 12, 255)
    cache = ImageCache(clock=clock)
    assert cache.get(path) is not None
    path.unlink()
    clock.now += STAMP_SECONDS * 1.01
    assert cache.get(path) is None
