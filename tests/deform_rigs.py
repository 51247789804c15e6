"""A small rig with a quad mesh, unweighted or weighted, for the deform tests."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rigeditor.model.data.attachments import Art, Slot
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import StepChannel, keyed

QUAD = np.array([[-10.0, -5.0], [10.0, -5.0], [10.0, 5.0], [-10.0, 5.0]])
TRIS = [[0, 1, 2], [0, 2, 3]]
UVS = [[0, 1], [1, 1], [1, 0], [0, 0]]


def _m(th, x=0.0, y=0.0):
    c, s = math.cos(th), math.sin(th)
    return np.array([[c, -s, x], [s, c, y], [0, 0, 1.0]])


def rig(weighted=False) -> Project:
    """A root bone at (3, 4) turning 0 -> 90 degrees over frames 0..10 and a child
    at 20 units along it turning 0 -> -45 degrees; a quad mesh on the root's slot,
    unweighted or weighted to both bones."""
    bones = (Bone("a", None, 20.0, rest_offset=(3.0, 4.0), rotation=keyed([(0, 0.0), (10, math.pi / 2)])),
             Bone("b", "a", 20.0, rest_offset=(20.0, 0.0), rotation=keyed([(0, 0.0), (10, -math.pi / 4)])))
    extra = {}
    if weighted:
        # bind at the setup pose: each bone's setup frame in the slot bone (a)'s frame
        extra = dict(bones=("a", "b"), bind=[[1, 0, 0, 1, 0, 0], [1, 0, 0, 1, 20, 0]],
                     indices=[[0, 1, 0, 0]] * 4, weights=[[0.7, 0.3, 0, 0], [0.2, 0.8, 0, 0], [0.5, 0.5, 0, 0],
                                                          [1.0, 0, 0, 0]])
    mesh = MeshAttachment("m", "m.png", 20.0, 10.0, x=1.0, y=2.0, vertices=QUAD, uvs=UVS, triangles=TRIS,
                          edges=[[0, 1], [1, 2], [2, 3], [3, 0]], **extra)
    art = Art((Slot("s", "a", (mesh,), StepChannel("m")),))
    return replace(Project(), bones=bones, art=art, timeline=Timeline(30.0, 0, 12))


def world(frame):
    """Bones a, b world matrices at ``frame`` by hand (linear rotation keys)."""
    u = min(frame, 10) / 10
    a = _m(u * math.pi / 2, 3, 4)
    return a, a @ _m(-u * math.pi / 4, 20, 0)
