"""A production-style Spine rig (spine_production: every kind of IK the import keeps, a
transform constraint, inherit modes, shear, two skins, a weighted mesh, a sequence,
draw-order and attachment keys) imported and exported again writes back what was read:
the same bones in the same tree and setup pose, the same constraints, slots, skins and
timelines, and its Spine data alone plays as the original (every bone, every frame)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.write import export_spine_json
from rigeditor.model import evaluate
from rigeditor.model.data import clips

from round_trip_compare import project_differences
from spine_production import write_production_rig


def _export_all(project, path, images):
    names = clips.names(project)
    opened = [clips.switch(project, n) for n in names]
    notes = []
    export_spine_json(opened[0], evaluate(opened[0]), path, animation=names[0], images=images, notes=notes,
                      more=[(n, p, evaluate(p)) for n, p in zip(names[1:], opened[1:])])
    return notes


@pytest.fixture(scope="module")
def trip(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("production")
    source = write_production_rig(tmp / "src")
    import_spine(source, tmp / "a" / "hero.rigproj")
    read = load_project(tmp / "a" / "hero.rigproj")
    notes = _export_all(read, tmp / "b" / "hero.json", tmp / "a")
    return tmp, json.loads(source.read_text()), json.loads((tmp / "b" / "hero.json").read_text()), read, notes


def _setup(bone):
    keys = ("length", "x", "y", "rotation", "scaleX", "scaleY", "shearX", "shearY")
    defaults = {"scaleX": 1.0, "scaleY": 1.0}
    return [float(bone.get(k, defaults.get(k, 0.0))) for k in keys]


def test_the_bones_tree_setup_and_constraints_are_written_back(trip):
    _, a, b, _, notes = trip
    assert notes == []  # every chain is live: nothing is baked
    assert [(x["name"], x.get("parent")) for x in b["bones"]] == [(x["name"], x.get("parent")) for x in a["bones"]]
    for x, y in zip(a["bones"], b["bones"]):
        # (a point bone comes back with RigEditor's shortest length)
        assert _setup(y)[1:] == pytest.approx(_setup(x)[1:], abs=1e-6), x["name"]
        assert y.get("inherit", "normal") == x.get("inherit", "normal")
    fields = ("bones", "target", "mix", "softness", "bendPositive", "stretch", "compress", "uniform")
    defaults = {"mix": 1.0, "softness": 0.0, "bendPositive": True, "stretch": False, "compress": False,
                "uniform": False}
    ik = lambda c: [c.get(f, defaults.get(f)) for f in fields]
    assert {c["name"]: ik(c) for c in b["ik"]} == {c["name"]: ik(c) for c in a["ik"]}
    order = lambda doc: sorted((c["order"], c["name"]) for c in doc["ik"] + doc.get("transform", []))
    assert order(b) == order(a)
    (ta,), (tb,) = a["transform"], b["transform"]
    for f in ("bones", "target", "rotation", "x", "y", "mixRotate", "mixX", "mixScaleX", "mixShearY"):
        assert tb.get(f, 1.0 if f.startswith("mix") else 0) == pytest.approx(
            ta.get(f, 1.0 if f.startswith("mix") else 0)), f


def test_slots_skins_and_timelines_are_written_back(trip):
    _, a, b, _, _ = trip
    assert b["slots"] == a["slots"]
    kinds = lambda doc: {s["name"]: {slot: {n: v.get("type", "region") for n, v in atts.items()}
                                     for slot, atts in s["attachments"].items()} for s in doc["skins"]}
    assert kinds(b) == kinds(a)
    assert list(b["animations"]) == list(a["animations"])
    for name, anim in a["animations"].items():
        back = b["animations"][name]
        kinds = lambda a: {bone: sorted(t) for bone, t in a.get("bones", {}).items()}
        assert kinds(back) == kinds(anim), name
        for section in ("ik", "transform", "slots"):
            assert set(anim.get(section, {})) == set(back.get(section, {})), (name, section)
        for chain, keys in anim.get("ik", {}).items():  # the keys read, not one per frame
            ours = back["ik"][chain]
            assert [k.get("time", 0.0) for k in ours] == pytest.approx([k.get("time", 0.0) for k in keys], abs=1e-6)
            for field, default in (("mix", 1.0), ("softness", 0.0), ("bendPositive", True)):
                assert [k.get(field, default) for k in ours] == [k.get(field, default) for k in keys], field
        assert ("drawOrder" in anim) == ("drawOrder" in back)
        for slot, timelines in anim.get("slots", {}).items():
            assert [k["name"] for k in back["slots"][slot]["attachment"]] == \
                [k["name"] for k in timelines["attachment"]]


def test_the_spine_data_written_back_plays_as_the_original(trip):
    # Both skeletons read from their Spine data alone (the export's own data left out):
    # every bone's world frame at every frame of both animations within 0.01 units.
    tmp, _, b, _, _ = trip
    del b["skeleton"]["rigeditor"]
    (tmp / "b" / "alone.json").write_text(json.dumps(b))
    (tmp / "b" / "alone.atlas").write_bytes((tmp / "b" / "hero.atlas").read_bytes())
    import_spine(tmp / "b" / "alone.json", tmp / "c" / "alone.rigproj", force=True)
    first, again = load_project(tmp / "a" / "hero.rigproj"), load_project(tmp / "c" / "alone.rigproj")
    for name in clips.names(first):
        p, q = clips.switch(first, name), clips.switch(again, name)
        bp, bq = evaluate(p), evaluate(q)
        assert len(bp) == len(bq)
        for bone in bp.bones:
            i, j = bp.column(bone), bq.column(bone)
            for table in ("joint_world", "tip_world"):
                gap = np.hypot(*(getattr(bp, table)[:, i] - getattr(bq, table)[:, j]).T).max()
                assert gap < 0.01, (name, bone, table, gap)


def test_import_export_import_gives_back_the_project_read(trip):
    tmp, _, _, read, _ = trip
    import_spine(tmp / "b" / "hero.json", tmp / "d" / "hero.rigproj", force=True)
    assert project_differences(read, load_project(tmp / "d" / "hero.rigproj")) == []
