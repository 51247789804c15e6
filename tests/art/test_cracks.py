"""The crack check against the gap's area worked out by hand.

Two h = 40 px thick pictures meet end to end at an elbow. Turning the forearm by
theta about the joint opens, on the outer side, a kite between the two end lines and
the two outer edges: vertices the joint, (0, -h/2), (h/2 tan(theta/2), -h/2) and the
forearm's turned corner, area 2 * 1/2 * (h/2) * (h/2) tan(theta/2) = h^2/4 tan(theta/2).
The inner side overlaps (no gap), and the ground the forearm swept away from is not a
crack.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from rigeditor.model import evaluate
from rigeditor.model.data.attachments import Art, ImageAttachment, Slot
from rigeditor.model.diagnostics.cracks import MIN_AREA, crack_check
from rigeditor.model.data.project import CHARACTER, Bone, Project, Space, Timeline
from rigeditor.model.data.timeline import StepChannel, keyed

H = 40.0


def _elbow(degrees_at_10=60.0):
    upper = ImageAttachment("upper", "a/upper.png", 100.0, H, x=50.0)  # x from 0 to the joint at 100
    fore = ImageAttachment("fore", "a/fore.png", 100.0, H, x=50.0)  # from the joint on
    return Project(
        timeline=Timeline(24.0, 0, 10), spaces=(Space(CHARACTER),),
        bones=(Bone("upper", None, 100.0),
               Bone("fore", "upper", 100.0, rest_offset=(100.0, 0.0),
                    rotation=keyed([(0, 0.0), (10, math.radians(degrees_at_10))]))),
        art=Art((Slot("upper", "upper", (upper,), StepChannel("upper")),
                 Slot("fore", "fore", (fore,), StepChannel("fore")))),
    )


def test_the_gap_is_the_outer_triangle_of_the_bent_elbow():
    bake = evaluate(_elbow())
    (crack,) = crack_check(_elbow(), bake, {})
    assert (crack.joint, crack.parent_slot, crack.child_slot, crack.radius) == ("fore", "upper", "fore", H)
    expected = _kite(6.0 * bake.frames, H)
    assert crack.area[0] == 0.0  # the setup pose covers itself
    np.testing.assert_allclose(crack.area[1:], expected[1:], rtol=0.03, atol=2.0)
    assert list(crack.frames(bake.frames)) == list(bake.frames[1:])
    assert MIN_AREA < expected[1]


def _kite(degrees, h):
    return h * h / 4.0 * np.tan(np.radians(np.abs(degrees)) / 2.0)


def test_the_silhouette_not_the_rectangle_decides():
    # Transparent top and bottom quarters: the visible limb is 20 px thick.
    mask = np.zeros((40, 100), dtype=bool)
    mask[10:30] = True
    project = _elbow()
    bake = evaluate(project)
    (crack,) = crack_check(project, bake, {("upper", "upper"): mask, ("fore", "fore"): mask})
    expected = _kite(6.0 * bake.frames, 20.0)
    np.testing.assert_allclose(crack.area[1:], expected[1:], rtol=0.05, atol=2.0)


@pytest.mark.parametrize("degrees", [-60.0, 60.0])
def test_bending_either_way_opens_the_same_gap_mirrored(degrees):
    project = _elbow(degrees)
    (crack,) = crack_check(project, evaluate(project), {})
    assert crack.area[-1] == pytest.approx(_kite(degrees, H), rel=0.03)


def test_the_crack_cells_drawn_at_a_frame_lie_in_the_kite_and_add_up_to_its_area():
    from rigeditor.model.diagnostics.cracks import crack_points

    project = _elbow()
    bake = evaluate(project)
    (crack,) = crack_check(project, bake, {})
    ((one, points),) = crack_points(project, bake, {}, 10)
    assert one.area[0] == crack.area[10]
    theta = math.radians(60.0)
    # The kite: right of the upper arm's end (x > 100), below the joint, left of the
    # turned forearm's end line, above both outer edges.
    x, y = points[:, 0] - 100.0, points[:, 1]
    assert (x > 0).all() and (y < 0).all()
    assert (x * math.cos(theta) + y * math.sin(theta) < 0).all()
    assert (y > -H / 2).all() and (-x * math.sin(theta) + y * math.cos(theta) > -H / 2).all()
