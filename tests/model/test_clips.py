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
