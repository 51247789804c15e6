"""The one evaluation path on the three examples and on purpose-built rigs."""
import math
from dataclasses import fields, replace

import numpy as np
import pytest

from rigeditor.core.geometry import Affine
from rigeditor.model import CAUSES, CHARACTER, WORLD, Bone, Chain, Project, Space, Target, Timeline, evaluate
from rigeditor.examples.rigs import EXAMPLES, arm, door, walk
from rigeditor.edits.posing import set_target_key, switch_target_space
from rigeditor.model.data.project import LimitStrategy
from rigeditor.model.data.timeline import StepChannel, constant, keyed

C = {name: i for i, name in enumerate(CAUSES)}


def _independent_fk(bake, project):
    """World joint positions from local rotations, recomputed by walking the tree."""
    out = {}
    character = project.space(CHARACTER)
    for i in range(len(bake)):
        f = bake.frames[i]
        cx, cy = character.position.sample([f])[0]
        rot = character.rotation.sample([f])[0, 0]
        sx, sy = character.scale.sample([f])[0]
        frames = {}
        for k, name in enumerate(bake.bones):
            b = project.bone(name)
            if b.parent is None:
                ox, oy = b.rest_offset
                px, py = cx + math.cos(rot) * sx * ox - math.sin(rot) * sy * oy, cy + math.sin(rot) * sx * ox + math.cos(rot) * sy * oy
                base_angle, mirror = rot, sx * sy < 0
            else:
                (ppx, ppy), pang, mirror = frames[b.parent]
                ox = b.rest_offset[0] * bake.stretch[i, bake.column(b.parent)]
                px = ppx + math.cos(pang) * ox - math.sin(pang) * b.rest_offset[1] * (-1 if mirror else 1)
                py = ppy + math.sin(pang) * ox + math.cos(pang) * b.rest_offset[1] * (-1 if mirror else 1)
                base_angle = pang
            local = bake.local_rotation[i, k]
            ang = base_angle - local if mirror else base_angle + local
            if mirror and b.parent is None:
                ang = math.pi + rot - local  # x axis flipped by sx = -1
            frames[name] = ((px, py), ang, mirror)
        out[i] = frames
    return out


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_bake_joints_agree_with_independent_fk(name):
    project = EXAMPLES[name]()
    bake = evaluate(project)
    fk = _independent_fk(bake, project)
    for i in range(0, len(bake), 7):
        for k, bone in enumerate(bake.bones):
            assert np.allclose(bake.joint_world[i, k], fk[i][bone][0], atol=1e-9)


def test_arm_reaches_when_reachable_and_says_why_when_not():
    bake = evaluate(arm())
    ch = bake.chains["arm"]
    inside = ch.distance <= 275.0
    assert inside.any() and (~inside).any()
    assert ch.residual[inside].max() <= 1e-9 * 275
    assert np.allclose(ch.residual[~inside], ch.distance[~inside] - 275.0, rtol=1e-9)
    assert np.all(ch.cause[~inside] == C["out_of_reach"])
    assert np.all(ch.cause[inside] == C["none"])
    assert not ch.flip.any()


def test_planted_world_feet_do_not_slide():
    bake = evaluate(walk())
    for leg in ("leg_l", "leg_r"):
        ch = bake.chains[leg]
        assert ch.hold.sum() >= 20  # the stance phases are there
        assert ch.hold_drift[ch.hold].max() <= 1e-6
        assert ch.residual.max() <= 1e-9 * 100


def test_feet_declared_in_character_space_slide_and_the_check_finds_it():
    bake = evaluate(walk(foot_space=CHARACTER))
    ch = bake.chains["leg_l"]
    speed = 60.0 / 48  # the character's world speed per frame
    assert ch.hold_world_motion[ch.hold].max() == pytest.approx(speed, rel=1e-6)
    assert ch.hold_drift[ch.hold].max() <= 1e-6  # the solve itself is fine: the space is wrong
    planted = evaluate(walk()).chains["leg_l"]
    assert planted.hold_world_motion[planted.hold].max() <= 1e-6


