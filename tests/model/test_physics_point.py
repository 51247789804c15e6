"""Physics on a point bone (Spine's length 0, RigEditor's POINT_LENGTH): its tip is its
origin, as spine-core 4.2 measures it, worked out by hand from the stepping rules.

The rotation swings the bone's x axis toward where its tip was plus its own motion
since the frame before, reversed; for a point that is the motion alone, and a bone
that does not move has the direction atan2(0, 0) = 0 (world +x). The scale's drag
divides by the tip's reach, which a point does not have, so the motion leaves it be.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from rigeditor import edits
from rigeditor.model.data.project import POINT_LENGTH, Bone, Project, Timeline
from rigeditor.model.data.timeline import keyed
from rigeditor.model.evaluation.evaluate import evaluate

pytestmark = pytest.mark.usefixtures("both_physics_loops")  # compiled and Python stepping

FPS, END = 30.0, 20


def point_rig(move=(0.0, 0.0), rest=math.pi / 2, **physics) -> Project:
    """A point bone at rest angle ``rest`` moving by ``move`` a frame (linear keys),
    its physics with inertia 1, no spring, no wind or gravity unless given."""
    hip = Bone("hip", None, POINT_LENGTH, rest_rotation=rest,
               translate=keyed([(0, (0.0, 0.0)), (END, (END * move[0], END * move[1]))]))
    p = Project(timeline=Timeline(fps=FPS, start=0, end=END), bones=(hip,))
    p = edits.add_physics(p, "hip", name="p", x=0.0, **{k: physics.pop(k) for k in ("rotate", "scale_x")
                                                          if k in physics})
    for k, v in {"inertia": 1.0, "strength": 0.0, "wind": 0.0, "gravity": 0.0, **physics}.items():
        p = edits.set_physics_value(p, "p", k, v)
    return p


def axis(bake):
    w = bake.bone_bakes[0].world
    a, c = (np.broadcast_to(v, bake.frames.shape) for v in (w.a, w.c))
    return np.arctan2(c, a), np.hypot(a, c)


def test_a_still_point_turns_to_world_x():
    angle, _ = axis(evaluate(point_rig(rotate=1.0)))
    assert angle[0] == pytest.approx(math.pi / 2, abs=1e-12)  # the first frame starts from rest
    assert angle[1:] == pytest.approx(np.zeros(END), abs=1e-9)  # atan2(0, 0) from frame 1 on


@pytest.mark.parametrize("move", [(3.0, 4.0), (-2.0, 0.5), (0.0, -5.0)])
def test_a_moving_point_trails_its_motion(move):
    angle, _ = axis(evaluate(point_rig(move=move, rotate=1.0)))
    behind = math.atan2(-move[1], -move[0])  # opposite the motion of each frame
    assert np.cos(angle[1:] - behind) == pytest.approx(np.ones(END), abs=1e-9)


def test_a_points_motion_leaves_its_scale_be():
    _, scale = axis(evaluate(point_rig(move=(3.0, 4.0), scale_x=1.0)))
    assert scale == pytest.approx(np.ones(END + 1), abs=1e-12)
