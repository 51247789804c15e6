"""IK softness keyed only in an animation is said, as setup softness is."""
from __future__ import annotations

import copy

import pytest

from rigeditor.io.import_spine import import_spine

from tests.io.spine_rigs import LEG, write_rig


def _warnings(tmp_path, ik_keys, setup_softness=0.0):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["softness"] = setup_softness
    doc["animations"]["walk"]["ik"] = {"leg": ik_keys}
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    return import_spine(write_rig(tmp_path / "src", doc), out).warnings


@pytest.mark.parametrize("setup, keys", [
    (0.0, [{"softness": 0}, {"time": 0.2, "softness": 12}]),  # keyed only in the animation
    (5.0, []),  # setup softness, no keys
])
def test_softness_in_the_setup_or_only_in_an_animation_is_one_warning(tmp_path, setup, keys):
    lines = [w for w in _warnings(tmp_path, keys, setup) if w.startswith("IK softness")]
    assert len(lines) == 1 and lines[0].endswith(": leg")


def test_no_softness_anywhere_says_nothing(tmp_path):
    assert not any(w.startswith("IK softness") for w in _warnings(tmp_path, [{"mix": 0.5}, {"time": 0.2}]))
