"""The art painter (the scene's art layer and ``rigeditor render``) draws a clipped
picture only inside its clipping polygon, and boxes and points as marks."""
from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtGui import QImage, QPainter

from rigeditor.app.art_paint import ImageCache, draw_art
from rigeditor.app.render import render_image
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import write_rig
from tests.io.test_spine_shapes import CLIP_INFLUENCES, CLIP_WORLD, _frames, shapes_doc

SCALE, W, H = 4.0, 360, 560


def to_device(pts):
    p = np.asarray(pts, float).reshape(-1, 2)
    return np.stack([SCALE * p[:, 0] + 20.0, SCALE * (135.0 - p[:, 1])], axis=-1)


def _inside(poly, p) -> bool:
    """Ray casting (even-odd) point-in-polygon, by hand."""
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, np.roll(poly, -1, axis=0)):
        if (y0 > p[1]) != (y1 > p[1]) and p[0] < x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _edge_distance(poly, p) -> float:
    out = math.inf
    for a, b in zip(poly, np.roll(poly, -1, axis=0)):
        t = np.clip(np.dot(p - a, b - a) / np.dot(b - a, b - a), 0.0, 1.0)
        out = min(out, float(np.hypot(*(a + t * (b - a) - p))))
    return out


@pytest.fixture
def imported(tmp_path):
    import_spine(write_rig(tmp_path / "src", shapes_doc()), tmp_path / "leg.rigproj")
    return load_project(tmp_path / "leg.rigproj"), tmp_path


@pytest.mark.parametrize("row", [0, 12])
def test_a_clipped_picture_shows_only_inside_its_polygon(qapp, imported, row):
    project, folder = imported
    bake = evaluate(project)
    art = bake.art.row(row)
    thigh = bake.art.column("thigh")
    image = QImage(W, H, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    p = QPainter(image)
    draw_art(p, project, art, to_device, folder, ImageCache(), slots={thigh})
    p.end()
    # The polygon by forward kinematics (test_spine_shapes), the picture's frame from the bake.
    frames, setup = _frames(25.0 * row / 12), _frames(0.0)
    poly = np.array([sum(w * (frames[b][0] + frames[b][1] @ (setup[b][1].T @ (np.asarray(q, float) - setup[b][0])))
                         for b, w in infl) for q, infl in zip(CLIP_WORLD, CLIP_INFLUENCES)])
    a, b, c, d, tx, ty = art.image_world[thigh]
    pic = project.art.slot("thigh").attachments[0]
    seen = {True: 0, False: 0}
    # Opaque part of the picture (2 rows transparent at the top, 3 columns at the right), inset 2 px.
    for u in np.linspace(-pic.width / 2 + 2, pic.width / 2 - 5, 9):
        for v in np.linspace(-pic.height / 2 + 2, pic.height / 2 - 4, 17):
            world = np.array([a * u + b * v + tx, c * u + d * v + ty])
            if _edge_distance(poly, world) < 1.0:
                continue  # within a unit (4 px) of the polygon's edge: the edge's own pixels
            x, y = to_device(world)[0]
            alpha = image.pixelColor(int(x), int(y)).alpha()
            inside = _inside(poly, world)
            seen[inside] += 1
            assert alpha == (255 if inside else 0), (u, v, inside, alpha)
    assert seen[True] >= 20 and seen[False] >= 20  # both sides were looked at


def test_boxes_points_and_clipping_polygons_draw_in_their_colours(qapp, imported):
    project, folder = imported
    bake = evaluate(project)
    art = bake.art.row(0)
    cols = {n: bake.art.column(n) for n in ("hitbox", "muzzle", "clip")}
    image = QImage(W, H, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    p = QPainter(image)
    draw_art(p, project, art, to_device, folder, ImageCache(), slots=set(cols.values()))
    p.end()
    # The box's edge midpoint, the point's centre: the shapes' own colours.
    box = bake.art.shape(cols["hitbox"], 0).vertices(0)
    mid = to_device((box[0] + box[1]) / 2)[0]
    px = image.pixelColor(int(round(mid[0])), int(round(mid[1])))
    assert px.green() > 150 and px.red() < 150, px.name()  # 60f000: green
    point = to_device(bake.art.shape(cols["muzzle"], 0).vertices(0))[0]
    px = image.pixelColor(int(round(point[0])), int(round(point[1])))
    assert px.red() > 150 and px.green() > 150 and px.blue() < 100, px.name()  # f1f100: yellow
    # Nothing was drawn far from every shape (no picture: the slots drawn are shapes only).
    assert image.pixelColor(W - 5, 5).alpha() == 0


def test_render_frames_the_shapes_and_draws_them(qapp, imported):
    project, folder = imported
    bake = evaluate(project)
    plain = render_image(bake, 0, (400, 400), project, None)
    drawn = render_image(bake, 0, (400, 400), project, folder)
    assert plain.size() == drawn.size() and plain != drawn
