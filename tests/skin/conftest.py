"""Fixtures of the skinning tests: the seam examples built in memory."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def arm_alpha():
    from rigeditor.examples.skin_files import paint_arm

    return paint_arm()["arm"][..., 3] / 255.0


@pytest.fixture(scope="session")
def skinned(arm_alpha):
    from rigeditor.examples.skin import skinned_arm

    return skinned_arm(arm_alpha)
