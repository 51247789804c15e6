"""Where Spine's IK cannot do what a chain does (a joint limit that binds, the stretch
and move-root strategies, RigEditor's exponential soft reach, smoothing), the export
bakes that chain on exactly those frames, keys its mix to 0 there and says so; on every
other frame Spine's own IK (solved here from the format's description) gives the bake."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from rigeditor.core.filters import Smoothing
from rigeditor.examples.rigs import arm
from rigeditor.io.spine.write import spine_document
from rigeditor.model import evaluate
from rigeditor.model.data.project import LimitStrategy

from spine_pose import spine_pose

VARIANTS = {
    "limit": dict(limits=(None, (0.2, 1.2))),
    "stretch": dict(strategy=LimitStrategy("stretch", max_stretch=0.2)),
    "move_root": dict(strategy=LimitStrategy("move_root", max_root_offset=30.0)),
    "exponential": dict(softness=arm().chain("arm").softness.__class__((0.08,)), soft_reach="exponential"),
    "smoothing": dict(smoothing=Smoothing(kind="ema", time_constant_s=0.2)),
}


def _gap(pose, bake, i):
    """Largest distance of a bone's origin, or of its tip along the baked direction at its
    own length (a stretched bone shows as its children's translation, not its length)."""
    out = 0.0
    for k, b in enumerate(bake.bones):
        origin, tip = pose[b]
        along = bake.tip_world[i, k] - bake.joint_world[i, k]
        length = np.hypot(*(tip - origin))
        expected_tip = bake.joint_world[i, k] + along / max(np.hypot(*along), 1e-12) * length
        out = max(out, np.hypot(*(origin - bake.joint_world[i, k])), np.hypot(*(tip - expected_tip)))
    return out


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_chain_is_baked_only_where_spine_cannot_follow_it(variant):
    project = arm().with_chain("arm", **VARIANTS[variant])
    bake = evaluate(project)
    notes = []
    doc = spine_document(project, bake, notes=notes)
    keys = doc["animations"][project.name]["ik"]["arm"]
    baked = np.array([k["mix"] == 0 for k in keys])
    assert 0 < baked.sum() < len(bake)  # each variant parts from Spine on some frames only
    live = copy.deepcopy(doc)  # the same skeleton with Spine's IK on everywhere
    for k in live["animations"][project.name]["ik"]["arm"]:
        k["mix"] = 1.0
    for i in range(len(bake)):
        t = i / bake.fps
        assert _gap(spine_pose(doc, t), bake, i) < 2e-3, f"frame {i}"  # the export plays the bake
        cb = bake.chains["arm"]
        if variant in ("move_root", "stretch"):
            # Spine's IK reaches from the keyed shoulder shift or stretched child, but
            # cannot shift or stretch when a game moves the target: baked exactly where
            # the strategy acts.
            acts = max(np.hypot(*cb.root_offset[i]), np.abs(cb.stretch[i] - 1.0).max() * 150.0)
            assert (acts > 1e-3) == baked[i], f"frame {i}"
        else:  # baked exactly where Spine's own IK would part from RigEditor's pose
            assert (_gap(spine_pose(live, t), bake, i) > 1e-3) == baked[i], f"frame {i}"
    (note,) = notes
    assert note.startswith("chain arm: baked at frames ")
    first = int(np.flatnonzero(baked)[0])
    assert f" {first}-" in note or f" {first}," in note or note.split("frames ")[1].startswith(str(first))


def test_bake_ik_bakes_every_frame_and_says_nothing():
    project = arm().with_chain("arm", **VARIANTS["limit"])
    notes = []
    doc = spine_document(project, evaluate(project), notes=notes, bake_ik=True)
    assert all(k["mix"] == 0 for k in doc["animations"][project.name]["ik"]["arm"]) and notes == []


def test_the_command_line_warns_per_chain_and_range_and_bakes_all_with_bake_ik(tmp_path, capsys):
    import json

    from rigeditor.cli import main
    from rigeditor.io.project_file import save_project

    source = tmp_path / "arm.rigproj"
    save_project(arm().with_chain("arm", **VARIANTS["limit"]), source)
    out = tmp_path / "arm.json"
    assert main(["bake", str(source), "-o", str(out), "--format", "spine"]) == 0
    err = capsys.readouterr().err
    assert "warning: chain arm: baked at frames " in err
    keys = json.loads(out.read_text())["animations"]["arm"]["ik"]["arm"]
    assert 0 < sum(k["mix"] == 0 for k in keys) < len(keys)
    assert main(["bake", str(source), "-o", str(out), "--format", "spine", "--bake-ik"]) == 0
    assert "warning" not in capsys.readouterr().err
    assert all(k["mix"] == 0 for k in json.loads(out.read_text())["animations"]["arm"]["ik"]["arm"])
    assert main(["bake", str(source), "-o", str(tmp_path / "arm.csv"), "--bake-ik"]) == 2
    assert "--bake-ik: only a Spine export" in capsys.readouterr().err
