"""Several animations over one rig: each poses the rig with its own keys and range,
the setup pose is shared, and switching loses nothing."""
import numpy as np
import pytest

from rigeditor.model import evaluate
from rigeditor.model.data import clips
from rigeditor.edits import animations
from rigeditor.examples.rigs import arm
from rigeditor.model.data.timeline import keyed


def _two():
    """The arm example as 'reach' plus a 'wave' animation keyed differently."""
    p = animations.rename(arm(), "animation", "reach")
    p = animations.add(p, "wave", 0, 20)
    p = clips.switch(p, "wave")
    p = p.with_target("hand", position=keyed([(0, (100.0, 100.0)), (20, (150.0, 160.0))], "bezier"))
    return p


def test_each_animation_poses_the_rig_with_its_own_keys_and_range():
    p = _two()
    assert p.animation == "wave" and (p.timeline.start, p.timeline.end) == (0, 20)
    wave = evaluate(p)
    back = clips.switch(p, "reach")
    reach = evaluate(back)
    # Independently: the untouched example is the reach; the wave is its rig with the new keys.
    assert np.array_equal(reach.joint_world, evaluate(arm()).joint_world)
    lone = arm().with_target("hand", position=keyed([(0, (100.0, 100.0)), (20, (150.0, 160.0))], "bezier"))
    assert np.array_equal(wave.tip_world, evaluate(lone, np.arange(0, 21.0)).tip_world)
    # Round trip: switching back and forth changes nothing.
    assert clips.switch(back, "wave") == p


def test_the_setup_pose_is_shared():
    p = _two()
    longer = p.with_bone("forearm", length=140.0)
    assert clips.switch(longer, "reach").bone("forearm").length == 140.0


def test_duplicate_rename_delete():
    p = animations.duplicate(_two(), "reach", "reach_copy")
    assert clips.names(p) == ["reach", "reach_copy", "wave"]
    assert clips.clip(p, "reach_copy").tracks == clips.clip(p, "reach").tracks
    p = animations.delete(p, "wave")  # the open one: its neighbour opens
    assert clips.names(p) == ["reach", "reach_copy"] and p.animation == "reach_copy"
    with pytest.raises(ValueError):
        animations.add(p, "reach")
    with pytest.raises(ValueError):
        animations.delete(animations.delete(p, "reach"), "reach_copy")


def test_renaming_and_deleting_items_reach_stored_animations():
    from rigeditor.edits.items import delete, rename

    p = clips.switch(_two(), "reach")
    p = rename(p, "target", "hand", "palm")
    assert ("target", "palm", "position") in clips.clip(p, "wave").tracks
    p = delete(p, "chain", "arm")  # takes its target along
    assert not any(path[1] == "palm" for path in clips.clip(p, "wave").tracks)


def test_a_stored_animations_bad_key_is_found_after_every_edit_of_the_open_one():
    # Validation opens each stored animation after every edit (remembering the items
    # found fine): a bad key there is reported on the first check and on every later
    # one, while the open animation is edited move after move, and goes once fixed.
    from dataclasses import replace

    from rigeditor.edits.posing import set_target_key
    from rigeditor.model.data.timeline import Key
    from rigeditor.model.validation.project import problems

    p = _two()  # 'wave' open, 'reach' stored
    reach = next(a for a in p.animations if a.name == "reach")
    path = next(k for k in reach.tracks if k[0] == "target")
    bad = tuple(reach.tracks[path]) + (Key(90, (float("nan"), 0.0), "linear"),)
    broken = replace(reach, tracks={**reach.tracks, path: bad})
    p = replace(p, animations=tuple(broken if a.name == "reach" else a for a in p.animations))
    for step in range(4):
        found = problems(p)
        assert len(found) == 1 and "animations[" in found[0] and "'reach'" in found[0], found
        p = set_target_key(p, "hand", 5, (100.0 + step, 90.0))
    fixed = replace(p, animations=tuple(reach if a.name == "reach" else a for a in p.animations))
    assert problems(fixed) == []
    # The open animation's items, opened from either side, are what they were.
    assert clips.switch(clips.switch(p, "reach"), "wave") == p
