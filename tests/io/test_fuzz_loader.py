"""Fuzzing the loader: random mutations of valid files either load a valid project or
raise ProjectFileError with located problems; never any other exception."""
from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rigeditor.io import ProjectFileError, dumps_project, loads_project
from rigeditor.examples.rigs import EXAMPLES
from rigeditor.model.validation.project import problems

from tests.io.json_mutations import json_values, paths

DOCS = {name: json.loads(dumps_project(build())) for name, build in EXAMPLES.items()}
DOCS["v1"] = json.loads((Path(__file__).parent / "fixtures" / "v1_reach.rigproj").read_text())

def _retyped(value):
    """The same information in the wrong JSON type."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return 0 if value is None else None


@st.composite
def mutated_documents(draw):
    doc = json.loads(json.dumps(DOCS[draw(st.sampled_from(sorted(DOCS)))]))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from([p for p in paths(doc) if p]))
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        action = draw(st.sampled_from(["delete", "replace", "retype", "duplicate", "scale"]))
        if action == "delete":
            del parent[key]
        elif action == "replace":
            parent[key] = draw(json_values)
        elif action == "retype":
            parent[key] = _retyped(parent[key])
        elif action == "duplicate" and isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(parent[key])))
        elif action == "scale" and isinstance(parent[key], (int, float)) and not isinstance(parent[key], bool):
            parent[key] = parent[key] * draw(st.sampled_from([-1, 0, 1e300, 1e-300, 7]))
    return doc


def _check(text):
    try:
        project = loads_project(text, "fuzz.rigproj")
    except ProjectFileError as err:
        assert err.problems and all(isinstance(p, str) and p for p in err.problems)
        return
    assert problems(project) == []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_documents())
def test_mutated_documents_load_or_fail_with_the_projects_own_error(doc):
    _check(json.dumps(doc))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(DOCS)), st.data())
def test_damaged_bytes_load_or_fail_with_the_projects_own_error(name, data):
    raw = bytearray(json.dumps(DOCS[name]).encode())
    for _ in range(data.draw(st.integers(1, 4))):
        if not raw:
            break
        at = data.draw(st.integers(0, len(raw) - 1))
        how = data.draw(st.sampled_from(["cut", "flip", "insert", "delete"]))
        if how == "cut":
            del raw[at:]
        elif how == "flip":
            raw[at] = data.draw(st.integers(0, 255))
        elif how == "insert":
            raw[at:at] = data.draw(st.sampled_from([b"NaN", b"1e999", b"-", b"{", b"]", b'"', b"\\", b"\xff"]))
        else:
            del raw[at]
    _check(bytes(raw))
