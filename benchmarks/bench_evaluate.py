"""evaluate(): full range at once vs frame by frame, and the incremental update.

A 10,000-frame timeline with 10 two-bone chains, targets keyed every 10 frames,
One Euro smoothing on half of them. Prints chain-frames per second both ways and
their ratio, the full evaluation time, the time to bring the Bake up to date after
one target's key moved (checked equal to a full evaluation), and one frame of 20
chains (the fixed cost per chain).
"""
from __future__ import annotations

import math

import numpy as np
from _common import best_time, table

from rigeditor.core.filters import Smoothing
from rigeditor.core.memory import tune_allocator
from rigeditor.model import CHARACTER, WORLD, Bone, Chain, Project, Space, Target, Timeline, evaluate
from rigeditor.edits.posing import set_target_key
from rigeditor.model.data.timeline import StepChannel, keyed

FRAMES = 10_000
CHAINS = 10


def build(frames=FRAMES, chains=CHAINS, seed=3) -> Project:
    rng = np.random.default_rng(seed)
    bones, targets, rig = [], [], []
    for c in range(chains):
        base = (c * 400.0, 0.0)
        bones += [Bone(f"upper{c}", None, 150.0, rest_offset=base),
                  Bone(f"lower{c}", f"upper{c}", 125.0, rest_offset=(150.0, 0.0))]
        keys = [(f, (base[0] + 180 * math.cos(f / 300) + rng.normal(0, 2), 150 * math.sin(f / 200)))
                for f in range(0, frames, 10)]
        targets.append(Target(f"t{c}", StepChannel(WORLD), keyed(keys, "bezier")))
        smoothing = Smoothing("one_euro", min_cutoff_hz=1.0, beta=0.01) if c % 2 else Smoothing()
        rig.append(Chain(f"chain{c}", (f"upper{c}", f"lower{c}"), f"t{c}", smoothing=smoothing))
    return Project("bench", Timeline(24.0, 0, frames - 1), (Space(CHARACTER),), tuple(bones), tuple(targets), tuple(rig))


def main():
    tune_allocator()  # as the editor and the command line do
    project = build()
    n = FRAMES * CHAINS
    evaluate(project)  # warm caches (compiled channels, thread pool)
    full = best_time(lambda: evaluate(project), repeat=5)
    sample = np.arange(0, FRAMES, FRAMES // 200)  # frame by frame: 200 frames, scaled up
    one = best_time(lambda: [evaluate(project, frames=[f]) for f in sample], repeat=2) / sample.size * FRAMES

    twenty = build(chains=20)
    evaluate(twenty, frames=[5000])
    single = best_time(lambda: evaluate(twenty, frames=[5000]), repeat=50)

    previous = evaluate(project)
    edited = set_target_key(project, "t3", 5000, (1400.0, 20.0))
    update = best_time(lambda: evaluate(edited, previous=previous, changed={"target:t3"}), repeat=7)
    partial, reference = evaluate(edited, previous=previous, changed={"target:t3"}), evaluate(edited)
    assert np.array_equal(partial.local_rotation, reference.local_rotation)
    assert all(np.array_equal(partial.chains[c].residual, reference.chains[c].residual) for c in reference.chains)

    print(f"evaluate: {FRAMES:,} frames x {CHAINS} two-bone chains (One Euro on half)")
    table([
        ("whole range at once", f"{n / full / 1e6:.2f} M chain-frames/s", f"{full * 1e3:.1f} ms", "< 60 ms"),
        ("frame by frame", f"{n / one / 1e6:.4f} M chain-frames/s", f"{one * 1e3:.0f} ms", ""),
        ("ratio", f"{one / full:.0f}x", "", ""),
        ("update after one key moved", "", f"{update * 1e3:.1f} ms", "< 20 ms"),
        ("one frame, 20 chains", "", f"{single * 1e3:.2f} ms", "< 2 ms"),
    ], ("", "throughput", "time", "goal"))


if __name__ == "__main__":
    main()
