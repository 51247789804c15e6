"""Structural edits (rigeditor.edits): each result is a valid project, refusals
carry a message, and the pose does what the edit promises."""
from __future__ import annotations

import math

import numpy as np
import pytest

from rigeditor import edits
from rigeditor.edits import EditError
from rigeditor.model import evaluate
from rigeditor.examples.rigs import arm, door, walk
from rigeditor.model.validation.project import problems


def valid(project):
    assert problems(project) == []
    return project


def test_rename_bone_updates_parent_and_chain_references():
    p = valid(edits.rename(walk(), "bone", "thigh_l", "femur_l"))
    assert p.bone("shin_l").parent == "femur_l"
    assert p.chain("leg_l").bones == ("femur_l", "shin_l")
    assert "thigh_l" not in edits.names_of(p, "bone")


def test_rename_space_updates_children_and_target_space_keys():
    p = valid(edits.rename(door(), "space", "door", "gate"))
    assert p.space("door_handle").parent == "gate"
    p = valid(edits.rename(p, "space", "door_handle", "grip"))
    hand = p.target("hand")
    assert "grip" in hand.space.values() and "door_handle" not in hand.space.values()
    # The renamed project evaluates to the same pose.
    assert np.allclose(evaluate(p).tip_world, evaluate(door()).tip_world)


def test_rename_target_and_chain():
    p = valid(edits.rename(arm(), "target", "hand", "wrist"))
    assert p.chain("arm").target == "wrist"
    p = valid(edits.rename(p, "chain", "arm", "left_arm"))
    assert [c.name for c in p.chains] == ["left_arm"]


@pytest.mark.parametrize("kind, old, new, message", [
    ("bone", "upper_arm", "forearm", "already"),
    ("bone", "upper_arm", "  ", "needs a name"),
    ("space", "character", "body", "rig root"),
    ("bone", "nope", "x", "no bone"),
])
def test_rename_refusals_say_why(kind, old, new, message):
    with pytest.raises(EditError, match=message):
        edits.rename(arm(), kind, old, new)


def test_add_child_bone_at_tip_and_chain_over_it():
    p, name = edits.add_bone(arm(), "forearm", 40.0, math.radians(30))
    valid(p)
    assert p.bone(name).parent == "forearm" and p.bone(name).rest_offset == (125.0, 0.0)
    # The new bone follows the forearm's tip.
    b = evaluate(p)
    assert np.allclose(b.joint_world[:, b.column(name)], b.tip_world[:, b.column("forearm")])


def test_add_bone_between_world_points_lands_where_drawn():
    p0 = walk()
    bake = evaluate(p0)
    row = bake.index(10)
    start, end = bake.tip_world[row, bake.column("head")], np.array([40.0, 200.0])
    p, name = edits.add_bone_between(p0, bake, row, start, end, "head", snap_to_tip=True)
    valid(p)
    b = evaluate(p)
    assert np.allclose(b.joint_world[row, b.column(name)], start, atol=1e-9)
    assert np.allclose(b.tip_world[row, b.column(name)], end, atol=1e-9)
    assert p.bone(name).rest_offset == (20.0, 0.0)  # snapped exactly to the head's tip


def test_reparent_keeps_rest_place_and_refuses_cycles_and_chain_breaks():
    p, hat = edits.add_bone(walk(), "head", 10.0, 0.3, name="hat")
    before = evaluate(p)
    moved = valid(edits.reparent_bone(p, "hat", "upper_arm_l"))
    assert moved.bone("hat").parent == "upper_arm_l"
    from rigeditor.edits.bones import _rest_frames as rest
    a, b = rest(p)["hat"], rest(moved)["hat"]
    assert np.allclose([a.tx, a.ty, a.a, a.c], [b.tx, b.ty, b.a, b.c])
    root = valid(edits.reparent_bone(p, "hat", None))
    assert root.bone("hat").parent is None
    with pytest.raises(EditError, match="below"):
        edits.reparent_bone(p, "spine", "hat")
    with pytest.raises(EditError, match="chain 'leg_l'"):
        edits.reparent_bone(p, "shin_l", "spine")
    # The first bone of a chain may move; the chain stays valid.
    valid(edits.reparent_bone(p, "thigh_l", "spine"))
    assert before.tip_world.shape == evaluate(p).tip_world.shape