def test_hand_on_hip_rides_with_the_character():
    project = walk()
    bake = evaluate(project)
    ch = bake.chains["arm_l"]
    hip = bake.spaces[CHARACTER].apply(np.array([15.0, 5.0]))
    assert np.allclose(ch.target_world, hip)
    assert np.allclose(ch.end_world, ch.target_world, atol=1e-6 + ch.residual.max())
    moved = np.hypot(*(ch.end_world[-1] - ch.end_world[0]))
    assert moved == pytest.approx(60.0, abs=2.0)  # it travelled with the body
    assert ch.hold.sum() == len(bake) - 1
    assert ch.hold_drift.max() <= 1e-6  # still on the hip, in the hip's space


def test_hand_stays_on_the_handle_as_the_door_turns():
    project = door()
    bake = evaluate(project)
    ch = bake.chains["arm"]
    held = bake.frames >= 20
    grip = project.target("hand").position.sample(bake.frames)[held]
    on_handle = bake.spaces["door_handle"].take(held).apply(grip)
    assert np.allclose(ch.target_world[held], on_handle, atol=1e-9)
    door_turn = bake.spaces["door"].rotation()
    assert door_turn[-1] - door_turn[20] > 1.0  # the door really swings
    gap = np.hypot(*(ch.end_world[held] - on_handle).T)
    assert np.allclose(gap, ch.residual[held], atol=1e-6)
    assert set(np.unique(ch.cause[held])) <= {C["none"], C["soft_reach"]}


def test_space_switch_keeps_the_world_position_at_the_switch_frame():
    project = door()
    before = replace(project.target("hand"))  # the switched target
    bake = evaluate(project)
    ch = bake.chains["arm"]
    # Frame 20 under the old declaration (world) must equal the new one (handle space).
    world_keys = keyed([(0, (150.0, -150.0)), (20, (254.0, -48.0))], "bezier")
    assert np.allclose(ch.target_world[20], world_keys.sample([20])[0], atol=1e-9)
    step = np.hypot(*np.diff(ch.target_world, axis=0).T)
    assert step[19] <= 2 * step[15:19].max() + 1e-9  # no pop at the switch
    assert before.space.value_at(19) == WORLD and before.space.value_at(20) == "door_handle"


def test_space_switch_keeps_later_keys_in_place():
    project = arm()
    project = project.with_target("hand", position=keyed([(0, (100.0, 0.0)), (30, (200.0, 50.0))]))
    project = replace(project, spaces=project.spaces + (Space("cup", WORLD, position=keyed([(0, (0.0, 0.0)), (48, (40.0, 0.0))])),))
    before = evaluate(project).chains["arm"].target_world
    after_project = switch_target_space(project, "hand", 10, "cup")
    after = evaluate(after_project).chains["arm"].target_world
    assert np.allclose(after[10], before[10]) and np.allclose(after[30], before[30])


def _arm_rig(character_scale=(1.0, 1.0), target=(180.0, 60.0), space=CHARACTER, bend=1.0):
    return Project(
        name="mirror", timeline=Timeline(24, 0, 0),
        spaces=(Space(CHARACTER, position=constant(10.0, 5.0), scale=constant(*character_scale)),),
        bones=(Bone("upper", None, 150.0), Bone("lower", "upper", 125.0, rest_offset=(150.0, 0.0))),
        targets=(Target("t", StepChannel(space), constant(*target)),),
        chains=(Chain("arm", ("upper", "lower"), "t", bend=constant(bend)),),
    )


def test_mirrored_character_keeps_the_elbow_on_the_same_side_of_the_body():
    normal = evaluate(_arm_rig()).chains["arm"]
    mirror = evaluate(_arm_rig(character_scale=(-1.0, 1.0))).chains["arm"]
    root = np.array([10.0, 5.0])
    # Mirrored about the character's vertical axis: x - root flips sign, y stays.
    flip = np.array([-1.0, 1.0])
    assert np.allclose((mirror.elbow_world - root), (normal.elbow_world - root) * flip, atol=1e-9)
    assert np.allclose((mirror.end_world - root), (normal.end_world - root) * flip, atol=1e-9)
    assert mirror.residual[0] < 1e-9


