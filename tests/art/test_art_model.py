"""Images ride their bones: corners from the Bake against trigonometry done here."""
from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.io import ProjectFileError, dumps_project, load_project, loads_project
from rigeditor.io.schema.convert import to_document
from rigeditor.model import evaluate
from rigeditor.edits.art_bind import bind_to_bone
from rigeditor.model.data.attachments import ImageAttachment
from rigeditor.examples.art import dressed_arm

FIXTURES = Path(__file__).parents[1] / "io" / "fixtures"


def _expected_corners(origin, angle, a: ImageAttachment):
    """Corners of an unscaled, unrotated, centred attachment on a bone at ``origin``
    turned by ``angle`` (radians), computed by hand."""
    out = []
    for sx, sy in ((-1, -1), (-1, 1), (1, 1), (1, -1)):
        lx, ly = a.x + sx * a.width / 2, a.y + sy * a.height / 2
        out.append((origin[0] + lx * math.cos(angle) - ly * math.sin(angle),
                    origin[1] + lx * math.sin(angle) + ly * math.cos(angle)))
    return np.array(out)


def test_each_image_follows_its_bone_at_every_frame():
    project = dressed_arm()
    bake = evaluate(project)
    art = bake.art
    for slot in ("upper_arm", "forearm"):
        s, k = art.column(slot), bake.column(slot)
        a = project.art.slot(slot).attachments[0]
        for i in range(len(bake)):
            want = _expected_corners(bake.joint_world[i, k], bake.world_rotation[i, k], a)
            np.testing.assert_allclose(art.corners[i, s], want, atol=1e-9)


def test_the_hand_switches_pictures_on_its_keyed_frames_only():
    project = dressed_arm()
    bake = evaluate(project)
    shown = [project.art.slot("hand").attachments[c].name for c in bake.art.attachment[:, bake.art.column("hand")]]
    frames = bake.frames.astype(int)
    assert all(name == ("hand_fist" if 24 <= f < 40 else "hand_open") for f, name in zip(frames, shown))
    # The fist is a smaller picture: its corners span its own width.
    i = int(np.searchsorted(frames, 30))
    c = bake.art.corners[i, bake.art.column("hand")]
    assert np.linalg.norm(c[3] - c[0]) == pytest.approx(40.0)


def test_draw_order_keys_put_the_hand_behind_the_torso_and_back():
    project = dressed_arm()
    bake = evaluate(project)
    names = bake.art.slots
    for i, f in enumerate(bake.frames.astype(int)):
        order = [names[s] for s in bake.art.drawn(i)]
        if 30 <= f < 42:
            assert order == ["hand", "torso", "upper_arm", "forearm"]
        else:
            assert order == ["torso", "upper_arm", "forearm", "hand"]


def test_a_slot_that_shows_nothing_is_not_drawn():
    project = dressed_arm()
    hand = project.art.slot("hand")
    project = replace(project, art=project.art.with_slot("hand", attachment=hand.attachment.with_key(10, "")))
    bake = evaluate(project)
    i = int(np.searchsorted(bake.frames, 12))
    assert bake.art.column("hand") not in bake.art.drawn(i)
    assert bake.art.column("hand") in bake.art.drawn(i - 3)


def test_binding_keeps_the_picture_on_screen_and_then_it_follows_the_new_bone():
    project = dressed_arm()
    bake = evaluate(project)
    row, s = 7, bake.art.column("hand")
    before = bake.art.corners[row, s]
    bound = bind_to_bone(project, "hand", "upper_arm", bake, row)
    after = evaluate(bound)
    np.testing.assert_allclose(after.art.corners[row, s], before, atol=1e-9)
    # Now it rides the upper arm: its corners relative to that bone stay fixed.
    k = after.column("upper_arm")
    rel = [after.bone_world.take((i, k)).inverse().apply(after.art.corners[i, s]) for i in (0, 20, 40)]
    np.testing.assert_allclose(rel[0], rel[1], atol=1e-9)
    np.testing.assert_allclose(rel[0], rel[2], atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(rot=st.floats(-3, 3), sx=st.floats(0.2, 3), sy=st.floats(-3, -0.2) | st.floats(0.2, 3),
       px=st.floats(-30, 30), py=st.floats(-30, 30), row=st.integers(0, 48))
def test_binding_to_any_bone_and_back_keeps_every_corner(rot, sx, sy, px, py, row):
    project = dressed_arm()
    project = replace(project, art=project.art.with_slot("forearm", attachments=(
        replace(project.art.slot("forearm").attachments[0], rotation=rot, scale=(sx, sy), pivot=(px, py)),)))
    bake = evaluate(project)
    s = bake.art.column("forearm")
    for bone in (None, "upper_arm", "forearm"):
        moved = bind_to_bone(project, "forearm", bone, bake, row)
        np.testing.assert_allclose(evaluate(moved).art.corners[row, s], bake.art.corners[row, s], atol=1e-8)


def test_art_survives_a_save_and_load_exactly_with_a_missing_image_kept():
    project = dressed_arm()  # no PNG exists anywhere: loading must not care
    text = dumps_project(project)
    again = loads_project(text)
    assert dumps_project(again) == text
    assert '"path": "arm_art/hand_fist.png"' in text


def test_version_2_files_migrate_to_version_3_without_art():
    v2 = load_project(FIXTURES / "v2_reach.rigproj")
    v3 = load_project(FIXTURES / "v3_reach.rigproj")
    assert v2.art.slots == () and v2.art.draw_order == ()
    assert to_document(v2) == to_document(v3)


def test_a_version_2_file_holding_slots_is_reported_not_silently_overwritten():
    doc = json.loads((FIXTURES / "v2_reach.rigproj").read_text())
    doc["slots"] = [{"name": "x"}]
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(doc))
    assert err.value.problems == ["slots: unknown field in a version 2 file (artwork needs schema_version 3)"]


@pytest.mark.parametrize("edit, problem", [
    (lambda d: d["slots"][1].update(bone="shin"), "slots[1].bone: unknown bone 'shin'"),
    (lambda d: d["slots"][3]["attachment"]["keys"].append({"frame": 45, "value": "claw"}),
     "slots[3].attachment.keys[2].value: unknown attachment 'claw'"),
    (lambda d: d["draw_order"]["keys"][0].update(order=["hand", "torso"]),
     "draw_order.keys[0].order: must list every slot once, got ['hand', 'torso']"),
    (lambda d: d["slots"][0]["attachments"][0].update(path="/home/me/torso.png"),
     "slots[0].attachments[0].path: must be relative to the project file with '/' separators, "
     "got '/home/me/torso.png'"),
    (lambda d: d["slots"][0]["attachments"][0].update(opacity=1.5),
     "slots[0].attachments[0].opacity: must be between 0 and 1, got 1.5"),
    (lambda d: d["slots"][2]["attachments"][0].update(scale=[0, 1]),
     "slots[2].attachments[0].scale: a scale of zero collapses the image"),
])
def test_bad_art_is_reported_where_it_is(edit, problem):
    doc = json.loads(dumps_project(dressed_arm()))
    edit(doc)
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(doc))
    assert problem in err.value.problems