def test_add_chain_puts_its_target_on_the_end_effector_in_the_chosen_space():
    p0, _ = edits.add_bone(walk(), "head", 30.0, 0.0, name="neck_top")
    p0, _ = edits.add_bone(p0, "neck_top", 20.0, -0.6, name="beak")
    frame = 17
    fk = evaluate(p0)
    row = fk.index(frame)
    for space in ("world", "character"):
        p, chain = edits.add_chain(p0, ("beak", "neck_top"), space, frame)  # either order
        valid(p)
        c = p.chain(chain)
        assert c.bones == ("neck_top", "beak") and c.bend.default == (-1.0,)
        assert c.solver == "analytic"  # the default for two bones
        t = p.target(c.target)
        assert t.space.default == space
        b = evaluate(p)
        # The target sits at the FK end effector, and the solve keeps the pose there.
        assert np.allclose(b.chains[chain].target_world[row], fk.tip_world[row, fk.column("beak")], atol=1e-9)
        assert np.allclose(b.tip_world[row, b.column("beak")], fk.tip_world[row, fk.column("beak")], atol=1e-6)


def test_add_chain_refusals():
    with pytest.raises(EditError, match="not parent and child"):
        edits.add_chain(walk(), ("thigh_l", "head"), "world", 0)
    with pytest.raises(EditError, match="already driven"):
        edits.add_chain(walk(), ("thigh_l", "shin_l"), "world", 0)
    p, _ = edits.add_bone(walk(), "head", 10.0, offset=(5.0, 0.0), name="off")
    with pytest.raises(EditError, match="tip"):
        edits.add_chain(p, ("head", "off"), "world", 0)
    with pytest.raises(EditError, match="one bone or more"):
        edits.add_chain(walk(), (), "world", 0)
    with pytest.raises(EditError, match="sequence"):
        edits.add_chain(walk(), "head", "world", 0)


def neck(project=None):
    """walk() with a three-bone run on the head: neck_top -> beak -> crest, each at
    its parent's tip, curling clockwise (rest rotations < 0)."""
    p, _ = edits.add_bone(project or walk(), "head", 30.0, 0.3, name="neck_top")
    p, _ = edits.add_bone(p, "neck_top", 25.0, -0.5, name="beak")
    p, _ = edits.add_bone(p, "beak", 20.0, -0.4, name="crest")
    return valid(p)


def test_add_chain_over_a_three_bone_run_in_any_selection_order():
    p0 = neck()
    frame = 17
    fk = evaluate(p0)
    row = fk.index(frame)
    p, chain = edits.add_chain(p0, ("crest", "neck_top", "beak"), "character", frame)
    valid(p)
    c = p.chain(chain)
    assert c.bones == ("neck_top", "beak", "crest")
    assert c.solver == "fabrik" and c.bend.default == (-1.0,)
    assert p.target(c.target).space.default == "character"
    b = evaluate(p)
    cb = b.chains[chain]
    # The target sits on the FK end at that frame and the solve holds the end there.
    assert np.allclose(cb.target_world[row], fk.tip_world[row, fk.column("crest")], atol=1e-9)
    assert cb.residual[row] <= c.tolerance
    assert np.all(cb.converged)  # every frame's residual is explained
    assert np.all(np.isfinite(b.local_rotation))
    # An explicit solver; analytic is refused for three bones.
    p, chain = edits.add_chain(p0, ("neck_top", "beak", "crest"), "world", frame, solver="ccd")
    assert valid(p).chain(chain).solver == "ccd"
    with pytest.raises(EditError, match="exactly two"):
        edits.add_chain(p0, ("neck_top", "beak", "crest"), "world", frame, solver="analytic")


@pytest.mark.parametrize("bones, message", [
    (("neck_top", "crest"), "not parent and child"),             # a gap, two bones
    (("head", "neck_top", "crest"), "pieces starting at 'head', 'crest'"),  # a gap in a run
    (("spine", "head", "upper_arm_l"), "2 selected children"),   # a branch
    (("neck_top", "beak", "nope"), "no bone named 'nope'"),
    (("thigh_l", "shin_l", "head"), "pieces"),
])
def test_chain_run_refusals_say_why(bones, message):
    with pytest.raises(EditError, match=message):
        edits.chain_run(neck(), bones)


