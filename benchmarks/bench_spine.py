"""A bake of an imported Spine rig against the official runtime posing the same file.

Each rig is a Spine 4.2 skeleton: every built-in example exported by ``bake --format
spine``, plus any skeleton given on the command line (``python bench_spine.py A.json``).
Both sides pose the imported file: RigEditor's ``evaluate()`` of 10,000 samples at 30 fps
per animation (bones only, then with the art), spine-core ``setToSetupPose`` + ``apply`` +
``update(1/30)`` + ``updateWorldTransform(Physics.update)`` per sample, in node. A rig with
physics constraints is sampled as a game plays it, 30 times a second from the start (its
physics steps at every sample on both sides); others wrap at the animation's end. Printed per animation: microseconds per
bone-frame each, and the ratio (goal: the bake at most 2x spine-core).

spine-core comes from npm (4.2) into build/bench/ on first use, run by the node that the
``bench`` extra installs (nodejs-bin), or by a ``node`` on PATH.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
from _common import best_time, table

from rigeditor.core.memory import tune_allocator
from rigeditor.examples.files import EXAMPLE_NAMES
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.data.clips import names as animation_names, switch
from rigeditor.model.evaluation.evaluate import evaluate

FRAMES = 10_000
FPS = 30.0
RUNTIME = "@esotericsoftware/spine-core@~4.2"
HERE = Path(__file__).resolve().parent
WORK = HERE.parent / "build" / "bench" / "spine-core"


def node_command() -> list[str] | None:
    """The node to run: the bench extra's nodejs-bin, else ``node`` on PATH."""
    try:
        import nodejs  # noqa: F401  (nodejs-bin)
        return [sys.executable, "-m", "nodejs"]
    except ImportError:
        node = shutil.which("node")
        return [node] if node else None


def runtime_folder(node: list[str]) -> Path:
    """build/bench/spine-core with spine-core installed and the timing script beside it."""
    if not (WORK / "node_modules" / "@esotericsoftware" / "spine-core").is_dir():
        WORK.mkdir(parents=True, exist_ok=True)
        npm = [sys.executable, "-m", "nodejs.npm"] if node[0] == sys.executable else [shutil.which("npm") or "npm"]
        subprocess.run([*npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(WORK), RUNTIME],
                       check=True)
    (WORK / "package.json").write_text('{"type": "module", "private": true}\n')
    shutil.copy(HERE / "spine_pose.mjs", WORK / "spine_pose.mjs")
    return WORK


def export_example(name: str, folder: Path) -> Path:
    """The example exported to Spine JSON + atlas by the command line, as a user would."""
    out = folder / f"{name}.json"
    subprocess.run([sys.executable, "-m", "rigeditor.cli", "bake", name, "-o", str(out), "--format", "spine"],
                   check=True, capture_output=True)
    return out


def spine_times(node: list[str], skeleton: Path) -> dict[str, tuple[int, float]]:
    """Per animation: (bones, seconds for FRAMES samples) in spine-core."""
    run = subprocess.run([*node, str(runtime_folder(node) / "spine_pose.mjs"), str(skeleton), str(FRAMES)],
                         check=True, capture_output=True, text=True)
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    return {r["animation"]: (r["bones"], r["seconds"]) for r in rows}


def our_times(skeleton: Path) -> dict[str, tuple[float, float]]:
    """Per animation: (seconds bones only, seconds with art) for FRAMES samples."""
    with tempfile.TemporaryDirectory() as folder:
        import_spine(skeleton, Path(folder) / "rig.rigproj")
        project = load_project(Path(folder) / "rig.rigproj")
    out = {}
    for name in animation_names(project):
        p = switch(project, name)
        span = max(p.timeline.end - p.timeline.start, 1e-9)
        if p.physics:  # a game's clock from the start (the pose holds after the end; the same work)
            frames = p.timeline.start + np.arange(FRAMES) * (p.timeline.fps / FPS)
        else:
            frames = p.timeline.start + (np.arange(FRAMES) / FPS * p.timeline.fps) % span
        # bones only: no art but the slots that carry paths (a path constraint follows its slot's path)
        bare = replace(p, art=replace(p.art, slots=tuple(s for s in p.art.slots if s.paths), draw_order=(), deforms=()))
        evaluate(bare, frames), evaluate(p, frames)  # warm caches
        out[name] = (best_time(lambda: evaluate(bare, frames), repeat=5),
                          best_time(lambda: evaluate(p, frames), repeat=5))
    return out


def main(argv: list[str]) -> int:
    tune_allocator()  # as the editor and the command line do
    node = node_command()
    if node is None:
        print("bench_spine: no node (install the bench extra: pip install -e '.[bench]')")
        return 1
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        rigs = [export_example(n, Path(folder)) for n in EXAMPLE_NAMES] + [Path(a) for a in argv]
        for skeleton in rigs:
            theirs, ours = spine_times(node, skeleton), our_times(skeleton)
            # in file order: a RigEditor export imports back under RigEditor's own names
            for (bare, dressed), (name, (spine_bones, spine_s)) in zip(ours.values(), theirs.items()):
                per = 1e6 / FRAMES / spine_bones  # the same skeleton on both sides: spine-core's bones
                rows.append((skeleton.stem, name, spine_bones, f"{bare * per:.2f}", f"{dressed * per:.2f}",
                             f"{spine_s * per:.2f}", f"{bare / spine_s:.2f}x", f"{dressed / spine_s:.2f}x"))
    print(f"bake of an imported Spine rig vs spine-core 4.2, {FRAMES:,} samples at {FPS:.0f} fps "
          "(us per bone-frame; goal: at most 2x)")
    table(rows, ("rig", "animation", "bones", "ours", "ours+art", "spine-core", "ratio", "ratio+art"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
