"""Meshes of the example limbs, shared by the mesh, weight and skinning tests (built once)."""
from __future__ import annotations

import pytest

from rigeditor.core.mesh import mesh_from_alpha
from rigeditor.core.mesh.shapes import ExampleArm, ExampleFingers


@pytest.fixture(scope="session")
def arm_mesh():
    return mesh_from_alpha(ExampleArm.alpha(), tolerance=1.0, spacing=12.0, joints=[ExampleArm.elbow, ExampleArm.wrist],
                           joint_spacing=6.0, joint_radius=50.0)


@pytest.fixture(scope="session")
def fingers_mesh():
    return mesh_from_alpha(ExampleFingers.alpha(), tolerance=1.0, spacing=8.0)