def test_incremental_update_equals_full_evaluation():
    project = walk()
    first = evaluate(project)
    edited = set_target_key(project, "foot_l", 30, (50.0, 3.0))
    partial = evaluate(edited, previous=first, changed={"target:foot_l"})
    full = evaluate(edited)
    assert partial.chains["leg_r"] is first.chains["leg_r"]  # untouched chains are reused
    for name in ("local_rotation", "joint_world", "tip_world", "world_rotation", "stretch"):
        assert np.array_equal(getattr(partial, name), getattr(full, name)), name
    for chain in full.chains:
        for field in ("residual", "end_world", "elbow_world", "sensitivity", "cause", "hold_drift"):
            assert np.array_equal(getattr(partial.chains[chain], field), getattr(full.chains[chain], field)), (chain, field)
    # And the edit really changed something.
    assert not np.array_equal(first.chains["leg_l"].end_world, full.chains["leg_l"].end_world)


@pytest.mark.parametrize("bone", ["spine", "head", "shin_l"])
def test_incremental_bone_edit_equals_full_evaluation(bone):
    project = walk()
    first = evaluate(project)
    from rigeditor.edits.posing import turn_bone
    edited = turn_bone(project, bone, 20, 0.3, "animate")
    partial = evaluate(edited, previous=first, changed={f"bone:{bone}"})
    full = evaluate(edited)
    for name in ("local_rotation", "joint_world", "tip_world", "world_rotation"):
        assert np.array_equal(getattr(partial, name), getattr(full, name)), name
    for chain in full.chains:
        assert np.array_equal(partial.chains[chain].end_world, full.chains[chain].end_world), chain
    assert not np.array_equal(first.local_rotation, full.local_rotation)


def test_an_edit_shares_every_bone_it_did_not_move():
    project = walk()
    first = evaluate(project)
    edited = set_target_key(project, "foot_l", 30, (50.0, 3.0))
    partial = evaluate(edited, previous=first, changed={"target:foot_l"})
    leg_l = set(edited.chain("leg_l").bones)
    leg_l |= {b.name for b in edited.bones if b.parent in leg_l}
    for name, before, after in zip(first.bones, first.bone_bakes, partial.bone_bakes):
        if name in leg_l:
            assert after is not before, name
        else:  # the same object: nothing was copied for it
            assert after is before, name


def _held_bytes(bake):
    """Bytes of the array buffers a bake's bones keep alive (a view keeps its whole base)."""
    bases = {}
    for item in bake.bone_bakes:
        for f in fields(item):
            value = getattr(item, f.name)
            for a in (value.fields() if isinstance(value, Affine) else (value,)):
                while isinstance(a, np.ndarray) and isinstance(a.base, np.ndarray):
                    a = a.base
                if isinstance(a, np.ndarray):
                    bases[id(a)] = a.nbytes
    return sum(bases.values())


def test_posing_a_tail_bone_by_bone_keeps_no_more_memory_than_one_bake():
    # An animator poses a long FK tail from its root to its tip over a short range; each
    # edit is evaluated incrementally from the last bake, sharing the bones it leaves.
    count, frames = 40, 300
    bones = tuple(Bone(f"b{i}", None if i == 0 else f"b{i - 1}", 10.0, rest_offset=(0.0 if i == 0 else 10.0, 0.0),
                       rotation=keyed([(0, 0.01 * i), (frames - 1, -0.02 * i)])) for i in range(count))
    project = Project("tail", Timeline(24.0, 0, frames - 1), bones=bones)
    bake = evaluate(project)
    for i in range(count - 1):
        name = f"b{i}"
        project = replace(project, bones=tuple(replace(b, rotation=constant(0.1)) if b.name == name else b
                                               for b in project.bones))
        bake = evaluate(project, previous=bake, changed={f"bone:{name}"})
    full = evaluate(project)
    assert np.array_equal(bake.tip_world, full.tip_world)
    # What the bones share is kept once; nothing of the earlier edits' bones lingers.
    assert _held_bytes(bake) <= 2 * _held_bytes(full)


@pytest.mark.parametrize("scale", [(1.0, 1.0), (2.0, 2.0), (-1.0, 1.0), (1.0, 0.5)])
def test_world_rotation_is_the_direction_each_bone_points_in(scale):
    project = replace(walk(), spaces=tuple(
        replace(s, rotation=keyed([(0, 0.4), (47, 3.0)]), scale=constant(*scale)) if s.name == CHARACTER else s
        for s in walk().spaces))
    bake = evaluate(project)
    d = bake.tip_world - bake.joint_world
    direction = np.arctan2(d[..., 1], d[..., 0])
    assert np.allclose(np.angle(np.exp(1j * (bake.world_rotation - direction))), 0.0, atol=1e-9)


