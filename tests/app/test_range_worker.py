"""The frame under the hand first: during a gesture the Document evaluates the current
frame itself and the whole range on a background worker. What the worker delivers
must be the Bake a full evaluation gives, bit for bit, whatever the edits and however
they interleave with the worker; the current frame must be exact all along."""
import math
import threading
from dataclasses import fields, replace

import numpy as np
import pytest

from rigeditor.app.document import Document
from rigeditor.core.filters import Smoothing
from rigeditor.core.geometry import Affine
from rigeditor.model import (CHARACTER, WORLD, Bone, Chain, Channel, Key, Project, Space, StepChannel, Target, Timeline,
                             evaluate, keyed)
from rigeditor.edits.posing import set_target_key, turn_bone

FRAMES = 400


def arms(n=4, smoothed=(3,)) -> Project:
    """``n`` two-bone arms (one with a hand bone below it, one hanging from another
    arm's hand); the chains in ``smoothed`` filter their targets (whole-range edits)."""
    rng = np.random.default_rng(11)
    bones, targets, chains = [], [], []
    for i in range(n):
        x0 = 300.0 * i
        parent = "lower_0" if i == 1 else None
        bones += [Bone(f"upper_{i}", parent, 100.0, rest_offset=(x0, 0.0) if parent is None else (80.0, 0.0)),
                  Bone(f"lower_{i}", f"upper_{i}", 80.0, rest_offset=(100.0, 0.0))]
        path = [(f, (x0 + 120 * math.cos(f / 30) + rng.normal(0, 3), 100 * math.sin(f / 20)))
                for f in range(0, FRAMES, 25)]
        targets.append(Target(f"hand_{i}", StepChannel(WORLD), keyed(path, "bezier")))
        smoothing = Smoothing("one_euro", min_cutoff_hz=1.0, beta=0.01) if i in smoothed else Smoothing()
        chains.append(Chain(f"arm_{i}", (f"upper_{i}", f"lower_{i}"), f"hand_{i}", smoothing=smoothing))
    bones.append(Bone("hand", "lower_2", 30.0, rest_offset=(80.0, 0.0)))
    return Project(name="arms", timeline=Timeline(24.0, 0, FRAMES - 1), spaces=(Space(CHARACTER),),
                   bones=tuple(bones), targets=tuple(targets), chains=tuple(chains))


def _same(a, b, where):
    if isinstance(a, Affine):
        for x, y in zip(a.fields(), b.fields()):
            _same(x, y, where)
    elif isinstance(a, np.ndarray):
        assert a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind == "f"), where
    else:
        assert a == b, where


def assert_same_bake(got, want, rows=None):
    """Every array of every bone and chain equal (at ``rows``, default all)."""
    assert got.bones == want.bones and list(got.chains) == list(want.chains)
    pick = (lambda v: v) if rows is None else (lambda v: v.take(rows) if isinstance(v, Affine) else
                                               v[rows] if isinstance(v, np.ndarray) and v.ndim else v)
    for name, g, w in zip(got.bones, got.bone_bakes, want.bone_bakes):
        for f in fields(w):
            _same(getattr(g, f.name), pick(getattr(w, f.name)), (name, f.name))
    for name, w in want.chains.items():
        g = got.chains[name]
        for f in fields(w):
            if rows is not None and f.name in ("hold", "hold_drift", "hold_world_motion", "flip"):
                continue  # they compare with the frame before: they come with the range
            _same(getattr(g, f.name), pick(getattr(w, f.name)), (name, f.name))


class Gate:
    """Wraps the worker's evaluation so a test can hold it mid-run."""

    def __init__(self, doc):
        self.inner, self.started, self.release = doc._worker.evaluate, threading.Event(), threading.Event()
        self.release.set()
        doc._worker.evaluate = self

    def __call__(self, *args, **kwargs):
        self.started.set()
        self.release.wait(10)
        return self.inner(*args, **kwargs)


