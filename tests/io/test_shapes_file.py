"""Bad boxes, clipping polygons, points and sequences in a project file are refused
naming where, and the file is left as it was."""
from __future__ import annotations

import json

import pytest

from rigeditor.io.errors import ProjectFileError
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine

from tests.io.spine_rigs import write_rig
from tests.io.test_spine_sequences import FRAME, sequence_doc
from tests.io.test_spine_shapes import shapes_doc


def _slot(data, name):
    return next(s for s in data["slots"] if s["name"] == name)


@pytest.mark.parametrize("change, where", [
    (lambda d: _slot(d, "hitbox")["attachments"][0].update(vertices=[[0, 0], [1, 1]]), "vertices"),
    (lambda d: _slot(d, "hitbox")["attachments"][0].update(path="x.png"), "path"),
    (lambda d: _slot(d, "clip")["attachments"][0].update(end="nowhere"), "end"),
    (lambda d: _slot(d, "clip")["attachments"][0]["influences"][0][0].__setitem__(0, 7), "influences[0]"),
    (lambda d: _slot(d, "muzzle")["attachments"][0].update(vertices=[[0, 0]] * 3), "vertices"),
])
def test_bad_shapes_are_refused_naming_where(tmp_path, change, where):
    import_spine(write_rig(tmp_path / "src", shapes_doc()), tmp_path / "p.rigproj")
    path = tmp_path / "p.rigproj"
    data = json.loads(path.read_text())
    change(data)
    text = json.dumps(data)
    path.write_text(text)
    with pytest.raises(ProjectFileError) as err:
        load_project(path)
    assert "slots[" in str(err.value) and where in str(err.value), str(err.value)
    assert path.read_text() == text


@pytest.mark.parametrize("value, what", [("spin 0 3 wing", "mode"), ("loop 0 3 plain", "no sequence"),
                                         ("loop -1 3 wing", "index")])
def test_bad_sequence_keys_are_refused_naming_the_key(tmp_path, value, what):
    src = write_rig(tmp_path / "src", sequence_doc())
    atlas = src.with_suffix(".atlas")
    atlas.write_text(atlas.read_text() + "".join(FRAME.format(f"wing{i:02d}") for i in range(1, 5)))
    import_spine(src, tmp_path / "p.rigproj")
    path = tmp_path / "p.rigproj"
    data = json.loads(path.read_text())
    _slot(data, "wing")["sequence"]["keys"][0]["value"] = value
    path.write_text(json.dumps(data))
    with pytest.raises(ProjectFileError) as err:
        load_project(path)
    assert ".sequence.keys[0].value" in str(err.value) and what in str(err.value), str(err.value)
