"""Failures the Spine import fuzz test found, one explicit mutation each: a value the
project would refuse (or the solver could not take) is refused at import, naming its
JSON path and value in Spine's units; what RigEditor can represent imports, validates
and evaluates."""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from rigeditor.model.data.project import MAX_SOFTNESS
from rigeditor.io.spine.read import spine_project
from rigeditor.io.spine.skeleton import SpineError, parse_spine
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems

from tests.io.test_import_spine_fuzz import DOC, _Pages


def _import(*mutations, curves="runtime"):
    doc = copy.deepcopy(DOC)
    for path, value in mutations:
        node = doc
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
    return spine_project(parse_spine(json.dumps(doc)), _Pages(), curves=curves)


MESH = ("skins", 0, "attachments", "shin", "mesh")
WALK = ("animations", "walk")


@pytest.mark.parametrize("path, value, says", [
    # Passed the reader, then the solver refused them (or divided by zero) mid-import.
    (("bones", 3, "length"), 1.0000000000000002e150, "bones[3].length: must have magnitude <= 1e+09"),
    (("bones", 1, "x"), 1.0000000000000002e150, "bones[1].x: must have magnitude <= 1e+09"),
    (("bones", 3, "length"), 5.761704222474678e17, "bones[3].length: must have magnitude <= 1e+09"),
    (("bones", 3, "x"), 5.761704222474678e17, "bones[3].x: must have magnitude <= 1e+09"),
    (WALK + ("bones", "foot_target", "translate", 1, "y"), -1e10,
     "animations.walk.bones.foot_target.translate[1].y: must have magnitude <= 1e+09"),
    (WALK + ("bones", "thigh", "rotate", 0, "curve", 1), 1e12,
     "animations.walk.bones.thigh.rotate[0].curve[1]: must have magnitude <= 1e+09"),
    # Within range alone, beyond it once mapped (a translate key on the target's setup position).
    (("bones", 4, "y"), -999999931.0,
     "animations.walk.bones.foot_target.translate[1].y: -70 becomes -1000000001 in RigEditor"),
    (MESH + ("vertices", 2), 2e9, "skins[0].attachments.shin.mesh.vertices[2]: must have magnitude <= 1e+09"),
    # A mesh's lists are checked whole: a bool, a string or a fraction where an index belongs.
    (MESH + ("vertices", 2), True, "skins[0].attachments.shin.mesh.vertices: must be a list of numbers, got"),
    (MESH + ("uvs", 1), "0.5", "skins[0].attachments.shin.mesh.uvs: must be a list of numbers, got"),
    (MESH + ("uvs", 1), float("nan"), "skins[0].attachments.shin.mesh.uvs: must be a list of numbers, got"),
    (MESH + ("triangles", 0), 0.5, "skins[0].attachments.shin.mesh.triangles: must be a list of whole numbers"),
    # Imported, then refused as "the mapped rig is invalid" without saying where in Spine's file.
    (("bones", 3, "length"), 1e-300, "bones[3].length: must be 0 (a point) or >= 1e-150"),
    # Scale 0 and sign changes are legal (above an IK chain too, tests/io/test_import_spine_as_written.py);
    # a weighted mesh is bound in its slot bone's setup frame, which must not be collapsed.
    (("bones", 1, "scaleX"), 0, "skins[0].attachments.shin.mesh.vertices: a weighted mesh on slot bone 'shin', "
                                "whose setup scale is 0"),
    # (UVs outside the picture and single flat triangles import: test_import_spine_mesh_quirks.py.)
    (MESH + ("triangles", 1), 0, "skins[0].attachments.shin.mesh.triangles: every triangle repeats a vertex"),
    (MESH + ("vertices", 4), -1, "skins[0].attachments.shin.mesh.vertices[0:5]: a vertex's weights must be >= -0.01"),
    (MESH + ("vertices", 1), 0, "skins[0].attachments.shin.mesh.vertices: vertex 0 has no weight on a bone "
                                "other than the root"),
    (("skins", 0, "attachments", "thigh"), {"": {}}, "skins[0].attachments.thigh.: an attachment needs a "
                                                     "non-empty name"),
    (("skins", 0, "attachments", "shin", "shin", "scaleX"), 0,
     "skins[0].attachments.shin.shin.scaleX: 0 at width 12 on a 4-pixel picture scales it by 0"),
    (("skins", 0, "attachments", "shin", "shin", "scaleX"), 1e9,
     "skins[0].attachments.shin.shin.scaleX: 1e+09 at width 12 on a 4-pixel picture scales it by 3e+09"),
])
def test_values_rigeditor_cannot_take_are_refused_where_they_are(path, value, says):
    with pytest.raises(SpineError) as err:
        _import((path, value))
    assert len(err.value.problems) == 1
    assert err.value.problems[0].startswith(says), err.value.problems[0]


