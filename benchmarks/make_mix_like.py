"""Write benchmarks/rigs/mix_like.{json,atlas,png}: a many-mesh Spine 4.2 character.

Shaped like a dress-up character whose outfit is combined from several skins at once
(our own layout and numbers, written here): about 70 bones, five IK constraints (four
two-bone limbs and a one-bone head aim), about 60 slots of which 45 are weighted
meshes (20-80 vertices, each weighted to 2-4 bones) with deform keys in both
animations, the rest region pictures (two drawn additive). Each slot's attachment
lives in one of eight skins (body, hair, top, bottom, shoes, cape, accessories,
face) that are all shown together, plus two alternative skins that replace a few of
them when shown.

    python benchmarks/make_mix_like.py     # rewrites the three files
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_raptor_like import _strip, _weights, page_of, setup_world  # noqa: E402  (the grid strip along a bone polyline, the page)

OUT = Path(__file__).resolve().parent / "rigs"
STEM = "mix_like"
SHOWN = ("body", "hair", "top", "bottom", "shoes", "cape", "accessories", "face")
"""The skins the character wears together (in this order; later wins)."""
ALTERNATIVES = ("hair-long", "top-armour")
"""Skins that replace some of the shown ones' attachments when they are shown too."""

# Chains of bones: (prefix, parent, count, segment length, rotation of the first, x, y, bend per bone).
CHAINS = [
    ("torso", "hip", 3, 60, 90, 0, 10, 0),
    ("neck", "torso3", 1, 30, 0, 60, 0, 0),
    ("head", "neck1", 1, 90, 0, 30, 0, 0),
    ("arm-l", "torso3", 3, 70, 150, 50, 40, 10),
    ("arm-r", "torso3", 3, 70, -150, 50, -40, -10),
    ("leg-l", "hip", 3, 95, -100, 0, 25, 5),
    ("leg-r", "hip", 3, 95, -80, 0, -25, -5),
    ("hair-a", "head1", 3, 40, 150, 80, 20, 15),
    ("hair-b", "head1", 3, 45, 170, 85, 0, 10),
    ("hair-c", "head1", 3, 40, -170, 80, -20, -10),
    ("hair-d", "head1", 3, 35, -150, 70, -35, -15),
    ("cape-a", "torso3", 5, 45, -170, 50, 30, 3),
    ("cape-b", "torso3", 5, 45, 170, 50, -30, -3),
    ("skirt-a", "hip", 3, 35, -120, 0, 30, 5),
    ("skirt-b", "hip", 3, 35, -95, 0, 10, 2),
    ("skirt-c", "hip", 3, 35, -85, 0, -10, -2),
    ("skirt-d", "hip", 3, 35, -60, 0, -30, -5),
    ("scarf-a", "neck1", 4, 30, -130, 10, 20, 10),
    ("scarf-b", "neck1", 4, 30, -110, 10, -20, -10),
    ("bag", "torso1", 2, 40, -60, 20, -50, 0),
]
TARGETS = [("arm-l-target", -150, 360), ("arm-r-target", 150, 360), ("leg-l-target", -40, 60),
           ("leg-r-target", 40, 60), ("head-target", 0, 900)]
IK = [("arm-l-ik", ["arm-l1", "arm-l2"], "arm-l-target", True), ("arm-r-ik", ["arm-r1", "arm-r2"], "arm-r-target", False),
      ("leg-l-ik", ["leg-l1", "leg-l2"], "leg-l-target", False), ("leg-r-ik", ["leg-r1", "leg-r2"], "leg-r-target", True),
      ("head-aim", ["head1"], "head-target", True)]

