"""Sequences from Spine: every frame's picture imported, the frame shown per time as
the sequence keys play it (modes, delay, index; the setup frame before a key and on
another attachment), drawn with that frame's picture, exported back."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from rigeditor.io.project_file import load_project, save_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.write import spine_document
from rigeditor.io.spine.write_art import atlas_files
from rigeditor.model.data.clips import switch
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, write_rig
from tests.model.test_sequence_modes import played

FRAME = "{}\nbounds:60,20,21,38\noffsets:0,0,24,40\n"  # the shin's region, under a frame's name


def sequence_doc():
    """LEG with a 4-frame "wing" sequence (regions wing01..wing04, setup frame 2) on the
    thigh, keyed: loop from 0 every 0.1 s at 0.1 s, pingpongReverse from 1 at 0.6 s,
    a still picture ("plain") from 1.0 s to 1.2 s, hold 3 at 1.3 s."""
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["mix"] = 0
    doc["slots"].append({"name": "wing", "bone": "thigh", "attachment": "wing"})
    doc["skins"][0]["attachments"]["wing"] = {
        "wing": {"x": 10, "y": 4, "rotation": 30, "width": 24, "height": 40,
                 "sequence": {"count": 4, "start": 1, "digits": 2, "setup": 2}},
        "plain": {"path": "shin", "width": 24, "height": 40}}
    doc["animations"] = {"flap": {
        "slots": {"wing": {"attachment": [{"time": 1.0, "name": "plain"}, {"time": 1.2, "name": "wing"}]}},
        "attachments": {"default": {"wing": {"wing": {"sequence": [
            {"time": 0.1, "mode": "loop", "delay": 0.1},
            {"time": 0.6, "mode": "pingpongReverse", "index": 1, "delay": 0.0666667},
            {"time": 1.3, "index": 3}]}}}},
        "bones": {"thigh": {"rotate": [{"value": 0}, {"time": 1.5, "value": 20}]}}}}
    return doc


def _at(t: float, key: float) -> bool:
    """Whether a key at ``key`` s is in effect at ``t``: runtimes hold key times as 32-bit floats."""
    return t >= float(np.float32(key))


def _steps(t: float, key: float, delay: float) -> int:
    return int((t - float(np.float32(key))) / float(np.float32(delay)) + 1e-5)


def expected(frame: int, second_delay: float = 0.0666667):
    """(attachment, sequence frame) at timeline frame ``frame`` (30 fps), by hand;
    ``second_delay``: the pingpongReverse key's delay (s)."""
    t = frame / 30
    if _at(t, 1.0) and not _at(t, 1.2):
        return "plain", -1
    if not _at(t, 0.1):
        return "wing", 2  # the setup frame
    if not _at(t, 0.6):
        return "wing", played("loop", 4, 0, _steps(t, 0.1, 0.1))
    if not _at(t, 1.3):
        return "wing", played("pingpongReverse", 4, 1, _steps(t, 0.6, second_delay))
    return "wing", 3


@pytest.fixture
def imported(tmp_path):
    src = write_rig(tmp_path / "src", sequence_doc())
    atlas = src.with_suffix(".atlas")
    atlas.write_text(atlas.read_text() + "".join(FRAME.format(f"wing{i:02d}") for i in range(1, 5)))
    result = import_spine(src, tmp_path / "leg.rigproj")
    return result, load_project(tmp_path / "leg.rigproj"), tmp_path


def test_every_frame_is_imported_without_warnings(imported):
    result, project, folder = imported
    assert not any("sequence" in w for w in result.warnings), result.warnings
    wing = project.art.slot("wing").find("wing")
    assert wing.sequence.count == 4 and (wing.sequence.start, wing.sequence.digits, wing.sequence.setup) == (1, 2, 2)
    assert wing.path == wing.sequence.paths[2] and all((folder / p).is_file() for p in wing.sequence.paths)


