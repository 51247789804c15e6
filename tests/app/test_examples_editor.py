"""The dressed examples open in the editor with their pictures: by name on the command
line and from File > New from Example, and saving one elsewhere takes its pictures along."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import QSettings

from fakes import FakeDialogs
from rigeditor.app.document import Document
from rigeditor.app.main import _load
from rigeditor.app.main_window import MainWindow
from rigeditor.app.scene.layers import PAINT_ERRORS
from rigeditor.io import load_project
from rigeditor.io.art.images import missing_images
from rigeditor.examples.rigs import arm
from views import grab_rgba, picture_point, release_all, screen_point, show_scene

PACKAGED = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture(autouse=True)
def _clean():
    del PAINT_ERRORS[:]
    yield
    release_all()
    assert not PAINT_ERRORS, PAINT_ERRORS[0]


def _window(qtbot, tmp_path, **answers):
    doc = Document(arm())
    w = MainWindow(doc, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat),
                   dialogs=FakeDialogs(**answers), data_dir=tmp_path / "data", restore_layout=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    return w, doc


def _flat_pixel(doc, slot) -> tuple[int, int]:
    """The (u, v) of the shown picture of ``slot`` whose opaque 7x7 neighbourhood varies
    least (its colour survives smooth resampling at any zoom)."""
    row, s = doc.row, doc.bake.art.column(slot)
    a = doc.project.art.slots[s].attachments[int(doc.bake.art.attachment[row, s])]
    png = np.asarray(Image.open(PACKAGED / doc.project.name / a.path).convert("RGBA")).astype(int)
    h, w, _ = png.shape
    spread = {(u, v): np.ptp(png[v - 3:v + 4, u - 3:u + 4, :3].reshape(-1, 3), axis=0).max()
              for v in range(3, h - 3) for u in range(3, w - 3) if (png[v - 3:v + 4, u - 3:u + 4, 3] == 255).all()}
    return min(spread, key=spread.get)


def _assert_pictures_drawn(view, doc, slots):
    """A pixel of each slot's picture is on screen in the PNG's colour (a placeholder
    would be a red wash), read from the packaged example."""
    shot = grab_rgba(view)
    for slot in slots:
        u, v = _flat_pixel(doc, slot)
        world, colour = picture_point(doc, slot, u, v, PACKAGED / doc.project.name)
        x, y = screen_point(view, world)
        assert np.abs(shot[y, x, :3].astype(int) - colour[:3]).max() <= 24, (slot, u, v)


def test_the_command_line_opens_a_dressed_example_by_name_with_its_pictures(qtbot, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    project, path, images = _load("dressed_walk")
    assert path is None and project.name == "dressed_walk"  # an unsaved copy of the example
    assert missing_images(project, images) == []
    doc = Document(project, path, images=images)
    doc.set_frame(14)
    view = show_scene(qtbot, doc)
    view.set_overlay("bones", False)  # the pictures alone, not the bones drawn over them
    qtbot.wait(10)
    _assert_pictures_drawn(view, doc, ["torso", "head", "thigh_l", "shin_l", "forearm_l"])


def test_new_from_example_opens_the_pictures_and_save_as_takes_them_along(qtbot, tmp_path):
    out = tmp_path / "mine" / "hero.rigproj"
    out.parent.mkdir()
    w, doc = _window(qtbot, tmp_path)
    w.example_actions["dressed_arm"].trigger()
    doc.set_frame(6)
    w.scene.set_overlay("bones", False)
    qtbot.wait(10)
    assert doc.path is None and doc.project.name == "dressed_arm"
    _assert_pictures_drawn(w.scene, doc, ["torso", "upper_arm", "forearm"])
    assert w.files.save_as(out)
    # Saved: the pictures are beside the new file, the same bytes, and the file opens whole.
    pictures = {a.path for s in doc.project.art.slots for a in s.attachments}
    assert len(pictures) == 5
    for rel in pictures:
        assert (out.parent / rel).read_bytes() == (PACKAGED / "dressed_arm" / rel).read_bytes()
    assert missing_images(load_project(out), out.parent) == []
    assert doc.images == out.parent
