"""A chain of 20,000 bones validates, bakes, exports to Spine and imports back (the
checks were quadratic or worse: 2,000 bones took 15 s to validate, 83 s to import).
Results are asserted, never times; benchmarks/bench_io.py prints the time."""
from __future__ import annotations

import json
import math

import numpy as np

from rigeditor.io import load_project, save_project
from rigeditor.io.spine.write import export_spine_json
from rigeditor.io.spine.read import import_spine
from rigeditor.model import evaluate
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import Channel, Key
from rigeditor.model.validation.project import problems

N = 20_000
TURN = 2 * math.pi / N  # each bone turns by this from its parent: the chain closes into a circle


def _circle(n=N, keyed=()):
    """n unit bones, each on its parent's tip and turned by TURN; ``keyed`` bones carry
    a rotation track that is zero at frame 0 (so frame 0 is still the circle)."""
    bones = []
    for i in range(n):
        rotation = Channel((0.0,), (Key(0, (0.0,)), Key(1, (0.5,)))) if i in keyed else Channel((0.0,))
        bones.append(Bone(f"b{i}", f"b{i - 1}" if i else None, 1.0, (1.0 if i else 0.0, 0.0), TURN,
                          rotation=rotation))
    return Project(name="circle", timeline=Timeline(start=0, end=1), bones=tuple(bones))


def test_a_20000_bone_chain_validates_and_its_cycle_is_found_once():
    project = _circle()
    assert problems(project) == []
    # Closing the chain on itself: one cycle, named once, through all of its bones.
    looped = Project(bones=(Bone("b0", f"b{N - 1}", 1.0),) + project.bones[1:])
    found = [p for p in problems(looped) if "cycle" in p]
    assert len(found) == 1
    assert len(found[0].split(" -> ")) == N + 1


def test_a_20000_bone_chain_bakes_into_its_closed_polygon(tmp_path):
    path = tmp_path / "circle.rigproj"
    save_project(_circle(keyed={7}), path)
    bake = evaluate(load_project(path))
    # Bone k points along (k + 1) * TURN (rest rotations add up); its joint is the sum of
    # the unit steps before it: a regular polygon of N sides, so the last tip is the start.
    k = np.arange(N)
    steps = np.stack([np.cos((k + 1) * TURN), np.sin((k + 1) * TURN)], axis=-1)
    expected = np.concatenate([[[0.0, 0.0]], np.cumsum(steps, axis=0)[:-1]])
    np.testing.assert_allclose(bake.joint_world[0], expected, atol=1e-6)  # 20,000 sums of unit steps, on a circle of radius 3,183
    np.testing.assert_allclose(bake.tip_world[0, -1], [0.0, 0.0], atol=1e-6)  # 20,000 sums of unit steps, on a circle of radius 3,183
    # Frame 1: bone 7 turned by 0.5 rad carries every bone below it around its joint.
    c, s = math.cos(0.5), math.sin(0.5)
    moved = (expected[8:] - expected[7]) @ np.array([[c, s], [-s, c]]) + expected[7]
    np.testing.assert_allclose(bake.joint_world[1, 8:], moved, atol=1e-6)  # 20,000 sums of unit steps, on a circle of radius 3,183


def test_a_20000_bone_chain_exports_to_spine_and_imports_back(tmp_path):
    project = _circle(keyed={0, N // 2})
    bake = evaluate(project)
    export_spine_json(project, bake, tmp_path / "circle.json")
    doc = json.loads((tmp_path / "circle.json").read_text())
    assert len(doc["bones"]) == N + 1  # and the root standing for the character space
    result = import_spine(tmp_path / "circle.json", tmp_path / "back.rigproj")
    back = load_project(tmp_path / "back.rigproj")
    assert len(back.bones) == N and [b.parent for b in back.bones[1:3]] == ["b0", "b1"]
    np.testing.assert_allclose(evaluate(back).joint_world, bake.joint_world, atol=1e-4)
    assert result.warnings == []
