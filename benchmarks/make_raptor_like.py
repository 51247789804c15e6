"""Write benchmarks/rigs/raptor_like.{json,atlas,png}: a production-sized Spine 4.2 rig.

Shaped like a ridden dinosaur (our own layout and numbers, written here): 76 bones,
9 IK constraints (seven two-bone limbs and two one-bone aims), one transform
constraint, weighted meshes on the body, tail and legs (about 1,000 triangles), a dozen
smaller weighted meshes besides (jaw, tongue, horn, stirrup strap, the rider's head:
production rigs mesh most parts, many of them on the bones a foot drag moves), region
pictures for the rest of the rider, and three animations (walk, roar, run) at 30 fps.

    python benchmarks/make_raptor_like.py     # rewrites the three files
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

OUT = Path(__file__).resolve().parent / "rigs"
STEM = "raptor_like"

# name, parent, length, rotation (degrees), x, y: the setup pose in the parent's frame.
BONES = [
    ("root", None, 0, 0, 0, 0),
    ("hip", "root", 0, 9, -120, 390),
    ("torso1", "hip", 126, -5, 30, 0),
    ("torso2", "torso1", 121, 40, 126, 0),
    ("neck", "torso2", 70, 41, 121, 0),
    ("head", "neck", 105, 10, 70, 0),
    ("jaw", "head", 200, -130, 49, -68),
    ("tongue1", "head", 55, -129, 21, -105),
    ("tongue2", "tongue1", 45, 9, 55, 1),
    ("tongue3", "tongue2", 44, 13, 44, 0),
    ("horn-back", "head", 74, 44, 105, -240),
    ("horn-front", "head", 87, 49, 88, -235),
    ("saddle", "torso1", 51, 92, 25, 70),
    ("front-leg1", "hip", 250, -52, 27, -28),
    ("front-leg2", "front-leg1", 208, -98, 251, 0),
    ("front-leg3", "front-leg2", 118, 85, 208, -2),
    ("front-foot1", "front-leg3", 58, 54, 118, -1),
    ("front-foot2", "front-foot1", 56, -2, 58, 0),
    ("front-foot3", "front-foot2", 130, -3, 50, 20),
    ("back-leg1", "hip", 226, -55, 55, -71),
    ("back-leg2", "back-leg1", 172, -92, 226, 0),
    ("back-leg3", "back-leg2", 103, 83, 172, 2),
    ("back-foot1", "back-leg3", 84, 75, 102, 0),
    ("back-foot2", "back-foot1", 102, -6, 84, 0),
    ("front-foot-target", "root", 0, -7, -46, -29),
    ("front-leg-target", "front-foot-target", 0, 0, -106, 115),
    ("back-foot-target", "root", 0, 0, 33, 31),
    ("back-leg-target", "back-foot-target", 0, 0, -127, 76),
    ("front-arm1", "torso2", 110, 224, 73, -72),
    ("front-arm2", "front-arm1", 86, 105, 110, 0),
    ("front-hand", "front-arm2", 47, -57, 86, 0),
    ("back-arm1", "torso2", 110, -125, 84, -83),
    ("back-arm2", "back-arm1", 86, 124, 110, 0),
    ("back-hand", "back-arm2", 46, -76, 86, 0),
    *[(f"tail{i}", "hip" if i == 1 else f"tail{i - 1}", 81 - 4 * i, 154 if i == 1 else 10 - i, -21 if i == 1 else 81 - 4 * (i - 1), 7 if i == 1 else 0)
      for i in range(1, 11)],
    ("saddle-strap-front1", "saddle", 97, -148, -27, -73),
    ("saddle-strap-front2", "saddle-strap-front1", 103, -11, 97, 0),
    ("saddle-strap-back1", "saddle", 39, 151, -33, 87),
    ("saddle-strap-back2", "saddle-strap-back1", 54, 0, 39, 0),
    ("saddle-strap-back3", "saddle-strap-back2", 44, 4, 55, 0),
    ("stirrup", "saddle", 78, -69, -82, -103),
    ("stirrup-strap1", "saddle", 44, -135, -20, -29),
    ("stirrup-strap2", "stirrup-strap1", 52, 9, 44, 0),
    ("spineboy-hip", "saddle", 1, 90, 82, 3),
    ("spineboy-torso", "spineboy-hip", 122, -76, 1, -2),
    ("neck2", "spineboy-torso", 32, -45, 113, -15),
    ("head2", "neck2", 167, 12, 26, -1),
    ("hair1", "head2", 40, -35, 166, -79),
    ("hair2", "hair1", 47, 52, 40, 0),
    ("hair3", "head2", 45, -12, 180, -21),
    ("front-arm", "spineboy-torso", 75, -118, 101, 10),
    ("front-bracer", "front-arm", 40, 20, 75, 0),
    ("front-hand2", "front-bracer", 58, 14, 40, -1),
    ("back-arm", "spineboy-torso", 67, -121, 96, -38),
    ("back-bracer", "back-arm", 44, 17, 67, 0),
    ("back-hand2", "back-bracer", 42, 9, 44, 0),
    ("front-thigh", "spineboy-hip", 78, 163, 16, 17),
    ("lower-leg", "front-thigh", 111, -50, 78, 0),
    ("back-thigh", "spineboy-hip", 71, 161, -10, 2),
    ("back-knee", "back-thigh", 97, -55, 71, 0),
    ("gun", "spineboy-hip", 181, 107, 17, -8),
    ("spineboy-front-arm-goal", "saddle", 0, 0, -51, -97),
    ("spineboy-back-arm-goal", "saddle", 0, 0, -30, -100),
    ("front-arm-target", "horn-front", 0, -139, 295, 234),
    ("back-arm-target", "horn-back", 0, -134, 233, 246),
    ("head-target", "root", 0, 0, 420, 700),
    ("tail-target", "root", 0, 0, -900, 420),
]

IK = [  # name, bones, target, bendPositive
    ("front-leg-ik", ["front-leg1", "front-leg2"], "front-leg-target", False),
    ("front-foot-ik", ["front-leg3", "front-foot1"], "front-foot-target", True),
    ("back-leg-ik", ["back-leg1", "back-leg2"], "back-leg-target", False),
    ("back-foot-ik", ["back-leg3", "back-foot1"], "back-foot-target", True),
    ("spineboy-front-leg-ik", ["front-thigh", "lower-leg"], "spineboy-front-arm-goal", False),
    ("spineboy-back-leg-ik", ["back-thigh", "back-knee"], "spineboy-back-arm-goal", False),
    ("stirrup-ik", ["stirrup-strap1", "stirrup-strap2"], "stirrup", True),
    ("head-aim", ["head"], "head-target", True),
    ("tail-aim", ["tail10"], "tail-target", True),
]

# Weighted meshes: (slot, bones the strip follows, columns, rows, half width).
MESHES = [
    ("raptor-body", ["tail3", "tail2", "tail1", "torso1", "torso2", "neck", "head"], 40, 8, 70.0),
    ("raptor-tail", ["tail4", "tail5", "tail6", "tail7", "tail8", "tail9", "tail10"], 36, 5, 30.0),
    ("raptor-front-leg", ["front-leg1", "front-leg2", "front-leg3", "front-foot1"], 20, 5, 40.0),
    ("raptor-back-leg", ["back-leg1", "back-leg2", "back-leg3", "back-foot1"], 20, 5, 36.0),
    ("raptor-front-arm", ["front-arm1", "front-arm2", "front-hand"], 10, 3, 16.0),
    ("raptor-back-arm", ["back-arm1", "back-arm2", "back-hand"], 10, 3, 14.0),
    ("raptor-jaw", ["jaw"], 9, 3, 45.0),
    ("raptor-tongue", ["tongue1", "tongue2", "tongue3"], 7, 2, 12.0),
    ("raptor-horn", ["horn-front"], 9, 3, 20.0),
    ("raptor-horn-back", ["horn-back"], 7, 3, 18.0),
    ("stirrup-strap", ["stirrup-strap1", "stirrup-strap2"], 5, 2, 8.0),
    ("head", ["neck2", "head2", "hair1"], 9, 4, 90.0),
    ("front-shin", ["front-leg3", "front-foot1"], 6, 3, 22.0),
    ("back-shin", ["back-leg3", "back-foot1"], 6, 3, 20.0),
]

# Region pictures: (slot, bone, width, height).
REGIONS = [
    ("raptor-saddle", "saddle", 150, 180), ("strap-front", "saddle-strap-front1", 110, 30),
    ("strap-back", "saddle-strap-back1", 60, 24), ("stirrup", "stirrup", 70, 90),
    ("torso", "spineboy-torso", 130, 90), ("front-arm", "front-arm", 75, 36),
    ("front-bracer", "front-bracer", 50, 40), ("front-hand", "front-hand2", 60, 60), ("back-arm", "back-arm", 70, 34),
    ("back-bracer", "back-bracer", 50, 40), ("back-hand", "back-hand2", 50, 50), ("front-thigh", "front-thigh", 80, 40),
    ("lower-leg", "lower-leg", 110, 60), ("back-thigh", "back-thigh", 72, 38), ("back-knee", "back-knee", 97, 50),
    ("gun", "gun", 200, 190), ("neck", "neck2", 36, 40), ("eyes", "head2", 90, 88), ("mouth", "head2", 90, 58),
    ("visor", "head2", 200, 130), ("stirrup-front", "stirrup", 60, 70),
]


def setup_world(bones=None):
    """Each bone's setup world frame (2x2 matrix, origin) by forward kinematics, of
    ``bones`` [(name, parent, length, rotation, x, y)] (default BONES)."""
    world = {}
    for name, parent, _, rot, x, y in (BONES if bones is None else bones):
        c, s = math.cos(math.radians(rot)), math.sin(math.radians(rot))
        local = np.array([[c, -s], [s, c]])
        if parent is None:
            world[name] = (local, np.array([x, y], dtype=float))
        else:
            pm, po = world[parent]
            world[name] = (pm @ local, po + pm @ np.array([x, y], dtype=float))
    return world


def _strip(bones, cols, rows, half, world, lengths):
    """Grid vertices along the bones' polyline: (world points (V, 2), uvs (V, 2),
    triangles, hull count), the outline's vertices first, in order."""
    joints = [world[b][1] for b in bones] + [world[bones[-1]][1] + world[bones[-1]][0] @ [lengths[bones[-1]], 0.0]]
    joints = np.array(joints)
    seg = np.cumsum([0.0] + [float(np.hypot(*(joints[i + 1] - joints[i]))) for i in range(len(bones))])
    grid_p, grid_uv = {}, {}
    for i in range(cols):
        t = seg[-1] * i / (cols - 1)
        k = min(int(np.searchsorted(seg, t, side="right")) - 1, len(bones) - 1)
        f = (t - seg[k]) / max(seg[k + 1] - seg[k], 1e-9)
        p = joints[k] + f * (joints[k + 1] - joints[k])
        d = joints[k + 1] - joints[k]
        n = np.array([-d[1], d[0]]) / max(np.hypot(*d), 1e-9)
        taper = 1.0 - 0.5 * i / (cols - 1)
        for j in range(rows):
            v = j / (rows - 1)
            grid_p[i, j] = p + n * half * taper * (2 * v - 1)
            grid_uv[i, j] = (i / (cols - 1), 1.0 - v)
    outline = [(i, 0) for i in range(cols)] + [(cols - 1, j) for j in range(1, rows)] \
        + [(i, rows - 1) for i in range(cols - 2, -1, -1)] + [(0, j) for j in range(rows - 2, 0, -1)]
    inner = [(i, j) for i in range(1, cols - 1) for j in range(1, rows - 1)]
    index = {key: n for n, key in enumerate(outline + inner)}
    pts = np.array([grid_p[k] for k in outline + inner])
    uvs = np.array([grid_uv[k] for k in outline + inner])
    tris = []
    for i in range(cols - 1):
        for j in range(rows - 1):
            a, b, c, d = index[i, j], index[i + 1, j], index[i + 1, j + 1], index[i, j + 1]
            tris += [a, b, c, a, c, d]
    return pts, uvs, tris, len(outline)


