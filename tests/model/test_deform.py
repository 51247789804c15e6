"""Deform keys: keyed vertex offsets of meshes, evaluated in evaluate() and checked
against forward kinematics by hand (3x3 matrices), a brute-force bezier, and the
one-frame / range agreement."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor import edits
from rigeditor.edits.errors import EditError
from rigeditor.model import evaluate
from rigeditor.model.data import clips
from rigeditor.model.data.deform import DeformKey, DeformTrack, bezier_mix, sample
from rigeditor.model.data.project import Animation
from rigeditor.model.data.timeline import StepChannel
from rigeditor.model.validation.project import problems

from deform_rigs import QUAD, rig, world

def vertices(bake, row=0):
    return bake.art.row(row).meshes[0]


def test_unweighted_offsets_add_in_the_slot_bone_frame_before_skinning():
    d0 = np.full((4, 2), 0.0)
    d1 = np.array([[1.0, 2.0], [0.0, 0.0], [-3.0, 0.5], [0.0, 4.0]])
    p = edits.set_deform_key(rig(), "s", "m", 2, d0)
    p = edits.set_deform_key(p, "s", "m", 6, d1)
    bake = evaluate(p, [0, 2, 4, 6, 9])
    local = QUAD + [1.0, 2.0]  # the picture placed at (1, 2) in the bone frame
    for row, (frame, mix) in enumerate([(0, 0.0), (2, 0.0), (4, 0.5), (6, 1.0), (9, 1.0)]):
        a, _ = world(frame)
        q = local + mix * d1
        expected = (a @ np.c_[q, np.ones(4)].T).T[:, :2]
        np.testing.assert_allclose(vertices(bake, row), expected, atol=1e-9)


def test_weighted_offsets_add_to_each_bone_local_position():
    d = np.zeros((4, 4, 2))
    d[0, 0], d[0, 1] = [2.0, 0.0], [0.0, -4.0]
    d[2, 1] = [1.5, 1.5]
    p = edits.set_deform_key(rig(weighted=True), "s", "m", 0, d)
    bake = evaluate(p, [7.0])
    a, b = world(7.0)
    mesh = p.art.slots[0].attachments[0]
    bind_p = mesh.in_slot_frame()  # the slot bone's frame; bone b sits at (20, 0) in it
    local = {0: bind_p, 1: bind_p - [20.0, 0.0]}
    expected = np.zeros((4, 2))
    for v in range(4):
        for k, bone in enumerate((a, b)):
            w = mesh.weights[v, k]
            q = local[k][v] + d[v, k]
            expected[v] += w * (bone @ [q[0], q[1], 1.0])[:2]
    np.testing.assert_allclose(vertices(bake), expected, atol=1e-9)


def test_before_the_first_key_the_setup_vertices_and_after_the_last_it_holds():
    d = np.ones((4, 2))
    p = edits.set_deform_key(edits.set_deform_key(rig(), "s", "m", 4, 0 * d), "s", "m", 8, 3 * d)
    plain = evaluate(rig(), [1, 12])
    keyed_bake = evaluate(p, [1, 12])
    np.testing.assert_allclose(vertices(keyed_bake, 0), vertices(plain, 0), atol=1e-12)
    a, _ = world(12)
    shift = a[:2, :2] @ [3.0, 3.0]
    np.testing.assert_allclose(vertices(keyed_bake, 1), vertices(plain, 1) + shift, atol=1e-9)


def test_stepped_holds_and_bezier_follows_the_curve():
    d = np.ones((4, 1, 2))
    keys = (DeformKey(0, 0 * d, "stepped"), DeformKey(10, d, "bezier", (0.6, 0.0, 0.9, 0.3)), DeformKey(20, 2 * d))
    out = sample(keys, [0, 5, 9.99, 10, 13, 20, 30])[:, 0, 0, 0]
    assert out[:3].tolist() == [0.0, 0.0, 0.0] and out[3] == 1.0 and out[5] == out[6] == 2.0
    # brute force: the curve sampled at 200,001 parameters, read at u = 0.3 by its time
    s = np.linspace(0, 1, 200_001)
    x = 3 * (1 - s) ** 2 * s * 0.6 + 3 * (1 - s) * s * s * 0.9 + s ** 3
    y = 3 * (1 - s) ** 2 * s * 0.0 + 3 * (1 - s) * s * s * 0.3 + s ** 3
    assert out[4] == pytest.approx(1.0 + np.interp(0.3, x, y), abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 1), st.floats(-2, 3), st.floats(0, 1), st.floats(-2, 3), st.floats(0, 1))
def test_bezier_mix_matches_a_dense_sampling(u1, v1, u2, v2, u):
    s = np.linspace(0, 1, 100_001)
    x = 3 * (1 - s) ** 2 * s * u1 + 3 * (1 - s) * s * s * u2 + s ** 3
    y = 3 * (1 - s) ** 2 * s * v1 + 3 * (1 - s) * s * s * v2 + s ** 3
    j = int(np.searchsorted(x, u))  # the curve's time is monotonic for u1, u2 in [0, 1]
    near = y[max(0, j - 2):j + 2]
    got = float(bezier_mix((u1, v1, u2, v2), u))
    assert near.min() - 1e-6 <= got <= near.max() + 1e-6


def test_one_frame_equals_that_frame_of_a_range():
    d = np.random.default_rng(3).normal(size=(4, 4, 2))
    p = edits.set_deform_key(rig(weighted=True), "s", "m", 1, d, interpolation="bezier", curve=(0.2, 0.9, 0.4, 1.2))
    p = edits.set_deform_key(p, "s", "m", 9, -d)
    whole = evaluate(p)
    for f in (0, 3, 7, 11):
        one = evaluate(p, [f])
        np.testing.assert_array_equal(vertices(one), vertices(whole, f))


def test_a_collapsing_deform_is_reported_as_a_collapse():
    d = np.zeros((4, 2))
    d[2] = [-20.0, -10.0]  # vertex 2 pulled onto vertex 0: triangle 0 folds flat
    p = edits.set_deform_key(rig(), "s", "m", 6, d)
    pose = evaluate(p, [0, 6]).art.meshes[0]
    assert pose.collapsed().tolist() == [False, True]


def test_validation_says_where_a_deform_is_wrong():
    p = edits.set_deform_key(rig(), "s", "m", 2, np.zeros((4, 2)))
    bad = replace(p, art=replace(p.art, deforms=(
        replace(p.art.deforms[0], keys=p.art.deforms[0].keys + (DeformKey(1, np.zeros((3, 1, 2))),)),
        DeformTrack("s", "nope"), DeformTrack("t", "m"))))
    found = problems(bad)
    assert "deforms[0].keys[1].frame: keys must be in increasing frame order, got 1 after 2" in found
    assert "deforms[0].keys[1].offsets: the mesh needs 4 vertices x 1 influence(s) x 2, got 3 x 1 x 2" in found
    assert "deforms[1].attachment: slot 's' has no attachment 'nope'" in found
    assert "deforms[2].slot: unknown slot 't'" in found
    nan = np.zeros((4, 1, 2))
    nan[3, 0, 1] = np.nan
    bad = replace(p, art=replace(p.art, deforms=(DeformTrack("s", "m", "", (DeformKey(0, nan),)),)))
    assert any(x.startswith("deforms[0].keys[0].offsets[3]: must be finite") for x in problems(bad))
    with pytest.raises(EditError, match="4 x 1 x 2"):
        edits.set_deform_key(rig(), "s", "m", 0, np.zeros((5, 2)))


def test_deform_keys_belong_to_their_animation_and_setup_shows_none():
    p = edits.set_deform_key(rig(), "s", "m", 3, np.ones((4, 2)))
    p = replace(p, animations=(Animation(p.animation, 0, 12), Animation("other", 0, 5)))
    other = clips.switch(p, "other")
    assert other.art.deforms == ()
    back = clips.switch(other, p.animation)
    assert back.art.deforms == p.art.deforms
    assert clips.setup_pose(p).art.deforms == ()
    assert problems(other) == []


def test_key_vertex_moves_the_vertex_by_the_world_drag_at_that_frame():
    for weighted in (False, True):
        p = rig(weighted)
        bake = evaluate(p, [7])
        before = vertices(bake)
        moved = edits.key_vertex(p, bake.art.meshes[0], 0, 7, 2, [1.5, -0.5])
        after = vertices(evaluate(moved, [7]))
        expected = before.copy()
        expected[2] += [1.5, -0.5]
        np.testing.assert_allclose(after, expected, atol=1e-9)
        assert [k.frame for k in moved.art.deforms[0].keys] == [7.0]


def test_deform_keys_are_a_row_under_their_slot_and_the_key_edits_move_and_delete_them():
    from rigeditor.edits.tracks import delete_keys, keyed_tracks, move_keys

    p = edits.set_deform_key(rig(), "s", "m", 2, np.ones((4, 2)))
    p = edits.set_deform_key(p, "s", "m", 6, np.zeros((4, 2)))
    p = replace(p, art=p.art.with_slot("s", attachment=StepChannel("m", ((0.0, "m"),))))
    rows = keyed_tracks(p)
    labels = [t.label for t in rows]
    assert labels.index("s · deform m") == labels.index("s · attachment") + 1
    row = rows[labels.index("s · deform m")]
    assert row.item == ("slot", "s") and row.frames == (2.0, 6.0)
    moved = move_keys(p, {row.path: [2]}, 2)
    assert [k.frame for k in moved.art.deforms[0].keys] == [4.0, 6.0]
    # the offsets moved with their key: frame 4 now shows the ones keyed at 2
    np.testing.assert_allclose(sample(moved.art.deforms[0].keys, [4])[0], np.ones((4, 1, 2)))
    gone = delete_keys(moved, {row.path: [4, 6]})
    assert gone.art.deforms == () and problems(gone) == []


def test_renaming_or_deleting_a_slot_carries_its_deform_keys_in_every_animation():
    p = edits.set_deform_key(rig(), "s", "m", 3, np.ones((4, 2)))
    p = replace(p, animations=(Animation(p.animation, 0, 12), Animation("other", 0, 5)))
    p = edits.switch_animation(edits.set_deform_key(edits.switch_animation(p, "other"), "s", "m", 1,
                                                    np.ones((4, 2))), p.animation)
    renamed = edits.rename(p, "slot", "s", "skin")
    assert problems(renamed) == []
    assert [t.slot for t in renamed.art.deforms] == ["skin"]
    assert [t.slot for t in clips.switch(renamed, "other").art.deforms] == ["skin"]
    gone = edits.delete(p, "slot", "s")
    assert problems(gone) == [] and gone.art.deforms == () and clips.switch(gone, "other").art.deforms == ()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["linear", "stepped", "bezier"]), min_size=1, max_size=5),
       st.lists(st.floats(-3, 30), min_size=1, max_size=12))
def test_a_block_of_frames_samples_each_frame_as_alone(kinds, frames):
    rng = np.random.default_rng(len(kinds))
    keys = tuple(DeformKey(4.0 * n + 0.5, rng.normal(size=(3, 2, 2)), kind, (0.3, -0.2, 0.6, 1.4))
                 for n, kind in enumerate(kinds))
    block = sample(keys, frames)
    for f, row in zip(frames, block):
        np.testing.assert_array_equal(sample(keys, [f])[0], row)


def test_adding_or_deleting_a_vertex_keeps_the_other_vertices_deform():
    from rigeditor.model.data.mesh_attachment import MeshAttachment

    for weighted in (False, True):
        p = rig(weighted)
        # a fifth vertex inside the quad to delete later, keyed with the rest
        p = edits.add_vertex(p, "s", "m", [2.0, 1.0])
        m = p.art.slots[0].attachments[0]
        shape = (5, 4, 2) if weighted else (5, 2)
        d = np.random.default_rng(2).normal(size=shape)
        p = edits.set_deform_key(p, "s", "m", 6, d)
        p = replace(p, animations=(Animation(p.animation, 0, 12), Animation("other", 0, 5)))
        p = edits.switch_animation(edits.set_deform_key(edits.switch_animation(p, "other"), "s", "m", 2, d),
                                   p.animation)
        before = vertices(evaluate(p, [6]))
        gone = edits.delete_vertex(p, "s", "m", 4)
        assert problems(gone) == []
        np.testing.assert_allclose(vertices(evaluate(gone, [6])), before[:4], atol=1e-9)
        added = edits.add_vertex(p, "s", "m", [-3.0, -1.0])
        assert problems(added) == [] and isinstance(added.art.slots[0].attachments[0], MeshAttachment)
        np.testing.assert_allclose(vertices(evaluate(added, [6]))[:5], before, atol=1e-9)
        other = clips.switch(gone, "other")
        assert other.art.deforms[0].keys[0].offsets.shape[0] == 4
