"""Seams of the example arm: the crack two rigid layers open at the elbow, closed by
one skinned mesh; collapsing triangles listed by the report."""
from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from rigeditor.io.report import build_report, format_report
from rigeditor.model import evaluate
from rigeditor.model.diagnostics.cracks import crack_check, mesh_cover
from rigeditor.examples.skin import rigid_arm
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.timeline import constant, keyed


def test_two_rigid_layers_crack_at_the_elbow_and_one_skinned_mesh_does_not(skinned):
    rigid = rigid_arm()
    (crack,) = crack_check(rigid, evaluate(rigid), {})
    # the forearm (38 px) meets the sleeve: at 90 degrees the outer kite is about
    # h^2/4 tan(45) = 361 px² for the thinner picture's full rectangle
    assert crack.area[24] > 150 and crack.area[0] == 0
    (joint,) = crack_check(skinned, evaluate(skinned), {})
    assert (joint.parent_slot, joint.child_slot, joint.joint) == ("arm", "arm", "forearm")
    assert (joint.area == 0).all()


def _layers_meshed(bones):
    """The rigid arm with both layers meshed from their pictures, weighted to ``bones``."""
    from rigeditor.examples.skin_files import paint_arm
    from rigeditor.edits import mesh_ops

    project, masks = rigid_arm(), {}
    for name, px in paint_arm().items():
        if name == "arm":
            continue
        masks[(name, name)] = px[..., 3] >= 128
        project = mesh_ops.mesh_from_image(project, name, name, px[..., 3] / 255.0, bones=bones[name],
                                           spacing=12.0, joint_spacing=5.0, blend_width=96.0)
    return project, masks


def test_two_layers_skinned_across_the_elbow_close_the_crack():
    rigid = rigid_arm()
    _, masks = _layers_meshed({"upper_arm": (), "forearm": ()})
    (before,) = crack_check(rigid, evaluate(rigid), masks)
    both = ("upper_arm", "forearm")
    project, masks = _layers_meshed({"upper_arm": both, "forearm": both})
    found = crack_check(project, evaluate(project), masks)
    pairs = sorted((c.parent_slot, c.child_slot) for c in found)
    # each layer meets itself, and the two meet once (not once each way)
    assert pairs == [("forearm", "forearm"), ("upper_arm", "forearm"), ("upper_arm", "upper_arm")]
    assert before.area[24] > 150 and all((c.area == 0).all() for c in found)
    # skinned, but each to its own bone only: rigid in effect, the notch is back
    project, masks = _layers_meshed({"upper_arm": ("upper_arm",), "forearm": ("forearm",)})
    (same,) = crack_check(project, evaluate(project), masks)
    assert same.area[24] == pytest.approx(before.area[24], rel=0.15)


def test_the_mesh_cover_is_its_triangles_where_the_picture_is_opaque():
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.5, 0.5]])
    fan = np.array([[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]])
    uvs = np.c_[square[:, 0], 1 - square[:, 1]]  # v runs down the picture
    m = MeshAttachment("m", "m.png", 1.0, 1.0, vertices=square, uvs=uvs, triangles=fan,
                       edges=[[0, 1], [1, 2], [2, 3], [3, 0]])
    g = np.stack(np.meshgrid(np.linspace(0.01, 0.99, 50), np.linspace(0.01, 0.99, 50)), -1).reshape(-1, 2)
    assert mesh_cover(m, square, g, None).all()
    # a fan stays a cover of its outline whatever its centre does (the segment from
    # the centre through any inside point leaves through an edge: that triangle)
    folded = square.copy()
    folded[4] = [1.5, 0.5]
    assert mesh_cover(m, folded, g, None).all()
    # the top rows of the picture transparent: the upper half is not covered
    mask = np.zeros((10, 10), bool)
    mask[5:] = True
    cover = mesh_cover(m, square, g, mask)
    np.testing.assert_array_equal(cover, g[:, 1] < 0.5)
    # moved away entirely: nothing covered
    assert not mesh_cover(m, square + 5.0, g, None).any()


def _bent(project, degrees, frames=120):
    bones = (replace(project.bones[0], rotation=constant(0.0)),
             replace(project.bones[1], rotation=keyed([(0, 0.0), (frames, math.radians(degrees))])))
    return replace(project, bones=bones, timeline=replace(project.timeline, start=0, end=frames))


def _area(p):
    return 0.5 * ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]))


def test_the_report_lists_the_frames_where_a_triangle_collapses(skinned):
    project = _bent(skinned, 120.0)
    bake = evaluate(project)
    report = build_report(bake, name="x")
    entry = report["collapse"]["arm/arm"]
    m = project.art.slots[0].attachments[0]
    bind = [_area(m.in_slot_frame()[t]) for t in m.triangles]
    pose = bake.art.meshes[0]
    expected = []
    for row in range(len(bake)):  # a plain loop over frames and triangles
        v = pose.vertices(row)
        ratios = [_area(v[t]) / a for t, a in zip(m.triangles, bind)]
        if min(ratios) < 0.3:
            expected.append(int(bake.frames[row]))
    assert entry["joints"]["forearm"]["frames"] == expected and expected[0] > 90
    assert report["ok"]  # collapse is reported, not a failure
    assert "collapse arm/arm at joint forearm" in format_report(report)
    json.dumps(report)