def test_the_ik_softness_keys_follow_the_softness_curve():
    # A key's curve lists the mix curve (4 numbers), then the softness curve: the
    # softness channel took the mix curve's values (mix 1 -> softness 1 / limb).
    doc = (WALK + ("ik", "leg"), [{"mix": 0.5, "softness": 0, "curve": [0.1, 0.9, 0.2, 1, 0.1, 4, 0.2, 8]},
                                  {"time": 0.3, "mix": 1, "softness": 10}])
    project = _imports_and_evaluates(_import(doc, curves="authored"))
    limb = 50.08991914547278 + 45  # thigh (drawn to the shin's origin: hypot(50, 3)) + shin
    soft = project.chain("leg").softness.keys
    assert soft[0].out_handle == pytest.approx((3.0, 4 / limb)) and soft[1].in_handle == pytest.approx((-3.0, (8 - 10) / limb))


def _imports_and_evaluates(result):
    project = result.project
    assert problems(project) == []
    bake = evaluate(project, project.timeline.frames)
    assert all(np.all(np.isfinite(f)) for f in bake.bone_world.fields()) and np.all(np.isfinite(bake.tip_world))
    return project


def test_a_shin_below_rounding_of_the_thigh_imports_straight():
    # A length the project accepts (>= 1e-150) that divided by zero in the IK solve.
    project = _imports_and_evaluates(_import((("bones", 3, "length"), 1.9555369991788435e-67)))
    assert project.bone("shin").length == 1.9555369991788435e-67


def test_ik_setup_mix_and_softness_are_clamped_as_the_chain_has_them():
    # The animation's IK timeline started from the raw setup values (mix -1e9,
    # softness 1e9 / limb), which the project refuses; the chain itself clamps them.
    project = _imports_and_evaluates(_import((("ik", 0, "mix"), -1e9), (("ik", 0, "softness"), 1e9)))
    chain = project.chain("leg")
    assert chain.mix.default == (0.0,) and chain.softness.default == (MAX_SOFTNESS,)


@pytest.mark.parametrize("fps", [1e9, 0.5, 1e-300])
def test_a_skeleton_frame_rate_beyond_reason_is_not_the_timeline_s(fps):
    # 1e9 fps made 4e8 frames of a 0.4 s walk (gigabytes); 1e-300 put every key on frame 0.
    project = _imports_and_evaluates(_import((("skeleton", "fps"), fps)))
    assert project.timeline.fps == 30.0 and project.timeline.end == 12  # 0.4 s at 30 fps


def _mesh_in_slot(project):
    mesh = next(a for s in project.art.slots for a in s.attachments if a.kind == "mesh")
    return mesh.local().apply(mesh.vertices)  # setup vertices in the slot bone's frame


def test_texture_points_nearly_on_a_line_keep_the_mesh_where_spine_puts_it():
    # The picture's placement fitted to such UVs scaled it by 2e15 (refused by the
    # project); the UVs move no vertex, so the mesh stays where the plain import has it.
    plain = _mesh_in_slot(_import().project)
    project = _imports_and_evaluates(_import((MESH + ("uvs", 2), 3.665366114913723e-15)))
    assert np.allclose(_mesh_in_slot(project), plain, rtol=0, atol=1e-9)


def test_a_refusal_while_mapping_names_the_skeleton_file(tmp_path):
    from rigeditor.io.spine.read import import_spine
    from tests.io.spine_rigs import LEG, write_rig

    doc = copy.deepcopy(LEG)
    doc["skins"][0]["attachments"]["shin"]["shin"]["scaleX"] = 0  # refused once the picture's size is known
    src = write_rig(tmp_path / "src", doc)
    with pytest.raises(SpineError) as err:
        import_spine(src, tmp_path / "out.rigproj")
    assert err.value.path == str(src)
    assert err.value.problems[0].startswith("skins[0].attachments.shin.shin.scaleX: 0 at width 12")
    assert not (tmp_path / "out.rigproj").exists()
