"""Which slots a clipping polygon masks: from the slot after it to its end slot, in
the frame's draw order, as Spine's renderers walk it."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.evaluation.clipping import clipped_by
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import write_rig
from tests.io.test_spine_shapes import shapes_doc


def _project(tmp_path, doc=None):
    import_spine(write_rig(tmp_path / "src", doc or shapes_doc()), tmp_path / "p.rigproj")
    return load_project(tmp_path / "p.rigproj")


def _clipped(project, frames):
    bake = evaluate(project, np.asarray(frames, float))
    names = bake.art.slots
    return [{names[s]: names[c] for s, c in clipped_by(project.art, bake.art.row(i)).items()}
            for i in range(len(frames))]


def test_clipping_runs_to_its_end_slot_and_no_further(tmp_path):
    project = _project(tmp_path)  # order: clip, thigh, shin (the end), hitbox, muzzle
    assert _clipped(project, [0]) == [{"thigh": "clip", "shin": "clip"}]


def test_an_end_slot_drawn_before_the_clip_clips_to_the_end(tmp_path):
    project = _project(tmp_path)
    art = project.art.with_draw_order_key(4.0, ("shin", "clip", "thigh", "hitbox", "muzzle"))
    project = replace(project, art=art)
    before, after = _clipped(project, [3, 4])
    assert before == {"thigh": "clip", "shin": "clip"}
    assert after == {"thigh": "clip", "hitbox": "clip", "muzzle": "clip"}


def test_an_empty_end_slot_still_ends_the_clip_and_a_hidden_clip_clips_nothing(tmp_path):
    doc = shapes_doc()
    del doc["slots"][2]["attachment"]  # the shin (the end slot) shows nothing
    project = _project(tmp_path, doc)
    assert _clipped(project, [0]) == [{"thigh": "clip"}]
    hidden = replace(project, art=project.art.with_slot("clip", attachment=replace(
        project.art.slot("clip").attachment, default="")))
    assert _clipped(hidden, [0]) == [{}]


def test_clipping_does_not_nest(tmp_path):
    doc = shapes_doc()
    doc["slots"].insert(2, {"name": "clip2", "bone": "root", "attachment": "mask2"})
    doc["skins"][0]["attachments"]["clip2"] = {"mask2": {"type": "clipping", "end": "muzzle", "vertexCount": 3,
                                                         "vertices": [0, 0, 10, 0, 0, 10]}}
    project = _project(tmp_path, doc)  # clip, thigh, clip2 (ignored: clip is on), shin (end), hitbox, muzzle
    assert _clipped(project, [0]) == [{"thigh": "clip", "shin": "clip"}]
