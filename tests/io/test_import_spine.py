"""Spine import: what a Spine skeleton becomes, checked against Spine's own meaning of
the numbers (forward kinematics by hand, Spine's bezier solved by bisection)."""
from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest

from rigeditor.io.art.images import read_rgba
from rigeditor.io.spine.read import import_spine, spine_project
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read_atlas import AtlasRegion, cut_region
from rigeditor.io.spine.skeleton import parse_spine
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, pictures, write_rig


def _rot(deg):
    r = math.radians(deg)
    return np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])


def _imported(tmp_path, doc=None, **kw):
    src = write_rig(tmp_path / "src", doc)
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    result = import_spine(src, out, **kw)
    return result, load_project(out), out


def test_setup_pose_keeps_every_world_transform_when_the_ik_child_sits_off_its_parents_axis(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["mix"] = 0  # Spine's forward kinematics only
    result, project, _ = _imported(tmp_path, doc)
    bake = evaluate(project, [0])
    # Spine's world transforms by hand: hip at (10, 100), thigh turned -80, shin at
    # thigh + R(-80) (50, 3), turned -70 in world.
    hip = np.array([10.0, 100.0])
    shin_origin = hip + _rot(-80) @ [50.0, 3.0]
    k = bake.column("shin")
    assert np.allclose(bake.joint_world[0, k], shin_origin, atol=1e-9)
    assert math.degrees(bake.world_rotation[0, k]) == pytest.approx(-70.0, abs=1e-9)
    # The thigh keeps its own frame and length: the chain bends the segment to the
    # shin's origin, not the bone.
    t = bake.column("thigh")
    assert math.degrees(bake.world_rotation[0, t]) == pytest.approx(-80.0, abs=1e-9)
    assert project.bone("thigh").length == 40 and project.bone("shin").rest_offset == (50.0, 3.0)
    assert not any("drawn to" in w for w in result.warnings)


def test_an_off_axis_child_turns_its_parent_by_the_segments_angle(tmp_path):
    """At mix 1 the solve puts the shin's tip on the target with the segment from the
    thigh's origin to the shin's, length hypot(50, 3); the thigh's own x axis is that
    segment turned back by atan2(3, 50) (forward kinematics by hand checks it)."""
    _, project, _ = _imported(tmp_path)
    frames = np.arange(13, dtype=float)
    bake = evaluate(project, frames)
    hip = np.array([10.0, 100.0])
    thigh = bake.world_rotation[:, bake.column("thigh")]
    shin_origin = np.array([hip + _rot(math.degrees(r)) @ [50.0, 3.0] for r in thigh])
    np.testing.assert_allclose(bake.joint_world[:, bake.column("shin")], shin_origin, atol=1e-9)
    shin = bake.world_rotation[:, bake.column("shin")]
    tip = shin_origin + 45 * np.stack([np.cos(shin), np.sin(shin)], axis=-1)
    dy = np.interp(frames, [0, 6, 12], [0, -70, 0])
    target = np.stack([np.full_like(frames, 15.0), 20.0 + dy], axis=-1)
    inside = np.hypot(*(target - hip).T) < math.hypot(50, 3) + 45 - 1e-6
    assert inside.sum() >= 3
    np.testing.assert_allclose(tip[inside], target[inside], atol=1e-7)
    # Law of cosines on the segments: the segment's angle at the hip.
    a, b = math.hypot(50, 3), 45.0
    v = target - hip
    d = np.hypot(*v.T)
    inner = np.arccos(np.clip((a * a + d * d - b * b) / (2 * a * d), -1, 1))
    segment = np.arctan2(v[:, 1], v[:, 0]) + inner  # bendPositive false: the knee on the left
    turn = (thigh + math.atan2(3, 50) - segment + math.pi) % (2 * math.pi) - math.pi
    assert np.abs(turn[inside]).max() < 1e-9


def test_the_chain_end_lands_on_the_target_bone_wherever_it_moves(tmp_path):
    _, project, _ = _imported(tmp_path)
    bake = evaluate(project)
    chain = bake.chains["leg"]
    # The target bone's world position: root + (15, 20) + the translate keys (linear).
    frames = bake.frames
    dy = np.interp(frames, [0, 6, 12], [0, -70, 0])
    target = np.stack([np.full_like(frames, 15.0), 20.0 + dy], axis=-1)
    assert np.allclose(chain.target_world, target, atol=1e-9)
    hip = np.array([10.0, 100.0])
    reach = math.hypot(50, 3) + 45
    inside = np.hypot(*(target - hip).T) < reach - 1e-6
    assert inside.any() and (~inside).any()
    assert np.allclose(chain.end_world[inside], target[inside], atol=1e-7)
    # Out of reach the limb points straight at the target, short by the distance beyond.
    assert np.allclose(chain.residual[~inside], np.hypot(*(target - hip).T)[~inside] - reach, atol=1e-7)
    # bendPositive false: the shin turns clockwise from the thigh line.
    assert np.all(chain.side[inside] <= 0)


def test_a_target_whose_parent_is_a_bone_follows_that_bone(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["bones"][4] = {"name": "foot_target", "parent": "hip", "x": 5, "y": -70}
    doc["animations"] = {"sway": {"bones": {"hip": {"rotate": [
        {"value": 0}, {"time": 0.5, "value": 30}]}}}}
    result, project, _ = _imported(tmp_path, doc)
    target = project.target("foot_target")
    assert target.space.default == "hip" and target.position.default == (5.0, -70.0)
    bake = evaluate(project)
    angle = np.interp(bake.frames, [0, 15], [0, 30])
    expected = np.array([10.0, 100.0]) + np.stack([_rot(a) @ [5.0, -70.0] for a in angle])
    chain = bake.chains["leg"]
    assert np.allclose(chain.target_world, expected, atol=1e-9)
    assert np.allclose(chain.end_world, expected, atol=1e-7)


def _spine_bezier(t0, v0, cx1, cy1, cx2, cy2, t1, v1, time):
    """Spine's curve at ``time``: bisection for the curve parameter, then the value."""
    lo, hi = 0.0, 1.0
    for _ in range(200):
        u = 0.5 * (lo + hi)
        x = (1 - u) ** 3 * t0 + 3 * (1 - u) ** 2 * u * cx1 + 3 * (1 - u) * u * u * cx2 + u ** 3 * t1
        lo, hi = (u, hi) if x < time else (lo, u)
    return (1 - u) ** 3 * v0 + 3 * (1 - u) ** 2 * u * cy1 + 3 * (1 - u) * u * u * cy2 + u ** 3 * v1


def test_rotate_curves_bezier_stepped_linear_and_a_late_first_key(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["ik"] = []
    doc["animations"] = {"swing": {"bones": {
        "thigh": {"rotate": [{"value": 0, "curve": [0.05, 0, 0.3, 40]}, {"time": 0.4, "value": 40, "curve": "stepped"},
                             {"time": 0.6, "value": -10}, {"time": 0.8, "value": 20}]},
        "shin": {"rotate": [{"time": 0.2, "value": 30}]},
    }}}
    _, project, _ = _imported(tmp_path, doc, curves="authored")  # the curve itself, to edit
    assert project.timeline.fps == 30 and project.timeline.end == 24
    bake = evaluate(project)
    thigh = np.degrees(bake.local_rotation[:, bake.column("thigh")] - project.bone("thigh").rest_rotation)
    for f in range(0, 13):
        assert thigh[f] == pytest.approx(_spine_bezier(0, 0, 0.05, 0, 0.3, 40, 0.4, 40, f / 30), abs=1e-6)
    # Stepped: holds until the next key. Spine's runtimes keep 0.6 s as the 32-bit
    # 0.60000002 s, just after frame 18, so frame 18 still holds (spine-core 4.2: 40 there).
    assert np.allclose(thigh[12:19], 40.0)
    after = float(np.float32(0.6)) * 30
    assert after > 18
    assert np.allclose(thigh[19:25], np.interp(np.arange(19, 25), [after, 24], [-10, 20]))
    shin = np.degrees(bake.local_rotation[:, bake.column("shin")]) - 10.0
    # The setup pose before the first key (0.2 s is 0.20000000298 s: after frame 6).
    assert np.allclose(shin[:7], 0.0) and np.allclose(shin[7:], 30.0)


def test_attachment_and_draw_order_keys(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["animations"] = {"blink": {
        "slots": {"shin": {"attachment": [{"time": 0.1, "name": None}, {"time": 0.3, "name": "shin"}]}},
        "drawOrder": [{"time": 0.2, "offsets": [{"slot": "thigh", "offset": 1}]}, {"time": 0.4}],
    }}
    _, project, _ = _imported(tmp_path, doc)
    bake = evaluate(project)
    shown = bake.art.attachment[:, bake.art.column("shin")]
    # Spine holds 0.1 s and 0.3 s as 32-bit floats just after frames 3 and 9: a key
    # acts from the frame after (as in spine-core); 0.2 and 0.4 s likewise.
    assert (shown[:4] >= 0).all() and not (shown[4:10] >= 0).any() and (shown[10:] >= 0).all()
    names = bake.art.slots
    assert [names[i] for i in bake.art.order[6]] == ["thigh", "shin"]
    assert [names[i] for i in bake.art.order[7]] == ["shin", "thigh"]
    # The last key (0.4 s) ends the animation: at its last frame spine-core is still before it.
    assert project.timeline.end == 12 and [names[i] for i in bake.art.order[12]] == ["shin", "thigh"]


def test_pictures_are_cut_out_whole_and_placed_where_spine_draws_them(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["mix"] = 0
    _, project, out = _imported(tmp_path, doc)
    originals = pictures()
    for slot in project.art.slots:
        a = slot.attachments[0]
        assert np.array_equal(read_rgba(out.parent / a.path), originals[slot.name])
    bake = evaluate(project, [0])
    world = bake.bone_world
    for slot, (x, y, rot, sx, w, h) in (("thigh", (25, 1, 90, 1.0, 18, 54)), ("shin", (20, 0, 88, 0.5, 12, 40))):
        # Spine: bone world (Spine's frame) . T(x, y) R(rotation) S(scaleX, 1) on the
        # attachment's width x height rectangle.
        k = bake.column(slot)
        origin = bake.joint_world[0, k]
        angle = {"thigh": -80.0, "shin": -70.0}[slot]
        corners = [(-w / 2, -h / 2), (-w / 2, h / 2), (w / 2, h / 2), (w / 2, -h / 2)]
        expected = [origin + _rot(angle) @ (np.array([x, y]) + _rot(rot) @ [sx * cx, cy]) for cx, cy in corners]
        got = bake.art.corners[0, bake.art.column(slot)]
        assert np.allclose(got, expected, atol=1e-9), slot
    assert world is not None


def test_cut_region_turns_back_and_restores_trimmed_margins():
    rng = np.random.default_rng(3)
    original = np.zeros((9, 12, 4), dtype=np.uint8)
    original[2:7, 3:10] = rng.integers(1, 256, (5, 7, 4), dtype=np.uint8)
    page = np.zeros((20, 20, 4), dtype=np.uint8)
    page[6:13, 4:9] = np.rot90(original[2:7, 3:10], k=1)  # packed turned counter-clockwise
    # offsets: 3 from the left, 9 - 7 = 2 from the bottom
    region = AtlasRegion("r", 0, 4, 6, 7, 5, 3, 2, 12, 9, degrees=90)
    assert np.array_equal(cut_region(page, region), original)


def test_premultiplied_pages_are_cut_to_straight_alpha():
    page = np.array([[[100, 50, 0, 128]]], dtype=np.uint8)
    got = cut_region(page, AtlasRegion("r", 0, 0, 0, 1, 1, 0, 0, 1, 1), pma=True)
    assert np.abs(got[0, 0].astype(int) - [199, 100, 0, 128]).max() <= 1


def test_what_cannot_be_imported_is_listed_once_per_kind(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["bones"].append({"name": "tail", "parent": "hip", "length": 20, "scaleX": 2, "inherit": "noScale"})
    doc["bones"].append({"name": "tail2", "parent": "tail", "length": 20, "shearY": 5})
    doc["ik"].append({"name": "aim", "bones": ["tail"], "target": "foot_target"})
    doc["transform"] = [{"name": "tc", "bones": ["tail2"], "target": "hip"}]
    doc["path"] = [{"name": "pc", "bones": ["tail2"], "target": "thigh"}]
    doc["physics"] = [{"name": "ph", "bone": "tail"}, {"name": "ph2", "bone": "tail2"}]
    doc["events"] = {"step": {}}
    doc["skins"][0]["attachments"]["thigh"]["pth"] = {"type": "path", "vertexCount": 3, "vertices": [0, 0, 1, 0, 0, 1], "lengths": [0]}
    doc["skins"].append({"name": "red", "attachments": {}})
    doc["animations"]["walk"]["bones"]["tail"] = {"translate": [{"x": 1}], "scale": [{"x": 2}]}
    doc["animations"]["walk"]["events"] = [{"name": "step"}]
    doc["animations"]["walk"]["deform"] = {"default": {}}  # 4.0's name for deform timelines: imported
    doc["animations"]["walk"]["attachments"] = {"default": {"shin": {"shin": {"sequence": [{"time": 0}]}}}}
    doc["animations"]["walk"]["future"] = [{"time": 0}]
    doc["animations"]["run"] = {}
    result, project, _ = _imported(tmp_path, doc)
    text = "\n".join(result.warnings)
    for kind in ("transform constraints", "path constraints", "physics constraints",
                 "path attachments", "future timelines"):  # events, boxes, clipping, deform and sequences are imported
        assert sum(line.startswith(kind) for line in result.warnings) == 1, (kind, text)
    assert "ph, ph2" in text
    assert len(result.warnings) == len({line.split(":")[0] for line in result.warnings})
    # What the rig can hold is imported: the tail's setup scale, its translate and scale
    # keys, and every animation.
    tail = project.bone("tail")
    assert tail.length == 20 and tail.scale.default == (2.0, 1.0)
    assert tail.translate.keys[0].value == (1.0, 0.0) and tail.scale.keys[0].value == (4.0, 1.0)
    assert [a.name for a in project.animations] == ["walk", "run"] and project.animation == "walk"
    # Shear and inherit modes are bones' own now: imported, not listed; so is the
    # one-bone IK on the tail, whose noScale frame it measures its target in (as Spine).
    assert "aim" in [c.name for c in project.chains] and not any(line.startswith("one-bone IK") for line in result.warnings)
    assert tail.inherit.default == "noScale" and project.bone("tail2").shear.default == pytest.approx((0.0, math.radians(5)))
    assert not any("shear" in line or "inherit" in line for line in result.warnings)


def test_a_target_bone_that_carries_nothing_is_only_a_target(tmp_path):
    _, project, _ = _imported(tmp_path)
    assert [b.name for b in project.bones] == ["hip", "thigh", "shin"]
    assert [t.name for t in project.targets] == ["foot_target"]
    assert project.target("foot_target").space.default == "character"


def test_the_root_bone_is_the_character_space(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["bones"][0] = {"name": "root", "x": 7, "y": -3, "rotation": 90}
    doc["animations"] = {"move": {"bones": {"root": {"translate": [{"x": 0}, {"time": 1, "x": 30}]}}}}
    _, project, _ = _imported(tmp_path, doc)
    bake = evaluate(project)
    hip = bake.joint_world[:, bake.column("hip")]
    # root (7 + x(t), -3) turned 90 degrees: the hip's (10, 100) lands at (-100, 10) from it.
    x = np.interp(bake.frames, [0, 30], [0, 30])
    assert np.allclose(hip, np.stack([7 + x - 100, np.full_like(x, -3 + 10)], axis=-1), atol=1e-9)


def test_reading_fills_spine_defaults():
    skel = parse_spine(json.dumps({"skeleton": {"spine": "4.1.20"}, "bones": [{"name": "root"}],
                                   "ik": [], "animations": {}}))
    assert skel.bones[0].scale == (1.0, 1.0) and skel.bones[0].length == 0.0
    project = spine_project(skel, None).project
    assert project.bones == () and project.timeline.end >= 0


def _de_casteljau(points, u):
    while len(points) > 1:
        points = [(1 - u) * np.asarray(a) + u * np.asarray(b) for a, b in zip(points, points[1:])]
    return points[0]


def test_runtime_curves_play_beziers_as_spines_runtimes_do(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["ik"] = []
    doc["animations"] = {"swing": {"bones": {"thigh": {"rotate": [
        {"value": 0, "curve": [0.3, 0, 0.35, 90]}, {"time": 0.4, "value": 90}]}}}}
    src = write_rig(tmp_path / "src", doc)
    rotations = {}
    for curves in ("authored", "runtime", None):
        out = tmp_path / str(curves) / "leg.rigproj"
        out.parent.mkdir()
        import_spine(src, out, **({} if curves is None else {"curves": curves}))
        project = load_project(out)
        bake = evaluate(project)
        rotations[curves] = np.degrees(bake.local_rotation[:, bake.column("thigh")] - project.bone("thigh").rest_rotation)
    # Spine's runtimes: straight between the curve's points at parameters 0, 0.1, ..., 1.
    grid = np.array([_de_casteljau([(0, 0), (0.3, 0), (0.35, 90), (0.4, 90)], u) for u in np.linspace(0, 1, 11)])
    played = np.interp(np.arange(13) / 30, grid[:, 0], grid[:, 1])
    assert np.allclose(rotations["runtime"], played, atol=1e-9)
    assert np.array_equal(rotations[None], rotations["runtime"])  # the default: what a game shows
    authored = [_spine_bezier(0, 0, 0.3, 0, 0.35, 90, 0.4, 90, f / 30) for f in range(13)]
    assert np.allclose(rotations["authored"], authored, atol=1e-6)
    assert np.abs(rotations["runtime"] - rotations["authored"]).max() > 0.05  # the two really differ


# What spine-core 4.2 computes for the LEG rig's region attachments (RegionAttachment
# ``offset``: the quad's corners in the bone frame; ``uvs``: their texture coordinates
# on the 96 x 64 page), printed by the official runtime once and kept here.
SPINE_CORE_QUADS = {
    "thigh": ([52, -8, 0, -8, 0, 7, 52, 7],
              [0.59375, 0.28125, 0.0520833320915699, 0.28125, 0.0520833320915699, 0.046875, 0.59375, 0.046875]),
    "shin": ([39.88311767578125, -3.696161985397339, 1.906266689300537, -2.3699820041656494, 2.089488983154297,
              2.8768198490142822, 40.066341400146484, 1.5506398677825928],
             [0.625, 0.90625, 0.625, 0.3125, 0.84375, 0.3125, 0.84375, 0.90625]),
}


def test_pictures_show_the_page_pixels_spine_core_maps_there(tmp_path):
    """Any point of a region's quad shows, in our cut-out picture, the page pixel the
    official runtime samples there (rotated packing, trimmed margins, scale)."""
    result, project, out = _imported(tmp_path)
    page = read_rgba(tmp_path / "src" / "leg.png")
    rng = np.random.default_rng(5)
    compared = 0
    for slot_name, (corners, uvs) in SPINE_CORE_QUADS.items():
        a = project.art.slot(slot_name).attachments[0]
        picture = read_rgba(out.parent / a.path)
        to_image = a.local().inverse()
        corners = np.reshape(corners, (4, 2))  # in Spine's bone frame, which is ours
        uvs = np.reshape(uvs, (4, 2))
        for s, t in rng.uniform(0.02, 0.98, (300, 2)):
            weights = np.array([(1 - s) * (1 - t), s * (1 - t), s * t, (1 - s) * t])
            x, y = to_image.apply((weights @ corners)[None])[0]
            col, row = x + a.width / 2, a.height / 2 - y
            u, v = weights @ uvs * (page.shape[1], page.shape[0])
            if min(abs(c - round(c)) for c in (col, row, u, v)) < 0.02:
                continue  # on a pixel border: either side is right
            assert np.array_equal(picture[int(row), int(col)], page[int(v), int(u)])
            compared += 1
    assert compared > 500
