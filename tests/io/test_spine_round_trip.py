"""An exported example imported back from its Spine data alone (as after an edit in
another tool, without RigEditor's own data, see test_spine_round_trip_true): the same
spaces its targets are declared in (world comes back as world, not as the character),
the same chains, the root's own keys as the character space's keys, still values as
still values."""
from __future__ import annotations

import json

import numpy as np
import pytest

from rigeditor.cli import resolve_project
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.write import export_spine_json
from rigeditor.model import evaluate

EXAMPLES = ["arm", "door", "tail", "walk", "dressed_arm", "dressed_walk", "rigid_arm", "skinned_arm"]


def _round_trip(name, tmp_path):
    original, folder = resolve_project(name)
    skeleton = tmp_path / f"{original.name}.json"
    export_spine_json(original, evaluate(original), skeleton, images=folder)
    doc = json.loads(skeleton.read_text(encoding="utf-8"))
    del doc["skeleton"]["rigeditor"]  # Spine's data alone
    skeleton.write_text(json.dumps(doc), encoding="utf-8")
    import_spine(skeleton, tmp_path / "back.rigproj", curves="authored")
    return original, load_project(tmp_path / "back.rigproj")


def _keys(ch):
    return [(k.frame, k.value, k.interp) for k in ch.keys]


@pytest.mark.parametrize("name", EXAMPLES)
def test_an_exported_example_comes_back_with_its_spaces_chains_and_character_keys(name, tmp_path):
    original, back = _round_trip(name, tmp_path)
    two_bone = [c for c in original.chains if len(c.bones) == 2]
    # (in the order they evaluate in: Spine applies constraints in their order)
    assert sorted((c.name, c.bones, c.target, c.bend, c.mix) for c in back.chains) == \
        sorted((c.name, c.bones, c.target, c.bend, c.mix) for c in two_bone)
    for chain in two_bone:
        declared, read = original.target(chain.target).space, back.target(chain.target).space
        # a target that switches spaces comes back in the space it starts in (the export
        # carries it into that space frame by frame)
        assert read.default == declared.value_at(original.timeline.start) and read.keys == ()
        if not declared.keys:
            target = original.target(chain.target).position
            assert (back.target(chain.target).position.keys == ()) == (target.keys == ())
    before, after = original.space("character"), back.space("character")
    for field in ("position", "rotation", "scale"):
        ch0, ch1 = getattr(before, field), getattr(after, field)
        assert _keys(ch0) == _keys(ch1)
        if not ch0.keys:
            assert ch1.default == pytest.approx(ch0.default, abs=1e-6)


def test_animations_whose_still_character_differs_play_each_from_the_one_setup_pose():
    # The root's setup is the first animation's still character (the shared defaults:
    # moved, turned, scaled); another animation that keys the character keys the root
    # from that setup.
    from rigeditor.edits import animations
    from rigeditor.examples.rigs import arm
    from rigeditor.io.spine.write import spine_document_many
    from rigeditor.model.data import clips
    from rigeditor.model.data.timeline import constant, keyed

    from spine_pose import spine_pose

    still = arm().with_space("character", position=constant(30.0, -12.0), rotation=constant(0.4),
                             scale=constant(1.5, 1.5))
    project = animations.duplicate(still, clips.names(still)[0], "moved")
    moved = clips.switch(project, "moved").with_space(
        "character", position=keyed([(0, (0.0, 0.0)), (48, (20.0, 5.0))], "bezier"),
        rotation=keyed([(0, 0.1), (48, 0.9)], "bezier"), scale=keyed([(0, (1.0, 1.0)), (48, (2.0, 0.5))]))
    first = clips.switch(moved, clips.names(moved)[0])
    assert first.space("character").rotation.keys == () and moved.space("character").rotation.keys
    items = [(clips.names(moved)[0], first, evaluate(first)), ("moved", moved, evaluate(moved))]
    doc = spine_document_many(items)
    for name, p, bake in items:
        for i in range(0, len(bake), 8):
            pose = spine_pose(doc, i / bake.fps, name)
            for k, bone in enumerate(bake.bones):
                assert np.hypot(*(pose[bone][0] - bake.joint_world[i, k])) < 1e-3
                assert np.hypot(*(pose[bone][1] - bake.tip_world[i, k])) < 1e-3


def test_shear_and_inherit_modes_are_exported_and_come_back(tmp_path):
    from rigeditor.examples.rigs import walk
    from rigeditor.model.data.timeline import StepChannel, constant, keyed

    project = walk().with_bone("head", shear=constant(0.2, -0.1), inherit=StepChannel("noScale")) \
        .with_bone("spine", shear=keyed([(0, (0.0, 0.0)), (24, (0.3, 0.1)), (48, (0.0, 0.0))]),
                   inherit=StepChannel("normal", ((12.0, "onlyTranslation"), (30.0, "normal"))))
    skeleton = tmp_path / "walk.json"
    export_spine_json(project, evaluate(project), skeleton)
    import_spine(skeleton, tmp_path / "back.rigproj", curves="authored")
    back = load_project(tmp_path / "back.rigproj")
    assert back.bone("head").shear.value_at(0) == pytest.approx((0.2, -0.1), abs=1e-6)
    assert back.bone("head").inherit.default == "noScale"
    assert back.bone("spine").inherit.keys == ((12.0, "onlyTranslation"), (30.0, "normal"))
    before, after = evaluate(project), evaluate(back)
    for bone in ("spine", "head"):
        i, j = before.column(bone), after.column(bone)
        assert np.abs(before.tip_world[:, i] - after.tip_world[:, j]).max() < 1e-4
