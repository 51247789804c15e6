"""Semantic checks name the place of every problem."""
from dataclasses import replace

import pytest

from rigeditor.model import Bone, Chain, LimitStrategy, Space, Target
from rigeditor.examples.rigs import EXAMPLES, arm
from rigeditor.model.data.timeline import Key, StepChannel, constant, keyed
from rigeditor.model.validation.project import problems


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_are_valid(name):
    assert problems(EXAMPLES[name]()) == []


def _one(project):
    found = problems(project)
    assert found, "expected a problem"
    return "\n".join(found)


def test_duplicate_names():
    p = arm()
    assert "bones[1].name: duplicate name 'upper_arm'" in _one(replace(p, bones=(p.bones[0], replace(p.bones[1], name="upper_arm"))))


def test_space_cycle_and_unknown_parent():
    p = replace(arm(), spaces=arm().spaces + (Space("a", "b"), Space("b", "a")))
    assert "spaces: cycle" in _one(p)
    assert "spaces[1].parent: unknown space 'nowhere'" in _one(replace(arm(), spaces=arm().spaces + (Space("a", "nowhere"),)))


def test_chain_bones_must_be_parent_and_child_at_the_tip():
    p = arm()
    loose = p.with_bone("forearm", parent=None)
    assert "chains[0].bones[1]: 'forearm' is not a child of 'upper_arm'" in _one(loose)
    # Off the tip, the solver bends the segment to the child's origin: fine unless the
    # chain has limits or stretches (those are the bones').
    offset = p.with_bone("forearm", rest_offset=(100.0, 20.0))
    assert problems(offset) == []
    limited = offset.with_chain("arm", limits=((-1.0, 1.0), None))
    assert "must start at the tip of 'upper_arm'" in _one(limited)
    stretching = offset.with_chain("arm", strategy=LimitStrategy("stretch"))
    assert "must start at the tip of 'upper_arm'" in _one(stretching)
    assert "must start at least" in _one(p.with_bone("forearm", rest_offset=(0.0, 0.0)))


def test_ranges_and_values():
    p = arm()
    assert "chains[0].softness.default: must be between 0 and 0.5, got 3" in _one(p.with_chain("arm", softness=constant(3.0)))
    assert "chains[0].bend.default: must be one of +1, -1, got 0" in _one(p.with_chain("arm", bend=constant(0.0)))
    assert "bones[0].length: must be a finite number > 0, got -1" in _one(p.with_bone("upper_arm", length=-1.0))
    assert "bones[0].rest_rotation: must be a finite number" in _one(p.with_bone("upper_arm", rest_rotation=float("inf")))
    assert "targets[0].position.keys[0].value: magnitude must be <= 1e+09, got 1e+20" in _one(
        p.with_target("hand", position=keyed([(0, (1e20, 0.0))])))
    assert "must be finite, got nan" in _one(p.with_target("hand", position=constant(float("nan"), 0.0)))


def test_keys_out_of_order_and_unknown_spaces():
    p = arm()
    bad_keys = constant(0.0, 0.0)
    bad_keys = replace(bad_keys, keys=(Key(5, (0.0, 0.0)), Key(3, (1.0, 1.0))))
    assert "targets[0].position.keys[1].frame: keys must be in increasing frame order, got 3 after 5" in _one(
        p.with_target("hand", position=bad_keys))
    assert "targets[0].space.keys[0].value: unknown space 'door'" in _one(
        p.with_target("hand", space=StepChannel("world", ((4, "door"),))))


def test_a_bone_driven_by_two_chains():
    # Spine's IK constraints may share bones (tests/model/test_shared_chains.py); a
    # chain with joint limits (RigEditor's own) may not.
    p = arm()
    p = replace(p, targets=p.targets + (Target("t2"),),
                chains=p.chains + (Chain("again", ("upper_arm", "forearm"), "t2", limits=((-1.0, 1.0), None)),))
    assert "already driven by chain 'arm'" in _one(p)


def test_stepped_bend_must_be_constant():
    p = arm().with_chain("arm", bend=keyed([(0, 1.0), (10, -1.0)], "linear"))
    assert "chains[0].bend.keys[0].interp: this track is stepped" in _one(p)


