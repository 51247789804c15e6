"""What `rigeditor validate` accepts, bake, report and render evaluate to finite
numbers; what they could not evaluate, validate refuses, naming the field and why.
Each hostile variant runs through every command in-process."""
from __future__ import annotations

import math

import pytest

from rigeditor.cli import main


def _handle(doc):
    doc["targets"][0]["position"]["keys"][1]["out_handle"] = [4.0, 1e300, 1e300]


def _scale(doc):
    doc["spaces"][0]["scale"]["default"] = [1e-300, 1e-300]


def _scale_through_zero(doc):
    doc["spaces"][0]["scale"]["keys"] = [{"frame": 0, "value": [1.0, 1.0]},
                                         {"frame": 20, "value": [-1.0, 1.0]}]


def _huge_root(doc):
    doc["chains"][0]["strategy"].update(kind="move_root", max_root_offset=1e300, root_time_constant=1e300)


def _long_root_window(doc):
    doc["chains"][0]["strategy"].update(kind="move_root", max_root_offset=30.0, root_time_constant=1000.0)
    doc["timeline"]["end"] = 20


def _bones(length):
    def mutate(doc):
        for bone in doc["bones"]:
            bone["length"] = length
        doc["bones"][1]["rest_offset"] = [length, 0.0]
        pos = doc["targets"][0]["position"]
        pos["default"] = [x * length / 100 for x in pos["default"]]
        for key in pos["keys"]:
            key["value"] = [x * length / 100 for x in key["value"]]
    return mutate


def _rest_rotation(doc):
    doc["bones"][0]["rest_rotation"] = 1e12


VARIANTS = {
    "handle 1e300": (_handle, "targets[0].position.keys[1].out_handle"),
    "space scale 1e-300": (_scale, "spaces[0].scale.default"),
    "space scale through zero": (_scale_through_zero, "spaces[0].scale: at frame 10"),
    "root offset and time constant 1e300": (_huge_root, None),
    "root window longer than the shot": (_long_root_window, None),
    "bones 1e-200": (_bones(1e-200), "bones[0].length"),
    "bones 1e-160": (_bones(1e-160), "bones[0].length"),
    "bones 1e-150": (_bones(1e-150), None),
    "bones 1e-12": (_bones(1e-12), None),
    "bones 1e8": (_bones(1e8), None),
}


@pytest.mark.parametrize("name", VARIANTS)
def test_every_command_completes_or_validate_refuses(name, project_file, tmp_path, capsys):
    mutate, refused_field = VARIANTS[name]
    path = str(project_file("arm", mutate))
    status = main(["validate", path])
    out, err = capsys.readouterr()
    if refused_field:
        assert status == 2
        line = next(x for x in err.splitlines() if refused_field in x)
        assert line.startswith("rigeditor: ")
    else:
        assert status == 0, err
    outputs = {"csv": tmp_path / "out.csv", "png": tmp_path / "out.png"}
    for argv in (["report", path], ["report", path, "--json"], ["bake", path, "-o", str(outputs["csv"])],
                 ["render", path, "--frame", "5", "-o", str(outputs["png"])]):
        status = main(argv)
        out, err = capsys.readouterr()
        assert "internal error" not in err, (argv, err)
        assert "nan" not in out.lower() and "inf" not in out.replace("info", "").lower(), (argv, out)
        if refused_field:
            assert status == 2 and err.startswith("rigeditor: ") and refused_field in err, (argv, err)
        else:
            assert status in (0, 1), (argv, err)  # 1: a report that found something
            assert "FAIL" not in out, (argv, out)
    if not refused_field:
        text = outputs["csv"].read_text()
        assert "nan" not in text.lower() and "inf" not in text.lower()
        assert outputs["png"].stat().st_size > 0


def test_angles_in_messages_are_in_the_file_s_degrees(project_file, capsys):
    path = str(project_file("arm", _rest_rotation))
    assert main(["validate", path]) == 2
    _, err = capsys.readouterr()
    line = next(x for x in err.splitlines() if "bones[0].rest_rotation" in x)
    assert "got 1e+12 deg" in line
    assert f"{math.radians(1e12):g}" not in line  # not the model's radians


def test_limits_in_messages_are_in_degrees(project_file, capsys):
    def mutate(doc):
        doc["bones"][1]["rotation"]["keys"] = [{"frame": 0, "value": 2e11}]
    path = str(project_file("arm", mutate))
    assert main(["validate", path]) == 2
    _, err = capsys.readouterr()
    assert "bones[1].rotation.keys[0].value: magnitude must be <= 5.72958e+10 deg, got 2e+11 deg" in err
