"""move_root through evaluate() when the root smoothing window is longer than the shot."""
from dataclasses import replace

import numpy as np
import pytest

from rigeditor.core.limits import smooth_offsets
from rigeditor.model import evaluate
from rigeditor.examples.rigs import arm


def move_root(project, *, frames, **strategy):
    chain = project.chains[0]
    timeline = replace(project.timeline, end=project.timeline.start + frames - 1)
    return replace(project, timeline=timeline,
                   chains=(replace(chain, strategy=replace(chain.strategy, kind="move_root", **strategy)),))


# 5 frames -> a 61-frame window on the 49-frame arm; the default 2 frames -> 25 on 21.
@pytest.mark.parametrize("frames, time_constant", [(49, 5.0), (21, 2.0), (49, 1000.0)])
def test_long_root_smoothing_window_evaluates(frames, time_constant):
    raw = evaluate(move_root(arm(), frames=frames, max_root_offset=40.0, root_time_constant=0.0))
    bake = evaluate(move_root(arm(), frames=frames, max_root_offset=40.0, root_time_constant=time_constant))
    ch, raw_ch = bake.chains["arm"], raw.chains["arm"]
    assert len(bake) == frames
    assert np.any(np.hypot(*raw_ch.root_offset.T) > 1.0)  # the shoulder really leans
    # The shoulder leans by the smoothed per-frame offsets, within the bound.
    np.testing.assert_allclose(ch.root_offset, smooth_offsets(raw_ch.root_offset, time_constant), atol=1e-9)
    assert np.all(np.hypot(*ch.root_offset.T) <= 40.0 + 1e-9)
    # The residual is where the hand ended, measured in world here.
    gap = np.hypot(*(ch.end_world - ch.target_world).T)
    np.testing.assert_allclose(ch.residual, gap, atol=1e-9)
    assert np.all(np.isfinite(bake.joint_world))
