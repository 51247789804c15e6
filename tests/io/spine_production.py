"""A production-style Spine 4.2 skeleton written by hand: everything the import keeps
in one rig (two-bone IK with softness, keyed bend and mix, stretching IK, one-bone IK,
a transform constraint, inherit modes, shear (on a bone no target rides: RigEditor's
spaces do not shear), two skins, a weighted mesh, a sequence,
draw order and attachment keys), with its atlas and page."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np

from rigeditor.io.art.images import encode_png

# A weighted quad over the leg: 4 vertices, each (bones, bone, x, y, weight...).
_MESH = {
    "type": "mesh", "path": "thigh", "width": 18, "height": 54, "hull": 4,
    "uvs": [0, 1, 1, 1, 1, 0, 0, 0],
    "triangles": [0, 1, 2, 2, 3, 0],
    "vertices": [1, 2, -5, -9, 1,
                 1, 2, -5, 9, 1,
                 2, 2, 45, 9, 0.5, 3, 0, 9, 0.5,
                 2, 2, 45, -9, 0.5, 3, 0, -9, 0.5],
}

RIG = {
    "skeleton": {"spine": "4.2.11", "fps": 30},
    "bones": [
        {"name": "root"},
        {"name": "hip", "parent": "root", "length": 20, "x": 10, "y": 100},
        {"name": "thigh", "parent": "hip", "length": 50, "rotation": -80},
        {"name": "shin", "parent": "thigh", "length": 45, "x": 50, "rotation": 10},
        {"name": "chest", "parent": "hip", "length": 40, "rotation": 90, "inherit": "noScale"},
        {"name": "head", "parent": "chest", "length": 18, "x": 40},
        {"name": "upper", "parent": "chest", "length": 25, "x": 35, "rotation": 180},
        {"name": "lower", "parent": "upper", "length": 25, "x": 25, "rotation": 20},
        {"name": "badge", "parent": "root", "length": 6, "x": -20, "y": 60, "shearX": 4, "shearY": -3},
        {"name": "foot_target", "parent": "root", "x": 15, "y": 20},
        {"name": "look", "parent": "root", "x": 60, "y": 170},
        {"name": "reach", "parent": "hip", "x": -10, "y": 80},
    ],
    "slots": [
        {"name": "thigh", "bone": "thigh", "attachment": "leg"},
        {"name": "shin", "bone": "shin", "attachment": "shin"},
        {"name": "head", "bone": "head", "attachment": "head"},
        {"name": "badge", "bone": "badge", "attachment": "badge"},
    ],
    "skins": [
        {"name": "default", "attachments": {
            "thigh": {"leg": _MESH},
            "shin": {"shin": {"x": 20, "rotation": 88, "width": 24, "height": 40},
                     "shin_open": {"path": "shin", "x": 22, "rotation": 80, "width": 24, "height": 40}},
            "badge": {"badge": {"path": "badge", "width": 18, "height": 54,
                                "sequence": {"count": 2, "start": 1, "digits": 0, "setup": 1}}},
        }},
        {"name": "armored", "attachments": {
            "head": {"head": {"path": "shin", "x": 9, "rotation": -90, "width": 24, "height": 40,
                              "color": "ff8040ff"}},
        }},
    ],
    "ik": [
        {"name": "leg", "order": 0, "bones": ["thigh", "shin"], "target": "foot_target", "bendPositive": False,
         "softness": 6},
        {"name": "aim", "order": 1, "bones": ["head"], "target": "look", "mix": 0.8},
        {"name": "arm", "order": 3, "bones": ["upper", "lower"], "target": "reach", "stretch": True},
    ],
    "transform": [
        {"name": "pin", "order": 2, "bones": ["badge"], "target": "chest", "mixX": 0.5, "mixScaleX": 0.3,
         "rotation": 15, "x": 4},
    ],
    "animations": {
        "walk": {
            "bones": {
                "foot_target": {"translate": [
                    {"x": 0, "y": 0, "curve": [0.1, 0, 0.2, 0, 0.1, 0, 0.2, -70]},
                    {"time": 0.4, "x": 0, "y": -70}, {"time": 0.8, "x": 10, "y": 0}]},
                "look": {"translate": [{"x": 0, "y": 0}, {"time": 0.8, "x": -40, "y": 20}]},
                "reach": {"translate": [{"x": 0, "y": 0}, {"time": 0.5, "x": -60, "y": -30},
                                        {"time": 0.8, "x": 0, "y": 0}]},
                "hip": {"rotate": [{"value": 0, "curve": "stepped"}, {"time": 0.3, "value": 10},
                                   {"time": 0.8, "value": -5}]},
                "badge": {"shear": [{"x": 0, "y": 0}, {"time": 0.6, "x": 5, "y": 2}]},
                "chest": {"scale": [{"x": 1, "y": 1}, {"time": 0.5, "x": 1.2, "y": 0.9}],
                          "inherit": [{"time": 0.4, "inherit": "normal"}]},
            },
            "ik": {"leg": [{"mix": 1, "softness": 6, "bendPositive": False},
                           {"time": 0.5, "mix": 0.5, "softness": 6, "bendPositive": True}]},
            "transform": {"pin": [{"mixRotate": 1, "mixX": 0.5, "mixY": 0.5, "mixScaleX": 0.3, "mixScaleY": 0.3,
                                   "mixShearY": 1},
                                  {"time": 0.6, "mixRotate": 0.2, "mixX": 1, "mixY": 1, "mixScaleX": 0.3,
                                   "mixScaleY": 0.3, "mixShearY": 1}]},
            "slots": {"shin": {"attachment": [{"time": 0.3, "name": "shin_open"}, {"time": 0.6, "name": "shin"}]}},
            "drawOrder": [{"time": 0.2, "offsets": [{"slot": "badge", "offset": -3}]}, {"time": 0.7}],
        },
        "idle": {"bones": {"look": {"translate": [{"x": 0, "y": 0}, {"time": 1, "x": 20, "y": -10}]}}},
    },
}

_REGIONS = {"thigh": (54, 18), "shin": (40, 24), "badge1": (54, 18), "badge2": (54, 18)}


def write_production_rig(folder: Path, doc=None, stem: str = "hero") -> Path:
    """Write ``doc`` (default RIG) as STEM.json with STEM.atlas and page STEM.png."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.json").write_text(json.dumps(copy.deepcopy(RIG if doc is None else doc)))
    rng = np.random.default_rng(11)
    canvas = np.zeros((64, 128, 4), dtype=np.uint8)
    lines, x = [f"{stem}.png", "size:128,64", "filter:Linear,Linear", "pma:false"], 2
    for name, (h, w) in _REGIONS.items():
        img = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
        img[..., 3] = 255
        canvas[2:2 + h, x:x + w] = img
        lines += [name, f"bounds:{x},2,{w},{h}"]
        x += w + 2
    (folder / f"{stem}.png").write_bytes(encode_png(canvas))
    (folder / f"{stem}.atlas").write_text("\n".join(lines) + "\n")
    return folder / f"{stem}.json"