def test_chain_run_refuses_a_bone_off_its_parents_tip_and_a_driven_bone():
    p = neck()
    p = p.with_bone("crest", rest_offset=(20.0, 0.0))  # beak is 25 long
    with pytest.raises(EditError, match="'crest' does not start at the tip of 'beak'"):
        edits.chain_run(p, ("neck_top", "beak", "crest"))
    p, _ = edits.add_chain(neck(), ("beak", "crest"), "world", 0)
    with pytest.raises(EditError, match="already driven"):
        edits.chain_run(p, ("neck_top", "beak", "crest"))


def test_solver_and_iteration_settings():
    p, chain = edits.add_chain(neck(), ("neck_top", "beak", "crest"), "world", 0)
    p = valid(edits.set_chain_solver(p, chain, "ccd"))
    assert p.chain(chain).solver == "ccd"
    with pytest.raises(EditError, match="exactly two bones"):
        edits.set_chain_solver(p, chain, "analytic")
    with pytest.raises(EditError, match="Unknown solver"):
        edits.set_chain_solver(p, chain, "jacobian")
    p = valid(edits.set_solver_settings(p, chain, tolerance=0.01, max_iterations=12))
    assert (p.chain(chain).tolerance, p.chain(chain).max_iterations) == (0.01, 12)
    assert type(p.chain(chain).max_iterations) is int
    for bad in ({"tolerance": 0.0}, {"tolerance": float("nan")}, {"max_iterations": 0},
                {"max_iterations": 2.5}):
        with pytest.raises(EditError):
            edits.set_solver_settings(p, chain, **bad)
    # A two-bone chain may switch between all three.
    arm_p = valid(edits.set_chain_solver(arm(), "arm", "fabrik"))
    assert valid(edits.set_chain_solver(arm_p, "arm", "analytic")) == arm()


def test_delete_bone_refuses_with_message_or_takes_dependent_chains():
    p0 = walk()
    with pytest.raises(EditError) as err:
        edits.delete_bone(p0, "thigh_l")
    assert "leg_l" in str(err.value) and "shin_l" in str(err.value)
    p = valid(edits.delete_bone(p0, "thigh_l", with_chains=True))
    assert "leg_l" not in edits.names_of(p, "chain")
    assert "foot_l" not in edits.names_of(p, "target")
    assert {"thigh_l", "shin_l"}.isdisjoint(edits.names_of(p, "bone"))
    # Deleting the spine takes the arm below it (and its chain) too.
    p = valid(edits.delete_bone(p0, "spine", with_chains=True))
    assert edits.names_of(p, "bone") == ["thigh_l", "shin_l", "thigh_r", "shin_r"]
    evaluate(p)


def test_scene_objects_add_parent_remove():
    p, cup = edits.add_space(arm(), name="cup", position=(10.0, 5.0))
    p, saucer = edits.add_space(p, name="saucer")
    p = valid(edits.reparent_space(p, "cup", "saucer"))
    assert p.space("cup").parent == "saucer"
    with pytest.raises(EditError, match="cycle"):
        edits.reparent_space(p, "saucer", "cup")
    with pytest.raises(EditError, match="parent of cup"):
        edits.remove_space(p, "saucer")
    with pytest.raises(EditError, match="rig root"):
        edits.remove_space(p, "character")
    p = valid(edits.remove_space(p, "cup"))
    p = valid(edits.remove_space(p, "saucer"))
    assert [s.name for s in p.spaces] == ["character"]
    with pytest.raises(EditError, match="declared in"):
        edits.remove_space(door(), "door_handle")


def test_set_bone_length_keeps_chain_connected():
    p = valid(edits.set_bone_length(arm(), "upper_arm", 170.0))
    assert p.bone("forearm").rest_offset == (170.0, 0.0)


def test_flip_bend_default_or_stepped_key():
    p = edits.flip_bend(arm(), "arm", 12, animate=True)  # unkeyed: the default flips
    assert p.chain("arm").bend.default == (-1.0,) and not p.chain("arm").bend.keys
    from rigeditor.edits import tracks

    keyed = tracks.set_key(arm(), ("chain", "arm", "bend"), 0, 1.0)
    p = valid(edits.flip_bend(keyed, "arm", 12, animate=True))
    bend = p.chain("arm").bend
    assert [(k.frame, k.value, k.interp) for k in bend.keys] == [(0, (1.0,), "constant"), (12, (-1.0,), "constant")]
    p = valid(edits.flip_bend(keyed, "arm", 12, animate=False))  # setup: the whole track
    assert p.chain("arm").bend.keys[0].value == (-1.0,) and p.chain("arm").bend.default == (-1.0,)