def _weights(p, bones, world, lengths, all_names, most=2, digits=3):
    """Spine's weighted vertex entry: the ``most`` nearest bones by distance to their
    segment, inverse-square-distance weights, (x, y) in each bone's own setup frame
    (``digits`` decimals)."""
    dist = []
    for b in bones:
        m, o = world[b]
        e = o + m @ [max(lengths[b], 1.0), 0.0]
        d = e - o
        t = np.clip(np.dot(p - o, d) / np.dot(d, d), 0.0, 1.0)
        dist.append(float(np.hypot(*(p - (o + t * d)))))
    near = np.argsort(dist)[:most]
    inv = np.array([1.0 / (dist[k] + 5.0) ** 2 for k in near])
    w = inv / inv.sum()
    out = [len(near)]
    for k, weight in zip(near, w):
        m, o = world[bones[k]]
        x, y = np.linalg.solve(m, p - o)
        out += [all_names.index(bones[k]), round(float(x), digits), round(float(y), digits), round(float(weight), 4)]
    return out


def _key_rotations(times, amplitude, phase, period):
    return [{"time": round(float(t), 4), "value": round(amplitude * math.sin(2 * math.pi * t / period + phase), 3)}
            for t in times]


def animations():
    out = {}
    for name, duration, speed in (("walk", 1.2667, 1.0), ("roar", 2.1, 0.4), ("run", 0.8, 1.6)):
        times = np.linspace(0.0, duration, 9)
        bones = {}
        for i, (bone, *_rest) in enumerate(BONES):
            if bone in ("root",) or bone.endswith("target") or bone.endswith("goal"):
                continue
            amp = 4.0 + 8.0 * speed * ((i * 7) % 5) / 4
            bones[bone] = {"rotate": _key_rotations(times, amp, 0.37 * i, duration)}
        bones["hip"]["translate"] = [{"time": round(float(t), 4), "x": round(20 * speed * math.sin(2 * math.pi * t / duration), 3),
                                      "y": round(-15 * math.cos(4 * math.pi * t / duration), 3)} for t in times]
        for foot, phase in (("front-foot-target", 0.0), ("back-foot-target", math.pi)):
            bones[foot] = {"translate": [
                {"time": round(float(t), 4), "x": round(160 * speed * math.sin(2 * math.pi * t / duration + phase), 3),
                 "y": round(max(0.0, 60 * speed * math.sin(2 * math.pi * t / duration + phase + 0.5)), 3)} for t in times]}
        for aim, (dx, dy) in (("head-target", (80, -40)), ("tail-target", (-60, 90))):
            bones[aim] = {"translate": [{"time": round(float(t), 4), "x": round(dx * math.sin(2 * math.pi * t / duration), 3),
                                         "y": round(dy * math.cos(2 * math.pi * t / duration), 3)} for t in times]}
        out[name] = {"bones": bones}
    return out