def test_the_frame_shown_per_time_is_the_keys(imported):
    _, project, _ = imported
    bake = evaluate(project)
    col = bake.art.column("wing")
    slot = project.art.slot("wing")
    assert len(bake) == 46  # 0 .. 1.5 s at 30 fps
    for i in range(len(bake)):
        name, frame = expected(i)
        assert slot.attachments[int(bake.art.attachment[i, col])].name == name, i
        assert int(bake.art.sequence[i, col]) == frame, i


def test_sequences_survive_the_project_file_in_every_animation(tmp_path):
    doc = sequence_doc()
    doc["animations"]["still"] = {"attachments": {"default": {"wing": {"wing": {"sequence": [{"index": 1}]}}}}}
    src = write_rig(tmp_path / "src", doc)
    atlas = src.with_suffix(".atlas")
    atlas.write_text(atlas.read_text() + "".join(FRAME.format(f"wing{i:02d}") for i in range(1, 5)))
    import_spine(src, tmp_path / "leg.rigproj")
    project = load_project(tmp_path / "leg.rigproj")  # the other animation's keys stored, then read back
    save_project(project, tmp_path / "again.rigproj")
    again = load_project(tmp_path / "again.rigproj")
    assert again.art == project.art and again.animations == project.animations
    assert np.array_equal(evaluate(again).art.sequence, evaluate(project).art.sequence)
    still = evaluate(switch(again, "still")).art
    assert set(still.sequence[:, still.column("wing")].tolist()) == {1}


def test_the_painter_draws_each_frames_picture(qapp, imported):
    from PySide6.QtGui import QImage, QPainter

    from rigeditor.app.art_paint import ImageCache, draw_art

    _, project, folder = imported

    class Recording(ImageCache):
        def __init__(self):
            super().__init__()
            self.asked = []

        def get(self, path, *colour):
            self.asked.append(path.relative_to(folder).as_posix() if path is not None else None)
            return super().get(path, *colour)

    bake = evaluate(project)
    col = bake.art.column("wing")
    paths = project.art.slot("wing").find("wing").sequence.paths
    image = QImage(200, 200, QImage.Format.Format_ARGB32_Premultiplied)
    for i in (0, 4, 7, 20, 40):
        cache = Recording()
        p = QPainter(image)
        draw_art(p, project, bake.art.row(i), lambda pts: np.asarray(pts).reshape(-1, 2), folder, cache,
                 slots={col})
        p.end()
        assert cache.asked == [paths[expected(i)[1]]], i


def as_spine_reads(keys) -> list:
    """(time, mode, index, delay) of Spine sequence keys as the runtimes read them: a
    missing mode is hold, index 0, and a missing delay the previous key's (0 at first)."""
    out, delay = [], 0.0
    for k in keys:
        delay = k.get("delay", delay)
        out.append((round(k.get("time", 0.0), 5), k.get("mode", "hold"), k.get("index", 0), round(delay, 5)))
    return out


def _exported_keys(project):
    out = spine_document(project, evaluate(project), animation="flap")
    return out, out["animations"]["flap"]["attachments"]["default"]["wing"]["wing"]["sequence"]


def test_sequences_export_back_as_written(imported):
    _, project, folder = imported
    doc = sequence_doc()
    out, keys = _exported_keys(project)
    skin = next(s for s in out["skins"] if s["name"] == "default")["attachments"]["wing"]["wing"]
    assert skin["sequence"] == doc["skins"][0]["attachments"]["wing"]["wing"]["sequence"]
    regions = [f"{skin['path']}{i:02d}" for i in range(1, 5)]
    assert as_spine_reads(keys) == as_spine_reads(doc["animations"]["flap"]["attachments"]["default"]["wing"]["wing"]
                                                  ["sequence"])
    atlas = atlas_files(project, folder, "out")["out.atlas"].decode()
    assert all(f"\n{r}\n" in atlas for r in regions), atlas


def _imported_with(tmp_path, doc):
    src = write_rig(tmp_path / "src", doc)
    atlas = src.with_suffix(".atlas")
    atlas.write_text(atlas.read_text() + "".join(FRAME.format(f"wing{i:02d}") for i in range(1, 5)))
    import_spine(src, tmp_path / "leg.rigproj")
    return load_project(tmp_path / "leg.rigproj")


