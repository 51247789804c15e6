"""Project files: the examples, save/load round trips, degrees at the edge, and the
migration from every released schema version."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from documents import assert_same_document
from rigeditor.core.filters import Smoothing
from rigeditor.examples.files import example_file, load_example
from rigeditor.io import (
    EXTENSION, SCHEMA_VERSION, ProjectFileError, dumps_project, load_project, loads_project, save_project,
)
from rigeditor.io.schema.convert import to_document
from rigeditor.model import evaluate
from rigeditor.examples.rigs import EXAMPLES
from rigeditor.model.data.project import (
    Bone, Chain, LimitStrategy, Project, Space, Target, Timeline,
)
from rigeditor.model.data.timeline import Channel, Key, StepChannel
from rigeditor.model.validation.project import problems

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_example_files_load_validate_and_play_like_the_built_in_rig(name):
    loaded = load_example(name)
    assert problems(loaded) == []
    bake, reference = evaluate(loaded), evaluate(EXAMPLES[name]())
    assert np.isfinite(bake.local_rotation).all()
    # Angles are stored in degrees to 1e-9 degree: the pose may differ by that much.
    np.testing.assert_allclose(bake.local_rotation, reference.local_rotation, rtol=0, atol=1e-9)
    np.testing.assert_allclose(bake.tip_world, reference.tip_world, rtol=0, atol=1e-6)


def test_committed_example_files_are_what_the_code_builds():
    folder = Path(__file__).resolve().parents[2] / "resources" / "examples"
    assert sorted(p.stem for p in folder.glob(f"*{EXTENSION}")) == sorted(EXAMPLES)
    for name, build in EXAMPLES.items():
        committed = (folder / f"{name}{EXTENSION}").read_text(encoding="utf-8")
        assert_same_document(committed, dumps_project(build()),
                             f"resources/examples/{name}{EXTENSION} is stale: run rigeditor.examples.files.write_examples()")
        assert example_file(name).read_text(encoding="utf-8") == committed  # what the program reads


def test_write_examples_writes_the_committed_folder_by_default(tmp_path, monkeypatch):
    from rigeditor.examples import files as examples

    assert examples.SOURCE_RESOURCES == Path(__file__).resolve().parents[2] / "resources"
    monkeypatch.setattr(examples, "SOURCE_RESOURCES", tmp_path)
    written = examples.write_examples()
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == sorted(
        f"examples/{n}{EXTENSION}" for n in EXAMPLES)


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_save_then_load_gives_the_same_project_and_the_same_file(tmp_path, name):
    path = tmp_path / f"{name}{EXTENSION}"
    save_project(EXAMPLES[name](), path)
    first = path.read_bytes()
    loaded = load_project(path)
    assert to_document(loaded) == json.loads(first)
    save_project(loaded, path)
    assert path.read_bytes() == first  # re-saving a loaded file changes nothing


def _one_arm(**chain) -> Project:
    return Project(
        name="one arm", timeline=Timeline(24.0, 0, 10), spaces=(Space("character"),),
        bones=(Bone("upper", None, 100.0, rest_rotation=math.pi / 2,
                    rotation=Channel((0.0,), (Key(0, (0.0,), "bezier", (2.0, math.pi / 6)),
                                             Key(10, (math.pi,), "linear")))),
               Bone("lower", "upper", 80.0, rest_offset=(100.0, 0.0))),
        targets=(Target("hand", StepChannel("world"), Channel((120.0, 30.0))),),
        chains=(Chain("arm", ("upper", "lower"), "hand", **chain),),
    )


def test_angles_are_written_in_degrees_and_read_back_as_radians():
    project = _one_arm(limits=(None, (-math.radians(150), 0.0)))
    doc = json.loads(dumps_project(project))
    upper = doc["bones"][0]
    assert upper["rest_rotation"] == 90.0
    assert upper["rotation"]["keys"][0]["out_handle"] == [2.0, 30.0]  # dt frames, dv degrees
    assert upper["rotation"]["keys"][1]["value"] == 180.0
    assert doc["chains"][0]["limits"] == [None, [-150.0, 0.0]]
    upper["rest_rotation"] = 45
    back = loads_project(json.dumps(doc))
    assert back.bone("upper").rest_rotation == pytest.approx(math.pi / 4, abs=1e-15)
    assert back.chain("arm").limits[1] == pytest.approx((-math.radians(150), 0.0), abs=1e-15)


def _reach_expected(version: int = SCHEMA_VERSION) -> Project:
    """The rig of the fixtures, built by hand in model units (radians).

    Before version 4 the hand's automatic handles were plain Catmull-Rom slopes; the
    migration keeps the segment from frame 15 to 30 (it does not overshoot) by writing
    key 15's out handle: a third of 15 frames along the neighbours' secant
    ((40 - -60) / 30, (30 - 50) / 30) per frame. The segment before it overshot 120
    and becomes clamped."""
    out15 = (5.0, 100.0 / 30.0 * 5.0, -20.0 / 30.0 * 5.0) if version < 4 else None
    return Project(
        name="reach", timeline=Timeline(30.0, 0, 30),
        spaces=(Space("character", "world", Channel((10.0, 20.0)),
                      Channel((0.0,), (Key(0, (0.0,), "linear"), Key(30, (0.5,), "linear")))),
                Space("table", "world", Channel((200.0, 0.0)), Channel((0.25,)))),
        bones=(Bone("upper_arm", None, 150.0, rest_rotation=-0.5,
                    rotation=Channel((0.0,), (Key(0, (0.0,), "bezier", (5.0, 0.1)),
                                             Key(30, (0.2,), "linear", None, (-5.0, -0.1))))),
               Bone("forearm", "upper_arm", 125.0, rest_offset=(150.0, 0.0), rest_rotation=0.25)),
        targets=(Target("hand", StepChannel("table"), Channel((0.0, 50.0), (
            Key(0, (-60.0, 50.0), "bezier"), Key(15, (0.0, 120.0), "bezier", out15), Key(30, (40.0, 30.0))))),),
        chains=(Chain("arm", ("upper_arm", "forearm"), "hand", bend=Channel((-1.0,)),
                      softness=Channel((13.75 / 275.0,)), limits=(None, (-2.5, 0.0)),
                      strategy=LimitStrategy("accept", 0.1, 0.0, 2.0),
                      smoothing=Smoothing("ema", 0.1, 1.0, 0.0, 1.0)),),
    )


def _close(a, b, where="") -> bool:
    """Equal documents, floats to 1e-12 (degrees <-> radians round-off)."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), where
        return all(_close(a[k], b[k], f"{where}.{k}") for k in a)
    if isinstance(a, list):
        assert len(a) == len(b), where
        return all(_close(x, y, f"{where}[{i}]") for i, (x, y) in enumerate(zip(a, b)))
    if isinstance(a, float) or isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-9), where
        return True
    assert a == b, where
    return True


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION + 1))
def test_every_released_version_has_a_fixture_that_loads_to_the_same_rig(version):
    path = FIXTURES / f"v{version}_reach{EXTENSION}"
    assert json.loads(path.read_text())["schema_version"] == version
    _close(to_document(load_project(path)), to_document(_reach_expected(version)))