def build():
    """(skeleton dict, atlas text, page RGBA)."""
    world = setup_world()
    lengths = {b[0]: b[2] for b in BONES}
    names = [b[0] for b in BONES]
    bones = []
    for name, parent, length, rot, x, y in BONES:
        entry = {"name": name}
        if parent is not None:
            entry["parent"] = parent
        for key, value in (("length", length), ("rotation", rot), ("x", x), ("y", y)):
            if value:
                entry[key] = value
        bones.append(entry)
    slots, skin, regions = [], {}, []
    for slot, chain, cols, rows, half in MESHES:
        pts, uvs, tris, hull = _strip(chain, cols, rows, half, world, lengths)
        verts = []
        for p in pts:
            verts += _weights(p, chain, world, lengths, names)
        slots.append({"name": slot, "bone": chain[0], "attachment": slot})
        skin[slot] = {slot: {"type": "mesh", "uvs": [round(float(v), 5) for v in uvs.ravel()], "triangles": tris,
                             "vertices": verts, "hull": hull, "width": 256, "height": 64}}
        regions.append((slot, 256, 64))
    for slot, bone, w, h in REGIONS:
        slots.append({"name": slot, "bone": bone, "attachment": slot})
        skin[slot] = {slot: {"x": round(lengths[bone] / 2, 2), "rotation": 0, "width": w, "height": h}}
        regions.append((slot, w, h))
    skeleton = {
        "skeleton": {"spine": "4.2.11", "fps": 30, "images": "./images/"},
        "bones": bones,
        "slots": slots,
        "ik": [{"name": n, "order": i, "bones": b, "target": t, **({} if bp else {"bendPositive": False})}
               for i, (n, b, t, bp) in enumerate(IK)],
        "transform": [{"name": "tongue-follows-jaw", "order": len(IK), "bones": ["tongue1"], "target": "jaw",
                       "rotation": 1, "mixRotate": 0.4, "mixX": 0, "mixScaleX": 0, "mixShearY": 0}],
        "skins": [{"name": "default", "attachments": skin}],
        "animations": animations(),
    }
    return (skeleton, *page_of(regions, STEM, width=1024, seed=11))