def random_edit(doc, rng, key):
    p, frame = doc.project, doc.frame
    kind = rng.integers(0, 10)
    if kind < 6:  # a drag step on a target
        t = f"hand_{rng.integers(0, 4)}"
        pos = tuple(float(v) for v in rng.uniform(-150, 1000, 2))
        doc.apply("Move target", set_target_key(p, t, frame, pos), touched={f"target:{t}"}, merge_key=key)
    elif kind < 8:  # a drag step turning a bone (an arm's own bone, or the hand below one)
        bone = ["hand", "upper_0", "lower_2"][rng.integers(0, 3)]
        doc.apply("Turn", turn_bone(p, bone, frame, float(rng.uniform(-0.5, 0.5)), "animate"),
                  touched={f"bone:{bone}"}, merge_key=key)
    elif kind < 9:  # an ordinary edit between gestures
        t = f"hand_{rng.integers(0, 4)}"
        doc.apply("Key", set_target_key(p, t, int(rng.integers(0, FRAMES)), (50.0, 20.0)), touched={f"target:{t}"})
    else:
        doc.set_frame(int(rng.integers(0, FRAMES)))


@pytest.mark.parametrize("seed", range(4))
def test_the_range_the_worker_delivers_is_a_full_evaluation(qtbot, seed):
    rng = np.random.default_rng(seed)
    doc = Document(arms())
    doc.set_frame(120)
    gate = Gate(doc)
    key = ("drag", doc.begin_gesture())
    for step in range(30):
        if rng.random() < 0.3 and doc.range_pending:
            # Hold the worker mid-run and land an edit on top of it.
            gate.release.clear()
            gate.started.clear()
            random_edit(doc, rng, key)
            if doc.range_pending:  # the pointer rests, the worker takes the range: held mid-run
                qtbot.waitUntil(gate.started.is_set, timeout=5_000)
            random_edit(doc, rng, key)
            gate.release.set()
        else:
            random_edit(doc, rng, key)
        full = evaluate(doc.project)
        if doc.range_pending:  # the frame on screen is exact while the range catches up
            assert len(doc.bake) == 1 and doc.bake.frames[0] == doc.frame
            assert_same_bake(doc.bake, full, rows=slice(doc.frame, doc.frame + 1))
        if rng.random() < 0.5:
            qtbot.waitUntil(lambda: not doc.range_pending, timeout=10_000)
            assert_same_bake(doc.bake, full)
            assert doc.range_bake is doc.bake
    qtbot.waitUntil(lambda: not doc.range_pending, timeout=10_000)
    assert_same_bake(doc.bake, evaluate(doc.project))


def shaped(path):
    """Bezier keys with handles off the thirds of their segments (a curve the animator
    shaped): the time of a frame is then found by Newton steps, not read off."""
    return Channel((0.0, 0.0), tuple(Key(f, v, "bezier", out_handle=(4.0, 30.0, -20.0), in_handle=(-9.0, 10.0, 25.0))
                                     for f, v in path))


def variant(kind) -> Project:
    """arms() with one thing that is decided over the whole range unless care is taken."""
    p = arms()
    if kind == "shaped curve":  # arm_1 hangs below arm_0: its target is sampled off its keys
        path = [(f, (120.0 * math.cos(f / 30), 100.0 * math.sin(f / 20))) for f in range(0, FRAMES, 25)]
        return p.with_target("hand_1", position=shaped(path))
    if kind == "squashed early":  # the character squashes on early frames only
        squash = keyed([(0, (1.3, 0.8)), (100, (1.3, 0.8)), (150, (1.0, 1.0))], "linear")
        return replace(p, spaces=(Space(CHARACTER, scale=squash),))
    if kind == "mixed early":  # arm_0 blends with FK on early frames only
        return p.with_chain("arm_0", mix=keyed([(0, (0.5,)), (100, (1.0,))], "linear"))
    # A long limb: its zero-distance guard (1e-9 of its length) is above a micron.
    long = {"upper_0": 2000.0, "lower_0": 1600.0}
    return replace(p, bones=tuple(replace(b, length=long.get(b.name, b.length)) for b in p.bones))


