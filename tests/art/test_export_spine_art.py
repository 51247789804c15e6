"""Spine export with art: slots, skin, timelines and atlas, checked against Spine's
documented semantics re-implemented here (bone pose, region corners, draw-order
offsets), not against RigEditor's own code."""
from __future__ import annotations

import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from rigeditor.cli import main
from rigeditor.io.art.atlas import shelf_pack
from rigeditor.io.spine.write import spine_document
from rigeditor.model import evaluate
from rigeditor.model.data.timeline import keyed

sys.path.insert(0, str(Path(__file__).parents[1] / "io"))
import spine_rules  # noqa: E402

from spine_pose import bone_worlds
from art_files import paint_png  # noqa: E402
from rigeditor.io.spine.write_art import region_name  # noqa: E402


def _stressed(project):
    """Rotating, scaling, moving character; a rotated, mirrored, pivoted, tinted forearm."""
    fa = project.art.slot("forearm").attachments[0]
    art = project.art.with_slot("forearm", attachments=(
        replace(fa, rotation=0.3, scale=(1.2, -0.8), pivot=(10.0, 5.0), tint=(1, .5, .5, 1), opacity=.7),))
    return replace(project, art=art).with_space(
        "character", rotation=keyed([(0, 0.0), (48, 1.2)]), scale=keyed([(0, (1.0, 1.0)), (48, (1.5, 1.5))]),
        position=keyed([(0, (10.0, -5.0)), (48, (300.0, 40.0))]))


def _bone_worlds(doc, i):
    """3x3 world matrix per bone at baked row i (keys need not sit on every frame)."""
    return bone_worlds(doc, i / doc["skeleton"]["fps"])


def _shown(doc, slot, t):
    """The attachment a slot shows at time t: setup, then the last attachment key <= t."""
    name = next(s for s in doc["slots"] if s["name"] == slot).get("attachment")
    anim = next(iter(doc["animations"].values()))
    for key in anim.get("slots", {}).get(slot, {}).get("attachment", []):
        if key["time"] <= t:
            name = key["name"]
    return name


def _draw_order(doc, t):
    """Slot names back to front at time t, applying the last drawOrder key <= t the way
    the format describes: listed slots move by their offset, the others keep their
    relative setup order in the places left."""
    names = [s["name"] for s in doc["slots"]]
    anim = next(iter(doc["animations"].values()))
    keys = [k for k in anim.get("drawOrder", []) if k["time"] <= t]
    if not keys:
        return names
    order = [None] * len(names)
    moved = {o["slot"]: o["offset"] for o in keys[-1].get("offsets", [])}
    for s, name in enumerate(names):
        if name in moved:
            order[s + moved[name]] = name
    rest = iter(n for n in names if n not in moved)
    return [n if n is not None else next(rest) for n in order]


def _region_corners(region, world):
    w, h = region["width"] / 2, region["height"] / 2
    c, s = math.cos(math.radians(region["rotation"])), math.sin(math.radians(region["rotation"]))
    out = []
    for ux, uy in ((-1, -1), (-1, 1), (1, 1), (1, -1)):
        lx, ly = ux * w * region["scaleX"], uy * h * region["scaleY"]
        p = world @ [region["x"] + c * lx - s * ly, region["y"] + s * lx + c * ly, 1.0]
        out.append(p[:2])
    return np.array(out)


def test_posed_like_spine_every_region_lands_on_the_baked_corners(dressed):
    _, project = dressed
    project = _stressed(project)
    bake = evaluate(project)
    doc = spine_document(project, bake)
    assert spine_rules.problems(doc) == []
    skin = doc["skins"][0]
    assert skin["name"] == "default"
    bone_of = {s["name"]: s["bone"] for s in doc["slots"]}
    for i in range(len(bake)):
        t = (bake.frames[i] - bake.frames[0]) / bake.fps
        world = _bone_worlds(doc, i)
        drawn = [n for n in _draw_order(doc, t) if _shown(doc, n, t)]
        assert drawn == [bake.art.slots[s] for s in bake.art.drawn(i)], f"frame {bake.frames[i]}"
        for name in drawn:
            s = bake.art.column(name)
            region = skin["attachments"][name][_shown(doc, name, t)]
            np.testing.assert_allclose(_region_corners(region, world[bone_of[name]]), bake.art.corners[i, s],
                                       atol=1e-3)


def test_the_export_writes_an_atlas_whose_regions_hold_the_images_pixel_for_pixel(dressed, tmp_path):
    path, project = dressed
    out = tmp_path / "out" / "hero.json"
    out.parent.mkdir()
    assert main(["bake", str(path), "-o", str(out), "--format", "spine"]) == 0
    assert sorted(p.name for p in out.parent.iterdir()) == ["hero.atlas", "hero.json", "hero.png"]
    regions, page, size = {}, None, None
    for line in (out.parent / "hero.atlas").read_text().splitlines():
        if line.endswith(".png"):
            page = line
        elif line.startswith("size:"):
            size = tuple(int(v) for v in line[5:].split(","))
        elif line.startswith("bounds:"):
            regions[name] = tuple(int(v) for v in line[7:].split(","))
        elif line and ":" not in line:
            name = line
    assert page == "hero.png"
    sheet = np.asarray(Image.open(out.parent / page).convert("RGBA"))
    assert sheet.shape[1::-1] == size
    doc = json.loads(out.read_text())
    used = {r["path"] for atts in doc["skins"][0]["attachments"].values() for r in atts.values()}
    assert used == set(regions)
    boxes = []
    for name, (x, y, w, h) in regions.items():
        source = np.asarray(Image.open(path.parent / f"{name}.png").convert("RGBA"))
        np.testing.assert_array_equal(sheet[y:y + h, x:x + w], source)
        boxes.append((x, y, w, h))
    for k, (x, y, w, h) in enumerate(boxes):  # 2 px apart at least, never overlapping
        for x2, y2, w2, h2 in boxes[k + 1:]:
            assert x + w + 2 <= x2 or x2 + w2 + 2 <= x or y + h + 2 <= y2 or y2 + h2 + 2 <= y


