"""All shown meshes posed at a row in one pass (``mesh_frame``) equal each mesh posed
alone (MeshPose.vertices, itself checked by hand in test_deform): weighted and
unweighted meshes, deform keys with their own times and interpolations, meshes that
some frames do not show, and a mesh without keys."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given, settings, strategies as st

from rigeditor import edits
from rigeditor.model import evaluate
from rigeditor.model.data.attachments import Slot
from rigeditor.model.data.timeline import StepChannel

from deform_rigs import rig

KINDS = ("linear", "stepped", "bezier")


def many(weighted_slots, key_plans, hidden_from):
    """The deform rig's mesh copied onto several slots (weighted or not by
    ``weighted_slots``), each keyed by its plan [(frame, kind, scale)]; the last slot
    shows its mesh only before frame ``hidden_from``."""
    plain, weighted = rig().art.slots[0], rig(weighted=True).art.slots[0]
    slots = []
    for k, w in enumerate(weighted_slots):
        base = weighted if w else plain
        shown = StepChannel("m") if k < len(weighted_slots) - 1 else StepChannel("m", ((0.0, "m"), (float(hidden_from), "")))
        slots.append(Slot(f"s{k}", base.bone, base.attachments, shown))
    p = rig(weighted=True)
    p = replace(p, art=replace(p.art, slots=tuple(slots)))
    rng = np.random.default_rng(len(key_plans))
    for k, plan in enumerate(key_plans):
        mesh = p.art.slots[k].attachments[0]
        shape = (4, 4, 2) if mesh.skinned else (4, 2)
        for frame, kind, scale in plan:
            p = edits.set_deform_key(p, f"s{k}", "m", frame, scale * rng.normal(size=shape), interpolation=kind,
                                     curve=(0.3, 0.1, 0.7, 0.9))
    return p


plans = st.lists(st.tuples(st.integers(0, 12), st.sampled_from(KINDS), st.floats(0.1, 5.0)), max_size=4,
                 unique_by=lambda t: t[0])


@settings(max_examples=30, deadline=None)
@given(st.lists(st.booleans(), min_size=2, max_size=5).flatmap(
    lambda w: st.tuples(st.just(w), st.lists(plans, min_size=len(w), max_size=len(w)), st.integers(1, 12))),
    st.lists(st.floats(0, 12), min_size=1, max_size=6))
def test_every_mesh_posed_at_once_is_each_mesh_posed_alone(case, frames):
    weighted, key_plans, hidden_from = case
    bake = evaluate(many(weighted, key_plans, hidden_from), sorted(frames))
    for row in range(len(bake)):
        together = bake.art.row(row).meshes
        alone = {m.column: m.vertices(row) for m in bake.art.meshes if m.shown[row]}
        assert together.keys() == alone.keys()
        for column, v in alone.items():
            np.testing.assert_allclose(together[column], v, rtol=1e-12, atol=1e-9)


def test_a_hidden_mesh_is_left_out_and_comes_back_where_it_shows_again():
    p = many([True, False, True], [[(0, "linear", 1.0), (8, "linear", 2.0)], [], [(4, "bezier", 1.0)]], 6)
    bake = evaluate(p, [2.0, 9.0])
    assert sorted(bake.art.row(0).meshes) == [0, 1, 2]
    assert sorted(bake.art.row(1).meshes) == [0, 1]
    moved = bake.art.row(1).meshes[0] - evaluate(many([True, False, True], [[], [], []], 6), [9.0]).art.row(0).meshes[0]
    assert np.abs(moved).max() > 0.1  # the keys move it (a pass that dropped them would not)


def test_each_edit_poses_its_meshes_as_they_are_now_never_as_they_were():
    # The joined structure is kept across Bakes while the meshes are the same objects
    # (a drag's every move): a new deform key, a mesh edited, a pose change must all show.
    p = many([True, False], [[(0, "linear", 1.0), (8, "linear", 2.0)], []], 12)
    edited = [p,
              edits.set_deform_key(p, "s1", "m", 4, np.full((4, 2), 3.0)),  # the plain mesh gains a key
              edits.set_deform_key(p, "s0", "m", 4, np.full((4, 4, 2), -2.0)),  # the weighted one another
              edits.move_vertex(p, "s1", "m", 0, (1.5, -2.0))]  # the plain mesh's shape changes
    for project in edited + edited[::-1]:
        bake = evaluate(project, [2.0, 4.0, 6.0])
        for row in range(len(bake)):
            together = bake.art.row(row).meshes
            for m in bake.art.meshes:
                np.testing.assert_allclose(together[m.column], m.vertices(row), rtol=1e-12, atol=1e-9)