def test_rows_of_a_bake_are_the_evaluation_of_those_frames():
    project = replace(_arm_rig(), timeline=Timeline(24, 0, 29), targets=(
        Target("t", StepChannel(CHARACTER), keyed([(0, (180.0, 60.0)), (29, (-40.0, 250.0))], "bezier")),))
    full = evaluate(project)
    part, direct = full.rows(10, 14), evaluate(project, frames=np.arange(10.0, 14.0))
    assert np.array_equal(part.frames, direct.frames)
    for name in ("local_rotation", "world_rotation", "joint_world", "tip_world"):
        assert np.array_equal(getattr(part, name), getattr(direct, name)), name
    for field in ("residual", "end_world", "elbow_world", "target_world", "sensitivity"):
        assert np.array_equal(getattr(part.chains["arm"], field), getattr(direct.chains["arm"], field)), field
    assert np.array_equal(part.spaces[CHARACTER].tx, direct.spaces[CHARACTER].tx)


def test_bake_arrays_are_read_only():
    bake = evaluate(arm())
    with pytest.raises(ValueError):
        bake.local_rotation[0, 0] = 1.0
    with pytest.raises(ValueError):
        bake.chains["arm"].residual[0] = 1.0


def test_causes_limit_soft_and_mix():
    base = _arm_rig(target=(200.0, 0.0))
    limited = evaluate(base.with_chain("arm", limits=(None, (0.0, math.radians(45))))).chains["arm"]
    assert limited.cause[0] == C["limit"] and limited.limited[0]
    soft = evaluate(_arm_rig(target=(272.0, 0.0)).with_chain("arm", softness=constant(0.05))).chains["arm"]
    assert soft.cause[0] == C["soft_reach"] and soft.residual[0] > 0.1
    mixed = evaluate(base.with_chain("arm", mix=constant(0.5))).chains["arm"]
    assert mixed.cause[0] == C["mix"] and mixed.residual[0] > 1.0


def test_stretch_strategy_reaches_and_stretches_children_too():
    rig = _arm_rig(target=(290.0, 0.0)).with_chain("arm", strategy=LimitStrategy("stretch", max_stretch=0.1))
    bake = evaluate(rig)
    ch = bake.chains["arm"]
    assert ch.residual[0] < 1e-6 and ch.stretch[0] == pytest.approx(290 / 275)
    assert np.allclose(bake.tip_world[0, bake.column("lower")] - bake.spaces[CHARACTER].translation()[0], [290.0, 0.0])


def test_an_unkeyed_flip_is_flagged_and_a_keyed_one_is_not():
    rig = _arm_rig(target=(200.0, 0.0))
    rig = replace(rig, timeline=Timeline(24, 0, 20))
    # Pure FK (mix 0) with the elbow rotation swinging through zero: a flip with no bend key.
    rig = rig.with_chain("arm", mix=constant(0.0)).with_bone("lower", rotation=keyed([(0, 0.4), (20, -0.4)]))
    flagged = evaluate(rig).chains["arm"]
    assert flagged.flip.sum() == 1
    keyed_bend = _arm_rig(target=(200.0, 0.0))
    keyed_bend = replace(keyed_bend, timeline=Timeline(24, 0, 20)).with_chain(
        "arm", bend=keyed([(0, 1.0), (10, -1.0)], "constant"))
    ok = evaluate(keyed_bend).chains["arm"]
    assert (np.diff(ok.side) != 0).sum() == 1 and not ok.flip.any()


def test_zero_distance_target_folds_along_the_previous_direction_without_nan():
    rig = _arm_rig(target=(0.0, 0.0), space=CHARACTER)
    rig = replace(rig, timeline=Timeline(24, 0, 4)).with_target(
        "t", position=keyed([(0, (0.0, 100.0)), (2, (0.0, 0.0)), (4, (0.0, 0.0))], "linear"))
    ch = evaluate(rig).chains["arm"]
    assert np.all(np.isfinite(ch.end_world)) and np.all(np.isfinite(ch.sensitivity))
    root = np.array([10.0, 5.0])
    assert np.allclose(ch.end_world[2:] - root, [0.0, 25.0], atol=1e-6)  # folded upward, not to +x


