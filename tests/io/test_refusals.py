"""Bad project files are refused with every problem and where it is; never a traceback."""
from __future__ import annotations

import json

import pytest

from rigeditor.io import ProjectFileError, loads_project


def _refused(text) -> list[str]:
    with pytest.raises(ProjectFileError) as err:
        loads_project(text, "bad.rigproj")
    assert err.value.path == "bad.rigproj" and err.value.problems
    assert all(isinstance(p, str) and ": " in p for p in err.value.problems)
    return err.value.problems


def test_malformed_json_says_line_and_column():
    text = '{\n  "format": "rigeditor-project",\n  "schema_version": 2\n  "name": "x"\n}'
    assert _refused(text) == ["line 4, column 3: expected `,` or `}`"]


@pytest.mark.parametrize("token, column", [("NaN", 11), ("Infinity", 11), ("-Infinity", 11)])
def test_nan_and_infinity_tokens_are_refused(token, column):
    text = '{"format": "rigeditor-project",\n "value": ' + token + "}"
    assert _refused(text) == [f"line 2, column {column + (token[0] == '-')}: "
                              "NaN and Infinity are not allowed (numbers must be finite)"]


def test_a_number_too_large_for_a_float_is_refused_where_it_is(example_doc):
    text = json.dumps(example_doc("arm")).replace('"length": 125.0', '"length": 1e999')
    assert _refused(text) == ["bones[1].length: must be a finite number, got Infinity"]


def test_empty_and_non_utf8_files_are_refused():
    assert _refused(b"") == ["file: empty (a project is a JSON object)"]
    assert _refused(b'{"name": "\xff"}') == ["byte 10: the file is not UTF-8 text"]
    assert _refused("[1, 2]") == ["file: a project is a JSON object, got a list"]


def _mutated(example_doc, name, mutate) -> list[str]:
    doc = example_doc(name)
    mutate(doc)
    return _refused(json.dumps(doc))


CASES = {
    "missing field": (lambda d: d["bones"][1].pop("length"), ["bones[1].length: missing (required)"]),
    "unknown field": (lambda d: d["bones"][0].update(lenght=3), ["bones[0].lenght: unknown field"]),
    "wrong type": (lambda d: d["bones"][1].update(length="50"), ['bones[1].length: must be a number, got "50"']),
    "boolean for a number": (lambda d: d["timeline"].update(fps=True),
                             ["timeline.fps: must be a number, got true"]),
    "frame as text": (lambda d: d["targets"][0]["position"]["keys"][0].update(frame="1"),
                      ['targets[0].position.keys[0].frame: must be a number, got "1"']),
    "frame beyond the range": (lambda d: d["targets"][0]["position"]["keys"][0].update(frame=2e7),
                               ["targets[0].position.keys[0].frame: must be a frame number within +/-10,000,000, got 20000000.0"]),
    "zero bone length": (lambda d: d["bones"][1].update(length=0), ["bones[1].length: must be > 0, got 0"]),
    "negative bone length": (lambda d: d["bones"][1].update(length=-5), ["bones[1].length: must be > 0, got -5"]),
    "vector of the wrong size": (lambda d: d["bones"][0].update(rest_offset=[1]),
                                 ["bones[0].rest_offset: expected 2 numbers, got 1"]),
    "softness out of range": (lambda d: d["chains"][0]["softness"].update(default=3),
                              ["chains[0].softness.default: must be between 0 and 0.5, got 3"]),
    "limit min above max": (lambda d: d["chains"][0].update(limits=[None, [10, -10]]),
                            ["chains[0].limits[1]: must be [min, max] with min <= max (degrees), got [10, -10]"]),
    "chain bones not parent and child": (
        lambda d: d["bones"][1].update(parent=None),
        ["chains[0].bones[1]: 'forearm' is not a child of 'upper_arm'"]),
    "unknown space": (lambda d: d["targets"][0]["space"].update(default="moon"),
                      ["targets[0].space.default: unknown space 'moon'"]),
    "unknown parent space": (lambda d: d["spaces"][0].update(parent="moon"),
                             ["spaces[0].parent: unknown space 'moon'"]),
    "space cycle": (lambda d: d["spaces"].extend([{"name": "a", "parent": "b"}, {"name": "b", "parent": "a"}]),
                    ["spaces: cycle a -> b -> a"]),
    "duplicate names": (lambda d: d["chains"].append(dict(d["chains"][0], bones=[], solver="fabrik")),
                        ["chains[1].name: duplicate name 'arm'",
                         "chains[1].bones: a chain needs at least 2 bones (one bone: solver 'aim'), got 0"]),
    "keys out of order": (lambda d: d["targets"][0]["position"]["keys"][1].update(frame=40),
                          ["targets[0].position.keys[2].frame: keys must be in increasing frame order, got 24 after 40"]),
    "unknown solver": (lambda d: d["chains"][0].update(solver="magic"),
                       ["chains[0].solver: must be one of analytic, fabrik, ccd, aim, got 'magic'"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_kind_of_bad_value_is_refused_where_it_is(example_doc, case):
    mutate, expected = CASES[case]
    assert _mutated(example_doc, "arm", mutate) == expected


def test_every_problem_is_reported_at_once_ranges_and_semantics_together(example_doc):
    def mutate(d):
        d["chains"][2]["softness"]["default"] = 101  # a range (checked field by field)
        d["targets"][1]["name"] = "foot_l"  # a duplicate name (checked on the whole project)
        d["bones"][0]["length"] = -1  # a range both layers check: reported once

    found = _mutated(example_doc, "walk", mutate)
    assert found == ["bones[0].length: must be > 0, got -1",
                     "chains[2].softness.default: must be between 0 and 100, got 101",
                     "targets[1].name: duplicate name 'foot_l'",
                     "chains[1].target: unknown target 'foot_r'"]


def test_type_errors_are_all_listed_too(example_doc):
    def mutate(d):
        d["bones"][0]["length"] = "long"
        d["timeline"].pop("fps")
        d["chains"][0]["bend"]["keys"] = [{"frame": 0}]

    assert _mutated(example_doc, "walk", mutate) == [
        "timeline.fps: missing (required)",
        'bones[0].length: must be a number, got "long"',
        "chains[0].bend.keys[0].value: missing (required)",
    ]