@pytest.mark.parametrize("kind", ["shaped curve", "squashed early", "mixed early", "long limb"])
def test_the_frame_on_screen_is_that_frame_of_the_range(qtbot, kind):
    doc = Document(variant(kind))
    doc.set_frame(213)  # between keys
    gate = Gate(doc)
    gate.release.clear()  # the range waits: the frame alone is on screen
    key = ("drag", doc.begin_gesture())
    if kind == "long limb":  # the target a hair's breadth from the shoulder
        doc.apply("Move target", set_target_key(doc.project, "hand_0", 213, (2e-6, 0.0)),
                  touched={"target:hand_0"}, merge_key=key)
    else:  # arm_0 and the arm below it solved again at this frame
        doc.apply("Turn", turn_bone(doc.project, "upper_0", 213, 0.3, "animate"), touched={"bone:upper_0"},
                  merge_key=key)
        assert doc.range_pending and len(doc.bake) == 1
    full = evaluate(doc.project)
    assert_same_bake(doc.bake, full, rows=slice(213, 214) if doc.range_pending else None)
    gate.release.set()
    qtbot.waitUntil(lambda: not doc.range_pending, timeout=10_000)
    assert_same_bake(doc.bake, full)


def test_a_drag_takes_the_frame_path_and_the_curves_follow_when_it_ends(qtbot):
    from rigeditor.app.curves import CurvesWidget

    doc = Document(arms())
    curves = CurvesWidget(doc)
    qtbot.addWidget(curves)
    doc.set_frame(200)
    gate = Gate(doc)
    gate.release.clear()
    before = doc.range_bake
    doc.select([("target", "hand_0")])
    doc.apply("Move target", set_target_key(doc.project, "hand_0", 200, (40.0, 30.0)),
              touched={"target:hand_0"}, merge_key=("drag", doc.begin_gesture()))
    assert doc.range_pending and len(doc.bake) == 1
    assert doc.range_bake is before  # the old range, and the curves say so
    assert "updating" in curves._title.text()
    gate.release.set()
    qtbot.waitUntil(lambda: not doc.range_pending, timeout=10_000)
    # The range landed but the drag goes on: the curves wait for its end, and say so.
    qtbot.wait(150)
    assert curves._shown[1] is not doc.bake.chains["arm_0"]
    assert "updating" in curves._title.text()
    doc.end_gesture()
    assert curves._shown[1] is doc.bake.chains["arm_0"]
    assert "updating" not in curves._title.text()


def test_a_drag_that_ends_before_its_range_lands_is_plotted_once_it_lands(qtbot):
    """A range landed mid-drag (the pointer rested), then the drag went on and ended
    with its last range still on the worker: the curves keep saying "updating" and
    are plotted from the range that lands, not from the one in between."""
    from rigeditor.app.curves import CurvesWidget

    doc = Document(arms())
    curves = CurvesWidget(doc)
    qtbot.addWidget(curves)
    doc.set_frame(200)
    doc.select([("target", "hand_0")])
    before = curves._shown[1]
    gate = Gate(doc)
    key = ("drag", doc.begin_gesture())
    doc.apply("Move target", set_target_key(doc.project, "hand_0", 200, (40.0, 30.0)),
              touched={"target:hand_0"}, merge_key=key)
    doc._submit_range()  # the pointer rests: the range goes to the worker
    qtbot.waitUntil(lambda: not doc.range_pending, timeout=10_000)
    between = doc.range_bake
    gate.release.clear()
    doc.apply("Move target", set_target_key(doc.project, "hand_0", 200, (60.0, 10.0)),
              touched={"target:hand_0"}, merge_key=key)
    doc.end_gesture()
    assert doc.range_pending
    assert "updating" in curves._title.text()
    assert curves._shown[1] is before  # not re-plotted from the range in between
    assert curves._shown[1] is not between.chains["arm_0"]
    gate.release.set()
    qtbot.waitUntil(lambda: not doc.range_pending, timeout=10_000)
    qtbot.waitUntil(lambda: curves._shown[1] is doc.range_bake.chains["arm_0"], timeout=2_000)
    assert "updating" not in curves._title.text()
    angles = curves.angle_curves["upper_0"].yData
    full = evaluate(doc.project)
    assert np.allclose(angles, np.degrees(np.unwrap(full.bone("upper_0").local_rotation)), atol=1e-9)


