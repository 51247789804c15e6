"""Path constraints in evaluate(): what laying bones along a path costs per bone-frame.

A chain of 16 bones along an open path of 6 points (weighted to two bones that
turn, so the path moves every frame) over 20,000 frames, position keyed from end to
end: constant speed (the path measured every frame) and authored lengths, each in
tangent and chain-scale mode. Prints the cost per bone-frame with the constraint and
without it (the same rig's forward kinematics), and their ratio; one frame against
that frame of the range is checked equal.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from _common import best_time, table

from rigeditor.model.data.attachments import Art, Slot
from rigeditor.model.data.path_attachment import PathAttachment
from rigeditor.model.data.path_constraint import PathConstraint
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import Channel, Key, StepChannel
from rigeditor.model.evaluation.evaluate import evaluate

FRAMES = 20_000
BONES = 16


def build(constant_speed=True, rotate_mode="tangent") -> Project:
    points = [(k * 120.0, 60.0 * math.sin(k)) for k in range(6)]
    influences = []
    for k, (x, y) in enumerate(points):
        for dx in (-40.0, 0.0, 40.0):
            w = k / 5
            influences.append(((0, x + dx, y, 1 - w), (1, x + dx - 300.0, y, w)))
    path = PathAttachment("p", (), bones=("left", "right"), influences=tuple(influences[:18]),
                          constant_speed=constant_speed, lengths=tuple(120.0 * (k + 1) for k in range(6)))
    turn = lambda a: Channel((0.0,), (Key(0, (0.0,)), Key(FRAMES // 2, (a,)), Key(FRAMES, (0.0,))))  # noqa: E731
    bones = [Bone("left", None, 10.0, (0.0, 0.0), rotation=turn(0.4)),
             Bone("right", None, 10.0, (300.0, 0.0), rotation=turn(-0.3))]
    bones += [Bone(f"b{i}", f"b{i - 1}" if i else None, 30.0, (30.0, 0.0) if i else (0.0, 200.0)) for i in range(BONES)]
    pc = PathConstraint("pc", tuple(f"b{i}" for i in range(BONES)), "track", rotate_mode=rotate_mode,
                        position=Channel((0.0,), (Key(0, (-0.2,)), Key(FRAMES, (1.2,)))))
    return Project(timeline=Timeline(30.0, 0, FRAMES), bones=tuple(bones), paths=(pc,),
                   art=Art((Slot("track", None, (), StepChannel("p"), paths=(path,)),)))


def main() -> None:
    rows = []
    for speed in (True, False):
        for mode in ("tangent", "chainScale"):
            p = build(speed, mode)
            frames = p.timeline.frames
            with_path = best_time(lambda: evaluate(p, frames), repeat=3)
            without = best_time(lambda: evaluate(replace(p, paths=()), frames), repeat=3)
            full = evaluate(p, frames)
            one = evaluate(p, frames[1234:1235])
            k = full.bones.index(f"b{BONES - 1}")
            same = np.array_equal(np.asarray(one.bone_bakes[k].joint[0]), np.asarray(full.bone_bakes[k].joint[1234]))
            bf = len(frames) * len(p.bones)
            rows.append(("constant speed" if speed else "lengths", mode, f"{with_path / bf * 1e9:.0f}",
                         f"{without / bf * 1e9:.0f}", f"{with_path / without:.1f}x", "yes" if same else "NO"))
    table(rows, ("path", "rotate", "ns/bone-frame", "without", "ratio", "frame = row"))


if __name__ == "__main__":
    main()
