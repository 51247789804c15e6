"""Boxes, clipping polygons and points have no picture: on a joint's bones they change
no crack figure and divide nothing by their size of 0."""
from __future__ import annotations

import warnings

import numpy as np
from dataclasses import replace

from rigeditor.io.art.images import alpha_masks
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.diagnostics.cracks import crack_check
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import write_rig
from tests.io.test_spine_shapes import shapes_doc


def _cracks(project, folder):
    return crack_check(project, evaluate(project), alpha_masks(project, folder))  # the pictures' own alpha


def test_shapes_on_the_joints_bones_leave_the_cracks_as_they_are(tmp_path):
    import_spine(write_rig(tmp_path / "src", shapes_doc()), tmp_path / "p.rigproj")
    project = load_project(tmp_path / "p.rigproj")
    pictures = replace(project, art=replace(project.art, slots=tuple(
        s for s in project.art.slots if s.name in ("thigh", "shin"))))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division by a shape's zero size
        with_shapes = _cracks(project, tmp_path)
    alone = _cracks(pictures, tmp_path)
    assert [(c.joint, c.parent_slot, c.child_slot, c.radius) for c in with_shapes] == \
        [(c.joint, c.parent_slot, c.child_slot, c.radius) for c in alone] and alone  # the thigh and shin meet
    for a, b in zip(with_shapes, alone):
        assert np.allclose(a.area, b.area)