# Weighted meshes: (slot, skin, bones of the strip, columns, rows, half width).
MESHES = [
    *[(f"{part}-{side}-{layer}", skin, [f"{part}-{side}{i}" for i in range(1, n + 1)], cols, rows, half)
      for part, n in (("arm", 3), ("leg", 3)) for side in "lr"
      for layer, skin, cols, rows, half in (("skin", "body", 12, 3, 16), ("sleeve", "top" if part == "arm" else "bottom", 14, 4, 20),
                                           ("cuff", "top" if part == "arm" else "shoes", 10, 2, 22))],
    ("torso-skin", "body", ["hip", "torso1", "torso2", "torso3"], 12, 5, 60),
    ("torso-shirt", "top", ["hip", "torso1", "torso2", "torso3"], 14, 5, 66),
    ("torso-jacket", "top", ["torso1", "torso2", "torso3"], 16, 5, 72),
    ("belt", "bottom", ["hip", "torso1"], 10, 2, 64),
    ("neck-skin", "body", ["torso3", "neck1", "head1"], 8, 3, 22),
    ("head-skin", "body", ["neck1", "head1"], 10, 6, 55),
    ("face-mask", "face", ["neck1", "head1"], 8, 4, 40),
    *[(f"hair-{c}", "hair", ["head1", f"hair-{c}1", f"hair-{c}2", f"hair-{c}3"], 14, 4, 18) for c in "abcd"],
    *[(f"hair-{c}-tip", "hair", [f"hair-{c}1", f"hair-{c}2", f"hair-{c}3"], 10, 3, 10) for c in "abcd"],
    *[(f"cape-{c}", "cape", ["torso3"] + [f"cape-{c}{i}" for i in range(1, 6)], 16, 5, 40) for c in "ab"],
    *[(f"cape-{c}-lining", "cape", [f"cape-{c}{i}" for i in range(1, 6)], 12, 3, 30) for c in "ab"],
    *[(f"skirt-{c}", "bottom", ["hip"] + [f"skirt-{c}{i}" for i in range(1, 4)], 10, 4, 22) for c in "abcd"],
    *[(f"scarf-{c}", "accessories", ["neck1"] + [f"scarf-{c}{i}" for i in range(1, 5)], 14, 3, 12) for c in "ab"],
    ("bag", "accessories", ["torso1", "bag1", "bag2"], 8, 4, 30),
    ("bag-strap", "accessories", ["torso3", "torso2", "torso1", "bag1"], 16, 2, 6),
    *[(f"glove-{side}", "accessories", [f"arm-{side}2", f"arm-{side}3"], 8, 3, 19) for side in "lr"],
    *[(f"boot-{side}", "shoes", [f"leg-{side}2", f"leg-{side}3"], 10, 3, 24) for side in "lr"],
    ("collar", "top", ["torso3", "neck1"], 12, 3, 40),
    ("hood", "top", ["torso3", "neck1", "head1"], 14, 4, 58),
]
# Region pictures: (slot, skin, bone, width, height, blend).
REGIONS = [
    ("eye-l", "face", "head1", 24, 16, "normal"), ("eye-r", "face", "head1", 24, 16, "normal"),
    ("mouth", "face", "head1", 30, 12, "normal"), ("nose", "face", "head1", 16, 20, "normal"),
    ("brow-l", "face", "head1", 26, 8, "normal"), ("brow-r", "face", "head1", 26, 8, "normal"),
    ("hand-l", "body", "arm-l3", 40, 44, "normal"), ("hand-r", "body", "arm-r3", 40, 44, "normal"),
    ("shoe-l", "shoes", "leg-l3", 70, 36, "normal"), ("shoe-r", "shoes", "leg-r3", 70, 36, "normal"),
    ("hat", "accessories", "head1", 120, 70, "normal"), ("buckle", "bottom", "hip", 30, 24, "normal"),
    ("badge", "top", "torso2", 26, 26, "normal"),
    ("glow-l", "accessories", "arm-l3", 60, 60, "additive"), ("glow-r", "accessories", "arm-r3", 60, 60, "additive"),
]
# The alternative skins' replacements: slot -> skin (same attachment name, its own picture).
REPLACED = {"hair-a": "hair-long", "hair-b": "hair-long", "hair-c": "hair-long", "hair-d": "hair-long",
            "torso-jacket": "top-armour", "arm-l-sleeve": "top-armour", "arm-r-sleeve": "top-armour"}


def bone_table():
    """[(name, parent, length, rotation, x, y)] in setup order (parents first)."""
    out = [("root", None, 0, 0, 0, 0), ("hip", "root", 20, 0, 0, 330)]
    for prefix, parent, n, length, rot, x, y, bend in CHAINS:
        for i in range(1, n + 1):
            out.append((f"{prefix}{i}", parent if i == 1 else f"{prefix}{i - 1}", length,
                        rot if i == 1 else bend, x if i == 1 else length, y if i == 1 else 0))
    out += [(name, "root", 0, 0, x, y) for name, x, y in TARGETS]
    return out


def _deform(influences, times, amplitude, phase):
    """Deform keys (offsets for every influence's x, y) that ripple the mesh."""
    keys = []
    for k, t in enumerate(times):
        a = amplitude * math.sin(2 * math.pi * k / (len(times) - 1) + phase)
        vec = [round(a * math.sin(0.7 * j + phase), 2) for j in range(2 * influences)]
        keys.append({"time": round(float(t), 4), "offset": 0, "vertices": vec} if k % 2 else {"time": round(float(t), 4)})
    return keys