@pytest.mark.parametrize("name", ["arm", "walk", "door"])
def test_a_frame_evaluated_alone_is_that_frame_of_the_range_bit_for_bit(name):
    # A lone frame takes scalar paths (channel sampling, the solve, the sensitivity)
    # and skips the comparisons with the frame before (hold, drift, flip): everything
    # else must equal the range's row exactly, or the pose jumps when the range lands.
    from dataclasses import fields

    from rigeditor.core.geometry import Affine
    from rigeditor.model.evaluation.evaluate import frame_local

    project = replace(EXAMPLES[name](), chains=tuple(
        replace(c, softness=constant(0.05)) if i % 2 else c for i, c in enumerate(EXAMPLES[name]().chains)))
    assert frame_local(project, {f"chain:{c.name}" for c in project.chains})  # no smoothing: exact alone
    full = evaluate(project)
    for row in range(0, len(full), 7):
        alone = evaluate(project, frames=full.frames[row:row + 1])
        for b, a, w in zip(full.bones, alone.bone_bakes, full.bone_bakes):
            for f in fields(w):
                x, y = getattr(a, f.name), getattr(w, f.name)
                pairs = zip(x.fields(), y.fields()) if isinstance(x, Affine) else [(x, y)]
                for u, v in pairs:
                    assert np.array_equal(np.asarray(u)[0], np.asarray(v)[row]), (row, b, f.name)
        for c, w in full.chains.items():
            a = alone.chains[c]
            for f in fields(w):
                x, y = getattr(a, f.name), getattr(w, f.name)
                if f.name in ("hold", "hold_drift", "hold_world_motion", "flip") or not isinstance(x, np.ndarray):
                    continue
                assert np.array_equal(x[0], y[row]), (row, c, f.name)


def _with_transform(project, bones, target):
    from rigeditor import edits
    return edits.add_transform(project, list(bones), target, name="tc", local=False, relative=True)


def _assert_same(partial, full):
    for name in ("local_rotation", "joint_world", "tip_world", "world_rotation", "stretch"):
        assert np.array_equal(getattr(partial, name), getattr(full, name)), name
    for f in ("a", "b", "c", "d", "tx", "ty"):
        assert np.array_equal(getattr(partial.bone_world, f), getattr(full.bone_world, f)), f
    for chain in full.chains:
        for field in ("residual", "end_world", "elbow_world", "cause"):
            assert np.array_equal(getattr(partial.chains[chain], field), getattr(full.chains[chain], field)), (chain, field)


def test_an_edit_away_from_a_transform_constraint_is_evaluated_incrementally():
    # The head follows the right shin (a transform constraint, as imported Spine rigs
    # have): moving the left foot's target neither reads nor moves either, so only the
    # left leg is solved again; before, any constraint made every edit a full evaluation.
    project = _with_transform(walk(), ["head"], "shin_r")
    first = evaluate(project)
    edited = set_target_key(project, "foot_l", 30, (50.0, 3.0))
    partial = evaluate(edited, previous=first, changed={"target:foot_l"})
    full = evaluate(edited)
    _assert_same(partial, full)
    assert partial.chains["leg_r"] is first.chains["leg_r"]
    assert partial.bone("head") is first.bone("head")  # the constraint's result is kept
    assert not np.array_equal(first.chains["leg_l"].end_world, full.chains["leg_l"].end_world)


@pytest.mark.parametrize("bones, target", [(["head"], "shin_l"),  # reads a bone the edit moves
                                            (["thigh_l"], "spine"),  # moves a bone the edit solves
                                            (["spine"], "thigh_r")])  # moves nothing of the leg: kept
def test_an_edit_a_transform_constraint_meets_equals_a_full_evaluation(bones, target):
    project = _with_transform(walk(), bones, target)
    first = evaluate(project)
    edited = set_target_key(project, "foot_l", 30, (50.0, 3.0))
    partial = evaluate(edited, previous=first, changed={"target:foot_l"})
    _assert_same(partial, evaluate(edited))