def _keys(doc):
    return doc["animations"]["flap"]["attachments"]["default"]["wing"]["wing"]["sequence"]


def test_a_key_without_a_delay_plays_at_the_previous_keys_pace(tmp_path):
    """Spine writes a delay once and a later key without one keeps it (its dragon's
    wing keys do): the pingpongReverse from 0.6 s steps every 0.1 s, the loop's delay."""
    doc = sequence_doc()
    del _keys(doc)[1]["delay"]
    project = _imported_with(tmp_path, doc)
    bake = evaluate(project)
    col = bake.art.column("wing")
    shown = [int(bake.art.sequence[i, col]) for i in range(len(bake))]
    assert shown == [expected(i, second_delay=0.1)[1] for i in range(len(bake))]
    assert len(set(shown[18:30])) > 1  # it plays on (at a delay of 0 it would stay on frame 1)
    assert as_spine_reads(_exported_keys(project)[1]) == as_spine_reads(_keys(doc))


def test_a_delay_set_back_to_zero_is_written_so_no_runtime_keeps_the_previous_one(tmp_path):
    doc = sequence_doc()
    _keys(doc)[1]["delay"] = 0
    keys = _exported_keys(_imported_with(tmp_path, doc))[1]
    assert keys[1]["delay"] == 0
    assert as_spine_reads(keys) == as_spine_reads(_keys(doc))


def test_a_linked_mesh_plays_its_parents_sequence_keys_clamped_to_its_own_frames(tmp_path):
    """cape (4 frames) is keyed to loop every 0.1 s from 0.1 s; cape2 links to it and plays
    those keys (counted over cape's 4 frames, shown at most at its own last frame 1);
    cape3 links to it with ``timelines: false`` and plays only its own hold at 0.8 s."""
    doc = sequence_doc()
    skin = doc["skins"][0]["attachments"]["wing"]
    skin["cape"] = {"type": "mesh", "path": "wing", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [0, 1, 2, 2, 3, 0],
                    "hull": 4, "vertices": [0, 0, 20, 0, 20, 30, 0, 30], "width": 24, "height": 40,
                    "sequence": {"count": 4, "start": 1, "digits": 2, "setup": 3}}
    skin["cape2"] = {"type": "linkedmesh", "parent": "cape", "path": "wing", "sequence": {"count": 2, "start": 3,
                                                                                          "digits": 2}}
    skin["cape3"] = {"type": "linkedmesh", "parent": "cape", "path": "wing", "timelines": False,
                     "sequence": {"count": 3, "start": 1, "digits": 2, "setup": 2}}
    flap = doc["animations"]["flap"]
    flap["slots"]["wing"]["attachment"] = [{"name": "cape2"}, {"time": 0.5, "name": "cape3"}]
    flap["attachments"]["default"]["wing"] = {"cape": {"sequence": [{"time": 0.1, "mode": "loop", "delay": 0.1}]},
                                              "cape3": {"sequence": [{"time": 0.8, "index": 1}]}}
    src = write_rig(tmp_path / "src", doc)
    atlas = src.with_suffix(".atlas")
    atlas.write_text(atlas.read_text() + "".join(FRAME.format(f"wing{i:02d}") for i in range(1, 5)))
    result = import_spine(src, tmp_path / "leg.rigproj")
    assert not any("sequence" in w for w in result.warnings), result.warnings
    project = load_project(tmp_path / "leg.rigproj")
    slot = project.art.slot("wing")
    assert (slot.find("cape2").sequence.count, slot.find("cape2").sequence.start) == (2, 3)  # its own frames
    bake = evaluate(project)
    col = bake.art.column("wing")
    for i in range(len(bake)):
        t = i / 30
        if t < float(np.float32(0.5)):
            want = ("cape2", 0 if not _at(t, 0.1) else min(played("loop", 4, 0, _steps(t, 0.1, 0.1)), 1))
        else:
            want = ("cape3", 1 if _at(t, 0.8) else 2)
        got = (slot.attachments[int(bake.art.attachment[i, col])].name, int(bake.art.sequence[i, col]))
        assert got == want, (i, got, want)