def test_analytic_chain_needs_two_bones():
    p = arm()
    p = replace(p, bones=p.bones + (Bone("hand", "forearm", 20.0, rest_offset=(125.0, 0.0)),))
    p = p.with_chain("arm", bones=("upper_arm", "forearm", "hand"))
    assert "the analytic solver drives exactly 2 bones, got 3" in _one(p)


def test_one_bad_key_among_many_is_found_with_its_index():
    keys = [(f, (float(f), 0.0)) for f in range(5000)]
    keys[3210] = (3210, (float("nan"), 0.0))
    p = arm().with_target("hand", position=keyed(keys))
    assert "targets[0].position.keys[3210].value: must be finite, got nan" in _one(p)
    assert problems(arm().with_target("hand", position=keyed(keys[:3210]))) == []


@pytest.mark.parametrize("handles", [False, True])
def test_a_channel_found_fine_does_not_hide_a_problem_in_its_edited_copy(handles):
    # Unchanged channels are not checked again; the edited channel always is
    # (with hand-set handles the per-key loop checks it, without them numpy does).
    good = [Key(f, (float(f), 0.0), "bezier", (1.0, 0.5, 0.0) if handles else None) for f in range(0, 300, 3)]
    p = arm().with_target("hand", position=replace(arm().target("hand").position, keys=tuple(good)))
    assert problems(p) == [] and problems(p) == []
    bad = list(good)
    if handles:
        bad[40] = replace(bad[40], out_handle=(1.0, float("inf"), 0.0))
    else:
        bad[40] = replace(bad[40], value=(float("nan"), 0.0))
    edited = p.with_target("hand", position=replace(p.target("hand").position, keys=tuple(bad)))
    assert "targets[0].position.keys[40]." in _one(edited)
    assert problems(p) == []


def test_an_item_found_fine_is_checked_again_when_what_it_depends_on_changes():
    # Items found fine are not checked again while they and their context stay the
    # same; a longer timeline can take an animated scale through zero where it ends.
    p = arm()
    shrink = keyed([(0, (1.0, 1.0)), (10, (0.5, 1.0)), (20, (-0.5, 1.0))], "linear")
    p = replace(p, spaces=tuple(replace(s, scale=shrink) if s.name == "character" else s for s in p.spaces),
                timeline=replace(p.timeline, start=0, end=12))
    assert problems(p) == [] and problems(p) == []
    longer = replace(p, timeline=replace(p.timeline, end=20))
    assert "spaces[0].scale: at frame 15 a scale component's magnitude falls below" in _one(longer)
    # A bone renamed away from under a fine chain: the chain's links are still checked.
    renamed = replace(p, bones=(replace(p.bones[0], name="shoulder"), replace(p.bones[1], parent="shoulder")))
    assert "chains[0].bones[0]: unknown bone 'upper_arm'" in _one(renamed)


def test_a_section_found_fine_is_checked_again_when_any_part_it_reads_changes():
    # The chains' links read the bones, the timeline and the targets' names: each of
    # them replaced alone under the same (unchanged) tuple of chains is checked again.
    p = arm()
    assert problems(p) == [] and problems(p) == []
    no_target = replace(p, targets=(replace(p.targets[0], name="paw"),))
    assert "chains[0].target: unknown target 'hand'" in _one(no_target)
    assert problems(p) == []  # and the first project is fine again
    loose = replace(p, bones=(p.bones[0], replace(p.bones[1], parent=None)))
    assert "chains[0].bones[1]: 'forearm' is not a child of 'upper_arm'" in _one(loose)
    # A bad project found twice gives its problems twice, in the same order.
    bad = replace(loose, bones=loose.bones + (replace(p.bones[0], length=-1.0),),
                  spaces=p.spaces + (Space("a", "nowhere"),))
    first = problems(bad)
    assert problems(bad) == first and len(first) >= 3
    assert first.index(next(m for m in first if m.startswith("bones[2].name"))) < first.index(
        next(m for m in first if m.startswith("spaces[1].parent")))
