"""Project files and curve export at scale.

Load + validate and save of a project with 100,000 keys (a walk whose feet, hand and
spine are keyed on every frame, like captured motion), and the CSV export of a
100,000-frame bake. Goals: load + validate under 1 s, CSV export under 1 s.
Then a chain of 20,000 bones (each on its parent's tip): validate, bake, Spine export
and import, each in a few seconds (the cycle check alone took minutes).
"""
from __future__ import annotations

import math
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
from _common import best_time, table

from rigeditor.io import load_project, save_project
from rigeditor.io.curves.write_csv import curves_csv
from rigeditor.io.project_file import loads_project
from rigeditor.model import evaluate
from rigeditor.examples.rigs import walk
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import Channel, Key
from rigeditor.model.validation.project import problems

KEYS = 100_000
FRAMES = 100_000


def keyed_walk(keys: int = KEYS):
    """The walk example with four tracks keyed on every frame: ``keys`` keys in all."""
    project = walk()
    n = keys // 4
    f = np.arange(n)
    sway = [Key(int(i), (0.04 * math.sin(i / 6.0),), "linear") for i in f]

    def track(x0, dx, lift):
        return Channel((x0, 0.0), tuple(Key(int(i), (x0 + dx * i / 24.0, lift * max(0.0, math.sin(i / 4.0))),
                                            "linear") for i in f))

    project = replace(project, timeline=Timeline(24.0, 0, n - 1))
    project = project.with_bone("spine", rotation=Channel((0.0,), tuple(sway)))
    project = project.with_target("foot_l", position=track(-15.0, 30.0, 12.0))
    project = project.with_target("foot_r", position=track(15.0, 30.0, 12.0))
    return project.with_target("hand_on_hip", position=track(15.0, 0.0, 2.0))


def main() -> None:
    project = keyed_walk()
    count = sum(len(t.position.keys) for t in project.targets) + len(project.bone("spine").rotation.keys)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mocap.rigproj"
        t_save = best_time(lambda: save_project(project, path), repeat=5)
        raw = path.read_bytes()
        t_load = best_time(lambda: load_project(path), repeat=5)
        t_parse_only = best_time(lambda: loads_project(raw), repeat=5)
        loaded = load_project(path)
        t_validate = best_time(lambda: problems(loaded), repeat=5)
    bake = evaluate(walk(), np.arange(FRAMES, dtype=float))
    t_csv = best_time(lambda: curves_csv(bake), repeat=5)
    size = len(curves_csv(bake))
    print(f"project: {count:,} keys, {len(raw) / 1e6:.1f} MB; bake: {FRAMES:,} frames x "
          f"{len(bake.bones)} bones, {len(bake.chains)} chains, CSV {size / 1e6:.1f} MB")
    table([
        ("load + validate (load_project)", f"{t_load:.3f}", "< 1 s"),
        ("  of which the semantic checks", f"{t_validate:.3f}", ""),
        ("  from bytes in memory", f"{t_parse_only:.3f}", ""),
        ("save (checks + write + fsync)", f"{t_save:.3f}", ""),
        ("CSV export of the bake", f"{t_csv:.3f}", "< 1 s"),
    ], header=("operation", "best of 5 (s)", "goal"))
    deep_chain()


def deep_chain(n: int = 20_000) -> None:
    """Validate, bake, export to Spine and import back a chain of ``n`` bones."""
    from rigeditor.io.spine.write import export_spine_json
    from rigeditor.io.spine.read import import_spine

    key = Channel((0.0,), (Key(0, (0.0,)), Key(1, (0.5,))))
    bones = tuple(Bone(f"b{i}", f"b{i - 1}" if i else None, 1.0, (1.0 if i else 0.0, 0.0), 2 * math.pi / n,
                       rotation=key if i % 100 == 0 else Channel((0.0,))) for i in range(n))
    project = Project(name="deep", timeline=Timeline(24.0, 0, 1), bones=bones)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "deep.json"
        t_validate = best_time(lambda: problems(project), repeat=1)
        t_bake = best_time(lambda: evaluate(project), repeat=1)
        bake = evaluate(project)
        t_export = best_time(lambda: export_spine_json(project, bake, out), repeat=1)
        t_import = best_time(lambda: import_spine(out, Path(folder) / "back.rigproj", force=True), repeat=1)
    print(f"\nchain of {n:,} bones, 2 frames")
    table([
        ("validate", f"{t_validate:.3f}", "a few s"),
        ("bake (evaluate)", f"{t_bake:.3f}", "a few s"),
        ("Spine export", f"{t_export:.3f}", ""),
        ("import-spine (read, map, check, write)", f"{t_import:.3f}", "a few s"),
    ], header=("operation", "once (s)", "goal"))


if __name__ == "__main__":
    main()
