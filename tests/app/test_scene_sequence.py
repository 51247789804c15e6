"""Scrubbing a sequence repaints its picture: the scene shows each frame's own picture
even where nothing else about the slot changes (same place, same attachment)."""
from __future__ import annotations

import numpy as np
import pytest

from rigeditor.app.document import Document
from rigeditor.io.art.images import encode_png, read_rgba
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from views import grab_rgba, release_all, screen_point, show_scene

from tests.io.spine_rigs import write_rig
from tests.io.test_spine_sequences import FRAME, expected, sequence_doc

COLOURS = [(220, 40, 40), (40, 200, 60), (50, 80, 230), (230, 210, 40)]


@pytest.fixture(autouse=True)
def _release():
    yield
    release_all()


def test_scrubbing_shows_each_sequence_frames_picture(qtbot, tmp_path):
    doc_ = sequence_doc()
    del doc_["animations"]["flap"]["bones"]  # the thigh stays still: only the frame changes
    src = write_rig(tmp_path / "src", doc_)
    atlas = src.with_suffix(".atlas")
    atlas.write_text(atlas.read_text() + "".join(FRAME.format(f"wing{i:02d}") for i in range(1, 5)))
    out = tmp_path / "leg.rigproj"
    import_spine(src, out)
    project = load_project(out)
    wing = project.art.slot("wing").find("wing")
    for path, colour in zip(wing.sequence.paths, COLOURS):  # each frame its own solid colour
        img = read_rgba(tmp_path / path)
        img[...] = (*colour, 255)
        (tmp_path / path).write_bytes(encode_png(img))
    doc = Document(project, out)
    view = show_scene(qtbot, doc)
    seen = set()
    for frame in (4, 5, 7, 8, 10, 11):  # the loop steps every 3 frames from frame 3 on
        doc.set_frame(frame)
        qtbot.wait(10)
        bake, row = doc.bake, doc.bake.index(frame)
        s = bake.art.column("wing")
        centre = bake.art.corners[row, s].mean(axis=0)
        x, y = screen_point(view, centre)
        shown = expected(frame)[1]
        pixel = grab_rgba(view)[y, x, :3].astype(int)
        assert np.abs(pixel - COLOURS[shown]).max() <= 24, (frame, shown, pixel)
        seen.add(shown)
    assert len(seen) >= 3
