"""An incremental evaluation's artwork: meshes nothing moved keep their poses, and
every mesh's vertices equal a full evaluation's."""
import numpy as np

from rigeditor import edits
from rigeditor.examples.files import load_example
from rigeditor.edits.posing import set_target_key, turn_bone
from rigeditor.model import evaluate


def _rig():
    """The skinned arm (a mesh on upper_arm and forearm) solved by a chain, with a
    second bone of its own elsewhere."""
    project, _ = edits.add_chain(load_example("skinned_arm"), ("upper_arm", "forearm"), "character", 0)
    project, _ = edits.add_bone(project, None, 40.0, 1.0, name="other")
    return project


def _vertices(bake):
    return {(m.column, m.code): np.array([m.vertices(i) for i in range(len(bake))]) for m in bake.art.meshes}


def _equal(partial, full):
    a, b = _vertices(partial), _vertices(full)
    assert a.keys() == b.keys()
    for k in a:
        assert np.array_equal(a[k], b[k]), k


def test_an_edit_away_from_a_mesh_keeps_its_pose_and_its_vertices():
    project = _rig()
    first = evaluate(project)
    edited = turn_bone(project, "other", 10, 0.4, "animate")
    partial = evaluate(edited, previous=first, changed={"bone:other"})
    _equal(partial, evaluate(edited))
    assert partial.art.meshes[0] is first.art.meshes[0]  # not skinned again


def test_an_edit_of_the_chain_under_a_mesh_skins_it_again():
    project = _rig()
    first = evaluate(project)
    target = project.chains[0].target
    edited = set_target_key(project, target, 10, (60.0, 90.0))
    partial = evaluate(edited, previous=first, changed={f"target:{target}"})
    full = evaluate(edited)
    _equal(partial, full)
    assert partial.art.meshes[0] is not first.art.meshes[0]
    assert not np.array_equal(_vertices(first)[(0, 0)], _vertices(full)[(0, 0)])  # the edit moved the mesh


def _art_equal(partial, full):
    a, b = partial.art, full.art
    for name in ("attachment", "corners", "order", "color", "dark", "sequence"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    for f, g in zip(a.image_world.fields(), b.image_world.fields()):
        assert np.array_equal(np.broadcast_to(f, b.attachment.shape), np.broadcast_to(g, b.attachment.shape))


def test_a_drag_of_one_foot_places_the_pictures_on_that_leg_only():
    # dressed_walk: a picture on every bone. Moving the left foot's target moves the
    # left leg's two pictures; the other six keep their places (as a full evaluation
    # finds), and only the moved columns are placed again.
    project = load_example("dressed_walk")
    first = evaluate(project)
    edited = set_target_key(project, "foot_l", 20, (30.0, -10.0))
    partial = evaluate(edited, previous=first, changed={"target:foot_l"})
    full = evaluate(edited)
    _art_equal(partial, full)
    moved = np.flatnonzero((first.art.corners != full.art.corners).any(axis=(0, 2, 3)))
    assert {full.art.slots[k] for k in moved} == {"thigh_l", "shin_l"}


def test_a_bone_edit_together_with_an_artwork_edit_is_placed_afresh():
    # The artwork object changed too (a picture moved on its bone): nothing of the
    # previous art may be kept, though the bone edit alone would keep most of it.
    from rigeditor.edits.art import set_placement

    project = load_example("dressed_walk")
    first = evaluate(project)
    slot = project.art.slot("torso")
    edited = set_placement(turn_bone(project, "head", 10, 0.5, "animate"), "torso", slot.attachments[0].name,
                           x=slot.attachments[0].x + 7.0)
    partial = evaluate(edited, previous=first, changed={"bone:head"})
    full = evaluate(edited)
    _art_equal(partial, full)
    assert not np.array_equal(first.art.corners[:, full.art.column("torso")], full.art.corners[:, full.art.column("torso")])


def test_a_deformed_mesh_away_from_the_edit_keeps_its_pose_and_its_vertices():
    project = _rig()
    slot = project.art.slots[0]
    mesh = next(a for a in slot.attachments if hasattr(a, "triangles"))
    offsets = np.zeros((len(mesh.vertices), 4 if mesh.skinned else 1, 2))
    offsets[0, 0] = (3.0, -2.0)
    project = edits.deform.set_deform_key(project, slot.name, mesh.name, 12, offsets, skin=mesh.skin)
    first = evaluate(project)
    edited = turn_bone(project, "other", 10, 0.4, "animate")
    partial = evaluate(edited, previous=first, changed={"bone:other"})
    _equal(partial, evaluate(edited))
    assert partial.art.meshes[0] is first.art.meshes[0]  # the keys did not change: not skinned again
    rekeyed = edits.deform.set_deform_key(edited, slot.name, mesh.name, 12, offsets * 2, skin=mesh.skin)
    again = evaluate(rekeyed, previous=partial, changed={"bone:other"})
    _equal(again, evaluate(rekeyed))  # new keys: deformed afresh


def test_a_mesh_no_frame_shows_has_its_true_vertices_when_asked():
    # A second mesh of the same geometry in the arm's slot, never shown (another
    # skin's, say): asked for its vertices, it gives what the shown one gives.
    from dataclasses import replace

    project = _rig()
    slot = project.art.slots[0]
    mesh = next(a for a in slot.attachments if hasattr(a, "triangles"))
    twin = replace(mesh, name=mesh.name + "_twin")
    project = replace(project, art=project.art.with_slot(slot.name, attachments=slot.attachments + (twin,)))
    bake = evaluate(project)
    shown = next(m for m in bake.art.meshes if m.mesh is mesh)
    hidden = next(m for m in bake.art.meshes if m.mesh is twin)
    assert shown.shown.all() and not hidden.shown.any()
    for i in (0, len(bake) // 2, len(bake) - 1):
        assert np.array_equal(hidden.vertices(i), shown.vertices(i))
    row = bake.rows(5, 6).art.meshes[list(bake.art.meshes).index(hidden)]
    assert np.array_equal(row.vertices(0), shown.vertices(5))  # a row cut from the range, too


def test_a_drags_first_move_from_a_row_of_the_range_keeps_the_meshes_it_did_not_reach():
    # A drag starts from the range's row at the frame shown (Bake.rows cuts its own
    # copy of the character space): a mesh the edit does not reach keeps its pose.
    project = _rig()
    row = evaluate(project).rows(10, 11)
    edited = turn_bone(project, "other", 10, 0.4, "animate")
    partial = evaluate(edited, np.array([10.0]), previous=row, changed={"bone:other"})
    _equal(partial, evaluate(edited, np.array([10.0])))
    assert partial.art.meshes[0] is row.art.meshes[0]
