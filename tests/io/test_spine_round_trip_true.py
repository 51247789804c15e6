"""Every built-in example exported to Spine and imported back is the same project: its
spaces (scene objects and switches included), targets and their keys, chains (solver,
bend, softness, mix, limits, strategy, smoothing), bones and their keys (count, times,
values, interpolation, bezier handles within 1e-6), art and meshes; in both import
modes (the authored curves and the runtime's straight pieces)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from rigeditor.examples.files import EXAMPLE_NAMES, resolve_project
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.write import export_spine_json
from rigeditor.model import evaluate

from round_trip_compare import project_differences


def round_trip(project, folder, tmp_path, curves="authored", **export):
    skeleton = tmp_path / f"{project.name}.json"
    export_spine_json(project, evaluate(project), skeleton, images=folder, **export)
    result = import_spine(skeleton, tmp_path / "back.rigproj", curves=curves)
    return load_project(tmp_path / "back.rigproj"), result


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
@pytest.mark.parametrize("curves", ["authored", "runtime"])
def test_an_exported_example_comes_back_as_the_same_project(name, curves, tmp_path):
    original, folder = resolve_project(name)
    back, _ = round_trip(original, folder, tmp_path, curves)
    assert project_differences(original, back) == []


def test_several_animations_come_back_each_with_its_own_keys_and_switches(tmp_path):
    # Two animations of the door: the second grabs the handle later and swings it the
    # other way; both come back with their own switch frames, keys and ranges.
    from rigeditor.edits import animations
    from rigeditor.model.data import clips
    from rigeditor.model.data.timeline import StepChannel, keyed

    door, folder = resolve_project("door")
    first = clips.names(door)[0]
    project = animations.duplicate(door, first, "late")
    late = clips.switch(project, "late")
    late = late.with_target("hand", space=StepChannel("world", ((30.0, "door_handle"),)))
    late = late.with_space("door", rotation=keyed([(0, 0.0), (30, 0.0), (60, -1.2)], "bezier"))
    whole = clips.switch(late, first)
    items = [(name, clips.switch(whole, name)) for name in clips.names(whole)]
    (n0, p0), *rest = items
    skeleton = tmp_path / "door.json"
    export_spine_json(p0, evaluate(p0), skeleton, animation=n0, images=folder,
                      more=[(n, p, evaluate(p)) for n, p in rest])
    import_spine(skeleton, tmp_path / "back.rigproj", curves="authored")
    back = load_project(tmp_path / "back.rigproj")
    assert clips.names(back) == [first, "late"]
    assert project_differences(whole, back) == []
    assert clips.switch(back, "late").target("hand").space.keys == ((30.0, "door_handle"),)


def test_a_timeline_that_starts_later_keeps_its_frames_and_its_art_keys(tmp_path):
    # Spine's time 0 is the first exported frame; the way back puts every key, the
    # slot and draw-order keys Spine holds too, on its own frame again.
    from dataclasses import replace

    arm, folder = resolve_project("dressed_arm")
    late = replace(arm, timeline=replace(arm.timeline, start=6))
    back, _ = round_trip(late, folder, tmp_path)
    assert project_differences(late, back) == []
    assert back.timeline.start == 6 and back.art.draw_order == late.art.draw_order


def test_curves_cut_for_the_runtimes_come_back_whole_and_sampled_ones_are_named(tmp_path):
    # The walk's spine sway: 5 authored bezier keys; Spine holds them cut where its
    # ten chords would stray from the curve (the same curve in more keys, silently).
    # The door's hand switches spaces: Spine holds it per frame, and the export says so.
    walk, _ = resolve_project("walk")
    notes = []
    skeleton = tmp_path / "walk.json"
    export_spine_json(walk, evaluate(walk), skeleton, notes=notes)
    doc = json.loads(skeleton.read_text(encoding="utf-8"))
    assert len(walk.bone("spine").rotation.keys) == 5 < len(doc["animations"]["walk"]["bones"]["spine"]["rotate"])
    assert not any("spine" in line for line in notes)
    import_spine(skeleton, tmp_path / "back.rigproj")
    assert load_project(tmp_path / "back.rigproj").bone("spine").rotation == walk.bone("spine").rotation

    door, _ = resolve_project("door")
    notes = []
    export_spine_json(door, evaluate(door), tmp_path / "door.json", notes=notes)
    doc = json.loads((tmp_path / "door.json").read_text(encoding="utf-8"))
    frames = door.timeline.end - door.timeline.start + 1
    assert len(doc["animations"]["door"]["bones"]["hand"]["translate"]) == frames
    assert [line for line in notes if "a key per frame" in line] == [
        "animation door: a key per frame instead of the authored keys (Spine cannot hold them as they are: a "
        "target switching spaces is carried into its first space frame by frame): hand position (4 keys); "
        "import-spine gives back the authored keys"]


def test_an_export_edited_since_is_imported_from_its_spine_data_with_a_warning(tmp_path):
    # The carried data belongs to the Spine data it was written with: after an edit of
    # a key elsewhere it would undo the edit, so the Spine data wins.
    tail, folder = resolve_project("tail")
    skeleton = tmp_path / "tail.json"
    export_spine_json(tail, evaluate(tail), skeleton)
    doc = json.loads(skeleton.read_text(encoding="utf-8"))
    doc["animations"]["tail"]["bones"]["tail_3"]["rotate"][10]["value"] += 5.0
    skeleton.write_text(json.dumps(doc), encoding="utf-8")
    result = import_spine(skeleton, tmp_path / "back.rigproj", curves="authored")
    back = load_project(tmp_path / "back.rigproj")
    assert any("skeleton.rigeditor" in w and "ignored" in w for w in result.warnings)
    assert back.chains == ()  # Spine's data has no ten-bone chain: its baked rotations play
    key = back.bone("tail_3").rotation.keys[10]
    assert key.value[0] == pytest.approx(np.radians(doc["animations"]["tail"]["bones"]["tail_3"]["rotate"][10]["value"]))


def test_carried_data_out_of_range_is_refused_naming_its_place(tmp_path):
    from rigeditor.io.spine.skeleton import SpineError

    arm, folder = resolve_project("arm")
    skeleton = tmp_path / "arm.json"
    export_spine_json(arm, evaluate(arm), skeleton)
    doc = json.loads(skeleton.read_text(encoding="utf-8"))
    doc["skeleton"]["rigeditor"]["animations"][0]["chains"][0]["mix"]["default"] = 2.0
    skeleton.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SpineError) as err:
        import_spine(skeleton, tmp_path / "back.rigproj")
    assert "skeleton.rigeditor.animations[0].chains.0.mix.default" in str(err.value)
    assert "between 0 and 1" in str(err.value)
    assert not (tmp_path / "back.rigproj").exists()


def test_a_target_space_spine_cannot_hold_is_refused_naming_the_chain_and_frames(tmp_path):
    # The character turned and squashed: the door (in world) seen from the root shears
    # on every frame, and a Spine bone cannot shear: the refusal says which chain needs
    # it, which frames and why; nothing is written.
    from rigeditor.io.errors import ExportError
    from rigeditor.model.data.timeline import StepChannel, constant

    door, _ = resolve_project("door")
    squashed = door.with_space("character", rotation=constant(0.3), scale=constant(2.0, 1.0)) \
        .with_target("hand", space=StepChannel("door_handle"))
    out = tmp_path / "door.json"
    with pytest.raises(ExportError) as err:
        export_spine_json(squashed, evaluate(squashed), out)
    text = str(err.value)
    assert "the space door in the character space, where chain arm's target hand is declared" in text
    assert f"is sheared at frames {door.timeline.start}-{door.timeline.end}" in text
    assert "Spine bones cannot shear" in text and not out.exists()


def test_a_bake_that_is_not_finite_is_refused_naming_the_chain_and_frames(tmp_path):
    from dataclasses import replace

    from rigeditor.io.errors import ExportError

    arm, _ = resolve_project("arm")
    bake = evaluate(arm)
    k = bake.column("forearm")
    rotation = np.array(bake.bone_bakes[k].local_rotation)
    rotation[10:13] = np.nan
    items = list(bake.bone_bakes)
    items[k] = replace(items[k], local_rotation=rotation)
    broken = replace(bake, bone_bakes=tuple(items))
    out = tmp_path / "arm.json"
    out.write_bytes(b"previous")
    with pytest.raises(ExportError) as err:
        export_spine_json(arm, broken, out, bake_ik=True)  # (baked: the rotations are written)
    assert err.value.problems == ["chain arm: not finite at frames 10-12; nothing was written"]
    assert out.read_bytes() == b"previous"


def test_a_target_starting_in_another_space_in_another_animation_is_refused_naming_chain_and_frame(tmp_path):
    from rigeditor.edits import animations
    from rigeditor.io.errors import ExportError
    from rigeditor.model.data import clips
    from rigeditor.model.data.timeline import StepChannel

    door, _ = resolve_project("door")
    first = clips.names(door)[0]
    project = animations.duplicate(door, first, "held")
    held = clips.switch(project, "held").with_target("hand", space=StepChannel("world", ((0.0, "door_handle"),)))
    whole = clips.switch(held, first)
    p0, p1 = clips.switch(whole, first), clips.switch(whole, "held")
    with pytest.raises(ExportError) as err:
        export_spine_json(p0, evaluate(p0), tmp_path / "door.json", animation=first,
                          more=[("held", p1, evaluate(p1))])
    text = str(err.value)
    assert "animations.held: chain arm: target bone 'hand' starts (frame 0) in another space ('door_handle')" in text
    assert "than in the first animation ('world')" in text


def test_an_imported_rigs_one_animation_keeps_its_name_through_an_export(tmp_path):
    import copy

    from rigeditor.cli import main
    from tests.io.spine_rigs import LEG, write_rig

    doc = copy.deepcopy(LEG)
    doc["animations"] = {"stomp": doc["animations"]["walk"]}  # one animation, with a name of its own
    import_spine(write_rig(tmp_path / "src", doc), tmp_path / "leg.rigproj")
    assert main(["bake", str(tmp_path / "leg.rigproj"), "-o", str(tmp_path / "out" / "leg.json"),
                 "--format", "spine"]) == 0
    assert list(json.loads((tmp_path / "out" / "leg.json").read_text())["animations"]) == ["stomp"]
    # an example's one unnamed animation still takes the rig's name, as files always had
    assert main(["bake", "walk", "-o", str(tmp_path / "walk.json"), "--format", "spine"]) == 0
    assert list(json.loads((tmp_path / "walk.json").read_text())["animations"]) == ["walk"]
