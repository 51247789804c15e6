"""``rigeditor import-spine`` of a many-skin production rig, beside spine-core reading it.

The rig is benchmarks/rigs/raptor_like.json dressed as a mix-and-match rig: SKINS
extra skins, each with its own copy of every attachment (27 slots, 6 weighted meshes
of 100-320 vertices), and every skin's meshes deformed in every animation (three deform
keys each). With 7 skins the JSON is about 0.7 MB, the size of Esoteric's
mix-and-match example; 30 skins make 2.5 MB.

Times, best of three: the command line end to end (a fresh process: start-up, reading,
mapping, checking, writing the project and its pictures), the import function in
this process (CPU seconds), and spine-core's ``SkeletonJson.readSkeletonData`` of the
same file in node (the ``bench`` extra's node, or one on PATH; a reader only: it
neither checks nor writes anything, so it is a floor, not a peer). Goal: under 2 s.
"""
from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import table
from bench_spine import node_command, runtime_folder

RIG = Path(__file__).resolve().parent / "rigs" / "raptor_like.json"
GOAL_S = 2.0
READ_ONLY = """import fs from "fs";
import * as spine from "@esotericsoftware/spine-core";
const region = () => ({ u: 0, v: 0, u2: 1, v2: 1, width: 1, height: 1, degrees: 0, offsetX: 0, offsetY: 0,
  originalWidth: 1, originalHeight: 1, texture: null });
const loader = {
  newRegionAttachment(s, n, p) { const a = new spine.RegionAttachment(n, p); a.region = region(); return a; },
  newMeshAttachment(s, n, p) { const a = new spine.MeshAttachment(n, p); a.region = region(); return a; },
  newBoundingBoxAttachment(s, n) { return new spine.BoundingBoxAttachment(n); },
  newPathAttachment(s, n) { return new spine.PathAttachment(n); },
  newPointAttachment(s, n) { return new spine.PointAttachment(n); },
  newClippingAttachment(s, n) { return new spine.ClippingAttachment(n); },
};
let best = Infinity;
for (let i = 0; i < 3; i++) {
  const t = process.hrtime.bigint();
  new spine.SkeletonJson(loader).readSkeletonData(fs.readFileSync(process.argv[2], "utf8"));
  best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e9);
}
console.log(JSON.stringify({ seconds: best }));
"""


def many_skins(folder: Path, skins: int) -> Path:
    """The raptor-like rig with ``skins`` extra skins and their deform keys, in ``folder``."""
    doc = json.loads(RIG.read_text())
    base = doc["skins"][0]["attachments"]
    for k in range(skins):
        doc["skins"].append({"name": f"outfit-{k:02d}", "attachments": copy.deepcopy(base)})
    for anim in doc["animations"].values():
        deforms: dict = {}
        for skin in doc["skins"][1:]:
            for slot, attachments in skin["attachments"].items():
                for name, a in attachments.items():
                    if a.get("type") == "mesh":
                        moved = [0.5 * (k % 3 - 1) for k in range(16)]  # the first 8 floats' worth
                        deforms.setdefault(skin["name"], {}).setdefault(slot, {})[name] = {"deform": [
                            {"time": 0}, {"time": 0.5, "offset": 0, "vertices": moved}, {"time": 1.0}]}
        anim["attachments"] = deforms
    out = folder / f"outfits{skins}.json"
    out.write_text(json.dumps(doc))
    shutil.copy(RIG.with_suffix(".atlas"), out.with_suffix(".atlas"))
    shutil.copy(RIG.with_suffix(".png"), folder / RIG.with_suffix(".png").name)  # the page the atlas names
    return out


def cli_seconds(skeleton: Path, folder: Path) -> float:
    """Best of three wall times of ``rigeditor import-spine`` in a fresh process."""
    best = float("inf")
    for k in range(3):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "rigeditor.cli", "import-spine", str(skeleton), "-o",
                        str(folder / f"cli{k}.rigproj")], check=True, capture_output=True)
        best = min(best, time.perf_counter() - t0)
    return best


def function_cpu_seconds(skeleton: Path, folder: Path) -> float:
    """Best of three CPU times of the import function (this process, warm imports)."""
    from rigeditor.io.spine.read import import_spine

    best = float("inf")
    for k in range(3):
        t0 = time.process_time()
        import_spine(skeleton, folder / f"fn{k}.rigproj")
        best = min(best, time.process_time() - t0)
    return best


def spine_core_seconds(skeleton: Path) -> float | None:
    node = node_command()
    if node is None:
        return None
    script = runtime_folder(node) / "read_only.mjs"
    script.write_text(READ_ONLY)
    run = subprocess.run([*node, str(script), str(skeleton)], check=True, capture_output=True, text=True)
    return json.loads(run.stdout.strip().splitlines()[-1])["seconds"]


def main() -> int:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for skins in (7, 30):
            folder = Path(tmp) / str(skins)
            folder.mkdir()
            skeleton = many_skins(folder, skins)
            cli, fn = cli_seconds(skeleton, folder), function_cpu_seconds(skeleton, folder)
            peer = spine_core_seconds(skeleton)
            rows.append([f"{skins + 1} skins, {skeleton.stat().st_size / 1e6:.1f} MB", f"{cli:.2f} s",
                         f"{fn:.2f} s", "-" if peer is None else f"{peer * 1e3:.0f} ms",
                         f"< {GOAL_S:g} s", "yes" if cli < GOAL_S else "NO"])
    print("import-spine of a many-skin rig (the raptor-like rig dressed in outfits):")
    table(rows, ("rig", "command line (wall)", "function (CPU)", "spine-core reads it", "goal", "met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