def test_a_missing_image_stops_the_export_before_anything_is_written(dressed, tmp_path, capsys):
    path, _ = dressed
    (path.parent / "arm_art" / "hand_fist.png").unlink()
    out = tmp_path / "out" / "hero.json"
    out.parent.mkdir()
    assert main(["bake", str(path), "-o", str(out), "--format", "spine"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("rigeditor: ") and "arm_art/hand_fist.png" in err[0]
    assert list(out.parent.iterdir()) == []


def test_an_atlas_page_never_replaces_one_of_the_project_pictures(dressed, tmp_path, capsys):
    path, _ = dressed
    torso = path.parent / "arm_art" / "torso.png"
    before = torso.read_bytes()
    out = torso.with_suffix(".json")  # the export's page would be arm_art/torso.png
    assert main(["bake", str(path), "-o", str(out), "--format", "spine"]) == 2
    err = capsys.readouterr().err
    assert "torso.png" in err and "picture" in err
    assert torso.read_bytes() == before and not out.exists() and not out.with_suffix(".atlas").exists()


@pytest.mark.parametrize("sizes, max_size", [
    ([(300, 300)] * 5, 512),
    ([(37 * k % 200 + 1, 53 * k % 150 + 1) for k in range(60)], 512),
])
def test_the_packer_never_overlaps_and_stays_within_the_page(sizes, max_size):
    placed, pages = shelf_pack(sizes, max_size=max_size, padding=2)
    for (w, h), p in zip(sizes, placed):
        assert (p.width, p.height) == (w, h)
        pw, ph = pages[p.page]
        assert p.x >= 2 and p.y >= 2 and p.x + w + 2 <= pw <= max_size and p.y + h + 2 <= ph <= max_size
    for k, a in enumerate(placed):
        for b in placed[k + 1:]:
            if a.page == b.page:
                assert (a.x + a.width + 2 <= b.x or b.x + b.width + 2 <= a.x
                        or a.y + a.height + 2 <= b.y or b.y + b.height + 2 <= a.y)
    if sizes[0] == (300, 300):
        assert len(pages) == 5  # one 300 px image per 512 px page


def test_an_image_larger_than_a_page_is_refused_saying_so():
    with pytest.raises(ValueError, match="larger than an atlas page"):
        shelf_pack([(10, 10), (2100, 20)], max_size=2048)


def _pages(folder, stem):
    """{page file: (w, h) from the atlas}, {region: (page, x, y, w, h)}."""
    pages, regions, page = {}, {}, None
    for line in (folder / f"{stem}.atlas").read_text().splitlines():
        if line.endswith(".png"):
            page = line
        elif line.startswith("size:"):
            pages[page] = tuple(int(v) for v in line[5:].split(","))
        elif line.startswith("bounds:"):
            regions[name] = (page, *(int(v) for v in line[7:].split(",")))
        elif line and ":" not in line:
            name = line
    return pages, regions


@pytest.mark.parametrize("width, scaled", [(3000, False), (9000, True)])
def test_a_picture_wider_than_an_atlas_page_gets_a_larger_page_or_is_scaled_with_a_warning(
        dressed, tmp_path, capsys, width, scaled):
    path, project = dressed
    big = project.art.slots[0].attachments[0]
    paint_png(path.parent / big.path, width, 40, seed=7)
    out = tmp_path / "out" / "hero.json"
    out.parent.mkdir()
    assert main(["bake", str(path), "-o", str(out), "--format", "spine"]) == 0
    err = capsys.readouterr().err
    assert f"warning: {big.path}: {width}x40 pixels is larger than" in err
    pages, regions = _pages(out.parent, "hero")
    page, x, y, w, h = regions[region_name(big)]
    sheet = np.asarray(Image.open(out.parent / page).convert("RGBA"))
    assert sheet.shape[1::-1] == pages[page] and max(pages[page]) <= 8192
    source = np.asarray(Image.open(path.parent / big.path).convert("RGBA"))
    if scaled:
        assert "scaled to" in err and w < width and w <= 8192
        assert abs(w / width - h / 40) < 0.05  # its proportions kept (to a pixel)
    else:
        assert (w, h) == (width, 40)
        np.testing.assert_array_equal(sheet[y:y + h, x:x + w], source)
    region = next(r for atts in json.loads(out.read_text())["skins"][0]["attachments"].values()
                  for r in atts.values() if r["path"] == region_name(big))
    assert (region["width"], region["height"]) == (big.width, big.height)  # its size in the skeleton