def test_version_1_softness_in_model_units_becomes_a_fraction_of_the_chain():
    old = load_project(FIXTURES / f"v1_reach{EXTENSION}")
    # 13.75 model units on a 150 + 125 chain is 5 % of its length.
    assert old.chain("arm").softness.default == pytest.approx((0.05,))
    new = load_project(FIXTURES / f"v2_reach{EXTENSION}")
    np.testing.assert_allclose(evaluate(old).tip_world, evaluate(new).tip_world, atol=1e-9)


def test_version_1_softness_that_cannot_be_converted_is_reported_with_the_rest():
    doc = json.loads((FIXTURES / f"v1_reach{EXTENSION}").read_text())
    doc["chains"][0]["bones"] = ["upper_arm", "elbow"]
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(doc))
    assert err.value.problems[0].startswith("chains[0].softness: cannot convert the version 1 softness")
    assert "chains[0].bones[1]: unknown bone 'elbow'" in err.value.problems


def test_a_file_from_a_newer_version_is_refused_saying_so():
    doc = json.loads((FIXTURES / f"v2_reach{EXTENSION}").read_text())
    doc["schema_version"] = SCHEMA_VERSION + 1
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(doc), "future.rigproj")
    (line,) = err.value.problems
    assert line.startswith("schema_version: this file was written by a newer RigEditor")
    assert f"schema_version {SCHEMA_VERSION + 1}" in line and "update RigEditor" in line


def test_a_json_file_that_is_not_a_project_is_refused():
    with pytest.raises(ProjectFileError) as err:
        loads_project('{"skeleton": {"spine": "4.2.0"}}')
    assert err.value.problems == ['format: not a RigEditor project (expected "rigeditor-project", missing)']
