"""Several chains at one frame are solved as one set of rows: each chain's results must
be exactly what the whole range gives for that frame, whatever group it falls in."""
from dataclasses import fields

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rigeditor.core.geometry import Affine
from rigeditor.model import CHARACTER, WORLD, Bone, Chain, Project, Space, Target, Timeline, evaluate
from rigeditor.model.data.project import LimitStrategy
from rigeditor.model.evaluation.constraints.ik import group_chains
from rigeditor.model.data.timeline import StepChannel, constant, keyed

FRAMES = 5
# Few choices each, so random rigs put several chains in one group and others apart.
LIMITS = [(), ((-0.5, 1.0), None), (None, (0.2, 2.0)), ((-3.0, -1.0), (-2.5, -0.3))]
STRATEGIES = [LimitStrategy(), LimitStrategy("stretch", max_stretch=0.2),
              LimitStrategy("move_root", max_root_offset=15.0, root_time_constant=0.0)]
# Frame-by-frame channels: the whole range's rows are then exact one frame at a time.
COMPARED_ALONE = {"hold", "hold_drift", "hold_world_motion", "flip"}  # compare with the frame before

coordinate = st.floats(-300.0, 300.0, allow_nan=False)
chain_spec = st.fixed_dictionaries({
    "lengths": st.tuples(st.floats(5.0, 120.0), st.floats(5.0, 120.0)),
    "limits": st.sampled_from(range(len(LIMITS))),
    "strategy": st.sampled_from(range(len(STRATEGIES))),
    "bend": st.sampled_from([1.0, -1.0]),
    "softness": st.sampled_from([0.0, 0.06]),
    "mix": st.sampled_from([1.0, 1.0, 0.4]),
    "rotation": st.floats(-3.0, 3.0),
    "keys": st.lists(st.tuples(coordinate, coordinate), min_size=2, max_size=2),
    "on_shoulder": st.booleans(),  # the target sits on the shoulder at the first frame
    "below": st.booleans(),  # a hand and a second chain hang below this one
})


def _rig(specs, turn, scale):
    bones, targets, chains = [], [], []
    for k, s in enumerate(specs):
        a, b = s["lengths"]
        base = (37.0 * k - 50.0, 11.0 * k)
        bones += [Bone(f"up{k}", None, a, rest_offset=base, rotation=constant(s["rotation"])),
                  Bone(f"lo{k}", f"up{k}", b, rest_offset=(a, 0.0))]
        shoulder = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]]) @ (np.array(base) * scale)
        first = tuple(shoulder) if s["on_shoulder"] else s["keys"][0]
        keys = [(0, first), (FRAMES - 1, s["keys"][1])]
        targets.append(Target(f"t{k}", StepChannel(WORLD), keyed(keys, "linear")))
        chains.append(Chain(f"c{k}", (f"up{k}", f"lo{k}"), f"t{k}", bend=constant(s["bend"]),
                            softness=constant(s["softness"]), mix=constant(s["mix"]),
                            limits=LIMITS[s["limits"]], strategy=STRATEGIES[s["strategy"]]))
        if s["below"]:
            bones += [Bone(f"hand{k}", f"lo{k}", 10.0, rest_offset=(b, 0.0), rotation=constant(0.3)),
                      Bone(f"f{k}", f"hand{k}", 8.0, rest_offset=(10.0, 0.0)),
                      Bone(f"g{k}", f"f{k}", 6.0, rest_offset=(8.0, 0.0))]
            targets.append(Target(f"ft{k}", StepChannel(WORLD), keyed([(0, (base[0], 80.0)), (FRAMES - 1, s["keys"][0])], "linear")))
            chains.append(Chain(f"fc{k}", (f"f{k}", f"g{k}"), f"ft{k}", bend=constant(-s["bend"])))
    character = Space(CHARACTER, rotation=constant(turn), scale=constant(scale, scale))
    return Project("rows", Timeline(24.0, 0, FRAMES - 1), (character,), tuple(bones), tuple(targets), tuple(chains))


def _rows_equal(x, y, i, j, skip=()):
    """Row i of per-item bake ``x`` equals row j of ``y`` bit for bit, field by field."""
    for f in fields(x):
        u, v = getattr(x, f.name), getattr(y, f.name)
        if f.name in skip or not isinstance(u, (np.ndarray, Affine)):
            continue
        for p, q in (zip(u.fields(), v.fields()) if isinstance(u, Affine) else [(u, v)]):
            assert np.array_equal(np.asarray(p)[i], np.asarray(q)[j]), f.name


@settings(max_examples=60, deadline=None)
@given(st.lists(chain_spec, min_size=2, max_size=7), st.floats(-3.0, 3.0), st.sampled_from([1.0, 0.5, 3.0]))
def test_chains_solved_as_rows_equal_the_whole_range_bit_for_bit(specs, turn, scale):
    project = _rig(specs, turn, scale)
    full = evaluate(project)
    edited = {f"target:{t.name}" for t in project.targets}
    for row in range(FRAMES):
        frame = full.frames[row:row + 1]
        alone = evaluate(project, frames=frame)
        # The editor's frame under the hand: incrementally, from that row of the range.
        again = evaluate(project, frames=frame, previous=full.rows(row, row + 1), changed=edited)
        for a, b, w in zip(alone.bone_bakes, again.bone_bakes, full.bone_bakes):
            _rows_equal(a, w, 0, row)
            _rows_equal(b, w, 0, row)
        for c, w in full.chains.items():
            for bake in (alone, again):
                _rows_equal(bake.chains[c], w, 0, row, skip=COMPARED_ALONE)
                assert bake.chains[c].reach == w.reach


def test_alike_chains_share_a_group_and_others_stand_apart():
    specs = [dict(lengths=(50.0, 40.0), limits=i % 2, strategy=0, bend=1.0, softness=0.0, mix=1.0,
                  rotation=0.0, keys=[(10.0, 20.0), (30.0, 5.0)], on_shoulder=False, below=False)
             for i in range(5)]
    project = _rig(specs, 0.0, 1.0)
    groups = group_chains(project, list(project.chains), 1)
    assert sorted(len(g) for g in groups) == [2, 3]
    assert all(len(g) == 1 for g in group_chains(project, list(project.chains), 2))  # a range: alone
