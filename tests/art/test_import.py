"""Importing layered art: a PSD written here, folders of PNGs, broken input."""
from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from art_files import paint_png
from rigeditor.cli import main
from rigeditor.io import load_project

W, H = 400, 300


def _blob(seed, w, h):
    """An RGBA picture with a transparent margin of uneven width (trimming must cut it)."""
    rng = np.random.default_rng(seed)
    px = np.zeros((h, w, 4), dtype=np.uint8)
    top, left = rng.integers(0, 6, 2)
    px[top:h - 3, left:w - 2] = np.append(rng.integers(0, 255, 3), 255)
    return px


def _trimmed(px, left, top):
    """(pixels, left, top) cut to the alpha bounds, computed independently of the importer."""
    ys, xs = np.nonzero(px[..., 3])
    return px[ys.min():ys.max() + 1, xs.min():xs.max() + 1], left + xs.min(), top + ys.min()


def _write_psd(path, layers, hidden=(), empty=()):
    """layers: [(group or None, name, pixels, left, top)] bottom to top."""
    from psd_tools import PSDImage
    from psd_tools.api.layers import Group, PixelLayer

    psd = PSDImage.new("RGBA", (W, H))
    groups = {}
    for group, name, px, left, top in layers:
        parent = psd
        if group:
            if group not in groups:
                groups[group] = Group.new(psd, group)
            parent = groups[group]
        layer = PixelLayer.frompil(Image.fromarray(px, "RGBA"), psd, name, top=int(top), left=int(left))
        layer.visible = name not in hidden
        parent.append(layer)
    for name in empty:
        psd.append(PixelLayer.frompil(Image.new("RGBA", (8, 8)), psd, name, top=0, left=0))
    psd.save(path)


def _layers():
    return [(None, "back", _blob(1, 120, 90), 10, 20), ("arm", "upper", _blob(2, 80, 30), 150, 100),
            ("arm", "hand", _blob(3, 33, 27), 231, 101), (None, "ghost", _blob(4, 50, 50), 0, 0),
            (None, "front", _blob(5, 64, 48), 300, 240)]


def test_a_psd_imports_every_visible_layer_at_its_pixel_position_in_order(tmp_path):
    psd = tmp_path / "art.psd"
    _write_psd(psd, _layers(), hidden={"ghost"}, empty=("blank",))
    out = tmp_path / "hero.rigproj"
    assert main(["import-psd", str(psd), "-o", str(out)]) == 0
    project = load_project(out)
    names = [s.name for s in project.art.slots]
    assert names == ["back", "arm/upper", "arm/hand", "front"]
    expected = {("arm/" if g else "") + n: _trimmed(px, left, top) for g, n, px, left, top in _layers()}
    for slot in project.art.slots:
        (a,) = slot.attachments
        pixels, left, top = expected[slot.name]
        assert slot.bone is None and slot.attachment.default == a.name
        assert (a.width, a.height) == (pixels.shape[1], pixels.shape[0])
        # Model space is y-up with the document's bottom-left corner at the origin.
        assert (a.x - a.width / 2, H - a.y - a.height / 2) == (left, top)
        np.testing.assert_array_equal(np.asarray(Image.open(out.parent / a.path)), pixels)


def test_the_imported_layers_are_drawn_where_the_psd_shows_them(tmp_path):
    psd = tmp_path / "art.psd"
    _write_psd(psd, _layers())
    out = tmp_path / "hero.rigproj"
    assert main(["import-psd", str(psd), "-o", str(out)]) == 0
    from rigeditor.model import evaluate

    project = load_project(out)
    bake = evaluate(project, [0])
    for s, slot in enumerate(project.art.slots):
        # Bottom-left corner in model units = (left, H - bottom) in document pixels.
        bl = bake.art.corners[0, s, 0]
        pixels, left, top = _trimmed(*next((px, l, t) for g, n, px, l, t in _layers()
                                          if ("arm/" if g else "") + n == slot.name))
        assert tuple(bl) == (left, H - top - pixels.shape[0])