def page_of(regions, stem: str, width: int, seed: int):
    """Shelf-pack ``regions`` [(name, w, h)] on one page ``width`` px wide, each a flat
    colour with a darker frame: (atlas text, page RGBA (H, W, 4) uint8)."""
    x, y, shelf, placed = 2, 2, 0, []
    for name, w, h in regions:
        if x + w + 2 > width:
            x, y, shelf = 2, y + shelf + 2, 0
        placed.append((name, x, y, w, h))
        x, shelf = x + w + 2, max(shelf, h)
    height = 1 << int(math.ceil(math.log2(y + shelf + 2)))
    page = np.zeros((height, width, 4), dtype=np.uint8)
    rng = np.random.default_rng(seed)
    lines = [f"{stem}.png", f"size:{width},{height}", "filter:Linear,Linear", "pma:false"]
    for name, px, py, w, h in placed:
        colour = rng.integers(60, 230, 3)
        page[py:py + h, px:px + w, :3] = colour
        page[py:py + h, px:px + w, 3] = 255
        page[py:py + 2, px:px + w, :3] = colour // 2
        page[py + h - 2:py + h, px:px + w, :3] = colour // 2
        lines += [name, f"bounds:{px},{py},{w},{h}"]
    return "\n".join(lines) + "\n", page

def main():
    from rigeditor.io.art.images import encode_png

    skeleton, atlas, page = build()
    OUT.mkdir(exist_ok=True)
    (OUT / f"{STEM}.json").write_text(json.dumps(skeleton, separators=(",", ":")))
    (OUT / f"{STEM}.atlas").write_text(atlas)
    (OUT / f"{STEM}.png").write_bytes(encode_png(page))
    tris = sum(len(a[s]["triangles"]) // 3 for s, a in skeleton["skins"][0]["attachments"].items() if a[s].get("type") == "mesh")
    print(f"{len(skeleton['bones'])} bones, {len(skeleton['ik'])} IK, {tris} mesh triangles -> {OUT}")


if __name__ == "__main__":
    main()
