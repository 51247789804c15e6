"""Small Spine 4.2 skeletons written by hand for the import tests (JSON + atlas + page)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np

from rigeditor.io.art.images import encode_png

LEG = {
    "skeleton": {"spine": "4.2.11", "fps": 30},
    "bones": [
        {"name": "root"},
        {"name": "hip", "parent": "root", "x": 10, "y": 100},
        {"name": "thigh", "parent": "hip", "length": 40, "rotation": -80},
        # Off the thigh's axis by 3 units: the import turns the thigh's frame.
        {"name": "shin", "parent": "thigh", "length": 45, "x": 50, "y": 3, "rotation": 10},
        {"name": "foot_target", "parent": "root", "x": 15, "y": 20},
    ],
    "slots": [{"name": "thigh", "bone": "thigh", "attachment": "thigh"},
              {"name": "shin", "bone": "shin", "attachment": "shin"}],
    "skins": [{"name": "default", "attachments": {
        "thigh": {"thigh": {"x": 25, "y": 1, "rotation": 90, "width": 18, "height": 54}},
        "shin": {"shin": {"x": 20, "rotation": 88, "scaleX": 0.5, "width": 12, "height": 40}},
    }}],
    "ik": [{"name": "leg", "bones": ["thigh", "shin"], "target": "foot_target", "bendPositive": False}],
    "animations": {"walk": {"bones": {"foot_target": {"translate": [
        {"x": 0, "y": 0}, {"time": 0.2, "x": 0, "y": -70}, {"time": 0.4, "x": 0, "y": 0}]}}}},
}

# Region pictures (height, width): "thigh" is packed rotated and trimmed, "shin" plain.
THIGH = (54, 18)
SHIN = (40, 24)


def pictures() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    out = {}
    for name, (h, w) in (("thigh", THIGH), ("shin", SHIN)):
        img = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
        img[..., 3] = 255
        img[:2] = 0  # transparent margin the packer trims away (top rows)
        img[:, -3:] = 0  # and right columns
        out[name] = img
    return out


def write_rig(folder: Path, doc=None, *, stem="leg", atlas=True, page=True) -> Path:
    """Write ``doc`` (default LEG) as STEM.json with STEM.atlas and page STEM.png."""
    folder.mkdir(parents=True, exist_ok=True)
    doc = copy.deepcopy(LEG if doc is None else doc)
    (folder / f"{stem}.json").write_text(json.dumps(doc))
    pics = pictures()
    thigh, shin = pics["thigh"], pics["shin"]
    t_trim = thigh[2:, :-3]  # (52, 15): trimmed; stored turned counter-clockwise
    turned = np.rot90(t_trim, k=1)  # (15, 52)
    s_trim = shin[2:, :-3]
    canvas = np.zeros((64, 96, 4), dtype=np.uint8)
    canvas[3:3 + 15, 5:5 + 52] = turned
    canvas[20:20 + 38, 60:60 + 21] = s_trim
    if page:
        (folder / f"{stem}.png").write_bytes(encode_png(canvas))
    if atlas:
        (folder / f"{stem}.atlas").write_text(
            f"{stem}.png\nsize:96,64\nfilter:Linear,Linear\npma:false\n"
            # bounds: x, y, width, height as drawn (before turning); offsets from the left, bottom
            "thigh\nbounds:5,3,15,52\noffsets:0,0,18,54\nrotate:90\n"
            "shin\nbounds:60,20,21,38\noffsets:0,0,24,40\n")
    return folder / f"{stem}.json"