def test_a_smoothed_chain_is_evaluated_over_the_whole_range_at_once():
    # arm_3 filters its target over time: a frame alone is not that frame of the range.
    doc = Document(arms())
    doc.set_frame(213)
    doc.apply("Move target", set_target_key(doc.project, "hand_3", 213, (900.0, 30.0)),
              touched={"target:hand_3"}, merge_key=("drag", doc.begin_gesture()))
    assert not doc.range_pending
    assert_same_bake(doc.bake, evaluate(doc.project))


@pytest.mark.parametrize("solver", ["fabrik", "ccd"])
def test_an_iterative_chain_drag_solves_the_frame_alone_and_hands_the_range_to_the_worker(qtbot, solver):
    # The chain warm-starts each frame from the one before: the frame under the hand
    # starts from the last range's solution of the frame before (ik_warm).
    doc = Document(arms().with_chain("arm_2", solver=solver, tolerance=1e-4))
    doc.set_frame(213)
    gate = Gate(doc)
    gate.release.clear()  # the range waits: the frame alone is on screen
    before = doc.range_bake
    key = ("drag", doc.begin_gesture())
    for step in range(3):
        doc.apply("Move target", set_target_key(doc.project, "hand_2", 213, (690.0 + 5 * step, 60.0)),
                  touched={"target:hand_2"}, merge_key=key)
        assert doc.range_pending and len(doc.bake) == 1  # the UI thread solved one frame
        assert doc.range_bake is before
        full = evaluate(doc.project)
        got, want = doc.bake.chains["arm_2"], full.chains["arm_2"]
        assert np.array_equal(got.target_world[0], want.target_world[213])
        assert got.residual[0] <= 1e-4 and want.residual[213] <= 1e-4
        assert np.array_equal(got.warm[0], before.chains["arm_2"].warm[213])
    qtbot.waitUntil(gate.started.is_set, timeout=5_000)  # the pointer rested: the worker took it
    gate.release.set()
    qtbot.waitUntil(lambda: not doc.range_pending, timeout=10_000)
    assert_same_bake(doc.bake, evaluate(doc.project))
    doc.end_gesture()


def test_a_short_range_is_evaluated_whole_on_every_move():
    from rigeditor.examples.rigs import walk

    doc = Document(walk())  # 48 frames: the whole range costs what one frame does
    doc.set_frame(30)
    doc.apply("Move target", set_target_key(doc.project, "foot_l", 30, (40.0, 3.0)),
              touched={"target:foot_l"}, merge_key=("drag", doc.begin_gesture()))
    assert not doc.range_pending and len(doc.bake) == len(doc.project.timeline.frames)
    assert_same_bake(doc.bake, evaluate(doc.project))


def test_a_short_range_of_a_big_rig_takes_the_frame_path_and_lands_the_same_range(qtbot):
    # 40 frames of a 71-bone rig: whole on every move, the views of the range would
    # re-plot in the release's own turn; the frame under the hand first instead.
    from rigeditor.app.document import FRAME_FIRST_MIN_FRAMES, FRAME_FIRST_MIN_ITEMS

    project = replace(arms(35, smoothed=()), timeline=Timeline(24.0, 0, 39))
    assert len(project.timeline.frames) < FRAME_FIRST_MIN_FRAMES and len(project.bones) >= FRAME_FIRST_MIN_ITEMS
    doc = Document(project)
    doc.set_frame(30)
    key = ("drag", doc.begin_gesture())
    doc.apply("Move target", set_target_key(doc.project, "hand_5", 30, (1540.0, 60.0)),
              touched={"target:hand_5"}, merge_key=key)
    assert doc.range_pending and len(doc.bake) == 1
    want = evaluate(doc.project)
    assert_same_bake(doc.bake, want, rows=[want.index(30)])
    doc.end_gesture()
    qtbot.waitUntil(lambda: not doc.range_pending, timeout=10_000)
    assert_same_bake(doc.range_bake, want)