@pytest.mark.parametrize("content", [b"", b"8BPS\x00\x01garbage", b"not a psd at all" * 10])
def test_an_unreadable_psd_gives_one_line_and_writes_nothing(tmp_path, capsys, content):
    psd = tmp_path / "art.psd"
    psd.write_bytes(content)
    out = tmp_path / "hero.rigproj"
    assert main(["import-psd", str(psd), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"rigeditor: {psd}: open: not a readable PSD file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["art.psd"]


def test_a_missing_psd_says_so(tmp_path, capsys):
    assert main(["import-psd", str(tmp_path / "nope.psd"), "-o", str(tmp_path / "a.rigproj")]) == 2
    assert capsys.readouterr().err.strip() == f"rigeditor: {tmp_path / 'nope.psd'}: open: file not found"
    assert list(tmp_path.iterdir()) == []


def test_an_existing_project_is_not_replaced_without_force(tmp_path, capsys):
    psd = tmp_path / "art.psd"
    _write_psd(psd, _layers())
    out = tmp_path / "hero.rigproj"
    out.write_text("precious")
    assert main(["import-psd", str(psd), "-o", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert out.read_text() == "precious" and not (tmp_path / "hero_art").exists()
    assert main(["import-psd", str(psd), "-o", str(out), "--force"]) == 0
    assert len(load_project(out).art.slots) == 5


def test_a_folder_with_a_sidecar_places_each_png_at_its_pixel(tmp_path):
    art = tmp_path / "art"
    paint_png(art / "torso.png", 60, 100, seed=1)
    paint_png(art / "arm" / "hand.png", 20, 16, seed=2)
    paint_png(art / "extra.png", 10, 10, seed=3)
    (art / "layout.json").write_text(json.dumps({"canvas": {"width": 300, "height": 200}, "layers": [
        {"file": "torso.png", "x": 40, "y": 30}, {"file": "arm/hand.png", "x": 120, "y": 70, "name": "hand"}]}))
    out = tmp_path / "proj" / "hero.rigproj"
    out.parent.mkdir()
    assert main(["import-images", str(art), "-o", str(out)]) == 0
    project = load_project(out)
    assert [s.name for s in project.art.slots] == ["torso", "hand", "extra"]
    torso, hand, extra = (s.attachments[0] for s in project.art.slots)
    assert (torso.x - 30, 200 - torso.y - 50) == (40, 30)
    assert (hand.x - 10, 200 - hand.y - 8) == (120, 70)
    assert hand.path == "../art/arm/hand.png"
    assert extra.x - 5 >= 120 + 20  # unlisted: after the listed ones, side by side
    assert main(["validate", str(out)]) == 0


def test_a_folder_without_a_sidecar_lays_the_pngs_side_by_side(tmp_path):
    art = tmp_path / "art"
    for k, (name, w, h) in enumerate([("b", 30, 20), ("a", 50, 40), ("c", 10, 60)]):
        paint_png(art / f"{name}.png", w, h, seed=k)
    out = tmp_path / "hero.rigproj"
    assert main(["import-images", str(art), "-o", str(out)]) == 0
    atts = [s.attachments[0] for s in load_project(out).art.slots]
    assert [a.name for a in atts] == ["a", "b", "c"]
    tops = {a.y + a.height / 2 for a in atts}
    assert len(tops) == 1  # tops aligned
    for left, right in zip(atts, atts[1:]):
        assert left.x + left.width / 2 < right.x - right.width / 2


def test_every_import_creates_the_folder_it_is_told_to_write_into(tmp_path):
    # As import-psd and import-spine do, import-images makes a new project folder;
    # its pictures are referred to from there.
    art = tmp_path / "art"
    paint_png(art / "a.png", 30, 20, seed=1)
    out = tmp_path / "new" / "deeper" / "hero.rigproj"
    assert main(["import-images", str(art), "-o", str(out)]) == 0
    (slot,) = load_project(out).art.slots
    assert slot.attachments[0].path == "../../art/a.png"
    assert main(["validate", str(out)]) == 0


@pytest.mark.parametrize("breakage, where", [
    (lambda art: (art / "b.png").write_bytes(b"\x89PNG\r\n\x1a\nbroken"), "b.png: image: not a readable PNG"),
    (lambda art: (art / "layout.json").write_text('{"layers": [{"file": "gone.png", "x": 0, "y": 0}]}'),
     "layout.json: layers[0].file: no such image 'gone.png'"),
    (lambda art: (art / "layout.json").write_text('{"layers": [{"file": "a.png", "x": "left", "y": 0}]}'),
     "layout.json: layers[0].x: must be a number of pixels, got 'left'"),
])
def test_broken_images_give_one_clear_line_and_write_nothing(tmp_path, capsys, breakage, where):
    art = tmp_path / "art"
    paint_png(art / "a.png", 20, 20)
    paint_png(art / "b.png", 20, 20)
    breakage(art)
    out = tmp_path / "hero.rigproj"
    assert main(["import-images", str(art), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("rigeditor: ") and where in err[0]
    assert not out.exists()


def test_a_missing_image_is_reported_by_validate_and_kept_on_save(dressed, capsys):
    path, _ = dressed
    (path.parent / "arm_art" / "hand_fist.png").unlink()
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"rigeditor: {path}: slots[3].attachments[1].path: image not found: arm_art/hand_fist.png "
                   "(slot 'hand' draws a placeholder; the reference is kept)"]
    from rigeditor.io import save_project

    save_project(load_project(path), path)
    assert "arm_art/hand_fist.png" in path.read_text()


def test_report_lists_the_frames_where_the_elbow_cracks(dressed, capsys):
    path, project = dressed
    assert main(["report", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    crack = report["cracks"]["upper_arm|forearm"]
    assert crack["joint"] == "forearm" and crack["max"] > 100
    assert crack["max_frame"] in crack["frames"]
    assert "upper_arm|hand" not in report["cracks"]  # the hand does not reach the elbow
    assert main(["report", str(path)]) == 0
    assert "crack upper_arm|forearm (joint forearm" in capsys.readouterr().out


@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_forced_import_that_cannot_write_a_file_leaves_the_project_and_pictures_as_they_were(
        tmp_path, capsys, monkeypatch, n):
    psd = tmp_path / "art.psd"
    _write_psd(psd, _layers())
    out = tmp_path / "hero.rigproj"
    out.write_text("the user's project")
    precious = tmp_path / "hero_art" / "back.png"  # a picture of the same name, painted over by hand
    precious.parent.mkdir()
    precious.write_bytes(b"the user's own painting")
    real, count = os.fsync, [0]

    def fsync(fd):  # the disk is full at the n-th file (the project is written first)
        if os.path.isfile(f"/proc/self/fd/{fd}"):
            count[0] += 1
            if count[0] == n:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    assert main(["import-psd", str(psd), "-o", str(out), "--force"]) == 2
    assert "No space left on device (nothing was written" in capsys.readouterr().err
    assert precious.read_bytes() == b"the user's own painting" and out.read_text() == "the user's project"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["art.psd", "hero.rigproj", "hero_art"]  # no temporary
    assert [p.name for p in precious.parent.iterdir()] == ["back.png"]


@pytest.mark.parametrize("head, kind", [
    (b"\x89PNG\r\n\x1a\n", "a PNG picture"), (b"\xff\xd8\xff\xe0", "a JPEG picture"), (b"GIF89a", "a GIF picture"),
    (b"PK\x03\x04", "a ZIP archive"), (b"RIFF\x10\x00\x00\x00WEBP", "a WebP picture"), (b"%PDF-1.7", "a PDF document"),
])
def test_another_kind_of_file_is_refused_by_its_first_bytes_saying_what_it_is(tmp_path, capsys, head, kind):
    picture = tmp_path / "art.psd"  # the name does not matter: the bytes do
    picture.write_bytes(head + b"\x00" * 64)
    out = tmp_path / "hero.rigproj"
    assert main(["import-psd", str(picture), "-o", str(out)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"rigeditor: {picture}: open: this is {kind}, not a PSD file")
    assert "ColorMode" not in line and "ValueError" not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["art.psd"]


def test_a_real_png_given_to_import_psd_points_to_import_images(tmp_path, capsys):
    from rigeditor.io.art.images import encode_png

    png = tmp_path / "hand.png"
    png.write_bytes(encode_png(np.full((8, 8, 4), 200, np.uint8)))
    assert main(["import-psd", str(png), "-o", str(tmp_path / "hero.rigproj")]) == 2
    assert capsys.readouterr().err == (
        f"rigeditor: {png}: open: this is a PNG picture, not a PSD file; PNG pictures are imported with "
        "Import Images (rigeditor import-images DIR: a folder of PNGs, one slot each)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.png"]


def test_a_forced_import_into_a_pictures_folder_on_another_disk_replaces_all_or_nothing(tmp_path, capsys,
                                                                                        monkeypatch):
    """hero_art/ is a mount of another file system: a rename into it from beside it fails
    with EXDEV (simulated: any rename between two folders). The import used to write the
    project, then fail moving the pictures, and say "nothing was written"."""
    psd = tmp_path / "art.psd"
    _write_psd(psd, _layers())
    out = tmp_path / "hero.rigproj"
    out.write_text("the user's project")
    (tmp_path / "hero_art").mkdir()
    real = os.replace

    def replace(src, dst):
        if Path(src).parent.resolve() != Path(dst).parent.resolve():
            raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    assert main(["import-psd", str(psd), "-o", str(out), "--force"]) == 0
    capsys.readouterr()
    monkeypatch.undo()
    project = load_project(out)
    assert sorted(p.name for p in (tmp_path / "hero_art").iterdir()) == sorted(
        a.path.split("/")[1] for s in project.art.slots for a in s.attachments)
