"""The per-chain report: what the Bake says about each chain, and the pipeline gate."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rigeditor.io.report import build_report, format_report
from rigeditor.model import evaluate
from rigeditor.model.evaluation.bake import CAUSES
from rigeditor.examples.rigs import arm, walk


def test_the_arm_reaching_beyond_full_extension_is_explained_not_failed():
    bake = evaluate(arm())
    report = build_report(bake, "arm")
    chain = report["chains"]["arm"]
    out_of_reach = [int(f) for f in bake.frames[bake.chains["arm"].cause == CAUSES.index("out_of_reach")]]
    assert out_of_reach and chain["causes"] == {"out_of_reach": len(out_of_reach)}
    worst = int(np.argmax(bake.chains["arm"].residual))
    assert chain["residual"]["max_frame"] == worst and chain["residual"]["max_cause"] == "out_of_reach"
    assert chain["residual"]["max"] == bake.chains["arm"].residual[worst]
    assert report["ok"] and report["failures"] == []
    assert format_report(report).splitlines()[-1] == "result: ok"


def test_planted_feet_hold_still_and_feet_keyed_in_the_wrong_space_slide():
    good = build_report(evaluate(walk()), "walk")["chains"]
    bad = build_report(evaluate(walk(foot_space="character")), "walk")["chains"]
    for leg in ("leg_l", "leg_r"):
        assert good[leg]["hold"]["frames"] > 20
        assert good[leg]["hold"]["drift_max"] < 1e-9 and good[leg]["hold"]["drift_frames"] == []
        assert good[leg]["hold"]["world_motion_max"] < 1e-9
        # Declared in the character's space the "planted" foot rides with the body:
        # 60 units over 48 frames, 1.25 a frame, while it holds still in that space.
        assert bad[leg]["hold"]["world_motion_max"] == pytest.approx(1.25, rel=1e-6)
        assert len(bad[leg]["hold"]["world_motion_frames"]) > 20
        assert bad[leg]["hold"]["drift_max"] < 1e-9
    # The hand on the hip is held in character space too: no drift there, only riding.
    hand = good["arm_l"]["hold"]
    assert hand["drift_max"] < 1e-9 and hand["world_motion_max"] > 1.0


def _with_chain(bake, name, **changes):
    return replace(bake, chains={**bake.chains, name: replace(bake.chains[name], **changes)})


def test_an_unexplained_residual_or_an_unkeyed_flip_fails_the_report():
    bake = evaluate(walk())
    cause = np.array(bake.chains["leg_l"].cause)
    cause[[10, 11, 12, 30]] = CAUSES.index("unexplained")
    flip = np.zeros(len(bake), dtype=bool)
    flip[7] = True
    report = build_report(_with_chain(_with_chain(bake, "leg_l", cause=cause), "leg_r", flip=flip), "walk")
    assert not report["ok"]
    assert report["failures"] == ["chain leg_l: unexplained residual on frames 10-12, 30",
                                  "chain leg_r: unkeyed elbow flip on frames 7"]
    assert report["chains"]["leg_r"]["flip_frames"] == [7]
    assert format_report(report).splitlines()[-1].startswith("result: FAIL: chain leg_l: unexplained")


def test_limit_frames_and_the_worst_sensitivity_are_reported():
    bake = evaluate(walk())
    limited = np.zeros(len(bake), dtype=bool)
    limited[[3, 4, 5, 9]] = True
    report = build_report(_with_chain(bake, "arm_l", limited=limited), "walk")
    chain = report["chains"]["arm_l"]
    assert chain["limit_frames"] == [3, 4, 5, 9]
    sens = bake.chains["arm_l"].sensitivity
    assert chain["sensitivity"] == {"max": sens.max(), "max_frame": int(np.argmax(sens))}
    assert "  limits bind  3-5, 9" in format_report(report).splitlines()