def test_a_failing_worker_is_caught_and_the_range_evaluated_here(qtbot):
    doc = Document(arms())

    def broken(*args, **kwargs):
        raise MemoryError("no room")

    doc._worker.evaluate = broken
    doc.apply("Move target", set_target_key(doc.project, "hand_0", 0, (40.0, 30.0)),
              touched={"target:hand_0"}, merge_key=("drag", doc.begin_gesture()))
    assert doc.range_pending
    qtbot.waitUntil(lambda: not doc.range_pending, timeout=10_000)
    assert_same_bake(doc.bake, evaluate(doc.project))


def test_export_waits_for_the_range(qtbot):
    doc = Document(arms())
    gate = Gate(doc)
    gate.release.clear()
    doc.apply("Move target", set_target_key(doc.project, "hand_0", 0, (40.0, 30.0)),
              touched={"target:hand_0"}, merge_key=("drag", doc.begin_gesture()))
    assert doc.range_pending
    settled = doc.settled_bake()
    gate.release.set()
    assert not doc.range_pending and len(settled) == FRAMES
    assert_same_bake(settled, evaluate(doc.project))


def test_the_worker_reduces_the_seam_diagnostics_of_the_range_it_delivers(qtbot):
    # The seam curve's worst triangle per frame is computed with the range, on the
    # worker: the UI thread finds it done when the range lands.
    from rigeditor.app.range_worker import RangeWorker
    from rigeditor.core import skinning as sk
    from rigeditor.examples.files import load_example

    project = load_example("skinned_arm")
    worker = RangeWorker()
    worker.submit(1, project, None, None)
    assert worker.wait(30)
    generation, bake, error = worker.take()
    assert error is None and bake.art.meshes
    for m in bake.art.meshes:
        assert "worst" in m.__dict__  # reduced on the worker
        # ...and right: the smallest area ratio of each frame, by brute force here.
        want = [np.min(m.ratios(i)) for i in range(len(bake))]
        assert np.allclose(m.__dict__["worst"][0], want, rtol=1e-12, atol=1e-12)


def test_a_superseded_iterative_range_stops_between_frames_and_the_newest_lands(qtbot):
    # FABRIK's frames are Python loops holding the interpreter lock: a range a newer
    # edit superseded stops at its next frame instead of running on beside the UI.
    from rigeditor.app.range_worker import RangeWorker

    p1 = arms(4, smoothed=()).with_chain("arm_2", solver="fabrik", tolerance=1e-6)
    p2 = set_target_key(p1, "hand_2", 100, (650.0, 70.0))
    worker = RangeWorker()
    between = worker._between_frames

    def newer_edit_arrives(generation):
        if generation == 1 and worker.frames_solved == 5:
            worker.submit(2, p2, None, None)  # as the next mouse move would
        between(generation)

    worker._between_frames = newer_edit_arrives
    worker.submit(1, p1, None, None)
    qtbot.waitUntil(lambda: worker.wait(0), timeout=20_000)
    generation, bake, error = worker.take()
    assert (generation, error) == (2, None)
    assert_same_bake(bake, evaluate(p2))
    # The first range stopped after 6 of its FRAMES frames; the second ran them all.
    assert worker.frames_solved == 6 + FRAMES


