"""Save As into another folder takes every picture along: ones beside the project
(``../`` paths) too, and a different file already at the target is neither
overwritten nor used in place of the project's picture."""
from pathlib import Path

import numpy as np
from PIL import Image

from rigeditor.io import load_project, save_project
from rigeditor.io.art.images import copy_pictures, missing_images, read_rgba
from rigeditor.io.art.png_folder import import_images


def _png(path: Path, rgb) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.full((6, 4, 4), [*rgb, 255], np.uint8), "RGBA").save(path)
    return path.read_bytes()


def _pictures(project):
    return {a.name: a.path for s in project.art.slots for a in s.attachments}


def test_pictures_beside_the_project_are_copied_and_the_paths_rewritten(tmp_path):
    hand = _png(tmp_path / "art" / "hand.png", (200, 0, 0))
    foot = _png(tmp_path / "art" / "foot.png", (0, 200, 0))
    (tmp_path / "proj").mkdir()
    import_images(tmp_path / "art", tmp_path / "proj" / "walk.rigproj")
    project = load_project(tmp_path / "proj" / "walk.rigproj")
    assert all(p.startswith("../") for p in _pictures(project).values())  # the case under test
    out = tmp_path / "elsewhere" / "deep"
    out.mkdir(parents=True)

    saved, copied = copy_pictures(project, tmp_path / "proj", out)
    save_project(saved, out / "walk.rigproj")

    again = load_project(out / "walk.rigproj")
    assert missing_images(again, out) == []
    paths = _pictures(again)
    assert (out / paths["hand"]).read_bytes() == hand and (out / paths["foot"]).read_bytes() == foot
    assert sorted(copied) == sorted(paths.values())
    assert all((out / p).resolve().is_relative_to(out) for p in paths.values())
    assert _pictures(project) == _pictures(load_project(tmp_path / "proj" / "walk.rigproj"))  # input untouched


def test_a_different_picture_at_the_target_is_neither_overwritten_nor_used(tmp_path):
    mine = _png(tmp_path / "proj" / "parts" / "hand.png", (200, 0, 0))
    import_images(tmp_path / "proj" / "parts", tmp_path / "proj" / "p.rigproj")
    project = load_project(tmp_path / "proj" / "p.rigproj")
    assert _pictures(project) == {"hand": "parts/hand.png"}
    theirs = _png(tmp_path / "out" / "parts" / "hand.png", (0, 0, 200))
    same = tmp_path / "same"
    (same / "parts").mkdir(parents=True)
    (same / "parts" / "hand.png").write_bytes(mine)

    saved, copied = copy_pictures(project, tmp_path / "proj", tmp_path / "out")
    assert (tmp_path / "out" / "parts" / "hand.png").read_bytes() == theirs
    assert _pictures(saved) == {"hand": "parts/hand-2.png"} and copied == ["parts/hand-2.png"]
    assert (read_rgba(tmp_path / "out" / "parts" / "hand-2.png")[0, 0] == [200, 0, 0, 255]).all()
    # The same bytes already there: used as they are, nothing copied.
    assert copy_pictures(project, tmp_path / "proj", same) == (project, [])