def animations(bones, deformable):
    """Two animations (sway 1 s, dance 2 s at 30 fps): every moving bone rotated, the
    hip and IK targets translated, every mesh deformed (``deformable``: slot -> (skin,
    influences))."""
    out = {}
    for name, duration, speed in (("sway", 1.0, 1.0), ("dance", 2.0, 1.6)):
        times = np.linspace(0.0, duration, 7)
        keyed = {}
        for i, (bone, *_rest) in enumerate(bones):
            if bone == "root" or bone.endswith("target"):
                continue
            amp = 3.0 + 6.0 * speed * ((i * 7) % 5) / 4
            keyed[bone] = {"rotate": [{"time": round(float(t), 4), "value": round(amp * math.sin(2 * math.pi * t / duration + 0.37 * i), 2)}
                                      for t in times]}
        keyed["hip"]["translate"] = [{"time": round(float(t), 4), "x": round(15 * speed * math.sin(2 * math.pi * t / duration), 2),
                                      "y": round(-10 * math.cos(4 * math.pi * t / duration), 2)} for t in times]
        for k, (target, *_xy) in enumerate(TARGETS):
            keyed[target] = {"translate": [{"time": round(float(t), 4), "x": round(40 * speed * math.sin(2 * math.pi * t / duration + k), 2),
                                            "y": round(25 * speed * math.cos(2 * math.pi * t / duration + k), 2)} for t in times]}
        deforms: dict = {}
        for k, (slot, (skin, influences)) in enumerate(deformable.items()):
            deforms.setdefault(skin, {}).setdefault(slot, {})[slot] = {"deform": _deform(influences, times, 2.0 * speed, 0.5 * k)}
        out[name] = {"bones": keyed, "attachments": deforms}
    return out


def build():
    """(skeleton dict, atlas text, page RGBA)."""
    table = bone_table()
    world = setup_world(table)
    lengths = {b[0]: b[2] for b in table}
    names = [b[0] for b in table]
    bones = []
    for name, parent, length, rot, x, y in table:
        entry = {"name": name, **({"parent": parent} if parent else {})}
        entry.update({k: v for k, v in (("length", length), ("rotation", rot), ("x", x), ("y", y)) if v})
        bones.append(entry)
    slots, skins, regions, deformable = [], {s: {} for s in SHOWN + ALTERNATIVES}, [], {}
    for k, (slot, skin, chain, cols, rows, half) in enumerate(MESHES):
        pts, uvs, tris, hull = _strip(chain, cols, rows, half, world, lengths)
        verts = []
        for p in pts:
            verts += _weights(p, chain, world, lengths, names, most=2 + k % 3, digits=2)
        slots.append({"name": slot, "bone": chain[0], "attachment": slot})
        mesh = {"type": "mesh", "uvs": [round(float(v), 4) for v in uvs.ravel()], "triangles": tris,
                "vertices": verts, "hull": hull, "width": 96, "height": 32}
        for owner in (skin, REPLACED.get(slot)):
            if owner:
                picture = slot if owner == skin else f"{owner}/{slot}"
                skins[owner][slot] = {slot: {**mesh, **({"path": picture} if owner != skin else {})}}
                regions.append((picture, 96, 32))
        deformable[slot] = (skin, (len(verts) - len(pts)) // 4)
    for slot, skin, bone, w, h, blend in REGIONS:
        slots.append({"name": slot, "bone": bone, "attachment": slot, **({"blend": blend} if blend != "normal" else {})})
        skins[skin][slot] = {slot: {"x": round(lengths[bone] * 0.6, 2), "rotation": -90, "width": w, "height": h}}
        regions.append((slot, w, h))
    # Draw order: the far side and the cape behind the body, the face and hands in front.
    back = ("cape", "arm-r", "leg-r", "hair-c", "hair-d")
    slots.sort(key=lambda s: (0 if s["name"].startswith(back) else 2 if s["name"].startswith(("eye", "mouth", "nose", "brow", "hand", "glow", "hat")) else 1))
    skeleton = {
        "skeleton": {"spine": "4.2.11", "fps": 30, "images": "./images/"},
        "bones": bones,
        "slots": slots,
        "ik": [{"name": n, "order": i, "bones": b, "target": t, **({} if bp else {"bendPositive": False})}
               for i, (n, b, t, bp) in enumerate(IK)],
        "skins": [{"name": "default", "attachments": {}}]
        + [{"name": s, "attachments": skins[s]} for s in SHOWN + ALTERNATIVES],
        "animations": animations(table, deformable),
    }
    return (skeleton, *page_of(regions, STEM, width=512, seed=5))


def main():
    from rigeditor.io.art.images import encode_png

    skeleton, atlas, page = build()
    OUT.mkdir(exist_ok=True)
    (OUT / f"{STEM}.json").write_text(json.dumps(skeleton, separators=(",", ":")))
    (OUT / f"{STEM}.atlas").write_text(atlas)
    (OUT / f"{STEM}.png").write_bytes(encode_png(page))
    shown = [a for s in skeleton["skins"] if s["name"] in SHOWN for slot in s["attachments"].values() for a in slot.values()]
    meshes = [a for a in shown if a.get("type") == "mesh"]
    verts = [len(a["uvs"]) // 2 for a in meshes]
    print(f"{len(skeleton['bones'])} bones, {len(skeleton['ik'])} IK, {len(skeleton['slots'])} slots, "
          f"{len(meshes)} meshes ({min(verts)}-{max(verts)} vertices, {sum(len(a['triangles']) // 3 for a in meshes)} triangles), "
          f"{(OUT / f'{STEM}.json').stat().st_size / 1e3:.0f} kB JSON -> {OUT}")


if __name__ == "__main__":
    main()