def test_a_short_ranges_seam_curve_is_reduced_behind_the_ui_thread_and_right(qtbot, monkeypatch):
    """A short range is evaluated whole on the UI thread at every edit of a drag; its
    worst triangle per frame is reduced on another thread when the curves ask for it
    (at the drag's end), and the curve plotted is that of the edited pose."""
    import threading

    from rigeditor.app.curves import CurvesWidget
    from rigeditor.core import skinning as sk
    from rigeditor.examples.files import load_example

    threads = []
    reduce = sk.worst_area_ratio

    def spy(*args, **kwargs):
        threads.append(threading.current_thread())
        return reduce(*args, **kwargs)

    monkeypatch.setattr(sk, "worst_area_ratio", spy)
    project = load_example("skinned_arm")
    doc = Document(project)
    curves = CurvesWidget(doc)
    qtbot.addWidget(curves)
    qtbot.waitUntil(lambda: bool(curves.seam.curves), timeout=10_000)
    doc.set_frame(project.timeline.start + 3)
    key = ("drag", doc.begin_gesture())
    for _ in range(3):  # bend the elbow: the mesh's seam closes
        doc.apply("Turn", turn_bone(doc.project, "forearm", doc.frame, 0.4, "animate"), touched={"bone:forearm"},
                  merge_key=key)
    assert not doc.range_pending  # short: the whole range was evaluated here
    doc.end_gesture()
    qtbot.waitUntil(lambda: curves.seam._shown_for is doc.range_bake, timeout=10_000)
    assert threads and threading.main_thread() not in threads
    (item,) = curves.seam.curves.values()
    (mesh,) = doc.range_bake.art.meshes
    want = [100 * np.min(mesh.ratios(i)) for i in range(len(doc.range_bake))]  # brute force, frame by frame
    assert np.allclose(np.where(mesh.shown, item.yData, 0), np.where(mesh.shown, want, 0), rtol=1e-9, atol=1e-9)


def test_the_reducer_reduces_every_bake_submitted_not_only_the_newest():
    # Two views (two windows) may each wait for their own range's reduction.
    import time

    from rigeditor.app.range_worker import Reducer, reduced
    from rigeditor.examples.files import load_example

    project = load_example("skinned_arm")
    bakes = [evaluate(project) for _ in range(3)]  # three ranges, none reduced yet
    reducer = Reducer()
    for bake in bakes:
        reducer.submit(bake)
    deadline = time.monotonic() + 30
    while not all(reducer.done(b) for b in bakes) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert all(reduced(b) for b in bakes) and all(reducer.error(b) is None for b in bakes)


def test_the_reducer_leaves_the_ui_thread_its_response_to_the_gesture_first(monkeypatch):
    # A request comes as a drag ends; the reduction starts only after YIELD_S, so the
    # views' catch-up and repaint do not share the interpreter lock with it.
    import time

    from rigeditor.app import range_worker
    from rigeditor.examples.files import load_example

    started = []
    real = range_worker.reduce_diagnostics
    monkeypatch.setattr(range_worker, "reduce_diagnostics",
                        lambda bake: (started.append(time.monotonic()), real(bake)))
    bake = evaluate(load_example("skinned_arm"))
    reducer = range_worker.Reducer()
    submitted = time.monotonic()
    reducer.submit(bake)
    deadline = submitted + 30
    while not reducer.done(bake) and time.monotonic() < deadline:
        time.sleep(0.005)
    assert reducer.done(bake) and reducer.error(bake) is None
    assert started and started[0] - submitted >= range_worker.YIELD_S


def test_a_range_superseded_while_the_worker_waits_its_turn_is_never_evaluated(qtbot, monkeypatch):
    # The worker waits YIELD_S before a request (the UI's response to the edit first);
    # a newer edit arriving meanwhile (the pointer moved on) runs instead of it.
    from rigeditor.app import range_worker

    p1 = arms(2, smoothed=())
    p2 = set_target_key(p1, "hand_1", 100, (650.0, 70.0))
    worker = range_worker.RangeWorker()
    evaluated, waits = [], []
    real_evaluate, real_sleep = worker.evaluate, range_worker.time.sleep

    def evaluate_(project, **kw):
        evaluated.append(project)
        return real_evaluate(project, **kw)

    def sleep(seconds):
        waits.append(seconds)
        if seconds == range_worker.YIELD_S and len(waits) == 1:
            worker.submit(2, p2, None, None)  # as the next mouse move would, during the wait
        real_sleep(seconds)

    worker.evaluate = evaluate_
    monkeypatch.setattr(range_worker.time, "sleep", sleep)
    worker.submit(1, p1, None, None)
    qtbot.waitUntil(lambda: worker.wait(0), timeout=20_000)
    generation, bake, error = worker.take()
    assert (generation, error) == (2, None)
    assert evaluated == [p2]
    assert_same_bake(bake, evaluate(p2))
