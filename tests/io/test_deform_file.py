"""Deform keys in the project file: saved, read back equal (the open animation's and
a stored one's), optional (an older file reads unchanged), refused with where."""
from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from deform_rigs import rig

from rigeditor import edits
from rigeditor.io.errors import ProjectFileError
from rigeditor.io.project_file import dumps_project, loads_project
from rigeditor.model.data import clips
from rigeditor.model.data.project import Animation


def _deformed():
    d = np.random.default_rng(1).normal(size=(4, 4, 2))
    p = edits.set_deform_key(rig(weighted=True), "s", "m", 1, d, interpolation="bezier", curve=(0.1, 0.4, 0.7, 1.1))
    p = edits.set_deform_key(p, "s", "m", 5.5, -d, interpolation="stepped")
    p = edits.set_deform_key(p, "s", "m", 9, 0 * d)
    return replace(p, animations=(Animation(p.animation, 0, 12), Animation("still", 0, 3)))


def test_deform_keys_survive_a_save_and_a_stored_animation_keeps_its_own():
    p = _deformed()
    back = loads_project(dumps_project(p))
    assert back.art.deforms == p.art.deforms
    other = edits.set_deform_key(clips.switch(p, "still"), "s", "m", 2, np.ones((4, 4, 2)))
    back = loads_project(dumps_project(other))
    assert back.art.deforms == other.art.deforms
    reopened = clips.switch(back, p.animation)
    assert reopened.art.deforms == p.art.deforms


def test_a_file_without_deforms_has_no_deforms_field():
    text = dumps_project(rig())
    assert "deforms" not in json.loads(text)
    assert loads_project(text).art.deforms == ()


def test_a_bad_deform_in_a_file_is_refused_with_where():
    data = json.loads(dumps_project(_deformed()))
    data["deforms"][0]["keys"][1]["offsets"] = data["deforms"][0]["keys"][1]["offsets"][:3]
    with pytest.raises(ProjectFileError, match=r"deforms\[0\]\.keys\[1\]\.offsets: the mesh needs 4 vertices"):
        loads_project(json.dumps(data))
    data = json.loads(dumps_project(_deformed()))
    data["deforms"][0]["keys"][0]["interpolation"] = "smooth"
    with pytest.raises(ProjectFileError, match=r"deforms\[0\]\.keys\[0\]\.interpolation"):
        loads_project(json.dumps(data))
